"""Normalization does work in proportion to the schema: a node is visited a bounded number of times, however
deep it stands, so extracting a large source stays linear."""

from __future__ import annotations

import json
import re
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import govern.sources.jsonschema as jsonschema
from govern.model.nodes import Primitive, Ref
from govern.sources.load import load_spec


def _nested_objects(depth: int) -> dict:
    """An object whose one property is an object, `depth` levels down, each beside a few leaves."""
    schema: dict = {"type": "string"}
    for level in range(depth):
        schema = {"type": "object", "properties": {"inner": schema, "name": {"type": "string"},
                                                   "count": {"type": "integer", "minimum": level}},
                  "required": ["inner"]}
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", **schema}


def _load(tmp_path, document: dict):
    path = tmp_path / "spec.schema.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    return load_spec(str(path), tmp_path)


def _counting_shapes(monkeypatch) -> Counter:
    calls: Counter = Counter()
    original = jsonschema._shape

    def counting(value):
        calls["shape"] += 1
        return original(value)

    monkeypatch.setattr(jsonschema, "_shape", counting)
    return calls


def test_nested_objects_without_repeatable_operands_compute_no_shapes(tmp_path, monkeypatch):
    # Each level's own node is one operand: nothing can repeat, so no structural comparison is needed (it
    # used to walk the whole subtree below every level: quadratic in the depth).
    calls = _counting_shapes(monkeypatch)
    graph = _load(tmp_path, _nested_objects(40))
    assert graph.roots
    assert calls["shape"] == 0


def test_operands_of_different_kinds_compute_no_shapes(tmp_path, monkeypatch):
    calls = _counting_shapes(monkeypatch)
    document = {"$schema": "https://json-schema.org/draft/2020-12/schema", "$defs": {"A": _nested_objects(30)},
                "allOf": [{"$ref": "#/$defs/A"}, _nested_objects(30)],
                "properties": {"maybe": {"anyOf": [{"$ref": "#/$defs/A"}, {"type": "null"}]}}}
    assert _load(tmp_path, document).roots
    assert calls["shape"] == 0


@pytest.mark.parametrize("depth", [10, 40])
def test_repeatable_operands_are_compared_in_time_linear_in_their_size(tmp_path, monkeypatch, depth):
    # Two objects in one allOf may be the same assertion: their structure is compared, once each.
    calls = _counting_shapes(monkeypatch)
    document = {"$schema": "https://json-schema.org/draft/2020-12/schema",
                "allOf": [_nested_objects(depth), _nested_objects(depth)]}
    graph = _load(tmp_path, document)
    (named,) = [graph.types[root.type_key] for root in graph.roots.values()]
    assert named.node.kind == "object"  # the repeated operand is asserted once
    # Per level and operand a fixed number of values: the object, its three properties, their names, nodes
    # and constraints (27 here); walking every subtree once per level above it took thousands.
    assert calls["shape"] <= 2 * 30 * (depth + 1)


class _CountingDict(dict):
    """A JSON object that counts the walks over its members from Python."""

    walks = 0

    def items(self):
        _CountingDict.walks += 1
        return super().items()


def _counting(value):
    if isinstance(value, dict):
        return _CountingDict({key: _counting(item) for key, item in value.items()})
    if isinstance(value, list):
        return [_counting(item) for item in value]
    return value


@pytest.mark.parametrize("dialect, declared, walked", [
    ("2020-12", {}, False),
    ("2020-12", {"$anchor": "inner"}, True),
    ("2020-12", {"$dynamicAnchor": "inner"}, True),
    ("2020-12", {"$id": "inner.json"}, True),
    ("draft-04", {"id": "inner.json"}, True),
    ("draft-04", {"$id": "inner.json"}, False),  # draft-04 spells it `id`: `$id` is an unknown keyword there
])
def test_a_document_is_walked_for_identifiers_only_when_it_holds_one(dialect, declared, walked):
    from govern.sources.refs import SchemaSet

    # An identifier inside data (an enum value) is not indexed, and lets the document be walked at most.
    data = [{"$id": "data.json"}] if walked else ["data"]
    content = _counting({"type": "object", "properties": {"a": {"type": "object", "properties": {
        "b": {"type": "string", "enum": data}, "c": {**declared, "type": "integer"}}}}})
    _CountingDict.walks = 0
    schemas = SchemaSet()
    document = schemas.add_document(content, "doc.json", None, "https://example.com/doc.json", dialect=dialect)
    assert (_CountingDict.walks > 0) == walked
    target = "inner" if "$anchor" in declared or "$dynamicAnchor" in declared else None
    if target:
        assert schemas.anchors[("https://example.com/doc.json", target)] == (document, "/properties/a/properties/c")
    elif walked:
        assert schemas.resources["https://example.com/inner.json"] == (document, "/properties/a/properties/c")
    assert "https://example.com/data.json" not in schemas.resources  # a value inside enum is data


def test_the_walk_for_identifiers_ends_once_every_one_is_met():
    from govern.sources.refs import SchemaSet

    # As govern writes a record's snapshot: identifiers at the top and on one resource under $defs, none below.
    body = {f"T{number}": {"type": "object", "properties": {"next": {"$ref": f"#/$defs/T{number + 1}"}}}
            for number in range(200)}
    content = _counting({"$id": "urn:example:record", "x-notes": {"a": {"b": {}}},
                         "$defs": {"source": {"$id": "urn:example:record:source", "$defs": body}}})
    _CountingDict.walks = 0
    schemas = SchemaSet()
    document = schemas.add_document(content, "record.json", None, "urn:example:record")
    assert _CountingDict.walks <= 3  # the root, $defs and the resource: none of the 200 types below it
    assert schemas.resources["urn:example:record:source"] == (document, "/$defs/source")


_INDEX_KEYS = st.sampled_from(["$id", "$anchor", "$dynamicAnchor", 'x"$id', "enum", "const", "type"])
_INDEX_VALUES = st.sampled_from([None, "", "a", "#frag", "other.json", "urn:x:y", 3])
_INDEX_DOCUMENTS = st.recursive(
    _INDEX_VALUES,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_INDEX_KEYS | st.sampled_from(["p", "q"]), inner,
                                                               max_size=4),
    max_leaves=20)


@settings(settings.get_profile("foundation"))
@given(st.dictionaries(_INDEX_KEYS | st.sampled_from(["p", "q"]), _INDEX_DOCUMENTS, max_size=4),
       st.sampled_from(["2020-12", "draft-04"]))
