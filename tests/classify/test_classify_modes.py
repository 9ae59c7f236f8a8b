"""Compatibility modes decide by break directions; persistence (the default) by the rule table.

One small table of changes, each with the directions it breaks asserted both ways (a document shows every
claimed break, and no probe document contradicts a direction claimed to hold), then decided in every mode.
"""

from __future__ import annotations

import json

import pytest
from jsonschema import Draft202012Validator

from conftest import SOURCE, diff_cli, write_pair  # noqa: E402 - the folder's helpers
from govern.classify.classify import classify
from govern.classify.modes import apply_modes, at_least_as_strict
from govern.config import MODES
from govern.sources.jsonschema import load_jsonschema

D2020 = "https://json-schema.org/draft/2020-12/schema"
OLD, NEW = "old-data-new-readers", "new-data-old-readers"
SV, VB = "same-version", "version-bump"


def _doc(properties: dict, **extra) -> dict:
    return {"$schema": D2020, "title": "Doc", "type": "object", "properties": properties, **extra}


def _bounded(maximum: int) -> dict:
    return {"T": {"type": "object", "properties": {"x": {"type": "integer", "maximum": maximum}}}}


# name -> (old, new, directions it breaks, probe documents, decision per mode without -transitive)
TABLE = {
    # One named type reached plainly and under `not`: each route breaks its own way, whichever comes first.
    "shared-type-plain-and-under-not": (
        _doc({"q": {"not": {"$ref": "#/$defs/T"}}, "r": {"$ref": "#/$defs/T"}}, **{"$defs": _bounded(5)}),
        _doc({"q": {"not": {"$ref": "#/$defs/T"}}, "r": {"$ref": "#/$defs/T"}}, **{"$defs": _bounded(4)}),
        {OLD, NEW}, [{"r": {"x": 5}}, {"q": {"x": 5}}, {"r": {"x": 4}}, {}],
        {"persistence": VB, "backward": VB, "forward": VB, "full": VB}),
    "shared-type-under-not-and-plain": (
        _doc({"a": {"$ref": "#/$defs/T"}, "b": {"not": {"$ref": "#/$defs/T"}}}, **{"$defs": _bounded(5)}),
        _doc({"a": {"$ref": "#/$defs/T"}, "b": {"not": {"$ref": "#/$defs/T"}}}, **{"$defs": _bounded(4)}),
        {OLD, NEW}, [{"a": {"x": 5}}, {"b": {"x": 5}}, {"a": {"x": 4}}, {}],
        {"persistence": VB, "backward": VB, "forward": VB, "full": VB}),
    "loosening": (
        _doc({"a": {"type": "string", "maxLength": 10}}), _doc({"a": {"type": "string", "maxLength": 12}}),
        {NEW}, [{"a": "x" * 10}, {"a": "x" * 11}, {"a": "x" * 13}],
        {"persistence": VB, "backward": SV, "forward": VB, "full": VB}),
    "tightening": (
        _doc({"a": {"type": "string", "maxLength": 12}}), _doc({"a": {"type": "string", "maxLength": 10}}),
        {OLD}, [{"a": "x" * 10}, {"a": "x" * 11}, {"a": "x" * 13}],
        {"persistence": VB, "backward": VB, "forward": SV, "full": VB}),
    # Open object: old data may hold any `b`, which the new structure reads as an integer only.
    "optional-property-added": (
        _doc({"a": {"type": "string"}}), _doc({"a": {"type": "string"}, "b": {"type": "integer"}}),
        {OLD}, [{"a": ""}, {"a": "", "b": 1}, {"a": "", "b": "x"}],
        {"persistence": SV, "backward": VB, "forward": SV, "full": VB}),
    "optional-property-added-to-closed": (
        _doc({"a": {"type": "string"}}, additionalProperties=False),
        _doc({"a": {"type": "string"}, "b": {"type": "integer"}}, additionalProperties=False),
        {NEW}, [{"a": ""}, {"a": "", "b": 1}, {"a": "", "b": "x"}],
        {"persistence": VB, "backward": SV, "forward": VB, "full": VB}),
    # Open object: the name stays admitted with any value, so only old readers can be broken.
    "property-removed": (
        _doc({"a": {"type": "string"}, "b": {"type": "integer"}}), _doc({"a": {"type": "string"}}),
        {NEW}, [{"a": ""}, {"a": "", "b": 1}, {"a": "", "b": "x"}],
        {"persistence": VB, "backward": SV, "forward": VB, "full": VB}),
    "property-removed-from-closed": (
        _doc({"a": {"type": "string"}, "b": {"type": "integer"}}, additionalProperties=False),
        _doc({"a": {"type": "string"}}, additionalProperties=False),
        {OLD}, [{"a": ""}, {"a": "", "b": 1}, {"a": "", "b": "x"}],
        {"persistence": VB, "backward": VB, "forward": SV, "full": VB}),
    "alternative-added": (
        _doc({"a": {"anyOf": [{"type": "string"}, {"type": "boolean"}]}}),
        _doc({"a": {"anyOf": [{"type": "string"}, {"type": "boolean"}, {"type": "integer"}]}}),
        {NEW}, [{"a": ""}, {"a": True}, {"a": 1}, {"a": None}],
        {"persistence": VB, "backward": SV, "forward": VB, "full": VB}),
}
CASES = sorted(TABLE)


