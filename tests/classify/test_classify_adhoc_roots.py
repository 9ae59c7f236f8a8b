"""`govern diff OLD NEW` without configuration invents no changes of roots."""

from __future__ import annotations

import json

from conftest import diff_cli, write_pair  # noqa: E402 - the folder's helpers

D2020 = "https://json-schema.org/draft/2020-12/schema"
D07 = "http://json-schema.org/draft-07/schema#"


def _roots(old_path, new_path, *options):
    code, out, err = diff_cli(old_path, new_path, "json", *options)
    assert code == 0, err
    return {entry["root"]: entry for entry in json.loads(out)["roots"]}


DOCUMENT = {"$schema": D2020, "title": "Doc", "type": "object",
            "properties": {"owner": {"$ref": "#/$defs/Person"}}, "required": ["owner"],
            "$defs": {"Person": {"type": "object", "properties": {"name": {"type": "string"}}}}}


def test_renaming_a_definition_of_a_document_changes_no_root(tmp_path):
    new = json.loads(json.dumps(DOCUMENT).replace("Person", "Human"))
    roots = _roots(*write_pair(tmp_path, DOCUMENT, new))
    assert {root: entry["decision"] for root, entry in roots.items()} == {"doc:Doc": "unchanged"}


def test_inlining_a_referenced_definition_changes_no_root(tmp_path):
    new = {key: value for key, value in DOCUMENT.items() if key != "$defs"}
    new["properties"] = {"owner": DOCUMENT["$defs"]["Person"]}
    roots = _roots(*write_pair(tmp_path, DOCUMENT, new))
    assert {root: entry["decision"] for root, entry in roots.items()} == {"doc:Doc": "unchanged"}


def test_roots_all_makes_definitions_roots_again(tmp_path):
    new = {key: value for key, value in DOCUMENT.items() if key != "$defs"}
    new["properties"] = {"owner": DOCUMENT["$defs"]["Person"]}
    roots = _roots(*write_pair(tmp_path, DOCUMENT, new), "--roots", "all")
    assert {root: entry["decision"] for root, entry in roots.items()} == {"doc:Doc": "unchanged",
                                                                          "doc:Person": "removed"}


DEFINITIONS_ONLY = {"$schema": D2020, "$defs": {
    "Person": {"type": "object", "properties": {"name": {"type": "string"}}},
    "Team": {"type": "object", "properties": {"members": {"type": "array", "items": {"$ref": "#/$defs/Person"}}}},
}}


def test_a_renamed_root_of_a_definitions_file_is_one_unchanged_root(tmp_path):
    new = json.loads(json.dumps(DEFINITIONS_ONLY).replace("Person", "Human"))
    old_path, new_path = write_pair(tmp_path, DEFINITIONS_ONLY, new)
    roots = _roots(old_path, new_path)
    assert {root: (entry["decision"], entry.get("renamed_from")) for root, entry in roots.items()} == {
        "doc:Human": ("unchanged", "doc:Person"), "doc:Team": ("unchanged", None)}
    code, out, _ = diff_cli(old_path, new_path, "text")
    assert out == "doc:Human: unchanged (renamed from doc:Person) [mode persistence]\n2 roots: 0 changed, 2 unchanged\n"


def test_a_changed_root_of_a_definitions_file_is_not_a_rename(tmp_path):
    new = json.loads(json.dumps(DEFINITIONS_ONLY).replace("Person", "Human"))
    new["$defs"]["Human"]["required"] = ["name"]
    roots = _roots(*write_pair(tmp_path, DEFINITIONS_ONLY, new))
    assert roots["doc:Person"]["decision"] == "removed" and roots["doc:Human"]["decision"] == "new"
    assert "renamed_from" not in roots["doc:Human"]


def test_dialect_option_reads_both_files_in_that_dialect(tmp_path):
    sibling = {"$schema": D2020, "title": "Doc", "type": "object",
               "properties": {"p": {"$ref": "#/definitions/S", "maxLength": 3}}, "definitions": {"S": {"type": "string"}}}
    plain = json.loads(json.dumps(sibling))
    del plain["properties"]["p"]["maxLength"]
    old_path, new_path = write_pair(tmp_path, sibling, plain)
    assert _roots(old_path, new_path)["doc:Doc"]["decision"] == "version-bump"
    assert _roots(old_path, new_path, "--dialect", "draft-07")["doc:Doc"]["decision"] == "unchanged"
