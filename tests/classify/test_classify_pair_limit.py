"""The comparison walk enters a number of pairs of named types linear in the two graphs.

Within a recursive component every member's digest changes with any change, so every pair of named types
the walk meets differs. Pairs of the same name are at most one per type, but a retargeted reference pairs
types of different names, whose references are misaligned in turn: without a bound the walk enters the
pairs of the product of the two graphs (n^2, each compared in full). Past its limit the walk enters no
further pair; the first pair that differs is reported as not compared (both ways, a version-bump), so the
bound can only turn a decision into a version-bump, never into same-version, and below the limit the walk
is exactly the unbounded one.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from govern.classify import changes
from govern.classify.changes import Side, Walker
from govern.classify.classify import classify_root
from govern.classify.explain import explain
from govern.model.nodes import Ref
from govern.sources.jsonschema import load_jsonschema

PROFILE = settings.get_profile("classify")
LIMIT_KIND = "comparison-limit-reached"


def _component(count: int, seed: int) -> dict:
    """A recursive component: a ring through `next` (every type reaches every other) and one or two more
    references per type to random members, plainly, through arrays and through nullable unions."""
    rng = random.Random(seed)
    defs = {}
    for index in range(count):
        properties: dict = {"id": {"type": "string", "maxLength": 64},
                            "count": {"type": "integer", "maximum": rng.randint(10, 10_000)},
                            "next": {"$ref": f"#/$defs/T{(index + 1) % count}"}}
        for position in range(rng.randint(1, 2)):
            target = {"$ref": f"#/$defs/T{rng.randrange(count)}"}
            style = rng.randrange(3)
            properties[f"link{position}"] = target if style == 0 else \
                {"type": "array", "items": target} if style == 1 else {"anyOf": [target, {"type": "null"}]}
        defs[f"T{index}"] = {"type": "object", "properties": properties, "required": ["id"]}
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "$defs": defs}


def _retargeted(document: dict, seed: int) -> dict:
    """One reference of the component pointed at another member, and one optional property added."""
    rng = random.Random(seed)
    result = json.loads(json.dumps(document))
    names = sorted(result["$defs"])
    changed, target = rng.sample(names, 2)
    result["$defs"][changed]["properties"]["next"] = {"$ref": f"#/$defs/{target}"}
    result["$defs"][rng.choice(names)]["properties"]["note"] = {"type": "string"}
    return result


def _sides(tmp_path: Path, old: dict, new: dict) -> list[Side]:
    sides = []
    for name, document in (("old", old), ("new", new)):
        path = tmp_path / f"{name}.schema.json"
        path.write_text(json.dumps(document), encoding="utf-8")
        sides.append(Side.of(load_jsonschema("bench", path, {"Start": ("#/$defs/T0", "record")}, tmp_path)))
    return sides


def _walk(sides: list[Side]) -> tuple[Walker, list]:
    walker = Walker(*sides)
    start = [Ref(next(iter(side.graph.roots.values())).type_key) for side in sides]
    return walker, list(walker.differences(*start))


def _decision(sides: list[Side]) -> tuple[str, tuple]:
    old, new = ((side, next(iter(side.graph.roots.values())).type_key, "record") for side in sides)
    result = classify_root("Start", old, new)
    return result.decision, result.changes


def _seen(differences: list) -> list:
    return [(d.place.type if d.place else None, d.path, d.kind, d.args, d.breaks) for d in differences]


@pytest.fixture
def unbounded(monkeypatch):
    """Walks made while this fixture is active have no limit worth the name."""
    def set_limit(per_type: int, beyond: int) -> None:
        monkeypatch.setattr(changes, "PAIRS_PER_TYPE", per_type)
        monkeypatch.setattr(changes, "PAIRS_BEYOND", beyond)
    return set_limit


def test_a_retargeted_reference_in_a_recursive_component_ends_at_the_limit(tmp_path: Path):
    old = _component(400, seed=3)
    sides = _sides(tmp_path, old, _retargeted(old, seed=5))
    walker, found = _walk(sides)
    types = sum(len(side.graph.types) for side in sides)
    assert walker.pair_limit == changes.PAIRS_PER_TYPE * types + changes.PAIRS_BEYOND
    # The walk entered as many pairs as it may, and no more: linear in the two graphs, not their product.
    # (Pairs compared in place, with a union's alternative, count as well.)
    assert len(walker._visited) + walker._in_place == walker.pair_limit
    limited = [difference for difference in found if difference.kind == LIMIT_KIND]
    assert len(limited) == 1  # told once, at the first pair left uncompared
    [difference] = limited
    assert difference.breaks == (changes.OLD_DATA, changes.NEW_DATA)
    assert difference.arg("limit") == str(walker.pair_limit)
    assert difference.arg("old_type") != difference.arg("new_type")
    decision, decided = _decision(_sides(tmp_path, old, _retargeted(old, seed=5)))
    assert decision == "version-bump"
    [change] = [change for change in decided if change.kind == LIMIT_KIND]
    assert (change.rule, change.decision) == ("structure-changed", "version-bump")
    sentence = explain(change.kind, change.args)
    assert f"limit of {walker.pair_limit} pairs of types" in sentence.en and str(walker.pair_limit) in sentence.zh


def test_the_walk_is_deterministic_at_the_limit(tmp_path: Path):
    old = _component(300, seed=8)
    new = _retargeted(old, seed=9)
    first = _seen(_walk(_sides(tmp_path, old, new))[1])
    second = _seen(_walk(_sides(tmp_path, old, new))[1])
    assert first == second and any(kind == LIMIT_KIND for _, _, kind, _, _ in first)


def test_below_the_limit_the_walk_is_the_unbounded_walk(tmp_path: Path, unbounded):
    old = _component(12, seed=1)
    new = _retargeted(old, seed=2)
    walker, bounded = _walk(_sides(tmp_path, old, new))
    assert len(walker._visited) < walker.pair_limit
    assert all(difference.kind != LIMIT_KIND for difference in bounded)
    unbounded(0, 10**9)
    assert _seen(_walk(_sides(tmp_path, old, new))[1]) == _seen(bounded)


def test_a_renamed_component_aligned_by_name_stays_far_below_the_limit(tmp_path: Path):
    # The usual change inside a recursive component (one property added) pairs each type with its own name:
    # at most one pair per type of a side, a quarter of the pairs the walk may enter.
    old = _component(300, seed=4)
    new = json.loads(json.dumps(old))
    new["$defs"]["T7"]["properties"]["note"] = {"type": "string"}
    walker, found = _walk(_sides(tmp_path, old, new))
    assert len(walker._visited) <= 300 < walker.pair_limit // 4
    assert [difference.kind for difference in found] == ["optional-property-added"]


@settings(PROFILE)
@given(count=st.integers(3, 14), seed=st.integers(0, 10_000), limit=st.integers(1, 60))
def test_the_limit_never_turns_a_version_bump_into_same_version(tmp_path_factory, count, seed, limit):
    tmp_path = tmp_path_factory.mktemp("limit")
    old = _component(count, seed)
    rng = random.Random(seed)
    new = _retargeted(old, seed) if rng.random() < 0.5 else json.loads(json.dumps(old))
    if rng.random() < 0.5:  # same-version: an optional property added to an open object
        new["$defs"][f"T{rng.randrange(count)}"]["properties"]["note"] = {"type": "string"}
    if rng.random() < 0.5:  # a version-bump: a property removed
        new["$defs"][f"T{rng.randrange(count)}"]["properties"].pop("count")
    saved = changes.PAIRS_PER_TYPE, changes.PAIRS_BEYOND
    try:
        changes.PAIRS_PER_TYPE, changes.PAIRS_BEYOND = 0, 10**9
        full_decision, full_changes = _decision(_sides(tmp_path, old, new))
        full_walker, full = _walk(_sides(tmp_path, old, new))
        changes.PAIRS_PER_TYPE, changes.PAIRS_BEYOND = 0, limit
        bounded_decision, bounded_changes = _decision(_sides(tmp_path, old, new))
        walker, bounded = _walk(_sides(tmp_path, old, new))
    finally:
        changes.PAIRS_PER_TYPE, changes.PAIRS_BEYOND = saved
    assert len(walker._visited) + walker._in_place <= limit
    limited = [difference for difference in bounded if difference.kind == LIMIT_KIND]
    if len(full_walker._visited) + full_walker._in_place <= limit:
        # The limit was not reached: the very same walk.
        assert not limited and _seen(bounded) == _seen(full) and bounded_decision == full_decision
        return
    # Reached: told once, a version-bump whatever the full comparison decides, and every other difference
    # is one the full comparison finds too, in the same order.
    assert len(limited) == 1 and bounded_decision == "version-bump"
    rest = iter(_seen(full))
    assert all(any(seen == other for other in rest) for seen in _seen(bounded) if seen[2] != LIMIT_KIND)


def test_a_comparison_in_place_that_meets_itself_ends(tmp_path: Path):
    # T1's nullable union of T0 is paired with a plain reference to T0 (the retargeted `next` pairs old T1
    # with new T2): the alternative is compared in place with the type, and inside it the same pair of a
    # union and a type comes round again. It was compared again, one level deeper each time, without end.
    def document(next_of_t0: str, note: bool) -> dict:
        def typed(maximum: int, **properties) -> dict:
            return {"type": "object", "required": ["id"], "properties": {
                "id": {"type": "string"}, "count": {"type": "integer", "maximum": maximum}, **properties}}
        nullable = lambda target: {"anyOf": [{"$ref": f"#/$defs/{target}"}, {"type": "null"}]}  # noqa: E731
        t2 = typed(7613, next={"$ref": "#/$defs/T0"}, link0={"$ref": "#/$defs/T0"},
                   link1={"type": "array", "items": {"$ref": "#/$defs/T0"}})
        if note:
            t2["properties"]["note"] = {"type": "string"}
        return {"$schema": "https://json-schema.org/draft/2020-12/schema", "$defs": {
            "T0": typed(1860, next={"$ref": f"#/$defs/{next_of_t0}"}, link0=nullable("T2")),
            "T1": typed(2927, next={"$ref": "#/$defs/T2"}, link0=nullable("T0")), "T2": t2}}

    sides = _sides(tmp_path, document("T1", False), document("T2", True))
    walker, found = _walk(sides)
    assert 0 < walker._in_place < 10 and not walker._limited
    assert max(difference.path.count("/properties/") for difference in found) <= 4
    decision, _ = _decision(_sides(tmp_path, document("T1", False), document("T2", True)))
    assert decision == "version-bump"
