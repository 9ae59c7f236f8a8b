"""What a schema evaluates counts wherever `unevaluatedProperties`/`unevaluatedItems` can see it, and nowhere
else: schemas with equal digests accept the same instances, and a snapshot reads back to the digest of its
source and validates as the source did. Keywords without `type` that constrain several JSON types, and
draft-07 `dependencies`, are held to the same round trip.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from jsonschema import Draft7Validator, Draft202012Validator

from govern.model.fingerprint import DOMAINS, type_digests
from govern.records.snapshot import load_snapshot, snapshot_document
from govern.sources.jsonschema import load_jsonschema
from govern.witness.confirm import root_schema
from test_hostile_normalization import declared  # noqa: E402 - the folder's helpers

D2020 = "https://json-schema.org/draft/2020-12/schema"
D07 = "http://json-schema.org/draft-07/schema#"

# Instances that tell evaluated from unevaluated names and positions apart.
POOL = [None, True, 0, 2, 5, 1.5, "", "ab", "abcd", {}, {"a": 1}, {"x": 1}, {"a": "s", "x": 1}, {"k": 1},
        {"k": 1, "x": "s"}, {"a": 1, "k": 1, "x": 1}, {"xa": [1]}, [], [1], ["a"], [1, "a"], ["a", 1, 2], [[1]],
        [{"a": 1}]]


def _load(tmp: Path, schema, dialect: str = D2020):
    path = tmp / "doc.json"
    document = {"$schema": dialect, "title": "Doc", **schema} if isinstance(schema, dict) else schema
    path.write_text(json.dumps(document), encoding="utf-8")
    return load_jsonschema("doc", path, {"Doc": ("#", "record")}, None)


def _digest(graph) -> str:
    return type_digests(graph.types, DOMAINS[graph.inventory_format])[graph.roots["doc:Doc"].type_key]


def _round_trip(schema, dialect: str = D2020):
    """The source's digest, the digest its snapshot reads back to, and the snapshot's root schema."""
    with tempfile.TemporaryDirectory() as directory:
        graph = _load(Path(directory), schema, dialect)
    digest = _digest(graph)
    document = snapshot_document("2026-01-01-x", [graph], {"doc:Doc"}, {"doc:Doc": digest}, {"doc"})
    (back,) = load_snapshot(json.loads(json.dumps(document)), "snapshot")
    return digest, _digest(back), root_schema(graph, graph.roots["doc:Doc"].type_key)


def digest_of(schema) -> str:
    with tempfile.TemporaryDirectory() as directory:
        return _digest(_load(Path(directory), schema))


def _declared(schema):
    """The schema as a declared type (see test_hostile_normalization.declared); a property schema that refers
    elsewhere is kept, as the adapter keeps it."""
    if isinstance(schema, dict) and "$ref" in json.dumps(schema.get("properties", {})):
        return {key: value if key == "properties" else _declared(value) for key, value in schema.items()}
    if isinstance(schema, list) and "$ref" in json.dumps(schema):
        return [_declared(item) for item in schema]
    if isinstance(schema, dict) and "$ref" in json.dumps(schema):
        result = {key: _declared(value) for key, value in schema.items()}
        if isinstance(schema.get("properties"), dict):
            # A map of property names, not a schema: its optional never properties are left out as anywhere
            # else (it holds no reference, the branch above took those).
            result["properties"] = declared({key: schema[key] for key in ("properties", "required") if key in schema},
                                            POOL)["properties"]
        return result
    return declared(schema, POOL)


def accepted(schema, dialect: str = D2020) -> tuple[bool, ...]:
    validator = (Draft7Validator if dialect == D07 else Draft202012Validator)(_declared(schema))
    return tuple(validator.is_valid(instance) for instance in POOL)


LEAVES = [True, False, {}, {"type": "string"}, {"type": "integer"}, {"minLength": 3}, {"type": "object"},
          {"type": "array"}]
# The named type every drawn document defines: a reference to it may stand wherever a leaf may.
REFERENCE = {"$ref": "#/$defs/B"}


def _leaf(references: bool = False):
    return st.sampled_from(LEAVES + [REFERENCE] * references)


def schemas(depth: int = 2, references: bool = False):
    """Schemas built from the keywords that evaluate names and positions, and those that see it."""
    if depth == 0:
        return _leaf(references)
    child = schemas(depth - 1, references)
    # unevaluated* beside a composition is kept as written, so a reference in it does not resolve in a
    # snapshot: only what it sees is drawn with references.
    verbatim = schemas(depth - 1)
    keywords = {
        "type": st.sampled_from(["object", "array", "string", ["object", "array"]]),
        "properties": st.fixed_dictionaries({"a": child}),
        "patternProperties": st.fixed_dictionaries({"^x": child}),
        "additionalProperties": child,
        "unevaluatedProperties": verbatim,
        "required": st.just(["k"]),
        "items": child,
        "prefixItems": st.lists(child, min_size=1, max_size=2),
        "unevaluatedItems": verbatim,
        "contains": child,
        "allOf": st.lists(child, min_size=1, max_size=2),
        "anyOf": st.lists(child, min_size=1, max_size=2),
        "oneOf": st.lists(child, min_size=1, max_size=2),
        "if": child, "then": child, "else": child,
        "not": child,
        "dependentSchemas": st.fixed_dictionaries({"k": child}),
        "minLength": st.just(1),
        "minimum": st.just(3),
        "enum": st.sampled_from([[{"a": 1}, 3], [[1], "ab"], [{"a": 1, "k": 1}]]),
    }
    chosen = st.lists(st.sampled_from(sorted(keywords)), max_size=4, unique=True)
    return _leaf(references) | chosen.flatmap(
        lambda names: st.fixed_dictionaries({name: keywords[name] for name in names}))


def _defining(schema, named) -> dict:
    """The schema as a document that defines the named type B."""
    return {**(schema if isinstance(schema, dict) else {"allOf": [schema]}), "$defs": {"B": named}}


def _without_one_keyword(schema) -> list:
    if not isinstance(schema, dict):
        return [schema]
    return [schema] + [{key: value for key, value in schema.items() if key != dropped} for dropped in schema]


def _wrapped(schema) -> dict:
    """Beside an unevaluatedProperties/unevaluatedItems that sees what it evaluates."""
    return {"allOf": [schema], "unevaluatedProperties": False, "unevaluatedItems": False}


# (id, one, other): the pairs a validator tells apart, each by an instance of POOL.
DISTINCT = [
    ("additional-true-in-allof", {"allOf": [{"additionalProperties": True}], "unevaluatedProperties": False},
     {"unevaluatedProperties": False}),
    ("typed-additional-true-in-allof",
     {"allOf": [{"type": "object", "additionalProperties": True}], "unevaluatedProperties": False},
     {"allOf": [{"type": "object"}], "unevaluatedProperties": False}),
    ("items-true-in-allof", {"allOf": [{"items": True}], "unevaluatedItems": False}, {"unevaluatedItems": False}),
    ("prefix-items-with-open-tail-in-allof",
     {"allOf": [{"prefixItems": [True], "items": True}], "unevaluatedItems": False},
     {"allOf": [{"prefixItems": [True]}], "unevaluatedItems": False}),
    ("unevaluated-true-in-allof", {"allOf": [{"unevaluatedProperties": True}], "unevaluatedProperties": False},
     {"unevaluatedProperties": False}),
    ("unevaluated-items-true-in-allof", {"allOf": [{"unevaluatedItems": True}], "unevaluatedItems": False},
     {"unevaluatedItems": False}),
    ("own-additional-true-beside-unevaluated",
     {"type": "object", "additionalProperties": True, "unevaluatedProperties": False},
     {"type": "object", "unevaluatedProperties": False}),
    ("own-items-true-beside-unevaluated", {"type": "array", "items": True, "unevaluatedItems": False},
     {"type": "array", "unevaluatedItems": False}),
    ("own-additional-true-beside-composition",
     {"type": "object", "allOf": [{"properties": {"a": True}}], "additionalProperties": True,
      "unevaluatedProperties": False},
     {"type": "object", "allOf": [{"properties": {"a": True}}], "unevaluatedProperties": False}),
    ("alternative-evaluating-everything",
     {"anyOf": [{"required": ["k"], "additionalProperties": True}, {"properties": {"a": True}}],
      "unevaluatedProperties": False},
     {"anyOf": [{"required": ["k"]}, {"properties": {"a": True}}], "unevaluatedProperties": False}),
    ("if-evaluates-for-unevaluated", {"type": "object", "if": {"properties": {"a": True}},
                                      "unevaluatedProperties": False},
     {"type": "object", "if": {"properties": {"a": True}}, "additionalProperties": False}),
    ("dependent-schema-evaluates", {"type": "object", "dependentSchemas": {"k": {"additionalProperties": True}},
                                    "unevaluatedProperties": False},
     {"type": "object", "dependentSchemas": {"k": True}, "unevaluatedProperties": False}),
    ("contains-evaluates-items", {"type": "array", "contains": {"type": "string"}, "unevaluatedItems": False},
     {"type": "array", "contains": {"type": "string"}, "items": False}),
    ("values-beside-unevaluated-and-a-type",
     {"allOf": [{"properties": {"a": True}}], "const": {"a": 1}, "type": "object", "unevaluatedProperties": False},
     {"allOf": [{"properties": {"x": True}}], "const": {"a": 1}, "type": "object", "unevaluatedProperties": False}),
    ("values-beside-unevaluated-items", {"allOf": [{"prefixItems": [True]}], "enum": [[1], "ab"], "minItems": 1,
                                         "unevaluatedItems": False},
     {"allOf": [{"prefixItems": [False]}], "enum": [[1], "ab"], "minItems": 1, "unevaluatedItems": False}),
    ("required-undeclared-beside-unevaluated",
     {"anyOf": [{"required": ["k"]}, {"properties": {"a": True}}], "unevaluatedProperties": False},
     {"anyOf": [{"properties": {"k": True}, "required": ["k"]}, {"properties": {"a": True}}],
      "unevaluatedProperties": False}),
    ("required-undeclared-beside-closed-content", {"type": "object", "required": ["k"], "additionalProperties": False},
     {"type": "object", "properties": {"k": True}, "required": ["k"], "additionalProperties": False}),
    ("additional-true-behind-a-reference",
     {"$defs": {"B": {"additionalProperties": True}}, "$ref": "#/$defs/B", "unevaluatedProperties": False},
     {"$defs": {"B": {}}, "$ref": "#/$defs/B", "unevaluatedProperties": False}),
    ("required-behind-a-reference-in-allof",
     {"$defs": {"B": {"required": ["k"]}}, "allOf": [{"$ref": "#/$defs/B"}], "unevaluatedProperties": False},
     {"$defs": {"B": {"properties": {"k": True}, "required": ["k"]}}, "allOf": [{"$ref": "#/$defs/B"}],
      "unevaluatedProperties": False}),
]

# (id, one, other): equivalent spellings, so their digests stay equal.
EQUIVALENT = [
    # Without composition, a schema's own unevaluatedProperties is read as additionalProperties: `true` admits the
    # undeclared names as no keyword would, and a required name stays a property of any value.
    ("own-unevaluated-true-beside-required", {"unevaluatedProperties": True, "required": ["k"]}, {"required": ["k"]}),
    ("additional-true-seen-by-nothing", {"type": "object", "additionalProperties": True}, {"type": "object"}),
    ("additional-true-in-allof-seen-by-nothing", {"allOf": [{"additionalProperties": True}]}, {}),
    ("items-true-seen-by-nothing", {"type": "array", "items": True}, {"type": "array"}),
    ("additional-true-at-another-location",
     {"allOf": [{"properties": {"q": {"type": "object", "additionalProperties": True}}}],
      "unevaluatedProperties": False},
     {"allOf": [{"properties": {"q": {"type": "object"}}}], "unevaluatedProperties": False}),
    ("additional-true-under-not", {"not": {"not": {"additionalProperties": True}}, "unevaluatedProperties": False},
     {"not": {"not": {}}, "unevaluatedProperties": False}),
    ("unevaluated-beside-own-additional",
     {"type": "object", "additionalProperties": {"type": "string"}, "unevaluatedProperties": False},
     {"type": "object", "additionalProperties": {"type": "string"}}),
    ("unevaluated-items-beside-own-items", {"type": "array", "items": {"type": "string"}, "unevaluatedItems": False},
     {"type": "array", "items": {"type": "string"}}),
    ("required-undeclared-in-an-open-object", {"type": "object", "required": ["k"]},
     {"type": "object", "properties": {"k": True}, "required": ["k"]}),
    ("required-undeclared-matching-a-pattern",
     {"type": "object", "required": ["xa"], "patternProperties": {"^x": {"type": "string"}}},
     {"type": "object", "properties": {"xa": True}, "required": ["xa"], "patternProperties": {"^x": {"type": "string"}}}),
    ("additional-true-behind-a-reference-seen-by-nothing",
     {"$defs": {"B": {"type": "object", "additionalProperties": True}}, "allOf": [{"$ref": "#/$defs/B"}]},
     {"$defs": {"B": {"type": "object"}}, "allOf": [{"$ref": "#/$defs/B"}]}),
]


@pytest.mark.parametrize("one, other", [pytest.param(one, other, id=name) for name, one, other in DISTINCT])
def test_what_an_operand_evaluates_counts_where_unevaluated_sees_it(one, other):
    assert accepted(one) != accepted(other)
    assert digest_of(one) != digest_of(other)


@pytest.mark.parametrize("one, other", [pytest.param(one, other, id=name) for name, one, other in EQUIVALENT])
def test_what_nothing_sees_leaves_the_digest_alone(one, other):
    assert accepted(one) == accepted(other)
    assert digest_of(one) == digest_of(other)


@pytest.mark.parametrize("schema", [pytest.param(schema, id=f"{name}-{side}") for name, one, other in DISTINCT
                                    for side, schema in (("one", one), ("other", other))])
def test_an_evaluation_mark_survives_the_snapshot(schema):
    digest, reread, exported = _round_trip(schema)
    assert reread == digest
    assert accepted(exported) == accepted(schema)


@settings(settings.get_profile("hostile"), max_examples=60)
@given(st.lists(schemas(), min_size=1, max_size=3))
@example([{"allOf": [{"additionalProperties": True}], "unevaluatedProperties": False},
          {"unevaluatedProperties": False}])
def test_schemas_with_equal_digests_evaluate_alike(drawn):
    by_digest: dict[str, tuple] = {}
    for schema in [variant for schema in drawn for variant in _without_one_keyword(schema)]:
        for candidate in (schema, _wrapped(schema)):
            behaviour, digest = accepted(candidate), digest_of(candidate)
            if digest in by_digest:
                first, first_behaviour = by_digest[digest]
                assert behaviour == first_behaviour, (first, candidate)
            else:
                by_digest[digest] = (candidate, behaviour)


@settings(settings.get_profile("hostile"), max_examples=60)
@given(schemas())
@example({"allOf": [{"additionalProperties": True}], "unevaluatedProperties": False})
@example({"allOf": [{"allOf": [True], "unevaluatedProperties": True}], "unevaluatedProperties": False})
# A type list beside a composition: its own unevaluatedProperties sees that a required name is not evaluated.
@example({"type": ["object", "array"], "unevaluatedProperties": False, "required": ["k"], "then": True})
# Without composition, the schema's own unevaluatedProperties is its additionalProperties: a required name is
# declared, as it would be without the keyword.
@example({"unevaluatedProperties": True, "allOf": [True], "required": ["k"]})
def test_a_snapshot_reads_back_and_validates_as_its_source(schema):
    for candidate in (schema, _wrapped(schema)):
        digest, reread, exported = _round_trip(candidate)
        assert reread == digest, candidate
        assert accepted(exported) == accepted(candidate), (candidate, exported)


@settings(settings.get_profile("hostile"), max_examples=40)
@given(st.lists(schemas(references=True), min_size=1, max_size=2), schemas(1))
@example([{"$ref": "#/$defs/B", "unevaluatedProperties": False}, {"unevaluatedProperties": False}],
         {"additionalProperties": True})
@example([{"properties": {"a": False}, "additionalProperties": True, "contains": {"$ref": "#/$defs/B"}}], True)
def test_a_reference_evaluates_what_its_type_evaluates(drawn, named):
    by_digest: dict[str, tuple] = {}
    for schema in drawn:
        for candidate in (_defining(schema, named), _defining(_wrapped(schema), named)):
            digest, reread, exported = _round_trip(candidate)
            assert reread == digest, candidate
            behaviour = accepted(candidate)
            assert accepted(exported) == behaviour, (candidate, exported)
            first, first_behaviour = by_digest.setdefault(digest, (candidate, behaviour))
            assert behaviour == first_behaviour, (first, candidate)


# Keywords without `type`, several JSON types at once: each constrains values of its own type only.
TYPELESS_KEYWORDS = {
    "minLength": st.sampled_from([1, 3]), "maxLength": st.just(2), "pattern": st.just("^a"),
    "minimum": st.sampled_from([1, 3]), "maximum": st.just(4), "multipleOf": st.just(2),
    "minItems": st.just(1), "maxItems": st.just(1), "uniqueItems": st.just(True), "items": st.just({"type": "integer"}),
    "prefixItems": st.just([{"type": "string"}]),
    "required": st.just(["a"]), "maxProperties": st.just(1), "properties": st.just({"a": {"type": "integer"}}),
    "additionalProperties": st.just({"type": "string"}),
}
typeless = st.fixed_dictionaries({}, optional=TYPELESS_KEYWORDS)


@pytest.mark.parametrize("schema", [
    pytest.param({"minLength": 1, "minimum": 3}, id="string-and-number"),
    pytest.param({"maxItems": 1, "required": ["a"], "maxLength": 2}, id="array-object-and-string"),
    pytest.param({"allOf": [{"type": "object"}], "minLength": 1, "unevaluatedProperties": False},
                 id="beside-a-composition-that-unevaluated-sees"),
])
def test_keywords_without_type_of_several_types_survive_the_snapshot(schema):
    digest, reread, exported = _round_trip(schema)
    assert reread == digest
    assert accepted(exported) == accepted(schema)


def test_keywords_without_type_of_several_types_mean_what_allof_of_them_means():
    assert digest_of({"minLength": 1, "minimum": 3}) == digest_of({"allOf": [{"minLength": 1}, {"minimum": 3}]})
    assert digest_of({"minLength": 1, "minimum": 3}) != digest_of({"minLength": 1})


@settings(settings.get_profile("hostile"), max_examples=60)
@given(typeless, st.sampled_from([{}, {"allOf": [{"type": "object"}], "unevaluatedProperties": False},
                                  {"anyOf": [{"type": "array"}, True], "unevaluatedItems": False}]))
def test_keywords_without_type_read_back_from_a_snapshot(schema, beside):
    candidate = {**beside, **schema} if not ("additionalProperties" in schema and beside) else schema
    digest, reread, exported = _round_trip(candidate)
    assert reread == digest, candidate
    assert accepted(exported) == accepted(candidate), (candidate, exported)


# draft-07 `dependencies`: names and schemas, each with the draft-2020-12 spelling that means the same.
DEPENDENCIES = [
    ("names", {"type": "object", "dependencies": {"k": ["a"]}},
     {"type": "object", "dependentRequired": {"k": ["a"]}}),
    ("schema", {"type": "object", "dependencies": {"k": {"properties": {"x": {"type": "string"}}}}},
     {"type": "object", "dependentSchemas": {"k": {"properties": {"x": {"type": "string"}}}}}),
    ("both-without-type", {"dependencies": {"k": ["a"], "x": {"required": ["a"]}}},
     {"dependentRequired": {"k": ["a"]}, "dependentSchemas": {"x": {"required": ["a"]}}}),
    ("false-schema", {"dependencies": {"x": False}}, {"dependentSchemas": {"x": False}}),
    ("referenced-schema", {"definitions": {"D": {"required": ["a"]}}, "dependencies": {"k": {"$ref": "#/definitions/D"}}},
     {"$defs": {"D": {"required": ["a"]}}, "dependentSchemas": {"k": {"$ref": "#/$defs/D"}}}),
]


@pytest.mark.parametrize("draft_07, modern", [pytest.param(old, new, id=name) for name, old, new in DEPENDENCIES])
def test_draft_07_dependencies_survive_the_snapshot(draft_07, modern):
    digest, reread, exported = _round_trip(draft_07, D07)
    assert reread == digest
    assert "dependencies" not in json.dumps(exported)
    assert accepted(exported) == accepted(draft_07, D07)
    assert accepted(draft_07, D07) != accepted({**draft_07, "dependencies": {}}, D07)  # the keyword counts


@pytest.mark.parametrize("draft_07, modern", [pytest.param(old, new, id=name) for name, old, new in DEPENDENCIES])
def test_draft_07_dependencies_digest_as_their_modern_spelling(draft_07, modern):
    with tempfile.TemporaryDirectory() as directory:
        old = _digest(_load(Path(directory), draft_07, D07))
    assert old == digest_of(modern)


def test_dependencies_in_2020_12_are_no_keyword_and_stay_as_written():
    assert digest_of({"dependencies": {"k": ["a"]}}) != digest_of({"dependentRequired": {"k": ["a"]}})
    digest, reread, exported = _round_trip({"dependencies": {"k": ["a"]}})
    assert reread == digest and accepted(exported) == accepted({"dependencies": {"k": ["a"]}})


DRAFT_07_SCHEMAS = st.sampled_from([True, False, {}, {"required": ["a"]}, {"properties": {"x": {"type": "string"}}},
                                    {"type": "object", "maxProperties": 1}, {"not": {"required": ["x"]}}])


@settings(settings.get_profile("hostile"), max_examples=40)
@given(st.dictionaries(st.sampled_from(["a", "k", "x"]),
                       st.lists(st.sampled_from(["a", "k", "x"]), max_size=2) | DRAFT_07_SCHEMAS, max_size=3),
       st.sampled_from([{}, {"type": "object"}, {"properties": {"a": {"type": "integer"}}}]))
def test_draft_07_dependencies_validate_as_their_source(table, beside):
    schema = {**beside, "dependencies": table}
    digest, reread, exported = _round_trip(schema, D07)
    assert reread == digest, schema
    assert accepted(exported) == accepted(schema, D07), (schema, exported)
