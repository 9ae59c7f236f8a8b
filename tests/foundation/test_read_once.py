"""A file named on the command line is read and parsed once, whatever kind of document it turns out to be
(the kind is told by its content, and large descriptions take a noticeable time to read)."""

from __future__ import annotations

import json
from collections import Counter

import pytest

import govern.fsio
from govern.sources.load import load_spec

OPENAPI = {"openapi": "3.1.0", "info": {"title": "t", "version": "1"}, "paths": {"/a": {"get": {"responses": {
    "200": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/A"}}}}}}}},
    "components": {"schemas": {"A": {"type": "object", "properties": {"b": {"$ref": "#/components/schemas/B"}}},
                               "B": {"type": "string"}}}}
JSON_SCHEMA = {"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object",
               "properties": {"a": {"$ref": "#/$defs/A"}}, "$defs": {"A": {"type": "integer"}}}


@pytest.mark.parametrize("document", [OPENAPI, JSON_SCHEMA], ids=["openapi", "jsonschema"])
def test_a_spec_file_is_read_once(tmp_path, monkeypatch, document):
    path = tmp_path / "spec.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    reads: Counter = Counter()
    original = govern.fsio.read_text

    def counting(file, *args, **kwargs):
        reads[str(file)] += 1
        return original(file, *args, **kwargs)

    monkeypatch.setattr(govern.fsio, "read_text", counting)
    graph = load_spec(str(path), tmp_path)
    assert graph.roots  # it was read completely
    assert reads == {str(path): 1}
