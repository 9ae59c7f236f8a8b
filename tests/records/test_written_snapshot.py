"""Snapshots in the layout govern writes are read without the JSON Schema adapter, into exactly the graphs
the adapter reads from them; anything else (hand edits, other layouts) is left to the adapter, and verify
still catches every tampering."""

from __future__ import annotations

import copy
import json
from dataclasses import astuple
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import govern.records.snapshot as snapshot_module
import govern.records.written_snapshot as written_snapshot
from govern.errors import InputError
from govern.records.snapshot import (
    EVENT_ROOTS, FORMAT_VERSION, INVENTORY_FORMAT, TYPE_DIGESTS, load_snapshot, read_snapshot_with_adapter,
    snapshot_document,
)
from govern.records.written_snapshot import read_written_snapshot
from govern.sources.jsonschema import load_jsonschema

REPOSITORY = Path(__file__).resolve().parents[2]
RECORD = "2026-12-01-add-thread-label"
def examples(count: int) -> settings:
    return settings(max_examples=count, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])

# --- random sources, exported as govern exports them -------------------------------------------------

SAFE_NAMES = ("A", "b/c", "d~e", "F.g", "h-i", "J:k")
NAMES = SAFE_NAMES + ("l m",)  # a name the adapter reads through URI rules: left to it
scalars = st.none() | st.booleans() | st.integers(-3, 3) | st.sampled_from([1.0, 2.5, "x", "é"])
extension = st.sampled_from(["x-ext", "x-persistence-version", "not-type"])


@st.composite
def primitives(draw):
    kind = draw(st.sampled_from(["string", "integer", "number", "boolean", "null"]))
    schema: dict[str, Any] = {"type": kind}
    if kind == "string":
        schema.update(draw(st.fixed_dictionaries({}, optional={
            "minLength": st.integers(0, 2), "maxLength": st.integers(3, 9), "pattern": st.just("^a"),
            "format": st.just("date"), "contentEncoding": st.just("base64")})))
    elif kind in ("integer", "number"):
        schema.update(draw(st.fixed_dictionaries({}, optional={
            "minimum": st.integers(-2, 2) | st.just(1.0), "exclusiveMaximum": st.integers(5, 9) | st.booleans(),
            "multipleOf": st.integers(1, 3), "format": st.just("int32")})))
        if schema.get("exclusiveMaximum") is True:
            schema["maximum"] = 10
    if draw(st.booleans()):
        schema[draw(extension)] = draw(scalars | st.lists(scalars, max_size=2))
    return schema


def leaves(names: tuple[str, ...]) -> st.SearchStrategy:
    found = primitives() | st.sampled_from([True, False, {}, {"x-ext": 1}, {"not-type": "object"}]) \
        | scalars.map(lambda value: {"const": value}) \
        | st.lists(scalars, max_size=3).map(lambda values: {"enum": values})
    if names:
        found = found | st.sampled_from(names).map(lambda name: {"$ref": "#/$defs/" + name.replace("~", "~0")
                                                                 .replace("/", "~1")})
    return found


def compound(children: st.SearchStrategy, unusual: bool) -> st.SearchStrategy:
    # Keywords without `type` too, which snapshots write in a form of their own.
    found = objects(children) | arrays(children) | unions(children) | st.builds(
        lambda operands: {"allOf": operands}, st.lists(children, min_size=1, max_size=3)) | applicators(children) \
        | st.sampled_from([{"maxLength": 3}, {"minimum": 1}, {"format": "date"}, {"minItems": 1}]) \
        | st.builds(lambda child: {"properties": {"p": child}, "required": ["p"]}, children) \
        | st.builds(lambda child: {"additionalProperties": child}, children)
    if unusual:  # keywords of two types without `type`, or beside a composition; a required name not declared
        found = found | st.sampled_from([{"maxLength": 3, "minimum": 1}, {"minLength": 1, "x-ext": 1},
                                         {"type": "object", "required": ["z"], "additionalProperties": False}]) \
            | st.builds(lambda child: {"allOf": [child], "unevaluatedProperties": False}, children)
    return found


