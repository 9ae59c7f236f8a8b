"""The probe that tells, before hashing them, whether the refinement rounds would settle a recursive component.

A component the hashed rounds have not settled after `_PROBED_ROUNDS` rounds is asked `_Rounds.settling_round`:
the round the rounds would stop in, found by numbering constant parts and children instead of hashing form texts,
or `_HASHED_ROUNDS` when they would not stop before it (the component then goes to its split history at once).
Digests must not depend on it: these tests hold the probe's partition of the members to the rounds' own in every
round, its answer to the round the rounds themselves stop in, component by component, and every digest to what the
rounds alone give.
"""

from __future__ import annotations

import contextlib
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import govern.model.fingerprint as fingerprint
from conftest import load_schema, schema_documents, type_digests_of

PROFILE = settings.get_profile("foundation")
D2020 = "https://json-schema.org/draft/2020-12/schema"


@contextlib.contextmanager
def limits(hashed: int, probed: int):
    saved = fingerprint._HASHED_ROUNDS, fingerprint._PROBED_ROUNDS
    fingerprint._HASHED_ROUNDS, fingerprint._PROBED_ROUNDS = hashed, probed
    try:
        yield
    finally:
        fingerprint._HASHED_ROUNDS, fingerprint._PROBED_ROUNDS = saved


def ring(length: int, changed: int | None = 0, inline_every: int = 0, union: bool = False,
         tagged: bool = False, choices: int = 0, mapped: bool = False) -> dict:
    """A ring of object types, each naming the next (every `inline_every`-th writes the next one's content inline,
    one reference further on); the type at `changed` has a property more; with `union`, the first type also holds
    a union of every type (`tagged`: each alternative an object with a constant of its parity). With `choices`, each
    type also holds a union of the next `choices` types, listed backwards in every other type (`mapped`: a
    discriminator value bound to its first alternative as written), so equal unions are written in different orders
    and alike labelled unions pair their labels with different members."""
    definitions = {}
    for index in range(length):
        following = (index + 1) % length
        reference = {"$ref": f"#/$defs/T{following}"}
        if inline_every and index % inline_every == 0:
            reference = {"type": "object", "properties": {"v": {"type": "string"},
                                                          "next": {"$ref": f"#/$defs/T{(following + 1) % length}"}}}
        definitions[f"T{index}"] = {"type": "object", "properties": {"v": {"type": "string"}, "next": reference}}
        if choices:
            listed = [{"$ref": f"#/$defs/T{(index + step) % length}"} for step in range(1, choices + 1)]
            if index % 2:
                listed.reverse()
            choice = {"anyOf": listed}
            if mapped:
                choice["discriminator"] = {"propertyName": "kind", "mapping": {"first": listed[0]["$ref"]}}
            definitions[f"T{index}"]["properties"]["choice"] = choice
    if changed is not None:
        definitions[f"T{changed}"]["properties"]["x"] = {"type": "integer"}
    if union:
        alternatives = [{"$ref": f"#/$defs/T{index}"} for index in range(length)]
        if tagged:
            alternatives = [{"type": "object", "properties": {"kind": {"const": f"k{index % 2}"},
                                                              "of": alternative}, "required": ["kind"]}
                            for index, alternative in enumerate(alternatives)]
        definitions["T0"]["properties"]["any"] = {"anyOf": alternatives}
    return {"$schema": D2020, "$ref": "#/$defs/T0", "$defs": definitions}


def _components(document: dict) -> list[tuple[list, object, list]]:
    """Every recursive component of the document: its members, its compiled rounds and its members' top slots, set
    up as the digests set them up."""
    with tempfile.TemporaryDirectory() as directory:
        graph = load_schema(document, Path(directory))
    types = graph.types
    digests = dict(graph.digests)
    referred, _ = fingerprint.scan_types(types)
    canonical = fingerprint.alias_targets(types)
    keys = [key for key in types if canonical.get(key, key) == key]
    edges = {key: [canonical.get(target, target) for target in fingerprint.refers_to(referred, types, key)
                   if canonical.get(target, target) in types] for key in keys}
    found = []
    for component in fingerprint.strongly_connected_components(keys, edges):
        if len(component) == 1 and component[0] not in edges[component[0]]:
            continue
        memo = fingerprint._Memo(fingerprint.DOMAINS[graph.inventory_format])
        rounds = fingerprint._Rounds(memo, canonical, component, lambda key: digests[canonical.get(key, key)])
        tops = [slot if slot.__class__ is int else slot.encode("ascii")
                for slot in [rounds.slot(types[key].node) for key in component]]
        found.append((component, rounds, tops))
    return found


def _round_the_rounds_stop_in(rounds, tops: list, limit: int) -> int | None:
    """The hashed rounds themselves, as the digests run them: the round in which the number of classes stops
    growing, if below `limit` (where the digests first ask whether the partition is stable, see
    test_stable_partition.py)."""
    current = [fingerprint._RECURSION_PLACEHOLDER.encode("ascii")] * len(tops)
    classes = 1
    for round_ in range(limit):
        current = rounds.first(tops, current) if round_ == 0 else rounds.next(tops, current)
        count = len(set(current))
        if count == classes:
            return round_
        classes = count
    return None


