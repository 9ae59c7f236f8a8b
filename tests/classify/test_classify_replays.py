"""Roots that reach the same pairs of named types: each pair's frame is compared once per comparison, and
replayed for the other roots, with exactly the report each root gets when it is classified alone.

Every root's report lists every change it reaches, so each root is walked on its own. Many roots reaching
one large recursive component (an OpenAPI description whose bodies all reach it, `--roots all`) compared
every pair of the component again per root: 1,000 roots took 31 s.
"""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import given, settings

from govern.classify import changes
from govern.classify.classify import classify, classify_root, with_deep_stack
from govern.classify.changes import Side, Walker
from govern.model.graph import TypeGraph
from govern.model.nodes import Root
from govern.sources.jsonschema import load_jsonschema

from test_classify_walk_work import _ring, graph_pairs  # noqa: E402 - the folder's helpers

PROFILE = settings.get_profile("classify")


def _report(results) -> list:
    """Each root's entry of the JSON contract, with the route the walk took to each change."""
    return [(result.to_json(), [change.root_pointer() for change in result.changes]) for result in results]


def _alone(old: TypeGraph, new: TypeGraph, routes: bool = True) -> list:
    """Each root classified on its own, nothing shared between them."""
    old_side, new_side = Side.of(old), Side.of(new)
    return with_deep_stack(lambda: [classify_root(
        root_id, (old_side, old.roots[root_id].type_key, old.roots[root_id].role),
        (new_side, new.roots[root_id].type_key, new.roots[root_id].role), routes=routes)
        for root_id in sorted(new.roots)])


def _with_roots(graph: TypeGraph, roots: dict[str, str]) -> TypeGraph:
    return TypeGraph(source=graph.source, types=dict(graph.types),
                     roots={f"s:{name}": Root(f"s:{name}", key, "record") for name, key in roots.items()})


@settings(PROFILE, max_examples=80)
@given(pair=graph_pairs())
def test_roots_classified_together_report_what_each_reports_alone(pair):
    # Every type a root, and two more roots on the first (met again from the top, and in another order).
    roots = {"A": "T0", "B": "T1", "C": "T2", "D": "T0", "E": "T1"}
    old, new = (_with_roots(graph, roots) for graph in pair)
    together = classify([old], [new])
    assert _report(together) == _report(_alone(old, new))


class _Counting(Walker):
    entered = 0

    def _compare_entered(self, old, new, effect=None):
        _Counting.entered += 1
        return super()._compare_entered(old, new, effect)


def _ring_graphs(tmp_path: Path, length: int, roots: int, changed_at: int | None = None) -> tuple[TypeGraph, TypeGraph]:
    """A ring of `length` types (see `_ring`), the last (or `changed_at`) gaining a property, with a root on each of
    its first `roots` types; a source named after the folder."""
    tmp_path.mkdir(parents=True, exist_ok=True)
    graphs = []
    for name, changed in (("old", None), ("new", length - 1 if changed_at is None else changed_at)):
        path = tmp_path / f"{name}.schema.json"
        path.write_text(json.dumps(_ring(length, changed)), encoding="utf-8")
        graphs.append(load_jsonschema(tmp_path.name, path, {f"R{index}": (f"#/$defs/T{index}", "record")
                                                            for index in range(roots)}, tmp_path))
    return graphs[0], graphs[1]


def test_each_pair_of_a_component_many_roots_reach_is_compared_once(tmp_path: Path, monkeypatch):
    old, new = _ring_graphs(tmp_path, 40, 10)
    monkeypatch.setattr(changes, "Walker", _Counting)
    monkeypatch.setattr("govern.classify.classify.Walker", _Counting)
    _Counting.entered = 0
    results = classify([old], [new])
    # 10 roots, each reaching all 40 pairs of the ring: each pair's frame runs once, not once per root
    # (the root's own pair is compared from the top, not as an entered frame)
    assert _Counting.entered <= 40
    assert [len(result.changes) for result in results] == [1] * 10
    assert {change.location for result in results for change in result.changes} == {"T39#/properties/note"}
    # and each root has the route of its own walk, as alone
    routes = [result.changes[0].root_pointer() for result in results]
    assert len(set(routes)) == 10
    assert _report(results) == _report(_alone(old, new))


