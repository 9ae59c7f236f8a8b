"""Exactness of verdicts and break directions, each case a pair of schemas read as `govern diff OLD NEW` reads
them, with the expected root decision and the expected `breaks` of every change.

A direction a change does not claim is a promise: the sampling oracle (`test_classify_oracle.py`) checks
it with instances.
"""

from __future__ import annotations

import json

import pytest

from conftest import SOURCE, PairClassifier  # noqa: E402 - the folder's helpers
from govern.catalog.render import render_catalog
from govern.model.inventory import build_inventory
from govern.sources.jsonschema import load_jsonschema

D2020 = "https://json-schema.org/draft/2020-12/schema"
D2019 = "https://json-schema.org/draft/2019-09/schema"
D07 = "http://json-schema.org/draft-07/schema#"
D06 = "http://json-schema.org/draft-06/schema#"
D04 = "http://json-schema.org/draft-04/schema#"
OLD, NEW = "old-data-new-readers", "new-data-old-readers"


def doc(dialect: str, properties: dict, definitions_keyword: str = "$defs", **definitions) -> dict:
    document = {"$schema": dialect, "title": "Doc", "type": "object", "properties": properties}
    if definitions:
        document[definitions_keyword] = definitions
    return document


def _ref(keyword: str, name: str) -> str:
    return f"#/{keyword}/{name}"


@pytest.fixture()
def pairs(tmp_path) -> PairClassifier:
    return PairClassifier(tmp_path)


def _entry(pairs, old, new):
    return pairs.classify(old, new)[f"{SOURCE}:Doc"]


# --- $ref siblings by dialect ------------------------------------------------------------------------


@pytest.mark.parametrize("dialect, keyword", [(D07, "definitions"), (D06, "definitions"), (D04, "definitions")])
def test_ref_siblings_are_ignored_in_old_drafts(pairs, dialect, keyword):
    text = {"type": "string"}
    sibling = doc(dialect, {"p": {"$ref": _ref(keyword, "S"), "maxLength": 3}}, keyword, S=text)
    enforced = doc(dialect, {"p": {"allOf": [{"$ref": _ref(keyword, "S")}], "maxLength": 3}}, keyword, S=text)
    plain = doc(dialect, {"p": {"$ref": _ref(keyword, "S")}}, keyword, S=text)
    assert _entry(pairs, sibling, plain)["decision"] == "unchanged"
    moved = _entry(pairs, sibling, enforced)
    assert moved["decision"] == "version-bump"
    # {"p": "abcdef"} was valid and is rejected now: old data breaks.
    assert all(OLD in change["breaks"] for change in moved["changes"]), moved


@pytest.mark.parametrize("dialect", [D2020, D2019])
def test_ref_siblings_apply_in_modern_drafts(pairs, dialect):
    text = {"type": "string"}
    sibling = doc(dialect, {"p": {"$ref": "#/$defs/S", "maxLength": 3}}, S=text)
    enforced = doc(dialect, {"p": {"allOf": [{"$ref": "#/$defs/S"}], "maxLength": 3}}, S=text)
    plain = doc(dialect, {"p": {"$ref": "#/$defs/S"}}, S=text)
    assert _entry(pairs, sibling, enforced)["decision"] == "unchanged"
    assert _entry(pairs, sibling, plain)["decision"] == "version-bump"


def test_migrating_a_draft_07_schema_to_2020_12_applies_its_ref_siblings(pairs):
    old = doc(D07, {"p": {"$ref": "#/definitions/S", "maxLength": 3}}, "definitions", S={"type": "string"})
    new = dict(old, **{"$schema": D2020})
    entry = _entry(pairs, old, new)
    assert entry["decision"] == "version-bump"
    assert all(OLD in change["breaks"] for change in entry["changes"]), entry


def test_the_catalog_names_the_ignored_ref_siblings(tmp_path):
    path = tmp_path / "doc.schema.json"
    path.write_text(json.dumps(doc(D07, {"p": {"$ref": "#/definitions/S", "maxLength": 3, "description": "x"}},
                                   "definitions", S={"type": "string"})), encoding="utf-8")
    graph = load_jsonschema("doc", path, {"Doc": ("#", "record")}, tmp_path)
    assert graph.notes == (("doc.schema.json#/properties/p", "maxLength", "draft-07"),)
    inventory = build_inventory([graph])
    assert "- `doc.schema.json#/properties/p`: `maxLength` (draft-07)" in render_catalog(inventory, "en")
    assert "- `doc.schema.json#/properties/p`：`maxLength`（draft-07）" in render_catalog(inventory, "zh")


