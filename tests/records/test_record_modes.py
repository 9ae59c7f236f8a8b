"""A source's compatibility mode, from the configuration, decides `govern diff`, `record new` and `verify`."""

from __future__ import annotations

import json

D2020 = "https://json-schema.org/draft/2020-12/schema"


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


def test_a_backward_source_records_a_loosening_as_same_version(small):
    project = small({"s.json": _doc({"a": {"type": "string", "maxLength": 10}})}, [_source("backward")])
    assert project.new_record("baseline", "2026-12-01").exit_code == 0
    project.dump_json("s.json", _doc({"a": {"type": "string", "maxLength": 12}}))
    entry = _root(project)
    assert (entry["decision"], entry["mode"]) == ("same-version", "backward")
    assert project.new_record("longer-a", "2026-12-01").exit_code == 0
    assert 'decision: "same-version"' in project.record("2026-12-01-longer-a").read_text(encoding="utf-8")
    assert project.verify().exit_code == 0


def test_a_transitive_mode_checks_every_earlier_record(small):
    # Recorded in persistence mode: an optional `b` added to an open object is same-version there.
    project = small({"s.json": _doc({"a": {"type": "string", "maxLength": 10}})}, [_source(None)])
    assert project.new_record("baseline", "2026-12-01").exit_code == 0
    project.dump_json("s.json", _doc({"a": {"type": "string", "maxLength": 10}, "b": {"type": "integer"}}))
    assert project.new_record("add-b", "2026-12-01").exit_code == 0
    # Now a loosening, which new readers of backward mode read against the latest record ...
    project.dump_json("s.json", _doc({"a": {"type": "string", "maxLength": 12}, "b": {"type": "integer"}}))
    pyproject = project.path("pyproject.toml")
    configured = pyproject.read_text(encoding="utf-8")
    for mode, decision in (("backward", "same-version"), ("backward-transitive", "version-bump")):
        pyproject.write_text(configured.replace('name = "s"\n', f'name = "s"\nmode = "{mode}"\n'), encoding="utf-8")
        entry = _root(project)
        assert (entry["decision"], entry["mode"]) == (decision, mode), entry
    # ... but the baseline's data may hold any `b`, which the current structure reads as an integer only.
    assert len(entry["breaks_earlier"]) == 1
