"""Recursive components whose partition keeps growing past the hashed rounds: refined by their split history.

A ring of equal types with one of them changed is told apart one member per round: hashing every member in every
round would take the square of the ring. Past `_HASHED_ROUNDS` rounds the component is refined with class numbers,
and each class is named by its split history (see `govern.model.fingerprint._split_history`). These tests hold that
scheme to what digests promise: the partition in which equal types have equal structure (the rounds' own, or, where
a reference and an inline copy of what it names stand in one component, the coarser one that takes them as equal),
names and order playing no part, every change changing every member's digest; and that components the rounds
settle keep the digests of the rounds.
"""

from __future__ import annotations

import contextlib
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import govern.model.fingerprint as fingerprint
from conftest import rename_definitions, reorder, root_digests, schema_documents, type_digests_of

PROFILE = settings.get_profile("foundation")
D2020 = "https://json-schema.org/draft/2020-12/schema"


@contextlib.contextmanager
def split_from_the_start():
    """Every recursive component refined by its split history, whatever rounds it needs."""
    saved = fingerprint._HASHED_ROUNDS
    fingerprint._HASHED_ROUNDS = 0
    try:
        yield
    finally:
        fingerprint._HASHED_ROUNDS = saved


def _partition(digests: dict[str, str]) -> set[frozenset[str]]:
    """Which names share a digest."""
    groups: dict[str, set[str]] = {}
    for name, digest in digests.items():
        groups.setdefault(digest, set()).add(name)
    return {frozenset(group) for group in groups.values()}


def ring(length: int, changed: int | None = 0, extra: str = "x") -> dict:
    """A ring of `length` equal object types, each naming the next; the type at `changed` has one more property."""
    definitions = {f"T{index}": {"type": "object", "required": ["v"], "properties": {
        "v": {"type": "string"}, "next": {"$ref": f"#/$defs/T{(index + 1) % length}"}}} for index in range(length)}
    if changed is not None:
        definitions[f"T{changed}"]["properties"][extra] = {"type": "integer"}
    return {"$schema": D2020, "$ref": "#/$defs/T0", "$defs": definitions}


# --- the partition ---------------------------------------------------------------------------------------------

@settings(PROFILE)
@given(document=schema_documents(max_definitions=6))
def test_the_split_history_joins_only_what_the_rounds_cannot_tell_apart_by_structure(document):
    # The rounds reach each member one reference later than an inline copy of it, so where one stands beside a
    # reference to what it copies they may keep the two apart; otherwise the partitions are the same.
    by_rounds = type_digests_of(document)
    with split_from_the_start():
        by_history = type_digests_of(document)
    joined = _partition(by_history)
    assert all(any(group <= whole for whole in joined) for group in _partition(by_rounds))


def test_a_reference_and_an_inline_copy_are_one_class_and_names_play_no_part():
    # X refers to NodeList, Y holds NodeList's structure inline: one class. Renaming X must change no digest
    # (the quotient once depended on which of X and Y stood for their class, chosen by name).
    def document(x: str) -> dict:
        return {"$schema": D2020, "$defs": {
            "Node": {"type": "object", "properties": {"a": {"$ref": f"#/$defs/{x}"}, "b": {"$ref": "#/$defs/Y"}}},
            x: {"type": "object", "properties": {"p": {"$ref": "#/$defs/NodeList"}}},
            "Y": {"type": "object", "properties": {"p": {"type": "array", "items": {"$ref": "#/$defs/Node"}}}},
            "NodeList": {"type": "array", "items": {"$ref": "#/$defs/Node"}}}}

    with split_from_the_start():
        first, renamed = type_digests_of(document("X")), type_digests_of(document("Z"))
    assert first["X"] == first["Y"] == renamed["Z"]
    assert {name: digest for name, digest in first.items() if name != "X"} == \
        {name: digest for name, digest in renamed.items() if name != "Z"}