def test_a_referenced_file_without_schema_is_read_in_its_referrers_dialect(tmp_path):
    (tmp_path / "other.json").write_text(json.dumps({"definitions": {"S": {"type": "string"}},
                                                     "properties": {"q": {"$ref": "#/definitions/S",
                                                                          "maxLength": 3}}}), encoding="utf-8")
    main = doc(D07, {"o": {"$ref": "other.json"}})
    (tmp_path / "doc.schema.json").write_text(json.dumps(main), encoding="utf-8")
    graph = load_jsonschema("doc", tmp_path / "doc.schema.json", {"Doc": ("#", "record")}, tmp_path)
    assert [note[1:] for note in graph.notes] == [("maxLength", "draft-07")]


# --- oneOf exclusivity ---------------------------------------------------------------------------------


def _object(required: list[str], **properties) -> dict:
    return {"type": "object", "properties": properties, "required": required}


def test_required_made_optional_inside_overlapping_oneof_is_a_version_bump(pairs):
    text = {"type": "string"}
    old = {"$schema": D2020, "title": "Doc", "oneOf": [_object(["a"], a=text), _object(["b"], b=text)]}
    new = {"$schema": D2020, "title": "Doc", "oneOf": [_object([], a=text), _object(["b"], b=text)]}
    entry = _entry(pairs, old, new)
    assert entry["decision"] == "version-bump"
    [change] = entry["changes"]
    assert (change["rule"], change["args"]["inner"]) == ("exclusive-alternative-widened", "required-made-optional")
    assert change["breaks"] == [OLD, NEW]  # {"b": "x"} now matches both alternatives and is rejected


@pytest.mark.parametrize("second", [
    pytest.param({"type": "string"}, id="disjoint-types"),
    pytest.param(_object(["kind", "b"], kind={"const": "b"}, b={"type": "string"}), id="discriminator-const"),
    pytest.param(_object(["kind", "b"], kind={"enum": ["b", "c"]}, b={"type": "string"}), id="discriminator-enum"),
])
def test_required_made_optional_inside_disjoint_oneof_stays_same_version(pairs, second):
    first_old = _object(["kind", "a"], kind={"const": "a"}, a={"type": "string"})
    first_new = _object(["kind"], kind={"const": "a"}, a={"type": "string"})
    old = {"$schema": D2020, "title": "Doc", "oneOf": [first_old, second]}
    new = {"$schema": D2020, "title": "Doc", "oneOf": [first_new, second]}
    entry = _entry(pairs, old, new)
    assert entry["decision"] == "same-version", entry
    assert [change["breaks"] for change in entry["changes"]] == [[NEW]]


def test_alternative_removed_from_overlapping_oneof_breaks_both_ways(pairs):
    text = {"type": "string"}
    old = {"$schema": D2020, "title": "Doc",
           "oneOf": [_object(["a"], a=text), _object(["b"], b=text), _object(["c"], c=text), text]}
    new = {"$schema": D2020, "title": "Doc", "oneOf": [_object(["a"], a=text), _object(["c"], c=text), text]}
    entry = _entry(pairs, old, new)
    assert [(change["kind"], change["breaks"]) for change in entry["changes"]] == [("alternative-removed", [OLD, NEW])]


# --- provable equivalences ----------------------------------------------------------------------------


@pytest.mark.parametrize("old, new", [
    pytest.param({"type": "string", "minLength": 0}, {"type": "string"}, id="min-length-zero"),
    pytest.param({"type": "array", "minItems": 0}, {"type": "array"}, id="min-items-zero"),
    pytest.param({"type": "object", "minProperties": 0}, {"type": "object"}, id="min-properties-zero"),
    pytest.param({"properties": {}}, {}, id="empty-properties-without-type"),
    pytest.param({"items": {}}, {}, id="empty-items-without-type"),
])
def test_provably_equivalent_schemas_are_unchanged(pairs, old, new):
    entry = _entry(pairs, doc(D2020, {"p": old}), doc(D2020, {"p": new}))
    assert (entry["decision"], entry["before"]) == ("unchanged", entry["after"])


def test_a_zero_bound_beside_others_still_leaves_them(pairs):
    entry = _entry(pairs, doc(D2020, {"p": {"type": "string", "minLength": 0, "maxLength": 3}}),
                   doc(D2020, {"p": {"type": "string", "maxLength": 3}}))
    assert entry["decision"] == "unchanged"
    entry = _entry(pairs, doc(D2020, {"p": {"type": "string", "minLength": 0}}),
                   doc(D2020, {"p": {"type": "string", "minLength": 1}}))
    assert [(change["kind"], change["breaks"]) for change in entry["changes"]] == [("constraint-added", [OLD])]
