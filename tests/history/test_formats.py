"""Format references: one complete schema per source and format version the records reach."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from history_project import EXAMPLES, Project, records_conftest

from govern.model.inventory import build_inventory
from govern.sources.jsonschema import load_jsonschema

FORMATS = "schemas/formats"


def reference(project: Project, name: str) -> dict:
    return project.load_json(f"{FORMATS}/{name}.schema.json")


def reference_digests(project: Project, name: str) -> dict[str, str]:
    """Normalize a reference file through the JSON Schema adapter: root id -> digest of its type."""
    document = reference(project, name)
    graph = load_jsonschema("ref", project.path(f"{FORMATS}/{name}.schema.json"), {}, project.root, adhoc=True)
    digests = build_inventory([graph]).roots
    return {root: digests[f"ref:{entry['type']}"].digest for root, entry in document["x-govern-roots"].items()}


# The coordination formats this repository's own records reach; the fixtures only add sidecar formats.
REPOSITORY_GRP_FORMATS = ["grp-0.2.0", "grp-0.2.1"]


def valid_sidecar_examples() -> list[Path]:
    return sorted((EXAMPLES / "sidecar" / "valid").glob("*.json"))


def test_every_format_the_records_reach_has_a_reference_and_pages(three_formats: Project) -> None:
    files = sorted(path.name for path in three_formats.path(FORMATS).iterdir())
    stems = [*REPOSITORY_GRP_FORMATS, "sidecar-1", "sidecar-2", "sidecar-3"]
    assert files == sorted([f"{stem}{suffix}" for stem in stems for suffix in (".schema.json", ".md", ".zh.md")]
                           + ["index.md", "index.zh.md"])
    index = three_formats.path(f"{FORMATS}/index.md").read_text(encoding="utf-8")
    for stem in stems:
        assert f"[{stem}.schema.json]({stem}.schema.json)" in index
    # The intermediate format 2 never had a tag, and is there all the same.
    assert reference(three_formats, "sidecar-2")["x-govern-record"] == "2026-12-01-sidecar-format-2"
    assert three_formats.verify().exit_code == 0, three_formats.verify().output
    assert three_formats.run("extract", "--check").exit_code == 0


def test_a_reference_is_the_schema_as_at_the_last_record_of_its_format(three_formats: Project) -> None:
    one, two, three = (reference(three_formats, f"sidecar-{n}") for n in (1, 2, 3))
    # Format 1 ends with the same-version label, not at the baseline.
    assert one["x-govern-record"] == "2026-12-01-thread-label"
    assert "label" in one["$defs"]["Thread"]["properties"]
    assert "origin" not in one["$defs"]["Artifact"]["properties"]
    assert "origin" in two["$defs"]["Artifact"]["required"] and "owner" not in two["$defs"]["Artifact"]["properties"]
    assert {"origin", "owner"} <= set(three["$defs"]["Artifact"]["required"])
    for document, version in ((one, 1), (two, 2), (three, 3)):
        assert document["$schema"] == "https://json-schema.org/draft/2020-12/schema"
        assert document["x-govern-format-version"] == version
        assert document["$ref"] == "#/$defs/Artifact"


def test_normalizing_a_reference_reproduces_the_recorded_digests(three_formats: Project) -> None:
    for name in ("sidecar-1", "sidecar-2", "sidecar-3", *REPOSITORY_GRP_FORMATS):
        roots = reference(three_formats, name)["x-govern-roots"]
        assert reference_digests(three_formats, name) == {root: entry["digest"] for root, entry in roots.items()}


def test_each_reference_validates_the_data_of_its_own_format(three_formats: Project) -> None:
    one = Draft202012Validator(reference(three_formats, "sidecar-1"))
    two = Draft202012Validator(reference(three_formats, "sidecar-2"))
    examples = [json.loads(path.read_text(encoding="utf-8")) for path in valid_sidecar_examples()]
    assert examples and all(one.is_valid(example) for example in examples)
    # Format 2 requires `origin`, which format-1 data lacks.
    assert not any(two.is_valid(example) for example in examples)
    assert all(two.is_valid({**example, "origin": "import"}) for example in examples)


def test_roots_untouched_by_a_record_keep_their_own_snapshot(tmp_path: Path) -> None:
    """Two roots share a type name with different structures at different records: both stay exact."""
    from click.testing import CliRunner

    root = tmp_path / "two"
    (root / "schemas").mkdir(parents=True)
    (root / "pyproject.toml").write_text(
        '[tool.govern]\n[[tool.govern.sources]]\nname = "notes"\nkind = "jsonschema"\n'
        'path = "schemas/notes.schema.json"\nformat-version = "/$defs/Version"\n'
        'roots = { A = { at = "#/$defs/A" }, B = { at = "#/$defs/B" } }\n', encoding="utf-8")
    item = {"type": "object", "properties": {"n": {"type": "integer"}}}

    def write(defs: dict, version: int) -> None:
        document = {"$schema": "https://json-schema.org/draft/2020-12/schema",
                    "$defs": {"Version": {"type": "integer", "x-persistence-version": version}, **defs}}
        (root / "schemas/notes.schema.json").write_text(json.dumps(document), encoding="utf-8")

    project = Project(root, CliRunner())
    write({"Item": item, "A": {"$ref": "#/$defs/Item"}, "B": {"$ref": "#/$defs/Item"}}, 1)
    assert project.new_record("baseline", "2026-12-01").exit_code == 0
    # B moves to a new, different Item; A keeps the old structure under a new name. Only B changes, within
    # format 1 (a changed format version would be a change of every root of the source).
    write({"Old": item, "Item": {"type": "object", "properties": {"n": {"type": "integer"}, "m": {"type": "string"}}},
           "A": {"$ref": "#/$defs/Old"}, "B": {"$ref": "#/$defs/Item"}}, 1)
    result = project.new_record("b-item", "2026-12-01")
    assert result.exit_code == 0, result.output
    document = reference(project, "notes-1")
    assert document["x-govern-roots"]["notes:A"]["record"] == "2026-12-01-baseline"
    assert document["x-govern-roots"]["notes:B"]["record"] == "2026-12-01-b-item"
    assert document["anyOf"] == [{"$ref": f"#/$defs/{document['x-govern-roots'][r]['type']}"}
                                 for r in ("notes:A", "notes:B")]
    assert "Item~2026-12-01-baseline" in document["$defs"]
    roots = document["x-govern-roots"]
    assert reference_digests(project, "notes-1") == {r: entry["digest"] for r, entry in roots.items()}
    assert project.verify().exit_code == 0, project.verify().output


def test_verify_reports_a_stale_or_obsolete_reference_and_formats_repairs_it(project: Project) -> None:
    project.replace(f"{FORMATS}/sidecar-1.schema.json", '"minimum": 1', '"minimum": 0')
    project.path(f"{FORMATS}/sidecar-9.schema.json").write_text("{}\n", encoding="utf-8")
    findings = [(f["id"], f["path"]) for f in project.findings()]
    assert findings == [("generated-stale", f"{FORMATS}/sidecar-1.schema.json"),
                        ("generated-stale", f"{FORMATS}/sidecar-9.schema.json")]
    check = project.run("formats", "--check")
    assert check.exit_code == 1 and "sidecar-9.schema.json" in check.stderr
    result = project.run("formats")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == [f"wrote {FORMATS}/sidecar-1.schema.json",
                                          f"removed {FORMATS}/sidecar-9.schema.json"]
    assert project.verify().exit_code == 0


def test_a_damaged_snapshot_is_reported_once_not_through_the_references(three_formats: Project) -> None:
    three_formats.edit_json("records/2026-12-01-sidecar-format-2.schema.json",
                            lambda d: d["$defs"]["sidecar"]["$defs"]["Thread"]["properties"].pop("label"))
    ids = {f["id"] for f in three_formats.findings()}
    assert "snapshot-mismatch" in ids and "generated-stale" not in ids


def test_formats_needs_only_the_records(project: Project) -> None:
    """The references come from the snapshots: a broken current source does not stop them."""
    project.path(SIDECAR_PATH).write_text("{ not json", encoding="utf-8")
    assert project.run("formats", "--check").exit_code == 0


SIDECAR_PATH = "schemas/coauthoring-sidecar.schema.json"