@st.composite
def objects(draw, children):
    properties = draw(st.dictionaries(st.sampled_from(["a", "b", "c/d", "$id"]), children, max_size=3))
    schema: dict[str, Any] = {"type": "object", "properties": properties}
    required = draw(st.lists(st.sampled_from(sorted(properties) or ["a"]), unique=True, max_size=2))
    if required and set(required) <= properties.keys():
        schema["required"] = required
    if draw(st.booleans()) and "r" not in required:
        properties["r"] = {"not": {}, "x-persistence-reserved": True}
    choice = draw(st.sampled_from(["absent", "closed", "schema"]))
    if choice != "absent":
        schema["additionalProperties"] = False if choice == "closed" else draw(children)
    schema.update(draw(st.fixed_dictionaries({}, optional={
        "patternProperties": st.dictionaries(st.just("^p"), children, min_size=1),
        "minProperties": st.integers(0, 2), "maxProperties": st.integers(3, 5),
        "dependentRequired": st.just({"a": ["b"]}), "x-ext": scalars})))
    if draw(st.booleans()):
        schema.pop("properties")
        schema.pop("required", None)
    return schema


@st.composite
def arrays(draw, children):
    schema: dict[str, Any] = {"type": "array"}
    if draw(st.booleans()):
        schema["prefixItems"] = draw(st.lists(children, max_size=2))
    if draw(st.booleans()):
        schema["items"] = draw(children | st.just(False))
    schema.update(draw(st.fixed_dictionaries({}, optional={
        "minItems": st.integers(0, 2), "maxItems": st.integers(3, 5), "uniqueItems": st.booleans()})))
    return schema


@st.composite
def unions(draw, children):
    keyword = draw(st.sampled_from(["anyOf", "oneOf"]))
    alternatives = draw(st.lists(children, min_size=1, max_size=3))
    if draw(st.booleans()):  # kinds a reader preserves, under a policy
        alternatives = [{**alternative, "x-persistence-attribution": True} if isinstance(alternative, dict)
                        else alternative for alternative in alternatives]
        return {keyword: alternatives, "x-persistence-source": {"policy": 1}}
    schema: dict[str, Any] = {keyword: alternatives}
    references = [alternative["$ref"] for alternative in alternatives
                  if isinstance(alternative, dict) and set(alternative) == {"$ref"}]
    if references and draw(st.booleans()):
        schema["discriminator"] = {"propertyName": "kind", "mapping": {"one": references[0], "two": references[-1]}}
    return schema


@st.composite
def applicators(draw, children):
    keyword = draw(st.sampled_from(["not", "contains", "propertyNames", "if"]))
    if keyword == "if":
        return {"if": draw(children), "then": draw(children), "else": draw(children)}
    return {keyword: draw(children)}


@st.composite
def sources(draw, unusual: bool = False) -> dict:
    names = tuple(draw(st.lists(st.sampled_from(NAMES if unusual else SAFE_NAMES), min_size=1, max_size=3,
                                unique=True)))
    bodies = compound(st.recursive(leaves(names), lambda children: compound(children, unusual), max_leaves=6),
                      unusual)
    return {"$schema": "https://json-schema.org/draft/2020-12/schema",
            "$defs": {name: draw(bodies) for name in names}}


def exported(source: dict) -> dict:
    """The snapshot govern writes of every definition of the source, as it reads from the file."""
    try:
        graph = load_jsonschema("src", Path("src.json"), {}, None, adhoc=True, source_policy=None, content=source)
    except InputError:
        assume(False)  # e.g. definitions that are only references to each other
    roots = set(graph.roots)
    document = snapshot_document("2026-01-01-x", [graph], roots, {root: graph.digests[graph.roots[root].type_key]
                                                                  for root in roots}, {"src"})
    return json.loads(json.dumps(document))


def adapter_result(document: Any, origin: str = "records/x.schema.json"):
    try:
        return read_snapshot_with_adapter(copy.deepcopy(document), origin)
    except (InputError, ValueError):
        return "refused"


