"""Classifying a large recursive component: the walk nests once per pair of named types, as deep as the
component is long, and must neither overflow the interpreter's recursion limit nor the stack."""

from __future__ import annotations

import json
from pathlib import Path

from govern.classify.classify import classify
from govern.sources.jsonschema import load_jsonschema

LENGTH = 1500


def _chain(changed_at: int | None) -> dict:
    """A cycle of LENGTH object types, each told apart by its tag; one may gain an optional property."""
    defs = {}
    for index in range(LENGTH):
        properties = {"tag": {"const": index}, "next": {"$ref": f"#/$defs/T{(index + 1) % LENGTH}"}}
        if index == changed_at:
            properties["note"] = {"type": "string"}
        defs[f"T{index}"] = {"type": "object", "properties": properties, "required": ["tag", "next"]}
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "$defs": defs}


def test_a_change_at_the_far_end_of_a_long_cycle_is_found(tmp_path: Path):
    graphs = []
    for name, changed_at in (("old", None), ("new", LENGTH - 1)):
        path = tmp_path / f"{name}.schema.json"
        path.write_text(json.dumps(_chain(changed_at)), encoding="utf-8")
        graphs.append(load_jsonschema("chain", path, {"Start": ("#/$defs/T0", "record")}, tmp_path))
    [result] = classify([graphs[0]], [graphs[1]])
    far_end = "/properties/next" * (LENGTH - 1) + "/properties/note"
    assert [(change.path, change.kind) for change in result.changes] == [(far_end, "optional-property-added")]
