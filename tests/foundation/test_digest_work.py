"""Digests do each piece of work once: a node object shared by many places is written and hashed once,
equal small structures are hashed once, and the references and policy of a graph's types come from one
walk. Sharing never changes a digest: shared nodes hash exactly as copies would (checked against the first
build's fingerprint, which shares nothing)."""

from __future__ import annotations

import gc
import hashlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import govern.model.fingerprint as fingerprint
from govern.model.fingerprint import DOMAINS, type_digests
from govern.model.graph import TypeGraph
from govern.model.nodes import (
    NEVER, OPEN, Alternative, Array, Map, NamedType, Object, Primitive, Property, Ref, Root, Union,
)
from reference_fingerprint import strongly_connected_components as reference_strongly_connected_components
from reference_fingerprint import settled_type_digests
from reference_fingerprint import type_digests as reference_type_digests
from test_fingerprint_reference import type_graphs

PROFILE = settings.get_profile("foundation")


class _CountingHashlib:
    """Stands in for the hashlib module inside the fingerprint module, counting SHA-256 objects made."""

    def __init__(self):
        self.calls = 0

    def sha256(self, *args):
        self.calls += 1
        return hashlib.sha256(*args)


@pytest.fixture
def counting(monkeypatch) -> _CountingHashlib:
    """The SHA-256 objects the fingerprint module makes while the test runs, counted."""
    counter = _CountingHashlib()
    monkeypatch.setattr(fingerprint, "hashlib", counter)
    return counter


def _wide_graph(count: int) -> dict[str, NamedType]:
    """`count` types, each with its own (equal) list and map of one shared string node, referring to the
    previous type."""
    shared = Primitive("string", (("maxLength", "64"),))
    types = {}
    for index in range(count):
        properties = [Property("id", shared, True), Property("labels", Array(shared), False),
                      Property("attributes", Map(shared), False)]
        if index:
            properties.append(Property("previous", Ref(f"T{index - 1}"), False))
        types[f"T{index}"] = NamedType(f"T{index}", f"T{index}", Object(tuple(properties), OPEN))
    return types


def test_a_shared_node_and_equal_small_structures_are_hashed_once(counting):
    types = _wide_graph(200)
    digests = type_digests(types, DOMAINS[1])
    # One hash per type (each object is different: it refers to another type), plus the shared string,
    # the list of it, the map of it and the open content model, once each.
    assert counting.calls == 200 + 4
    assert digests == reference_type_digests(types, DOMAINS[1])


def test_references_and_policy_come_from_one_walk_over_the_types(monkeypatch):
    walked: list[int] = []
    original = fingerprint._scan

    def counted(node):
        walked.append(id(node))
        return original(node)

    monkeypatch.setattr(fingerprint, "_scan", counted)
    types = _wide_graph(50)
    types["U"] = NamedType("U", "U", Union((Alternative(Ref("T3"), qualified=True), Alternative(Ref("T4")))))
    graph = TypeGraph("s", types, {"s:U": Root("s:U", "U")})
    assert graph.inventory_format == 2  # a qualified alternative
    assert graph.digests["U"] == reference_type_digests(types, DOMAINS[2])["U"]
    assert graph.root_digests["U"] == graph.digests["U"]
    assert sorted(walked) == sorted(id(named.node) for named in types.values())


@st.composite
def graphs_sharing_nodes(draw) -> dict[str, NamedType]:
    """Random graphs (recursive components included) plus types made of node objects taken from the others,
    so one object, possibly reaching members of a cycle, stands in several types and places; and objects made
    of property objects taken from the others (readers share a property wherever it recurs)."""
    types = dict(draw(type_graphs()))
    pool = [named.node for named in types.values() if not isinstance(named.node, Ref)]
    if not pool:
        return types
    picks = st.sampled_from(pool)
    shared = [prop for node in pool if isinstance(node, Object) for prop in node.properties]
    for index in range(draw(st.integers(1, 4))):
        first, second = draw(picks), draw(picks)
        taken = draw(st.lists(st.sampled_from(shared), max_size=3, unique_by=lambda prop: prop.name)) if shared else []
        node = draw(st.sampled_from([
            Object((Property("a", first, True), Property("b", second, False)), OPEN),
            Object(tuple(sorted(taken, key=lambda prop: prop.name)), NEVER if index % 2 else OPEN),
            Array(first),
            Union((Alternative(first), Alternative(second))),
            first,
        ]))
        types[f"S{index}"] = NamedType(f"S{index}", f"S{index}", node)
    # A type of the original graph may now refer to a sharing one, joining it to its component.
    if draw(st.booleans()):
        key = draw(st.sampled_from(sorted(types)))
        types[key] = NamedType(key, key, Map(Ref(draw(st.sampled_from(sorted(types))))))
    return types


