"""Questions the walk asks about a node (whether it guards names, which JSON types it admits, whether a pattern
matches a name) are answered once per node, and a difference under many applicators stays small.

Each shape here was found slow or crashing: the answers were computed anew along every route, so a chain of
types reached along two routes per level was asked a number of times doubling with every level (24 levels:
18 s); a difference under a thousand `not`s named every one of them, its arguments growing with the square
of the depth, and telling it recursed past the interpreter's limit (a traceback); more patterns than the
regular expression engines cache were compiled again at every search (600 patterns, 600 names: 44 s).
"""

from __future__ import annotations

from collections import Counter

import json
from pathlib import Path

from click.testing import CliRunner

from govern import patterns
from govern.classify import changes
from govern.cli import cli


def _diff(tmp_path: Path, old: dict, new: dict) -> dict:
    (tmp_path / "old.json").write_text(json.dumps(old), encoding="utf-8")
    (tmp_path / "new.json").write_text(json.dumps(new), encoding="utf-8")
    result = CliRunner().invoke(cli, ["diff", "--format", "json", str(tmp_path / "old.json"),
                                      str(tmp_path / "new.json")])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def _two_routes(levels: int, changed: bool, root: dict) -> dict:
    """T0 .. T(levels-1), each reaching the next along two routes: plainly, and through an intersection."""
    defs = {}
    for index in range(levels):
        following = {"$ref": f"#/$defs/T{index + 1}"}
        defs[f"T{index}"] = {"anyOf": [following, {"allOf": [following, {"type": "object"}]}]}
    defs[f"T{levels}"] = {"type": "object", "properties": {"x": {"type": "string"}}}
    return {**root, "$defs": defs}


def test_whether_an_operand_guards_names_is_asked_once_per_type(tmp_path: Path, monkeypatch):
    asked = []
    guards = changes._own_guard
    monkeypatch.setattr(changes, "_own_guard", lambda side, node: asked.append(node) or guards(side, node))

    def document(changed: bool) -> dict:
        root = {"allOf": [{"$ref": "#/$defs/T0"},
                          {"type": "object", "properties": {"v": {"type": "integer" if changed else "string"}}}],
                "unevaluatedProperties": False}
        return _two_routes(40, changed, root)

    found = _diff(tmp_path, document(False), document(True))
    assert [change["kind"] for change in found["roots"][0]["changes"]] == ["type-changed"]
    # 40 levels, two routes each: answered per node (each type, each inline node), not per route (2^40)
    assert len(asked) < 300


def test_which_json_types_a_node_admits_is_asked_once_per_node_and_depth(tmp_path: Path, monkeypatch):
    asked = []
    types_at = changes._json_types_at
    monkeypatch.setattr(changes, "_json_types_at",
                        lambda side, node, depth, told: asked.append(node) or types_at(side, node, depth, told))

    def document(widened: bool) -> dict:
        alternatives = [{"$ref": "#/$defs/T0"}, {"type": "string"}] + ([{"type": "number"}] if widened else [])
        return _two_routes(40, False, {"type": "object", "properties": {"v": {"oneOf": alternatives}}})

    found = _diff(tmp_path, document(False), document(True))
    assert [change["kind"] for change in found["roots"][0]["changes"]] == ["alternative-added"]
    # Each node (four per level) at each depth it is reached at, which the answer depends on below the cut at
    # 64 levels: linear in the chain, where every route (2^40) was asked before.
    assert len(asked) <= 4 * 41 * 66


def _under_nots(levels: int, changed: bool) -> dict:
    defs = {f"N{index}": {"type": "object", "properties": {"a": {"not": {"$ref": f"#/$defs/N{index + 1}"}}}}
            for index in range(levels)}
    defs[f"N{levels}"] = {"type": "integer" if changed else "string"}
    return {"$ref": "#/$defs/N0", "$defs": defs}


