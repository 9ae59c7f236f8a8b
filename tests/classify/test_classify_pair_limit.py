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
from govern.classify.classify import classify_root, with_deep_stack
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
    # (on the deep stack the command gives it: questions asked inside questions nest as deep as the limit)
    return walker, with_deep_stack(lambda: list(walker.differences(*start)))


def _decision(sides: list[Side]) -> tuple[str, tuple]:
    old, new = ((side, next(iter(side.graph.roots.values())).type_key, "record") for side in sides)
    result = with_deep_stack(lambda: classify_root("Start", old, new))
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
    # (Pairs compared in place, with a union's alternative, and the walks run to tell which ways a replaced
    # property breaks, count as well.)
    assert walker._shared.entered == walker.pair_limit
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
    assert walker._shared.entered < walker.pair_limit
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
    assert walker._shared.entered <= limit
    limited = [difference for difference in bounded if difference.kind == LIMIT_KIND]
    if full_walker._shared.entered < limit or full_walker._shared.entered == limit and not limited:
        # The limit was not reached: the very same walk. (At exactly the limit it may be: a question or a
        # comparison in place asked after the last pair is entered finds the limit used up, and says so.)
        assert not limited and _seen(bounded) == _seen(full) and bounded_decision == full_decision
        return
    # Reached: told once, a version-bump whatever the full comparison decides, and every other difference
    # is one the full comparison finds too, in the same order. Its directions may be more (a replacement whose
    # directions were not told for the limit breaks both ways), never fewer.
    assert len(limited) == 1 and bounded_decision == "version-bump"
    rest = iter(_seen(full))
    assert all(any(seen[:4] == other[:4] and set(seen[4]) >= set(other[4]) for other in rest)
               for seen in _seen(bounded) if seen[2] != LIMIT_KIND)


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


def _ring_with_own_content_model(count: int, step: int, extra: bool) -> dict:
    """A ring through `next` whose every type admits undeclared names holding the type itself; with `extra`,
    each type gains a property `extra` referring to the member `step` further on. Old data may hold `extra`
    under the content model (T_i), which the new property replaces by T_(i+step): telling which ways that
    breaks compares T_i with T_(i+step), which has gained `extra` too, and so on, a question per pair."""
    defs = {}
    for index in range(count):
        properties: dict = {"next": {"$ref": f"#/$defs/T{(index + 1) % count}"}, "v": {"type": "string"}}
        if extra:
            properties["extra"] = {"$ref": f"#/$defs/T{(index + step) % count}"}
        defs[f"T{index}"] = {"type": "object", "properties": properties,
                             "additionalProperties": {"$ref": f"#/$defs/T{index}"}}
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "$defs": defs}


@pytest.mark.parametrize("count", [4, 6, 12])
def test_questions_asked_inside_questions_end_and_keep_every_finding(tmp_path: Path, count: int):
    # Each question was a fresh walk with a limit of its own, nested one inside the other: 4 types did not end
    # in a minute. Asked once each and counted together, a small ring is compared in full.
    sides = _sides(tmp_path, _ring_with_own_content_model(count, 3, False),
                   _ring_with_own_content_model(count, 3, True))
    walker, found = _walk(sides)
    assert walker._shared.entered < walker.pair_limit and not walker._shared.limit_met
    added = [difference for difference in found if difference.kind == "optional-property-added"]
    # every type's `extra` (the root T0's own, then each other member's), each breaking both ways
    assert len(added) == count and len(found) == count
    assert all(difference.breaks == (changes.OLD_DATA, changes.NEW_DATA) for difference in added)


def test_questions_asked_inside_questions_share_the_walk_s_limit(tmp_path: Path):
    # 300 types ask 90,000 different questions (one per pair of members): the family of walks stops at the
    # limit, the answers not proven are both ways, and the root tells that the limit was met.
    old, new = (_ring_with_own_content_model(300, 7, extra) for extra in (False, True))
    walker, found = _walk(_sides(tmp_path, old, new))
    assert walker._shared.entered <= walker.pair_limit and walker._shared.limit_met
    limited = [difference for difference in found if difference.kind == LIMIT_KIND]
    assert len(limited) == 1 and limited[0].breaks == (changes.OLD_DATA, changes.NEW_DATA)
    decision, decided = _decision(_sides(tmp_path, old, new))
    assert decision == "version-bump" and any(change.kind == LIMIT_KIND for change in decided)