def test_a_root_that_meets_a_limit_after_replaying_is_walked_again_without_replays(tmp_path: Path, monkeypatch):
    """Near a limit, a replayed frame's counts (recorded where another root asked its questions first) need not
    be what the root's own walk would count: such a walk is made again, as it would be alone."""
    graphs = []
    for name, changed_at in (("old", None), ("new", 19)):
        document = _ring(20, changed_at)  # T0..T19, the last gaining a property
        for index in range(30):  # and a chain C0 -> ... -> C29 -> T0 leading into it
            following = f"#/$defs/C{index + 1}" if index < 29 else "#/$defs/T0"
            document["$defs"][f"C{index}"] = {"type": "object", "properties": {"next": {"$ref": following}}}
        path = tmp_path / f"{name}.schema.json"
        path.write_text(json.dumps(document), encoding="utf-8")
        graphs.append(load_jsonschema("s", path, {"A": ("#/$defs/T0", "record"), "B": ("#/$defs/C0", "record")},
                                      tmp_path))
    old, new = graphs
    # 35 pairs entered at most: A's walk (the ring's 20) meets no limit and keeps its frames; B's (the chain's
    # 30, then the ring's frames replayed) meets it, and is walked again without them.
    monkeypatch.setattr(changes, "PAIRS_BEYOND", 0)
    monkeypatch.setattr(changes, "PAIRS_PER_TYPE", 0.35)
    kept = []
    keep = Walker.keep_frames
    monkeypatch.setattr(Walker, "keep_frames", lambda self: kept.append(keep(self)) or kept[-1])
    together = classify([old], [new])
    assert kept == [True, False]
    assert [any(change.kind == "comparison-limit-reached" for change in result.changes) for result in together] == \
        [False, True]
    assert _report(together) == _report(_alone(old, new))


def test_graphs_of_several_sources_keep_their_frames_apart(tmp_path: Path):
    """Two sources with the same types, changed in different places: each pair of graphs has frames of its own."""
    first = _ring_graphs(tmp_path / "first", 12, 3, changed_at=11)
    second = _ring_graphs(tmp_path / "second", 12, 3, changed_at=5)
    together = classify([first[0], second[0]], [first[1], second[1]])
    alone = _alone(*first) + _alone(*second)
    assert _report(together) == _report(sorted(alone, key=lambda result: result.root))
    assert {change.location for result in together for change in result.changes} == {
        "T11#/properties/note", "T5#/properties/note"}


def _flip_graphs(tmp_path: Path, chain: int, added: int) -> tuple[TypeGraph, TypeGraph]:
    """F gains `added` optional properties, each asking which ways it breaks (a walk of its own). Root A reaches
    F under `not` and then plainly, the second time taking each answer from the first; root B reaches F plainly
    at the end of a chain of `chain` types, asking each question itself when walked alone."""
    graphs = []
    for name in ("old", "new"):
        properties: dict = {"x": {"type": "string"}}
        if name == "new":
            properties.update({f"y{index:05d}": {"type": "string", "maxLength": index + 1} for index in range(added)})
        defs = {"F": {"type": "object", "properties": properties},
                "A": {"type": "object", "properties": {"a": {"not": {"$ref": "#/$defs/F"}}, "b": {"$ref": "#/$defs/F"}}},
                "B": {"type": "object", "properties": {"n": {"$ref": "#/$defs/C0"}}}}
        for index in range(chain):
            following = f"#/$defs/C{index + 1}" if index + 1 < chain else "#/$defs/F"
            defs[f"C{index}"] = {"type": "object", "properties": {"n": {"$ref": following}}}
        path = tmp_path / f"{name}.schema.json"
        path.write_text(json.dumps({"$schema": "https://json-schema.org/draft/2020-12/schema", "$defs": defs}),
                        encoding="utf-8")
        graphs.append(load_jsonschema("s", path, {"A": ("#/$defs/A", "record"), "B": ("#/$defs/B", "record")},
                                      tmp_path))
    return graphs[0], graphs[1]


