"""Chains of aliases (types that are only a reference to another type) cost steps in proportion to their length,
however long, and are read to their end.

Each chain was followed anew from every alias on it: checking that no chain loops back on itself without structure
walked a list of the names seen at each step (a chain of 1,000 aliases: 5 s; 2,000: 32 s), the digests found each
alias's target by walking to the end of its chain (quadratic), and the comparison stopped after 1,000 hops, so a
longer chain was reported as a change it could not name (version-bump) instead of the change at its end.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from click.testing import CliRunner

from govern.classify.changes import Side
from govern.cli import cli
from govern.errors import InputError
from govern.model.fingerprint import alias_targets
import govern.sources.jsonschema as jsonschema_source
from govern.model.nodes import NEVER, Alternative, Intersection, NamedType, Object, Property, Ref, Union
from govern.sources.jsonschema import _reject_reference_loops

DIALECT = "https://json-schema.org/draft/2020-12/schema"
STRUCTURE = Object((Property("id", NEVER, False),), NEVER)


class CountingTypes(dict):
    """A table of types that counts how often a type is looked up by its key."""

    lookups = 0

    def __getitem__(self, key):
        self.lookups += 1
        return super().__getitem__(key)


def _chain(length: int) -> dict[str, object]:
    """T0 -> T1 -> ... -> T(length-1) -> an object: `length` aliases."""
    nodes: dict[str, object] = {f"T{index}": Ref(f"T{index + 1}") for index in range(length)}
    nodes[f"T{length}"] = STRUCTURE
    return nodes


# --- the check that no chain of references loops back on itself ----------------------------------------------

LOOP = "$ref loop with no structure in between: "


def _reference_loop_definition(types: dict) -> str | None:
    """The cycle the check as first written names, or None: every chain followed from its start, the names met
    kept in a list."""
    for start in types:
        if types[start].__class__ is not Ref:
            continue
        seen = [start]
        node = types[start]
        while node.__class__ is Ref:
            if node.target in seen:
                return " -> ".join(f"#/$defs/{name}" for name in seen[seen.index(node.target):] + [node.target])
            seen.append(node.target)
            node = types[node.target]
    return None


def _refusal(types: dict) -> str | None:
    """The cycle the check names in its refusal, or None when it refuses nothing."""
    try:
        _reject_reference_loops(types, {key: f"#/$defs/{key}" for key in types}, "source.json")
    except InputError as error:
        (problem,) = error.problems
        assert problem.path == "source.json" and problem.reason.startswith(LOOP), problem
        return problem.reason[len(LOOP):]
    return None


def test_a_long_chain_of_aliases_is_checked_in_steps_proportional_to_its_length():
    types = CountingTypes(_chain(1_000))
    _reject_reference_loops(types, {key: key for key in types}, "source.json")
    assert types.lookups <= 3 * len(types)  # each alias's chain walked to its end: half a million


def _random_graph(rng: random.Random, size: int, elsewhere: bool = False) -> dict[str, object]:
    """Aliases pointing anywhere (loops, chains into loops, chains sharing a tail) beside types with structure;
    with `elsewhere`, some point to no type of the graph (a chain ends at the alias that does)."""
    keys = [f"T{index}" for index in range(size)]
    targets = keys + ["elsewhere"] if elsewhere else keys
    return {key: Ref(rng.choice(targets)) if rng.random() < 0.7 else STRUCTURE for key in keys}


@pytest.mark.parametrize("seed", range(300))
def test_loops_are_refused_as_before_with_the_same_cycle_named(seed):
    rng = random.Random(seed)
    types = _random_graph(rng, rng.randint(1, 12))
    assert _refusal(types) == _reference_loop_definition(types)


@pytest.mark.parametrize(("types", "cycle"), [
    ({"A": Ref("A")}, "#/$defs/A -> #/$defs/A"),
    ({"A": Ref("B"), "B": Ref("C"), "C": Ref("B")}, "#/$defs/B -> #/$defs/C -> #/$defs/B"),
    # the tail of an earlier chain already followed to structure, then a loop of its own
    ({"A": Ref("B"), "B": STRUCTURE, "C": Ref("A"), "D": Ref("E"), "E": Ref("D")}, "#/$defs/D -> #/$defs/E -> #/$defs/D"),
])
def test_a_loop_of_bare_references_is_named_from_where_its_chain_enters_it(types, cycle):
    assert _refusal(types) == cycle


# --- cycles through combinators -------------------------------------------------------------------------------

IN_PLACE = "reaches itself through references and combinators alone"


def _in_place_definition(types: dict) -> str | None:
    """The cycle the check of cycles through combinators names when written plainly, or None: an edge from every
    alias to its target and from every combinator to each reference it applies in place, the first cycle found
    depth first from each name in declaration order."""
    edges: dict[str, list[str]] = {}
    for name, node in types.items():
        if node.__class__ is Ref:
            edges[name] = [node.target]
        elif node.__class__ in (Union, Intersection):
            children = node.operands if node.__class__ is Intersection else [alt.node for alt in node.alternatives]
            targets = [child.target for child in children if child.__class__ is Ref]
            if targets:
                edges[name] = targets
    done: set[str] = set()

    def search(name: str, path: list[str]) -> list[str] | None:
        for target in edges.get(name, []):
            if target in path:
                return path[path.index(target):] + [target]
            if target not in done and target in edges:
                found = search(target, path + [target])
                if found:
                    return found
            done.add(target)
        done.add(name)
        return None

    for start in edges:
        if start not in done:
            cycle = search(start, [start])
            if cycle:
                return " -> ".join(f"#/$defs/{name}" for name in cycle)
    return None


def _random_combinator_graph(rng: random.Random, size: int) -> dict[str, object]:
    """Aliases, unions and intersections of references, and objects, pointing anywhere: cycles through
    combinators, chains of aliases into them and out of them, and bare loops."""
    keys = [f"T{index}" for index in range(size)]
    types: dict[str, object] = {}
    for key in keys:
        draw = rng.random()
        if draw < 0.45:
            types[key] = Ref(rng.choice(keys))
        elif draw < 0.6:
            types[key] = Union(tuple(Alternative(Ref(rng.choice(keys))) for _ in range(rng.randint(1, 3))))
        elif draw < 0.7:
            types[key] = Intersection((Ref(rng.choice(keys)), STRUCTURE))
        else:
            types[key] = STRUCTURE
    return types


@pytest.mark.parametrize("seed", range(400))
def test_cycles_through_combinators_are_refused_naming_the_cycle_the_plain_check_finds_first(seed):
    rng = random.Random(seed)
    types = _random_combinator_graph(rng, rng.randint(1, 12))
    try:
        _reject_reference_loops(types, {key: f"#/$defs/{key}" for key in types}, "source.json")
    except InputError as error:
        (problem,) = error.problems
        reason = problem.reason
    else:
        reason = None
    expected_loop = _reference_loop_definition(types)
    if expected_loop is not None:
        assert reason == LOOP + expected_loop
    elif (expected := _in_place_definition(types)) is not None:
        assert reason is not None and IN_PLACE in reason and reason.endswith(": " + expected), reason
    else:
        assert reason is None


def test_aliases_ending_in_structure_add_no_edges_to_the_search_for_cycles(monkeypatch):
    """The search for cycles through combinators holds edges only for what can be on one: a chain of aliases that
    ends in an object, beside a union, adds none (it held a list for every alias, most of what reading a long
    chain of aliases held at its peak)."""
    searched: list[dict] = []
    real_search = jsonschema_source._first_cycle
    monkeypatch.setattr(jsonschema_source, "_first_cycle", lambda edges: searched.append(dict(edges)) or real_search(edges))
    types = _chain(1_000)
    types["Choice"] = Union((Alternative(Ref("T0")), Alternative(Ref("T1000"))))
    types["Pair"] = Union((Alternative(Ref("Choice")), Alternative(STRUCTURE)))
    _reject_reference_loops(types, {key: key for key in types}, "source.json")
    assert searched == [{"Pair": ["Choice"]}]


# --- the type each alias stands for ---------------------------------------------------------------------------

def _alias_target_definition(key: str, types) -> str:
    """The target of one alias as first written: its chain followed to the end (a loop stops where it closes)."""
    seen = {key}
    while types[key].node.__class__ is Ref and types[key].node.target in types:
        key = types[key].node.target
        if key in seen:
            return key
        seen.add(key)
    return key


def _named(nodes: dict[str, object]) -> dict[str, NamedType]:
    return {key: NamedType(key, key, node) for key, node in nodes.items()}


@pytest.mark.parametrize("seed", range(300))
def test_each_alias_stands_for_what_following_its_own_chain_gives(seed):
    rng = random.Random(seed)
    types = _named(_random_graph(rng, rng.randint(1, 14), elsewhere=seed % 2 == 1))
    keys = list(types)
    rng.shuffle(keys)  # (the order the types are declared in decides nothing)
    targets = alias_targets({key: types[key] for key in keys})
    assert {key: targets.get(key, key) for key in types} == \
        {key: _alias_target_definition(key, types) for key in types}
    assert all(types[key].node.__class__ is Ref for key in targets)


def test_the_targets_of_a_long_chain_of_aliases_take_steps_proportional_to_its_length():
    types = CountingTypes(_named(_chain(3_000)))
    targets = alias_targets(types)
    assert set(targets.values()) == {"T3000"} and len(targets) == 3_000
    assert types.lookups <= 3 * len(types)  # each alias's chain walked to its end: four and a half million


def test_the_comparison_reads_a_reference_through_any_number_of_aliases_found_once_per_graph():
    from govern.model.graph import TypeGraph

    types = CountingTypes(_named(_chain(2_500)))
    graph = TypeGraph("s", types, {})
    side = Side(graph)
    assert side.named_key("T0") == "T2500" and side.named_key("T2500") == "T2500"
    assert side.resolve(Ref("T0")) is STRUCTURE and side.resolve(STRUCTURE) is STRUCTURE
    # every alias asked, by this side and by others of the same graph (a witness search makes its own)
    for asking in (side, Side(graph), Side(graph)):
        assert {asking.named_key(key) for key in types} == {"T2500"}
    assert types.lookups <= 3 * len(types) + 2


# --- end to end ---------------------------------------------------------------------------------------------------

def _chain_schema(length: int, extra: bool) -> dict:
    defs = {f"T{index}": {"$ref": f"#/$defs/T{index + 1}"} for index in range(length)}
    properties = {"id": {"type": "string"}, **({"note": {"type": "string"}} if extra else {})}
    defs[f"T{length}"] = {"type": "object", "properties": properties, "required": ["id"]}
    return {"$schema": DIALECT, "$ref": "#/$defs/T0", "$defs": defs}


def test_a_change_at_the_end_of_a_long_chain_of_aliases_is_named(tmp_path: Path):
    (tmp_path / "old.json").write_text(json.dumps(_chain_schema(1_200, extra=False)), encoding="utf-8")
    (tmp_path / "new.json").write_text(json.dumps(_chain_schema(1_200, extra=True)), encoding="utf-8")
    result = CliRunner().invoke(cli, ["diff", "--format", "json", str(tmp_path / "old.json"),
                                      str(tmp_path / "new.json")])
    assert result.exit_code == 0, result.output
    (root,) = json.loads(result.output)["roots"]
    assert root["decision"] == "same-version"
    assert [(change["path"], change["rule"]) for change in root["changes"]] == \
        [("/properties/note", "optional-property-added")]


def test_init_tells_event_roots_through_chains_of_aliases_in_steps_proportional_to_their_length():
    from govern.init import _propose_roots
    from govern.model.graph import TypeGraph
    from govern.model.nodes import Literal, Root

    event = Object((Property("kind", Literal('"placed"'), True),), NEVER)
    nodes = {f"T{index}": Ref(f"T{index + 1}") for index in range(2_000)}
    nodes["T2000"] = event
    nodes["Kind"] = Literal('"placed"')
    nodes["KindAlias"] = Ref("Kind")
    nodes["Record"] = Object((Property("kind", Ref("KindAlias"), True),), NEVER)  # (its tag read through an alias)
    types = CountingTypes(_named(nodes))
    roots = {f"s:{key}": Root(f"s:{key}", key) for key in nodes}
    proposed = _propose_roots("openapi", TypeGraph("s", types, roots))
    assert sorted(name for name, _, role in proposed if role == "event") == sorted(
        [f"T{index}" for index in range(2_001)] + ["Record"])  # (not KindAlias: a literal is no event)
    assert types.lookups <= 5 * len(types)  # each root's chain walked to its end: two million
