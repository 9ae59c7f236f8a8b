"""Past what the roots' own walks may enter in all, the roots left are walked together (`SharedWalk`): every pair of
named types is entered once for all of them, and each root is told what it reaches in the graph of frames.

Each root walked on its own enters every pair it reaches, so many roots reaching one large recursive component
cost the product of the two: 1,000 roots of 1,000 types entered a million frames (1.6 s), 10,000 would take
minutes. Walked together, each root reaches the same changes with the same directions and decisions; only the
arguments that say which route met a change (the alternative it was entered through, the applicators it is
under) may come from another root's route.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path
from unittest.mock import patch

import pytest
from hypothesis import given, settings, strategies as st

from govern.classify import changes
from govern.classify import classify as classify_module
from govern.classify.changes import FrameGraph, Walker, strongly_connected
from govern.classify.classify import classify
from govern.classify.report import diff_json, diff_text
from govern.model.graph import TypeGraph
from govern.model.nodes import Root
from govern.sources.jsonschema import load_jsonschema

from test_classify_replays import _alone as _alone_with_routes, _ring_graphs, _with_roots  # noqa: E402
from test_classify_walk_work import KEYS, graph_pairs  # noqa: E402

PROFILE = settings.get_profile("classify")


def _from_route(name: str) -> bool:
    """Whether a change takes an argument from the route that met it: the alternative it was entered through, the
    applicators it is under (their keywords, and the kinds inside them, see `wrapped_args`)."""
    return name in ("alternative", "keyword", "applicators_beyond") or name.startswith("inner")


def _alone(old: TypeGraph, new: TypeGraph) -> list:
    return _alone_with_routes(old, new, routes=False)


def _walked_together(old: TypeGraph, new: TypeGraph, routes: bool = False, own_walks: int = -10 ** 9) -> list:
    """The roots of a pair of graphs with several roots walked together once their own walks entered `own_walks`
    pairs in all (by default none: every root is walked together)."""
    with patch.object(classify_module, "OWN_WALKS_PER_TYPE", 0), \
            patch.object(classify_module, "OWN_WALKS_BEYOND", own_walks):
        return classify([old], [new], routes=routes)


def _what(change) -> tuple:
    """A change without the arguments its route gives it."""
    return (change.type, change.path, change.kind, change.rule, change.decision, change.breaks,
            tuple((name, value) for name, value in change.args if not _from_route(name)))


def _limited(result) -> bool:
    return any(change.kind == "comparison-limit-reached" for change in result.changes)


@settings(PROFILE, max_examples=150)
@given(pair=graph_pairs(), own_walks=st.sampled_from([-10 ** 9, 1, 3]))
def test_roots_walked_together_reach_what_each_reaches_alone(pair, own_walks):
    # (with own walks first, the walk together replays the frames they recorded)
    roots = {"A": "T0", "B": "T1", "C": "T2", "D": "T0", "E": "T1"}
    old, new = (_with_roots(graph, roots) for graph in pair)
    together, alone = _walked_together(old, new, own_walks=own_walks), _alone(old, new)
    assert [result.root for result in together] == [result.root for result in alone]
    # (once any root's walk meets a limit, the frames the walk together ends after it are not trusted to be whole,
    # and the roots that reach them are walked on their own)
    any_limited = any(_limited(result) for result in together)
    for shared, own in zip(together, alone):
        if _limited(own) or _limited(shared):
            # (a limit is met at another point of another walk; a root that reaches a frame the walk together cut
            # short at a limit is walked on its own)
            continue
        if own_walks < 0 and not any_limited:
            assert shared.shared_walk == (own.decision != "unchanged")
        assert shared.decision == own.decision
        assert Counter(map(_what, shared.changes)) == Counter(map(_what, own.changes))


@settings(PROFILE, max_examples=150)
@given(pair=graph_pairs(), roles=st.lists(st.sampled_from(["record", "event", "envelope", "header"]), min_size=5,
                                           max_size=5),
       keys=st.lists(st.sampled_from(list(KEYS)), min_size=5, max_size=5), own_walks=st.sampled_from([-10 ** 9, 1, 3]))
def test_roots_of_every_role_walked_together_are_decided_as_alone(pair, roles, keys, own_walks):
    """Event roots name the changes inside them, and an envelope judges a change outside them as its own
    structure: a type reached both ways is compared along both, together as alone."""
    graphs = []
    for graph in pair:
        roots = {f"s:R{index}": Root(f"s:R{index}", key, role) for index, (key, role) in enumerate(zip(keys, roles))}
        events: dict[str, str] = {}
        for root in sorted(roots.values(), key=lambda root: root.id):
            if root.role == "event":
                events.setdefault(root.type_key, root.id)
        graphs.append(TypeGraph(source=graph.source, types=dict(graph.types), roots=roots, event_roots=events))
    old, new = graphs
    together, alone = _walked_together(old, new, own_walks=own_walks), _alone(old, new)
    for shared, own in zip(together, alone):
        if _limited(own) or _limited(shared):
            continue
        assert shared.decision == own.decision
        assert Counter(map(_what, shared.changes)) == Counter(map(_what, own.changes))


def _envelope_graphs(tmp_path: Path, name: str) -> tuple[TypeGraph, TypeGraph]:
    """An envelope whose own keywords refer to an event root's type, and whose property `name` refers to it as
    well; the event root gains an optional property."""
    graphs = []
    for side, extra in (("old", False), ("new", True)):
        event: dict = {"type": "object", "properties": {"f": {"type": "string"}}}
        if extra:
            event["properties"]["g"] = {"type": "string"}
        document = {"$schema": "https://json-schema.org/draft/2020-12/schema", "$defs": {
            "Ev": event, "Env": {"type": "object", "$ref": "#/$defs/Ev", "properties": {name: {"$ref": "#/$defs/Ev"}}}}}
        path = tmp_path / f"{side}.schema.json"
        path.write_text(json.dumps(document), encoding="utf-8")
        graphs.append(load_jsonschema("s", path, {"Ev": ("#/$defs/Ev", "event"), "Z": ("#/$defs/Env", "envelope")},
                                      tmp_path))
    return graphs[0], graphs[1]


@pytest.mark.parametrize("name", ["a", "b", "c", "d", "e", "f", "g", "h"])
def test_an_envelope_is_decided_whatever_the_names_that_lead_to_an_event_root(tmp_path: Path, name: str):
    """The envelope meets the event root's type at its own keywords (its own structure: a version-bump) and
    below its property (inside the event root: its own rules). Its walk entered the type once, along whichever
    route came first in the order of the names (the operands' digests), so the decision depended on the
    property's name."""
    old, new = _envelope_graphs(tmp_path, name)
    envelope = next(result for result in _alone(old, new) if result.root == "s:Z")
    assert envelope.decision == "version-bump"
    assert sorted((change.rule, dict(change.args).get("event")) for change in envelope.changes) == [("header-or-envelope-changed", None),
                                                      ("optional-property-added", "s:Ev")]


@pytest.mark.parametrize("role", ["record", "envelope"])
def test_a_root_met_again_below_itself_is_not_walked_on_from_there(tmp_path: Path, role: str):
    """R refers to an event root's type A among its own keywords (at the top: its own structure), and A leads back
    to R. Below R, that reference is inside the event root, and a walk going on from there would tell A's change
    once more, named after it; R's own walk never enters R again, nor is it told so together."""
    graphs = []
    for side, extra in (("old", False), ("new", True)):
        event: dict = {"type": "object", "properties": {"p": {"$ref": "#/$defs/R"}, "v": {"type": "string"}}}
        if extra:
            event["properties"]["w"] = {"type": "string"}
        document = {"$schema": "https://json-schema.org/draft/2020-12/schema", "$defs": {
            "R": {"$ref": "#/$defs/A", "properties": {"k": {"type": "string"}}}, "A": event}}
        path = tmp_path / f"{side}.schema.json"
        path.write_text(json.dumps(document), encoding="utf-8")
        graphs.append(load_jsonschema("s", path, {"R": ("#/$defs/R", role), "E": ("#/$defs/A", "event")},
                                      tmp_path))
    old, new = graphs
    together, alone = _walked_together(old, new), _alone(old, new)
    assert [result.shared_walk for result in together] == [True, True]
    assert [(result.decision, list(map(_what, result.changes))) for result in together] == [
        (result.decision, list(map(_what, result.changes))) for result in alone]


def test_many_roots_on_one_component_enter_each_pair_once_past_their_own_walks(tmp_path: Path, monkeypatch):
    # 60 roots on a ring of 60 types, the last changed: walked alone, 3,600 pairs; their own walks may enter
    # 2 per type of the two graphs and 1,000 more (1,240), and the roots left are walked together.
    old, new = _ring_graphs(tmp_path, 60, 60)
    entered = []
    walk = Walker._compare_entered
    monkeypatch.setattr(Walker, "_compare_entered", lambda self, *pair: entered.append(1) or walk(self, *pair))
    together = classify([old], [new], routes=False)
    own = [result for result in together if not result.shared_walk]
    assert 1 <= len(own) < 60 and all(result.shared_walk for result in together[len(own):])
    assert len(entered) <= 1240 + 60 + 60  # (the roots' own walks; then each pair once, and each root's own frame)
    assert [(result.decision, [change.location for change in result.changes]) for result in together] == [
        (result.decision, [change.location for change in result.changes]) for result in _alone(old, new)]
    assert {change.location for result in together for change in result.changes} == {
        "R59#/properties/note", "/properties/note"}  # (the type is named after the root on it)


def test_the_report_says_which_roots_were_walked_together(tmp_path: Path):
    old, new = _ring_graphs(tmp_path, 12, 4)
    together = _walked_together(old, new)
    entries = json.loads(diff_json(together))["roots"]
    assert [entry.get("shared_walk") for entry in entries] == [True] * 4
    assert json.loads(diff_json(classify([old], [new])))["roots"][0].get("shared_walk") is None
    text = diff_text(together)
    assert text.count("walked with other roots: a change below a named type is told as that walk first met it") == 4


def test_roots_whose_changes_keep_their_routes_are_walked_on_their_own(tmp_path: Path):
    """A witness document follows the route from its own root: with routes, every root is walked on its own."""
    old, new = _ring_graphs(tmp_path, 12, 4)
    together = _walked_together(old, new, routes=True)
    assert not any(result.shared_walk for result in together)
    assert len({result.changes[0].root_pointer() for result in together}) == 4


def _chain_graphs(tmp_path: Path, length: int, chains: tuple[str, ...] = ("C",)) -> tuple[TypeGraph, TypeGraph]:
    """Chains C0 -> C1 -> ... of `length` types (one per letter of `chains`), each type gaining an optional
    property, a root on each (R00, R01, ... in the order of the chains)."""
    graphs = []
    for name, extra in (("old", False), ("new", True)):
        defs, roots = {}, {}
        for letter in chains:
            for index in range(length):
                properties: dict = {"v": {"type": "string"}}
                if index + 1 < length:
                    properties["next"] = {"$ref": f"#/$defs/{letter}{index + 1}"}
                if extra:
                    properties["note"] = {"type": "string"}
                defs[f"{letter}{index}"] = {"type": "object", "properties": properties}
                roots[f"R{len(roots):02}"] = (f"#/$defs/{letter}{index}", "record")
        path = tmp_path / f"{name}.schema.json"
        path.write_text(json.dumps({"$schema": "https://json-schema.org/draft/2020-12/schema", "$defs": defs}),
                        encoding="utf-8")
        graphs.append(load_jsonschema("s", path, roots, tmp_path))
    return graphs[0], graphs[1]


@pytest.mark.parametrize("limits", [{"PAIRS_PER_TYPE": 0, "PAIRS_BEYOND": 4},
                                    {"COMPARED_PER_NODE": 0, "COMPARED_BEYOND": 5 * changes.REPORTED_COUNTS}])
def test_a_root_reaching_a_frame_a_limit_cut_short_is_walked_on_its_own(tmp_path: Path, monkeypatch, limits):
    """The walk together has the limits of one walk. A root whose frames it compared to their end before any
    limit is told them (its own walk would count no more); one that reaches a frame cut short, or a pair left
    unentered, is walked on its own: every root is told what it is told alone, limits included."""
    old, new = _chain_graphs(tmp_path, 30)
    for name, value in limits.items():
        monkeypatch.setattr(changes, name, value)
    together, alone = _walked_together(old, new), _alone(old, new)
    assert [(result.decision, list(map(_what, result.changes))) for result in together] == [
        (result.decision, list(map(_what, result.changes))) for result in alone]
    assert any(_limited(result) for result in alone)
    # (R00, walked first, reaches the whole chain, beyond the limit: it and every root after it are walked alone)
    assert not any(result.shared_walk for result in together)


def test_roots_whose_frames_the_walk_together_compared_to_their_end_are_told_them(tmp_path: Path, monkeypatch):
    # Two chains of 30 types: the first's roots come first and reach only it; the second is cut by the limit.
    old, new = _chain_graphs(tmp_path, 30, chains=("A", "B"))
    monkeypatch.setattr(changes, "PAIRS_PER_TYPE", 0)
    monkeypatch.setattr(changes, "PAIRS_BEYOND", 40)
    together, alone = _walked_together(old, new), _alone(old, new)
    assert [(result.decision, list(map(_what, result.changes))) for result in together] == [
        (result.decision, list(map(_what, result.changes))) for result in alone]
    assert [result.shared_walk for result in together] == [True] * 30 + [False] * 30


def _reaches(successors: list[list[int]], start: int) -> set[int]:
    seen, stack = {start}, [start]
    while stack:
        for successor in successors[stack.pop()]:
            if successor >= 0 and successor not in seen:
                seen.add(successor)
                stack.append(successor)
    return seen


@settings(PROFILE, max_examples=200)
@given(st.integers(1, 14).flatmap(lambda count: st.lists(
    st.lists(st.integers(-1, count - 1), max_size=4), min_size=count, max_size=count)))
def test_strongly_connected_components_are_the_nodes_that_reach_each_other(successors):
    component, count = strongly_connected(successors)
    reach = [_reaches(successors, node) for node in range(len(successors))]
    assert sorted(set(component)) == list(range(count))
    for node, reached in enumerate(reach):
        for other in range(len(successors)):
            assert (component[node] == component[other]) == (other in reached and node in reach[other])
        # a component's successors are numbered before it
        assert all(component[successor] <= component[node] for successor in successors[node] if successor >= 0)


def test_strongly_connected_components_of_a_long_chain_need_no_recursion():
    count = 200_000
    component, found = strongly_connected([[node + 1] if node + 1 < count else [0] for node in range(count)])
    assert found == 1


def test_what_a_top_reaches_is_told_through_the_components():
    """`FrameGraph.reached` against a walk from each top: the nodes that yielded something, and whether one cut
    short (or a pair never entered) is reached."""
    rng = random.Random(7)
    for _ in range(200):
        graph = FrameGraph()
        count = rng.randint(1, 12)
        keys = [("k", index) for index in range(count)]
        for key in keys:
            graph.add(key)
        for node in range(count):
            graph.items[node] = ["x"] * rng.choice((0, 0, 1, 2))
            graph.complete[node] = rng.random() > 0.15
            graph.successors[node] = [rng.choice(keys) if rng.random() > 0.1 else ("never entered",)
                                      for _ in range(rng.randint(0, 3))]
        successors = [[graph.nodes.get(key, -1) for key in keys_] for keys_ in graph.successors]
        tops = list(range(count))
        for top, (nodes, cut) in zip(tops, graph.reached(tops)):
            reached = _reaches(successors, top)
            assert nodes == sorted(node for node in reached if graph.items[node])
            assert cut == any(not graph.complete[node] or -1 in successors[node] for node in reached)
