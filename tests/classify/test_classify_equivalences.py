"""Provably equivalent schemas normalize equal; schemas that only look alike do not.

Each equivalent pair must come out unchanged with equal digests, and the sampling oracle backs the proof:
instances drawn from either side validate identically under both. Each pair the normalization must leave
alone is told apart by an instance a real validator accepts under one side only.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from direction_cases import D07, p, whole  # noqa: E402 - the folder's helpers
from oracle import counterexamples, is_valid  # noqa: E402
from conftest import SOURCE  # noqa: E402

PROFILE = settings.get_profile("classify")

STRING, INTEGER, BOOLEAN, NULL = ({"type": name} for name in ("string", "integer", "boolean", "null"))
NUMBER = {"type": "number"}
SHORT = {"type": "string", "maxLength": 3}
NAMED = {"type": "object", "properties": {"a": STRING}, "required": ["a"]}
COUNTED = {"type": "object", "properties": {"b": INTEGER}, "required": ["b"]}

EQUIVALENT = [
    # allOf asserts each operand once, and `{}` asserts nothing
    ("allof-repeated-operand", p({"allOf": [NAMED, NAMED]}), p({"allOf": [NAMED]})),
    ("allof-repeated-among-others", p({"allOf": [NAMED, COUNTED, NAMED]}), p({"allOf": [NAMED, COUNTED]})),
    ("allof-repeated-reference",
     whole({"$defs": {"N": NAMED}, "type": "object",
            "properties": {"p": {"allOf": [{"$ref": "#/$defs/N"}, {"$ref": "#/$defs/N"}]}}}),
     whole({"$defs": {"N": NAMED}, "type": "object", "properties": {"p": {"$ref": "#/$defs/N"}}})),
    ("allof-repeated-beside-own-keywords", p({"type": "string", "allOf": [SHORT, SHORT]}),
     p({"type": "string", "allOf": [SHORT]})),
    ("allof-empty-operand", p({"allOf": [NAMED, {}]}), p(NAMED)),
    ("allof-true-operand", p({"allOf": [True, SHORT]}), p(SHORT)),
    ("anyof-repeated-alternative", p({"anyOf": [NAMED, STRING, NAMED]}), p({"anyOf": [NAMED, STRING]})),
    # a tuple without positions of its own is an array of its tail
    ("empty-prefix-items", p({"type": "array", "prefixItems": [], "items": STRING}),
     p({"type": "array", "items": STRING})),
    ("empty-items-list-draft-07", p({"type": "array", "items": [], "additionalItems": STRING}, D07),
     p({"type": "array", "items": STRING}, D07)),
    # keywords of a JSON type a declared `type` excludes apply to no instance
    ("object-keywords-beside-array",
     p({"type": "array", "properties": {"a": STRING}, "required": ["a"], "additionalProperties": False,
        "minProperties": 2, "propertyNames": {"maxLength": 1}}),
     p({"type": "array"})),
    ("array-keywords-beside-object",
     p({"type": "object", "items": STRING, "prefixItems": [STRING], "minItems": 3, "uniqueItems": True,
        "contains": INTEGER}),
     p({"type": "object"})),
    ("string-keywords-beside-integer", p({"type": "integer", "maxLength": 3, "pattern": "^a"}), p(INTEGER)),
    ("number-keywords-beside-string", p({"type": "string", "minimum": 3, "multipleOf": 2}), p(STRING)),
    ("keywords-beside-a-type-list",
     p({"type": ["string", "null"], "maxLength": 3, "minimum": 1, "required": ["a"], "items": STRING}),
     p({"type": ["string", "null"], "maxLength": 3})),
    ("required-beside-boolean", p({"type": "boolean", "required": ["a"]}), p(BOOLEAN)),
    # a oneOf of plain type sets admits exactly the types one alternative alone admits
    ("oneof-null-in-every-alternative", p({"oneOf": [{"type": ["string", "null"]}, {"type": ["integer", "null"]}]}),
     p({"oneOf": [STRING, INTEGER]})),
    ("oneof-shared-type", p({"oneOf": [{"type": ["string", "integer"]}, {"type": ["integer", "boolean"]}]}),
     p({"oneOf": [STRING, BOOLEAN]})),
    ("oneof-type-lists-regrouped", p({"oneOf": [{"type": ["string", "null"]}, INTEGER]}),
     p({"oneOf": [STRING, {"type": ["null", "integer"]}]})),
    ("oneof-number-once", p({"oneOf": [{"type": ["number", "null"]}, {"type": ["string", "null"]}]}),
     p({"oneOf": [NUMBER, STRING]})),
    ("oneof-any-value", p({"oneOf": [{}, STRING]}),
     p({"oneOf": [{"type": ["array", "boolean"]}, {"type": ["null", "number", "object"]}]})),
    ("oneof-every-value-twice", p({"oneOf": [{}, True]}), p({"oneOf": [STRING, STRING]})),
    # alternatives no value can match together: oneOf rejects nothing anyOf admits, and a type list says it too
    ("oneof-nullable-vs-type-list", p({"oneOf": [STRING, NULL]}), p({"type": ["string", "null"]})),
    ("anyof-nullable-vs-type-list", p({"anyOf": [STRING, NULL]}), p({"type": ["null", "string"]})),
    ("oneof-vs-anyof-disjoint-types", p({"oneOf": [STRING, INTEGER, BOOLEAN]}), p({"anyOf": [BOOLEAN, STRING, INTEGER]})),
    ("oneof-number-vs-type-list", p({"oneOf": [NULL, NUMBER]}), p({"type": ["number", "null"]})),
    ("oneof-constrained-nullable-vs-type-list", p({"oneOf": [SHORT, NULL]}),
     p({"type": ["string", "null"], "maxLength": 3})),
    ("oneof-object-or-null", p({"oneOf": [NAMED, NULL]}), p({"anyOf": [NULL, NAMED]})),
    ("oneof-values-of-disjoint-types", p({"oneOf": [{"enum": ["a", "b"]}, {"const": 1}, {"type": "array"}]}),
     p({"anyOf": [{"enum": ["a", "b"]}, {"const": 1}, {"type": "array"}]})),
    ("oneof-nested-disjoint-unions", p({"oneOf": [{"anyOf": [SHORT, NAMED]}, {"type": ["integer", "null"]}]}),
     p({"anyOf": [{"anyOf": [NAMED, SHORT]}, {"type": ["null", "integer"]}]})),
    # an integer is a number: the type set says `number` once
    ("anyof-integer-and-number", p({"anyOf": [INTEGER, NUMBER]}), p(NUMBER)),
    ("type-list-integer-and-number", p({"type": ["integer", "number", "null"]}), p({"type": ["number", "null"]})),
    # an open content model written out, where no unevaluated* sees what it evaluates
    ("additional-true-seen-by-nothing", p({"type": "object", "additionalProperties": True}),
     p({"type": "object"})),
    ("items-true-seen-by-nothing", p({"type": "array", "items": True}), p({"type": "array"})),
    ("required-undeclared-in-an-open-object", p({"type": "object", "required": ["k"]}),
     p({"type": "object", "properties": {"k": {}}, "required": ["k"]})),
    ("keywords-without-type-apart-in-allof", p({"minLength": 1, "minimum": 3}),
     p({"allOf": [{"minLength": 1}, {"minimum": 3}]})),
]

# (id, old, new, an instance exactly one side accepts)
DISTINCT = [
    # anyOf [true, A] admits every value, yet what A evaluates still counts for unevaluatedProperties
    ("anyof-true-alternative-beside-unevaluated",
     p({"type": "object", "anyOf": [True, {"properties": {"a": STRING}}], "unevaluatedProperties": False}),
     p({"type": "object", "anyOf": [True, {"properties": {"b": STRING}}], "unevaluatedProperties": False}),
     {"p": {"a": "x"}}),
    ("allof-distinct-operands", p({"allOf": [NAMED, COUNTED]}), p({"allOf": [NAMED]}), {"p": {"a": "x"}}),
    ("oneof-repeated-alternative", p({"oneOf": [STRING, STRING, INTEGER]}), p({"oneOf": [STRING, INTEGER]}),
     {"p": "x"}),
    ("object-keywords-without-type", p({"properties": {"a": STRING}}), p({}), {"p": {"a": 1}}),
    ("object-keywords-beside-object-in-a-list", p({"type": ["array", "object"], "required": ["a"]}),
     p({"type": ["array", "object"]}), {"p": {}}),
    ("string-keywords-beside-string", p({"type": ["string", "integer"], "maxLength": 1}),
     p({"type": ["string", "integer"]}), {"p": "xy"}),
    ("format-beside-integer", p({"type": "integer", "format": "int32"}), p(INTEGER), None),
    # constrained alternatives are not type sets: "abcd" matches only the second alternative of OLD
    ("oneof-constrained-overlap", p({"oneOf": [SHORT, {"type": ["string", "null"]}]}),
     p({"oneOf": [SHORT, NULL]}), {"p": "abcd"}),
    # integers are numbers: in oneOf [number, integer] an integer matches both, a fraction only one
    ("oneof-number-and-integer", p({"oneOf": [NUMBER, INTEGER]}), p({"oneOf": [NUMBER]}), {"p": 1}),
    # overlapping alternatives: oneOf rejects the values two of them admit, anyOf does not
    ("oneof-vs-anyof-integer-and-number", p({"oneOf": [INTEGER, NUMBER]}), p({"anyOf": [INTEGER, NUMBER]}),
     {"p": 1}),
    ("oneof-vs-anyof-string-with-and-without-constraints", p({"oneOf": [STRING, SHORT]}),
     p({"anyOf": [STRING, SHORT]}), {"p": "ab"}),
    ("oneof-vs-anyof-overlapping-objects", p({"oneOf": [NAMED, COUNTED]}), p({"anyOf": [NAMED, COUNTED]}),
     {"p": {"a": "x", "b": 1}}),
    ("oneof-vs-anyof-value-and-its-type", p({"oneOf": [{"const": 1}, NUMBER]}), p({"anyOf": [{"const": 1}, NUMBER]}),
     {"p": 1}),
    # keywords without `type` admit every value of other types too: null matches both alternatives
    ("oneof-vs-anyof-typeless-keywords", p({"oneOf": [{"maxLength": 3}, NULL]}),
     p({"anyOf": [{"maxLength": 3}, NULL]}), {"p": None}),
    ("oneof-vs-anyof-integral-value-and-integer", p({"oneOf": [{"const": 2.0}, INTEGER]}),
     p({"anyOf": [{"const": 2.0}, INTEGER]}), {"p": 2}),
    # an open content model written out evaluates every name (or item), which an unevaluated* beside it sees
    ("additional-true-in-allof-beside-unevaluated",
     p({"allOf": [{"additionalProperties": True}], "unevaluatedProperties": False}),
     p({"unevaluatedProperties": False}), {"p": {"x": 1}}),
    ("typed-additional-true-in-allof-beside-unevaluated",
     p({"allOf": [{"type": "object", "additionalProperties": True}], "unevaluatedProperties": False}),
     p({"allOf": [{"type": "object"}], "unevaluatedProperties": False}), {"p": {"x": 1}}),
    ("items-true-in-allof-beside-unevaluated", p({"allOf": [{"items": True}], "unevaluatedItems": False}),
     p({"unevaluatedItems": False}), {"p": [1]}),
    ("prefix-items-with-open-tail-beside-unevaluated",
     p({"allOf": [{"prefixItems": [True], "items": True}], "unevaluatedItems": False}),
     p({"allOf": [{"prefixItems": [True]}], "unevaluatedItems": False}), {"p": [1, 2]}),
    # a required name the object does not declare is checked by its content model, and is not evaluated
    ("required-undeclared-beside-closed-content",
     p({"type": "object", "required": ["k"], "additionalProperties": False}),
     p({"type": "object", "properties": {"k": True}, "required": ["k"], "additionalProperties": False}),
     {"p": {"k": 1}}),
    # keywords without `type` of two types constrain both
    ("keywords-without-type-of-two-types", p({"minLength": 1, "minimum": 3}), p({"minLength": 1}), {"p": 2}),
]


def _entry(pairs, old, new) -> dict:
    return pairs.classify(old, new)[f"{SOURCE}:Doc"]


@pytest.mark.parametrize("old, new", [pytest.param(old, new, id=name) for name, old, new in EQUIVALENT])
def test_equivalent_schemas_are_unchanged(pair_classifier, old, new):
    entry = _entry(pair_classifier, old, new)
    assert (entry["decision"], entry["changes"]) == ("unchanged", []), entry
    assert entry["before"] == entry["after"]


@pytest.mark.parametrize("old, new", [pytest.param(old, new, id=name) for name, old, new in EQUIVALENT])
@settings(PROFILE, max_examples=3)
@given(data=st.data())
def test_sampled_instances_agree_on_equivalent_schemas(old, new, data):
    assert counterexamples(data, old, new) == set()


@pytest.mark.parametrize("old, new, instance", [pytest.param(old, new, instance, id=name)
                                                for name, old, new, instance in DISTINCT])
def test_schemas_that_only_look_equivalent_stay_apart(pair_classifier, old, new, instance):
    entry = _entry(pair_classifier, old, new)
    assert entry["decision"] == "version-bump" and entry["before"] != entry["after"], entry
    if instance is not None:  # the validator tells them apart (a format is an annotation to it)
        assert is_valid(old, instance) != is_valid(new, instance)


def test_a_change_inside_a_oneof_read_as_anyof_is_located_where_the_source_wrote_it(pair_classifier):
    widened = {**NAMED, "properties": {"a": STRING, "c": INTEGER}}
    entry = _entry(pair_classifier, p({"oneOf": [NULL, NAMED]}), p({"oneOf": [NULL, widened]}))
    assert [(change["path"], change["kind"]) for change in entry["changes"]] == [
        ("/properties/p/oneOf/1/properties/c", "optional-property-added")], entry