def _broken(old: dict, new: dict, probes: list) -> set[str]:
    """The directions some probe document breaks: old accepts and new rejects, or the reverse."""
    old_valid, new_valid = Draft202012Validator(old).is_valid, Draft202012Validator(new).is_valid
    found = set()
    for document in probes:
        if old_valid(document) and not new_valid(document):
            found.add(OLD)
        if new_valid(document) and not old_valid(document):
            found.add(NEW)
    return found


def _classified(tmp_path, name: str) -> list:
    old, new = TABLE[name][:2]
    old_path, new_path = write_pair(tmp_path, old, new)
    roots = {"Doc": ("#", "record")}
    return classify([load_jsonschema(SOURCE, old_path, roots, None)], [load_jsonschema(SOURCE, new_path, roots, None)])


@pytest.mark.parametrize("name", CASES)
def test_each_change_breaks_exactly_its_directions(tmp_path, name):
    old, new, breaks, probes, _ = TABLE[name]
    [result] = _classified(tmp_path, name)
    assert {direction for change in result.changes for direction in change.breaks} == breaks
    # Both ways: a document proves each claimed break, and none breaks a direction claimed to hold.
    assert _broken(old, new, probes) == breaks


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", CASES)
def test_every_mode_decides_the_table(tmp_path, name, mode):
    expected = TABLE[name][4][mode.removesuffix("-transitive")]
    # One pair has no earlier record: a transitive mode decides like its plain form.
    [result] = apply_modes(_classified(tmp_path, name), {SOURCE: mode}, lambda root: [])
    assert (result.decision, result.minimum, result.mode) == (expected, expected, mode)
    for change in result.changes:
        if mode != "persistence":
            counted = {"backward": {OLD}, "forward": {NEW}}.get(mode.split("-")[0], {OLD, NEW})
            assert (change.decision == VB) == bool(counted & set(change.breaks))


@pytest.mark.parametrize("mode", [None, "backward", "forward", "full"])
@pytest.mark.parametrize("name", CASES)
def test_diff_with_mode_reports_the_mode_and_its_decision(tmp_path, name, mode):
    old, new, _, _, decisions = TABLE[name]
    code, out, err = diff_cli(*write_pair(tmp_path, old, new), "json", *(("--mode", mode) if mode else ()))
    assert code == 0, err
    [entry] = json.loads(out)["roots"]
    expected = decisions[mode or "persistence"]
    assert (entry["decision"], entry["minimum"], entry["mode"]) == (expected, expected, mode or "persistence")


def test_text_output_names_the_mode(tmp_path):
    old, new = TABLE["loosening"][:2]
    code, out, _ = diff_cli(*write_pair(tmp_path, old, new), "text", "--mode", "backward")
    assert out.splitlines()[0] == "doc:Doc: same-version [mode backward]"
    code, out, _ = diff_cli(*write_pair(tmp_path, old, new), "text")
    assert out.splitlines()[0] == "doc:Doc: version-bump [mode persistence]"


@pytest.mark.parametrize("mode, other, stricter", [
    ("full", "backward", True), ("full", "forward", True), ("backward", "full", False),
    ("backward", "forward", False), ("backward-transitive", "backward", True),
    ("backward", "backward-transitive", False), ("full-transitive", "forward-transitive", True),
    ("full", "forward-transitive", False), ("backward", "backward", True),
    ("persistence", "persistence", True), ("full", "persistence", False), ("persistence", "full", False),
])
def test_which_mode_is_at_least_as_strict(mode, other, stricter):
    assert at_least_as_strict(mode, other) is stricter


@pytest.mark.parametrize("recorded, mode, rule, decision", [
    ("backward", "full", "mode-strengthened", SV),
    ("backward", "backward-transitive", "mode-strengthened", SV),
    ("full", "backward", "mode-changed", VB),
    ("full-transitive", "full", "mode-changed", VB),
    ("persistence", "backward", "mode-changed", VB),
    ("backward", "persistence", "mode-changed", VB),
])
def test_a_change_of_mode_is_a_change_of_its_own(tmp_path, recorded, mode, rule, decision):
    old = TABLE["loosening"][0]
    old_path, new_path = write_pair(tmp_path, old, old)
    roots = {"Doc": ("#", "record")}
    results = classify([load_jsonschema(SOURCE, old_path, roots, None)], [load_jsonschema(SOURCE, new_path, roots, None)])
    [result] = apply_modes(results, {SOURCE: mode}, lambda root: [], recorded={f"{SOURCE}:Doc": recorded})
    assert (result.decision, result.mode) == (decision, mode)
    [change] = result.changes
    assert (change.kind, change.rule, change.decision, change.breaks) == ("mode-changed", rule, decision, ())
    assert dict(change.args) == {"old": recorded, "new": mode}
