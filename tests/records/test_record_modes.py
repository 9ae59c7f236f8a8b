"""A source's compatibility mode, from the configuration, decides `govern diff`, `record new` and `verify`;
records store the mode each root was decided in, and verify checks every record in the mode it stored."""

from __future__ import annotations

import json

import pytest

D2020 = "https://json-schema.org/draft/2020-12/schema"
S1 = {"a": {"type": "string", "maxLength": 10}}
S2 = {"a": {"type": "string", "maxLength": 10}, "b": {"type": "integer"}}  # old data may hold any `b`
S3 = {"a": {"type": "string", "maxLength": 12}, "b": {"type": "integer"}}  # a loosening of S2


def _doc(properties: dict) -> dict:
    return {"$schema": D2020, "title": "Doc", "type": "object", "properties": properties}


def _source(mode: str | None) -> dict:
    source = {"name": "s", "kind": "jsonschema", "path": "s.json", "roots": {"Doc": {"at": "#"}}}
    if mode:
        source["mode"] = mode
    return source


def _root(project) -> dict:
    result = project.run("diff", "--format", "json")
    assert result.exit_code == 0, result.stderr
    [entry] = json.loads(result.stdout)["roots"]
    return entry


def _configure(project, mode: str | None) -> None:
    """Set (or, with None, remove) the source's mode in the project's configuration."""
    pyproject = project.path("pyproject.toml")
    lines = [line for line in pyproject.read_text(encoding="utf-8").splitlines() if not line.startswith("mode = ")]
    if mode:
        lines.insert(lines.index('name = "s"') + 1, f'mode = "{mode}"')
    pyproject.write_text("\n".join(lines) + "\n", encoding="utf-8")


def _declared(project, record_id: str) -> str:
    text = project.record(record_id).read_text(encoding="utf-8")
    return text.split("---")[1]


def _edit_declarations(project, record_id: str, old: str, new: str) -> None:
    """Edit a record's declaration in both languages and bless it, as someone rewriting history would."""
    for part in ("en", "zh"):
        path = project.record(record_id, part)
        path.write_text(path.read_text(encoding="utf-8").replace(old, new), encoding="utf-8")
    assert project.run("record", "sync", record_id).exit_code == 0


def test_a_backward_source_records_a_loosening_as_same_version_and_stores_the_mode(small):
    project = small({"s.json": _doc(S1)}, [_source("backward")])
    assert project.new_record("baseline", "2026-12-01").exit_code == 0
    assert '    mode: "backward"\n' in _declared(project, "2026-12-01-baseline")
    project.dump_json("s.json", _doc({"a": {"type": "string", "maxLength": 12}}))
    entry = _root(project)
    assert (entry["decision"], entry["mode"]) == ("same-version", "backward")
    assert project.new_record("longer-a", "2026-12-01").exit_code == 0
    declared = _declared(project, "2026-12-01-longer-a")
    assert '    decision: "same-version"\n    mode: "backward"\n' in declared
    assert _declared(project, "2026-12-01-longer-a") == project.record(
        "2026-12-01-longer-a", "zh").read_text(encoding="utf-8").split("---")[1]
    assert project.verify().exit_code == 0
    [log] = json.loads(project.run("log", "--format", "json").stdout)["roots"]
    assert [(entry["record"], entry["mode"]) for entry in log["records"]] == [
        ("2026-12-01-longer-a", "backward"), ("2026-12-01-baseline", "backward")]
    assert "2026-12-01-longer-a  same-version  mode backward  format - -> -" in project.run("heads").stdout
    catalogs = {language: project.path(f"schemas/catalog{suffix}.md").read_text(encoding="utf-8")
                for language, suffix in (("en", ""), ("zh", ".zh"))}
    assert "same-version, format version –; compatibility mode `backward`" in catalogs["en"]
    assert "；兼容模式 `backward`" in catalogs["zh"]


def test_a_persistence_record_writes_no_mode(small):
    project = small({"s.json": _doc(S1)}, [_source(None)])
    assert project.new_record("baseline", "2026-12-01").exit_code == 0
    assert "mode:" not in _declared(project, "2026-12-01-baseline")
    assert _root(project)["mode"] == "persistence"


def test_verify_checks_each_record_in_the_mode_it_stored(small):
    project = small({"s.json": _doc(S1)}, [_source("backward")])
    assert project.new_record("baseline", "2026-12-01").exit_code == 0
    project.dump_json("s.json", _doc({"a": {"type": "string", "maxLength": 12}}))
    assert project.new_record("longer-a", "2026-12-01").exit_code == 0
    # The record stays valid in the mode it was decided in, whatever the configuration says later ...
    _configure(project, "backward-transitive")
    findings = [f for f in project.findings() if f["id"] != "generated-stale"]
    assert [(f["id"], f["mode"]) for f in findings] == [("unacknowledged-change", "backward-transitive")]
    assert findings[0]["message"] == ("s:Doc is now decided in compatibility mode backward-transitive but its "
                                      "latest record 2026-12-01-longer-a was decided in backward")
    _configure(project, "backward")
    assert project.verify().exit_code == 0
    # ... and a record whose stored mode is rewritten is checked in the rewritten mode.
    _edit_declarations(project, "2026-12-01-longer-a", '    mode: "backward"\n', '    mode: "forward"\n')
    findings = [f for f in project.findings() if f["id"] == "decision-too-weak"]
    assert [(f["root"], f["mode"]) for f in findings] == [("s:Doc", "forward")]
    assert findings[0]["message"] == ("s:Doc declares same-version, but the change needs version-bump in "
                                      "compatibility mode forward")


