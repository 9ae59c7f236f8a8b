"""OpenAPI 3.0/3.1 and pydantic v2 adapters: roots, names and the structure they produce."""

from __future__ import annotations

import json
import sys
import textwrap
import uuid

import pytest

from conftest import digests_of_graph, document_digest, load_file
from govern.errors import InputError
from govern.model.render import structure
from govern.sources.pydantic import load_pydantic


def openapi(version: str, schemas: dict, **extra) -> dict:
    return {
        "openapi": version,
        "info": {"title": "demo", "version": "1.2"},
        "paths": {
            "/items": {
                "post": {
                    "requestBody": {"$ref": "#/components/requestBodies/NewItem"},
                    "responses": {"200": {"$ref": "#/components/responses/ItemResponse"},
                                  "400": {"description": "bad", "content": {"application/json": {
                                      "schema": {"$ref": "#/components/schemas/Problem"}}}}},
                },
                "get": {"responses": {"200": {"description": "ok", "content": {"application/json": {
                    "schema": {"type": "array", "items": {"$ref": "#/components/schemas/Item"}}}}}}},
            }
        },
        "components": {
            "schemas": schemas,
            "requestBodies": {"NewItem": {"content": {"application/json": {
                "schema": {"$ref": "#/components/schemas/NewItem"}}}}},
            "responses": {"ItemResponse": {"description": "ok", "content": {"application/json": {
                "schema": {"$ref": "#/components/schemas/Item"}}}}},
        },
        **extra,
    }


def components(nullable_style: str) -> dict:
    note = ({"type": "string", "nullable": True} if nullable_style == "3.0"
            else {"type": ["string", "null"]})
    return {
        "NewItem": {"type": "object", "properties": {"name": {"type": "string"}, "note": note},
                    "required": ["name"], "additionalProperties": False},
        "Item": {"allOf": [{"$ref": "#/components/schemas/NewItem"},
                           {"type": "object", "properties": {"id": {"$ref": "#/components/schemas/Id"}}}]},
        "Id": {"type": "integer", "minimum": 1},
        "Problem": {"type": "object", "properties": {"detail": {"type": "string"}}},
        "Unused": {"type": "string"},
    }


@pytest.mark.parametrize("version", ["3.0.3", "3.1.0"])
def test_openapi_roots_are_body_components(tmp_path, version):
    path = tmp_path / "shop.openapi.json"
    path.write_text(json.dumps(openapi(version, components(version[:3]))), encoding="utf-8")
    graph = load_file(path, tmp_path)
    # requestBody and response $refs into components are followed; inline array bodies are not roots.
    assert sorted(graph.roots) == ["shop:Item", "shop:NewItem", "shop:Problem"]
    assert {"Id", "Unused"} <= set(graph.types)


def test_openapi_30_nullable_hashes_like_31_type_list(tmp_path):
    digests = {}
    for version in ("3.0.3", "3.1.0"):
        path = tmp_path / version / "shop.openapi.json"
        path.parent.mkdir()
        path.write_text(json.dumps(openapi(version, components(version[:3]))), encoding="utf-8")
        digests[version] = digests_of_graph(load_file(path, path.parent))
    assert digests["3.0.3"] == digests["3.1.0"]


def test_openapi_30_nullable_structure(tmp_path):
    path = tmp_path / "shop.openapi.json"
    path.write_text(json.dumps(openapi("3.0.3", components("3.0"))), encoding="utf-8")
    graph = load_file(path, tmp_path)
    note = structure(graph.types["NewItem"].node)["properties"]["note"]["type"]
    assert note == {"kind": "union", "mode": "anyOf", "alternatives": [
        {"kind": "primitive", "type": "string"}, {"kind": "primitive", "type": "null"}]}


def test_openapi_component_digest_matches_plain_json_schema(tmp_path):
    path = tmp_path / "shop.openapi.json"
    path.write_text(json.dumps(openapi("3.1.0", components("3.1"))), encoding="utf-8")
    digests = digests_of_graph(load_file(path, tmp_path))
    assert digests["shop:Problem"] == document_digest({"type": "object", "properties": {"detail": {"type": "string"}}})


def test_openapi_renaming_a_component_keeps_other_roots(tmp_path):
    original = components("3.1")
    renamed = json.loads(json.dumps(original).replace("#/components/schemas/Id", "#/components/schemas/Identifier"))
    renamed["Identifier"] = renamed.pop("Id")
    results = []
    for index, schemas in enumerate((original, renamed)):
        path = tmp_path / str(index) / "shop.openapi.json"
        path.parent.mkdir()
        path.write_text(json.dumps(openapi("3.1.0", schemas)), encoding="utf-8")
        results.append(digests_of_graph(load_file(path, path.parent)))
    assert results[0] == results[1]


