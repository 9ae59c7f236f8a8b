"""The search's building blocks: regular-expression samples, paths below a change that differ between the
sides, and a witness found deep inside a change the classifier could only name as a whole."""

from __future__ import annotations

import re

import pytest

from conftest import fixtures, schema_graphs  # noqa: E402 - the folder's helpers
from govern.classify.changes import Side
from govern.classify.classify import classify
from govern.witness.generate import locations, same_structure, sample_regex
from govern.witness.search import find_witnesses



@pytest.mark.parametrize("pattern", ["^x-", "^[a-z][a-z0-9-]*$", r"^\d{4}-\d{2}$", "^(foo|bar)+$", "[^a]b",
                                     r"^sha256:[0-9a-f]{64}$", r"^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}Z$"])
def test_regex_samples_match(pattern):
    samples = sample_regex(pattern)
    assert samples and all(re.search(pattern, sample) for sample in samples)


def test_a_pattern_beyond_the_sampler_gives_no_sample_rather_than_a_wrong_one():
    assert sample_regex(r"(a)\1") == [] and sample_regex("(") == []


def _nested(maximum: int, length: int) -> dict:
    """An allOf whose first operand hides a bound four objects deep."""
    deep = {"type": "integer", "maximum": maximum}
    for name in ("d", "c", "b"):
        deep = {"type": "object", "properties": {name: deep}, "required": [name]}
    return {"$schema": fixtures.DRAFT, "title": "Doc",
            "allOf": [{"type": "object", "properties": {"a": deep}, "required": ["a"]},
                      {"type": "object", "properties": {"s": {"type": "string", "maxLength": length}}}]}


def test_paths_below_a_change_are_only_those_where_the_sides_differ(tmp_path):
    old, new = schema_graphs(tmp_path, _nested(10, 8), _nested(5, 8))
    old_side, new_side = Side(old), Side(new)
    old_root, new_root = old_side.resolve(old.types[old.roots["new:Doc"].type_key].node), \
        new_side.resolve(new.types[new.roots["new:Doc"].type_key].node)
    paths = [tokens for tokens, _, _ in locations(old_side, old_root, new_side, new_root)]
    assert paths == [["properties", "a"], ["properties", "a", "properties", "b"],
                     ["properties", "a", "properties", "b", "properties", "c"],
                     ["properties", "a", "properties", "b", "properties", "c", "properties", "d"]]
    assert same_structure(old_side, old_root, old_side, old_root, {})
    assert not same_structure(old_side, old_root, new_side, new_root, {})


def test_a_witness_deep_inside_replaced_operands(tmp_path):
    # The bound deep in the first operand tightens; the second operand's loosens, which old data never
    # breaks: the old-data witness can only be the deep one.
    old, new = schema_graphs(tmp_path, _nested(10, 8), _nested(5, 20))
    results = classify([old], [new])
    kinds = {change.kind for change in results[0].changes}
    assert kinds == {"operand-added", "operand-removed"}  # both operands changed: no pairing inside
    report = find_witnesses(results, [old], [new])
    found = {entry.change.kind: entry.witness for entry in report.by_change.values()}
    assert found["operand-added"].document == {"a": {"b": {"c": {"d": 6}}}}
    assert found["operand-added"].direction == "old-data-new-readers"
    assert found["operand-added"].at == "/a/b/c/d"


def test_changes_at_one_location_share_one_search_per_direction(tmp_path, monkeypatch):
    # Both operands replaced: two operands removed and two added at /allOf/0 and /allOf/1, which search alike.
    import govern.witness.search as search

    old, new = schema_graphs(tmp_path, _nested(10, 8), _nested(5, 20))
    results = classify([old], [new])
    assert sorted(change.kind for change in results[0].changes) == ["operand-added", "operand-added",
                                                                    "operand-removed", "operand-removed"]
    directions: list[str] = []
    original = search.search_direction

    def counted(change, direction, *args, **kwargs):
        directions.append(direction)
        return original(change, direction, *args, **kwargs)

    monkeypatch.setattr(search, "search_direction", counted)
    report = find_witnesses(results, [old], [new])
    assert sorted(directions) == ["new-data-old-readers", "old-data-new-readers"]
    by_kind: dict[str, list] = {}
    for entry in report.by_change.values():
        by_kind.setdefault(entry.change.kind, []).append(entry.witness)
    assert by_kind["operand-added"][0] == by_kind["operand-added"][1] is not None
    assert by_kind["operand-added"][0].document == {"a": {"b": {"c": {"d": 6}}}}