def test_a_replayed_frame_counts_the_answers_it_took_from_others_as_if_it_asked_them(tmp_path: Path):
    """A's plain frame of F took its answers from A's frame of F under `not`, so it counted nothing for them when
    recorded. Replayed for B, it must still count them: B alone asks them itself and meets the pair limit
    (a version-bump), which counting nothing for them would hide (a same-version)."""
    old, new = _flip_graphs(tmp_path, 50, 1190)
    together, alone = classify([old], [new]), _alone(old, new)
    assert [result.decision for result in alone] == ["version-bump", "version-bump"]
    assert any(change.kind == "comparison-limit-reached" for change in alone[1].changes)
    assert _report(together) == _report(alone)


def test_a_frame_that_met_an_answer_cut_short_is_not_replayed(tmp_path: Path, monkeypatch):
    """Z's content model becomes W and W's becomes Z: telling the way W breaks asks about Z, which asks about W
    again, and that answer is given at once (both ways), cut short. What answering such a question costs depends on
    where it is first asked, so a frame that met one is not replayed: B alone meets the limit of what is compared
    in P, and so does B after A."""
    graphs = []
    for name in ("old", "new"):
        extra = {f"k{index}": {"type": "string"} for index in range(50)}
        if name == "old":
            z = {"type": "object", "properties": {"z": {"type": "string"}, "q": {"$ref": "#/$defs/W"}}}
            w = {"type": "object", "properties": {**extra, "r": {"$ref": "#/$defs/Z"}}}
        else:
            z = {"type": "object", "properties": {"z": {"type": "string"}}, "additionalProperties": {"$ref": "#/$defs/W"}}
            w = {"type": "object", "properties": extra, "additionalProperties": {"$ref": "#/$defs/Z"}}
        p = {"type": "object", "properties": {**{f"m{index}": {"type": "string"} for index in range(75)},
                                              "zz": {"type": "integer" if name == "new" else "string"}}}
        defs = {"Z": z, "W": w, "P": p,
                "A": {"type": "object", "properties": {"a": {"$ref": "#/$defs/Z"}, "b": {"$ref": "#/$defs/W"}}},
                "B": {"type": "object", "properties": {"b": {"$ref": "#/$defs/W"}, "p": {"$ref": "#/$defs/P"}}}}
        path = tmp_path / f"{name}.schema.json"
        path.write_text(json.dumps({"$schema": "https://json-schema.org/draft/2020-12/schema", "$defs": defs}),
                        encoding="utf-8")
        graphs.append(load_jsonschema("s", path, {"A": ("#/$defs/A", "record"), "B": ("#/$defs/B", "record")},
                                      tmp_path))
    old, new = graphs
    monkeypatch.setattr(changes, "PAIRS_PER_TYPE", 0)
    monkeypatch.setattr(changes, "PAIRS_BEYOND", 1000)
    monkeypatch.setattr(changes, "COMPARED_PER_NODE", 0)
    monkeypatch.setattr(changes, "COMPARED_BEYOND", 300)
    together, alone = classify([old], [new]), _alone(old, new)
    assert any(change.kind == "comparison-limit-reached" for change in alone[1].changes)
    assert _report(together) == _report(alone)


def test_without_routes_the_report_is_the_same_and_keeps_no_route(tmp_path: Path):
    """Only witness documents need how the walk reached a change; `diff` without `--witness` and `verify` do
    not keep it, so many roots reaching one component do not hold a route per root."""
    old, new = _ring_graphs(tmp_path, 40, 10)
    with_routes, without = classify([old], [new]), classify([old], [new], routes=False)
    assert [result.to_json() for result in without] == [result.to_json() for result in with_routes]
    assert all(change.place is None and change.root_pointer() == change.path
               for result in without for change in result.changes)
    assert all(change.place is not None for result in with_routes for change in result.changes)
