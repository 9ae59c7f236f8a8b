"""Record files are created exclusively, under a project lock, as a staged set that appears all together;
what an interrupted write leaves is ignored by readers and cleaned (or finished) by the next write."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from hostile_cases import PROSE_YAML, add_thread_label, copy_repository

import govern.fsio as fsio
from govern.cli import cli
from govern.errors import InputError

RECORD = "2026-12-01-add-thread-label"


class Killed(BaseException):
    """Stands for the process being killed: nothing after it runs, no handler catches it."""


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = copy_repository(tmp_path / "project")
    add_thread_label(root)
    (root / "prose.yaml").write_text(PROSE_YAML, encoding="utf-8")
    return root


def _record_new(runner, root: Path, slug: str = "add-thread-label"):
    return runner.invoke(cli, ["record", "new", slug, "--prose", str(root / "prose.yaml"), "--date", "2026-12-01",
                               "--project", str(root)])


def _verify(runner, root: Path) -> list[dict]:
    result = runner.invoke(cli, ["verify", "--format", "json", "--project", str(root)])
    return json.loads(result.stdout)["findings"]


def _records(root: Path) -> list[str]:
    return sorted(path.name for path in (root / "records").iterdir())


@pytest.mark.parametrize("slugs", [("add-thread-label", "add-thread-label"), ("add-thread-label", "label-threads")])
def test_concurrent_record_new_never_forks_or_loses_prose(repo, slugs):
    environment = {**os.environ, "PYTHONHASHSEED": "0"}
    processes = [subprocess.Popen([sys.executable, "-m", "govern", "record", "new", slug, "--prose",
                                   str(repo / "prose.yaml"), "--date", "2026-12-01", "--project", str(repo)],
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=environment)
                 for slug in slugs]
    outcomes = [(process.wait(timeout=120), process.stderr.read()) for process in processes]
    assert sorted(code for code, _ in outcomes) == [0, 1], outcomes
    refusal = next(stderr for code, stderr in outcomes if code == 1)
    assert "already exists" in refusal or "nothing to record" in refusal
    created = [name for name in _records(repo) if name.startswith("2026-12-01")]
    assert len(created) == 4, created
    assert not (repo / fsio.LOCK_NAME).exists()


def test_a_record_is_never_overwritten(repo, runner):
    assert _record_new(runner, repo).exit_code == 0
    before = {name: (repo / "records" / name).read_bytes() for name in _records(repo)}
    with pytest.raises(FileExistsError):
        fsio.write_file_set(repo / "records", {f"{RECORD}.md": "other prose"})
    assert {name: (repo / "records" / name).read_bytes() for name in _records(repo)} == before


def test_the_lock_makes_a_second_writer_wait_and_then_give_up(repo):
    held, release = threading.Event(), threading.Event()

    def holder():
        with fsio.project_lock(repo):
            held.set()
            release.wait(30)

    thread = threading.Thread(target=holder)
    thread.start()
    held.wait(30)
    try:
        with pytest.raises(InputError, match="held by another govern command"):
            with fsio.project_lock(repo, timeout=0.2):
                pass
    finally:
        release.set()
        thread.join()
    with fsio.project_lock(repo, timeout=0.2):
        assert (repo / fsio.LOCK_NAME).exists()
    assert not (repo / fsio.LOCK_NAME).exists()


def _dying_after(calls: int, real, done: list):
    """`real`, except that the call after `calls` successful ones kills the process."""
    def dying(*arguments):
        if len(done) == calls:
            raise Killed
        done.append(arguments)
        return real(*arguments)

    return dying


def _killed_record_new(runner, repo: Path) -> None:
    with pytest.raises(Killed):
        runner.invoke(cli, ["record", "new", "add-thread-label", "--prose", str(repo / "prose.yaml"), "--date",
                            "2026-12-01", "--project", str(repo)], catch_exceptions=False)


def test_a_kill_between_renames_is_named_by_verify_and_finished_by_the_next_write(repo, runner, monkeypatch):
    moved: list = []
    monkeypatch.setattr(fsio.os, "link", _dying_after(2, os.link, moved))
    _killed_record_new(runner, repo)
    monkeypatch.undo()
    assert [Path(target).name for _, target in moved] == [f"{RECORD}.schema.json", f"{RECORD}.i18n.yaml"]
    findings = _verify(runner, repo)
    assert any(f["id"] == "record-files-missing" and RECORD in f["message"] for f in findings), findings
    assert runner.invoke(cli, ["extract", "--project", str(repo)]).exit_code == 0
    assert {f"{RECORD}.md", f"{RECORD}.zh.md"} <= set(_records(repo))
    assert not [name for name in _records(repo) if name.startswith(".")]
    assert _verify(runner, repo) == []


def test_a_kill_before_the_marker_leaves_nothing_a_reader_sees(repo, runner, monkeypatch):
    monkeypatch.setattr(fsio, "_write_synced", _dying_after(2, fsio._write_synced, []))
    # A killed process runs no cleanup: the staging folder stays.
    monkeypatch.setattr(fsio.shutil, "rmtree", lambda *args, **kwargs: None)
    _killed_record_new(runner, repo)
    monkeypatch.undo()
    leftovers = [name for name in _records(repo) if name.startswith(fsio.STAGING_PREFIX)]
    assert len(leftovers) == 1
    assert not [name for name in _records(repo) if name.startswith(RECORD)]
    findings = _verify(runner, repo)
    assert findings and not [f for f in findings if f["id"].startswith("record") or "staging" in f["message"]]
    assert _record_new(runner, repo).exit_code == 0
    assert not [name for name in _records(repo) if name.startswith(".")]
    assert _verify(runner, repo) == []


def test_stale_temporaries_are_ignored_by_readers_and_removed_by_the_next_write(repo, runner):
    debris = [repo / "records" / f".{RECORD}.md.k2j3h4.tmp", repo / "schemas" / ".inventory.json.a8b7c6d5.tmp",
              repo / "records" / ".2026-11-30-baseline.schema.json.zz99yy.tmp",
              repo / "schemas" / "formats" / ".sidecar.md.q1w2e3.tmp"]
    for path in debris:
        path.parent.mkdir(exist_ok=True)
        path.write_text("{half", encoding="utf-8")
    unchanged = runner.invoke(cli, ["verify", "--project", str(repo)])
    assert unchanged.exit_code == 1 and "tmp" not in unchanged.output  # only the unacknowledged label
    assert _record_new(runner, repo).exit_code == 0
    assert not any(path.exists() for path in debris)
    assert _verify(runner, repo) == []


def _tree(root: Path) -> dict[str, bytes]:
    return {path.relative_to(root).as_posix(): path.read_bytes()
            for folder in ("records", "schemas") for path in sorted((root / folder).rglob("*")) if path.is_file()}


def test_record_new_that_cannot_write_the_generated_views_writes_nothing(repo, runner, monkeypatch):
    """The views are staged before the record's files appear: a full disk while writing them leaves the
    record unwritten, every generated file as it was and no temporary file."""
    before = _tree(repo)
    real = fsio.tempfile.mkstemp

    def full_disk(*arguments, **options):
        if Path(options.get("dir", "")).resolve() == (repo / "schemas").resolve():
            raise OSError(28, "No space left on device")
        return real(*arguments, **options)

    monkeypatch.setattr(fsio.tempfile, "mkstemp", full_disk)
    result = _record_new(runner, repo)
    monkeypatch.undo()
    assert result.exit_code == 2 and "No space left on device" in result.output and "Traceback" not in result.output
    assert _tree(repo) == before
    assert _record_new(runner, repo).exit_code == 0
    assert _verify(runner, repo) == []



def test_a_view_that_cannot_be_replaced_leaves_no_temporary_and_extract_mends_it(repo, runner):
    """A view's path that is a directory refuses its rename after the record's files appeared: a clear error,
    no temporary left anywhere, and once the path is free `govern extract` brings the views in line."""
    view = sorted((repo / "schemas" / "formats").glob("*.zh.md"))[-1]
    view.unlink()
    view.mkdir()
    result = _record_new(runner, repo)
    assert result.exit_code == 2 and view.name in result.output and "Traceback" not in result.output
    assert [path for path in repo.rglob("*.tmp")] == []
    view.rmdir()
    assert runner.invoke(cli, ["extract", "--project", str(repo)]).exit_code == 0
    assert _verify(runner, repo) == []

def test_record_new_writes_the_generated_views_as_they_are_produced(repo, runner, monkeypatch):
    """Never joined whole: each generated file goes to disk a chunk at a time, as `govern extract` writes."""
    from govern.extract import GeneratedFile

    def joined(self):
        raise AssertionError(f"{self.path.name} was joined whole")

    monkeypatch.setattr(GeneratedFile, "text", property(joined))
    assert _record_new(runner, repo).exit_code == 0
    monkeypatch.undo()
    assert _verify(runner, repo) == []
