"""Every command that reads JSON refuses each hostile document with exit 2, naming file, line and column,
and writes nothing: sources (digests, diff), sidecars (validate, fmt, merge, merge-driver)."""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

import pytest
from hostile_cases import HOSTILE_JSON, REPO_ROOT

from govern.cli import cli

GOOD_SIDECAR = REPO_ROOT / "schemas" / "examples" / "sidecar" / "valid" / "full-featured.json"
GOOD_SCHEMA = '{"type": "object", "properties": {"a": {"type": "string"}}}'


def _state(folder: Path) -> dict[str, str]:
    return {path.name: hashlib.sha256(path.read_bytes()).hexdigest() for path in sorted(folder.iterdir())}


COMMANDS = {
    "digests": lambda bad, good: ["digests", str(bad)],
    "diff-old": lambda bad, good: ["diff", str(bad), str(good)],
    "diff-new": lambda bad, good: ["diff", str(good), str(bad)],
    "sidecar-validate": lambda bad, good: ["sidecar", "validate", str(bad)],
    "sidecar-fmt": lambda bad, good: ["sidecar", "fmt", str(bad)],
    "sidecar-merge-ours": lambda bad, good: ["sidecar", "merge", str(bad), str(good), "-o", str(bad.parent / "out")],
    "sidecar-merge-theirs": lambda bad, good: ["sidecar", "merge", str(good), str(bad)],
    "sidecar-merge-driver": lambda bad, good: ["sidecar", "merge-driver", str(good), str(good), str(bad)],
}


@pytest.mark.parametrize("command", sorted(COMMANDS))
@pytest.mark.parametrize("name", sorted(HOSTILE_JSON))
def test_every_json_reading_command_refuses_hostile_input(runner, tmp_path, command, name):
    text, line, column, words = HOSTILE_JSON[name]
    bad = tmp_path / "bad.json"
    bad.write_text(text, encoding="utf-8")
    good = tmp_path / "good.json"
    if command.startswith("sidecar"):
        shutil.copyfile(GOOD_SIDECAR, good)
    else:
        good.write_text(GOOD_SCHEMA, encoding="utf-8")
    before = _state(tmp_path)
    result = runner.invoke(cli, COMMANDS[command](bad, good))
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert f"{bad}:{line}:{column}: " in result.stderr
    assert words in result.stderr
    assert _state(tmp_path) == before


def test_a_pydantic_schema_with_non_json_numbers_is_refused(runner, tmp_path, monkeypatch):
    (tmp_path / "hostile_numbers.py").write_text(
        "from pydantic import BaseModel, ConfigDict\n"
        "class Big(BaseModel):\n"
        "    model_config = ConfigDict(json_schema_extra={'maximum': float('inf')})\n"
        "    a: int\n"
        "class Odd(BaseModel):\n"
        "    model_config = ConfigDict(json_schema_extra={'examples': [float('nan')], 'title': '\\ud800'})\n"
        "    a: int\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    for spec, words in (("hostile_numbers:Big", "not a JSON number (at /$defs/Big/maximum)"),
                        ("hostile_numbers:Odd", "hostile_numbers:Odd: holds")):
        result = runner.invoke(cli, ["digests", spec])
        assert result.exit_code == 2, result.output
        assert words in result.stderr


@pytest.mark.parametrize("text, line, column, words", [
    ("a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n"
     + "".join(f"a{n}: &a{n} [" + ", ".join([f"*a{n - 1}"] * 9) + "]\n" for n in range(1, 10)),
     1, 1, "aliases may add at most"),
    ("type: object\ntype: string\n", 2, 1, 'duplicate key "type"'),
    ("type: number\nmaximum: 1e400\n", 2, 10, "not a JSON number"),
    ("type: number\nmaximum: .inf\n", 2, 10, "not a JSON number"),
    ('type: string\ntitle: "\\ud800"\n', 2, 8, "lone UTF-16 surrogate"),
])
def test_yaml_sources_are_read_by_the_same_reader(runner, tmp_path, text, line, column, words):
    bad = tmp_path / "bad.schema.yaml"
    bad.write_text(text, encoding="utf-8")
    result = runner.invoke(cli, ["digests", str(bad)])
    assert result.exit_code == 2, result.output
    assert f"{bad}:{line}:{column}: " in result.stderr
    assert words in result.stderr
