"""The two-way merge: rules on hand-made cases, the CLI, the git merge driver and its refusals."""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from govern.cli import cli
from govern.sidecar.canonical import canonical_bytes
from govern.sidecar.merge import NEWER_UPDATED_AT, TIE_BREAK, merge_artifacts

EXAMPLES = Path(__file__).resolve().parents[2] / "schemas" / "examples" / "sidecar"
REPO_ROOT = Path(__file__).resolve().parents[2]


def _message(message_id, created, body="hi"):
    return {"id": message_id, "author": {"kind": "human", "id": "ana"}, "body": body, "createdAt": created}


@pytest.fixture
def base():
    return {
        "schemaVersion": 1, "document": {"path": "docs/spec.md"},
        "anchors": {"a_1": {"fingerprint": {"text": "alpha", "before": "", "after": "", "lineHint": 0}}},
        "threads": [{"id": "t_1", "anchorId": "a_1", "status": "open",
                     "messages": [_message("m_1", "2026-06-10T09:00:00.000Z")]}],
        "attributions": [{"id": "at_1", "anchorId": "a_1", "author": {"kind": "human", "id": "ana"},
                          "createdAt": "2026-06-10T09:00:00.000Z", "updatedAt": "2026-06-10T09:00:00.000Z"}],
        "proposals": [],
    }


def _summary(result):
    return [(d.section, d.key, d.rule, d.winner, d.thread) for d in result.divergences]


def test_reply_on_one_side_and_resolution_on_the_other_merge_cleanly(base):
    ours, theirs = copy.deepcopy(base), copy.deepcopy(base)
    ours["threads"][0]["messages"].append(_message("m_z", "2026-06-10T10:00:00.000Z"))
    theirs["threads"][0]["messages"].append(_message("m_a", "2026-06-10T10:00:00.000Z"))
    theirs["threads"][0]["messages"].append(_message("m_0", "2026-06-10T09:30:00.000Z"))
    theirs["threads"][0]["status"] = "resolved"
    result = merge_artifacts(ours, theirs)
    thread = result.merged["threads"][0]
    assert thread["status"] == "resolved"
    # Ordered by (createdAt, id): equal instants fall back to the id.
    assert [m["id"] for m in thread["messages"]] == ["m_1", "m_0", "m_a", "m_z"]
    assert _summary(result) == [("threads", "t_1", TIE_BREAK, "theirs", None)]


def test_attribution_newer_updated_at_wins_and_is_reported(base):
    ours, theirs = copy.deepcopy(base), copy.deepcopy(base)
    ours["attributions"][0]["updatedAt"] = "2026-06-11T00:00:00.000Z"
    ours["attributions"][0]["author"]["id"] = "aaa"  # would lose a tie-break, wins on time
    theirs["attributions"][0]["updatedAt"] = "2026-06-10T23:59:59.999Z"
    result = merge_artifacts(ours, theirs)
    assert result.merged["attributions"][0]["author"]["id"] == "aaa"
    assert _summary(result) == [("attributions", "at_1", NEWER_UPDATED_AT, "ours", None)]
    assert _summary(merge_artifacts(theirs, ours)) == [("attributions", "at_1", NEWER_UPDATED_AT, "theirs", None)]


def test_every_kind_of_divergence_is_reported(base):
    ours, theirs = copy.deepcopy(base), copy.deepcopy(base)
    theirs["document"]["path"] = "docs/other.md"
    theirs["anchors"]["a_1"]["fingerprint"]["lineHint"] = 4
    theirs["threads"][0]["messages"][0]["body"] = "edited"
    theirs["attributions"][0]["turnId"] = "turn"
    ours["proposals"] = [{"id": "p_1", "anchorId": "a_1", "replacement": "x", "createdAt": "2026-06-10T09:00:00.000Z",
                          "author": {"kind": "agent", "id": "bot", "agent": {"sdk": "s", "model": "m", "sessionId": ""}}}]
    theirs["proposals"] = [dict(ours["proposals"][0], replacement="y")]
    ours["x-extra"], theirs["x-extra"] = {"n": 1}, {"n": 2}
    ours["x-only-ours"] = True
    result = merge_artifacts(ours, theirs)
    assert sorted((d.section, d.key) for d in result.divergences) == [
        ("anchors", "a_1"), ("attributions", "at_1"), ("document", "document"), ("messages", "m_1"),
        ("proposals", "p_1"), ("root", "x-extra")]
    assert result.merged["x-only-ours"] is True
    assert canonical_bytes(result.merged) == canonical_bytes(merge_artifacts(theirs, ours).merged)


def test_one_sided_records_keep_their_order_and_append_at_the_end(base):
    ours, theirs = copy.deepcopy(base), copy.deepcopy(base)
    ours["threads"].append(dict(copy.deepcopy(base["threads"][0]), id="t_ours"))
    theirs["threads"].append(dict(copy.deepcopy(base["threads"][0]), id="t_theirs"))
    merged = merge_artifacts(ours, theirs).merged
    assert [t["id"] for t in merged["threads"]] == ["t_1", "t_ours", "t_theirs"]


def _write(path: Path, data) -> Path:
    path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    return path


