"""A change below a named type is located in that type: its key, where the source writes it, and the
pointer inside it. A change in the root's own structure keeps its pointer from the root. A named type that
several places reach is compared once, so a change inside it is reported once, at the type."""

from __future__ import annotations

import copy
import json
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from govern.classify.classify import classify
from govern.sources.jsonschema import load_jsonschema
from conftest import diff_cli, write_pair  # noqa: E402 - the folder's helpers
from test_classify_locations import resolves  # noqa: E402

PROFILE = settings.get_profile("classify")
DIALECT = "https://json-schema.org/draft/2020-12/schema"


def _classified(tmp_path: Path, old: dict, new: dict, root: str = "#/$defs/T0"):
    graphs = []
    for name, document in (("old", old), ("new", new)):
        path = tmp_path / f"{name}.schema.json"
        path.write_text(json.dumps(document), encoding="utf-8")
        graphs.append(load_jsonschema("doc", path, {"Doc": (root, "record")}, tmp_path))
    [result] = classify([graphs[0]], [graphs[1]])
    return result, graphs[1]


def _ref(index: int) -> dict:
    return {"$ref": f"#/$defs/T{index}"}


# How a property may refer to another type: directly, as array items, as map values, nullable (anyOf), or as
# the operand of an allOf beside the schema's own keywords.
_WRAPPINGS = [
    lambda ref: ref,
    lambda ref: {"type": "array", "items": ref},
    lambda ref: {"type": "object", "additionalProperties": ref},
    lambda ref: {"anyOf": [ref, {"type": "null"}]},
    lambda ref: {"allOf": [ref, {"type": "object", "properties": {"x": {"type": "string"}}}]},
]


@st.composite
def recursive_documents(draw) -> dict:
    """A few object types that refer to each other (cycles allowed), each in one of the wrappings."""
    count = draw(st.integers(2, 6))
    defs = {}
    for index in range(count):
        properties = {"id": {"type": "string"}, "size": {"type": "integer", "maximum": 10}}
        for position in range(draw(st.integers(1, 3))):
            wrapping = draw(st.sampled_from(_WRAPPINGS))
            properties[f"r{position}"] = wrapping(_ref(draw(st.integers(0, count - 1))))
        defs[f"T{index}"] = {"type": "object", "properties": properties, "required": ["id"]}
    return {"$schema": DIALECT, "$defs": defs}


def _mutated(document: dict, draw) -> dict:
    new = copy.deepcopy(document)
    for name in draw(st.lists(st.sampled_from(sorted(new["$defs"])), min_size=1, max_size=3, unique=True)):
        properties = new["$defs"][name]["properties"]
        action = draw(st.sampled_from(["add", "remove", "retype", "bound"]))
        if action == "add":
            properties["note"] = {"type": "string"}
        elif action == "remove":
            properties.pop("id")
        elif action == "retype":
            properties["size"] = {"type": "string"}
        else:
            properties["size"]["maximum"] = 20
    return new


@settings(PROFILE)
@given(data=st.data())
def test_every_change_names_an_existing_type_and_a_pointer_inside_it(tmp_path_factory, data):
    old = data.draw(recursive_documents())
    new = _mutated(old, data.draw)
    result, graph = _classified(tmp_path_factory.mktemp("pair"), old, new)
    for change in result.changes:
        if change.type is None:
            # the root's own structure (T0): the pointer is from the root
            assert change.type_location is None and change.location == (change.path or "/")
            places = [f"/$defs/T0{change.path}"]
        else:
            assert change.type in graph.types, change
            assert change.type_location == graph.locations[change.type] == f"new.schema.json#/$defs/{change.type}"
            assert change.location == f"{change.type}#{change.path or '/'}"
            places = [change.type_location.partition("#")[2] + change.path]
        # Inside the type, the pointer passes through no other named type: it is as long as the type's own
        # nesting, whatever the route the walk took to reach it.
        assert change.path.count("$ref") == 0 and len(change.path.split("/")) <= 8, change
        assert any(resolves(document, place) for document in (new, old) for place in places), change


def test_a_type_reached_from_two_places_is_reported_once_at_the_type(tmp_path: Path):
    shared = {"type": "object", "properties": {"a": {"type": "string"}}}
    old = {"$schema": DIALECT, "$defs": {
        "T0": {"type": "object", "properties": {"left": _ref(1), "right": {"type": "array", "items": _ref(1)}}},
        "T1": shared}}
    new = copy.deepcopy(old)
    new["$defs"]["T1"]["properties"]["a"] = {"type": "integer"}
    result, _ = _classified(tmp_path, old, new)
    assert [(change.location, change.kind) for change in result.changes] == [("T1#/properties/a", "type-changed")]


def test_changes_sort_by_the_roots_own_structure_first_then_by_type_and_pointer(tmp_path: Path):
    old = {"$schema": DIALECT, "$defs": {
        "T0": {"type": "object", "properties": {"b": _ref(2), "a": _ref(1), "z": {"type": "string"}}},
        "T1": {"type": "object", "properties": {"y": {"type": "string"}}},
        "T2": {"type": "object", "properties": {"x": {"type": "string"}}}}}
    new = copy.deepcopy(old)
    new["$defs"]["T0"]["properties"]["z"] = {"type": "integer"}
    new["$defs"]["T1"]["properties"]["y"] = {"type": "integer"}
    new["$defs"]["T2"]["properties"]["x"] = {"type": "integer"}
    result, _ = _classified(tmp_path, old, new)
    assert [change.location for change in result.changes] == \
        ["/properties/z", "T1#/properties/y", "T2#/properties/x"]
    assert [change.root_pointer() for change in result.changes] == \
        ["/properties/z", "/properties/a/properties/y", "/properties/b/properties/x"]


