"""Normalization may drop a keyword only when it is provably implied: two schemas with equal digests must
accept exactly the same instances (read as declared types: an unmarked optional never property is omitted)."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from govern.model.inventory import build_inventory
from govern.sources.load import load_spec

# Values on which JSON and Python disagree about equality (1 == True == 1.0 in Python) or that sit on edges.
POOL = [0, 1, 1.0, 2, -1, 0.5, True, False, None, "", "a", "1", "true", [], [1], [True], ["a", "a"], {}, {"a": 1},
        {"a": True}, {"b": None}]


def digest_of(schema) -> str:
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "doc.json"
        path.write_text(json.dumps({"$schema": "https://json-schema.org/draft/2020-12/schema", **schema}
                                   if isinstance(schema, dict) else schema), encoding="utf-8")
        graph = load_spec(str(path), Path(directory), document_root="doc")
        inventory = build_inventory([graph])
        return inventory.roots["doc:doc"].digest


def accepted(schema, instances) -> tuple[bool, ...]:
    validator = Draft202012Validator(schema)
    return tuple(validator.is_valid(instance) for instance in instances)


def declared(schema, instances):
    """The schema as a declared persistence type: an unmarked optional property that admits none of the
    instances is left out, as if undeclared (the omission an optional `name?: never` keeps), everywhere
    in the schema. Where nothing is left out, this is the schema itself."""
    if isinstance(schema, list):
        return [declared(item, instances) for item in schema]
    if not isinstance(schema, dict):
        return schema
    result = {key: declared(value, instances) for key, value in schema.items()}
    properties = result.get("properties")
    if isinstance(properties, dict):
        required = set(result.get("required", [])) if isinstance(result.get("required"), list) else set()
        result["properties"] = {name: sub for name, sub in properties.items()
                                if name in required or any(accepted(sub, instances))}
    return result


values = st.sampled_from(POOL)
# const and enum draw from values Python confuses (1 == 1.0 == True), so near-collisions are frequent.
confusable = st.sampled_from([0, 1, 1.0, True, False, None, "1", [1], [True], 0.5])
leaf_keywords = {
    "type": st.sampled_from(["integer", "number", "boolean", "string", "null", "array", "object"])
    | st.lists(st.sampled_from(["integer", "boolean", "string", "null"]), min_size=1, max_size=3, unique=True),
    "const": confusable,
    "enum": st.lists(confusable, min_size=1, max_size=3),
    "minimum": st.sampled_from([0, 1, 1.0]),
    "maximum": st.sampled_from([0, 1]),
    "multipleOf": st.sampled_from([1, 2, 0.5]),
    "minLength": st.sampled_from([0, 1]),
    "minItems": st.sampled_from([0, 1]),
    "uniqueItems": st.booleans(),
    "required": st.just(["a"]),
}


def schemas(depth: int = 2):
    keywords = dict(leaf_keywords)
    if depth > 0:
        child = schemas(depth - 1)
        keywords |= {"items": child, "properties": st.fixed_dictionaries({"a": child}),
                     "additionalProperties": child, "not": child,
                     "anyOf": st.lists(child, min_size=1, max_size=2), "allOf": st.lists(child, min_size=1, max_size=2)}
    chosen = st.lists(st.sampled_from(sorted(keywords)), max_size=3, unique=True)
    return st.booleans() | chosen.flatmap(lambda names: st.fixed_dictionaries({name: keywords[name] for name in names}))


@pytest.mark.parametrize("one, other", [
    ({"const": 1, "enum": [True]}, {"const": 1}),
    ({"const": True, "enum": [1]}, {"const": True}),
    ({"const": 0, "enum": [False]}, {"const": 0}),
    ({"enum": [1, True]}, {"enum": [1]}),
    ({"const": [1], "enum": [[True]]}, {"const": [1]}),
])
def test_json_equality_not_python_equality_decides_what_is_implied(one, other):
    assert accepted(one, POOL) != accepted(other, POOL)
    assert digest_of(one) != digest_of(other)


def test_a_const_inside_its_enum_is_still_the_const_alone():
    assert digest_of({"const": 1, "enum": [1.0, "x"]}) == digest_of({"const": 1})


def _without_one_keyword(schema) -> list:
    """A schema and each variant of it with one keyword dropped: where normalization could drop it too."""
    if not isinstance(schema, dict):
        return [schema]
    return [schema] + [{key: value for key, value in schema.items() if key != dropped} for dropped in schema]


@settings(settings.get_profile("hostile"), max_examples=40)
@given(st.lists(schemas(), min_size=1, max_size=4), st.lists(values, max_size=3))
@example([{"properties": {"a": False}}, True], [])
@example([{"properties": {"a": {"not": {}}}, "required": ["a"]}, {"properties": {}, "required": ["a"]}], [])
def test_schemas_with_equal_digests_accept_the_same_instances(drawn, extra):
    instances = POOL + [[value] for value in extra] + [{"a": value} for value in extra]
    by_digest: dict[str, tuple] = {}
    for schema in [variant for schema in drawn for variant in _without_one_keyword(schema)]:
        behaviour = accepted(declared(schema, instances), instances)
        digest = digest_of(schema)
        if digest in by_digest:
            first_schema, first_behaviour = by_digest[digest]
            assert behaviour == first_behaviour, (first_schema, schema)
        else:
            by_digest[digest] = (schema, behaviour)


value_schemas = st.fixed_dictionaries({}, optional={"const": confusable, "enum": st.lists(confusable, max_size=3),
                                                    "type": leaf_keywords["type"]})


@settings(settings.get_profile("hostile"), max_examples=40)
@given(value_schemas)
def test_value_keywords_are_dropped_only_when_implied(schema):
    variants = _without_one_keyword(schema)
    if any(not variant.get("enum", [None]) for variant in variants):
        return  # an empty enum is not a valid schema
    digest = digest_of(schema)
    for variant in variants[1:]:
        if digest_of(variant) == digest:
            assert accepted(variant, POOL) == accepted(schema, POOL), (schema, variant)
