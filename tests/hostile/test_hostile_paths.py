"""The project root is a boundary: configured paths and `$ref` targets stay inside it unless
`allow-outside` opens a folder; a refusal writes nothing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from govern.cli import cli

SCHEMA = {"$schema": "https://json-schema.org/draft/2020-12/schema", "title": "Thing", "type": "object",
          "properties": {"a": {"type": "string"}}}


def _project(root: Path, settings: str = "", schema: dict | None = None) -> Path:
    (root / "schemas").mkdir(parents=True)
    (root / "schemas" / "thing.schema.json").write_text(json.dumps(schema or SCHEMA), encoding="utf-8")
    (root / "pyproject.toml").write_text(
        f'[project]\nname = "p"\nversion = "0"\n\n[tool.govern]\n{settings}\n[[tool.govern.sources]]\n'
        'name = "thing"\nkind = "jsonschema"\npath = "schemas/thing.schema.json"\n', encoding="utf-8")
    return root


def _files(folder: Path) -> list[str]:
    return sorted(path.relative_to(folder).as_posix() for path in folder.rglob("*"))


@pytest.mark.parametrize("settings, key", [
    ('schemas = "../outside"\n', "tool.govern.schemas: ../outside leaves the project root"),
    ('records = "/tmp"\n', "tool.govern.records: /tmp leaves the project root"),
    ('templates = "../../t"\n', "tool.govern.templates: ../../t leaves the project root"),
    ('pythonpath = ["../src"]\n', "tool.govern.pythonpath[0]: ../src leaves the project root"),
    ('schemas = "pyproject.toml"\n', "tool.govern.schemas: pyproject.toml is a file, not a folder"),
    ('allow-outside = "../x"\n', "tool.govern.allow-outside: must be a list of folders"),
])
def test_configured_paths_leaving_the_root_are_refused(runner, tmp_path, settings, key):
    root = _project(tmp_path / "p", settings)
    before = _files(tmp_path)
    result = runner.invoke(cli, ["extract", "--project", str(root)])
    assert result.exit_code == 2, result.output
    assert key in result.stderr
    assert _files(tmp_path) == before


def test_a_source_outside_the_root_is_refused_unless_its_folder_is_opened(runner, tmp_path):
    shared = tmp_path / "shared"
    shared.mkdir()
    (shared / "thing.schema.json").write_text(json.dumps(SCHEMA), encoding="utf-8")
    root = _project(tmp_path / "p")
    text = (root / "pyproject.toml").read_text(encoding="utf-8").replace("schemas/thing.schema.json",
                                                                          "../shared/thing.schema.json")
    (root / "pyproject.toml").write_text(text, encoding="utf-8")
    refused = runner.invoke(cli, ["digests", "--project", str(root)])
    assert refused.exit_code == 2
    assert "sources[0].path: ../shared/thing.schema.json leaves the project root" in refused.stderr
    (root / "pyproject.toml").write_text(text.replace("[tool.govern]\n", '[tool.govern]\nallow-outside = ["../shared"]\n'),
                                         encoding="utf-8")
    opened = runner.invoke(cli, ["digests", "--project", str(root)])
    assert opened.exit_code == 0, opened.output
    assert "thing:Thing" in opened.stdout


@pytest.mark.parametrize("reference", ["file:///etc/passwd", "../../outside.schema.json"])
def test_references_leaving_the_root_are_refused(runner, tmp_path, reference):
    (tmp_path / "outside.schema.json").write_text(json.dumps({"type": "string"}), encoding="utf-8")
    schema = {**SCHEMA, "properties": {"a": {"$ref": reference}}}
    root = _project(tmp_path / "p", schema=schema)
    result = runner.invoke(cli, ["digests", "--project", str(root)])
    assert result.exit_code == 2, result.output
    assert "leaves the project root" in result.stderr
    assert "root:x:0:0" not in result.output


def test_a_reference_into_an_opened_folder_is_read(runner, tmp_path):
    (tmp_path / "shared").mkdir()
    (tmp_path / "shared" / "text.schema.json").write_text(json.dumps({"type": "string"}), encoding="utf-8")
    schema = {**SCHEMA, "properties": {"a": {"$ref": "../../shared/text.schema.json"}}}
    root = _project(tmp_path / "p", 'allow-outside = ["../shared"]\n', schema=schema)
    result = runner.invoke(cli, ["digests", "--project", str(root)])
    assert result.exit_code == 0, result.output