def test_ending_the_walk_early_indexes_what_the_whole_walk_does(content, dialect):
    import govern.sources.refs as refs

    def index(count_known: bool):
        original = refs._most_holding_keys
        if not count_known:  # as when the count cannot be told: the walk goes on to the end
            refs._most_holding_keys = lambda *arguments: None
        try:
            schemas = refs.SchemaSet()
            schemas.add_document(content, "doc.json", None, "https://example.com/doc.json", dialect=dialect)
        except InputError as error:  # both walks must refuse alike
            return str(error)
        finally:
            refs._most_holding_keys = original
        places = lambda table: {key: (document.label, pointer) for key, (document, pointer) in table.items()}  # noqa: E731
        return places(schemas.resources), places(schemas.anchors)

    assert index(count_known=True) == index(count_known=False)


_URI_PARTS = st.sampled_from(["file:///a/b.json", "https://x.org/s", "https://x.org/s?", "https://x.org/s?q=1",
                              "urn:example:thing", "http://a/b/../c", "file:///a%20b/c.json", "", "x.json",
                              "http://h:80/p;params", "HTTP://H/", "//host/p", "a b", " https://x", "#", "?", "/"])


@settings(settings.get_profile("foundation"))
@given(st.lists(_URI_PARTS, min_size=1, max_size=3).map("".join), st.text(max_size=8))
def test_a_fragment_reference_resolves_to_the_resource_urllib_names(base, fragment):
    from urllib.parse import urldefrag

    from govern.sources.refs import SchemaSet, _URL_BYTES_REMOVED, urljoin

    reference = "#" + fragment
    try:
        expected = urldefrag(urljoin(base, reference))
    except ValueError:
        return  # urllib refuses the base: the reference is refused either way
    if _URL_BYTES_REMOVED.isdisjoint(reference):
        assert (SchemaSet()._resource_of(base), fragment) == tuple(expected)


def _counting_contexts(monkeypatch) -> Counter:
    made: Counter = Counter()
    original = jsonschema._Context.__init__

    def counting(self, *args, **kwargs):
        made["context"] += 1
        original(self, *args, **kwargs)

    monkeypatch.setattr(jsonschema._Context, "__init__", counting)
    return made


def test_known_leaves_and_references_need_no_context_of_their_own(tmp_path, monkeypatch):
    # A context (where a schema stands, for messages and references) is made for each subschema converted
    # anew; a leaf converted before and a reference resolved before are taken as they are.
    made = _counting_contexts(monkeypatch)
    properties = {f"p{index}": {"$ref": "#/$defs/A"} if index % 2 else {"type": "string", "maxLength": 9}
                  for index in range(200)}
    document = {"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object",
                "properties": properties, "$defs": {"A": {"type": "array", "items": {"type": "string"}}}}
    graph = _load(tmp_path, document)
    assert len(graph.types[graph.roots["spec:spec"].type_key].node.properties) == 200
    assert made["context"] < 20


def _counting_conversions(monkeypatch) -> Counter:
    calls: Counter = Counter()
    original = jsonschema.Converter._convert

    def counting(self, schema, context):
        if isinstance(schema, dict) and schema.get("type") == "array":
            calls["array"] += 1
        return original(self, schema, context)

    monkeypatch.setattr(jsonschema.Converter, "_convert", counting)
    return calls


def test_a_repeated_subschema_with_subschemas_is_converted_once(tmp_path, monkeypatch):
    calls = _counting_conversions(monkeypatch)
    labels = {"type": "array", "items": {"type": "string", "description": "a label"}, "maxItems": 20}
    document = {"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object",
                "properties": {f"p{index}": dict(labels) for index in range(50)}}
    graph = _load(tmp_path, document)
    nodes = {id(prop.node) for prop in graph.types[graph.roots["spec:spec"].type_key].node.properties}
    assert calls["array"] == 1
    assert len(nodes) == 1


def test_subschemas_whose_meaning_depends_on_their_place_are_converted_in_place(tmp_path, monkeypatch):
    # The same text refers to different types inside two resources with their own base URIs.
    calls = _counting_conversions(monkeypatch)
    listing = {"type": "array", "items": {"$ref": "#/$defs/Item"}}
    document = {"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object", "properties": {
        "a": {"$id": "https://example.com/a.json", "type": "object", "properties": {"list": listing},
              "$defs": {"Item": {"type": "string"}}},
        "b": {"$id": "https://example.com/b.json", "type": "object", "properties": {"list": listing},
              "$defs": {"Item": {"type": "integer"}}}}}
    graph = _load(tmp_path, document)
    assert calls["array"] == 2
    root = graph.types[graph.roots["spec:spec"].type_key].node
    targets = {graph.types[prop.node.properties[0].node.items.target].node.type for prop in root.properties}
    assert targets == {"string", "integer"}


def test_a_repeated_subschema_is_still_refused_where_it_nests_too_deeply():
    # Named types reached by reference are converted at the depth of their referrer, so one text can stand
    # both where it fits and where its innermost schema passes the limit.
    from govern.errors import InputError
    from govern.sources.refs import SchemaSet

    inner = {"type": "array", "items": {"type": "array", "items": {"type": "string"}}}
    schemas = SchemaSet()
    document = schemas.add_document({"properties": {"a": inner}}, "doc.json", None, "https://example.com/doc.json")
    converter = jsonschema.Converter(schemas)
    shallow = jsonschema._Context(document, "", document.uri, 0)
    assert converter.convert_child(inner, shallow, "a").kind == "array"
    fits = jsonschema._Context(document, "", document.uri, jsonschema.MAX_DEPTH - 3)
    assert converter.convert_child(inner, fits, "a").kind == "array"
    deep = jsonschema._Context(document, "", document.uri, jsonschema.MAX_DEPTH - 2)
    with pytest.raises(InputError) as caught:
        converter.convert_child(inner, deep, "a")
    assert f"nests deeper than {jsonschema.MAX_DEPTH} schema levels" in caught.value.problems[0].reason


def test_subschemas_built_by_code_are_not_shared_by_their_text():
    # A value built by code may hold a tuple, which a compact serialization writes as a list: what a list
    # means (an enum) must not stand for the tuple, which is no JSON array.
    from govern.errors import InputError
    from govern.sources.refs import SchemaSet

    listed = {"type": "object", "properties": {"x": {"enum": ["p", "q"]}}}
    built = {"type": "object", "properties": {"x": {"enum": ("p", "q")}}}
    schemas = SchemaSet()
    document = schemas.add_document({"properties": {"a": listed, "b": built}}, "models", None, "urn:models")
    converter = jsonschema.Converter(schemas, values_from_text=False)
    place = jsonschema._Context(document, "", document.uri, 0)
    assert converter.convert_child(listed, place, "a").kind == "object"
    with pytest.raises(InputError) as caught:
        converter.convert_child(built, place, "b")
    assert "enum must be an array" in caught.value.problems[0].reason


