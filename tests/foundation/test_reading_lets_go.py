"""What reading holds while it builds a graph, and what it lets go of once it is no longer needed: the parsed
document once the types are named, the resolver's targets and the converter's tables of shared subschemas once
the types are converted. A source of many small definitions (a chain of 10,000 aliases, 52 bytes of input each)
otherwise held several times its size at once, on both sides of a comparison.

Each of these is checked where the reader lets go: the memory itself is measured in the benchmarks."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

import govern.sources.jsonschema as jsonschema_source
from govern.process import Handed, taken
from govern.sources.load import load_spec
from govern.sources.refs import SchemaSet

DIALECT = "https://json-schema.org/draft/2020-12/schema"


def _aliases(count: int) -> dict:
    definitions = {f"T{index}": {"$ref": f"#/$defs/T{index + 1}"} for index in range(count)}
    definitions[f"T{count}"] = {"type": "object", "properties": {"id": {"type": "string"}}}
    return {"$schema": DIALECT, "$ref": "#/$defs/T0", "$defs": definitions}


OPENAPI = {
    "openapi": "3.1.0", "info": {"title": "Shop", "version": "1"},
    "paths": {"/orders": {"post": {"requestBody": {"content": {"application/json": {
        "schema": {"$ref": "#/components/schemas/Order"}}}}}}},
    "components": {"schemas": {
        "Order": {"type": "object", "properties": {"id": {"type": "string"}, "item": {"$ref": "#/components/schemas/Item"}}},
        "Item": {"type": "object", "properties": {"sku": {"type": "string"}}}}},
}


@pytest.fixture
def when_named(monkeypatch):
    """What holds each document's parsed content, and what the converter and resolver still hold, at the moment
    the graph is built (just after the types are named and the documents let go)."""
    seen: list[dict] = []
    real_release = SchemaSet.release_documents

    def release(self):
        # Held by its document alone: the reference `document.content` lends getrefcount, plus the attribute.
        seen.append({"holders": [sys.getrefcount(document.content) - 1 for document in self.documents.values()]})
        real_release(self)
        seen[-1]["released"] = [document.content is None for document in self.documents.values()]
        seen[-1]["resolved"] = (len(self._resolved), len(self._definition_tables))

    monkeypatch.setattr(SchemaSet, "release_documents", release)
    return seen


@pytest.mark.parametrize("document", [_aliases(50), OPENAPI], ids=["json-schema", "openapi"])
def test_a_read_document_is_held_by_its_document_alone_and_let_go_once_the_types_are_named(
        tmp_path, when_named, document):
    path = tmp_path / "source.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    graph = load_spec(str(path), tmp_path)
    assert graph.types  # (read as before)
    (state,) = when_named
    assert state["holders"] == [1]  # neither the caller's frame nor a compiled reader's arguments hold it
    assert state["released"] == [True]
    assert state["resolved"] == (0, 0)  # the targets went when conversion ended


def test_the_converters_tables_of_shared_subschemas_are_empty_once_the_types_are_converted(tmp_path, monkeypatch):
    converters: list = []
    real_names = jsonschema_source._assign_names

    def assign_names(converter):
        converters.append(converter)
        return real_names(converter)

    monkeypatch.setattr(jsonschema_source, "_assign_names", assign_names)
    path = tmp_path / "source.json"
    path.write_text(json.dumps({**_aliases(20), "properties": {"a": {"type": "string"}, "b": {"type": "string"}}}),
                    encoding="utf-8")
    load_spec(str(path), tmp_path)
    (converter,) = converters
    assert converter.types  # what the graph is built of stays
    assert None not in converter.types.values()  # every registered type converted
    assert (converter._texts, converter._text_properties, converter._properties, converter._leaves,
            converter._shapes) == ({}, {}, {}, {}, set())


def test_a_handed_value_is_taken_once_and_a_plain_value_passes_as_it_is():
    document = {"type": "object"}
    handed = Handed(document)
    assert taken(handed) is document
    assert taken(handed) is None  # nothing is left in it
    assert taken(document) is document
    assert taken(None) is None


# --- definitions found by name ---------------------------------------------------------------------------------

def _schemas(content: dict) -> tuple[SchemaSet, object]:
    schemas = SchemaSet()
    return schemas, schemas.add_document(content, "source.json", None, "file:///work/source.json", dialect="2020-12")


def test_a_reference_to_a_definition_finds_the_target_registering_found():
    schemas, document = _schemas({"$defs": {"A": {"type": "string"}, "B": {"$ref": "#/$defs/A"}}})
    found = {target.pointer: target for target in schemas.definitions(document, "$defs")}
    assert set(found) == {"/$defs/A", "/$defs/B"}
    assert schemas.known("#/$defs/A", document.uri) is found["/$defs/A"]
    assert schemas.resolve("#/$defs/B", document.uri, document, "") is found["/$defs/B"]
    assert found["/$defs/A"].location == "source.json#/$defs/A" and found["/$defs/A"].schema == {"type": "string"}
    # a deeper pointer, or a reference from another base, is no definition of the table
    assert schemas.known("#/$defs/A/type", document.uri) is None
    assert schemas.known("#/$defs/A", "file:///work/other.json") is None


@pytest.mark.parametrize(("name", "reference"), [
    ("a/b", "#/$defs/a~1b"), ("c~d", "#/$defs/c~0d"), ("e f", "#/$defs/e%20f"), ("g%h", "#/$defs/g%25h"),
])
def test_a_definition_whose_name_a_pointer_escapes_or_a_uri_changes_is_resolved_as_its_reference_is(name, reference):
    schemas, document = _schemas({"$defs": {name: {"type": "integer"}, "plain": {"type": "string"}}})
    targets = list(schemas.definitions(document, "$defs"))
    by_name = {target.schema["type"]: target for target in targets}
    resolved = schemas.resolve(reference, document.uri, document, "")
    # the same definition (registered once as a named type: by its location), as it was found before names were
    # looked up in a table
    assert (resolved.location, resolved.schema) == (by_name["integer"].location, {"type": "integer"})


def test_the_types_of_definitions_with_such_names_are_read_and_named(tmp_path):
    path = tmp_path / "source.json"
    path.write_text(json.dumps({"$schema": DIALECT, "type": "object", "properties": {
        "a": {"$ref": "#/$defs/a~1b"}, "c": {"$ref": "#/$defs/c~0d"}, "e": {"$ref": "#/$defs/e%20f"}},
        "$defs": {"a/b": {"type": "integer"}, "c~d": {"type": "boolean"}, "e f": {"type": "null"}}}),
        encoding="utf-8")
    graph = load_spec(str(path), tmp_path)
    assert {"a/b", "c~d", "e f"} <= set(graph.types)
    assert {graph.locations[name] for name in ("a/b", "c~d", "e f")} == {
        "source.json#/$defs/a~1b", "source.json#/$defs/c~0d", "source.json#/$defs/e f"}
