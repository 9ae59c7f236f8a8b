"""Fingerprint invariances on generated JSON Schema documents (hypothesis).

Every root of a generated document (the document and each `$defs` entry) must keep its digest under
renaming, reordering and inlining, and the root holding a structural change must get a new one.
"""

from __future__ import annotations

import copy
import json
import random

import pytest
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

from conftest import (
    containing_root, get_at, on_a_cycle, reference_graph, rename_definitions, reorder, root_digests,
    schema_documents, walk,
)

PROFILE = settings.get_profile("foundation")


@settings(PROFILE)
@given(document=schema_documents(), data=st.data())
def test_renaming_definitions_keeps_every_digest(document, data):
    names = list(document["$defs"])
    fresh = data.draw(st.permutations([f"Renamed{index}" for index in range(len(names))]))
    renames = dict(zip(names, fresh))
    before = root_digests(document)
    after = root_digests(rename_definitions(document, renames))
    assert after == {("doc:" + renames[root[4:]] if root[4:] in renames else root): digest
                     for root, digest in before.items()}


@settings(PROFILE)
@given(document=schema_documents(), seed=st.integers(0, 2**32 - 1))
# Alternatives that are equal only up to the order of a nested union: asserted once in either order.
@example(document={"$schema": "https://json-schema.org/draft/2020-12/schema", "anyOf": [
    {"type": "array", "prefixItems": [{"type": "string"}, {"anyOf": [{"type": "string"}, {"const": ""}]}]},
    {"type": "array", "prefixItems": [{"anyOf": [{"type": "string"}, {"type": "string"}]},
                                      {"anyOf": [{"type": "string"}, {"const": ""}]}]}]}, seed=0)
def test_reordering_keeps_every_digest(document, seed):
    assert root_digests(reorder(document, random.Random(seed))) == root_digests(document)


@settings(PROFILE)
@given(document=schema_documents(), data=st.data())
def test_inlining_a_non_recursive_ref_keeps_every_digest(document, data):
    edges = reference_graph(document)
    referenced = _refs_of(document)
    candidates = sorted(name for name in edges if name in referenced and not on_a_cycle(name, edges)
                        and _inline(document, f"#/$defs/{name}", {}) != document)
    assume(candidates)
    name = data.draw(st.sampled_from(candidates))
    body = document["$defs"][name]
    inlined = _inline(document, f"#/$defs/{name}", body)
    assert inlined != document
    assert root_digests(inlined) == root_digests(document)


def _refs_of(document: dict) -> set[str]:
    return {value[len("#/$defs/"):] for pointer, value in walk(document)
            if pointer.endswith("/$ref") and isinstance(value, str)}


# Alternatives and operands are normalized as they are written: a reference among them stands for its target
# without being looked into (a oneOf of a reference and `null` stays a oneOf, where an inline string and
# `null` make a type set), so only references standing elsewhere are inlined.
_COMPOSITIONS = frozenset({"allOf", "anyOf", "oneOf"})


def _inline(value, reference: str, body, composed: bool = False):
    if isinstance(value, dict):
        if value.get("$ref") == reference and len(value) == 1 and not composed:
            return copy.deepcopy(body)
        return {key: _inline(item, reference, body, key in _COMPOSITIONS) for key, item in value.items()}
    if isinstance(value, list):
        return [_inline(item, reference, body, composed) for item in value]
    return value


def test_recursive_and_mutually_recursive_digests_are_stable():
    linked = {"$defs": {
        "Tree": {"type": "object", "properties": {"kids": {"type": "array", "items": {"$ref": "#/$defs/Tree"}},
                                                  "leaf": {"$ref": "#/$defs/Leaf"}}},
        "Leaf": {"type": "object", "properties": {"parent": {"$ref": "#/$defs/Tree"}, "v": {"type": "integer"}},
                 "required": ["v"]},
        "Loop": {"type": "object", "properties": {"next": {"$ref": "#/$defs/Loop"}}}}}
    first = root_digests(linked)
    assert root_digests(linked) == first
    renamed = rename_definitions(linked, {"Tree": "Baum", "Leaf": "Blatt", "Loop": "Schleife"})
    second = root_digests(renamed)
    assert second == {"doc:Baum": first["doc:Tree"], "doc:Blatt": first["doc:Leaf"],
                      "doc:Schleife": first["doc:Loop"]}
    for seed in range(5):
        assert root_digests(reorder(linked, random.Random(seed))) == first


# --- changes that must change a digest ------------------------------------------------------------------

CONSTRAINTS = ("minLength", "maxLength", "minimum", "maximum", "multipleOf", "maxItems", "minProperties")


def _sites(document: dict, predicate) -> list[str]:
    return sorted(pointer for pointer, value in walk(document) if predicate(pointer, value))


def _changed(document: dict, pointer: str, mutate) -> dict:
    changed = copy.deepcopy(document)
    mutate(get_at(changed, pointer))
    return changed


def _assert_root_changes(document: dict, changed: dict, pointer: str):
    assert changed != document
    root = containing_root(pointer)
    assert root_digests(changed)[root] != root_digests(document)[root], pointer


def _is_schema_pointer(pointer: str) -> bool:
    """Not inside data (enum or const values)."""
    return "/enum" not in pointer and "/const" not in pointer


