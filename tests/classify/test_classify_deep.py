"""Classifying a large recursive component: the walk follows one reference per pair of named types, as deep
as the component is long. It must neither overflow the interpreter's recursion limit nor the stack, and a
change at the far end is located in the named type that holds it, not by the route that led there."""

from __future__ import annotations

import json
from pathlib import Path

from govern.classify.classify import classify
from govern.sources.jsonschema import load_jsonschema

LENGTH = 1500


def _chain(changed_at: int | None, length: int = LENGTH) -> dict:
    """A cycle of `length` object types, each told apart by its tag; one may gain an optional property."""
    defs = {}
    for index in range(length):
        properties = {"tag": {"const": index}, "next": {"$ref": f"#/$defs/T{(index + 1) % length}"}}
        if index == changed_at:
            properties["note"] = {"type": "string"}
        defs[f"T{index}"] = {"type": "object", "properties": properties, "required": ["tag", "next"]}
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "$defs": defs}


def _classified(tmp_path: Path, changed_at: int, length: int = LENGTH):
    graphs = []
    for name, at in (("old", None), ("new", changed_at)):
        path = tmp_path / f"{name}.schema.json"
        path.write_text(json.dumps(_chain(at, length)), encoding="utf-8")
        graphs.append(load_jsonschema("chain", path, {"Start": ("#/$defs/T0", "record")}, tmp_path))
    [result] = classify([graphs[0]], [graphs[1]])
    return result


def test_a_change_at_the_far_end_of_a_long_cycle_is_found_and_located_in_its_type(tmp_path: Path):
    result = _classified(tmp_path, LENGTH - 1)
    [change] = result.changes
    assert (change.type, change.path, change.kind) == (f"T{LENGTH - 1}", "/properties/note", "optional-property-added")
    assert change.location == f"T{LENGTH - 1}#/properties/note"
    assert change.type_location == f"new.schema.json#/$defs/T{LENGTH - 1}"
    # The route the walk took from the root is still there for whoever needs it, built only when asked.
    assert change.root_pointer() == "/properties/next" * (LENGTH - 1) + "/properties/note"


def test_a_change_in_the_roots_own_structure_keeps_its_pointer_from_the_root(tmp_path: Path):
    [change] = _classified(tmp_path, 0, length=300).changes
    assert (change.type, change.type_location, change.path) == (None, None, "/properties/note")
    assert change.location == "/properties/note" and change.root_pointer() == "/properties/note"
    assert "type" not in change.to_json()


def test_the_json_output_of_a_deep_change_is_short_and_names_the_type(tmp_path: Path):
    from govern.classify.report import diff_json, diff_text

    result = _classified(tmp_path, 299, length=300)
    [change] = json.loads(diff_json([result]))["roots"][0]["changes"]
    assert (change["path"], change["type"], change["type_location"]) == \
        ("/properties/note", "T299", "new.schema.json#/$defs/T299")
    assert "  T299#/properties/note  optional-property-added" in diff_text([result])