def _counting_rare_branches(monkeypatch) -> Counter:
    """Counts the calls of the helpers only schemas with identifiers, discriminators or applicators need."""
    calls: Counter = Counter()
    for owner, name in ((jsonschema, "_own_id"), (jsonschema.Converter, "_take_discriminator"),
                        (jsonschema.Converter, "_applicators")):
        original = getattr(owner, name)

        def counting(*args, _original=original, _name=name):
            calls[_name] += 1
            return _original(*args)

        monkeypatch.setattr(owner, name, counting)
    return calls


def test_schemas_without_rare_keywords_skip_their_branches(tmp_path, monkeypatch):
    # Objects, arrays, maps, unions, references and bounded leaves: the usual content of a large source.
    calls = _counting_rare_branches(monkeypatch)
    document = {"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object", "properties": {
        "count": {"type": "integer", "minimum": 1, "maximum": 9}, "tags": {"type": "array", "items": {"type": "string"}},
        "byName": {"type": "object", "additionalProperties": {"$ref": "#/$defs/A"}},
        "maybe": {"anyOf": [{"$ref": "#/$defs/A"}, {"type": "null"}]}, "both": {"allOf": [{"$ref": "#/$defs/A"}]}},
        "$defs": {"A": {"type": "object", "properties": {"name": {"type": "string", "maxLength": 5}}}}}
    assert _load(tmp_path, document).roots
    assert calls == Counter()


@pytest.mark.parametrize("keyword, value, helper", [
    ("not", {"type": "string"}, "_applicators"),
    ("$id", "https://example.com/inner.json", "_own_id"),
    ("discriminator", {"propertyName": "kind"}, "_take_discriminator"),
])
def test_a_rare_keyword_takes_its_branch(tmp_path, monkeypatch, keyword, value, helper):
    calls = _counting_rare_branches(monkeypatch)
    inner = {"anyOf": [{"type": "object"}, {"type": "string"}], keyword: value}
    document = {"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object",
                "properties": {"inner": inner}}
    assert _load(tmp_path, document).roots
    assert calls[helper] == 1


def test_a_property_recurring_across_types_is_made_once(tmp_path):
    # Large sources repeat the same property (name, schema, required or not) in many types: one immutable
    # Property serves them all; a different description or requirement makes another.
    identifier = {"type": "string", "maxLength": 64}
    types = {f"T{index}": {"type": "object", "properties": {"id": dict(identifier), f"own{index}": {"type": "integer"}},
                           "required": ["id"]} for index in range(20)}
    types["Other"] = {"type": "object", "properties": {"id": dict(identifier, description="another")}}
    graph = _load(tmp_path, {"$schema": "https://json-schema.org/draft/2020-12/schema", "$defs": types})
    made = [graph.types[f"T{index}"].node.property("id") for index in range(20)]
    assert len({id(prop) for prop in made}) == 1
    assert made[0].required and made[0].description is None
    other = graph.types["Other"].node.property("id")
    assert other is not made[0] and other.description == "another" and not other.required
    assert other.node is made[0].node  # the leaf itself is shared whatever its description


def test_a_repeated_subschema_that_refers_elsewhere_is_converted_once(tmp_path, monkeypatch):
    # Optional references, lists and maps of references recur across the types of a large source: where they
    # stand under the same base URI, their text decides their conversion.
    converted: Counter = Counter()
    original = jsonschema.Converter._convert

    def counting(self, schema, context):
        converted[json.dumps(schema, sort_keys=True)] += 1
        return original(self, schema, context)

    monkeypatch.setattr(jsonschema.Converter, "_convert", counting)
    maybe = {"anyOf": [{"$ref": "#/$defs/A"}, {"type": "null"}]}
    listing = {"type": "array", "items": {"$ref": "#/$defs/A"}}
    types = {f"T{index}": {"type": "object", "properties": {"maybe": dict(maybe), "list": dict(listing),
                                                            f"own{index}": {"type": "object", "properties": {
                                                                "inner": dict(maybe)}}}}
             for index in range(30)}
    types["A"] = {"type": "object", "properties": {"name": {"type": "string"}}}
    graph = _load(tmp_path, {"$schema": "https://json-schema.org/draft/2020-12/schema", "$defs": types})
    assert converted[json.dumps(maybe, sort_keys=True)] == 1
    assert converted[json.dumps(listing, sort_keys=True)] == 1
    nodes = {id(graph.types[f"T{index}"].node.property(name).node) for index in range(30) for name in ("maybe", "list")}
    assert len(nodes) == 2
    inner = {id(graph.types[f"T{index}"].node.property(f"own{index}").node.property("inner").node)
             for index in range(30)}
    assert inner == {id(graph.types["T0"].node.property("maybe").node)}


def test_a_subschema_whose_conversion_notes_its_place_is_converted_at_each_place(tmp_path):
    # Draft-07 ignores keywords beside `$ref`; the note says where. Sharing the conversion would lose places.
    shadowed = {"$ref": "#/definitions/A", "maxLength": 3}
    document = {"$schema": "http://json-schema.org/draft-07/schema#", "type": "object",
                "properties": {"a": dict(shadowed), "b": dict(shadowed),
                               "c": {"type": "array", "items": dict(shadowed)},
                               "d": {"type": "array", "items": dict(shadowed)}},
                "definitions": {"A": {"type": "string"}}}
    graph = _load(tmp_path, document)
    assert sorted(location for location, _, _ in graph.notes) == [
        f"spec.schema.json#/properties/{name}" for name in ("a", "b")] + [
        f"spec.schema.json#/properties/{name}/items" for name in ("c", "d")]


def test_a_repeated_property_is_still_refused_where_it_nests_too_deeply():
    from govern.errors import InputError
    from govern.sources.refs import SchemaSet

    inner = {"type": "array", "items": {"type": "array", "items": {"type": "string"}}}
    holder = {"type": "object", "properties": {"p": inner}}
    schemas = SchemaSet()
    document = schemas.add_document({"properties": {"a": holder}}, "doc.json", None, "https://example.com/doc.json")
    converter = jsonschema.Converter(schemas)
    # The innermost schema stands three levels below the object: at the limit when the object stands at MAX - 3.
    for depth in (0, jsonschema.MAX_DEPTH - 3):
        place = jsonschema._Context(document, "", document.uri, depth)
        assert converter.convert(dict(holder), place).property("p").node.kind == "array"
    deep = jsonschema._Context(document, "", document.uri, jsonschema.MAX_DEPTH - 2)
    with pytest.raises(InputError) as caught:
        converter.convert(dict(holder), deep)
    assert f"nests deeper than {jsonschema.MAX_DEPTH} schema levels" in caught.value.problems[0].reason