@settings(PROFILE)
@given(document=schema_documents(), data=st.data())
def test_changing_a_constraint_value_changes_the_digest(document, data):
    sites = _sites(document, lambda pointer, value: isinstance(value, dict) and _is_schema_pointer(pointer)
                   and not pointer.endswith("/properties") and any(key in value for key in CONSTRAINTS))
    assume(sites)
    pointer = data.draw(st.sampled_from(sites))
    key = data.draw(st.sampled_from(sorted(key for key in CONSTRAINTS if key in get_at(document, pointer))))

    def mutate(schema):
        schema[key] += 1

    changed = _changed(document, pointer, mutate)
    # anyOf and allOf are sets: a change that makes one member equal to another while the member it came
    # from equalled a third (anyOf [A, A, B] -> anyOf [A, B, B]) leaves the same set, rightly the same digest.
    assume(_members_distinct(document, pointer) and _members_distinct(changed, pointer))
    _assert_root_changes(document, changed, pointer)


def _members_distinct(document: dict, pointer: str) -> bool:
    """Whether every anyOf/allOf list on the way to `pointer` has pairwise different members."""
    tokens = pointer.split("/")[1:]
    for depth, token in enumerate(tokens[:-1]):
        if token in ("anyOf", "allOf"):
            members = get_at(document, "/" + "/".join(tokens[:depth + 1]))
            texts = [json.dumps(member, sort_keys=True) for member in members]
            if len(set(texts)) != len(texts):
                return False
    return True



@pytest.mark.parametrize("keyword, same", [("anyOf", True), ("allOf", True), ("oneOf", False)])
def test_a_member_changed_into_its_sibling_keeps_a_set_but_not_a_oneof(keyword, same):
    """anyOf [A, A, B] and anyOf [A, B, B] accept the same documents (so do the allOf forms); oneOf does not:
    a document matching only A is accepted by the second oneOf and rejected by the first."""
    a, b = {"type": "string", "minLength": 1}, {"type": "string", "minLength": 2}
    before = root_digests({"$defs": {"T": {keyword: [a, dict(a), b]}}})["doc:T"]
    after = root_digests({"$defs": {"T": {keyword: [a, dict(b), b]}}})["doc:T"]
    assert (before == after) is same


@settings(PROFILE)
@given(document=schema_documents(), data=st.data())
def test_flipping_required_ness_changes_the_digest(document, data):
    sites = _sites(document, lambda pointer, value: isinstance(value, dict) and _is_schema_pointer(pointer)
                   and value.get("type") == "object" and isinstance(value.get("properties"), dict))
    assume(sites)
    pointer = data.draw(st.sampled_from(sites))
    name = data.draw(st.sampled_from(sorted(get_at(document, pointer)["properties"])))

    def mutate(schema):
        required = schema.setdefault("required", [])
        if name in required:
            required.remove(name)
        else:
            required.append(name)

    _assert_root_changes(document, _changed(document, pointer, mutate), pointer)


@settings(PROFILE)
@given(document=schema_documents(), data=st.data(), add=st.booleans())
def test_changing_or_adding_an_enum_value_changes_the_digest(document, data, add):
    sites = _sites(document, lambda pointer, value: isinstance(value, dict) and _is_schema_pointer(pointer)
                   and (isinstance(value.get("enum"), list) or "const" in value))
    assume(sites)
    pointer = data.draw(st.sampled_from(sites))

    def mutate(schema):
        if "const" in schema:  # a one-value enum
            value = schema.pop("const")
            schema["enum"] = [value, "fresh-value"] if add else ["fresh-value"]
        elif add:
            schema["enum"].append("fresh-value")
        else:
            schema["enum"][0] = "fresh-value"

    _assert_root_changes(document, _changed(document, pointer, mutate), pointer)


@settings(PROFILE)
@given(document=schema_documents(), data=st.data())
def test_swapping_tuple_positions_of_different_types_changes_the_digest(document, data):
    def differing_pairs(items):
        return [(i, j) for i in range(len(items)) for j in range(i + 1, len(items))
                if isinstance(items[i].get("type"), str) and isinstance(items[j].get("type"), str)
                and items[i]["type"] != items[j]["type"]
                and not {items[i]["type"], items[j]["type"]} <= {"integer", "number"}]

    sites = _sites(document, lambda pointer, value: isinstance(value, dict) and _is_schema_pointer(pointer)
                   and isinstance(value.get("prefixItems"), list) and differing_pairs(value["prefixItems"]))
    assume(sites)
    pointer = data.draw(st.sampled_from(sites))
    i, j = data.draw(st.sampled_from(differing_pairs(get_at(document, pointer)["prefixItems"])))

    def mutate(schema):
        items = schema["prefixItems"]
        items[i], items[j] = items[j], items[i]

    _assert_root_changes(document, _changed(document, pointer, mutate), pointer)


@settings(PROFILE)
@given(document=schema_documents(), data=st.data())
def test_closing_an_open_object_changes_the_digest(document, data):
    sites = _sites(document, lambda pointer, value: isinstance(value, dict) and _is_schema_pointer(pointer)
                   and value.get("type") == "object" and "additionalProperties" not in value)
    assume(sites)
    pointer = data.draw(st.sampled_from(sites))

    def mutate(schema):
        schema["additionalProperties"] = False

    _assert_root_changes(document, _changed(document, pointer, mutate), pointer)
