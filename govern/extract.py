"""The generated views of a project: inventory, catalog pair and format references, written together or checked."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterable

from govern.config import Config
from govern.fsio import atomic_write_changed, encoded_pieces, holds_bytes
from govern.model.inventory import Inventory, build_inventory, inventory_chunks
from govern.sources.load import load_configured

if TYPE_CHECKING:
    from govern.records.history import History


@dataclass(frozen=True)
class GeneratedFile:
    path: Path
    # Produces the content anew on each call, in UTF-8 chunks: a large inventory is compared and written
    # as it is produced, never held whole, and a comparison stops producing at the first difference.
    render: Callable[[], Iterable[bytes]]

    @classmethod
    def of_text(cls, path: Path, text: str) -> "GeneratedFile":
        return cls(path, lambda: encoded_pieces(text))

    @property
    def text(self) -> str:
        return b"".join(self.render()).decode("utf-8")

    def is_current(self) -> bool:
        return holds_bytes(self.path, self.render())


def current_inventory(config: Config) -> Inventory:
    return build_inventory(load_configured(config))


def generated_files(config: Config, inventory: Inventory, history: "History | None" = None) -> list[GeneratedFile]:
    """The inventory, the catalog pair and the format references, from the sources and the record history.

    `history` defaults to the records on disk, each snapshot read only if a format reference needs it;
    record creation passes the history including the record it is about to write, so everything is
    written together.
    """
    from govern.catalog.render import CatalogSections, catalog_pieces, page_languages, page_name
    from govern.records.history import load_history

    history = history if history is not None else load_history(config, snapshots_when_needed=True)
    schemas = config.path(config.schemas_dir)
    records = config.path(config.records_dir)
    languages = tuple(config.languages)
    formats = format_reference_files(config, history)
    from govern.sources.locate import root_locations

    locations = root_locations(config, list(inventory.graphs))
    # Writing the inventory walks every type's nodes: it leaves each type's declaration here for the catalog.
    declarations: dict[str, dict[str, str]] = {}
    files = [GeneratedFile(schemas / "inventory.json", lambda: inventory_chunks(inventory, locations, declarations))]
    sections = CatalogSections(declarations)  # the named types' sections, shared by the pair
    for language in page_languages(languages):
        files.append(GeneratedFile(schemas / page_name("catalog", language),
                                   lambda language=language: encoded_pieces(catalog_pieces(
                                       inventory, language, history, schemas, records, languages,
                                       formats_index=bool(formats), sections=sections, encoded=True))))
    return files + formats


def format_reference_files(config: Config, history: "History | None" = None) -> list[GeneratedFile]:
    """The format references alone: they depend on the records only, never on the current sources."""
    from govern.catalog.formats import format_files
    from govern.catalog.render import FORMATS_FOLDER
    from govern.records.history import load_history

    history = history if history is not None else load_history(config, snapshots_when_needed=True)
    formats = format_files(config.path(config.schemas_dir) / FORMATS_FOLDER, config.path(config.records_dir),
                           history, tuple(config.languages))
    return [GeneratedFile.of_text(path, text) for path, text in sorted(formats.items())]


def obsolete_files(config: Config, files: list[GeneratedFile]) -> list[Path]:
    """Files in the format references folder that generation no longer produces (a format no longer reached)."""
    from govern.catalog.render import FORMATS_FOLDER

    folder = config.path(config.schemas_dir) / FORMATS_FOLDER
    if not folder.is_dir():
        return []
    wanted = {generated.path for generated in files}
    return sorted(path for path in folder.iterdir()
                  if path.is_file() and path.suffix in (".json", ".md") and path not in wanted)


def stale_files(files: list[GeneratedFile]) -> list[GeneratedFile]:
    return [generated for generated in files if not generated.is_current()]


def write_files(files: list[GeneratedFile], obsolete: list[Path] = ()) -> list[GeneratedFile]:
    """Write the stale files atomically (all or none), then remove obsolete ones; return the written files.

    Each file is produced once, compared with the file on disk and, where it differs, written to a
    temporary file as it is produced (see `atomic_write_changed`)."""
    written = set(atomic_write_changed((generated.path, generated.render) for generated in files))
    for path in obsolete:
        path.unlink(missing_ok=True)
    return [generated for generated in files if generated.path in written]


def clean_interrupted_writes(config: Config) -> None:
    """Finish or remove what an interrupted write left in the record and generated folders (call it under
    the project lock, when no other writer runs)."""
    from govern.catalog.render import FORMATS_FOLDER
    from govern.fsio import remove_stale_temporaries

    # Format reference pages are written beside each other in their own folder, so it can hold debris too.
    for folder in (config.path(config.records_dir), config.path(config.schemas_dir),
                   config.path(config.schemas_dir) / FORMATS_FOLDER):
        remove_stale_temporaries(folder)
