"""JSON Schema adapter tables: schema in, normalized structure or digest (in)equality out."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from govern.errors import InputError
from conftest import (
    digests_of_graph, document_digest, document_structure, load_file, root_digests, type_digests_of,
)

D2020 = "https://json-schema.org/draft/2020-12/schema"
D07 = "http://json-schema.org/draft-07/schema#"
D04 = "http://json-schema.org/draft-04/schema#"

STRING = {"kind": "primitive", "type": "string"}
INTEGER = {"kind": "primitive", "type": "integer"}
OPEN = {"kind": "opaque"}

STRUCTURES = [
    ("string-constraints", {"type": "string", "minLength": 1, "maxLength": 9, "pattern": "^a", "format": "email"},
     {"kind": "primitive", "type": "string",
      "constraints": {"format": "email", "maxLength": 9, "minLength": 1, "pattern": "^a"}}),
    ("number-constraints", {"type": "number", "minimum": 0, "exclusiveMaximum": 10, "multipleOf": 0.5},
     {"kind": "primitive", "type": "number", "constraints": {"exclusiveMaximum": 10, "minimum": 0, "multipleOf": 0.5}}),
    ("draft-04-exclusive-minimum", {"$schema": D04, "type": "integer", "minimum": 3, "exclusiveMinimum": True},
     {"kind": "primitive", "type": "integer", "constraints": {"exclusiveMinimum": 3}}),
    ("draft-04-exclusive-false", {"$schema": D04, "type": "integer", "maximum": 3, "exclusiveMaximum": False},
     {"kind": "primitive", "type": "integer", "constraints": {"maximum": 3}}),
    ("type-list", {"type": ["string", "null"], "maxLength": 3},
     {"kind": "union", "mode": "anyOf", "alternatives": [
         {"kind": "primitive", "type": "null"}, {"kind": "primitive", "type": "string", "constraints": {"maxLength": 3}}]}),
    ("closed-object", {"type": "object", "properties": {"b": {"type": "integer"}, "a": {"type": "string"}},
                       "required": ["a"], "additionalProperties": False},
     {"kind": "object", "properties": {"a": {"required": True, "type": STRING},
                                       "b": {"required": False, "type": INTEGER}}, "additional": "closed"}),
    ("open-object", {"type": "object", "properties": {"a": {}}},
     {"kind": "object", "properties": {"a": {"required": False, "type": OPEN}}, "additional": "open"}),
    ("typed-additional", {"type": "object", "properties": {"a": True}, "additionalProperties": {"type": "integer"}},
     {"kind": "object", "properties": {"a": {"required": False, "type": OPEN}}, "additional": INTEGER}),
    ("required-undeclared", {"type": "object", "required": ["z"]},
     {"kind": "object", "properties": {"z": {"required": True, "type": OPEN}}, "additional": "open"}),
    ("map", {"type": "object", "additionalProperties": {"type": "integer"}, "maxProperties": 4},
     {"kind": "map", "values": INTEGER, "constraints": {"maxProperties": 4}}),
    ("pattern-properties", {"type": "object", "patternProperties": {"^x-": {"type": "string"}},
                            "additionalProperties": False},
     {"kind": "object", "properties": {}, "additional": "closed", "patternProperties": {"^x-": STRING}}),
    ("unevaluated-without-composition", {"type": "object", "properties": {"a": {}}, "unevaluatedProperties": False},
     {"kind": "object", "properties": {"a": {"required": False, "type": OPEN}}, "additional": "closed"}),
    ("array", {"type": "array", "items": {"type": "string"}, "minItems": 1, "uniqueItems": True},
     {"kind": "array", "items": STRING, "constraints": {"minItems": 1, "uniqueItems": True}}),
    ("prefix-items-closed", {"type": "array", "prefixItems": [{"type": "string"}, {"type": "integer"}], "items": False},
     {"kind": "tuple", "items": [STRING, INTEGER], "rest": "closed"}),
    ("prefix-items-open", {"type": "array", "prefixItems": [{"type": "string"}]},
     {"kind": "tuple", "items": [STRING], "rest": "open"}),
    ("draft-07-array-items", {"$schema": D07, "type": "array", "items": [{"type": "string"}, {"type": "integer"}],
                              "additionalItems": {"type": "string"}},
     {"kind": "tuple", "items": [STRING, INTEGER], "rest": STRING}),
    ("const", {"const": "a"}, {"kind": "literal", "value": "a"}),
    ("enum-sorted", {"enum": ["b", "a", 3]}, {"kind": "enum", "values": ["a", "b", 3]}),  # by canonical text
    ("enum-single-is-literal", {"enum": ["only"]}, {"kind": "literal", "value": "only"}),
    ("enum-with-implied-type", {"type": "string", "enum": ["b", "a"]}, {"kind": "enum", "values": ["a", "b"]}),
    ("any-of", {"anyOf": [{"type": "string"}, {"type": "integer"}]},
     {"kind": "union", "mode": "anyOf", "alternatives": [STRING, INTEGER]}),
    ("one-of", {"oneOf": [{"type": "string"}, {"type": "string", "maxLength": 3}]},
     {"kind": "union", "mode": "oneOf", "alternatives": [
         STRING, {"kind": "primitive", "type": "string", "constraints": {"maxLength": 3}}]}),
    # no value matches two alternatives of different JSON types, so oneOf rejects nothing anyOf admits
    ("one-of-disjoint-types", {"oneOf": [{"type": "string"}, {"type": "integer"}]},
     {"kind": "union", "mode": "anyOf", "alternatives": [STRING, INTEGER]}),
    ("one-of-disjoint-constrained", {"oneOf": [{"type": "string", "maxLength": 3}, {"type": "null"}]},
     {"kind": "union", "mode": "anyOf", "alternatives": [
         {"kind": "primitive", "type": "string", "constraints": {"maxLength": 3}}, {"kind": "primitive", "type": "null"}]}),
    ("all-of", {"allOf": [{"type": "string"}, {"maxLength": 3}]},
     {"kind": "intersection", "operands": [STRING, {"kind": "union", "mode": "anyOf", "alternatives": [
         {"kind": "primitive", "type": "string", "constraints": {"maxLength": 3}},
         {"kind": "opaque", "constraints": {"not-type": "string"}}]}]}),
    ("unknown-keyword-kept", {"type": "string", "x-foo": {"b": 1}},
     {"kind": "primitive", "type": "string", "constraints": {"x-foo": {"b": 1}}}),
    ("unknown-keyword-alone", {"x-foo": 1}, {"kind": "opaque", "constraints": {"x-foo": 1}}),
    ("annotations-dropped", {"type": "string", "title": "T", "description": "D", "examples": ["e"], "default": "d",
                             "$comment": "c", "deprecated": True}, STRING),
    ("true-schema", True, OPEN),
    ("false-schema", False, {"kind": "never"}),
]


@pytest.mark.parametrize("schema, expected", [case[1:] for case in STRUCTURES], ids=[case[0] for case in STRUCTURES])
def test_structure(schema, expected):
    assert document_structure(schema) == expected


def _defs(schema: dict, keyword: str = "$defs") -> dict:
    return {"$defs" if keyword == "$defs" else keyword: {"Name": {"type": "string", "maxLength": 4}},
            "type": "object", "properties": {"n": {"$ref": f"#/{keyword}/Name"}}, **schema}


SAME_DIGEST = [
    ("draft-07-definitions-vs-2020-defs", {"$schema": D07, **_defs({}, "definitions")}, {"$schema": D2020, **_defs({})}),
    ("draft-04-definitions-vs-2020-defs", {"$schema": D04, **_defs({}, "definitions")}, {"$schema": D2020, **_defs({})}),
    ("draft-04-boolean-exclusive-minimum", {"$schema": D04, "type": "number", "minimum": 1, "exclusiveMinimum": True},
     {"$schema": D2020, "type": "number", "exclusiveMinimum": 1}),
    ("draft-04-boolean-exclusive-maximum", {"$schema": D04, "type": "number", "maximum": 9, "exclusiveMaximum": True},
     {"$schema": D07, "type": "number", "exclusiveMaximum": 9}),
    ("draft-04-exclusive-false-is-absent", {"$schema": D04, "type": "number", "minimum": 1, "exclusiveMinimum": False},
     {"type": "number", "minimum": 1}),
    ("ref-vs-inline", _defs({}), {"type": "object", "properties": {"n": {"type": "string", "maxLength": 4}}}),
    ("anchor-vs-pointer",
     {"$defs": {"N": {"$anchor": "name", "type": "string"}}, "type": "array", "items": {"$ref": "#name"}},
     {"$defs": {"N": {"type": "string"}}, "type": "array", "items": {"$ref": "#/$defs/N"}}),
    ("draft-07-id-anchor-vs-pointer",
     {"$schema": D07, "definitions": {"N": {"$id": "#name", "type": "string"}}, "type": "array",
      "items": {"$ref": "#name"}},
     {"type": "array", "items": {"type": "string"}}),
    ("renamed-definition", _defs({}), {"$defs": {"Other": {"type": "string", "maxLength": 4}},
                                       "type": "object", "properties": {"n": {"$ref": "#/$defs/Other"}}}),
    ("property-order", {"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "integer"}}},
     {"type": "object", "properties": {"b": {"type": "integer"}, "a": {"type": "string"}}}),
    ("required-order", {"type": "object", "properties": {"a": {}, "b": {}}, "required": ["a", "b"]},
     {"type": "object", "properties": {"a": {}, "b": {}}, "required": ["b", "a", "b"]}),
    ("enum-order", {"enum": ["a", "b", 1]}, {"enum": [1, "b", "a"]}),
    ("any-of-order", {"anyOf": [{"type": "string"}, {"type": "integer"}]},
     {"anyOf": [{"type": "integer"}, {"type": "string"}]}),
    ("one-of-order", {"oneOf": [{"type": "string"}, {"const": 3}]}, {"oneOf": [{"const": 3}, {"type": "string"}]}),
    ("all-of-order", {"allOf": [{"type": "string"}, {"x-a": 1}]}, {"allOf": [{"x-a": 1}, {"type": "string"}]}),
    ("type-list-order", {"type": ["string", "null"]}, {"type": ["null", "string"]}),
    ("type-list-vs-one-of", {"type": ["string", "null"]}, {"oneOf": [{"type": "null"}, {"type": "string"}]}),
    ("type-list-vs-any-of", {"type": ["string", "null"]}, {"anyOf": [{"type": "string"}, {"type": "null"}]}),
    ("disjoint-one-of-vs-any-of", {"oneOf": [{"type": "object", "required": ["a"]}, {"type": "array"}]},
     {"anyOf": [{"type": "array"}, {"type": "object", "required": ["a"]}]}),
    ("integer-and-number-vs-number", {"anyOf": [{"type": "integer"}, {"type": "number"}]}, {"type": "number"}),
    ("pattern-properties-order", {"patternProperties": {"^a": {}, "^b": {"type": "string"}}, "type": "object"},
     {"type": "object", "patternProperties": {"^b": {"type": "string"}, "^a": {}}}),
    ("integral-float", {"type": "integer", "maximum": 10.0}, {"type": "integer", "maximum": 10}),
    ("const-vs-single-enum", {"const": "a"}, {"enum": ["a"]}),
    ("implied-type-of-enum", {"type": "string", "enum": ["a", "b"]}, {"enum": ["a", "b"]}),
    ("array-form-items-vs-prefix-items", {"$schema": D07, "type": "array", "items": [{"type": "string"}],
                                          "additionalItems": False},
     {"type": "array", "prefixItems": [{"type": "string"}], "items": False}),
    ("unevaluated-vs-additional", {"type": "object", "properties": {"a": {}}, "unevaluatedProperties": False},
     {"type": "object", "properties": {"a": {}}, "additionalProperties": False}),
    ("annotations", {"type": "string"},
     {"type": "string", "title": "t", "description": "d", "examples": ["x"], "default": "y", "$comment": "c"}),
    ("nested-annotations", {"type": "object", "properties": {"a": {"type": "integer"}}},
     {"type": "object", "description": "outer", "properties": {"a": {"type": "integer", "title": "A",
                                                                     "default": 1, "examples": [2]}}}),
]


@pytest.mark.parametrize("first, second", [case[1:] for case in SAME_DIGEST], ids=[case[0] for case in SAME_DIGEST])
def test_same_digest(first, second):
    assert document_digest(first) == document_digest(second)


DIFFERENT_DIGEST = [
    ("unknown-keyword-value", {"type": "string", "x-foo": 1}, {"type": "string", "x-foo": 2}),
    ("unknown-keyword-added", {"type": "string"}, {"type": "string", "x-foo": 1}),
    ("unknown-keyword-on-typeless", {"x-foo": "a"}, {"x-foo": "b"}),
    ("any-of-vs-one-of", {"anyOf": [{"type": "integer"}, {"type": "number"}]},
     {"oneOf": [{"type": "integer"}, {"type": "number"}]}),
    ("any-of-vs-one-of-constrained", {"anyOf": [{"type": "string"}, {"type": "string", "maxLength": 3}]},
     {"oneOf": [{"type": "string"}, {"type": "string", "maxLength": 3}]}),
    ("required-ness", {"type": "object", "properties": {"a": {}}, "required": ["a"]},
     {"type": "object", "properties": {"a": {}}}),
    ("closed-vs-open", {"type": "object", "properties": {"a": {}}, "additionalProperties": False},
     {"type": "object", "properties": {"a": {}}}),
    ("typed-additional-vs-open", {"type": "object", "properties": {"a": {}}, "additionalProperties": {"type": "string"}},
     {"type": "object", "properties": {"a": {}}}),
    ("unevaluated-closed-vs-open", {"type": "object", "properties": {"a": {}}, "unevaluatedProperties": False},
     {"type": "object", "properties": {"a": {}}}),
    ("pattern", {"type": "object", "patternProperties": {"^a": {}}}, {"type": "object", "patternProperties": {"^b": {}}}),
    ("tuple-positions", {"type": "array", "prefixItems": [{"type": "string"}, {"type": "integer"}]},
     {"type": "array", "prefixItems": [{"type": "integer"}, {"type": "string"}]}),
    ("tuple-rest", {"type": "array", "prefixItems": [{"type": "string"}], "items": False},
     {"type": "array", "prefixItems": [{"type": "string"}]}),
    ("tuple-vs-array", {"type": "array", "prefixItems": [{"type": "string"}]}, {"type": "array", "items": {"type": "string"}}),
    ("exclusive-vs-inclusive", {"type": "number", "exclusiveMinimum": 1}, {"type": "number", "minimum": 1}),
    ("draft-04-exclusive-vs-inclusive", {"$schema": D04, "type": "number", "minimum": 1, "exclusiveMinimum": True},
     {"$schema": D04, "type": "number", "minimum": 1}),
    ("enum-value-added", {"enum": ["a", "b"]}, {"enum": ["a", "b", "c"]}),
    ("enum-value-changed", {"enum": ["a", "b"]}, {"enum": ["a", "c"]}),
    ("const-value", {"const": "a"}, {"const": "b"}),
    ("const-type", {"const": 1}, {"const": "1"}),
    ("const-true-vs-one", {"const": True}, {"const": 1}),
    ("type-list-vs-single", {"type": ["string", "null"]}, {"type": "string"}),
    ("constraint-value", {"type": "string", "maxLength": 3}, {"type": "string", "maxLength": 4}),
    ("constraint-added", {"type": "integer"}, {"type": "integer", "minimum": 0}),
    ("format", {"type": "string", "format": "date"}, {"type": "string", "format": "date-time"}),
    ("string-vs-integer", {"type": "string"}, {"type": "integer"}),
    ("integer-vs-number", {"type": "integer"}, {"type": "number"}),
    ("constraint-with-or-without-type", {"type": "string", "maxLength": 3}, {"maxLength": 3}),
    ("items-type", {"type": "array", "items": {"type": "string"}}, {"type": "array", "items": {"type": "integer"}}),
    ("array-constraint", {"type": "array", "maxItems": 3}, {"type": "array", "maxItems": 4}),
    ("property-name", {"type": "object", "properties": {"a": {}}}, {"type": "object", "properties": {"b": {}}}),
    ("true-vs-false", True, False),
    ("read-only-kept", {"type": "string"}, {"type": "string", "readOnly": True}),
]


@pytest.mark.parametrize("first, second", [case[1:] for case in DIFFERENT_DIGEST],
                         ids=[case[0] for case in DIFFERENT_DIGEST])
def test_different_digest(first, second):
    assert document_digest(first) != document_digest(second)


def test_definitions_become_named_types_and_roots():
    digests = root_digests({"$schema": D07, "definitions": {"A": {"type": "string"}, "B": {"type": "integer"}},
                            "type": "object", "properties": {"a": {"$ref": "#/definitions/A"}}})
    assert sorted(digests) == ["doc:A", "doc:B", "doc:doc"]
    assert digests["doc:A"] == document_digest({"type": "string"})


def test_definition_digest_is_independent_of_its_name():
    types = type_digests_of({"$defs": {"First": {"type": "string", "maxLength": 2},
                                       "Second": {"type": "string", "maxLength": 2},
                                       "Third": {"type": "string", "maxLength": 3}}})
    assert types["First"] == types["Second"] != types["Third"]


def test_recursive_definition_is_fine():
    tree = {"$defs": {"Node": {"type": "object", "properties": {"children": {"type": "array",
                                                                           "items": {"$ref": "#/$defs/Node"}}}}},
            "$ref": "#/$defs/Node"}
    digests = root_digests(tree)
    assert digests["doc:Node"] == digests["doc:doc"]
    assert root_digests(tree) == digests


def test_recursive_ref_to_document_root():
    digests = root_digests({"type": "object", "properties": {"next": {"$ref": "#"}, "v": {"type": "integer"}}})
    assert list(digests) == ["doc:doc"]


def test_mutually_recursive_cycle_change_beyond_first_rounds_changes_digest():
    """A three-type cycle that agrees with a two-type cycle for two levels still hashes differently."""

    def node(tag, following):
        return {"type": "object", "properties": {"t": {"const": tag}, "x": {"$ref": f"#/$defs/{following}"}},
                "required": ["t", "x"]}

    two = root_digests({"$defs": {"A": node(1, "B"), "B": node(2, "A")}})
    three = root_digests({"$defs": {"A": node(1, "B"), "B": node(2, "C"), "C": node(3, "A")}})
    changed = root_digests({"$defs": {"A": node(1, "B"), "B": node(2, "C"), "C": node(4, "A")}})
    assert two["doc:A"] != three["doc:A"] != changed["doc:A"]
    assert three["doc:B"] != changed["doc:B"]
    # Unrolling a cycle (the same infinite structure) gives the same digests.
    unrolled = root_digests({"$defs": {"A": node(1, "B"), "B": node(2, "A2"), "A2": node(1, "B2"),
                                       "B2": node(2, "A")}})
    assert unrolled["doc:A"] == unrolled["doc:A2"] == two["doc:A"]


def test_alias_of_recursive_type_hashes_like_its_target():
    recursive = {"type": "object", "properties": {"next": {"$ref": "#/$defs/List"}, "v": {"type": "integer"}}}
    digests = root_digests({"$defs": {"List": recursive, "Alias": {"$ref": "#/$defs/List"}}})
    assert digests["doc:Alias"] == digests["doc:List"]
    direct = root_digests({"$defs": {"List": recursive}, "type": "array", "items": {"$ref": "#/$defs/List"}})
    via_alias = root_digests({"$defs": {"List": recursive, "Alias": {"$ref": "#/$defs/List"}},
                              "type": "array", "items": {"$ref": "#/$defs/Alias"}})
    assert direct["doc:doc"] == via_alias["doc:doc"]


# --- cross-file references through $id base URIs -------------------------------------------------------


def _write(path: Path, document: dict) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(document), encoding="utf-8")
    return path


def test_cross_file_refs_through_id_base_uris(tmp_path):
    base = "https://example.com/schemas/"
    _write(tmp_path / "order.schema.json", {
        "$schema": D2020, "$id": base + "order.schema.json",
        "$defs": {"Order": {"type": "object", "properties": {"customer": {"$ref": "customer.schema.json#/$defs/Customer"},
                                                             "id": {"type": "string"}}, "required": ["id"]}}})
    _write(tmp_path / "customer.schema.json", {
        "$schema": D2020, "$id": base + "customer.schema.json",
        "$defs": {"Customer": {"type": "object", "properties": {
            "orders": {"type": "array", "items": {"$ref": "order.schema.json#/$defs/Order"}},
            "address": {"$ref": "common/address.json"}}}}})
    _write(tmp_path / "common" / "address.json", {"$id": base + "common/address.json", "type": "object",
                                                   "properties": {"city": {"type": "string"}}})
    graph = load_file(tmp_path / "order.schema.json", tmp_path)
    # The referenced files' types join the graph under their own names.
    assert {"Order", "Customer", "address"} <= set(graph.types)
    digests = digests_of_graph(graph)
    # Inlining the other files changes nothing.
    inline = _write(tmp_path / "inline" / "order.schema.json", {"$defs": {
        "Order": {"type": "object", "properties": {"customer": {"$ref": "#/$defs/Customer"}, "id": {"type": "string"}},
                  "required": ["id"]},
        "Customer": {"type": "object", "properties": {"orders": {"type": "array", "items": {"$ref": "#/$defs/Order"}},
                                                      "address": {"type": "object",
                                                                  "properties": {"city": {"type": "string"}}}}}}})
    inline_digests = digests_of_graph(load_file(inline, tmp_path / "inline"))
    assert digests["order:Order"] == inline_digests["order:Order"]


def test_cross_file_refs_draft_04_id(tmp_path):
    base = "http://example.com/schemas/"
    _write(tmp_path / "a.json", {"$schema": D04, "id": base + "a.json", "type": "object",
                                 "properties": {"b": {"$ref": "b.json#/definitions/B"}}})
    _write(tmp_path / "b.json", {"$schema": D04, "id": base + "b.json",
                                 "definitions": {"B": {"type": "integer", "minimum": 0, "exclusiveMinimum": True}}})
    digests = digests_of_graph(load_file(tmp_path / "a.json", tmp_path))
    assert digests["a:a"] == document_digest({"type": "object", "properties": {"b": {"type": "integer",
                                                                                  "exclusiveMinimum": 0}}})


def test_cross_file_change_changes_referring_digest(tmp_path):
    base = "https://example.com/schemas/"
    a = _write(tmp_path / "a.json", {"$id": base + "a.json", "type": "array", "items": {"$ref": "b.json"}})
    _write(tmp_path / "b.json", {"$id": base + "b.json", "type": "string", "maxLength": 3})
    before = digests_of_graph(load_file(a, tmp_path))
    _write(tmp_path / "b.json", {"$id": base + "b.json", "type": "string", "maxLength": 4})
    assert digests_of_graph(load_file(a, tmp_path)) != before


def test_anchor_in_other_file(tmp_path):
    base = "https://example.com/schemas/"
    a = _write(tmp_path / "a.json", {"$id": base + "a.json", "type": "array", "items": {"$ref": "b.json#word"}})
    _write(tmp_path / "b.json", {"$id": base + "b.json", "$defs": {"W": {"$anchor": "word", "type": "string"}}})
    assert digests_of_graph(load_file(a, tmp_path))["a:a"] == document_digest({"type": "array",
                                                                               "items": {"type": "string"}})


# --- schema-valued keywords are normalized like any other subschema ---------------------------------------
# `not`, `if`/`then`/`else`, `contains`, `propertyNames`, `dependentSchemas` become applicator nodes, so
# annotations, reference names and union order inside them do not reach the digest.

VERBATIM_GAPS = [
    ("description-inside-not", {"type": "object", "not": {"required": ["a"]}},
     {"type": "object", "not": {"required": ["a"], "description": "no a"}}),
    ("union-order-inside-not", {"type": "object", "not": {"anyOf": [{"required": ["a"]}, {"required": ["b"]}]}},
     {"type": "object", "not": {"anyOf": [{"required": ["b"]}, {"required": ["a"]}]}}),
    ("renamed-ref-inside-then", {"$defs": {"A": {"type": "string"}}, "type": "object",
                                 "if": {"required": ["x"]}, "then": {"properties": {"x": {"$ref": "#/$defs/A"}}}},
     {"$defs": {"B": {"type": "string"}}, "type": "object",
      "if": {"required": ["x"]}, "then": {"properties": {"x": {"$ref": "#/$defs/B"}}}}),
]


@pytest.mark.parametrize("first, second", [case[1:] for case in VERBATIM_GAPS], ids=[case[0] for case in VERBATIM_GAPS])
def test_verbatim_keywords_ignore_names_annotations_and_order(first, second):
    assert document_digest(first) == document_digest(second)


def test_embedded_id_is_the_base_of_references_inside_it(tmp_path):
    # An inline subschema with its own `$id` is an embedded resource: `y.json` inside it resolves against
    # that `$id` (to nested/y.json, a string), not against the document's (to y.json, an integer).
    document = {
        "$id": "https://example.com/root.json",
        "type": "object",
        "properties": {"inner": {"$id": "https://example.com/nested/inner.json", "type": "object",
                                 "properties": {"a": {"$ref": "y.json"}}}},
        "$defs": {
            "Nested": {"$id": "https://example.com/nested/y.json", "type": "string"},
            "Top": {"$id": "https://example.com/y.json", "type": "integer"},
        },
    }
    path = _write(tmp_path / "root.json", document)
    digests = digests_of_graph(load_file(path, tmp_path))
    expected = {"type": "object", "properties": {"inner": {"type": "object",
                                                           "properties": {"a": {"type": "string"}}}}}
    assert digests["root:root"] == document_digest(expected)


# A relative `$id` is joined once, to the base of the schema that holds it: the document's own identifier to the
# address the document was read from, a definition's to the document's. Each row: the document, the named type
# whose digest is checked, and what it reads as (None: a reference that must not resolve).
RELATIVE_IDENTIFIERS = [
    ("definition-refers-beside-itself",
     {"$id": "https://example.com/schemas/root.json",
      "$defs": {"A": {"$id": "sub/a.json", "type": "object", "properties": {"b": {"$ref": "b.json"}}},
                "B": {"$id": "sub/b.json", "type": "string"}}},
     "A", {"type": "object", "properties": {"b": {"type": "string"}}}),
    ("nested-identifier-inside-a-definition",
     {"$id": "https://example.com/schemas/root.json",
      "$defs": {"C": {"$id": "c/", "type": "object", "properties": {
          "x": {"$id": "d.json", "type": "object", "properties": {"y": {"$ref": "e.json"}}}}},
                "E": {"$id": "c/e.json", "type": "integer"}}},
     "C", {"type": "object", "properties": {"x": {"type": "object", "properties": {"y": {"type": "integer"}}}}}),
    ("definition-reached-by-its-identifier",
     {"$id": "https://example.com/schemas/root.json",
      "type": "object", "properties": {"a": {"$ref": "sub/a.json"}},
      "$defs": {"A": {"$id": "sub/a.json", "type": "array", "items": {"$ref": "b.json"}},
                "B": {"$id": "sub/b.json", "type": "boolean"}}},
     "root", {"type": "object", "properties": {"a": {"type": "array", "items": {"type": "boolean"}}}}),
    ("relative-document-identifier",
     {"$id": "v1/root.json", "type": "object", "properties": {"a": {"$ref": "other.json"}},
      "$defs": {"O": {"$id": "other.json", "type": "integer"}}},
     "root", {"type": "object", "properties": {"a": {"type": "integer"}}}),
    ("relative-document-identifier-joined-once",
     {"$id": "v1/root.json", "type": "object", "properties": {"a": {"$ref": "v1/other.json"}},
      "$defs": {"O": {"$id": "other.json", "type": "integer"}}},
     "root", None),
    ("relative-document-identifier-fragment",
     {"$id": "v1/root.json", "type": "object", "properties": {"a": {"$ref": "#/$defs/A"}},
      "$defs": {"A": {"type": "object", "properties": {"b": {"$ref": "other.json"}}},
                "O": {"$id": "other.json", "type": "string"}}},
     "A", {"type": "object", "properties": {"b": {"type": "string"}}}),
]


# In draft-04, -06 and -07 `$ref` replaces its schema object: an identifier beside it is ignored like every other
# keyword there, so the reference resolves against the enclosing base (t.json, an integer), not r/t.json.
IGNORED_BESIDE_REF = [
    (dialect, keyword, where)
    for dialect, keyword in ((D04, "id"), ("http://json-schema.org/draft-06/schema#", "$id"), (D07, "$id"))
    for where in ("property", "definition")
]


@pytest.mark.parametrize("dialect, keyword, where", IGNORED_BESIDE_REF)
def test_an_identifier_beside_ref_is_ignored_where_ref_replaces_its_schema(tmp_path, dialect, keyword, where):
    beside = {keyword: "r/", "$ref": "t.json"}
    document = {"$schema": dialect, keyword: "https://example.com/s/root.json",
                "definitions": {"Spec": {keyword: "t.json", "type": "integer"},
                                "Other": {keyword: "r/t.json", "type": "string"}}}
    if where == "property":
        document.update({"type": "object", "properties": {"p": beside}})
        expected, name = {"type": "object", "properties": {"p": {"type": "integer"}}}, "root"
    else:
        document["definitions"]["Alias"] = beside
        expected, name = {"type": "integer"}, "Alias"
    digests = digests_of_graph(load_file(_write(tmp_path / "root.json", document), tmp_path))
    assert digests[f"root:{name}"] == document_digest(expected)


@pytest.mark.parametrize("document, name, expected", [case[1:] for case in RELATIVE_IDENTIFIERS],
                         ids=[case[0] for case in RELATIVE_IDENTIFIERS])
def test_relative_identifiers_are_joined_once(tmp_path, document, name, expected):
    path = _write(tmp_path / "root.json", {"$schema": D2020, **document})
    if expected is None:
        with pytest.raises(InputError, match="does not resolve"):
            load_file(path, tmp_path)
        return
    digests = digests_of_graph(load_file(path, tmp_path))
    assert digests[f"root:{name}"] == document_digest(expected)