def test_a_question_answered_inside_the_walk_tells_the_limit_at_the_root(tmp_path: Path, unbounded):
    # Only the questions reach the limit here (the root's own walk enters a pair or two): the limit is told
    # once, at the root, where no pair of the walk was left out.
    unbounded(0, 5)
    old, new = (_ring_with_own_content_model(12, 5, extra) for extra in (False, True))
    walker, found = _walk(_sides(tmp_path, old, new))
    limited = [difference for difference in found if difference.kind == LIMIT_KIND]
    assert walker._shared.limit_met and len(limited) == 1
    assert limited[0].breaks == (changes.OLD_DATA, changes.NEW_DATA)


def test_questions_nest_no_deeper_than_their_limit(tmp_path: Path, unbounded, monkeypatch):
    # Without a limit of pairs, 300 types nest a question per member inside the last (T0 against T7, T14, ...):
    # resuming generators nested that deep costs time in proportion to the depth. Past the nesting limit the
    # answer is both ways, and the root tells which limit was met.
    unbounded(0, 10**9)
    monkeypatch.setattr(changes, "COMPARED_BEYOND", 10**9)  # (nor of what is compared: the nesting is what ends it)
    asked = []
    original = Walker._breaks_between

    def deepest(self, old, new):
        asked.append(len(self._shared.asking))
        return original(self, old, new)

    monkeypatch.setattr(Walker, "_breaks_between", deepest)
    old, new = (_ring_with_own_content_model(300, 7, extra) for extra in (False, True))
    walker, found = _walk(_sides(tmp_path, old, new))
    assert max(asked) == changes.QUESTIONS_NESTED and walker._shared.limit_met == "nesting"
    [limited] = [difference for difference in found if difference.kind == LIMIT_KIND]
    assert (limited.path, limited.arg("nesting"), limited.arg("limit")) == ("", "true", str(changes.QUESTIONS_NESTED))
    assert limited.breaks == (changes.OLD_DATA, changes.NEW_DATA)
    assert "100 comparisons nested one inside another" in explain(limited.kind, limited.args).en


# --- comparisons in place: a reference against an inline node ----------------------------------------------

def _in_place_loop(a_type: str, inline: bool) -> dict:
    """X holds an inline object whose `p` refers to X again; R refers to X (or holds X's inline object)."""
    inner = {"type": "object", "properties": {"p": {"$ref": "#/$defs/X"}}}
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "$defs": {
        "R": {"type": "object", "properties": {"r": inner if inline else {"$ref": "#/$defs/X"}}},
        "X": {"type": "object", "properties": {"p": inner, "a": {"type": a_type}}}}}


def _root_sides(tmp_path: Path, old: dict, new: dict, root: str) -> list[Side]:
    sides = []
    for name, document in (("old", old), ("new", new)):
        path = tmp_path / f"{name}.schema.json"
        path.write_text(json.dumps(document), encoding="utf-8")
        sides.append(Side.of(load_jsonschema("s", path, {"Start": (root, "record")}, tmp_path)))
    return sides