def assert_same_graphs(direct, adapter, written: bool = False) -> None:
    """The direct reader's graphs are the adapter's. Their digests are the recorded ones until hashed (as
    `govern verify` hashes them): hashed, they are the adapter's, and the types whose recorded digest differs
    are told. A snapshot govern `written` records the digests hashing gives."""
    assert adapter != "refused"
    assert direct == adapter
    for mine, theirs in zip(direct, adapter):
        # What equality leaves out: names and descriptions of types and properties, locations, notes.
        assert [astuple(named) for named in mine.types.values()] == [astuple(named) for named in theirs.types.values()]
        assert list(mine.locations.items()) == list(theirs.locations.items())
        assert (mine.event_roots, mine.notes, mine.declared_format, mine.inventory_format) == \
            (theirs.event_roots, theirs.notes, theirs.declared_format, theirs.inventory_format)
        recorded = dict(mine.__dict__.get("recorded_digests", {}))
        assert not written or recorded.keys() == mine.types.keys()
        differing = mine.check_recorded_digests()
        assert dict(mine.digests) == dict(theirs.digests)
        assert differing == sorted(key for key, digest in recorded.items() if digest != theirs.digests[key])
        assert not (written and differing)


def _declined_forms(document: dict) -> bool:
    """Whether the snapshot holds a form the direct reader leaves to the adapter by design."""
    resource = document["$defs"]["src"]
    return any(" " in name for name in resource["$defs"]) or any(
        {"maxLength", "minimum"} <= value.keys() or {"minLength", "x-ext"} <= value.keys()
        or not set(value.get("required", [])) <= value.get("properties", {}).keys()
        or "unevaluatedProperties" in value for value in _dicts(resource["$defs"]))


def _dicts(value: Any):
    if isinstance(value, dict):
        yield value
        for item in value.values():
            yield from _dicts(item)
    elif isinstance(value, list):
        for item in value:
            yield from _dicts(item)


@examples(120)
@given(source=sources())
def test_a_written_snapshot_is_read_directly_into_the_adapters_graphs(source):
    document = exported(source)
    direct = read_written_snapshot(copy.deepcopy(document), "records/x.schema.json")
    assert direct is not None, "a snapshot govern wrote is read directly"
    assert_same_graphs(direct, adapter_result(document), written=True)


@examples(60)
@given(source=sources(unusual=True))
def test_forms_the_direct_reader_leaves_alone_are_read_by_the_adapter(source):
    document = exported(source)
    direct = read_written_snapshot(copy.deepcopy(document), "records/x.schema.json")
    if direct is None:
        assert _declined_forms(document)
    else:
        assert_same_graphs(direct, adapter_result(document))
    assert load_snapshot(copy.deepcopy(document), "records/x.schema.json") == adapter_result(document)


# --- random edits: read directly only as the adapter reads them -----------------------------------------

