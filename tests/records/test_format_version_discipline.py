"""Every version-bump raises the declared format version relative to the root's predecessor record, and
the format version (the writer constant) is itself part of what must be acknowledged.
"""

from __future__ import annotations

import json
import sys
import textwrap

import pytest

from tests.records.conftest import BASELINE, OPENAPI, SIDECAR


def raise_grp_version(document: dict) -> None:
    document["info"]["version"] = "0.3.0"


def test_a_writer_constant_changed_alone_is_an_unacknowledged_change(project):
    project.edit_json(OPENAPI, raise_grp_version)
    assert project.run("extract").exit_code == 0
    findings = project.findings()
    changed = [finding for finding in findings if finding["id"] == "unacknowledged-change"]
    assert changed and all(finding["root"].startswith("grp:") for finding in changed)
    assert changed[0]["message"].endswith('now writes format version "0.3.0" but its latest record '
                                          '2026-11-30-coordination-0-2-1-writer-constant declares "0.2.1"')
    diff = json.loads(project.run("diff", "--format", "json").stdout)["roots"]
    grp = [root for root in diff if root["root"].startswith("grp:")]
    assert {root["decision"] for root in grp} == {"version-bump"}
    assert grp[0]["changes"] == [{"path": "", "kind": "format-version-changed", "rule": "format-version-changed",
                                  "decision": "version-bump", "breaks": ["new-data-old-readers"],
                                  "args": {"new": '"0.3.0"', "old": '"0.2.1"'},
                                  "text": {"en": "format version changed from `0.2.1` to `0.3.0`",
                                           "zh": "格式版本从 `0.2.1` 改为 `0.3.0`"}}]
    result = project.new_record("grp-0-3", "2026-12-01")
    assert result.exit_code == 0, result.output
    english = project.record("2026-12-01-grp-0-3").read_text(encoding="utf-8")
    assert 'format-version:\n      before: "0.2.1"\n      after: "0.3.0"\n' in english
    assert project.verify().exit_code == 0, project.verify().output


def test_a_marked_version_raised_alone_is_reported_as_a_format_version_change(project):
    project.replace(SIDECAR, '"x-persistence-version": 1', '"x-persistence-version": 2')
    diff = json.loads(project.run("diff", "--format", "json").stdout)["roots"]
    artifact = next(root for root in diff if root["root"] == "sidecar:Artifact")
    assert "format-version-changed" in {change["rule"] for change in artifact["changes"]}


def test_a_format_version_raised_twice_is_not_counted_twice(project, prose):
    """`before` is what the predecessor declared: a hand-edited `before` cannot reuse an earlier raise."""
    project.write_prose(prose)
    project.replace(SIDECAR, '"x-persistence-version": 1', '"x-persistence-version": 2')
    assert project.new_record("sidecar-2", "2026-12-01").exit_code == 0
    project.edit_json(SIDECAR, lambda d: d["$defs"]["Thread"]["properties"].__setitem__("label", {"type": "integer"}))
    project.replace(SIDECAR, '"x-persistence-version": 2', '"x-persistence-version": 3')
    assert project.new_record("sidecar-3", "2026-12-01").exit_code == 0
    # Claim the second record went 1 -> 3, as if the first raise were its own.
    for part in ("en", "zh"):
        project.replace(f"records/2026-12-01-sidecar-3{'.zh' if part == 'zh' else ''}.md",
                        "      before: 2\n", "      before: 1\n")
    assert project.run("record", "sync", "2026-12-01-sidecar-3").exit_code == 1
    findings = [finding for finding in project.findings() if finding["id"] == "format-version-mismatch"]
    assert [finding["message"] for finding in findings] == [
        "sidecar:Artifact declares format version 1 before the change, but its predecessor 2026-12-01-sidecar-2 "
        "declares 2 after it"]