@settings(PROFILE)
@given(types=graphs_sharing_nodes(), domain=st.sampled_from(sorted(DOMAINS.values())))
def test_shared_node_objects_hash_exactly_as_copies_would(types, domain):
    assert type_digests(types, domain) == settled_type_digests(types, domain)


def _ring_of_unions() -> dict[str, NamedType]:
    """A cycle whose members are unions mixing alternatives that reach the cycle with ones that do not,
    the same member twice (qualified and not), and one alternative with tags."""
    types = {}
    for index in range(4):
        following, after = f"R{(index + 1) % 4}", f"R{(index + 2) % 4}"
        alternatives = [Alternative(Ref(following), qualified=True), Alternative(Ref(following)),
                        Alternative(Primitive("string")), Alternative(Array(Ref(after)), qualified=index % 2 == 0),
                        Alternative(Primitive("null"), qualified=True)]
        if index == 3:
            alternatives.append(Alternative(Map(Ref(after)), tags=('"a"',)))
        types[f"R{index}"] = NamedType(f"R{index}", f"R{index}", Union(tuple(alternatives)))
    return types


def test_union_alternatives_inside_a_cycle_are_ordered_as_the_first_build_orders_them():
    # Refinement rounds write the entries of a union's alternatives as text and sort the texts; the first
    # build sorts (digest, qualified, tags) keys. Both orders must agree, also where a member's digest is
    # still the placeholder of the first round and where two alternatives have the same digest.
    types = _ring_of_unions()
    for domain in DOMAINS.values():
        assert type_digests(types, domain) == reference_type_digests(types, domain)


def test_property_objects_shared_by_the_members_of_a_cycle_hash_as_copies_would():
    # Readers share one property object wherever a property recurs: members of one cycle hold the same property
    # objects, some reaching the cycle (their entries differ in every round) and some not (written once).
    constant = Property("id", Primitive("string", (("maxLength", "64"),)), True)
    to_first = Property("first", Ref("R0"), False)
    to_array = Property("items", Array(Ref("R1")), False)
    types = {f"R{index}": NamedType(f"R{index}", f"R{index}", Object(tuple(sorted(
        [constant, to_first, to_array, Property("next", Ref(f"R{(index + 1) % 6}"), True),
         Property("n", Primitive("integer", (("maximum", str(index % 3)),)), True)], key=lambda prop: prop.name)),
        NEVER if index % 2 else OPEN)) for index in range(6)}
    types["Outside"] = NamedType("Outside", "Outside", Object((constant, to_first), OPEN))
    for domain in DOMAINS.values():
        assert type_digests(types, domain) == reference_type_digests(types, domain)


def _ring_of_distinct_objects(size: int) -> dict[str, NamedType]:
    """A cycle of objects told apart by a constant of their own: one round separates them all."""
    return {f"R{index}": NamedType(f"R{index}", f"R{index}", Object((
        Property("count", Primitive("integer", (("maximum", str(index)),)), True),
        Property("next", Ref(f"R{(index + 1) % size}"), True)), OPEN)) for index in range(size)}


def test_the_quotient_takes_the_members_forms_without_hashing_them_again(counting):
    types = _ring_of_distinct_objects(5)
    digests = type_digests(types, DOMAINS[1])
    # The five constants and the open content model once each; two rounds over the five members (the
    # second finds the partition stable); the quotient, whose shared part is hashed once and copied per
    # class. The pass that writes the members' forms in terms of the final digests hashes none of them.
    assert counting.calls == 6 + 2 * 5 + 1
    assert digests == reference_type_digests(types, DOMAINS[1])