EDITS = [
    ("$id", "#a"), ("$id", "http://[::1"), ("$id", "urn:other"), ("$anchor", "a"), ("title", "t"),
    ("description", "d"), ("$comment", "c"), ("minLength", 0), ("minLength", 0.0), ("minItems", 0),
    ("minProperties", 0), ("minLength", False), ("exclusiveMinimum", True), ("exclusiveMaximum", False),
    ("minimum", 1.5), ("format", "int32"), ("x-ext", {"$id": "http://[::1"}), ("x-ext", [1, "a"]),
    ("x-ext", {"a": [1]}), ("x-ext", {"a": 1}), ("x-persistence-reserved", True), ("x-persistence-reserved", 1),
    ("x-persistence-attribution", True), ("x-persistence-attribution", False), ("x-persistence-source", {"policy": 1}),
    ("x-persistence-source", {"policy": 0}), ("x-persistence-source", None), ("x-persistence-version", 2),
    ("x-govern-discriminator", {"propertyName": "k", "values": ["v"]}), ("x-govern-discriminator", {"values": []}),
    ("x-govern-discriminator", None), ("discriminator", {"propertyName": "k"}), ("not-type", "string"),
    ("type", "string"), ("type", ["string", "null"]), ("type", "object"), ("type", "array"), ("type", "integer"),
    ("type", "nope"), ("type", None), ("const", 1.0), ("enum", [1, 1.0, True]), ("enum", []), ("enum", "a"),
    ("properties", None), ("properties", {"a": True}), ("properties", {"q": {"not": {}, "x-persistence-reserved": True}}),
    ("required", ["zz"]), ("required", ["q"]), ("required", "a"), ("additionalProperties", None),
    ("additionalProperties", False), ("patternProperties", {"^a": {"type": "string"}}), ("patternProperties", []),
    ("items", [True]), ("items", None), ("items", False), ("prefixItems", []), ("prefixItems", [{"type": "string"}]),
    ("prefixItems", {}), ("additionalItems", False), ("unevaluatedProperties", False), ("unevaluatedItems", True),
    ("anyOf", [True]), ("anyOf", []), ("oneOf", [{"type": "string"}, {"type": "null"}]), ("anyOf", "a"),
    ("allOf", [{"type": "string"}, {"type": "string"}]), ("allOf", []), ("not", {}), ("if", True), ("then", True),
    ("contains", True), ("propertyNames", {"maxLength": 2}), ("dependentSchemas", {"a": True}),
    ("dependentRequired", {"a": ["b"]}), ("dependentRequired", {"a": "b"}), ("dependencies", {"a": ["b"]}),
    ("$ref", "#/$defs/missing"), ("$ref", "#/$defs/A%20"), ("$ref", "#/$defs/a~2"), ("$ref", "#"), ("$ref", 1),
    ("$ref", "urn:govern:record:2026-01-01-x:src#/$defs/A"), ("$ref", "#/$defs/b~1c/properties"),
    ("$dynamicRef", "#a"), ("definitions", {"Z": {}}), ("$defs", {"Z": {}}), ("$defs", []),
    ("$schema", "http://json-schema.org/draft-07/schema#"), ("$schema", None), (FORMAT_VERSION, 2),
    (FORMAT_VERSION, "v2"), (FORMAT_VERSION, {"$id": "http://[::1"}), (FORMAT_VERSION, True), (INVENTORY_FORMAT, 2),
    (INVENTORY_FORMAT, 3), (INVENTORY_FORMAT, True), (INVENTORY_FORMAT, 1.0), (EVENT_ROOTS, {"src:A": "A"}),
    (EVENT_ROOTS, {"src:A": "missing"}), (EVENT_ROOTS, []), ("source", "other"), ("type", "A"), ("role", "event"),
    ("role", 1), ("x-govern-roots", {}), ("x-govern-roots", []), ("src:A", {"source": "src", "type": "A"}),
    ("other:A", {"source": "src", "type": "A", "role": "record"}), ("src", {"$defs": {}}),
]


# Schemas in the shapes the direct reader reads, but not as govern writes them: what a hand edit may leave.
UNWRITTEN = st.sampled_from([
    {"type": "string", "minLength": 0}, {"type": "number", "exclusiveMinimum": True, "minimum": 1},
    {"type": "integer", "minimum": 1.0}, {"anyOf": [{"type": "string"}]}, {"oneOf": [{"type": "string"}, {"type": "null"}]},
    {"anyOf": [{"type": "string"}, {"type": "string"}]}, {"anyOf": [{"type": "string"}, True]},
    {"oneOf": [{"type": "integer"}, {"type": "number"}]}, {"allOf": [True, {"type": "string"}]},
    {"allOf": [{"type": "string"}, {"type": "string"}]}, {"enum": [1, 1.0, True]}, {"enum": [2]}, {"const": 1.0},
    {"type": "object"}, {"type": "array"}, {"type": "array", "prefixItems": []}, {"properties": {}},
    {"type": "object", "properties": {"r": {"not": {}, "x-persistence-reserved": True}}, "required": ["r"]},
    {"type": "object", "properties": {"r": {"x-persistence-reserved": True}}},
    {"type": "object", "additionalProperties": True}, {"type": "object", "required": ["a", "a"]},
    {"$ref": "#/$defs/b/c"}, {"$ref": "#/$defs/d~e"}, {"anyOf": [{"$ref": "#/$defs/A"}, {"$ref": "#/$defs/A"}]},
    {"oneOf": [{"$ref": "#/$defs/A"}], "x-govern-discriminator": {"propertyName": "k", "mapping": {"a": "#/$defs/A"}}},
    {"oneOf": [{"$ref": "#/$defs/A"}, {"$ref": "#/$defs/b~1c"}], "x-govern-discriminator": {
        "propertyName": "k", "mapping": {"a": "#/$defs/A", "b": "#/$defs/b~1c", "c": "#/$defs/d~0e"}, "values": ["v"]}},
    {"if": True, "then": True}, {"not": True}, {"x-persistence-version": 1}, {"not-type": "string"},
    {"type": "number", "exclusiveMaximum": False}, {"type": "array", "items": [True]}, {"minLength": 0},
])


