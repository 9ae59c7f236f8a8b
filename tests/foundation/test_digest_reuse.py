"""Two versions of one graph compared with each other: the second version's recursive components reuse what
the first one's refinement found (Refinements), hashing again only as far as a change reaches. The digests
are exactly those each version gives alone, whatever the versions share; and the work saved is real."""

from __future__ import annotations

import gc

import pytest

from hypothesis import given, settings
from hypothesis import strategies as st

import govern.model.fingerprint as fingerprint
from govern.model.fingerprint import DOMAINS, Refinements, type_digests
from govern.model.graph import TypeGraph, digest_for_comparison
from govern.model.nodes import (
    OPEN, Alternative, Array, Intersection, Map, NamedType, Object, Primitive, Property, Ref, Root, Union,
)
from test_digest_work import _CountingHashlib, _ring_of_awkward_text, _ring_of_unions, graphs_sharing_nodes
from test_fingerprint_reference import _nodes, _ring, type_graphs

PROFILE = settings.get_profile("foundation")


def _pair(old: dict[str, NamedType], new: dict[str, NamedType], old_domain: str, new_domain: str,
          starts: list[str] | None = None) -> tuple[dict[str, str], dict[str, str]]:
    """Both versions' digests, the second computed from what the first recorded."""
    refinements = Refinements()
    before = type_digests(old, old_domain, reachable_from=starts, record=refinements)
    after = type_digests(new, new_domain, reachable_from=starts, earlier=refinements)
    return before, after


@st.composite
def versions(draw) -> tuple[dict[str, NamedType], dict[str, NamedType]]:
    """A random graph and a next version of it: some types get another node (new references included), some
    are added or removed, the others stay as they are (the same objects, or equal copies read anew)."""
    old = dict(draw(st.one_of(type_graphs(), graphs_sharing_nodes())))
    keys = sorted(old)
    new = {}
    for key in keys:
        action = draw(st.sampled_from(["same", "same", "same", "copy", "change", "drop"]))
        if action == "same":
            new[key] = old[key]
        elif action == "copy":
            new[key] = NamedType(key, key, _copied(old[key].node))
        elif action == "change":
            new[key] = NamedType(key, key, draw(_nodes(keys + ["N0"])))
    for index in range(draw(st.integers(0, 2))):
        new[f"N{index}"] = NamedType(f"N{index}", f"N{index}", draw(_nodes(keys + ["N0"])))
    if not new:
        new = dict(old)
    # A reference to a type the version dropped is an outside type's: give it one.
    for named in list(new.values()):
        for target in fingerprint._scan(named.node)[0]:
            if target not in new:
                new[target] = NamedType(target, target, Primitive("string"))
    return old, new


def _copied(node):
    """An equal node made of new objects (what reading the other side's file gives)."""
    if isinstance(node, Ref):
        return Ref(node.target)
    if isinstance(node, Object):
        return Object(tuple(Property(p.name, _copied(p.node), p.required, p.reserved) for p in node.properties),
                      _copied(node.additional), tuple((pattern, _copied(child)) for pattern, child in
                                                      node.pattern_properties), node.constraints)
    if isinstance(node, Array):
        return Array(_copied(node.items), node.constraints)
    if isinstance(node, Map):
        return Map(_copied(node.values), node.constraints)
    if isinstance(node, Union):
        return Union(tuple(Alternative(_copied(a.node), a.qualified, a.tags) for a in node.alternatives),
                     node.exclusive, node.policy, node.discriminator)
    if isinstance(node, Intersection):
        return Intersection(tuple(_copied(op) for op in node.operands))
    return node


@settings(PROFILE)
@given(pair=versions(), domains=st.sampled_from([(DOMAINS[1], DOMAINS[1]), (DOMAINS[2], DOMAINS[2]),
                                                 (DOMAINS[1], DOMAINS[2])]))
def test_a_version_computed_from_the_other_has_the_digests_it_has_alone(pair, domains):
    old, new = pair
    before, after = _pair(old, new, *domains)
    assert before == type_digests(old, domains[0])
    assert after == type_digests(new, domains[1])


@settings(PROFILE)
@given(pair=versions(), data=st.data())
def test_the_types_some_roots_reach_reuse_the_other_version_exactly(pair, data):
    old, new = pair
    starts = data.draw(st.lists(st.sampled_from(sorted(old.keys() & new.keys() or new.keys())), max_size=3))
    before, after = _pair(old, new, DOMAINS[1], DOMAINS[1], starts)
    assert before == type_digests(old, DOMAINS[1], reachable_from=starts)
    assert after == type_digests(new, DOMAINS[1], reachable_from=starts)