def _partition(values: list) -> set[frozenset[int]]:
    groups: dict = {}
    for position, value in enumerate(values):
        groups.setdefault(value, set()).add(position)
    return {frozenset(group) for group in groups.values()}


def _assert_the_probe_stops_where_the_rounds_do(document: dict, limit: int, told: bool = True) -> int:
    """For every recursive component: the probe's partition of the members is the rounds' in every round it tells,
    and it stops where they do (with `told`, it tells every round up to there)."""
    components = _components(document)
    for component, rounds, tops in components:
        current = [fingerprint._RECURSION_PLACEHOLDER.encode("ascii")] * len(tops)
        digest_of, number_of = {}, {}  # across all rounds: a member's number and its digest stand for each other
        for round_, probed in enumerate(rounds.probe_rounds(tops, limit)):
            current = rounds.first(tops, current) if round_ == 0 else rounds.next(tops, current)
            assert _partition(probed) == _partition(current), (component, round_)
            for number, digest in zip(probed, current):
                assert digest_of.setdefault(number, digest) == digest, (component, round_)
                assert number_of.setdefault(digest, number) == number, (component, round_)
        stops = _round_the_rounds_stop_in(rounds, tops, limit)
        found = rounds.settling_round(tops, limit)
        if found is not None or told:
            assert found == (limit if stops is None else stops), component
    return len(components)


RINGS = [
    # (shape, the limit of rounds): the rounds stop in round 0, in the first few, in one of the rounds after the
    # probe, in the last before the limit, or not before it
    pytest.param(dict(length=12, changed=None), 40, id="equal types: round 0 settles them"),
    pytest.param(dict(length=30, inline_every=3), 40, id="inline copies one reference further: round 1"),
    pytest.param(dict(length=12), 40, id="one changed: told apart as far as its furthest member"),
    pytest.param(dict(length=40, inline_every=2, changed=4), 40, id="every other inline, one changed"),
    pytest.param(dict(length=40), 40, id="one changed: settled in the last round before the limit"),
    pytest.param(dict(length=60), 40, id="one changed: still growing at the limit"),
    pytest.param(dict(length=40), 10, id="one changed: the limit well before"),
    pytest.param(dict(length=24, union=True), 40, id="read by a union of every member"),
    pytest.param(dict(length=60, union=True), 40, id="read by a union, past the limit"),
    pytest.param(dict(length=24, union=True, tagged=True, changed=None), 40,
                 id="read by a union of labelled alternatives"),
    pytest.param(dict(length=60, union=True, tagged=True), 40, id="labelled alternatives, past the limit"),
    pytest.param(dict(length=80, union=True, inline_every=2, changed=2), 40, id="union and inline copies"),
    pytest.param(dict(length=20, choices=3), 24, id="equal unions listed in other orders"),
    pytest.param(dict(length=20, choices=2), 24, id="equal pairs listed in other orders"),
    pytest.param(dict(length=20, choices=3, mapped=True), 24, id="one label, paired with other members"),
]


def labelled_unions(order_a: str, order_b: str, tagged_a: str = "X", tagged_b: str = "X") -> dict:
    """A component in which A and B each hold a union of X, Y and Z, listed in the orders given, with a
    discriminator value bound to the one named: equal unions where the same one is bound, whatever the order."""
    def union(order: str, tagged: str) -> dict:
        return {"anyOf": [{"$ref": f"#/$defs/{name}"} for name in order],
                "discriminator": {"propertyName": "kind", "mapping": {"first": f"#/$defs/{tagged}"}}}

    definitions = {
        "R": {"type": "object", "properties": {"a": {"$ref": "#/$defs/A"}, "b": {"$ref": "#/$defs/B"}}},
        "A": {"type": "object", "properties": {"u": union(order_a, tagged_a)}},
        "B": {"type": "object", "properties": {"u": union(order_b, tagged_b)}},
        **{name: {"type": "object", "properties": {name.lower(): {"$ref": "#/$defs/R"}}} for name in "XYZ"}}
    return {"$schema": D2020, "$ref": "#/$defs/R", "$defs": definitions}


def swapped_properties() -> dict:
    """A component in which A names X and Y by two properties, and B names them the other way round: one template,
    the same children, listed otherwise."""
    pair = {"type": "object", "properties": {"p": {"$ref": "#/$defs/X"}, "q": {"$ref": "#/$defs/Y"}}}
    swapped = {"type": "object", "properties": {"p": {"$ref": "#/$defs/Y"}, "q": {"$ref": "#/$defs/X"}}}
    definitions = {"R": {"type": "object", "properties": {"a": {"$ref": "#/$defs/A"}, "b": {"$ref": "#/$defs/B"}}},
                   "A": pair, "B": swapped,
                   **{name: {"type": "object", "properties": {name.lower(): {"$ref": "#/$defs/R"}}} for name in "XY"}}
    return {"$schema": D2020, "$ref": "#/$defs/R", "$defs": definitions}