def raw_schemas(names: tuple[str, ...]) -> st.SearchStrategy:
    """Subschemas as sources write them (unnormalized), and as hand edits may leave them."""
    return st.recursive(leaves(names) | UNWRITTEN, lambda children: compound(children, True), max_leaves=4)


def _schema_slots(value: Any, slots: list) -> list:
    """(container, key) of every schema below a snapshot resource's types."""
    if isinstance(value, dict):
        for keyword, item in value.items():
            if keyword in ("properties", "patternProperties", "$defs") and isinstance(item, dict):
                for name in item:
                    slots.append((item, name))
                    _schema_slots(item[name], slots)
            elif keyword in ("anyOf", "oneOf", "allOf", "prefixItems") and isinstance(item, list):
                for position, operand in enumerate(item):
                    slots.append((item, position))
                    _schema_slots(operand, slots)
            elif keyword in ("additionalProperties", "items", "not", "if", "then", "else", "contains", "propertyNames"):
                slots.append((value, keyword))
                _schema_slots(item, slots)
    return slots


@st.composite
def edited_snapshots(draw):
    document = exported(draw(sources()))
    names = tuple(document["$defs"]["src"]["$defs"])
    for _ in range(draw(st.integers(1, 3))):
        resources = document.get("$defs")
        if not isinstance(resources, dict) or not isinstance(resources.get("src"), dict):
            break  # an edit anywhere renamed or replaced the resource itself: nothing below it to edit
        slots = _schema_slots(resources["src"], [])
        schemas = [container[key] for container, key in slots if isinstance(container[key], dict)]
        action = draw(st.sampled_from(["replace", "replace", "replace", "set", "set", "set", "set anywhere",
                                       "delete", "rename", "reference"]))
        if action == "replace" and slots:
            container, key = slots[draw(st.integers(0, len(slots) - 1))]
            container[key] = copy.deepcopy(draw(UNWRITTEN | raw_schemas(names)))  # drawn values may be shared
            continue
        places = schemas if action != "set anywhere" and schemas else list(_dicts(document))
        place = places[draw(st.integers(0, len(places) - 1))]
        if action.startswith("set"):
            key, value = draw(st.sampled_from(EDITS))
            place[key] = copy.deepcopy(value)
        elif action == "delete" and place:
            del place[draw(st.sampled_from(sorted(place)))]
        elif action == "rename" and place:
            old = draw(st.sampled_from(sorted(place)))
            place[draw(st.sampled_from(["A", "b/c", "l m", "p%41", "", "$id", "~2"]))] = place.pop(old)
        elif action == "reference":
            name = draw(st.sampled_from(SAFE_NAMES))
            place["$ref"] = "#/$defs/" + name.replace("~", "~0").replace("/", "~1")
    return document


@examples(150)
@given(document=edited_snapshots())
def test_an_edited_snapshot_is_read_directly_only_as_the_adapter_reads_it(document):
    direct = read_written_snapshot(copy.deepcopy(document), "records/x.schema.json")
    if direct is not None:
        assert_same_graphs(direct, adapter_result(document))


FIXED_SOURCE = {"$schema": "https://json-schema.org/draft/2020-12/schema", "$defs": {
    "A": {"type": "object", "properties": {"a": {"type": "string"}}},
    "b/c": {"type": "array", "items": {"$ref": "#/$defs/A"}}, "d~e": {"anyOf": [{"type": "integer"}, {"type": "null"}]}}}