def test_a_weakened_mode_cannot_let_a_breaking_change_through_silently(small):
    project = small({"s.json": _doc(S1)}, [_source("full")])
    assert project.new_record("baseline", "2026-12-01").exit_code == 0
    # Loosening breaks old readers, which `full` protects; switching to `backward` would let it through.
    project.dump_json("s.json", _doc({"a": {"type": "string", "maxLength": 12}}))
    _configure(project, "backward")
    entry = _root(project)
    assert (entry["decision"], entry["mode"]) == ("version-bump", "backward")
    assert {(change["kind"], change["rule"], change["decision"]) for change in entry["changes"]} == {
        ("constraint-changed", "constraint-changed", "same-version"),
        ("mode-changed", "mode-changed", "version-bump")}
    [finding] = [f for f in project.findings() if f["id"] == "unacknowledged-change"]
    assert finding["mode"] == "backward"
    assert "compatibility mode changed from full to backward at / (version-bump)" in finding["message"]
    refused = project.new_record("looser", "2026-12-01", "--decision", "same-version")
    assert refused.exit_code == 1 and "weaker than the inferred version-bump" in refused.output
    assert project.new_record("looser", "2026-12-01").exit_code == 0
    declared = _declared(project, "2026-12-01-looser")
    assert '    decision: "version-bump"\n    mode: "backward"\n' in declared
    assert project.verify().exit_code == 0
    # Rewriting the weakening record to same-version is caught: verify re-derives the change of mode.
    _edit_declarations(project, "2026-12-01-looser", 'decision: "version-bump"', 'decision: "same-version"')
    assert [f["id"] for f in project.findings() if f["id"] != "generated-stale"] == ["decision-too-weak"]


def test_a_stricter_mode_is_acknowledged_at_the_same_version(small):
    project = small({"s.json": _doc(S1)}, [_source("backward")])
    assert project.new_record("baseline", "2026-12-01").exit_code == 0
    _configure(project, "full")
    entry = _root(project)
    assert (entry["decision"], entry["before"] == entry["after"]) == ("same-version", True)
    assert [(c["kind"], c["rule"], c["args"]) for c in entry["changes"]] == [
        ("mode-changed", "mode-strengthened", {"new": "full", "old": "backward"})]
    assert project.new_record("stricter", "2026-12-01").exit_code == 0
    assert '    decision: "same-version"\n    mode: "full"\n' in _declared(project, "2026-12-01-stricter")
    assert project.verify().exit_code == 0


@pytest.mark.parametrize("mode, decision", [("backward", "same-version"), ("backward-transitive", "version-bump")])
def test_a_transitive_mode_checks_every_earlier_record(small, mode, decision):
    """Three records: the third change reads every document of the second structure, not of the first."""
    project = small({"s.json": _doc(S1)}, [_source(mode)])
    assert project.new_record("first", "2026-12-01").exit_code == 0
    project.dump_json("s.json", _doc(S2))
    assert _root(project)["decision"] == "version-bump"  # the first structure's data may hold any `b`
    assert project.new_record("second", "2026-12-01").exit_code == 0
    project.dump_json("s.json", _doc(S3))
    entry = _root(project)
    assert (entry["decision"], entry["mode"]) == (decision, mode)
    first_digest = json.loads(project.record("2026-12-01-first", "schema").read_text(encoding="utf-8"))[
        "x-govern-roots"]["s:Doc"]["digest"]
    assert entry.get("breaks_earlier", []) == ([first_digest] if decision == "version-bump" else [])
    if decision == "version-bump":
        refused = project.new_record("third", "2026-12-01", "--decision", "same-version")
        assert refused.exit_code == 1, refused.output
    assert project.new_record("third", "2026-12-01").exit_code == 0
    assert f'    decision: "{decision}"\n    mode: "{mode}"\n' in _declared(project, "2026-12-01-third")
    assert project.verify().exit_code == 0, project.verify().output
    if mode == "backward":
        # Stored as transitive, the same-version record is too weak: verify checks against every earlier record.
        _edit_declarations(project, "2026-12-01-third", '    mode: "backward"\n', '    mode: "backward-transitive"\n')
        [finding] = [f for f in project.findings() if f["id"] == "decision-too-weak"]
        assert (finding["path"], finding["mode"]) == ("records/2026-12-01-third.md", "backward-transitive")


def test_a_declared_mode_must_be_a_known_one(small):
    project = small({"s.json": _doc(S1)}, [_source("backward")])
    assert project.new_record("baseline", "2026-12-01").exit_code == 0
    for part in ("en", "zh"):
        path = project.record("2026-12-01-baseline", part)
        path.write_text(path.read_text(encoding="utf-8").replace('mode: "backward"', 'mode: "lenient"'),
                        encoding="utf-8")
    [finding] = [f for f in project.findings() if f["id"] == "record-syntax"][:1]
    assert "roots[0].mode must be one of persistence, backward" in finding["message"]


def test_every_verify_format_names_the_mode_of_a_decision(small):
    project = small({"s.json": _doc(S1)}, [_source("forward")])
    assert project.new_record("baseline", "2026-12-01").exit_code == 0
    project.dump_json("s.json", _doc({"a": {"type": "string", "maxLength": 12}}))
    outputs = {output: project.verify("--format", output).stdout
               for output in ("text", "json", "github", "sarif", "markdown")}
    for output, text in outputs.items():
        assert "(compatibility mode forward): maxLength raised from 10 to 12 at /properties/a/maxLength " \
               "(version-bump)" in text, output
    assert "（兼容模式 forward）" in project.verify("--lang", "zh").stdout
    [finding] = [f for f in json.loads(outputs["json"])["findings"] if f["id"] == "unacknowledged-change"]
    assert finding["mode"] == "forward"