def test_definitions_are_registered_without_walking_each_pointer(tmp_path, monkeypatch):
    from govern.sources.refs import SchemaSet

    walks: Counter = Counter()
    original = SchemaSet._walk

    def counting(self, *args):
        walks["walk"] += 1
        return original(self, *args)

    monkeypatch.setattr(SchemaSet, "_walk", counting)
    types = {f"T{index}": {"type": "object", "properties": {"next": {"$ref": f"#/$defs/T{(index + 1) % 200}"}}}
             for index in range(200)}
    graph = _load(tmp_path, {"$schema": "https://json-schema.org/draft/2020-12/schema", "$defs": types})
    assert len(graph.types) == 200
    assert walks["walk"] == 0


_NAMES = st.sampled_from(["A", "a~b", "a/b", "a%20b", "a%b", "a\tb", "a b", "ü", "#", "$id", "..", ""])
_IDS = st.sampled_from([None, "https://example.com/root.json", "nested/inner.json", "#anchor", "urn:example:x",
                        "https://example.com/other/", 7])


@settings(settings.get_profile("foundation"))
@given(names=st.lists(_NAMES, min_size=1, max_size=6, unique=True), root_id=_IDS, table_id=_IDS,
       entry_ids=st.lists(_IDS, min_size=6, max_size=6), dialect=st.sampled_from(["2020-12", "draft-04", "draft-07"]),
       keyword=st.sampled_from(["$defs", "definitions"]))
def test_definitions_resolve_as_each_reference_to_them_would(names, root_id, table_id, entry_ids, dialect, keyword):
    from govern.errors import InputError
    from govern.sources.refs import SchemaSet, escape_token

    id_keyword = "id" if dialect == "draft-04" else "$id"

    def identified(value, identifier):
        return {**value, id_keyword: identifier} if identifier is not None else value

    table = identified({name: identified({"type": "string"}, entry_ids[position])
                        for position, name in enumerate(names)}, table_id)
    content = identified({keyword: table}, root_id)

    def targets(resolve_each):
        schemas = SchemaSet()
        try:
            document = schemas.add_document(content, "doc.json", None, "https://example.com/doc.json", dialect=dialect)
            if resolve_each:
                return [schemas.resolve(f"#/{keyword}/{escape_token(name)}", document.uri, document,
                                        f"/{keyword}/{escape_token(name)}") for name in table if name != id_keyword]
            return [target for target, name in zip(schemas.definitions(document, keyword), table) if name != id_keyword]
        except InputError as error:
            return [str(problem) for problem in error.problems]

    def plain(found):
        return [(target.pointer, target.base, target.schema) if hasattr(target, "pointer") else target
                for target in found]

    assert plain(targets(False)) == plain(targets(True))


_POOL = [
    {"type": "string"}, {"type": "string", "description": "a name"}, {"type": "integer", "minimum": 0},
    {"type": "integer", "minimum": 0, "description": "a count"}, {"enum": ["a", "b"]}, {"const": 1}, {"const": 1.0},
    {"$ref": "#/$defs/T0"}, {"$ref": "#/$defs/T1", "maxLength": 2},
    {"anyOf": [{"$ref": "#/$defs/T1"}, {"type": "null"}]},
    {"type": "array", "items": {"$ref": "#/$defs/T0"}}, {"type": "object", "additionalProperties": {"type": "string"}},
    {"oneOf": [{"type": "string"}, {"type": "integer"}]}, {"not": {}}, False, True, {"allOf": [False]},
    {"type": "object", "properties": {"inner": {"$ref": "#/$defs/T1"}}, "required": ["inner", "gone"]},
    {"$id": "https://example.com/inner.json", "type": "object", "properties": {"x": {"$ref": "#/$defs/T0"}},
     "$defs": {"T0": {"type": "boolean"}}},
]


@settings(settings.get_profile("foundation"), max_examples=120)
@given(types=st.lists(st.dictionaries(st.sampled_from(["a", "b", "c", "d"]), st.integers(0, len(_POOL) - 1),
                                      min_size=2, max_size=4), min_size=2, max_size=5),
       required=st.lists(st.sampled_from(["a", "b", "c"]), max_size=3),
       dialect=st.sampled_from(["https://json-schema.org/draft/2020-12/schema",
                                "http://json-schema.org/draft-07/schema#"]))
def test_sharing_subschemas_by_their_text_changes_nothing(types, required, dialect):
    # The same document read as values built by code (never shared by text) and as text (shared): one graph.
    from govern.errors import InputError
    from govern.sources.refs import SchemaSet

    def document():
        return {"$schema": dialect, "$defs": {f"T{index}": {"type": "object", "required": required, "properties": {
            name: json.loads(json.dumps(_POOL[choice])) for name, choice in properties.items()}}
            for index, properties in enumerate(types)}}

    def graph(from_text):
        schemas = SchemaSet()
        content = document()
        doc = schemas.add_document(content, "doc.json", None, "https://example.com/doc.json")
        converter = jsonschema.Converter(schemas, values_from_text=from_text)
        converter.register_definitions(doc)
        try:
            found = jsonschema.finish_graph(converter, "s", {"Root": (converter.named_at(doc, "/$defs/T0"), "record")},
                                            doc.label)
        except InputError as error:
            return [str(problem) for problem in error.problems]
        return repr((sorted(found.types.items()), found.notes, sorted(found.locations.items())))

    assert graph(True) == graph(False)


_LEAF_KEYWORDS = st.sampled_from(sorted(jsonschema.STRING_KEYWORDS | jsonschema.NUMBER_KEYWORDS | {
    "minItems", "maxProperties", "required", "uniqueItems", "title", "description", "default", "$comment", "$id", "id",
    "$schema", "readOnly", "x-extension", "x-persistence-version", "nullable", "enum", "const", "$anchor", "xml"}))
_LEAF_VALUES = st.one_of(st.integers(-2, 3), st.sampled_from([0.0, 1.0, 2.5, -0.0]), st.booleans(), st.none(),
                         st.sampled_from(["", "int32", "a", "#x"]), st.lists(st.integers(0, 2), max_size=2))


@settings(settings.get_profile("foundation"), max_examples=300)
@given(declared=st.sampled_from(["string", "integer", "number", "boolean", "null", "object", "array", "float"]),
       keywords=st.dictionaries(_LEAF_KEYWORDS, _LEAF_VALUES, max_size=5),
       dialect=st.sampled_from(["2020-12", "draft-04", "draft-07", "openapi-3.0"]))
