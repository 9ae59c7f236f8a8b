"""A record's snapshot validates exactly like the source it was exported from, and reads back to the same
digests: instances drawn from either side (the source schema, the exported root) are judged alike by a real
validator. The forms the model writes its own way are each covered: keywords without `type` (of one type or
several), `unevaluatedProperties`/`unevaluatedItems` beside a composition, and what such a keyword sees
evaluated (an open content model written out, a required name the object does not declare).
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from oracle import disagreements  # noqa: E402 - the folder's helpers
from govern.model.fingerprint import DOMAINS, type_digests
from govern.records.snapshot import load_snapshot, snapshot_document
from govern.sources.jsonschema import load_jsonschema
from govern.witness.confirm import root_schema

PROFILE = settings.get_profile("classify")
D2020 = "https://json-schema.org/draft/2020-12/schema"
STRING, INTEGER = {"type": "string"}, {"type": "integer"}

SOURCES = [
    ("unevaluated-beside-allof", {"type": "object", "properties": {"a": STRING},
                                  "allOf": [{"properties": {"b": INTEGER}}], "unevaluatedProperties": False}),
    ("unevaluated-beside-allof-without-type", {"allOf": [{"type": "object", "properties": {"b": INTEGER}}],
                                               "unevaluatedProperties": False}),
    ("unevaluated-beside-ref", {"$defs": {"B": {"type": "object", "properties": {"b": INTEGER}}},
                                "$ref": "#/$defs/B", "type": "object", "properties": {"a": STRING},
                                "unevaluatedProperties": False}),
    ("unevaluated-beside-anyof", {"type": "object", "anyOf": [{"properties": {"a": STRING}},
                                                              {"properties": {"b": INTEGER}}],
                                  "unevaluatedProperties": {"type": "boolean"}}),
    ("unevaluated-beside-true-operand", {"type": "object", "properties": {"a": STRING}, "allOf": [{}],
                                         "unevaluatedProperties": False}),
    ("unevaluated-items-beside-allof", {"type": "array", "allOf": [{"prefixItems": [STRING]}],
                                        "unevaluatedItems": False}),
    ("object-keywords-without-type", {"type": "object", "properties": {
        "p": {"properties": {"a": STRING}, "required": ["a"]}}}),
    ("string-keywords-without-type", {"type": "object", "properties": {"p": {"maxLength": 2}}}),
    ("number-keywords-without-type", {"type": "object", "properties": {"p": {"minimum": 2, "multipleOf": 2}}}),
    ("array-keywords-without-type", {"type": "object", "properties": {"p": {"items": INTEGER, "maxItems": 2}}}),
    ("open-tuple", {"type": "array", "prefixItems": [STRING, INTEGER]}),
    ("open-content-written-out-beside-unevaluated", {"type": "object", "allOf": [{"additionalProperties": True}],
                                                     "unevaluatedProperties": False}),
    ("open-tail-written-out-beside-unevaluated", {"type": "array", "allOf": [{"items": True}],
                                                  "unevaluatedItems": False}),
    ("required-undeclared-beside-typed-content", {"type": "object", "required": ["k"],
                                                  "additionalProperties": STRING}),
    ("keywords-of-two-types-without-type", {"type": "object", "properties": {"p": {"minLength": 1, "minimum": 3}}}),
]


def _graph(tmp_path, schema: dict):
    path = tmp_path / "doc.json"
    path.write_text(json.dumps({"$schema": D2020, "title": "Doc", **schema}), encoding="utf-8")
    return load_jsonschema("doc", path, {"Doc": ("#", "record")}, None)


def _digest(graph) -> str:
    return type_digests(graph.types, DOMAINS[graph.inventory_format])[graph.roots["doc:Doc"].type_key]


@pytest.mark.parametrize("schema", [pytest.param(schema, id=name) for name, schema in SOURCES])
def test_the_snapshot_reads_back_to_the_declared_digest(tmp_path, schema):
    graph = _graph(tmp_path, schema)
    document = snapshot_document("2026-01-01-x", [graph], {"doc:Doc"}, {"doc:Doc": _digest(graph)}, {"doc"})
    (back,) = load_snapshot(json.loads(json.dumps(document)), "snapshot")
    assert _digest(back) == _digest(graph)


@pytest.mark.parametrize("schema", [pytest.param(schema, id=name) for name, schema in SOURCES])
@settings(PROFILE, max_examples=6)
@given(data=st.data())
def test_the_exported_root_validates_like_the_source(tmp_path_factory, schema, data):
    source = {"$schema": D2020, **schema}
    graph = _graph(tmp_path_factory.mktemp("snapshot"), schema)
    exported = root_schema(graph, graph.roots["doc:Doc"].type_key)
    assert disagreements(data, source, exported) == []
