"""Comparing a oneOf of many overlapping alternatives (a schema set's `all.json` is a oneOf of every type)
costs work linear in the number of alternatives: each alternative's JSON types are found once, and
alternatives pair by digest and by kind through lookups, not by scanning the others for each one."""

from __future__ import annotations

import json
from pathlib import Path

from govern.classify import changes
from govern.classify.classify import classify
from govern.sources.jsonschema import load_jsonschema


def _document(count: int, changed: bool) -> dict:
    """`count` object types, none with a required literal (so any two may overlap); in the new release
    every third type gains an optional property, one in five turns into an array, and two types are added."""
    defs = {}
    for index in range(count + (2 if changed else 0)):
        properties = {f"field{index}": {"type": "string"}, "count": {"type": "integer"}}
        if changed and index % 3 == 0:
            properties["note"] = {"type": "string"}
        if changed and index % 5 == 1:
            defs[f"T{index}"] = {"type": "array", "items": {"type": "object", "properties": properties}}
        else:
            defs[f"T{index}"] = {"type": "object", "properties": properties}
    return {"$schema": "https://json-schema.org/draft/2020-12/schema",
            "oneOf": [{"$ref": f"#/$defs/{name}"} for name in defs], "$defs": defs}


def _counted_classification(tmp_path: Path, make, count: int, owner, attribute: str, monkeypatch) -> tuple[int, list]:
    """The changes between `make(count, False)` and `make(count, True)`, and how often `owner.attribute` (a
    function) was called while comparing them."""
    graphs = []
    for name, changed in (("old", False), ("new", True)):
        path = tmp_path / f"{name}-{make.__name__}-{count}.schema.json"
        path.write_text(json.dumps(make(count, changed)), encoding="utf-8")
        graphs.append(load_jsonschema("all", path, {"All": ("#", "record")}, tmp_path))
    calls = 0
    original = getattr(owner, attribute)

    def counted(*args):
        nonlocal calls
        calls += 1
        return original(*args)

    monkeypatch.setattr(owner, attribute, counted)
    [result] = classify([graphs[0]], [graphs[1]])
    monkeypatch.setattr(owner, attribute, original)
    return calls, list(result.changes)


def _resolutions(tmp_path: Path, count: int, monkeypatch) -> tuple[int, list]:
    calls, found = _counted_classification(tmp_path, _document, count, changes.Side, "resolve", monkeypatch)
    return calls, [(change.path, change.kind, change.breaks) for change in found]


def test_a_large_oneof_is_compared_in_linear_work(tmp_path: Path, monkeypatch):
    small, small_changes = _resolutions(tmp_path, 150, monkeypatch)
    large, large_changes = _resolutions(tmp_path, 600, monkeypatch)
    assert len(large_changes) > 3 * len(small_changes) > 0
    # Four times the alternatives: about four times the work (sixteen times when quadratic).
    assert large <= 5 * small, (small, large)


def test_the_changes_of_a_large_oneof(tmp_path: Path, monkeypatch):
    _, found = _resolutions(tmp_path, 30, monkeypatch)
    # The changed types (10 gain a property, 6 become arrays, 2 both) pair with the type of their name, though every
    # remaining alternative is an object and kinds do not pair one to one: 8 gain a property, 6 change type, and the
    # 2 added types widen the union. In a oneOf whose alternatives overlap, each change moves instances into or out
    # of an overlap: it breaks both ways.
    assert sorted({kind: sum(1 for _, k, _ in found if k == kind) for _, kind, _ in found}.items()) == [
        ("exclusive-alternative-widened", 2), ("optional-property-added", 8), ("type-changed", 6)]
    assert all(set(breaks) == {changes.OLD_DATA, changes.NEW_DATA} for _, _, breaks in found)


def _changed_operands(count: int, changed: bool) -> dict:
    """An allOf of `count` named object types; in the new release each gains an optional property, so no operand
    has its equal on the other side, and all are objects: each pairs with the type of its name."""
    defs = {f"T{index}": {"type": "object", "properties": {
        f"field{index}": {"type": "string"}, **({f"note{index}": {"type": "string"}} if changed else {})}}
        for index in range(count)}
    return {"$schema": "https://json-schema.org/draft/2020-12/schema",
            "allOf": [{"$ref": f"#/$defs/{name}"} for name in defs], "$defs": defs}


def _operand_questions(tmp_path: Path, count: int, monkeypatch) -> tuple[int, list]:
    calls, found = _counted_classification(tmp_path, _changed_operands, count, changes, "guards_names", monkeypatch)
    return calls, [(change.path, change.kind) for change in found]


def test_a_large_allof_pairs_its_operands_by_name_in_linear_work(tmp_path: Path, monkeypatch):
    small, small_changes = _operand_questions(tmp_path, 100, monkeypatch)
    large, large_changes = _operand_questions(tmp_path, 400, monkeypatch)
    assert {kind for _, kind in large_changes} == {"optional-property-added"}
    assert len(large_changes) == 400 and len(small_changes) == 100
    # Whether the other operands guard names is asked once per operand, not once per pair and operand.
    assert large <= 5 * small, (small, large)