def test_a_difference_under_many_applicators_names_the_innermost_and_counts_the_others(tmp_path: Path):
    found = _diff(tmp_path, _under_nots(1000, False), _under_nots(1000, True))
    [change] = found["roots"][0]["changes"]
    assert change["kind"] == "applicator-changed"
    named = [name for name in change["args"] if name.replace("inner_", "") == "inner"]
    assert len(named) == changes.APPLICATORS_NAMED
    assert change["args"]["applicators_beyond"] == str(1000 - changes.APPLICATORS_NAMED)
    # a thousand `not`s reverse a type change's direction an even number of times: both ways all the same
    assert change["breaks"] == ["old-data-new-readers", "new-data-old-readers"]
    assert change["text"]["en"].startswith(f"under {1000 - changes.APPLICATORS_NAMED} more applicators, then under not: ")
    assert change["text"]["en"].count("under not: ") == changes.APPLICATORS_NAMED
    assert "层应用关键字之内" in change["text"]["zh"]


def test_a_difference_under_few_applicators_names_each_of_them(tmp_path: Path):
    found = _diff(tmp_path, _under_nots(3, False), _under_nots(3, True))
    [change] = found["roots"][0]["changes"]
    assert "applicators_beyond" not in change["args"]
    assert change["text"]["en"].startswith("under not: under not: under not: ")


def test_each_pattern_is_compiled_once_however_many_names_it_is_searched_in(tmp_path: Path, monkeypatch):
    import regex

    compiled = []
    compile_ = regex.compile
    monkeypatch.setattr(regex, "compile", lambda pattern, *rest, **options: compiled.append(pattern)
                        or compile_(pattern, *rest, **options))
    monkeypatch.setattr(patterns, "_compiled", {})
    count = 700  # more patterns than `re` and `regex` keep compiled

    def document(named: bool) -> dict:
        schema = {"type": "object", "patternProperties": {f"^x{index}_": {"type": "string"} for index in range(count)},
                  "additionalProperties": False}
        if named:  # each name claimed by one pattern, and searched by it alone (see PatternSet)
            schema["properties"] = {f"x{index}_a": {"type": "string"} for index in range(count)}
        return schema

    found = _diff(tmp_path, document(False), document(True))
    assert len(found["roots"][0]["changes"]) == count
    # (at most twice: once told readable without being kept, once when searched on its own)
    assert set(compiled) == {f"^x{index}_" for index in range(count)}
    assert max(Counter(compiled).values()) <= 2


def test_one_applicator_beyond_those_named_is_told_in_the_singular(tmp_path: Path):
    levels = changes.APPLICATORS_NAMED + 1
    found = _diff(tmp_path, _under_nots(levels, False), _under_nots(levels, True))
    [change] = found["roots"][0]["changes"]
    assert change["args"]["applicators_beyond"] == "1"
    assert change["text"]["en"].startswith("under 1 more applicator, then under not: ")
    # 33 `not`s: an odd number of reversals of a type change, which breaks both ways either way
    assert change["breaks"] == ["old-data-new-readers", "new-data-old-readers"]


# Whether an intersection operand guards names, asked of a chain of types as long as the source: each level a
# union or an intersection naming the next type. Asked by recursing, every level took a frame (the Python source
# stopped with RecursionError; compiled, each took C stack, so a long enough chain would end the process).

def _chain_side(levels: int, last, through_intersections: bool = False):
    from govern.model.graph import TypeGraph
    from govern.model.nodes import Alternative, Intersection, NamedType, Object, OPEN, Primitive, Ref, Union

    types = {}
    for index in range(levels):
        following = Ref(f"T{index + 1}")
        node = Intersection((Object((), OPEN), following)) if through_intersections and index % 2 \
            else Union((Alternative(following), Alternative(Primitive("null"))))
        types[f"T{index}"] = NamedType(f"T{index}", f"T{index}", node)
    types[f"T{levels}"] = NamedType(f"T{levels}", f"T{levels}", last)
    return changes.Side(TypeGraph("s", types, {}))


def test_a_chain_of_types_as_long_as_the_source_is_asked_without_recursing():
    from govern.model.nodes import NEVER, OPEN, Map, Object, Primitive, Ref

    levels = 30_000  # (thirty times the interpreter's default recursion limit)
    for last, guards in ((Object((), NEVER), True), (Map(Primitive("string")), True), (Object((), OPEN), False),
                         (Primitive("string"), False)):
        for through_intersections in (False, True):
            side = _chain_side(levels, last, through_intersections)
            assert changes.guards_names(side, Ref("T0")) is guards
            # every type of the chain was answered on the way, and is answered from what was kept
            assert all(side._guards[f"T{index}"][1] is guards for index in range(0, levels, 997))


