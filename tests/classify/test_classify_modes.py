"""Compatibility modes decide by break directions; persistence (the default) by the rule table."""

from __future__ import annotations

import json

import pytest

from conftest import diff_cli, write_pair  # noqa: E402 - the folder's helpers

D2020 = "https://json-schema.org/draft/2020-12/schema"


def _doc(properties: dict, **extra) -> dict:
    return {"$schema": D2020, "title": "Doc", "type": "object", "properties": properties, **extra}


LOOSENED = (_doc({"a": {"type": "string", "maxLength": 10}}), _doc({"a": {"type": "string", "maxLength": 12}}))
OPTIONAL_ADDED = (_doc({"a": {"type": "string"}}), _doc({"a": {"type": "string"}, "b": {"type": "integer"}}))
CLOSED_OPTIONAL_ADDED = (_doc({"a": {"type": "string"}}, additionalProperties=False),
                         _doc({"a": {"type": "string"}, "b": {"type": "integer"}}, additionalProperties=False))


@pytest.mark.parametrize("pair, mode, decision", [
    (LOOSENED, None, "version-bump"),
    (LOOSENED, "backward", "same-version"),  # new readers read every old value
    (LOOSENED, "forward", "version-bump"),  # an old reader rejects a value of 11 characters
    (LOOSENED, "full", "version-bump"),
    (OPTIONAL_ADDED, None, "same-version"),  # the rule table: old data does not use the name
    (OPTIONAL_ADDED, "backward", "version-bump"),  # old data may hold any `b`
    (OPTIONAL_ADDED, "forward", "same-version"),
    (CLOSED_OPTIONAL_ADDED, "backward", "same-version"),  # old data cannot hold `b`
    (CLOSED_OPTIONAL_ADDED, "forward", "version-bump"),
    (CLOSED_OPTIONAL_ADDED, "full", "version-bump"),
], ids=lambda value: value if isinstance(value, str) else None)
def test_the_mode_decides_by_its_directions(tmp_path, pair, mode, decision):
    old_path, new_path = write_pair(tmp_path, *pair)
    code, out, err = diff_cli(old_path, new_path, "json", *(("--mode", mode) if mode else ()))
    assert code == 0, err
    [entry] = json.loads(out)["roots"]
    assert (entry["decision"], entry["minimum"]) == (decision, decision)
    assert entry.get("mode") == mode
    for change in entry["changes"]:
        if mode is not None:
            counted = {"backward": {"old-data-new-readers"}, "forward": {"new-data-old-readers"}}.get(
                mode, {"old-data-new-readers", "new-data-old-readers"})
            assert (change["decision"] == "version-bump") == bool(counted & set(change["breaks"]))


def test_text_output_names_the_mode(tmp_path):
    code, out, _ = diff_cli(*write_pair(tmp_path, *LOOSENED), "text", "--mode", "backward")
    assert out.splitlines()[0] == "doc:Doc: same-version [mode backward]"