def _web(size: int, changed: tuple[int, ...] = (), extra: int | None = None,
         retargeted: tuple[int, ...] = ()) -> dict[str, NamedType]:
    """A ring of objects told apart by a constant of their own, each also referring to a member further on
    (directly, as a list, as a member or null, or beside the next one and null), and some as the intersection
    of two members; the members in `changed` have another constant, with `extra`, one more property reaches
    member `extra`, and the members in `retargeted` refer to another member further on (their text is the same
    with the members' places open)."""
    types = {}
    for index in range(size):
        following = Ref(f"W{(index + 1) % size}")
        moved = index in retargeted  # (an intersection's other operand, or else the member further on)
        further = Ref(f"W{(index * 7 + 3 + (moved and index % 5 != 4)) % size}")
        shape = [further, Array(further), Union((Alternative(further), Alternative(Primitive("null"))))][index % 3]
        if index % 7 == 6:  # two alternatives reaching members, and one that does not
            shape = Union((Alternative(further), Alternative(following, qualified=True), Alternative(Primitive("null"))))
        properties = [Property("count", Primitive("integer", (("maximum", str(index + 1000 * (index in changed))),)),
                               True),
                      Property("next", following, True), Property("other", shape, False)]
        if extra is not None and index == 0:
            properties.append(Property("plus", Ref(f"W{extra}"), False))
        node = Object(tuple(properties), OPEN)
        if index % 5 == 4:
            node = Intersection((node, Ref(f"W{(index + 2 + moved) % size}")))
        types[f"W{index}"] = NamedType(f"W{index}", f"W{index}", node)
    return types


def test_a_change_in_a_large_component_is_hashed_again_only_as_far_as_it_reaches(monkeypatch):
    old, new = _web(60), _web(60, changed=(17,))
    alone = type_digests(new, DOMAINS[1])
    counting = _CountingHashlib()
    monkeypatch.setattr(fingerprint, "hashlib", counting)
    type_digests(new, DOMAINS[1])
    hashed_alone, counting.calls = counting.calls, 0
    refinements = Refinements()
    type_digests(old, DOMAINS[1], record=refinements)
    counting.calls = 0
    assert type_digests(new, DOMAINS[1], earlier=refinements) == alone
    # Every digest of the component differs from the old version's (each covers the whole quotient), yet the
    # rounds hash only the changed member and what reaches it within a few references.
    assert counting.calls < hashed_alone * 0.6
    assert alone["W0"] != type_digests(old, DOMAINS[1])["W0"]


def test_a_component_that_changed_everywhere_or_in_its_domain_is_hashed_in_full():
    # Also where one version's refinement stops rounds before the other's: a ring of equal members is one
    # class at once, and one odd member takes a round per member to tell the others apart.
    for old, new, domains in ((_ring(12, None, False), _ring(12, 5, False), (DOMAINS[1], DOMAINS[1])),
                              (_ring(12, 5, False), _ring(12, None, False), (DOMAINS[1], DOMAINS[1])),
                              (_ring(12, 5, False), _ring(12, 6, False), (DOMAINS[1], DOMAINS[1])),
                              (_web(30), _web(30, changed=tuple(range(30))), (DOMAINS[1], DOMAINS[1])),
                              (_web(30), _web(30), (DOMAINS[1], DOMAINS[2])),
                              (_web(30), _web(30, extra=5), (DOMAINS[1], DOMAINS[1])),
                              (_web(30), _web(30, retargeted=(2,)), (DOMAINS[1], DOMAINS[1])),
                              (_web(30), _web(30, retargeted=(1,)), (DOMAINS[1], DOMAINS[1])),
                              (_web(30), _web(30, retargeted=(4,)), (DOMAINS[1], DOMAINS[1])),
                              (_web(30), _web(30, retargeted=(9,)), (DOMAINS[1], DOMAINS[1])),
                              (_web(30), _web(30, changed=(4,)), (DOMAINS[1], DOMAINS[1])),
                              (_web(30), _web(30, retargeted=(6,)), (DOMAINS[2], DOMAINS[2])),
                              (_ring_of_unions(), _ring_of_unions(), (DOMAINS[2], DOMAINS[2])),
                              (_ring_of_awkward_text(3), _ring_of_awkward_text(3), (DOMAINS[1], DOMAINS[1]))):
        before, after = _pair(old, new, *domains)
        assert before == type_digests(old, domains[0])
        assert after == type_digests(new, domains[1])