def _guards_by_definition(side, node) -> bool:
    """What guarding names means, written as the recursion it is (for small graphs)."""
    from govern.model.nodes import Intersection, Map, Object, Opaque, Union

    node = side.resolve(node)
    if isinstance(node, Object):
        return changes.content_model_name(node.additional) != "open" or changes.restricts_names(node.constraints)
    if isinstance(node, Map):
        return True
    if isinstance(node, Opaque):
        return changes.restricts_names(node.constraints)
    if isinstance(node, Union):
        return any(_guards_by_definition(side, alternative.node) for alternative in node.alternatives)
    if isinstance(node, Intersection):
        return any(_guards_by_definition(side, operand) for operand in node.operands)
    return False


def test_every_node_is_answered_as_the_definition_says():
    """Graphs of unions and intersections over one another and over leaves that guard names or not, without loops
    of in-place references (readers refuse those): every node asked, in every order, as the recursion answers."""
    import random

    from govern.model.graph import TypeGraph
    from govern.model.nodes import (
        NEVER, OPEN, Alternative, Intersection, Map, NamedType, Object, Opaque, Primitive, Ref, Union,
    )

    leaves = [Object((), NEVER), Object((), OPEN), Map(Primitive("string")), Primitive("integer"), OPEN,
              Opaque((("propertyNames", '{"maxLength":3}'),)), Object((), OPEN, (), (("propertyNames", "{}"),))]
    for seed in range(200):
        rng = random.Random(seed)
        count = rng.randint(1, 12)
        types = {}
        for index in reversed(range(count)):  # each type refers only to types after it: no loop

            def part(depth: int = 0):
                if index + 1 < count and rng.random() < 0.4:
                    return Ref(f"T{rng.randrange(index + 1, count)}")
                if depth < 2 and rng.random() < 0.4:
                    parts = tuple(part(depth + 1) for _ in range(rng.randint(1, 3)))
                    return Union(tuple(Alternative(each) for each in parts)) if rng.random() < 0.5 \
                        else Intersection(parts)
                return rng.choice(leaves)

            types[f"T{index}"] = NamedType(f"T{index}", f"T{index}", part())
        graph = TypeGraph("s", dict(sorted(types.items())), {})
        side = changes.Side(graph)
        order = list(types)
        rng.shuffle(order)
        for key in order:
            assert changes.guards_names(side, Ref(key)) is _guards_by_definition(side, Ref(key)), (seed, key)
            node = types[key].node
            assert changes.guards_names(side, node) is _guards_by_definition(side, node), (seed, key)


def test_a_loop_of_in_place_references_ends_and_what_decides_first_is_asked_alone(monkeypatch):
    """Readers refuse loops of in-place references; met anyway, the question ends. And as `any` would, a union
    whose first alternative guards names asks nothing of the others."""
    from govern.model.graph import TypeGraph
    from govern.model.nodes import Alternative, Map, NamedType, Object, OPEN, Primitive, Ref, Union

    looped = {"A": NamedType("A", "A", Union((Alternative(Ref("B")), Alternative(Map(Primitive("string")))))),
              "B": NamedType("B", "B", Union((Alternative(Ref("A")),)))}
    for asked_first in ("A", "B"):
        side = changes.Side(TypeGraph("s", looped, {}))
        assert changes.guards_names(side, Ref(asked_first)) is True

    asked = []
    own = changes._own_guard
    monkeypatch.setattr(changes, "_own_guard", lambda side, node: asked.append(node) or own(side, node))
    types = {"X": NamedType("X", "X", Object((), OPEN))}
    union = Union((Alternative(Map(Primitive("string"))), Alternative(Ref("X"))))
    side = changes.Side(TypeGraph("s", types, {}))
    assert changes.guards_names(side, union) is True
    assert Ref("X") not in asked and types["X"].node not in asked and "X" not in side._guards
    assert changes.guards_names(side, Ref("X")) is False