def _same_kind_alternatives(first_maximum: int, second_maximum: int) -> dict:
    """A oneOf whose two alternatives share the discriminator value "allOf" (told apart by a required name)."""
    def alternative(name: str, maximum: int) -> dict:
        return {"type": "object", "properties": {"kind": {"const": "allOf"}, name: {"type": "string"},
                                                 "a": {"type": "integer", "maximum": maximum}},
                "required": ["kind", name], "additionalProperties": False}

    return {"$schema": fixtures.DRAFT, "title": "Doc", "type": "object", "required": ["e"],
            "properties": {"e": {"oneOf": [alternative("x", first_maximum), alternative("y", second_maximum)]}}}


def test_a_discriminator_value_spelled_like_a_keyword_does_not_merge_two_searches(tmp_path):
    # Both alternatives of the group "allOf" tighten their bound (each paired with its own by the names it
    # declares): each change is at its own position in the group (`.../oneOf/allOf/0`, `.../oneOf/allOf/1`), not
    # at operands of an allOf, so each gets the witness of its own alternative.
    old, new = schema_graphs(tmp_path, _same_kind_alternatives(10, 20), _same_kind_alternatives(5, 15))
    results = classify([old], [new])
    report = find_witnesses(results, [old], [new])
    documents = {entry.change.path: entry.witness.document for entry in report.by_change.values()
                 if entry.change.kind == "constraint-changed"}
    assert documents == {"/properties/e/oneOf/allOf/0/properties/a/maximum": {"e": {"kind": "allOf", "x": "", "a": 6}},
                         "/properties/e/oneOf/allOf/1/properties/a/maximum": {"e": {"kind": "allOf", "y": "", "a": 16}}}


@pytest.mark.parametrize(("first", "second", "shared"), [
    ("/allOf/0/properties/a", "/allOf/1/properties/a", True),  # operands of one allOf search alike
    ("/allOf", "/allOf/1", True),
    ("/properties/allOf/allOf/0", "/properties/allOf/allOf/1", True),
    ("/oneOf/allOf/0/properties/a", "/oneOf/allOf/1/properties/a", False),  # a discriminator value
    ("/anyOf/0/properties/a", "/anyOf/1/properties/a", False),
    ("/properties/allOf/properties/a", "/properties/a", False),  # a property named like the keyword
    ("/patternProperties/allOf/allOf/0", "/patternProperties/allOf/allOf/1", True),
    ("/prefixItems/0", "/prefixItems/1", False),
    ("/properties/x/maximum", "/properties/x/minimum", False),
])
def test_search_locations(first, second, shared):
    from govern.witness.generate import split_pointer
    from govern.witness.search import searched_location

    assert (searched_location(split_pointer(first)) == searched_location(split_pointer(second))) is shared


def test_routes_reach_every_named_type_by_the_fewest_types_crossed(tmp_path):
    from govern.witness.generate import routes

    schema = {"$schema": fixtures.DRAFT, "title": "Doc", "type": "object",
              "properties": {"a": {"$ref": "#/$defs/A"}, "z": {"$ref": "#/$defs/B"},
                             "list": {"type": "array", "items": {"anyOf": [{"type": "null"}, {"$ref": "#/$defs/C"}]}}},
              "$defs": {"A": {"type": "object", "properties": {"b": {"$ref": "#/$defs/B"}},
                              "additionalProperties": {"$ref": "#/$defs/D"}},
                        "B": {"type": "object", "properties": {"a": {"$ref": "#/$defs/A"}}},
                        "C": {"allOf": [{"$ref": "#/$defs/B"}, {"type": "object", "properties": {"e": {"$ref": "#/$defs/E"}}}]},
                        "D": {"type": "string"}, "E": {"type": "integer"}}}
    graph, _ = schema_graphs(tmp_path, schema, schema)
    side = Side(graph)
    root = graph.roots["new:Doc"].type_key
    found = routes(side, root)
    by_name = {graph.types[key].name: tokens for key, tokens in found.items() if key != root}
    assert found[root] == []
    assert by_name == {"A": ["properties", "a"], "B": ["properties", "z"],
                       "C": ["properties", "list", "items", "anyOf", "1"],
                       "D": ["properties", "a", "additionalProperties"],
                       "E": ["properties", "list", "items", "anyOf", "1", "properties", "e"]}
    # `documents` follows each route to its type.
    from govern.model.nodes import Ref
    from govern.witness.generate import documents

    for key, tokens in found.items():
        reached = []
        list(documents(side, Ref(root), tokens, lambda node: reached.append(node) or iter(())))
        assert side.resolve(Ref(key)) in reached, graph.types[key].name


