"""The generated views of a project: inventory and catalog pair, written together or checked."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from govern.config import Config
from govern.fsio import atomic_write_many
from govern.model.inventory import Inventory, build_inventory, inventory_json
from govern.sources.load import load_configured


@dataclass(frozen=True)
class GeneratedFile:
    path: Path
    text: str

    def is_current(self) -> bool:
        try:
            return self.path.read_bytes() == self.text.encode("utf-8")
        except OSError:
            return False


def current_inventory(config: Config) -> Inventory:
    return build_inventory(load_configured(config))


CATALOG_FILES = {"en": "catalog.md", "zh": "catalog.zh.md"}  # the languages a catalog is rendered in


def catalog_languages(config: Config) -> list[str]:
    """The configured languages govern renders catalogs in; English when it renders none of them."""
    return [language for language in config.languages if language in CATALOG_FILES] or ["en"]


def generated_files(config: Config, inventory: Inventory) -> list[GeneratedFile]:
    from govern.catalog.render import render_catalog

    schemas = config.path(config.schemas_dir)
    catalogs = [GeneratedFile(schemas / CATALOG_FILES[language], render_catalog(inventory, language))
                for language in sorted(catalog_languages(config), key=list(CATALOG_FILES).index)]
    return [GeneratedFile(schemas / "inventory.json", inventory_json(inventory)), *catalogs]


def stale_files(files: list[GeneratedFile]) -> list[GeneratedFile]:
    return [generated for generated in files if not generated.is_current()]


def write_files(files: list[GeneratedFile]) -> list[GeneratedFile]:
    """Write the stale files atomically (all or none) and return them."""
    stale = stale_files(files)
    atomic_write_many({generated.path: generated.text for generated in stale})
    return stale