def test_a_reference_against_its_own_inline_copy_nests_no_deeper_than_the_limit(tmp_path: Path):
    # R.r: the old reference to X against the new inline {p: X}. Compared in place, X's `p` (inline) meets
    # the new reference to X, and so on: one more comparison in place at every level, no pair of named types
    # entered. It recursed until memory ran out; now it stops at the nesting limit and says so.
    sides = _root_sides(tmp_path, _in_place_loop("string", False), _in_place_loop("integer", True), "#/$defs/R")
    walker, found = _walk(sides)
    limited = [difference for difference in found if difference.kind == LIMIT_KIND]
    assert len(limited) == 1 and limited[0].arg("nesting") == "true"
    assert limited[0].breaks == (changes.OLD_DATA, changes.NEW_DATA)
    deepest = max(difference.path.count("/properties/") for difference in found)
    assert changes.IN_PLACE_NESTED <= deepest <= changes.IN_PLACE_NESTED + 2
    assert walker._shared.entered <= walker.pair_limit
    decision, _ = _decision(_root_sides(tmp_path, _in_place_loop("string", False), _in_place_loop("integer", True),
                                        "#/$defs/R"))
    assert decision == "version-bump"


def test_comparisons_in_place_that_branch_count_against_the_walk_s_limit(tmp_path: Path):
    # Here several comparisons in place nest at every level (content models and properties alike): bounded in
    # depth alone, they were exponential in it (the command ran out of memory on a 2.4 KB pair).
    folder = Path(__file__).parent / "fixtures" / "in-place"
    old, new = (json.loads((folder / f"branching-{side}.json").read_text(encoding="utf-8")) for side in ("old", "new"))
    walker, found = _walk(_root_sides(tmp_path, old, new, "#/$defs/T0"))
    assert walker._shared.entered <= walker.pair_limit and walker._shared.limit_met is not None
    assert sum(difference.kind == LIMIT_KIND for difference in found) == 1


# --- the properties compared in all --------------------------------------------------------------------------

def _beside_a_large_content_model(questions: int, width: int) -> tuple[dict, dict]:
    """T's content model is B (`width` properties); the new side adds `questions` properties, each an inline
    object whose own content model is C (B with maxProperties): each asks which ways it breaks, and each
    question compares B's every property again."""
    def large(extra: bool) -> dict:
        schema: dict = {"type": "object", "properties": {f"p{index}": {} for index in range(width)}}
        if extra:
            schema["maxProperties"] = 5
        return schema

    def document(new: bool) -> dict:
        defs = {"B": large(False)}
        properties: dict = {"v": {}}
        if new:
            defs["C"] = large(True)
            properties.update({f"x{index}": {"type": "object", "properties": {"t": {"const": index}},
                                             "additionalProperties": {"$ref": "#/$defs/C"}}
                               for index in range(questions)})
        defs["T"] = {"type": "object", "properties": properties, "additionalProperties": {"$ref": "#/$defs/B"}}
        return {"$schema": "https://json-schema.org/draft/2020-12/schema", "$defs": defs}

    return document(False), document(True)


def test_questions_that_walk_a_large_type_again_share_a_limit_of_what_is_compared(tmp_path: Path, monkeypatch):
    monkeypatch.setattr(changes, "COMPARED_BEYOND", 2_000)
    old, new = _beside_a_large_content_model(questions=60, width=200)
    sides = _root_sides(tmp_path, old, new, "#/$defs/T")
    walker, found = _walk(sides)
    # past the floor the limit grows by the graphs' nodes, counted then
    assert walker.compared_limit == changes.COMPARED_PER_NODE * sum(side.graph.node_count for side in sides) + 2_000
    # every question compares B's 200 properties (and the question's own) again: 60 of them are 12,000, and the
    # walk stops within a question's worth past the limit
    assert walker._shared.limit_met == "work" and walker._shared.compared <= walker.compared_limit + 2 * 201
    [limited] = [difference for difference in found if difference.kind == LIMIT_KIND]
    assert (limited.arg("measure"), limited.arg("limit")) == ("comparisons", str(walker.compared_limit))
    assert limited.breaks == (changes.OLD_DATA, changes.NEW_DATA)
    assert f"limit of {walker.compared_limit} parts of schemas compared" in explain(limited.kind, limited.args).en
    decision, _ = _decision(_root_sides(tmp_path, old, new, "#/$defs/T"))
    assert decision == "version-bump"