def test_a_root_schema_exports_a_type_when_the_validator_first_looks_it_up(tmp_path):
    from govern.records.snapshot import export_node, reachable_types
    from govern.witness.confirm import Validator, root_schema

    schema = {"$schema": fixtures.DRAFT, "title": "Doc", "type": "object",
              "properties": {"a": {"$ref": "#/$defs/A"}, "b": {"$ref": "#/$defs/B"}},
              "$defs": {"A": {"type": "integer", "maximum": 3}, "B": {"type": "object", "properties": {"c": {"$ref": "#/$defs/C"}}},
                        "C": {"type": "string"}, "Unused": {"type": "null"}}}
    graph, _ = schema_graphs(tmp_path, schema, schema)
    root = graph.roots["new:Doc"].type_key
    exported = root_schema(graph, root, on_demand=True)["$defs"]
    validator = Validator(root_schema(graph, root, on_demand=True))
    assert validator.accepts({"a": 1}) and not validator.accepts({"a": 4})
    assert validator.rejection({"a": 4}).at == "/a"
    looked_up = {graph.types[key].name for key in validator.schema["$defs"]._exported}
    assert "B" not in looked_up and "C" not in looked_up and "A" in looked_up
    # Read as a whole, it is every type the root reaches, exported.
    everything = {key: export_node(graph.types[key].node) for key in reachable_types(graph, [root])}
    assert dict(exported) == everything == root_schema(graph, root)["$defs"] and len(exported) == len(everything)
    assert all(exported[key] == value for key, value in everything.items())
    with pytest.raises(KeyError):
        exported["nothing"]


def test_routes_to_some_types_are_those_of_all_types(tmp_path):
    from govern.witness.generate import routes

    schema = {"$schema": fixtures.DRAFT, "title": "Doc", "type": "object",
              "properties": {"a": {"$ref": "#/$defs/A"}},
              "$defs": {"A": {"type": "object", "properties": {"b": {"$ref": "#/$defs/B"}, "c": {"$ref": "#/$defs/C"}}},
                        "B": {"type": "array", "items": {"$ref": "#/$defs/C"}}, "C": {"type": "string"}}}
    graph, _ = schema_graphs(tmp_path, schema, schema)
    side = Side(graph)
    root = graph.roots["new:Doc"].type_key
    every = routes(side, root)
    for key in every:
        assert routes(side, root, {key}) == {key: every[key]}
    assert routes(side, root, {"not a type"}) == {}


def _chain(values: list[str]) -> dict:
    """A status four types deep along `a`, and the same type straight from the root as `d`."""
    return {"$schema": fixtures.DRAFT, "title": "Doc", "type": "object",
            "properties": {"a": {"$ref": "#/$defs/A"}, "d": {"$ref": "#/$defs/D"}},
            "$defs": {"A": {"type": "object", "properties": {"b": {"$ref": "#/$defs/B"}}, "required": ["b"]},
                      "B": {"type": "object", "properties": {"c": {"$ref": "#/$defs/C"}}, "required": ["c"]},
                      "C": {"type": "object", "properties": {"d": {"$ref": "#/$defs/D"}}, "required": ["d"]},
                      "D": {"type": "object", "properties": {"status": {"enum": values}}, "required": ["status"]}}}


def test_a_witness_reaches_the_changed_type_by_the_shortest_route(tmp_path):
    old, new = schema_graphs(tmp_path, _chain(["open", "closed"]), _chain(["open", "closed", "archived"]))
    results = classify([old], [new])
    (entry,) = find_witnesses(results, [old], [new]).by_change.values()
    assert entry.change.type is not None and entry.change.path == "/properties/status"
    assert entry.status == "found"
    assert entry.witness.document == {"d": {"status": "archived"}} and entry.witness.at == "/d/status"


@pytest.mark.parametrize("tokens", [["properties", "x"], ["items"], ["additionalProperties"], ["prefixItems", "0"],
                                    ["patternProperties", "^a"]])
def test_a_scalar_has_no_place_below_it(tokens):
    from govern.model.nodes import Primitive
    from govern.witness.generate import documents

    reached = []
    assert list(documents(_ITSELF, Primitive("string"), tokens, lambda node: reached.append(node) or iter(["a"]))) == []
    assert reached == []


def test_a_scalar_is_the_place_of_its_own_keywords():
    from govern.model.nodes import Primitive
    from govern.witness.generate import documents

    assert list(documents(_ITSELF, Primitive("string"), ["maxLength"], lambda node: iter(["a"]))) == ["a"]


class _ItselfSide:
    """A side whose nodes are all inline: resolving a node gives the node."""

    @staticmethod
    def resolve(node):
        return node


_ITSELF = _ItselfSide()


