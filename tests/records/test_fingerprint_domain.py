"""A record verifies right after it is written: its snapshot reproduces the source's fingerprint domain.

One source has one domain (inventory format 1 without policy, 2 with): a snapshot of some of its roots
must hash them in that domain, even when the recorded roots reach no policy-bearing type themselves.
"""

from __future__ import annotations

import json

SOURCE_SLOT = {
    "x-persistence-source": {"policy": 1},
    "oneOf": [
        {"type": "object", "properties": {"kind": {"const": "user"}, "name": {"type": "string"}},
         "required": ["kind"]},
        {"type": "object", "properties": {"kind": {"const": "developer"}}, "required": ["kind"]},
    ],
}


def mixed_schema(extra: dict | None = None) -> dict:
    """Two roots of one source: Message carries a source slot with a policy, Note carries none."""
    note = {"type": "object", "properties": {"text": {"type": "string"}, **(extra or {})}, "required": ["text"]}
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$defs": {
            "Message": {"type": "object", "properties": {"id": {"type": "string"}, "role": {"const": "user"},
                                                         "source": SOURCE_SLOT},
                        "required": ["id", "source"]},
            "Note": note,
        },
    }


SOURCES = [{"name": "s", "kind": "jsonschema", "path": "s.schema.json",
            "roots": {"Message": {"at": "#/$defs/Message"}, "Note": {"at": "#/$defs/Note"}}}]


def test_record_of_a_root_without_policy_in_a_policy_bearing_source_verifies(small, prose):
    project = small({"s.schema.json": mixed_schema()}, SOURCES)
    project.write_prose(prose)
    assert project.new_record("baseline", "2026-12-01").exit_code == 0, project.verify().output
    assert project.finding_ids() == []
    project.dump_json("s.schema.json", mixed_schema({"label": {"type": "string"}}))
    created = project.new_record("note-label", "2026-12-01")
    assert created.exit_code == 0, created.output
    result = project.verify()
    assert result.exit_code == 0, result.output
    diff = json.loads(project.run("diff", "--format", "json").stdout)
    assert [root["decision"] for root in diff["roots"]] == ["unchanged", "unchanged"]


def test_snapshot_declares_the_domain_of_its_source(small, prose):
    project = small({"s.schema.json": mixed_schema()}, SOURCES)
    project.write_prose(prose)
    project.new_record("baseline", "2026-12-01")
    project.dump_json("s.schema.json", mixed_schema({"label": {"type": "string"}}))
    project.new_record("note-label", "2026-12-01")
    snapshot = project.load_json("records/2026-12-01-note-label.schema.json")
    assert list(snapshot["x-govern-roots"]) == ["s:Note"]
    assert snapshot["$defs"]["s"]["x-govern-inventory-format"] == 2
