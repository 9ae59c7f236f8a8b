"""`govern extract` reads a record's snapshot only when a format reference is built from it: the catalog
needs the records' declarations alone, and a large project's snapshots outweigh everything else in its
records. What it writes is the same as from a history read whole."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

import govern.records.history as history_module
from govern.cli import cli
from govern.config import load_config
from govern.extract import current_inventory, generated_files
from govern.records.history import load_history
from history_project import Project


def _extract_reading(project: Project, monkeypatch) -> list[str]:
    """Run `govern extract` on `project` from scratch; the ids of the records whose snapshot it read."""
    read: list[str] = []
    original = history_module._read_snapshot
    monkeypatch.setattr(history_module, "_read_snapshot", lambda record: read.append(record.id) or original(record))
    for generated in project.path("schemas").glob("catalog*.md"):
        generated.unlink()
    result = CliRunner().invoke(cli, ["extract", "--project", str(project.root)])
    assert result.exit_code == 0, result.output
    return read


def _same_as_from_the_whole_history(project: Project) -> None:
    config = load_config(project.root)
    whole = generated_files(config, current_inventory(config), load_history(config))
    assert whole and all(generated.is_current() for generated in whole)


def test_without_format_references_no_snapshot_is_read(tmp_path, monkeypatch) -> None:
    root = tmp_path / "notes"
    (root / "schemas").mkdir(parents=True)
    (root / "pyproject.toml").write_text('[tool.govern]\n[[tool.govern.sources]]\nname = "notes"\nkind = "jsonschema"\n'
                                         'path = "schemas/notes.schema.json"\nroots = { Note = { at = "#" } }\n',
                                         encoding="utf-8")
    (root / "schemas/notes.schema.json").write_text('{"type": "object", "properties": {"a": {"type": "string"}}}',
                                                    encoding="utf-8")
    project = Project(root, CliRunner())
    assert project.new_record("baseline", "2026-12-01").exit_code == 0
    assert _extract_reading(project, monkeypatch) == []
    assert "2026-12-01-baseline" in project.path("schemas/catalog.md").read_text(encoding="utf-8")
    _same_as_from_the_whole_history(project)


def test_the_snapshots_format_references_are_built_from_are_read_once(three_formats: Project, monkeypatch) -> None:
    read = _extract_reading(three_formats, monkeypatch)
    assert read and len(read) == len(set(read))
    assert set(read) <= {path.name[:-len(".schema.json")] for path in three_formats.path("records").glob("*.schema.json")}
    _same_as_from_the_whole_history(three_formats)


@pytest.mark.parametrize("when_needed", [False, True])
def test_a_snapshot_that_cannot_be_read_is_a_finding_whenever_it_is_read(three_formats: Project, monkeypatch,
                                                                         when_needed: bool) -> None:
    def unreadable(path):
        raise PermissionError(13, "Permission denied")

    config = load_config(three_formats.root)
    monkeypatch.setattr(history_module.Path, "read_bytes", unreadable)
    history = load_history(config, snapshots_when_needed=when_needed)
    record = history.records["2026-12-01-sidecar-format-3"]
    assert [finding.id for finding in record.findings] == ([] if when_needed else ["record-syntax"])
    assert record.snapshot_bytes is None
    assert [(finding.id, finding.path) for finding in record.findings] == [
        ("record-syntax", "records/2026-12-01-sidecar-format-3.schema.json")]
