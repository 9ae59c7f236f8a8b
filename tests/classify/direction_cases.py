"""Pairs of schemas whose break directions are known exactly: (id, old, new, expected breaks).

`breaks` is the union over the root's changes. Each pair is a whole document with the title `Doc`; a
`p` shorthand wraps a property schema in an open object. Shared by the direction table and the oracle.
"""

from __future__ import annotations

D2020 = "https://json-schema.org/draft/2020-12/schema"
D07 = "http://json-schema.org/draft-07/schema#"
OLD, NEW = "old-data-new-readers", "new-data-old-readers"
BOTH = {OLD, NEW}


def p(schema, dialect: str = D2020, **extra) -> dict:
    """A document whose property `p` has this schema."""
    return {"$schema": dialect, "title": "Doc", "type": "object", "properties": {"p": schema}, **extra}


def whole(schema, dialect: str = D2020) -> dict:
    return {"$schema": dialect, "title": "Doc", **schema}


STRING = {"type": "string"}
NUMBER = {"type": "number"}

CASES = [
    # bounds, lengths, divisibility
    ("max-length-loosened", p({"type": "string", "maxLength": 10}), p({"type": "string", "maxLength": 12}), {NEW}),
    ("max-length-tightened", p({"type": "string", "maxLength": 12}), p({"type": "string", "maxLength": 10}), {OLD}),
    ("minimum-loosened", p({"type": "integer", "minimum": 11}), p({"type": "integer", "minimum": 10}), {NEW}),
    ("minimum-tightened", p({"type": "integer", "minimum": 10}), p({"type": "integer", "minimum": 11}), {OLD}),
    ("multiple-of-loosened", p({"type": "integer", "multipleOf": 10}), p({"type": "integer", "multipleOf": 2}), {NEW}),
    ("multiple-of-tightened", p({"type": "integer", "multipleOf": 2}), p({"type": "integer", "multipleOf": 10}), {OLD}),
    ("multiple-of-unrelated", p({"type": "integer", "multipleOf": 2}), p({"type": "integer", "multipleOf": 3}), BOTH),
    ("min-items-tightened", p({"type": "array", "minItems": 1}), p({"type": "array", "minItems": 2}), {OLD}),
    ("unique-items-added", p({"type": "array"}), p({"type": "array", "uniqueItems": True}), {OLD}),
    ("pattern-removed", p({"type": "string", "pattern": "^a"}), p(STRING), {NEW}),
    ("pattern-added", p(STRING), p({"type": "string", "pattern": "^a"}), {OLD}),
    ("pattern-changed", p({"type": "string", "pattern": "^a"}), p({"type": "string", "pattern": "^b"}), BOTH),
    # values and types
    ("enum-removed", p({"type": "string", "enum": ["a", "b"]}), p(STRING), {NEW}),
    ("enum-added", p(STRING), p({"type": "string", "enum": ["a", "b"]}), {OLD}),
    ("enum-value-added", p({"enum": ["a", "b"]}), p({"enum": ["a", "b", "c"]}), {NEW}),
    ("enum-value-removed", p({"enum": ["a", "b", "c"]}), p({"enum": ["a", "b"]}), {OLD}),
    ("const-widened-to-enum", p({"const": 1}), p({"enum": [1, 2]}), {NEW}),
    ("integer-to-number", p({"type": "integer"}), p(NUMBER), {NEW}),
    ("number-to-integer", p(NUMBER), p({"type": "integer"}), {OLD}),
    ("string-to-integer", p(STRING), p({"type": "integer"}), BOTH),
    ("union-alternative-added", p(STRING), p({"type": ["string", "null"]}), {NEW}),
    ("union-alternative-removed", p({"anyOf": [STRING, {"type": "integer"}]}), p(STRING), {OLD}),
    ("type-made-nullable-and-loosened", p({"type": "string", "maxLength": 3}),
     p({"type": ["string", "null"], "maxLength": 5}), {NEW}),
    ("widened-to-any", p(STRING), p({}), {NEW}),
    ("narrowed-from-any", p({}), p(STRING), {OLD}),
    # applicators
    ("not-narrowed", p({"not": STRING}), p({"not": {"type": "string", "maxLength": 3}}), {NEW}),
    ("not-widened", p({"not": {"type": "string", "maxLength": 3}}), p({"not": STRING}), {OLD}),
    ("dependent-schema-removed", whole({"type": "object", "dependentSchemas": {"a": {"required": ["b"]}}}),
     whole({"type": "object"}), {NEW}),
    ("dependent-schema-added", whole({"type": "object", "dependentSchemas": {"a": {"required": ["b"]}}}),
     whole({"type": "object", "dependentSchemas": {"a": {"required": ["b"]}, "c": {"required": ["d"]}}}), {OLD}),
    ("contains-narrowed", p({"type": "array", "contains": STRING}),
     p({"type": "array", "contains": {"type": "string", "maxLength": 2}}), {OLD}),
    # object content
    ("required-made-optional", whole({"type": "object", "properties": {"a": STRING}, "required": ["a"]}),
     whole({"type": "object", "properties": {"a": STRING}}), {NEW}),
    ("optional-made-required", whole({"type": "object", "properties": {"a": STRING}}),
     whole({"type": "object", "properties": {"a": STRING}, "required": ["a"]}), {OLD}),
    ("required-property-removed-from-open", whole({"type": "object", "properties": {"a": STRING}, "required": ["a"]}),
     whole({"type": "object"}), {NEW}),
    ("optional-property-removed-from-closed",
     whole({"type": "object", "properties": {"a": STRING, "b": STRING}, "additionalProperties": False}),
     whole({"type": "object", "properties": {"a": STRING}, "additionalProperties": False}), {OLD}),
    ("optional-added-to-open", whole({"type": "object", "properties": {"a": STRING}}),
     whole({"type": "object", "properties": {"a": STRING, "bar": NUMBER}}), {OLD}),
    ("optional-added-to-closed", whole({"type": "object", "properties": {"a": STRING}, "additionalProperties": False}),
     whole({"type": "object", "properties": {"a": STRING, "bar": NUMBER}, "additionalProperties": False}), {NEW}),
    ("optional-added-over-typed-content-model",
     whole({"type": "object", "properties": {"a": STRING}, "additionalProperties": STRING}),
     whole({"type": "object", "properties": {"a": STRING, "bar": NUMBER}, "additionalProperties": STRING}), BOTH),
    ("optional-added-over-matching-pattern",
     whole({"type": "object", "properties": {"a": STRING}, "patternProperties": {"^b": STRING}}),
     whole({"type": "object", "properties": {"a": STRING, "bar": NUMBER}, "patternProperties": {"^b": STRING}}), BOTH),
    ("optional-added-within-typed-content-model",
     whole({"type": "object", "properties": {"a": STRING}, "additionalProperties": NUMBER}),
     whole({"type": "object", "properties": {"a": STRING, "bar": {"type": "integer"}},
            "additionalProperties": NUMBER}), {OLD}),
    ("object-closed", whole({"type": "object", "properties": {"a": STRING}}),
     whole({"type": "object", "properties": {"a": STRING}, "additionalProperties": False}), {OLD}),
    ("object-opened", whole({"type": "object", "properties": {"a": STRING}, "additionalProperties": False}),
     whole({"type": "object", "properties": {"a": STRING}}), {NEW}),
    ("pattern-added-to-closed", whole({"type": "object", "properties": {"a": STRING}, "additionalProperties": False}),
     whole({"type": "object", "properties": {"a": STRING}, "patternProperties": {"^x": STRING},
            "additionalProperties": False}), {NEW}),
    ("pattern-added-to-open", whole({"type": "object", "properties": {"a": STRING}}),
     whole({"type": "object", "properties": {"a": STRING}, "patternProperties": {"^x": STRING}}), {OLD}),
    # arrays and tuples, position by position with the tail
    ("tuple-position-added-to-closed", p({"type": "array", "prefixItems": [STRING], "items": False}),
     p({"type": "array", "prefixItems": [STRING, NUMBER], "items": False}), {NEW}),
    ("tuple-position-added-to-open", p({"type": "array", "prefixItems": [STRING]}),
     p({"type": "array", "prefixItems": [STRING, NUMBER]}), {OLD}),
    ("tuple-position-removed-to-closed", p({"type": "array", "prefixItems": [STRING, NUMBER], "items": False}),
     p({"type": "array", "prefixItems": [STRING], "items": False}), {OLD}),
    ("tuple-tail-closed", p({"type": "array", "prefixItems": [STRING]}),
     p({"type": "array", "prefixItems": [STRING], "items": False}), {OLD}),
    ("tuple-position-loosened", p({"type": "array", "prefixItems": [{"type": "integer"}], "items": False}),
     p({"type": "array", "prefixItems": [NUMBER], "items": False}), {NEW}),
    ("empty-items-to-tuple", p({"type": "array", "items": {}}), p({"type": "array", "prefixItems": [STRING]}), {OLD}),
    ("array-to-tuple-over-same-tail", p({"type": "array", "items": STRING}),
     p({"type": "array", "prefixItems": [{"type": "string", "maxLength": 2}], "items": STRING}), {OLD}),
    ("draft-07-additional-items-closed",
     p({"type": "array", "items": [STRING], "additionalItems": NUMBER}, D07),
     p({"type": "array", "items": [STRING], "additionalItems": False}, D07), {OLD}),
    ("draft-07-position-added-to-closed",
     p({"type": "array", "items": [STRING], "additionalItems": False}, D07),
     p({"type": "array", "items": [STRING, NUMBER], "additionalItems": False}, D07), {NEW}),
]