def test_a_long_ring_with_an_inline_copy_keeps_its_digests_under_renaming():
    # Past the hashed rounds without forcing anything: the copy X of T1 (inline to T3) joins T1's class.
    def document(copy: str) -> dict:
        ring_document = ring(fingerprint._HASHED_ROUNDS + 8, changed=None)
        definitions = ring_document["$defs"]
        definitions["T0"]["properties"]["y"] = {"$ref": f"#/$defs/{copy}"}
        definitions[copy] = {"type": "object", "required": ["v"], "properties": {
            "v": {"type": "string"}, "next": {"type": "object", "required": ["v"], "properties": {
                "v": {"type": "string"}, "next": {"$ref": "#/$defs/T3"}}}}}
        return ring_document

    first, renamed = type_digests_of(document("X")), type_digests_of(document("A"))
    assert first["X"] == renamed["A"]
    assert {name: digest for name, digest in first.items() if name.startswith("T")} == \
        {name: digest for name, digest in renamed.items() if name.startswith("T")}


def test_a_ring_past_the_hashed_rounds_tells_every_member_apart():
    length = fingerprint._HASHED_ROUNDS + 8
    digests = type_digests_of(ring(length))
    assert len(set(digests.values())) == length
    with split_from_the_start():
        assert _partition(type_digests_of(ring(length))) == _partition(digests)