def test_a_plain_primitive_is_made_as_its_conversion_makes_it(declared, keywords, dialect):
    from govern.errors import InputError
    from govern.sources.refs import SchemaSet

    schema = {"type": declared, **keywords}
    schemas = SchemaSet()
    document = schemas.add_document({}, "doc.json", None, "https://example.com/doc.json", dialect=dialect)
    converter = jsonschema.Converter(schemas, openapi=dialect == "openapi-3.0")
    try:
        converted = converter._convert(dict(schema), jsonschema._Context(document, "", document.uri, 1))
    except InputError:
        converted = None
    plain = jsonschema._plain_primitive(schema)
    assert plain is None or repr(plain) == repr(converted)


def test_distinct_plain_primitives_need_no_context_of_their_own(tmp_path, monkeypatch):
    # Bounded numbers and strings differ from type to type (a maximum of their own): each is made directly.
    made = _counting_contexts(monkeypatch)
    properties = {f"p{index}": {"type": "integer", "minimum": 0, "maximum": index, "format": "int32"}
                  if index % 2 else {"type": "string", "minLength": 0, "maxLength": index} for index in range(200)}
    graph = _load(tmp_path, {"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object",
                             "properties": properties})
    nodes = {prop.name: prop.node for prop in graph.types[graph.roots["spec:spec"].type_key].node.properties}
    assert nodes["p7"].constraints == (("format", '"int32"'), ("maximum", "7"), ("minimum", "0"))
    assert nodes["p8"].constraints == (("maxLength", "8"),)
    assert made["context"] < 10


def _counting_calls(monkeypatch, owner, name) -> Counter:
    calls: Counter = Counter()
    original = getattr(owner, name)

    def counting(*args, **kwargs):
        calls[name] += 1
        return original(*args, **kwargs)

    monkeypatch.setattr(owner, name, counting)
    return calls


def test_a_property_made_anew_keeps_one_copy_of_its_text(tmp_path, monkeypatch):
    # Its text keys both the subschema and the property (see kept_text): one copy serves both tables.
    calls = _counting_calls(monkeypatch, jsonschema, "kept_text")
    properties = {f"p{index}": {"type": "integer", "maximum": index} for index in range(100)}
    graph = _load(tmp_path, {"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object",
                             "properties": properties})
    assert len(graph.types[graph.roots["spec:spec"].type_key].node.properties) == 100
    assert calls["kept_text"] == 100


def test_subschemas_under_one_base_find_its_table_once(tmp_path, monkeypatch):
    # Every subschema of a type stands under the type's base URI (none declares its own): the table of the
    # subschemas converted there is looked up once for the type, not once per subschema converted anew.
    calls = _counting_calls(monkeypatch, jsonschema.Converter, "_text_table")
    properties = {f"p{index}": {"type": "array", "items": {"type": "array", "items": {"$ref": f"#/$defs/T{index}"}}}
                  for index in range(50)}
    document = {"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object",
                "properties": properties, "$defs": {f"T{index}": {"type": "string"} for index in range(50)}}
    assert _load(tmp_path, document).roots
    assert calls["_text_table"] == 1


def test_a_typed_schema_composing_nothing_is_its_node(tmp_path, monkeypatch):
    # Objects, arrays, maps and bounded leaves: one declared type and its keywords are the whole node, with no
    # conjunction of parts to build.
    calls = _counting_calls(monkeypatch, jsonschema, "_all_of")
    properties = {f"p{index}": {"type": "array", "items": {"type": "object", "properties": {
        "n": {"type": "integer", "maximum": index, "description": "x"}}}, "maxItems": index} for index in range(30)}
    graph = _load(tmp_path, {"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object",
                             "properties": properties, "x-extension": 1})
    node = graph.types[graph.roots["spec:spec"].type_key].node
    assert node.constraints == (("x-extension", "1"),)  # a keyword the adapter does not read still counts
    assert node.property("p7").node.constraints == (("maxItems", "7"),)
    assert calls["_all_of"] == 0


def _counting_serializations(monkeypatch) -> Counter:
    import govern.reader as reader
    import govern.sources.refs as refs

    calls: Counter = Counter()
    dumps = reader.compact_serializer()

    def counting(value):
        calls["dumps"] += 1
        return dumps(value)

    monkeypatch.setattr(reader, "compact_serializer", lambda: counting)
    monkeypatch.setattr(refs, "compact_serializer", lambda: counting)
    return calls


def test_a_file_read_is_serialized_once_for_its_reading_and_its_identifiers(tmp_path, monkeypatch):
    # Reading proves the text strict with a compact serialization of the value, in which every key is written
    # `"key":`: the same text tells the index that no identifier or anchor occurs.
    from govern.sources.refs import SchemaSet

    path = tmp_path / "doc.json"
    path.write_text(json.dumps(_nested_objects(5)), encoding="utf-8")
    calls = _counting_serializations(monkeypatch)
    SchemaSet().load_file(path)
    assert calls["dumps"] == 1


@pytest.mark.parametrize("dialect, declared, indexed", [
    ("https://json-schema.org/draft/2020-12/schema", {}, None),
    ("https://json-schema.org/draft/2020-12/schema", {"$anchor": "inner"}, "anchor"),
    ("https://json-schema.org/draft/2020-12/schema", {"$dynamicAnchor": "inner"}, "anchor"),
    ("https://json-schema.org/draft/2020-12/schema", {"$id": "inner.json"}, "resource"),
    ("https://json-schema.org/draft/2020-12/schema", {"\\u0024id": "inner.json"}, "resource"),
    ("http://json-schema.org/draft-04/schema#", {"id": "inner.json"}, "resource"),
    ("http://json-schema.org/draft-04/schema#", {"$id": "inner.json"}, None),
])
def test_identifiers_of_a_file_are_indexed_as_its_reading_finds_them(tmp_path, dialect, declared, indexed):
    from govern.sources.refs import SchemaSet

    inner = ", ".join(f'"{key}": "{value}"' for key, value in declared.items())
    path = tmp_path / "doc.json"
    path.write_text(f'{{"$schema": "{dialect}", "properties": {{"c": {{{inner}{", " if inner else ""}'
                    f'"type": "integer"}}, "d": {{"enum": [{{"$id": "data.json"}}]}}}}}}', encoding="utf-8")
    schemas = SchemaSet()
    document = schemas.load_file(path)
    uri = document.uri
    anchors = {key: value for key, value in schemas.anchors.items()}
    resources = {key: value for key, value in schemas.resources.items() if key != uri}
    assert anchors == ({(uri, "inner"): (document, "/properties/c")} if indexed == "anchor" else {})
    expected = {uri.rsplit("/", 1)[0] + "/inner.json": (document, "/properties/c")} if indexed == "resource" else {}
    assert resources == expected  # a value inside enum is data