@pytest.mark.parametrize("where", ["type", "property", "alternative"])
@pytest.mark.parametrize("schema", UNWRITTEN.elements, ids=lambda schema: json.dumps(schema)[:60])
def test_each_unwritten_form_is_read_directly_only_as_the_adapter_reads_it(schema, where):
    document = exported(FIXED_SOURCE)
    types = document["$defs"]["src"]["$defs"]
    if where == "type":
        types["X"] = copy.deepcopy(schema)
    elif where == "property":
        types["A"]["properties"]["x"] = copy.deepcopy(schema)
    else:
        types["d~e"]["anyOf"].append(copy.deepcopy(schema))
    direct = read_written_snapshot(copy.deepcopy(document), "records/x.schema.json")
    if direct is not None:
        assert_same_graphs(direct, adapter_result(document))


@pytest.mark.parametrize("path", sorted((REPOSITORY / "records").glob("*.schema.json")), ids=lambda path: path.name)
def test_this_repositorys_snapshots_are_read_directly(path):
    document = json.loads(path.read_text(encoding="utf-8"))
    direct = read_written_snapshot(copy.deepcopy(document), f"records/{path.name}")
    assert direct is not None
    assert_same_graphs(direct, adapter_result(document, f"records/{path.name}"))


# --- small schemas are read once per snapshot ----------------------------------------------------------

SHARING_SOURCE = {"$schema": "https://json-schema.org/draft/2020-12/schema", "$defs": {
    "A": {"type": "object", "properties": {
        "a": {"type": "string", "maxLength": 3}, "b": {"type": "string", "maxLength": 3}, "c": {"$ref": "#/$defs/B"},
        "d": {"$ref": "#/$defs/B"}, "one": {"const": 1}, "yes": {"const": True}, "tags": {"enum": ["x", "y"]},
        "list": {"type": "array", "items": {"$ref": "#/$defs/B"}, "maxItems": 3}}},
    "B": {"type": "object", "properties": {"a": {"type": "string", "maxLength": 3}, "c": {"$ref": "#/$defs/A"},
                                           "tags": {"enum": ["x", "y"]},
                                           "list": {"type": "array", "items": {"$ref": "#/$defs/B"}, "maxItems": 3},
                                           "other": {"type": "array", "items": {"$ref": "#/$defs/A"}, "maxItems": 3}}}}}


def test_equal_small_schemas_are_read_once_into_one_node():
    document = exported(SHARING_SOURCE)
    direct = read_written_snapshot(copy.deepcopy(document), "records/x.schema.json")
    assert_same_graphs(direct, adapter_result(document))
    first, second = ({prop.name: prop.node for prop in direct[0].types[name].node.properties} for name in "AB")
    assert first["a"] is first["b"] is second["a"]
    assert first["c"] is first["d"]
    assert first["tags"] is second["tags"]
    assert first["list"] is second["list"] and second["list"] != second["other"]
    assert first["one"] != first["yes"]  # 1 and true: equal in Python, not in JSON


def test_equal_properties_are_one_object_wherever_they_stand():
    """A property of the same name, node and requiredness recurs across the types of a large snapshot: like
    the adapter, the reader makes it once."""
    document = exported(SHARING_SOURCE)
    direct = read_written_snapshot(copy.deepcopy(document), "records/x.schema.json")
    assert_same_graphs(direct, adapter_result(document))
    first, second = ({prop.name: prop for prop in direct[0].types[name].node.properties} for name in "AB")
    assert first["a"] is second["a"] and first["tags"] is second["tags"] and first["list"] is second["list"]
    assert first["a"] is not first["b"]  # one node, two names
    assert first["c"] is not second["c"] and first["c"].node is not second["c"].node