def test_a_component_no_earlier_version_knows_is_computed_as_alone_without_shapes(monkeypatch):
    # The earlier version has none of the members (another graph, or it was not recursive there), or has them in
    # another domain: nothing can be reused, so the shapes and links that choosing what to hash needs are not made.
    new = _web(30)
    alone = type_digests(new, DOMAINS[1])
    elsewhere, other_domain, partly = Refinements(), Refinements(), Refinements()
    type_digests(_ring(5, None, False), DOMAINS[1], record=elsewhere)
    type_digests(new, DOMAINS[2], record=other_domain)
    type_digests(_web(30, changed=(3,)), DOMAINS[1], record=partly)

    def refused(*args):
        raise AssertionError("shapes made for a component with nothing to reuse")

    monkeypatch.setattr(fingerprint, "_shape", refused)
    for earlier in (Refinements(), elsewhere, other_domain):
        assert type_digests(new, DOMAINS[1], earlier=earlier) == alone
    with pytest.raises(AssertionError, match="shapes made"):  # a version that has the members is still used
        type_digests(new, DOMAINS[1], earlier=partly)


def test_unchanged_versions_give_equal_digests_and_leave_no_reference_cycles():
    old, new = _web(40), _web(40)
    gc.collect()
    gc.disable()
    try:
        before, after = _pair(old, new, DOMAINS[1], DOMAINS[1])
        assert gc.collect() == 0
    finally:
        gc.enable()
    assert before == after == type_digests(new, DOMAINS[1])


def test_graphs_about_to_be_compared_get_the_root_digests_they_have_alone():
    def graph(types: dict[str, NamedType], source: str = "s") -> TypeGraph:
        return TypeGraph(source, types, {f"{source}:W0": Root(f"{source}:W0", "W0")})

    old, new, unrelated = graph(_web(30)), graph(_web(30, changed=(3,))), graph(_web(20), "t")
    digest_for_comparison([old, unrelated], [new])
    assert old.root_digests == graph(_web(30)).root_digests
    assert new.root_digests == graph(_web(30, changed=(3,))).root_digests
    assert "root_digests" not in unrelated.__dict__  # no counterpart: computed when asked, as before


def test_a_long_refinement_is_recorded_for_a_bounded_number_of_rounds():
    # A ring in which one member differs is told apart one reference per round: about as many rounds as members
    # (more than are recorded, fewer than are hashed before the split history takes over).
    old, new = _ring(24, odd_one=5, closed=True), _ring(24, odd_one=17, closed=True)
    refinements = Refinements()
    type_digests(old, DOMAINS[1], record=refinements)
    recorded = {id(refined): refined for refined, _ in refinements.members.values()}
    assert [len(refined.rounds) for refined in recorded.values()] == [fingerprint._RECORDED_ROUNDS]
    assert [refined.texts for refined in recorded.values()] == [{}]  # the last round is not among them
    assert type_digests(new, DOMAINS[1], earlier=refinements) == type_digests(new, DOMAINS[1])
    assert type_digests(old, DOMAINS[1], earlier=refinements) == type_digests(old, DOMAINS[1])


def test_a_refinement_past_the_hashed_rounds_is_not_recorded_and_gives_the_digests_computed_alone():
    # Refined by its split history, a component's other version is hashed anew: nothing of it is kept.
    length = fingerprint._HASHED_ROUNDS + 20
    old, new = _ring(length, odd_one=5, closed=True), _ring(length, odd_one=40, closed=True)
    refinements = Refinements()
    assert type_digests(old, DOMAINS[1], record=refinements) == type_digests(old, DOMAINS[1])
    assert refinements.members == {}
    assert type_digests(new, DOMAINS[1], earlier=refinements) == type_digests(new, DOMAINS[1])
    assert _pair(old, new, DOMAINS[1], DOMAINS[1]) == (type_digests(old, DOMAINS[1]), type_digests(new, DOMAINS[1]))


@settings(PROFILE)
@given(pair=versions(), recorded=st.integers(1, 3))
def test_a_refinement_recorded_in_part_gives_the_digests_computed_alone(pair, recorded):
    old, new = pair
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(fingerprint, "_RECORDED_ROUNDS", recorded)
        assert _pair(old, new, DOMAINS[1], DOMAINS[1]) == (type_digests(old, DOMAINS[1]),
                                                           type_digests(new, DOMAINS[1]))
        # Odd rings refine for many rounds: the other version reuses only what was recorded.
        rings = _ring(2 * recorded + 5, odd_one=0, closed=True), _ring(2 * recorded + 5, odd_one=recorded, closed=True)
        assert _pair(*rings, DOMAINS[1], DOMAINS[1]) == tuple(type_digests(ring, DOMAINS[1]) for ring in rings)