def _read_both_ways(document: dict, root: str = "/$defs/T0"):
    """The graph of a document read from text (subschemas shared by their text and their shape) and as values built
    by code (each converted where it stands), with the named types each registered anew, in order, at what depth;
    or the messages of a refusal."""
    from govern.errors import InputError
    from govern.sources.refs import SchemaSet

    def graph(from_text):
        schemas = SchemaSet()
        doc = schemas.add_document(json.loads(json.dumps(document)), "doc.json", None, "https://example.com/doc.json")
        converter = jsonschema.Converter(schemas, values_from_text=from_text)
        registered = []
        original = converter.named

        def named(target, depth=0, sees=0):
            key = original(target, depth, sees)
            if key not in [each for each, _ in registered]:
                registered.append((key, depth))
            return key

        converter.named = named
        converter.register_definitions(doc)
        try:
            found = jsonschema.finish_graph(converter, "s", {"Root": (converter.named_at(doc, root), "record")},
                                            doc.label)
        except InputError as error:
            return [str(problem) for problem in error.problems]
        return repr((sorted(found.types.items()), found.notes, sorted(found.locations.items()), registered))

    return graph(True), graph(False)


def test_subschemas_differing_only_in_the_types_they_name_are_converted_once_per_shape(tmp_path, monkeypatch):
    # `anyOf [ref, null]`, arrays and maps of a reference, a oneOf of inline objects that refer elsewhere: across
    # the types of a large source their texts differ in the types named, and a conversion of each is what one of
    # them makes, with its references in place.
    converted: Counter = Counter()
    original = jsonschema.Converter._convert

    def counting(self, schema, context):
        if isinstance(schema, dict) and context.pointer.count("/") > 2:
            shape = json.dumps(schema, sort_keys=True)  # with the types named told apart only by repetition
            for position, name in enumerate(dict.fromkeys(re.findall(r'"#/\$defs/T[0-9]+"', shape))):
                shape = shape.replace(name, f'"@{position}"')
            converted[shape] += 1
        return original(self, schema, context)

    monkeypatch.setattr(jsonschema.Converter, "_convert", counting)

    def refer(index):
        return {"$ref": f"#/$defs/T{index}"}

    types = {f"T{index}": {"type": "object", "properties": {
        "maybe": {"anyOf": [refer(index + 1), {"type": "null"}]},
        "list": {"type": "array", "items": refer(index + 2), "maxItems": 5},
        "byName": {"type": "object", "additionalProperties": refer(index + 3)},
        "either": {"oneOf": [{"type": "object", "properties": {"kind": {"const": "a"}, "value": refer(index + 4)}},
                             {"type": "object", "properties": {"kind": {"const": "b"}, "value": refer(index + 5)}}]},
        "both": {"allOf": [refer(index + 1), refer(index + 1 + index % 2)]}}} for index in range(40)}
    types.update({f"T{index}": {"type": "string"} for index in range(40, 46)})
    document = {"$schema": "https://json-schema.org/draft/2020-12/schema", "$defs": types}
    graph = _load(tmp_path, document)
    assert max(converted.values()) <= 2  # seen once, made a template, then taken from it
    maybe = graph.types["T7"].node.property("maybe").node
    assert [alternative.node for alternative in maybe.alternatives] == [Ref("T8"), Primitive("null")]
    assert graph.types["T7"].node.property("both").node.operands == (Ref("T8"), Ref("T9"))
    assert graph.types["T8"].node.property("both").node == Ref("T9")  # a repeated operand counts once
    from_text, from_values = _read_both_ways(document)
    assert from_text == from_values


# Subschemas with places for references ("@0", "@1": filled with references to definitions), to be repeated with
# different and equal targets.
_SHAPES = [
    {"anyOf": [{"$ref": "@0"}, {"type": "null"}]},
    {"oneOf": [{"$ref": "@0"}, {"$ref": "@1"}]},
    {"allOf": [{"$ref": "@0"}, {"$ref": "@1"}]},
    {"anyOf": [{"$ref": "@0"}, {"$ref": "@1"}, {"type": "string"}]},
    {"type": "array", "items": {"$ref": "@0"}, "maxItems": 3},
    {"type": "object", "additionalProperties": {"$ref": "@0"}},
    {"type": "object", "properties": {"x": {"$ref": "@0"}, "y": {"anyOf": [{"$ref": "@1"}, {"type": "null"}]}},
     "required": ["x", "z"]},
    {"$ref": "@0", "maxLength": 2},
    {"$ref": "@0", "description": "beside a reference"},
    {"oneOf": [{"type": "object", "properties": {"kind": {"const": "a"}, "value": {"$ref": "@0"}}},
               {"type": "object", "properties": {"kind": {"const": "b"}, "value": {"$ref": "@1"}}}],
     "discriminator": {"propertyName": "kind", "mapping": {"a": "@0", "b": "@1"}}},
    {"type": "object", "properties": {"a": {"$ref": "@0"}}, "allOf": [{"$ref": "@1"}], "unevaluatedProperties": False},
    {"not": {"$ref": "@0"}},
    {"type": "array", "prefixItems": [{"$ref": "@0"}], "items": {"$ref": "@1"}},
    {"if": {"$ref": "@0"}, "then": {"$ref": "@1"}},
    {"enum": [{"$ref": "@0"}, 1]},
    {"type": "object", "x-extension": {"$ref": "@0"}, "properties": {"p": {"$ref": "@1"}}},
    {"type": ["object", "array"], "properties": {"p": {"$ref": "@0"}}, "items": {"$ref": "@1"}},
    {"type": "object", "properties": {"deep": {"type": "array", "items": {"type": "array", "items": {"$ref": "@0"}}},
                                      "near": {"$ref": "@0"}}},
    {"$id": "https://example.com/inner.json", "type": "object", "properties": {"x": {"$ref": "@0"}}},
    {"$ref": "@0"},
]


def _filled(shape, targets):
    text = json.dumps(shape)
    for position, target in enumerate(targets):
        text = text.replace(f'"@{position}"', json.dumps(f"#/$defs/T{target}"))
    return json.loads(text)


@settings(settings.get_profile("foundation"), max_examples=150)
@given(types=st.lists(st.lists(st.tuples(st.integers(0, len(_SHAPES) - 1), st.integers(0, 5), st.integers(0, 5)),
                               min_size=1, max_size=5), min_size=2, max_size=6),
       required=st.lists(st.sampled_from(["p0", "p1", "p2"]), max_size=2),
       dialect=st.sampled_from(["https://json-schema.org/draft/2020-12/schema",
                                "http://json-schema.org/draft-07/schema#"]))
