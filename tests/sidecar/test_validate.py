"""`govern sidecar validate` and the rules beyond the schema."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from govern.cli import cli
from govern.sidecar.validate import validate_artifact

EXAMPLES = Path(__file__).resolve().parents[2] / "schemas" / "examples" / "sidecar"

VALID = sorted((EXAMPLES / "valid").glob("*.json"))
INVALID = sorted((EXAMPLES / "invalid").glob("*.json"))


@pytest.mark.parametrize("path", VALID, ids=[path.stem for path in VALID])
def test_valid_examples_are_valid(path):
    report = validate_artifact(json.loads(path.read_text(encoding="utf-8")))
    assert report.valid, report.findings


@pytest.mark.parametrize("path", INVALID, ids=[path.stem for path in INVALID])
def test_invalid_examples_are_invalid(path):
    assert not validate_artifact(json.loads(path.read_text(encoding="utf-8"))).valid


@pytest.fixture
def full(example):
    return example("valid/full-featured.json")


def _ids(artifact):
    return [(finding.id, finding.pointer) for finding in validate_artifact(artifact).errors]


def test_dangling_anchor_references_are_reported_for_every_section(full):
    broken = copy.deepcopy(full)
    for section in ("threads", "attributions", "proposals"):
        if broken[section]:
            broken[section][0]["anchorId"] = "a_missing"
    expected = [("dangling-anchor", f"/{section}/0/anchorId")
                for section in ("threads", "attributions", "proposals") if full[section]]
    assert len(expected) == 3
    assert _ids(broken) == expected


@pytest.mark.parametrize("section", ["threads", "attributions", "proposals"])
def test_duplicate_record_ids_are_reported_within_their_section(full, section):
    broken = copy.deepcopy(full)
    broken[section].append(copy.deepcopy(broken[section][0]))
    assert _ids(broken) == [("duplicate-id", f"/{section}/{len(full[section])}/id")]


def test_message_ids_are_unique_within_their_thread_only(full):
    broken = copy.deepcopy(full)
    messages = broken["threads"][0]["messages"]
    messages.append(dict(messages[0], body="again"))
    assert _ids(broken) == [("duplicate-id", f"/threads/0/messages/{len(messages) - 1}/id")]
    # The same message id in another thread is a different scope and allowed.
    other = copy.deepcopy(full)
    twin = dict(copy.deepcopy(other["threads"][0]), id="t_other")
    other["threads"].append(twin)
    assert _ids(other) == []


@pytest.mark.parametrize("stamp", ["2026-13-01T00:00:00.000Z", "2026-02-30T00:00:00.000Z",
                                   "2025-02-29T00:00:00.000Z", "2026-01-01T24:00:00.000Z",
                                   "2026-01-01T00:60:00.000Z"])
def test_impossible_instants_are_rejected(full, stamp):
    broken = copy.deepcopy(full)
    broken["threads"][0]["messages"][0]["createdAt"] = stamp
    assert _ids(broken) == [("invalid-timestamp", "/threads/0/messages/0/createdAt")]


def test_a_leap_day_is_a_real_instant(full):
    fine = copy.deepcopy(full)
    fine["threads"][0]["messages"][0]["createdAt"] = "2028-02-29T23:59:59.999Z"
    assert _ids(fine) == []


def test_non_object_root_is_a_finding_not_a_crash():
    assert [f.id for f in validate_artifact([1, 2]).errors] == ["schema-type"]


def test_cli_reports_each_file_and_exits_with_the_worst(runner, tmp_path, write_json, example):
    good = write_json("good.json", example("valid/small-mixed.json"))
    bad = write_json("bad.json", example("invalid/status-unknown.json"))
    broken = tmp_path / "broken.json"
    broken.write_text("{not json", encoding="utf-8")
    result = runner.invoke(cli, ["sidecar", "validate", str(good), str(bad)])
    assert result.exit_code == 1
    assert f"{good}: valid" in result.stdout
    assert f"{bad}: error: /threads/0/status:" in result.stdout
    result = runner.invoke(cli, ["sidecar", "validate", str(good), str(broken), str(bad)])
    assert result.exit_code == 2
    assert f"{broken}:1:2: is not valid JSON" in result.stderr
    assert f"{good}: valid" in result.stdout and f"{bad}: error" in result.stdout  # not hidden


@pytest.mark.parametrize("case", ["missing", "directory", "not-utf8", "invalid-json"])
def test_cli_unreadable_input_exits_2_with_a_message(runner, tmp_path, case):
    path = tmp_path / "x.json"
    if case == "directory":
        path.mkdir()
    elif case == "not-utf8":
        path.write_bytes(b'{"a": "\xff"}')
    elif case == "invalid-json":
        path.write_text('{"schemaVersion": 1,', encoding="utf-8")
    result = runner.invoke(cli, ["sidecar", "validate", str(path)])
    assert result.exit_code == 2
    message = {"missing": "does not exist", "directory": "is a directory", "not-utf8": "is not UTF-8",
               "invalid-json": "is not valid JSON"}[case]
    assert message in result.stderr and str(path) in result.stderr


def test_cli_newer_major_is_valid_with_a_warning(runner):
    path = EXAMPLES / "valid" / "newer-schemaversion.json"
    result = runner.invoke(cli, ["sidecar", "validate", str(path)])
    assert result.exit_code == 0
    assert "warning: /schemaVersion: schemaVersion 2 is newer" in result.stdout
    assert "read-only" in result.stdout


def test_cli_json_output(runner, write_json, example):
    bad = write_json("bad.json", example("invalid/negative-linehint.json"))
    result = runner.invoke(cli, ["sidecar", "validate", "--format", "json", str(bad)])
    assert result.exit_code == 1
    report = json.loads(result.stdout)
    assert report["files"][0]["findings"][0]["id"] == "schema-minimum"