def test_equal_members_of_a_ring_share_their_digest():
    # Two changed members half a ring apart: the ring is two equal halves, each member equal to its opposite.
    length = 2 * (fingerprint._HASHED_ROUNDS + 4)
    document = ring(length)
    document["$defs"][f"T{length // 2}"]["properties"]["x"] = {"type": "integer"}
    digests = type_digests_of(document)
    assert len(set(digests.values())) == length // 2
    assert all(digests[f"T{index}"] == digests[f"T{index + length // 2}"] for index in range(length // 2))


# --- readers of many members: a look costs what changed, and finds what the whole signature finds -----------------

def _with_unions(document: dict, holders: dict[int, list[int]], keyword: str = "anyOf") -> dict:
    """`document` (a ring), where each member `holder` of `holders` has a property `any`: a union of the members
    listed (a member listed twice stands twice)."""
    for holder, members in holders.items():
        document["$defs"][f"T{holder}"]["properties"]["any"] = {
            keyword: [{"$ref": f"#/$defs/T{member}"} for member in members]}
    return document


def _repeated_items(document: dict, holder: int, items: list[int]) -> dict:
    """`document`, where member `holder` has a property `pair`: a tuple of the members listed, in that order."""
    document["$defs"][f"T{holder}"]["properties"]["pair"] = {
        "type": "array", "prefixItems": [{"$ref": f"#/$defs/T{member}"} for member in items], "items": False}
    return document


def _told_apart_by_order() -> dict:
    """Two members alike but for the order of a tuple of two ring members, T5 and T6, which stand at different
    distances from the changed T0 and so are told apart only in a later round: X and Y then differ only by where
    the member that moved stands in their tuples."""
    document = ring(10)
    for name, items in (("X", [5, 6]), ("Y", [6, 5])):
        document["$defs"][name] = {"type": "object", "properties": {"next": {"$ref": "#/$defs/T0"}, "pair": {
            "type": "array", "prefixItems": [{"$ref": f"#/$defs/T{member}"} for member in items], "items": False}}}
    document["$defs"]["T3"]["properties"].update({"x": {"$ref": "#/$defs/X"}, "y": {"$ref": "#/$defs/Y"}})
    return document


WIDE_READERS = {
    # two members told apart only by the places of their children, late: a place is part of what changed
    "order decides late": _told_apart_by_order,
    # one union of every member
    "union of all": lambda: _with_unions(ring(12), {6: list(range(12))}),
    # one union of every other member: its children change number at different rounds
    "union of every other": lambda: _with_unions(ring(12), {5: list(range(0, 12, 2))}),
    # two members holding equal unions: one class of two wide nodes, until their own places tell them apart
    "two equal unions": lambda: _with_unions(ring(12), {3: list(range(12)), 9: list(range(12))}),
    # two unions alike but for one member: they part only when that member changes number
    "unions differing by one": lambda: _with_unions(ring(12), {3: list(range(12)), 9: [*range(11), 0]}),
    # one member twice in a union (a union keeps one of each), and unions exclusive
    "exclusive with a repeat": lambda: _with_unions(ring(10), {4: [1, 1, 2, 7], 8: [1, 2, 7]}, "oneOf"),
    # a tuple of the same member twice, and of two members in either order: places in a template count
    "tuple places": lambda: _repeated_items(_repeated_items(ring(10), 2, [5, 5]), 7, [5, 6]),
    "tuple order": lambda: _repeated_items(_repeated_items(ring(10), 2, [5, 6]), 7, [6, 5]),
    # a ring with no changed member: every look finds nothing to split but the unions' holders
    "even ring": lambda: _with_unions(ring(9, changed=None), {0: list(range(9)), 4: list(range(9))}),
}


@pytest.mark.parametrize("make", WIDE_READERS.values(), ids=WIDE_READERS.keys())
def test_readers_of_many_members_are_refined_as_the_rounds_refine_them(make):
    digests = type_digests_of(make())
    with split_from_the_start():
        assert _partition(type_digests_of(make())) == _partition(digests)


def test_a_long_ring_read_by_a_union_keeps_its_digests_under_rotation_and_renaming():
    # Past the hashed rounds, with one member holding a union of the whole ring: every member apart (each stands at
    # its own distances from the changed member and from the union's holder), and turning the ring's names seven
    # places keeps every digest.
    length = fingerprint._HASHED_ROUNDS + 9
    holder = length // 2

    def made(shift: int) -> dict:
        document = ring(length, changed=shift)
        return _with_unions(document, {(holder + shift) % length: list(range(length))})

    digests = type_digests_of(made(0))
    assert len({digests[f"T{index}"] for index in range(length)}) == length
    turned = type_digests_of(made(7))
    assert {f"T{index}": turned[f"T{(index + 7) % length}"] for index in range(length)} == \
        {f"T{index}": digests[f"T{index}"] for index in range(length)}


# --- names and order play no part; every change changes every member ------------------------------------------

@settings(PROFILE)
@given(document=schema_documents(max_definitions=6), data=st.data())
def test_renaming_keeps_every_digest_of_the_split_history(document, data):
    names = list(document["$defs"])
    fresh = data.draw(st.permutations([f"Renamed{index}" for index in range(len(names))]))
    renames = dict(zip(names, fresh))
    with split_from_the_start():
        before = root_digests(document)
        after = root_digests(rename_definitions(document, renames))
    assert after == {("doc:" + renames[root[4:]] if root[4:] in renames else root): digest
                     for root, digest in before.items()}


@settings(PROFILE)
@given(document=schema_documents(max_definitions=6), seed=st.integers(0, 2**32 - 1))
def test_reordering_keeps_every_digest_of_the_split_history(document, seed):
    with split_from_the_start():
        assert root_digests(reorder(document, random.Random(seed))) == root_digests(document)


def test_a_rotated_and_renamed_ring_keeps_its_digests():
    length = fingerprint._HASHED_ROUNDS + 5
    digests = type_digests_of(ring(length, changed=0))
    shift = 7  # the changed member is now T7: every name moves seven places along the ring
    rotated = ring(length, changed=shift)
    turned = type_digests_of(rotated)
    assert {name: turned[f"T{(int(name[1:]) + shift) % length}"] for name in digests if name.startswith("T")} == \
        {name: digest for name, digest in digests.items() if name.startswith("T")}


def test_any_change_changes_every_member_and_differs_from_the_rounds():
    length = fingerprint._HASHED_ROUNDS + 5
    first = type_digests_of(ring(length, changed=0, extra="x"))
    other = type_digests_of(ring(length, changed=0, extra="y"))
    assert all(first[name] != other[name] for name in first)
    # The split history's digests are their own kind: never a digest the rounds would give.
    assert set(type_digests_of(ring(4)).values()).isdisjoint(_split_digests(ring(4)))


def _split_digests(document: dict) -> set[str]:
    with split_from_the_start():
        return set(type_digests_of(document).values())


# --- what the rounds settle keeps the rounds' digests ---------------------------------------------------------

def test_a_ring_the_rounds_settle_keeps_their_digests():
    # One round short of the limit: the rounds settle it, and the digest is that of the rounds, pinned.
    length = fingerprint._HASHED_ROUNDS - 2
    digests = type_digests_of(ring(length))
    saved = fingerprint._HASHED_ROUNDS
    fingerprint._HASHED_ROUNDS = 10 ** 6  # the rounds only, however long they take
    try:
        assert type_digests_of(ring(length)) == digests
    finally:
        fingerprint._HASHED_ROUNDS = saved
