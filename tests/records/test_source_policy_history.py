"""A source's policy settings (`persistence-source`) judge the source, not its recorded history.

A project that qualifies another role records bindings on it; its records verify, and a qualified kind
added later under the same policy is same-version, exactly as under the default roles.
"""

from __future__ import annotations

import json

KINDS = [
    {"type": "object", "properties": {"kind": {"const": "typed"}}, "required": ["kind"]},
    {"type": "object", "properties": {"kind": {"const": "pasted"}}, "required": ["kind"]},
]
QUALIFIED = {"x-persistence-attribution": True, "type": "object",
             "properties": {"kind": {"const": "tmux"}, "pane": {"type": "string"}}, "required": ["kind"]}


def messages(role: str, kinds: list) -> dict:
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "info": {"version": 1}, "$defs": {
        "Message": {"type": "object", "required": ["role", "text"], "properties": {
            "role": {"const": role}, "text": {"type": "string"},
            "source": {"x-persistence-source": {"policy": 1}, "oneOf": kinds}}}}}


SOURCES = [{"name": "m", "kind": "jsonschema", "path": "m.schema.json", "format-version": "/info/version",
            "roots": {"Message": {"at": "#/$defs/Message", "role": "event"}}}]


def test_records_of_a_configured_role_verify_and_qualified_kinds_stay_same_version(small, prose):
    project = small({"m.schema.json": messages("system", KINDS)}, SOURCES)
    with project.path("pyproject.toml").open("a", encoding="utf-8") as config:
        config.write('persistence-source = { roles = ["system"] }\n')
    project.write_prose(prose)
    created = project.new_record("baseline", "2026-11-01")
    assert created.exit_code == 0, created.output
    assert project.verify().exit_code == 0, project.verify().output

    project.dump_json("m.schema.json", messages("system", [*KINDS, QUALIFIED]))
    diff = json.loads(project.run("diff", "--format", "json").stdout)
    assert [root["decision"] for root in diff["roots"]] == ["same-version"]
    created = project.new_record("tmux-source", "2026-11-02")
    assert created.exit_code == 0, created.output
    result = project.verify()
    assert result.exit_code == 0, result.output


def test_the_default_roles_refuse_what_another_project_configured(small, prose):
    project = small({"m.schema.json": messages("system", KINDS)}, SOURCES)
    result = project.verify()
    assert result.exit_code == 2
    assert 'role is "system"; qualifying roles: user, developer' in result.stderr
