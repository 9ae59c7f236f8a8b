"""The optimized fingerprint reproduces the first build's digests exactly, on random recursive type graphs.

Graphs are built directly from model nodes (no adapter in between), so every node kind, aliases (also of
recursive types and chains of them), self references, large strongly connected components, members equal
to each other and rings that need deep unfolding are all reached often.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from govern.model.fingerprint import DOMAINS, type_digests
from govern.model.nodes import (
    NEVER, OPEN, Alternative, Applicator, Array, Enum, Intersection, Literal, Map, NamedType, Object, Primitive,
    Property, Ref, Tuple, Union,
)
from reference_fingerprint import settled_type_digests
from reference_fingerprint import type_digests as reference_type_digests

PROFILE = settings.get_profile("foundation")


def _nodes(keys: list[str]):
    refs = st.sampled_from(keys).map(Ref)
    leaves = st.one_of(
        refs, refs,
        st.sampled_from(["string", "integer", "number", "boolean", "null"]).map(Primitive),
        st.just(Primitive("integer", (("maximum", "3"),))),
        st.sampled_from(['"a"', '"b"', "1"]).map(Literal),
        st.just(Enum(('"x"', '"y"'))), st.just(OPEN), st.just(NEVER),
    )

    def extend(inner):
        properties = st.lists(st.tuples(st.sampled_from(["a", "b", "c", "d"]), inner, st.booleans()),
                              max_size=3, unique_by=lambda entry: entry[0])
        return st.one_of(
            st.builds(lambda props, closed: Object(tuple(Property(n, node, r) for n, node, r in sorted(props)),
                                                   NEVER if closed else OPEN), properties, st.booleans()),
            st.builds(Array, inner),
            st.builds(Map, inner),
            st.builds(lambda items: Tuple(tuple(items), NEVER), st.lists(inner, min_size=1, max_size=2)),
            st.builds(lambda alts, exclusive, policy: Union(tuple(Alternative(a, q, t) for a, q, t in alts), exclusive,
                                                            policy),
                      st.lists(st.tuples(inner, st.booleans(), st.sampled_from([(), (), ('"a"',), ('"a"', '"b"')])),
                               min_size=2, max_size=3), st.booleans(),
                      st.sampled_from([None, None, 1])),
            st.builds(lambda ops: Intersection(tuple(ops)), st.lists(inner, min_size=2, max_size=3)),
            st.builds(lambda op: Applicator("not", (op,)), inner),
        )

    return st.recursive(leaves, extend, max_leaves=6)


@st.composite
def type_graphs(draw) -> dict[str, NamedType]:
    count = draw(st.integers(1, 14))
    keys = [f"T{index}" for index in range(count)]
    nodes = _nodes(keys)
    types = {}
    for key in keys:
        node = draw(st.one_of(nodes, nodes, nodes, st.sampled_from(keys).map(Ref)))
        types[key] = NamedType(key, key, node)
    return types


def _ring(size: int, odd_one: int | None, closed: bool) -> dict[str, NamedType]:
    """A cycle of objects; the odd one has one more property, so telling members apart takes deep unfolding."""
    types = {}
    for index in range(size):
        properties = [Property("next", Ref(f"R{(index + 1) % size}"), True)]
        if index == odd_one:
            properties.append(Property("odd", Primitive("boolean"), False))
        types[f"R{index}"] = NamedType(f"R{index}", f"R{index}", Object(tuple(properties), NEVER if closed else OPEN))
    return types


@settings(PROFILE)
@given(types=type_graphs(), domain=st.sampled_from(sorted(DOMAINS.values())))
def test_digests_equal_the_first_builds_on_random_graphs(types, domain):
    assert type_digests(types, domain) == settled_type_digests(types, domain)


@settings(PROFILE)
@given(size=st.integers(1, 12), odd=st.integers(0, 12), closed=st.booleans())
def test_digests_equal_the_first_builds_on_rings_that_need_deep_unfolding(size, odd, closed):
    types = _ring(size, odd if odd < size else None, closed)
    assert type_digests(types, DOMAINS[1]) == reference_type_digests(types, DOMAINS[1])


@settings(PROFILE)
@given(types=type_graphs(), data=st.data())
def test_digests_of_what_some_types_reach_equal_those_of_the_whole_graph(types, data):
    starts = data.draw(st.lists(st.sampled_from(sorted(types)), max_size=3))
    restricted = type_digests(types, DOMAINS[1], reachable_from=starts)
    whole = type_digests(types, DOMAINS[1])
    assert set(starts) <= restricted.keys()
    assert restricted == {key: whole[key] for key in restricted}


@settings(PROFILE)
@given(types=type_graphs(), data=st.data())
def test_digests_equal_the_first_builds_whatever_order_the_types_are_listed_in(types, data):
    # The component search visits types and references in the order the mapping lists them (no sorting): the
    # components, and so every digest, must not depend on it (aliases, loops of them and self references included).
    shuffled = dict(data.draw(st.permutations(list(types.items()))))
    domain = data.draw(st.sampled_from(sorted(DOMAINS.values())))
    assert type_digests(shuffled, domain) == settled_type_digests(types, domain)
    starts = data.draw(st.lists(st.sampled_from(sorted(types)), max_size=3))
    reached = type_digests(shuffled, domain, reachable_from=starts)
    assert reached == {key: digest for key, digest in reference_type_digests(types, domain).items() if key in reached}


@settings(PROFILE)
@given(constants=st.integers(0, 40), seed=st.integers(0, 1000), members=st.integers(1, 4),
       places=st.sampled_from([0, 2, 16, 10_000]))
def test_a_member_among_many_constant_alternatives_has_the_first_builds_digest(constants, seed, members, places):
    """A union of one member of a recursive component and many constant alternatives: each round places the
    member among them as it writes it (the texts of every place, written at once, held the square of the
    union: 3,000 alternatives took 1.5 GB). Whichever way a union is planned, the digests are the first build's."""
    import random

    from govern.model import fingerprint

    rng = random.Random(seed)
    types = {}
    for index in range(members):
        alternatives = [Alternative(Ref(f"M{(index + 1) % members}"), False, ())]
        alternatives += [Alternative(Primitive("string", (("maxLength", str(rng.randrange(60))),)), rng.random() < .3,
                                     ()) for _ in range(constants)]
        rng.shuffle(alternatives)
        types[f"M{index}"] = NamedType(f"M{index}", f"M{index}",
                                       Object((Property("p", Union(tuple(alternatives)), False),), OPEN))
    saved = fingerprint._PLACES_WRITTEN
    fingerprint._PLACES_WRITTEN = places
    try:
        assert type_digests(types, DOMAINS[1]) == reference_type_digests(types, DOMAINS[1])
    finally:
        fingerprint._PLACES_WRITTEN = saved
