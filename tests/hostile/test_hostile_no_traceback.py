"""Each hostile input the command line met with a traceback is now a clean exit with a message naming the
file; refusals write nothing."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from hostile_cases import PROSE_YAML, REPO_ROOT, add_thread_label, copy_repository

import govern.fsio as fsio
from govern.cli import cli

BASELINE = "2026-11-30-baseline"
GOOD_SIDECAR = REPO_ROOT / "schemas" / "examples" / "sidecar" / "valid" / "full-featured.json"


def _clean(result, code: int) -> None:
    assert result.exit_code == code, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception


def _state(root: Path) -> dict[str, bytes]:
    return {path.relative_to(root).as_posix(): path.read_bytes() for path in sorted(root.rglob("*")) if path.is_file()}


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return copy_repository(tmp_path / "project")


PROJECT = '[project]\nname = "p"\nversion = "0"\n\n'
SOURCE = '[[tool.govern.sources]]\nname = "s"\nkind = "jsonschema"\npath = "schemas/coauthoring-sidecar.schema.json"\n'


@pytest.mark.parametrize("text, words", [
    (PROJECT + '[tool.govern]\nlanguages = ["en", 1]\n\n' + SOURCE, "tool.govern.languages: must be"),
    (PROJECT + '[tool]\ngovern = "x"\n', "tool.govern must be a table, not a str"),
    (PROJECT + '[[tool.govern]]\nschemas = "schemas"\n', "tool.govern must be a table, not an array of tables"),
    ('tool = "x"\n', "tool must be a table"),
    (PROJECT + '[tool.govern]\nschemas = "pyproject.toml"\n\n' + SOURCE, "is a file, not a folder"),
    (PROJECT + '[tool.govern]\nrecords = "../elsewhere"\n\n' + SOURCE, "leaves the project root"),
])
def test_configuration_mistakes_are_exit_2(runner, repo, text, words):
    (repo / "pyproject.toml").write_text(text, encoding="utf-8")
    for command in (["verify"], ["extract"], ["digests"]):
        result = runner.invoke(cli, [*command, "--project", str(repo)])
        _clean(result, 2)
        assert words in result.stderr


def test_a_pyproject_that_is_not_utf8_is_exit_2(runner, repo):
    path = repo / "pyproject.toml"
    path.write_bytes(path.read_bytes() + b"\n# caf\xe9\n")
    result = runner.invoke(cli, ["verify", "--project", str(repo)])
    _clean(result, 2)
    assert "pyproject.toml: is not UTF-8" in result.stderr


@pytest.mark.parametrize("schema, words", [
    ({"$id": "http://[::1", "type": "string"}, "has an $id that is not a valid URI"),
    ({"type": "object", "properties": {"a": {"$ref": "http://[::1/x"}}}, "is not a valid URI"),
])
def test_malformed_uris_are_exit_2(runner, tmp_path, schema, words):
    path = tmp_path / "odd.schema.json"
    path.write_text(json.dumps(schema), encoding="utf-8")
    result = runner.invoke(cli, ["digests", str(path)])
    _clean(result, 2)
    assert words in result.stderr


def _prose(repo: Path, text: str = PROSE_YAML) -> Path:
    path = repo / "prose.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def _record_new(runner, repo: Path, slug: str = "add-thread-label", prose: Path | None = None):
    return runner.invoke(cli, ["record", "new", slug, "--prose", str(prose or _prose(repo)), "--date", "2026-12-01",
                               "--project", str(repo)])


def test_a_long_slug_is_refused_before_anything_is_written(runner, repo):
    add_thread_label(repo)
    before = _state(repo / "records")
    result = _record_new(runner, repo, slug="a" * 300)
    _clean(result, 1)
    assert "is longer than 80 characters" in result.stderr
    assert _state(repo / "records") == before


@pytest.mark.parametrize("old, new, words", [
    ('summary: "A thread may carry a short label."', 'summary: "A label.\\n## Not a section"', "line starting with `## `"),
    ('summary: "A thread may carry a short label."', 'summary: "A label.\\r\\nMore."', "carriage return"),
    ('title: "为讨论串添加标签"', 'title: "\\ud800"', "lone UTF-16 surrogate"),
])
def test_prose_that_would_break_the_record_is_refused(runner, repo, old, new, words):
    add_thread_label(repo)
    assert old in PROSE_YAML
    before = _state(repo / "records")
    result = _record_new(runner, repo, prose=_prose(repo, PROSE_YAML.replace(old, new)))
    _clean(result, 2)
    assert words in result.stderr
    assert _state(repo / "records") == before


@pytest.mark.parametrize("part, old, new", [
    ("i18n.yaml", "prose:\n", 'prose:\n  en: "x"\nignored:\n'),
    ("md", "before: null", "before: .inf"),
    ("i18n.yaml", "source-language: en", "source-language: &a [*a]"),
])
def test_damaged_record_files_are_findings_not_tracebacks(runner, repo, part, old, new):
    path = repo / "records" / f"{BASELINE}.{part}"
    text = path.read_text(encoding="utf-8")
    if old not in text:
        pytest.fail(f"{old!r} not in {path.name}")
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    result = runner.invoke(cli, ["verify", "--format", "json", "--project", str(repo)])
    _clean(result, 1)
    findings = json.loads(result.stdout)["findings"]
    assert any(f["id"] == "record-syntax" and f["path"] == f"records/{BASELINE}.{part}" for f in findings), findings


@pytest.mark.parametrize("content", ['{"$defs": {"a": ', '{"a":' * 200 + "1" + "}" * 200, '{"x": 1e400}'])
@pytest.mark.parametrize("command", [["diff"], ["record", "new", "add-thread-label", "--prose", "PROSE"]])
def test_damaged_snapshots_are_exit_2(runner, repo, content, command):
    add_thread_label(repo)
    (repo / "records" / f"{BASELINE}.schema.json").write_text(content, encoding="utf-8")
    arguments = [str(_prose(repo)) if part == "PROSE" else part for part in command]
    result = runner.invoke(cli, [*arguments, "--project", str(repo)])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert result.exit_code in (1, 2)
    assert f"{BASELINE}.schema.json" in result.output


@pytest.mark.parametrize("target", [f"{BASELINE}.i18n.yaml", f"{BASELINE}.schema.json", f"{BASELINE}.md"])
def test_unreadable_record_files_are_findings(runner, repo, monkeypatch, target):
    real_read_bytes, real_read_text = Path.read_bytes, Path.read_text

    def refuse(path):
        if path.name == target:
            raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(Path, "read_bytes", lambda self: refuse(self) or real_read_bytes(self))
    monkeypatch.setattr(Path, "read_text", lambda self, *a, **k: refuse(self) or real_read_text(self, *a, **k))
    result = runner.invoke(cli, ["verify", "--format", "json", "--project", str(repo)])
    _clean(result, 1)
    assert any(f["path"] == f"records/{target}" for f in json.loads(result.stdout)["findings"])


def test_an_unreadable_records_folder_is_exit_2(runner, repo, monkeypatch):
    real_iterdir = Path.iterdir

    def iterdir(self):
        if self.name == "records":
            raise PermissionError(13, "Permission denied")
        return real_iterdir(self)

    monkeypatch.setattr(Path, "iterdir", iterdir)
    result = runner.invoke(cli, ["verify", "--project", str(repo)])
    _clean(result, 2)
    assert "records: cannot be read: Permission denied" in result.stderr


def _deny_writes(monkeypatch):
    def denied(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(fsio.tempfile, "mkstemp", denied)
    monkeypatch.setattr(fsio.tempfile, "mkdtemp", denied)


@pytest.mark.parametrize("command", ["extract", "record-new", "fmt", "merge-o"])
def test_every_write_failure_is_exit_2_and_leaves_the_files(runner, repo, monkeypatch, command):
    add_thread_label(repo)
    prose = _prose(repo)
    sidecar = repo / "s.json"
    shutil.copyfile(GOOD_SIDECAR, sidecar)
    sidecar.write_text(sidecar.read_text(encoding="utf-8").replace("\n", "\n  ", 1), encoding="utf-8")
    arguments = {"extract": ["extract", "--project", str(repo)],
                 "record-new": ["record", "new", "add-thread-label", "--prose", str(prose), "--project", str(repo)],
                 "fmt": ["sidecar", "fmt", str(sidecar)],
                 "merge-o": ["sidecar", "merge", str(sidecar), str(GOOD_SIDECAR), "-o", str(repo / "out.json")]}
    before = _state(repo)
    _deny_writes(monkeypatch)
    result = runner.invoke(cli, arguments[command])
    _clean(result, 2)
    assert "cannot be written: Permission denied" in result.stderr
    assert _state(repo) == before


@pytest.mark.parametrize("command", [
    lambda tmp: ["sidecar", "merge", str(GOOD_SIDECAR), str(GOOD_SIDECAR), "-o", str(tmp / "file" / "out.json")],
    lambda tmp: ["sidecar", "reply", str(tmp / "doc.md"), "--new-thread", "--anchor-text", "Hello", "--body", "hi",
                 "--author-id", "a", "--sidecar", str(tmp / "file" / "s.json")],
])
def test_writing_under_an_existing_file_is_exit_2(runner, tmp_path, command):
    (tmp_path / "file").write_text("a file, not a folder", encoding="utf-8")
    (tmp_path / "doc.md").write_text("Hello world\n", encoding="utf-8")
    result = runner.invoke(cli, command(tmp_path))
    _clean(result, 2)
    assert "file" in result.stderr


def test_a_reply_body_that_is_not_utf8_is_exit_2(runner, tmp_path):
    (tmp_path / "doc.md").write_text("Hello world\n", encoding="utf-8")
    result = runner.invoke(cli, ["sidecar", "reply", str(tmp_path / "doc.md"), "--new-thread", "--anchor-text",
                                 "Hello", "--body", "caf\udce9", "--author-id", "a",
                                 "--sidecar", str(tmp_path / "s.json")])
    _clean(result, 2)
    assert "--body" in result.output and "lone surrogate" in result.output
    assert not (tmp_path / "s.json").exists()