def test_below_the_limit_of_properties_the_questions_are_all_answered(tmp_path: Path):
    old, new = _beside_a_large_content_model(questions=60, width=200)
    walker, found = _walk(_root_sides(tmp_path, old, new, "#/$defs/T"))
    assert walker._shared.limit_met is None and not any(difference.kind == LIMIT_KIND for difference in found)
    assert sum(difference.kind == "optional-property-added" for difference in found) == 60


def test_inlining_a_widely_used_reference_is_compared_in_full(tmp_path: Path):
    # 300 types, 8 properties each referring to Address; the new side writes Address inline at every use and
    # adds an optional property to it (an open object): 2,400 comparisons in place, more than the pair limit
    # (2 x 601 + 1000), each finding the one addition, same-version.
    address = {"type": "object", "required": ["street"], "properties": {"street": {"type": "string"},
                                                                         "city": {"type": "string"}}}
    extended = json.loads(json.dumps(address))
    extended["properties"]["country"] = {"type": "string"}

    def document(inline: bool) -> dict:
        defs: dict = {} if inline else {"Address": address}
        for index in range(300):
            properties: dict = {f"address{slot}": extended if inline else {"$ref": "#/$defs/Address"}
                                for slot in range(8)}
            if index < 299:
                properties["next"] = {"$ref": f"#/$defs/T{index + 1}"}
            defs[f"T{index}"] = {"type": "object", "properties": properties}
        return {"$schema": "https://json-schema.org/draft/2020-12/schema", "$defs": defs}

    sides = _root_sides(tmp_path, document(False), document(True), "#/$defs/T0")
    walker, found = _walk(sides)
    assert walker._shared.limit_met is None and walker.pair_limit < 2_400
    assert [difference.kind for difference in found] == ["optional-property-added"] * 2_400
    decision, _ = _decision(_root_sides(tmp_path, document(False), document(True), "#/$defs/T0"))
    assert decision == "same-version"


def test_a_limit_told_inside_an_applicator_is_told_at_the_root_as_well(tmp_path: Path):
    # Under `not`, the nesting limit is the inner change of an `applicator-changed`: the root still tells the
    # limit as it is, so a reader looking for it finds it.
    old, new = _in_place_loop("string", False), _in_place_loop("integer", True)
    for document in (old, new):
        document["$defs"]["R"]["properties"]["r"] = {"not": document["$defs"]["R"]["properties"]["r"]}
    walker, found = _walk(_root_sides(tmp_path, old, new, "#/$defs/R"))
    assert any(difference.kind == "applicator-changed" and difference.arg("inner") == LIMIT_KIND
               for difference in found)
    [limited] = [difference for difference in found if difference.kind == LIMIT_KIND]
    assert (limited.path, limited.arg("nesting")) == ("", "true")


def test_a_walk_past_its_limit_of_what_is_compared_tells_no_more(tmp_path: Path, monkeypatch):
    # A tuple whose first position nests X in place again, a hundred deep before any of the 400 leaves beside
    # it is told: on the way back each level reports 400 changed leaves at paths ever longer (4,000 leaves ran
    # out of memory). What the report holds counts, by its paths' length, and past the limit the walk ends.
    monkeypatch.setattr(changes, "COMPARED_BEYOND", 20_000)

    def document(new: bool) -> dict:
        leaf = lambda index: {"type": "string", "maxLength": index + new}  # noqa: E731
        inner = {"prefixItems": [{"$ref": "#/$defs/X"}] + [leaf(index) for index in range(400)], "items": False}
        return {"$schema": "https://json-schema.org/draft/2020-12/schema", "$defs": {
            "X": {"prefixItems": [inner] + [leaf(index) for index in range(400)], "items": False},
            "R": {"type": "object", "properties": {"r": inner if new else {"$ref": "#/$defs/X"}}}}}

    sides = _root_sides(tmp_path, document(False), document(True), "#/$defs/R")
    walker, found = _walk(sides)
    limits = [difference for difference in found if difference.kind == LIMIT_KIND]
    assert limits and limits[-1].arg("measure") == "comparisons" and found[-1] is limits[-1]
    # (a level's parts are charged before it is refused: the count passes the limit by one level at most)
    assert walker._shared.compared < 2 * walker.compared_limit
    assert sum(len(difference.path) for difference in found) < 32 * walker.compared_limit