def test_small_schemas_are_told_by_their_compact_text():
    """A schema of many short values is small too (an enum of twenty numbers: one node wherever it stands),
    and one holding an integer beyond 64 bits, which the compact writer refuses, is read where it stands."""
    many, large = {"enum": list(range(20))}, {"const": 2 ** 70}
    document = exported({"$schema": "https://json-schema.org/draft/2020-12/schema", "$defs": {
        "A": {"type": "object", "properties": {"a": many, "b": many, "c": large, "d": large, "e": {"const": 1.5}}},
        "B": {"type": "object", "properties": {"a": many, "e": {"const": 1.5}, "f": {"const": "1.5"}}}}})
    direct = read_written_snapshot(copy.deepcopy(document), "records/x.schema.json")
    assert_same_graphs(direct, adapter_result(document))
    first, second = ({prop.name: prop.node for prop in direct[0].types[name].node.properties} for name in "AB")
    assert first["a"] is first["b"] is second["a"]
    assert first["c"] == first["d"]
    assert first["e"] is second["e"] and second["e"] != second["f"]


def _nested_arrays(depth: int, leaf: dict) -> dict:
    schema = leaf
    for _ in range(depth):
        schema = {"type": "array", "items": schema}
    return schema


@pytest.mark.parametrize("depth", [written_snapshot._DEPTH - 1, written_snapshot._DEPTH])
def test_a_small_schema_read_before_is_read_again_at_the_depth_limit(depth):
    """Sharing does not carry a schema past the depth limit: where its subschema would stand beyond the
    limit, the reader leaves the snapshot to the adapter, as it does without an earlier reading."""
    document = exported({"$schema": "https://json-schema.org/draft/2020-12/schema", "$defs": {
        "A": {"type": "array", "items": {"not": True}}, "B": _nested_arrays(depth, {"not": True})}})
    direct = read_written_snapshot(copy.deepcopy(document), "records/x.schema.json")
    if depth < written_snapshot._DEPTH:
        assert_same_graphs(direct, adapter_result(document))
    else:
        assert direct is None


# --- verify still catches tampering on the direct path ---------------------------------------------------


@pytest.fixture
def recorded(project, monkeypatch):
    """A copy of this repository with one more record, verified clean; the adapter is never asked to read
    a snapshot (every one is in the written layout), which `adapter_reads` counts."""
    project.add_sidecar_thread_property("label")
    assert project.new_record("add-thread-label").exit_code == 0
    reads: list[str] = []
    original = snapshot_module.read_snapshot_with_adapter

    def counted(document, origin):
        reads.append(origin)
        return original(document, origin)

    monkeypatch.setattr(snapshot_module, "read_snapshot_with_adapter", counted)
    assert project.verify().exit_code == 0
    project.adapter_reads = reads
    return project


def test_a_tampered_snapshot_is_caught_on_the_direct_path(recorded):
    recorded.edit_json(f"records/{RECORD}.schema.json", lambda document: document["$defs"]["sidecar"]["$defs"]
                       ["Thread"]["properties"]["label"].__setitem__("maxLength", 40))
    findings = recorded.findings()
    assert [(f["id"], f["path"], f.get("root")) for f in findings] == [
        ("snapshot-mismatch", f"records/{RECORD}.schema.json", "sidecar:Artifact")]
    assert recorded.adapter_reads == []


def test_a_tampered_digest_is_caught_on_the_direct_path(recorded):
    declared = recorded.record(RECORD).read_text(encoding="utf-8").split('after: "', 1)[1].split('"', 1)[0]
    forged = "sha256:" + "0" * 64
    for part in ("en", "zh"):
        recorded.replace(f"records/{RECORD}{'.zh' if part == 'zh' else ''}.md", f'after: "{declared}"',
                         f'after: "{forged}"')
    mismatches = [f for f in recorded.findings() if f["id"] == "snapshot-mismatch"]
    assert [(f["path"], f.get("root")) for f in mismatches] == [(f"records/{RECORD}.schema.json", "sidecar:Artifact")]
    assert mismatches[0]["message"] == f"normalizes sidecar:Artifact to {declared}, not the declared {forged}"
    assert recorded.adapter_reads == []