def _ring_of_awkward_text(size: int) -> dict[str, NamedType]:
    """A cycle whose forms hold percent signs, quotes, backslashes, control characters and non-ASCII text
    (in property names, patterns, constraints, discriminators and tags), unions where one alternative or
    several reach the cycle, and an object with more children reaching it than markers are prepared for,
    written in another order than they are visited."""
    types = {}
    for index in range(size):
        following = Ref(f"A{(index + 1) % size}")
        odd = Primitive("string", (("pattern", '^%s\\d+"é\n$'), ("maxLength", str(index))))
        wide = tuple(Property(f"p%{position:03d}\"\\ü", following if position % 3 else Array(following),
                              position % 2 == 0) for position in range(70))
        choice = Union((Alternative(following), Alternative(Primitive("null")), Alternative(odd, qualified=True)),
                       discriminator="k%s\"ß")
        both = Union((Alternative(following), Alternative(Map(following))), exclusive=True, discriminator="%d")
        tagged = Union((Alternative(following, tags=('"%x"',)), Alternative(odd, tags=('"\\u00e9"',))))
        properties = (Property("choice", choice, True), Property("both", both, False),
                      Property("tagged", tagged, False)) + wide
        types[f"A{index}"] = NamedType(f"A{index}", f"A{index}", Object(
            tuple(sorted(properties, key=lambda entry: entry.name)), Map(following),
            pattern_properties=(("^%[a-z]\"ä$", following), ("^x$", odd))))
    return types


def test_awkward_text_inside_a_cycle_hashes_as_the_first_build_hashes_it():
    types = _ring_of_awkward_text(3)
    for domain in DOMAINS.values():
        assert type_digests(types, domain) == reference_type_digests(types, domain)


def test_digests_leave_no_reference_cycles_behind():
    # The tables of a computation (the digests of every node object, a recursive component's compiled
    # rounds: megabytes for large sources) are freed when it returns, not at the collector's next full run,
    # which a long command may never reach.
    for types in (_wide_graph(20), _ring_of_distinct_objects(5), _ring_of_unions(), _ring_of_awkward_text(3)):
        gc.collect()
        gc.disable()
        try:
            type_digests(types, DOMAINS[1])
            assert gc.collect() == 0
        finally:
            gc.enable()


@settings(PROFILE)
@given(st.dictionaries(st.sampled_from("abcdefgh"), st.lists(st.sampled_from("abcdefghij"), max_size=4), max_size=8),
       st.randoms(use_true_random=False))
def test_strongly_connected_components_come_out_as_the_first_build_finds_them(edges, random):
    # Successors outside the given nodes (and without edges of their own) included.
    nodes = sorted(edges)
    random.shuffle(nodes)
    assert fingerprint.strongly_connected_components(nodes, edges) == \
        reference_strongly_connected_components(nodes, edges)


def _ring_of_lists(size: int) -> dict[str, NamedType]:
    """A cycle of objects told apart by a constant of their own, each referring to the next one as a list and as a
    member or null."""
    types = {}
    for index in range(size):
        following = Ref(f"L{(index + 1) % size}")
        types[f"L{index}"] = NamedType(f"L{index}", f"L{index}", Object((
            Property("count", Primitive("integer", (("maximum", str(index)),)), True),
            Property("items", Array(following), False),
            Property("next", Union((Alternative(following), Alternative(Primitive("null")))), False)), OPEN))
    return types


def test_the_first_round_hashes_each_text_of_the_inline_nodes_once(counting):
    types = _ring_of_lists(20)
    digests = type_digests(types, DOMAINS[1])
    # The 20 constants, null and the open content model once each. Round 0: the 20 members, and the list of a
    # member and the member or null once each (every member is the placeholder). Round 1 finds the partition of
    # round 0 stable: 20 members, 20 lists, 20 unions. The pass writing the members' forms in terms of the final
    # digests hashes the 40 inline nodes, not the members; the quotient is hashed once.
    assert counting.calls == 22 + (20 + 2) + 3 * 20 + 2 * 20 + 1
    assert digests == reference_type_digests(types, DOMAINS[1])