def test_subschemas_taken_from_a_template_read_as_their_own_conversion(types, required, dialect):
    # The same shapes repeated with references to the same, to different and to missing types (T5 is
    # missing), read from text (shared by text and shape) and as values built by code (each converted where it
    # stands): the same graph, notes, registrations in order and at the same depths, or the same refusal.
    document = {"$schema": dialect, "$defs": {f"T{index}": {"type": "object", "required": required, "properties": {
        f"p{position}": _filled(_SHAPES[shape], (first, second))
        for position, (shape, first, second) in enumerate(properties)}} for index, properties in enumerate(types)}}
    document["$defs"]["T4"] = {"type": "array", "items": {"type": "string"}}
    from_text, from_values = _read_both_ways(document)
    assert from_text == from_values


def _serialized_values(monkeypatch) -> list:
    """The values the reader serializes from now on (for their texts), in order."""
    serialized: list = []
    dumps = jsonschema.compact_serializer()

    def counting(value):
        serialized.append(value)
        return dumps(value)

    monkeypatch.setattr(jsonschema, "compact_serializer", lambda: counting)
    return serialized


def test_a_property_that_is_a_reference_alone_is_made_without_its_text(tmp_path, monkeypatch):
    # The types of a large source name one another by properties that are a reference alone, whose texts
    # seldom repeat: such a property is made at once from the reference node, its schema never serialized.
    serialized = _serialized_values(monkeypatch)
    types = {f"T{index}": {"type": "object", "required": ["next"], "properties": {
        "next": {"$ref": f"#/$defs/T{(index + 1) % 30}"}, "back": {"$ref": f"#/$defs/T{(index + 29) % 30}"},
        "id": {"type": "string"}}} for index in range(30)}
    graph = _load(tmp_path, {"$schema": "https://json-schema.org/draft/2020-12/schema", "$defs": types})
    assert serialized and all("$ref" not in value for value in serialized)
    node = graph.types["T7"].node
    assert node.property("next") == jsonschema.Property("next", Ref("T8"), True)
    assert node.property("back") == jsonschema.Property("back", Ref("T6"), False)
    assert node.property("next").node is graph.types["T9"].node.property("back").node


@pytest.mark.parametrize("reference", [
    {"$ref": "#/$defs/T1"}, {"$ref": "#/$defs/Missing"}, {"$ref": "#/$defs/T1", "description": "d"},
    {"$ref": "#/$defs/T1", "maxLength": 1}, {"$ref": 5}, {"$ref": "#/$defs/T0"}, {"$ref": "other.json#/x"},
    {"$ref": "#"}, {"$ref": "#/$defs/T%31"}, {"$ref": "#/$defs/T2"},
])
def test_a_property_that_is_a_reference_alone_reads_as_its_conversion(reference):
    # Read from text (made at once from the reference node) and as values built by code (converted where it
    # stands): the same graph, the same named types registered in the same order at the same depths, or the
    # same refusal; at the first level and nested, before and after the target was named elsewhere.
    document = {"$schema": "https://json-schema.org/draft/2020-12/schema", "$defs": {
        "T0": {"type": "object", "properties": {"a": reference, "deep": {"type": "object", "properties": {
            "b": reference, "c": {"$ref": "#/$defs/T2"}}}, "z": reference}, "required": ["z"]},
        "T1": {"type": "object", "properties": {"back": {"$ref": "#/$defs/T0"}}},
        "T2": {"type": "string"}}}
    from_text, from_values = _read_both_ways(document)
    assert from_text == from_values


def _replaced(node, replaced: dict):
    """The straightforward substitution: every node rebuilt with each reference node (by identity) replaced."""
    from dataclasses import fields, replace

    from govern.model import nodes as model

    if isinstance(node, model.Ref):
        return replaced.get(id(node), node)
    if isinstance(node, tuple):
        return tuple(_replaced(item, replaced) for item in node)
    if node.__class__ in (model.Property, model.Alternative, model.Object, model.Union, model.Array, model.Map,
                          model.Tuple, model.Intersection, model.Applicator):
        return replace(node, **{each.name: _replaced(getattr(node, each.name), replaced) for each in fields(node)
                                if each.name in ("node", "properties", "alternatives", "items", "values", "rest",
                                                 "operands", "additional", "pattern_properties")})
    return node


def _nodes_with(refs):
    from govern.model import nodes as model

    leaves = st.sampled_from([model.Primitive("string"), model.Primitive("integer", (("minimum", "0"),)), model.OPEN,
                              model.NEVER, model.Literal('"a"'), model.Enum(('"a"', '"b"'))]) | st.sampled_from(refs)

    def composed(inner):
        names = st.sampled_from(["a", "b", "c"])
        return st.one_of(
            st.builds(lambda props, extra, patterns: model.Object(
                tuple(model.Property(name, node, required, False, description) for name, (node, required, description)
                      in sorted(props.items())), extra, tuple(sorted(patterns.items()))),
                st.dictionaries(names, st.tuples(inner, st.booleans(), st.none() | st.just("d")), max_size=3),
                inner, st.dictionaries(st.sampled_from(["^x", "^y"]), inner, max_size=1)),
            st.builds(lambda alternatives, exclusive: model.Union(tuple(
                model.Alternative(node, qualified, tags) for node, qualified, tags in alternatives), exclusive,
                keyword="oneOf" if exclusive else "anyOf"),
                st.lists(st.tuples(inner, st.booleans(), st.sampled_from([(), ('"t"',)])), min_size=1, max_size=3),
                st.booleans()),
            st.builds(model.Array, inner), st.builds(model.Map, inner),
            st.builds(lambda items, rest: model.Tuple(tuple(items), rest), st.lists(inner, min_size=1, max_size=2), inner),
            st.builds(lambda operands: model.Intersection(tuple(operands), tuple(range(len(operands)))),
                      st.lists(inner, min_size=2, max_size=3)),
            st.builds(lambda operands: model.Applicator("if-then-else", tuple(operands)),
                      st.lists(inner, min_size=3, max_size=3)))

    return st.recursive(leaves, composed, max_leaves=12)


_TEMPLATE_REFS = (Ref("#/$defs/A"), Ref("#/$defs/B"), Ref("#/$defs/C"))


@settings(settings.get_profile("foundation"), max_examples=300)
@given(node=_nodes_with(_TEMPLATE_REFS), used=st.integers(1, 3))
def test_a_template_makes_its_node_with_the_references_replaced(node, used):
    # Planned once per template, the rebuilding makes what replacing each reference in a walk over the whole node
    # makes: every part on a path to one of the template's references anew, every other part as it is.
    refs = _TEMPLATE_REFS[:used]
    made = [Ref(f"#/$defs/made{position}") for position in range(used)]
    built = jsonschema._builder(node, refs)(made)
    expected = _replaced(node, {id(ref): new for ref, new in zip(refs, made)})
    assert repr(built) == repr(expected) and built == expected


