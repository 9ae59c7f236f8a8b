"""Two branches that each record a change on the same predecessor leave a fork after the merge."""

from __future__ import annotations

import os
import shutil
import subprocess

import pytest

BASELINE = "2026-11-30-baseline"
FIRST = "2026-12-01-add-thread-x"
SECOND = "2026-12-01-add-thread-y"

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")


def git(project, *args: str, check: bool = True) -> subprocess.CompletedProcess:
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.invalid",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.invalid",
           "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}
    return subprocess.run(["git", *args], cwd=project.root, env=env, check=check, capture_output=True, text=True)


@pytest.fixture
def forked(project):
    git(project, "init", "-q", "-b", "main")
    git(project, "add", "-A")
    git(project, "commit", "-q", "-m", "base")

    git(project, "checkout", "-q", "-b", "branch-a")
    project.add_sidecar_thread_property("x")
    assert project.new_record("add-thread-x", "2026-12-01").exit_code == 0
    project.path("p.yaml").unlink()
    git(project, "add", "-A")
    git(project, "commit", "-q", "-m", "record x")

    git(project, "checkout", "-q", "-b", "branch-b", "main")
    project.add_sidecar_thread_property("y")
    assert project.new_record("add-thread-y", "2026-12-01").exit_code == 0
    project.path("p.yaml").unlink()
    git(project, "add", "-A")
    git(project, "commit", "-q", "-m", "record y")

    # branch-a lands first; branch-b then takes main in, as a pull request is brought up to date.
    git(project, "checkout", "-q", "main")
    git(project, "merge", "-q", "--no-edit", "branch-a")
    git(project, "checkout", "-q", "branch-b")
    merged = git(project, "merge", "--no-edit", "main", check=False)
    assert merged.returncode != 0, "the schema edits should conflict"
    conflicted = set(git(project, "diff", "--name-only", "--diff-filter=U").stdout.split())
    assert "schemas/coauthoring-sidecar.schema.json" in conflicted
    assert not any(name.startswith("records/") for name in conflicted)

    # Resolve by taking both fields, then regenerate the generated views.
    git(project, "checkout", "-q", "--ours", "--", *conflicted)
    project.add_sidecar_thread_property("x")
    extracted = project.run("extract")
    assert extracted.exit_code == 0, extracted.output
    git(project, "add", "-A")
    git(project, "commit", "-q", "--no-edit")
    return project


def test_two_records_on_one_predecessor_are_a_history_fork(forked) -> None:
    findings = forked.findings()
    forks = [f for f in findings if f["id"] == "history-fork"]
    assert forks == [{
        "id": "history-fork", "path": f"records/{SECOND}.md", "line": None, "root": "sidecar:Artifact",
        "message": f"{FIRST}, {SECOND} all succeed {BASELINE} for sidecar:Artifact",
        "hint": f"keep one history: run `govern record refresh {SECOND}` so it follows {FIRST} "
                "(or delete its four files and run `govern record new` again)",
    }]
    assert forked.verify().exit_code == 1
    # Recording yet another change would make a third successor: a fork's only fix is the fork's own hint.
    assert not [f for f in findings if "govern record new change-" in (f["hint"] or "")], findings


def test_a_fork_is_resolved_by_recording_the_later_change_again(forked) -> None:
    for part in ("en", "zh", "i18n", "schema"):
        forked.record(SECOND, part).unlink()
    created = forked.new_record("add-thread-y", "2026-12-01")
    assert created.exit_code == 0, created.output
    assert created.stdout.startswith(f"sidecar:Artifact: same-version ({FIRST} -> sha256:")
    assert forked.verify().exit_code == 0


def test_a_fork_is_resolved_by_refreshing_the_later_record(forked) -> None:
    refreshed = forked.run("record", "refresh", SECOND)
    assert refreshed.exit_code == 0, refreshed.output
    assert f'predecessor: "{FIRST}"' in forked.record(SECOND).read_text(encoding="utf-8")
    result = forked.verify()
    assert result.exit_code == 0, result.output