def test_paths_that_grow_inside_comparisons_in_place_count_by_their_length(tmp_path: Path):
    # A property with a 20,000-character name leads back to X at every level of a hundred comparisons in place,
    # and each level holds a tuple of 300 positions: each position's path repeats the long name once per level.
    # Building those paths was the cost (100,000 characters and 1,500 positions: 18.8 s, 1 GB); each part
    # compared in place now costs its path's length as well, and the walk stops before the paths are built.
    long_name = "n" * 20_000

    def document(new: bool) -> dict:
        positions = {"prefixItems": [{"$ref": "#/$defs/Y"}] + [{"type": "string", "maxLength": index}
                                                                for index in range(300)], "items": False}
        inner = {"type": "object", "properties": {long_name: {"$ref": "#/$defs/X"}, "t": positions}}
        return {"$schema": "https://json-schema.org/draft/2020-12/schema", "$defs": {
            "Y": {"type": "integer" if new else "string"},
            "X": {"type": "object", "properties": {long_name: inner, "t": positions}},
            "R": {"type": "object", "properties": {"r": inner if new else {"$ref": "#/$defs/X"}}}}}

    walker, found = _walk(_root_sides(tmp_path, document(False), document(True), "#/$defs/R"))
    assert walker._shared.limit_met is not None
    assert any(difference.kind == LIMIT_KIND for difference in found)
    assert sum(len(difference.path) for difference in found) < 32 * walker.compared_limit


def test_a_deep_inline_schema_is_compared_in_full_whatever_its_paths(tmp_path: Path):
    # 60 levels of inline objects, 400 properties each, every one made optional: 24,000 changes at paths up to
    # 60 levels deep, none in place. Paths cost nothing extra outside comparisons in place, so the walk compares
    # it all (charged by path length everywhere, it passed its limit and said version-bump).
    def document(new: bool) -> dict:
        top = node = {"type": "object", "properties": {}}
        for _ in range(60):
            properties: dict = {f"field_name_{index:04d}": {"type": "string"} for index in range(400)}
            child = {"type": "object", "properties": {}}
            properties["nested_child_object"] = child
            node["properties"] = properties
            if not new:
                node["required"] = sorted(properties)
            node = child
        return {"$schema": "https://json-schema.org/draft/2020-12/schema", "$defs": {"Deep": top}}

    walker, found = _walk(_root_sides(tmp_path, document(False), document(True), "#/$defs/Deep"))
    assert walker._shared.limit_met is None
    assert len(found) == 60 * 401 and {difference.kind for difference in found} == {"required-made-optional"}


def test_what_the_report_holds_counts_towards_the_limit_by_its_size(tmp_path: Path):
    """Each of T0's 300 properties, a reference to T0, becomes a union of it and null: each comparison in place
    of T0 with its union nests another over all 300, and each reports an added alternative. A reported difference
    counts `REPORTED_COUNTS` towards the limit of what is compared (its entry is hundreds of bytes), so the
    report ends at a size the limit bounds: before, a 1 MB pair of this kind reported 618,000 changes."""
    def document(new: bool) -> dict:
        reference = {"$ref": "#/$defs/T0"}
        properties = {f"p{index}": {"anyOf": [reference, {"type": "null"}]} if new else reference
                      for index in range(300)}
        return {"$schema": "https://json-schema.org/draft/2020-12/schema",
                "$defs": {"T0": {"type": "object", "properties": {**properties, "x": {"type": "string"}}}}}

    walker, found = _walk(_sides(tmp_path, document(False), document(True)))
    assert walker._shared.limit_met == "work"
    assert sum(1 for difference in found if difference.kind == LIMIT_KIND) == 1
    assert len(found) <= walker.compared_limit // changes.REPORTED_COUNTS + 1
    assert len(found) < 50_000  # (counted as one comparison each, this pair reported 90,300)