def inline_copy_beside_member() -> dict:
    """A component in which a union holds a member A beside an inline object whose digest in a round equals A's in the
    round before (A writes one level more inline before the reference), and another holds A beside its copy A2: the
    rounds compare a member's digest of one round with a plan's of the next."""
    def ref(name: str) -> dict:
        return {"$ref": f"#/$defs/{name}"}

    def wrap(inner: dict) -> dict:
        return {"type": "object", "properties": {"n": inner}}

    definitions = {
        "W": {"type": "object", "properties": {"u1": ref("U1"), "u2": ref("U2"), "a": ref("A")}},
        "C": wrap(ref("W")), "B": wrap(ref("C")), "A": wrap(wrap(ref("C"))), "A2": wrap(wrap(ref("C"))),
        "U1": {"type": "object", "properties": {"u": {"anyOf": [ref("A"), wrap(ref("B"))]}}},
        "U2": {"type": "object", "properties": {"u": {"anyOf": [ref("A"), ref("A2")]}}}}
    return {"$schema": D2020, "$ref": "#/$defs/W", "$defs": definitions}


@pytest.mark.parametrize("shape, limit", RINGS)
def test_the_probe_stops_in_the_round_the_rounds_stop_in(shape, limit):
    assert _assert_the_probe_stops_where_the_rounds_do(ring(**shape), limit) >= 1


@pytest.mark.parametrize("document", [
    pytest.param(labelled_unions("XYZ", "ZYX"), id="one union listed in two orders"),
    pytest.param(labelled_unions("XYZ", "XYZ", "X", "Y"), id="the value bound to another alternative"),
    pytest.param(labelled_unions("XYZ", "YZX", "Z", "Z"), id="bound to the last, listed otherwise"),
    pytest.param(swapped_properties(), id="the same children, as other properties"),
    pytest.param(inline_copy_beside_member(), id="an inline copy equal to a member one round earlier"),
])
def test_the_probe_tells_plans_apart_as_the_rounds_do(document):
    assert _assert_the_probe_stops_where_the_rounds_do(document, 6) == 1


@settings(PROFILE)
@given(document=schema_documents(max_definitions=8), limit=st.integers(1, 12))
def test_the_probe_stops_where_the_rounds_do_on_any_document(document, limit):
    _assert_the_probe_stops_where_the_rounds_do(document, limit, told=False)


# --- digests do not depend on the probe -------------------------------------------------------------------------

@pytest.mark.parametrize("shape, limit", RINGS)
def test_the_probe_changes_no_digest_of_a_ring(shape, limit):
    document = ring(**shape)
    with limits(limit, 10 ** 6):  # no probe: the rounds run to the limit
        expected = type_digests_of(document)
    with limits(limit, 1):  # probed after the first round
        assert type_digests_of(document) == expected


@settings(PROFILE)
@given(document=schema_documents(max_definitions=8), limit=st.integers(2, 8), probed=st.integers(0, 3))
def test_the_probe_changes_no_digest(document, limit, probed):
    with limits(limit, 10 ** 6):
        expected = type_digests_of(document)
    with limits(limit, probed):
        assert type_digests_of(document) == expected


def test_a_component_past_the_limit_goes_to_its_split_history_at_the_probe():
    # A ring still growing at the limit: with the probe or without, its digests are those of its split history.
    document = ring(fingerprint._HASHED_ROUNDS + 10)
    probed = type_digests_of(document)
    with limits(fingerprint._HASHED_ROUNDS, 10 ** 6):
        assert type_digests_of(document) == probed
    with limits(0, 10 ** 6):  # the split history from the start
        assert type_digests_of(document) == probed


def test_a_probe_whose_table_outgrows_the_component_tells_nothing(monkeypatch):
    # A ring still growing, whose first type also holds a union of as many types of their own, each naming the ring
    # again: every round numbers each of those anew, past what the probe may hold for a component this size; it
    # stops, and the rounds go on as they would without it.
    document = ring(40, changed=None)
    for index in range(30):
        document["$defs"][f"S{index}"] = {"type": "object", "properties": {
            f"own{index}": {"type": "string"}, "back": {"$ref": "#/$defs/T1"}}}
    document["$defs"]["T0"]["properties"]["side"] = {"anyOf": [{"$ref": f"#/$defs/S{index}"} for index in range(30)]}
    monkeypatch.setattr(fingerprint, "_PROBE_TABLE_LEAST", 0)
    (component, rounds, tops), = _components(document)
    assert len(component) == 70
    assert _round_the_rounds_stop_in(rounds, tops, 24) is None  # still growing
    assert 2 < len(list(rounds.probe_rounds(tops, 24))) < 24
    assert rounds.settling_round(tops, 24) is None
    with limits(24, 1):
        probed = type_digests_of(document)
    with limits(24, 10 ** 6):
        assert type_digests_of(document) == probed