def test_a_hand_edited_after_version_is_refused_by_sync_and_found_by_verify(project, prose):
    project.write_prose(prose)
    project.replace(SIDECAR, '"x-persistence-version": 1', '"x-persistence-version": 2')
    assert project.new_record("sidecar-2", "2026-12-01").exit_code == 0
    for name in ("2026-12-01-sidecar-2.md", "2026-12-01-sidecar-2.zh.md"):
        project.replace(f"records/{name}", "      after: 2\n", "      after: 5\n")
    before = project.state()
    result = project.run("record", "sync", "2026-12-01-sidecar-2")
    assert result.exit_code == 1
    assert "declares format version 5 after the change, but its snapshot" in result.stderr
    assert project.state() == before
    ids = project.finding_ids()
    assert "format-version-mismatch" in ids


MODELS = '''
from pydantic import BaseModel, Field


class Header(BaseModel):
    version: int = Field({version}, json_schema_extra={{"x-persistence-version": {version}}})
    title: {title_type}
'''


def write_models(project, module: str, version: int, title_type: str = "str") -> None:
    project.path(f"{module}.py").write_text(textwrap.dedent(MODELS.format(version=version, title_type=title_type)),
                                            encoding="utf-8")
    sys.modules.pop(module, None)


@pytest.fixture
def no_bytecode(monkeypatch):
    # The models are rewritten within one second: compiled files must not outlive the source.
    monkeypatch.setattr(sys, "dont_write_bytecode", True)


def test_pydantic_format_version_comes_from_json_schema_extra(small, prose, no_bytecode):
    module = "fv_models_extra"
    project = small({}, [{"name": "m", "kind": "pydantic", "path": module}])
    write_models(project, module, 1)
    project.write_prose(prose)
    assert project.new_record("baseline", "2026-12-01").exit_code == 0
    write_models(project, module, 1, "int")
    refused = project.new_record("retype-title", "2026-12-01")
    assert refused.exit_code == 1
    assert "which stays 1 -> 1" in refused.stderr
    write_models(project, module, 2, "int")
    result = project.new_record("retype-title", "2026-12-01")
    assert result.exit_code == 0, result.output
    english = project.record("2026-12-01-retype-title").read_text(encoding="utf-8")
    assert "format-version:\n      before: 1\n      after: 2\n" in english
    assert project.verify().exit_code == 0, project.verify().output
    sys.modules.pop(module, None)


def test_pydantic_format_version_at_a_pointer(small, prose, no_bytecode):
    module = "fv_models_pointer"
    project = small({}, [{"name": "m", "kind": "pydantic", "path": module,
                          "format-version": "/$defs/Header/properties/version"}])
    write_models(project, module, 3)
    assert project.run("extract").exit_code == 0
    inventory = json.loads(project.path("schemas/inventory.json").read_text(encoding="utf-8"))
    assert inventory["sources"]["m"]["formatVersion"] == 3
    sys.modules.pop(module, None)


@pytest.mark.parametrize("kind", ["jsonschema", "openapi", "pydantic"])
def test_a_format_version_pointer_resolving_to_nothing_is_an_input_error(small, kind, no_bytecode):
    documents = {
        "jsonschema": {"s.json": {"$defs": {"Doc": {"type": "object"}}}},
        "openapi": {"s.json": {"openapi": "3.1.0", "info": {"title": "t", "version": "1"}, "paths": {},
                               "components": {"schemas": {"Doc": {"type": "object"}}}}},
        "pydantic": {},
    }[kind]
    module = f"fv_models_missing_{kind}"
    source = {"name": "s", "kind": kind, "path": module if kind == "pydantic" else "s.json",
              "format-version": "/does/not/exist", "roots": {"Doc": {"at": "#/$defs/Doc"} if kind == "jsonschema"
                                                              else {}}}
    if kind == "pydantic":
        source["roots"] = {"Header": {}}
    project = small(documents, [source], name=f"p-{kind}")
    if kind == "pydantic":
        write_models(project, module, 1)
    for command in (("verify",), ("extract",), ("diff",)):
        result = project.run(*command)
        assert result.exit_code == 2, (command, result.output)
        assert "has nothing at the format-version pointer /does/not/exist" in result.stderr
    sys.modules.pop(module, None)