def test_an_alternative_is_named_in_its_own_type_but_not_in_the_types_it_reaches(tmp_path: Path):
    """The alternative through which a type was entered says nothing of a change two types further on."""
    old = {"$schema": DIALECT, "$defs": {
        "T0": {"type": "object", "properties": {"p": {"anyOf": [_ref(1), {"type": "null"}]}}},
        "T1": {"type": "object", "properties": {"a": {"type": "string"}, "deeper": _ref(2)}},
        "T2": {"type": "object", "properties": {"b": {"type": "string"}}}}}
    new = copy.deepcopy(old)
    new["$defs"]["T1"]["properties"]["a"] = {"type": "integer"}
    new["$defs"]["T2"]["properties"]["b"] = {"type": "integer"}
    result, _ = _classified(tmp_path, old, new)
    assert [(change.location, dict(change.args).get("alternative")) for change in result.changes] == \
        [("T1#/properties/a", "T1"), ("T2#/properties/b", None)]


# A reference to an alias reads the type the alias names: the walk meets one pair of named types either way.

def _changes(tmp_path: Path, old: dict, new: dict, *options: str) -> dict[str, list[tuple]]:
    old_path, new_path = write_pair(tmp_path, old, new)
    code, out, err = diff_cli(old_path, new_path, "json", *options)
    assert code == 0, err
    return {root["root"]: sorted((change.get("type", ""), change["path"], change["kind"]) for change in root["changes"])
            for root in json.loads(out)["roots"]}


def _object(**properties) -> dict:
    return {"type": "object", "properties": properties}


def _with_required_b(schema: dict) -> dict:
    changed = copy.deepcopy(schema)
    changed["properties"]["b"] = {"type": "integer"}
    changed["required"] = ["b"]
    return changed


def test_a_type_reached_directly_and_through_an_alias_is_reported_once(tmp_path):
    def document(target: dict) -> dict:
        return {"$schema": DIALECT, **_object(x={"$ref": "#/$defs/A"}, y={"$ref": "#/$defs/R"}),
                "$defs": {"A": {"$ref": "#/$defs/R"}, "R": target}}

    target = _object(a={"type": "string"})
    changes = _changes(tmp_path, document(target), document(_with_required_b(target)))
    assert changes == {"doc:doc": [("R", "/properties/b", "required-property-added")]}


def test_an_alias_retargeted_is_still_compared_apart_from_its_old_target(tmp_path):
    def document(alias_target: str, second: dict) -> dict:
        return {"$schema": DIALECT, **_object(x={"$ref": "#/$defs/A"}, y={"$ref": "#/$defs/R"}),
                "$defs": {"A": {"$ref": f"#/$defs/{alias_target}"}, "R": _object(a={"type": "string"}),
                          "R2": second}}

    changes = _changes(tmp_path, document("R", _object(a={"type": "string"})),
                       document("R2", _object(a={"type": "integer"})))
    # `x` now reads R2 where it read R; `y` still reads R, unchanged
    assert changes == {"doc:doc": [("R2", "/properties/a", "type-changed")]}


def test_a_root_that_names_a_type_of_its_cycle_reports_a_change_there_once(tmp_path):
    def document(first: dict) -> dict:
        return {"$schema": DIALECT, "$ref": "#/$defs/R",
                "$defs": {"R": first, "S": _object(back={"$ref": "#/$defs/R"})}}

    first = _object(next={"$ref": "#/$defs/S"}, a={"type": "string"})
    old, new = document(first), document(_with_required_b(first))
    assert _changes(tmp_path, old, new) == {"doc:doc": [("", "/properties/b", "required-property-added")]}
    every_root = _changes(tmp_path, old, new, "--roots", "all")  # (the roots walked together)
    assert every_root == {"doc:doc": [("", "/properties/b", "required-property-added")],
                          "doc:R": [("", "/properties/b", "required-property-added")],
                          "doc:S": [("R", "/properties/b", "required-property-added")]}


def test_an_alias_of_an_event_root_reads_the_event_root(tmp_path):
    # An envelope whose `event` is a oneOf of its event types, and whose `last` is the same event type through an
    # alias: an optional property added to the event is the event's own change, told once, as through `$ref: Dep`.
    def document(event: dict, last: str) -> dict:
        return {"$schema": DIALECT, "type": "object", "required": ["event"], "properties": {
            "event": {"oneOf": [{"$ref": "#/$defs/Dep"}],
                      "discriminator": {"propertyName": "type", "mapping": {"dep": "#/$defs/Dep"}}},
            "last": {"$ref": f"#/$defs/{last}"}},
            "$defs": {"Dep": event, "DepAlias": {"$ref": "#/$defs/Dep"}}}

    event = {"type": "object", "required": ["type", "amount"],
             "properties": {"type": {"const": "dep", "type": "string"}, "amount": {"type": "integer"}}}
    noted = copy.deepcopy(event)
    noted["properties"]["note"] = {"type": "string"}
    roots = {"Doc": ("#", "envelope"), "Dep": ("#/$defs/Dep", "event")}
    told = {}
    for last in ("Dep", "DepAlias"):
        graphs = []
        for name, body in (("old", event), ("new", noted)):
            path = tmp_path / f"{last}-{name}.schema.json"
            path.write_text(json.dumps(document(body, last)), encoding="utf-8")
            graphs.append(load_jsonschema("doc", path, roots, tmp_path))
        told[last] = {result.root: (result.decision, sorted((change.type or "", change.path, change.kind)
                                                            for change in result.changes))
                      for result in classify([graphs[0]], [graphs[1]])}
    assert told["DepAlias"] == told["Dep"]
    assert told["Dep"]["doc:Doc"] == ("same-version", [("Dep", "/properties/note", "optional-property-added")])