@pytest.mark.parametrize("first, second", [
    ({"not": {}, jsonschema.RESERVED: True}, {"not": {}}),
    ({"not": {}}, {"not": {}, jsonschema.RESERVED: True}),
    ({"type": "string"}, {"type": "string", jsonschema.RESERVED: True}),
    ({"not": {}}, {"not": {}, "description": "gone"}),
    ({"allOf": [False]}, {"type": "string"}),
])
def test_a_marked_property_and_one_found_by_its_text_read_as_their_conversion(first, second):
    # A property found by its text has that text's keywords, so no marker: only one made anew is asked for one.
    # Optional never properties are left out, reserved ones kept, refusals the same, read either way.
    document = {"$schema": "https://json-schema.org/draft/2020-12/schema", "$defs": {
        "T0": {"type": "object", "properties": {"p": first, "q": {"$ref": "#/$defs/T1"}}},
        "T1": {"type": "object", "properties": {"p": second, "r": first}},
        "T2": {"type": "object", "properties": {"p": first, "s": second}, "required": ["s"]}}}
    from_text, from_values = _read_both_ways(document)
    assert from_text == from_values


def test_an_inline_object_beside_its_parent_is_converted_without_its_text(tmp_path, monkeypatch):
    # An object schema holding properties that stands as an operand, an alternative, an item or a map's values
    # seldom repeats as a whole (a type-level object inside an allOf never does): it is converted where it stands,
    # its properties each found by their own text, so the whole is not serialized first.
    serialized = _serialized_values(monkeypatch)

    def inline(index):
        return {"type": "object", "properties": {"id": {"type": "string"}, "n": {"type": "integer", "maximum": index}}}

    types = {f"T{index}": {"allOf": [{"$ref": f"#/$defs/T{index + 1}"} if index < 19 else {"type": "object"},
                                     inline(index)]} for index in range(20)}
    types["U"] = {"type": "object", "properties": {"list": {"type": "array", "items": inline(1)},
                                                   "map": {"type": "object", "additionalProperties": inline(2)}}}
    graph = _load(tmp_path, {"$schema": "https://json-schema.org/draft/2020-12/schema", "$defs": types})
    assert not [value for value in serialized if "properties" in value and value not in (
        types["U"]["properties"]["list"], types["U"]["properties"]["map"])]  # (those two are properties: found by text)
    assert graph.types["T3"].node.operands[1].property("n").node == Primitive("integer", (("maximum", "3"),))
    document = {"$schema": "https://json-schema.org/draft/2020-12/schema", "$defs": {**types, "V": {"oneOf": [
        inline(1), inline(1), {"type": "array", "items": inline(1)}, {"$ref": "#/$defs/T0"}]}}}
    from_text, from_values = _read_both_ways(document, "/$defs/V")
    assert from_text == from_values
def test_a_shape_refused_as_a_template_is_not_recorded_again(tmp_path, monkeypatch):
    # "discriminator" in its text (here only in a description) refuses the shape as a template.
    shared = {"type": "object", "properties": {"r": {"type": "array", "items": {"$ref": "#/$defs/Leaf"}}}}
    types = {f"T{index}": {"type": "object", "properties": {"x": {
        "type": "object", "description": "see discriminator",
        "properties": {"own": {"$ref": f"#/$defs/T{(index + 1) % 40}"}, "shared": shared}}}}
        for index in range(40)}
    document = {"$schema": "https://json-schema.org/draft/2020-12/schema", "$ref": "#/$defs/T0",
                "$defs": {"Leaf": {"type": "string"}, **types}}
    offered = Counter()
    original = jsonschema.Converter._template

    def counting(self, node, made, references, parent, text):
        offered[text] += 1
        return original(self, node, made, references, parent, text)

    monkeypatch.setattr(jsonschema.Converter, "_template", counting)
    graph = _load(tmp_path, document)
    refused = [count for text, count in offered.items() if b"discriminator" in text]
    assert refused == [1]  # the second of the 40 is recorded and refused; the other 38 are only converted
    monkeypatch.undo()
    assert _load(tmp_path, document).types == graph.types


def test_a_reference_named_like_a_keyword_refuses_no_shape(tmp_path, monkeypatch):
    # The refusal depends on the shape alone (references' strings left out): the type named `discriminator`
    # that the first recorded occurrence refers to does not keep the others from being made by the template.
    types = {f"T{index}": {"type": "object", "properties": {"a": {"type": "array", "items": {
        "$ref": f"#/$defs/{'discriminator' if index > 36 else 'T'}{(index + 1) % 40}"}}}} for index in range(40)}
    types.update({f"discriminator{index}": {"type": "string"} for index in range(40)})
    document = {"$schema": "https://json-schema.org/draft/2020-12/schema", "$ref": "#/$defs/T0", "$defs": types}
    made = []
    original = jsonschema.Converter._template

    def recording(self, *arguments):
        made.append(original(self, *arguments))
        return made[-1]

    monkeypatch.setattr(jsonschema.Converter, "_template", recording)
    graph = _load(tmp_path, document)
    assert made and all(template is not None for template in made)
    monkeypatch.undo()
    assert _load(tmp_path, document).types == graph.types


def test_reading_a_source_leaves_no_reference_cycles_behind(tmp_path):
    # What reading makes is freed by reference counting once the graph is dropped, not at the collector's next
    # full run (which a long command may never reach), also where the reader's functions are compiled, which gives
    # the functions made in one call a shared frame: templates of every shape (an intersection and an applicator
    # of a reference, an array, a union and an object holding one) are made and used.
    import gc

    types = {f"T{i}": {"type": "object", "properties": {
        "all": {"allOf": [{"$ref": f"#/$defs/T{(i + 1) % 12}"}, {"required": ["x"]}]},
        "not": {"not": {"$ref": f"#/$defs/T{(i + 2) % 12}"}},
        "list": {"type": "array", "items": {"$ref": f"#/$defs/T{(i + 3) % 12}"}},
        "maybe": {"anyOf": [{"$ref": f"#/$defs/T{(i + 4) % 12}"}, {"type": "null"}]},
        "inline": {"type": "object", "properties": {"to": {"$ref": f"#/$defs/T{(i + 5) % 12}"}}},
    }} for i in range(12)}
    document = {"$schema": "https://json-schema.org/draft/2020-12/schema", "$defs": types, "$ref": "#/$defs/T0"}

    def read() -> None:
        graph = _load(tmp_path, document)
        assert graph.digests
    read()  # (what a first reading imports and caches stays)
    gc.collect()
    gc.disable()
    try:
        read()
        assert gc.collect() == 0
    finally:
        gc.enable()