def test_a_hand_edit_outside_the_written_layout_is_read_by_the_adapter_and_still_checked(recorded):
    recorded.edit_json(f"records/{RECORD}.schema.json", lambda document: document["$defs"]["sidecar"]["$defs"]
                       ["Thread"]["properties"]["label"].__setitem__("$comment", "a label"))
    assert recorded.verify().exit_code == 0  # a comment is no structure: the digest still holds
    assert recorded.adapter_reads == [f"records/{RECORD}.schema.json"]
    recorded.edit_json(f"records/{RECORD}.schema.json", lambda document: document["$defs"]["sidecar"]["$defs"]
                       ["Thread"]["properties"]["label"].__setitem__("maxLength", 40))
    assert ("snapshot-mismatch", "sidecar:Artifact") in {(f["id"], f.get("root")) for f in recorded.findings()}



# --- the digests a snapshot records for its types ---------------------------------------------------------

def test_a_snapshot_records_the_digest_of_every_type_it_exports_and_a_comparison_takes_them():
    document = exported(FIXED_SOURCE)
    recorded = document["$defs"]["src"][TYPE_DIGESTS]
    assert recorded.keys() == document["$defs"]["src"]["$defs"].keys()
    [graph] = read_written_snapshot(copy.deepcopy(document), "records/x.schema.json")
    assert dict(graph.digests) == recorded  # taken, not hashed
    [hashed] = adapter_result(document)
    assert dict(hashed.digests) == recorded  # and what hashing gives
    assert graph.check_recorded_digests() == [] and dict(graph.digests) == recorded


@pytest.mark.parametrize("table", [
    "not a table", {"A": "sha256:" + "0" * 63}, {"A": "sha256:" + "0" * 64}, {"A": 1},
], ids=["text", "short", "missing-types", "number"])
def test_a_digest_table_not_as_govern_writes_it_is_left_to_the_adapter(table):
    document = exported(FIXED_SOURCE)
    document["$defs"]["src"][TYPE_DIGESTS] = table
    assert read_written_snapshot(copy.deepcopy(document), "records/x.schema.json") is None
    [graph] = adapter_result(document)  # which hashes the types itself
    assert "recorded_digests" not in graph.__dict__ and graph.check_recorded_digests() == []


def test_an_edited_type_digest_is_a_snapshot_mismatch_that_names_the_type(recorded):
    def forge(document: dict) -> None:
        document["$defs"]["sidecar"][TYPE_DIGESTS]["Thread"] = "sha256:" + "0" * 64

    recorded.edit_json(f"records/{RECORD}.schema.json", forge)
    findings = recorded.findings()
    assert [(f["id"], f["path"]) for f in findings] == [("snapshot-mismatch", f"records/{RECORD}.schema.json")]
    assert findings[0]["message"] == "records digests for types of sidecar that their schemas do not give: Thread"
    assert recorded.adapter_reads == []


@pytest.mark.parametrize("forge, named", [
    (lambda table: table.__setitem__("Thread", table["Thread"].upper().replace("SHA256:", "sha256:")), "Thread"),
    (lambda table: table.__setitem__("Bogus", "sha256:" + "1" * 64), "Bogus"),
    (lambda table: table.pop("Thread"), "Thread"),
], ids=["upper-case", "extra-type", "missing-type"])
def test_a_digest_table_not_as_govern_writes_it_is_still_checked(recorded, forge, named):
    # The direct reader leaves such a table to the adapter, which hashes the types and takes nothing from it;
    # verify still holds the table as written to the hashed digests.
    recorded.edit_json(f"records/{RECORD}.schema.json", lambda document: forge(
        document["$defs"]["sidecar"][TYPE_DIGESTS]))
    findings = recorded.findings()
    assert [(f["id"], f["path"]) for f in findings] == [("snapshot-mismatch", f"records/{RECORD}.schema.json")]
    assert findings[0]["message"] == f"records digests for types of sidecar that their schemas do not give: {named}"


def test_a_copy_for_some_roots_checks_the_recorded_digests_as_its_original_would():
    document = exported(FIXED_SOURCE)
    document["$defs"]["src"][TYPE_DIGESTS]["A"] = "sha256:" + "0" * 64
    [graph] = read_written_snapshot(copy.deepcopy(document), "records/x.schema.json")
    copied = graph.with_roots(graph.roots)
    assert copied.digests["A"] == "sha256:" + "0" * 64  # taken, as in the original
    assert copied.check_recorded_digests() == ["A"] and copied.digests["A"] != "sha256:" + "0" * 64
