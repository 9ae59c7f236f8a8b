"""Clear messages: input errors in the requested machine format, percent-encoded SARIF uris, one line per
finding whatever a path holds, and merge-driver errors that name the sidecar rather than git's temporaries."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from hostile_cases import REPO_ROOT, copy_repository

from govern.cli import cli
from govern.report.render import render_sarif
from govern.verify.findings import Finding

GOOD_SIDECAR = REPO_ROOT / "schemas" / "examples" / "sidecar" / "valid" / "full-featured.json"


@pytest.fixture
def broken(tmp_path: Path) -> Path:
    root = copy_repository(tmp_path / "project")
    (root / "schemas" / "coauthoring-sidecar.schema.json").write_text('{"type": "object",\n "type": "string"}',
                                                                      encoding="utf-8")
    return root


def test_an_input_error_is_a_json_object_with_an_error(runner, broken):
    result = runner.invoke(cli, ["verify", "--format", "json", "--project", str(broken)])
    assert result.exit_code == 2
    document = json.loads(result.stdout)
    assert document["clean"] is False and document["findings"] == []
    problem = document["error"]["problems"][0]
    assert (problem["path"].endswith("coauthoring-sidecar.schema.json"), problem["line"], problem["column"]) == \
        (True, 2, 2)
    assert "duplicate key" in problem["message"]


def test_an_input_error_is_a_sarif_run_with_a_tool_execution_notification(runner, broken):
    result = runner.invoke(cli, ["verify", "--format", "sarif", "--project", str(broken)])
    assert result.exit_code == 2
    run = json.loads(result.stdout)["runs"][0]
    assert run["results"] == []
    invocation = run["invocations"][0]
    assert invocation["executionSuccessful"] is False
    notification = invocation["toolExecutionNotifications"][0]
    assert notification["level"] == "error" and "duplicate key" in notification["message"]["text"]
    assert notification["locations"][0]["physicalLocation"]["region"] == {"startLine": 2, "startColumn": 2}


def test_an_input_error_is_a_github_error_line(runner, broken):
    result = runner.invoke(cli, ["verify", "--format", "github", "--project", str(broken)])
    assert result.exit_code == 2
    lines = result.stdout.splitlines()
    assert len(lines) == 1 and lines[0].startswith("::error file=")
    assert ",line=2,col=2,title=input-error::" in lines[0] and "duplicate key" in lines[0]


@pytest.mark.parametrize("folder, encoded", [
    ("rec ords", "rec%20ords"), ("rec%ords", "rec%25ords"), ("记录", "%E8%AE%B0%E5%BD%95"), ("rec#ords", "rec%23ords"),
])
def test_sarif_uris_are_percent_encoded_relative_references(folder, encoded):
    finding = Finding("record-files-missing", f"{folder}/2026-12-01-x.md",
                      {"variant": "content", "record": "2026-12-01-x", "files": "x"})
    uri = json.loads(render_sarif([finding]))["runs"][0]["results"][0]["locations"][0]["physicalLocation"][
        "artifactLocation"]["uri"]
    assert uri == f"{encoded}/2026-12-01-x.md"


def test_a_newline_in_a_path_never_splits_a_text_line(runner, tmp_path):
    folder = tmp_path / "two\nlines"
    folder.mkdir()
    bad = folder / "bad.json"
    bad.write_text("{", encoding="utf-8")
    result = runner.invoke(cli, ["digests", str(bad)])
    assert result.exit_code == 2
    assert len(result.stderr.splitlines()) == 1
    assert "two\\nlines" in result.stderr


def test_merge_driver_errors_name_the_sidecar(runner, tmp_path):
    ours, theirs = tmp_path / ".merge_file_a1b2", tmp_path / ".merge_file_c3d4"
    shutil.copyfile(GOOD_SIDECAR, ours)
    theirs.write_text('{"schemaVersion": 1e400}', encoding="utf-8")
    result = runner.invoke(cli, ["sidecar", "merge-driver", str(tmp_path / "base"), str(ours), str(theirs),
                                 ".threads/docs/guide.md.json"])
    assert result.exit_code == 2
    assert result.stderr.startswith("error: .threads/docs/guide.md.json (theirs):1:")
    assert ".merge_file_" not in result.stderr


def test_an_unreadable_inventory_is_reported_as_unreadable(runner, tmp_path, monkeypatch):
    root = copy_repository(tmp_path / "project")
    inventory = root / "schemas" / "inventory.json"
    real_read_bytes, real_open = Path.read_bytes, Path.open

    def read_bytes(path):
        if path == inventory:
            raise PermissionError(13, "Permission denied")
        return real_read_bytes(path)

    def open_(path, *args, **kwargs):  # large generated files are compared a piece at a time
        if path == inventory:
            raise PermissionError(13, "Permission denied")
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(Path, "read_bytes", read_bytes)
    monkeypatch.setattr(Path, "open", open_)
    result = runner.invoke(cli, ["verify", "--format", "json", "--project", str(root)])
    findings = json.loads(result.stdout)["findings"]
    assert [(f["path"], f["message"]) for f in findings if f["id"] == "generated-stale"] == \
        [("schemas/inventory.json", "cannot be read: Permission denied")]


@pytest.mark.parametrize("command", [["diff", "--format", "json", "OLD", "BAD"], ["diff", "--format", "json", "BAD", "OLD"]])
def test_diff_writes_its_input_error_as_json(runner, tmp_path, command):
    old = tmp_path / "old.schema.json"
    old.write_text('{"type": "string"}', encoding="utf-8")
    bad = tmp_path / "bad.schema.json"
    bad.write_text('{"type": "string", "maxLength": 1e400}', encoding="utf-8")
    arguments = [str(old) if part == "OLD" else str(bad) if part == "BAD" else part for part in command]
    result = runner.invoke(cli, arguments)
    assert result.exit_code == 2
    problem = json.loads(result.stdout)["error"]["problems"][0]
    assert (problem["path"], problem["line"], problem["column"]) == (str(bad), 1, 33)


def test_a_newline_in_a_property_name_never_splits_a_diff_line(runner, tmp_path):
    old, new = tmp_path / "old.schema.json", tmp_path / "new.schema.json"
    old.write_text('{"type": "object", "properties": {"a\\nb": {"type": "string"}}}', encoding="utf-8")
    new.write_text('{"type": "object", "properties": {"a\\nb": {"type": "integer"}}}', encoding="utf-8")
    result = runner.invoke(cli, ["diff", str(old), str(new)])
    assert result.exit_code == 0, result.output
    [change] = [line for line in result.stdout.splitlines() if line.startswith("  ")]
    assert "/properties/a\\nb" in change and "type-changed" in change


def test_a_newline_in_a_sidecar_path_never_splits_a_validate_or_fmt_line(runner, tmp_path):
    folder = tmp_path / "two\nlines"
    folder.mkdir()
    sidecar = folder / "doc.md.json"
    # Written compactly, so `fmt` has something to rewrite and says so.
    sidecar.write_text(json.dumps(json.loads(GOOD_SIDECAR.read_text(encoding="utf-8"))), encoding="utf-8")
    for command in (["sidecar", "validate", str(sidecar)], ["sidecar", "fmt", str(sidecar)]):
        result = runner.invoke(cli, command)
        assert result.exit_code == 0, result.output
        escaped = str(sidecar).replace("\n", "\\n")
        # Every line is one whole message about the file (a note on its location may come before "valid").
        assert result.stdout.splitlines() and all(line.startswith(f"{escaped}: ") for line in result.stdout.splitlines())