def test_cli_merge_to_stdout_and_to_a_file(runner, tmp_path, base):
    ours, theirs = copy.deepcopy(base), copy.deepcopy(base)
    theirs["threads"][0]["status"] = "resolved"
    ours_path, theirs_path = _write(tmp_path / "o.json", ours), _write(tmp_path / "t.json", theirs)
    result = runner.invoke(cli, ["sidecar", "merge", str(ours_path), str(theirs_path)])
    assert result.exit_code == 0, result.output
    expected = canonical_bytes(merge_artifacts(ours, theirs).merged).decode("utf-8")
    assert result.stdout == expected
    assert result.stderr == "merged: threads t_1: diverged, tie-break kept theirs\n"
    out = tmp_path / "out.json"
    result = runner.invoke(cli, ["sidecar", "merge", str(theirs_path), str(ours_path), "-o", str(out)])
    assert result.exit_code == 0 and result.stdout == ""
    assert out.read_text(encoding="utf-8") == expected


@pytest.mark.parametrize("case,code,message", [
    ("differing-majors", 1, "majors differ (schemaVersion 1 and 2)"),
    ("newer-major", 1, "schemaVersion 2 is newer than the implemented major 1"),
    ("invalid", 1, "is not a valid sidecar, refusing to merge it"),
    ("invalid-json", 2, "is not valid JSON"),
    ("missing", 2, "does not exist"),
    ("directory", 2, "is a directory"),
])
def test_cli_merge_refusals_write_nothing(runner, tmp_path, base, case, code, message):
    ours_path = _write(tmp_path / "o.json", base)
    theirs_path = tmp_path / "t.json"
    if case == "differing-majors":
        _write(theirs_path, dict(base, schemaVersion=2))
    elif case == "newer-major":
        _write(ours_path, dict(base, schemaVersion=2))
        _write(theirs_path, dict(base, schemaVersion=2))
    elif case == "invalid":
        _write(theirs_path, dict(base, threads=[dict(base["threads"][0], anchorId="a_gone")]))
    elif case == "invalid-json":
        theirs_path.write_text("{", encoding="utf-8")
    elif case == "directory":
        theirs_path.mkdir()
    before = ours_path.read_bytes()
    out = tmp_path / "out.json"
    result = runner.invoke(cli, ["sidecar", "merge", str(ours_path), str(theirs_path), "-o", str(out)])
    assert result.exit_code == code
    assert message in result.stderr
    assert not out.exists()
    driver = runner.invoke(cli, ["sidecar", "merge-driver", str(tmp_path / "base"), str(ours_path), str(theirs_path)])
    assert driver.exit_code == code and message in driver.stderr
    assert ours_path.read_bytes() == before


def test_merge_driver_writes_the_result_into_ours(runner, tmp_path, base):
    ours, theirs = copy.deepcopy(base), copy.deepcopy(base)
    ours["threads"][0]["messages"].append(_message("m_2", "2026-06-10T10:00:00.000Z"))
    theirs["threads"][0]["messages"].append(_message("m_3", "2026-06-10T11:00:00.000Z"))
    paths = [_write(tmp_path / name, data) for name, data in (("O", base), ("A", ours), ("B", theirs))]
    result = runner.invoke(cli, ["sidecar", "merge-driver", *map(str, paths)])
    assert result.exit_code == 0, result.output
    assert paths[1].read_bytes() == canonical_bytes(merge_artifacts(ours, theirs).merged)
    assert [m["id"] for m in json.loads(paths[1].read_text())["threads"][0]["messages"]] == ["m_1", "m_2", "m_3"]
    assert result.stderr == ""


def _git(repo: Path, *arguments: str) -> subprocess.CompletedProcess:
    return subprocess.run(["git", *arguments], cwd=repo, capture_output=True, text=True, check=False)


def test_git_uses_the_driver_for_sidecars(git_repo, base):
    """End to end: two branches reply to the same thread; git's own merge conflicts, the driver does not."""
    env_python = sys.executable
    (git_repo / ".gitattributes").write_text(".threads/**/*.json merge=govern-sidecar\n", encoding="utf-8")
    _git(git_repo, "config", "merge.govern-sidecar.name", "govern sidecar merge")
    _git(git_repo, "config", "merge.govern-sidecar.driver", f"{env_python} -m govern sidecar merge-driver %O %A %B")
    sidecar = git_repo / ".threads" / "docs" / "spec.md.json"
    sidecar.parent.mkdir(parents=True)
    sidecar.write_bytes(canonical_bytes(base))
    _git(git_repo, "add", "-A")
    assert _git(git_repo, "commit", "-qm", "base").returncode == 0
    default = _git(git_repo, "rev-parse", "--abbrev-ref", "HEAD").stdout.strip()
    _git(git_repo, "checkout", "-qb", "other")
    theirs = copy.deepcopy(base)
    theirs["threads"][0]["messages"].append(_message("m_3", "2026-06-10T11:00:00.000Z"))
    sidecar.write_bytes(canonical_bytes(theirs))
    _git(git_repo, "commit", "-qam", "theirs")
    _git(git_repo, "checkout", "-q", default)
    ours = copy.deepcopy(base)
    ours["threads"][0]["messages"].append(_message("m_2", "2026-06-10T10:00:00.000Z"))
    sidecar.write_bytes(canonical_bytes(ours))
    _git(git_repo, "commit", "-qam", "ours")
    environment = dict(os.environ, PYTHONPATH=str(REPO_ROOT))
    merged = subprocess.run(["git", "merge", "-q", "--no-edit", "other"], cwd=git_repo, capture_output=True,
                            text=True, env=environment, check=False)
    assert merged.returncode == 0, merged.stdout + merged.stderr
    assert sidecar.read_bytes() == canonical_bytes(merge_artifacts(ours, theirs).merged)
