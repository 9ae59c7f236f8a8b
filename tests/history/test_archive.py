"""The prerelease archive: tag-to-tag type differences read from git, for history only."""

from __future__ import annotations

import json
import subprocess

import pytest

from history_project import SIDECAR, Project, bump, require_top_level, set_sidecar_format

ARCHIVE = "records/archive"


def git(project: Project, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=project.root, check=True, capture_output=True, text=True).stdout


@pytest.fixture
def tagged(project: Project) -> Project:
    """v1.0.0-rc.1 (baseline sources), v1.0.0 (a thread label), then a version-bump to format 2, untagged."""
    git(project, "init", "-q")
    git(project, "-c", "user.name=t", "-c", "user.email=t@e", "commit", "-q", "--allow-empty", "-m", "start")
    git(project, "add", "-A")
    git(project, "-c", "user.name=t", "-c", "user.email=t@e", "commit", "-q", "-m", "baseline")
    git(project, "tag", "v1.0.0-rc.1")
    project.add_sidecar_thread_property("label", {"type": "string"})
    assert project.new_record("thread-label", "2026-12-01").exit_code == 0
    git(project, "add", "-A")
    git(project, "-c", "user.name=t", "-c", "user.email=t@e", "commit", "-q", "-m", "label")
    git(project, "tag", "v1.0.0")
    bump(project, 2, "origin", "sidecar-format-2", "2026-12-01")
    return project


def test_archive_writes_the_differences_between_consecutive_tags(tagged: Project) -> None:
    # The first commit has no sources: its tag is reported and skipped.
    git(tagged, "tag", "v0.9.0-alpha", git(tagged, "rev-list", "--max-parents=0", "HEAD").strip())
    result = tagged.run("archive", "--tags", "v*")
    assert result.exit_code == 0, result.output
    assert "skipped v0.9.0-alpha:" in result.stderr
    assert result.stdout.splitlines() == [f"wrote {ARCHIVE}/v1.0.0-rc.1--v1.0.0{suffix}"
                                          for suffix in (".json", ".md", ".zh.md")]
    document = tagged.load_json(f"{ARCHIVE}/v1.0.0-rc.1--v1.0.0.json")
    assert (document["kind"], document["from"], document["to"]) == ("prerelease-archive", "v1.0.0-rc.1", "v1.0.0")
    assert [(root["root"], root["minimum"]) for root in document["roots"]] == [("sidecar:Artifact", "same-version")]
    assert document["roots"][0]["changes"][0]["path"].endswith("/label")
    chinese = tagged.path(f"{ARCHIVE}/v1.0.0-rc.1--v1.0.0.zh.md").read_text(encoding="utf-8")
    assert "`sidecar:Artifact`: 同版本" in chinese
    # Tags are read from git, never checked out: the work tree keeps the untagged format 2.
    assert tagged.load_json(SIDECAR)["properties"]["schemaVersion"]["x-persistence-version"] == 2


def test_the_archive_is_history_only(tagged: Project) -> None:
    assert tagged.run("archive").exit_code == 0
    assert tagged.verify().exit_code == 0, tagged.verify().output
    # An archive that records the current change does not acknowledge it.
    set_sidecar_format(tagged, 3)
    require_top_level(tagged, "owner")
    assert "unacknowledged-change" in tagged.finding_ids()
    tagged.edit_json(f"{ARCHIVE}/v1.0.0-rc.1--v1.0.0.json", lambda d: d.__setitem__("kind", "persistence-change"))
    findings = [(f["id"], f["path"]) for f in tagged.findings() if f["id"] == "archive-malformed"]
    assert findings == [("archive-malformed", f"{ARCHIVE}/v1.0.0-rc.1--v1.0.0.json")]


def test_outside_git_archive_is_a_clear_input_error(project: Project) -> None:
    result = project.run("archive")
    assert result.exit_code == 2 and "git" in result.stderr
    assert not project.path(ARCHIVE).exists()


def test_progress_is_reported_per_tag(tagged: Project) -> None:
    from govern.catalog.archive import archive_steps
    from govern.config import load_config

    seen = []
    steps, skipped = archive_steps(load_config(tagged.root), "v*", lambda *step: seen.append(step))
    assert seen == [(1, 2, "v1.0.0-rc.1"), (2, 2, "v1.0.0")]
    assert [(step.old, step.new) for step in steps] == [("v1.0.0-rc.1", "v1.0.0")] and skipped == []


def test_done_when_end_to_end(tagged: Project, tmp_path) -> None:
    """Two tags (one an RC) before a version-bump raising the sidecar to format 2: every history view."""
    import re

    from history_project import EXAMPLES

    formats = sorted(path.name for path in tagged.path("schemas/formats").glob("sidecar-*.schema.json"))
    assert formats == ["sidecar-1.schema.json", "sidecar-2.schema.json"]
    result = tagged.run("formats", "--models", str(tmp_path / "readers"))
    assert result.exit_code == 0, result.output
    import importlib.util
    import sys

    sys.path.insert(0, str(tmp_path))
    try:
        one = importlib.import_module("readers.sidecar_1").SidecarFormat1
        two = importlib.import_module("readers.sidecar_2").SidecarFormat2
    finally:
        sys.path.remove(str(tmp_path))
        for name in [name for name in sys.modules if name == "readers" or name.startswith("readers.")]:
            del sys.modules[name]
    for path in sorted((EXAMPLES / "sidecar" / "valid").glob("*.json")):
        example = json.loads(path.read_text(encoding="utf-8"))
        one.model_validate(example)
        two.model_validate({**example, "schemaVersion": 2, "origin": "import"})
    assert tagged.run("archive", "--tags", "v*").exit_code == 0
    assert tagged.path(f"{ARCHIVE}/v1.0.0-rc.1--v1.0.0.json").is_file()
    assert tagged.verify().exit_code == 0, tagged.verify().output
    assert tagged.run("extract", "--check").exit_code == 0
    english = tagged.path("schemas/catalog.md").read_text(encoding="utf-8")
    assert "- [2026-12-01-sidecar-format-2](../records/2026-12-01-sidecar-format-2.md) (2026-12-01): version-bump, " \
           "format version `1` → `2`" in english
    assert "| `origin` | The origin of the sidecar. |" in english
    chinese = tagged.path("schemas/catalog.zh.md").read_text(encoding="utf-8")
    assert "版本升级，格式版本 `1` → `2`" in chinese and "指纹" in chinese
    assert not re.search(r"摘要|version-bump|same-version", re.sub(r"`[^`]*`|\]\([^)]*\)", "", chinese))
