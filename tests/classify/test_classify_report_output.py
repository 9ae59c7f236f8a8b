"""`govern diff` prints its report whole or not at all, however large, and stops quietly when its reader does.

The report is made a change at a time (never held whole as text or as entries), spooled, and printed once
the last change is made: a failure while making it leaves standard output as the error handler writes it
(nothing, or the JSON error document), never a report cut short followed by an error.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from govern.cli import cli
from govern.errors import InputError, Problem


def _pair(tmp_path: Path, added: int) -> tuple[str, str]:
    old = {"title": "Doc", "type": "object", "properties": {"x": {"type": "string"}}}
    new = {**old, "properties": {**old["properties"],
                                 **{f"p{index}": {"type": "string", "maxLength": index + 1} for index in range(added)}}}
    paths = []
    for name, document in (("old", old), ("new", new)):
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps(document), encoding="utf-8")
        paths.append(str(path))
    return paths[0], paths[1]


def _failing_after(count: int, error: BaseException):
    from govern.classify import classify as module

    explain = module.explain_change
    made = [0]

    def explain_change(change):
        made[0] += 1
        if made[0] > count:
            raise error
        return explain(change)

    return explain_change


@pytest.mark.parametrize("output_format", ["json", "text"])
def test_a_large_report_is_printed_whole(tmp_path: Path, output_format: str):
    old, new = _pair(tmp_path, 1000)
    result = CliRunner().invoke(cli, ["diff", "--format", output_format, old, new])
    assert result.exit_code == 0
    if output_format == "json":
        assert len(json.loads(result.output)["roots"][0]["changes"]) == 1000
    else:
        assert result.output.count("  same-version  /properties/p") == 1000
        assert result.output.endswith("1 roots: 1 changed, 0 unchanged\n")


def test_an_error_while_the_report_is_made_leaves_only_the_error_document(tmp_path: Path, monkeypatch):
    old, new = _pair(tmp_path, 1000)  # more than one batch of text before the failure
    monkeypatch.setattr("govern.classify.classify.explain_change",
                        _failing_after(600, InputError(Problem("new.json", "cannot be told"))))
    result = CliRunner().invoke(cli, ["diff", "--format", "json", old, new])
    assert result.exit_code == 2
    document = json.loads(result.stdout)  # the error document alone: no report cut short before it
    assert "roots" not in document
    assert "cannot be told" in result.stderr


def test_running_out_of_memory_while_the_report_is_made_prints_no_report(tmp_path: Path, monkeypatch):
    old, new = _pair(tmp_path, 1000)
    monkeypatch.setattr("govern.classify.classify.explain_change", _failing_after(600, MemoryError()))
    result = CliRunner().invoke(cli, ["diff", "--format", "json", old, new])
    assert result.exit_code == 2
    assert result.stdout == ""
    assert "ran out of memory" in result.stderr


def test_a_reader_that_stops_reading_ends_the_report_quietly(tmp_path: Path):
    old, new = _pair(tmp_path, 1000)  # about 500 KB of JSON: far more than a pipe holds
    process = subprocess.Popen([sys.executable, "-m", "govern", "diff", "--format", "json", old, new],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert process.stdout.read(100).startswith(b'{\n  "roots": [')
    process.stdout.close()
    stderr = process.stderr.read()
    assert process.wait(timeout=120) == 0  # the command's own status: `diff` reports, exit 0
    assert stderr == b""