def test_openapi_30_boolean_exclusive_bounds(tmp_path):
    schemas = components("3.0")
    schemas["Id"] = {"type": "integer", "minimum": 0, "exclusiveMinimum": True}
    path = tmp_path / "shop.openapi.json"
    path.write_text(json.dumps(openapi("3.0.3", schemas)), encoding="utf-8")
    graph = load_file(path, tmp_path)
    assert structure(graph.types["Id"].node) == {"kind": "primitive", "type": "integer",
                                                 "constraints": {"exclusiveMinimum": 0}}


# --- pydantic ----------------------------------------------------------------------------------------

MODELS = """
from typing import Literal, Optional, Union
from pydantic import BaseModel, ConfigDict, Field


def reserved(schema):
    schema.clear()
    schema.update({"not": {}, "x-persistence-reserved": True})


class Note(BaseModel):
    model_config = ConfigDict(extra="forbid")
    text: str = Field(max_length=200, description="ignored")
    legacy: Optional[int] = Field(default=None, json_schema_extra=reserved)


class Folder(BaseModel):
    name: str
    notes: list[Note] = []
    children: list["Folder"] = []
    kind: Literal["folder"] = "folder"
"""


@pytest.fixture
def models_module(tmp_path, monkeypatch):
    name = f"models_{uuid.uuid4().hex[:8]}"
    (tmp_path / f"{name}.py").write_text(textwrap.dedent(MODELS), encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    yield name
    sys.modules.pop(name, None)


def test_pydantic_model_spec(models_module, tmp_path):
    graph = load_pydantic("notes", f"{models_module}:Note", {}, tmp_path)
    # Readers' contract (validation) and writers' (serialization); the same structure for this model.
    assert list(graph.roots) == ["notes:Note", "notes:Note~serialization"]
    assert graph.roots["notes:Note"].type_key == graph.roots["notes:Note~serialization"].type_key
    form = structure(graph.types["Note"].node)
    assert form["additional"] == "closed"  # extra='forbid'
    assert form["properties"]["legacy"] == {"required": False, "type": {"kind": "never"}, "reserved": True}
    assert form["properties"]["text"] == {"required": True, "type": {"kind": "primitive", "type": "string",
                                                                      "constraints": {"maxLength": 200}}}


def test_pydantic_whole_module(models_module, tmp_path):
    graph = load_pydantic("notes", models_module, {}, tmp_path)
    assert sorted(graph.roots) == ["notes:Folder", "notes:Folder~serialization", "notes:Note",
                                   "notes:Note~serialization"]
    digests = digests_of_graph(graph)
    # The recursive Folder is stable across loads; the Note root equals the `module:Model` one.
    assert digests_of_graph(load_pydantic("notes", models_module, {}, tmp_path)) == digests
    assert digests["notes:Note"] == digests_of_graph(load_pydantic("notes", f"{models_module}:Note", {},
                                                                   tmp_path))["notes:Note"]
    folder = structure(graph.types["Folder"].node)
    assert folder["additional"] == "open"
    assert folder["properties"]["kind"]["type"] == {"kind": "literal", "value": "folder"}


def test_pydantic_reserved_marker_counts(models_module, tmp_path):
    marked = digests_of_graph(load_pydantic("notes", f"{models_module}:Note", {}, tmp_path))["notes:Note"]
    unmarked_name = f"plain_{uuid.uuid4().hex[:8]}"
    (tmp_path / f"{unmarked_name}.py").write_text(textwrap.dedent(MODELS).replace(
        ', json_schema_extra=reserved', ''), encoding="utf-8")
    try:
        plain = digests_of_graph(load_pydantic("notes", f"{unmarked_name}:Note", {}, tmp_path))["notes:Note"]
    finally:
        sys.modules.pop(unmarked_name, None)
    assert marked != plain


def test_pydantic_errors_name_the_spec(models_module, tmp_path):
    with pytest.raises(InputError) as missing_model:
        load_pydantic("notes", f"{models_module}:Nope", {}, tmp_path)
    assert "Nope" in str(missing_model.value)
    with pytest.raises(InputError) as missing_module:
        load_pydantic("notes", "no_such_module_here", {}, tmp_path)
    assert "no_such_module_here" in str(missing_module.value)
