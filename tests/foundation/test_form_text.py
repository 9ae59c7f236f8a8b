"""The hash form is written as text directly; it must be byte for byte the canonical JSON of the first
build's dictionary form (reference_fingerprint.hash_form), for every node kind and any names, patterns,
constraint texts and discriminators, including characters JSON escapes and characters outside ASCII."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from govern.model.canonical import canonical_json, indented_json, simple_canonical_json
from govern.model.fingerprint import form_text
from govern.model.render import structure
from govern.model.nodes import (
    NEVER, OPEN, Alternative, Applicator, Array, Enum, Intersection, Literal, Map, Never, Object, Opaque, Primitive,
    Property, Ref, Tuple, Union,
)
from reference_fingerprint import hash_form

PROFILE = settings.get_profile("foundation")

texts = st.text(st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=6) | st.sampled_from(
    ["", "a", '"', "\\", "\n", "\u2028", "é", "名前", "\x7f", "\x00", "a/b~c"])
# Constraint and literal values are canonical JSON texts in the model; the hash form takes any text.
json_texts = st.one_of(st.integers(), st.booleans(), st.none(), texts).map(canonical_json)
# Discriminator values bound to an alternative (canonical JSON texts, sorted).
tags = st.lists(json_texts, max_size=2, unique=True).map(lambda values: tuple(sorted(values)))


def _leaves(values):
    constraints = st.lists(st.tuples(texts, values), max_size=3, unique_by=lambda entry: entry[0]).map(
        lambda entries: tuple(sorted(entries)))
    return st.one_of(
        st.builds(Primitive, st.sampled_from(["string", "integer", "number", "boolean", "null"]), constraints),
        st.builds(Literal, values),
        st.builds(lambda items: Enum(tuple(sorted(set(items)))), st.lists(values, max_size=4)),
        st.builds(Opaque, constraints), st.just(OPEN), st.just(NEVER),
    )


def _extend(inner, constraints=st.lists(st.tuples(texts, texts), max_size=3, unique_by=lambda entry: entry[0]).map(
        lambda entries: tuple(sorted(entries)))):
    properties = st.lists(st.tuples(texts, inner, st.booleans(), st.booleans()), max_size=3,
                          unique_by=lambda entry: entry[0])
    return st.one_of(
        st.builds(lambda props, additional, patterns, c: Object(
            tuple(Property(n, node, r, reserved) for n, node, r, reserved in sorted(props, key=lambda e: e[0])),
            additional, tuple(sorted(patterns, key=lambda e: e[0])), c),
            properties, inner, st.lists(st.tuples(texts, inner), max_size=2, unique_by=lambda e: e[0]), constraints),
        st.builds(Map, inner, constraints),
        st.builds(Array, inner, constraints),
        st.builds(lambda items, rest, c: Tuple(tuple(items), rest, c), st.lists(inner, max_size=3), inner, constraints),
        st.builds(lambda alts, exclusive, policy, disc: Union(tuple(Alternative(a, q, t) for a, q, t in alts),
                                                              exclusive, policy, disc),
                  st.lists(st.tuples(inner, st.booleans(), tags), min_size=1, max_size=3), st.booleans(),
                  st.none() | st.integers(1, 10**6), st.none() | json_texts),
        st.builds(lambda ops: Intersection(tuple(ops)), st.lists(inner, min_size=1, max_size=3)),
        st.builds(lambda keyword, ops, names: Applicator(keyword, tuple(ops), tuple(names)),
                  texts, st.lists(inner, min_size=1, max_size=3), st.lists(texts, max_size=2)),
    )


nodes = st.recursive(_leaves(texts), _extend, max_leaves=8)
json_constraints = st.lists(st.tuples(texts, json_texts), max_size=3, unique_by=lambda entry: entry[0]).map(
    lambda entries: tuple(sorted(entries)))
nodes_of_json = st.recursive(_leaves(json_texts), lambda inner: _extend(inner, json_constraints), max_leaves=8)


def _digest_of(child) -> str:
    """Stands for a child's digest: distinct per child, with an order that differs from the children's."""
    return "sha256:" + format(hash(repr(child)) & 0xFFFFFFFF, "08x") * 8


@settings(PROFILE)
@given(node=nodes)
def test_the_written_form_is_the_canonical_json_of_the_first_builds_form(node):
    assert form_text(node, _digest_of) == simple_canonical_json(hash_form(node, _digest_of))


def test_every_node_kind_is_written():
    for node in (Primitive("string"), Literal('"a"'), Enum(('"a"', '"b"')), Object((), OPEN), Map(OPEN), Array(OPEN),
                 Tuple((), NEVER), Union((Alternative(OPEN),)), Intersection((OPEN,)), Applicator("not", (OPEN,)),
                 Opaque(), Never()):
        assert form_text(node, _digest_of) == simple_canonical_json(hash_form(node, _digest_of))


@settings(PROFILE)
@given(node=st.recursive(_leaves(json_texts) | st.builds(Ref, texts), lambda inner: _extend(inner, json_constraints),
                         max_leaves=8))
def test_the_inventory_writes_a_structure_alike_with_its_leaves_written_once(node):
    written: dict = {}
    twice = Object((Property("a", node, True), Property("b", node, False)), node)
    assert indented_json(structure(twice, written)) == indented_json(structure(twice))


@settings(PROFILE)
@given(node=nodes, other=nodes)
def test_a_table_of_property_entries_writes_every_object_as_without_it(node, other):
    # One table serves every object written with the same digests: a property shared by several objects (as
    # readers share them) has its entry written once and read back from the table at each later object.
    shared = Property("shared", other, True)
    objects = [Object((shared,), node), Object((Property("a", node, False), shared), OPEN), node]
    entries: dict = {}
    for _ in range(2):
        for written in objects:
            assert form_text(written, _digest_of, entries) == form_text(written, _digest_of)
    assert id(shared) in entries