# --- what the searches of one diff may do in all -------------------------------------------------------------------

def _ring(count: int, value: str) -> dict:
    """A ring of types, each holding the next and a value whose type changes: the change in the i-th type is i
    levels deep from the root, so each witness is a document i levels deep (the n changes, n^2 levels)."""
    return {"$schema": fixtures.DRAFT, "title": "Doc", "$ref": "#/$defs/T0", "$defs": {
        f"T{index}": {"type": "object", "properties": {"next": {"$ref": f"#/$defs/T{(index + 1) % count}"},
                                                       "v": {"type": value}}, "required": ["v"]}
        for index in range(count)}}


def test_the_searches_of_a_diff_stop_at_its_limit_of_work_and_say_so(tmp_path, monkeypatch):
    from govern.witness import search

    old, new = schema_graphs(tmp_path, _ring(200, "string"), _ring(200, "integer"))
    results = classify([old], [new])
    unlimited = find_witnesses(results, [old], [new])
    statuses = [entry.status for entry in unlimited.by_change.values()]
    # (a change in each type of the ring, told once; within the limit)
    assert len(statuses) == 200 and "limit-reached" not in statuses and "found" in statuses
    # Scaled down, the limit is reached part way: the changes searched keep their witnesses, the others say why
    # they have none, and nothing more is searched once it is reached.
    monkeypatch.setattr(search, "WORK_PER_NODE", 0)
    monkeypatch.setattr(search, "WORK_BEYOND", 20_000)
    searched = []
    original = search.search_direction
    monkeypatch.setattr(search, "search_direction", lambda *args, **options: searched.append(args[0]) or
                        original(*args, **options))
    limited = find_witnesses(results, [old], [new])
    entries = list(limited.by_change.values())
    statuses = [entry.status for entry in entries]
    assert "found" in statuses and "limit-reached" in statuses
    cut = statuses.index("limit-reached")
    assert set(statuses[cut:]) == {"limit-reached"}
    assert [(entry.status, entry.witness) for entry in entries[:cut]] == [
        (unlimited.by_change[key].status, unlimited.by_change[key].witness) for key in list(limited.by_change)[:cut]]
    assert len(searched) <= 2 * (cut + 1)  # (a search per direction of each change searched)
    # (listed with the breaking changes that have no witness, as what they are)
    assert [entry.change_json()["witness_search"] for entry in limited.without_witness].count("limit-reached") \
        == len(entries) - cut


def test_the_alternatives_of_a_union_are_grouped_by_their_kind_once_per_side(tmp_path, monkeypatch):
    # A oneOf of 60 kinds, each changing: every search inside an alternative asked each alternative for its kinds,
    # which made the searches of a union quadratic in its size.
    from collections import Counter

    from govern.witness import generate

    def union(value_type: str) -> dict:
        return {"$schema": "https://json-schema.org/draft/2020-12/schema", "oneOf": [
            {"type": "object", "required": ["kind", "value"], "additionalProperties": False,
             "properties": {"kind": {"const": f"k{index}"}, "value": {"type": value_type}}} for index in range(60)]}

    asked: Counter = Counter()
    kinds = generate._kinds

    def counted(side, node):
        asked[id(side)] += 1
        return kinds(side, node)

    monkeypatch.setattr(generate, "_kinds", counted)
    old, new = schema_graphs(tmp_path, union("string"), union("integer"))
    report = find_witnesses(classify([old], [new]), [old], [new])
    found = sorted((entry.change.path, entry.status, entry.witness.document["kind"])
                   for entry in report.by_change.values())
    assert len(found) == 60 and all(status == "found" for _, status, _ in found)
    assert all(path == f"/oneOf/{kind}/properties/value" for path, _, kind in found)  # each in its own kind
    assert asked and max(asked.values()) <= 60, asked


def test_a_value_read_through_hundreds_of_references_is_still_confirmed(tmp_path):
    # The validator descends a level of the interpreter's stack per subschema: through 600 references the
    # default limit was passed, every document checked there failed, and the search reported `exhausted`.
    def chain(new: bool) -> dict:
        defs = {f"D{index}": {"$ref": f"#/$defs/D{index + 1}"} for index in range(600)}
        defs["D600"] = {"type": "string", **({"maxLength": 3} if new else {})}
        return {"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object", "required": ["s"],
                "properties": {"s": {"$ref": "#/$defs/D0"}}, "$defs": defs}

    old, new = schema_graphs(tmp_path, chain(False), chain(True))
    report = find_witnesses(classify([old], [new]), [old], [new])
    [entry] = report.by_change.values()
    assert entry.status == "found" and len(entry.witness.document["s"]) == 4
