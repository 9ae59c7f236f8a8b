"""Records that are wrong from the start are refused when they are created, and what govern generates in
a record (front matter, baseline flag, detected changes, the file name's date) is verified afterwards.
"""

from __future__ import annotations

import datetime as dt
import subprocess

import pytest

from tests.records.conftest import BASELINE, SIDECAR


def add_label(project, name: str = "label") -> None:
    project.add_sidecar_thread_property(name)


@pytest.mark.parametrize("date", ["20261201", "2026-W49-2", "2026-12-1", "2026-02-30", "2026-12-01T00:00"])
def test_a_date_that_is_not_yyyy_mm_dd_is_refused(project, date):
    add_label(project)
    before = project.state()
    result = project.new_record("label", date)
    assert result.exit_code == 1
    assert f"error: {date}: is not a date (use YYYY-MM-DD)" in result.stderr
    assert project.state() == before


def test_a_date_before_a_predecessor_is_refused(project):
    add_label(project)
    before = project.state()
    result = project.new_record("label", "2026-11-29")
    assert result.exit_code == 1
    assert (f"error: 2026-11-29-label: is dated before {BASELINE}, the latest record of sidecar:Artifact "
            "(date the record 2026-11-30 or later)") in result.stderr
    assert project.state() == before


def test_a_date_after_tomorrow_is_refused(project):
    add_label(project)
    later = (dt.datetime.now(dt.timezone.utc).date() + dt.timedelta(days=2)).isoformat()
    result = project.new_record("label", later)
    assert result.exit_code == 1
    assert "is after tomorrow (UTC)" in result.stderr
    tomorrow = (dt.datetime.now(dt.timezone.utc).date() + dt.timedelta(days=1)).isoformat()
    assert project.new_record("label", tomorrow).exit_code == 0


def test_the_default_date_is_today_in_utc(project, monkeypatch):
    add_label(project)
    monkeypatch.setenv("TZ", "Pacific/Kiritimati")  # UTC+14: its local date is often tomorrow in UTC
    import time

    time.tzset()
    try:
        project.write_prose()
        result = project.run("record", "new", "label", "--prose", str(project.path("p.yaml")))
    finally:
        monkeypatch.delenv("TZ")
        time.tzset()
    assert result.exit_code == 0, result.output
    today = dt.datetime.now(dt.timezone.utc).date().isoformat()
    assert project.record(f"{today}-label").is_file()


def test_sync_refuses_an_edit_in_one_language_and_names_the_stale_translation(project):
    add_label(project)
    assert project.new_record("label", "2026-12-01").exit_code == 0
    project.replace("records/2026-12-01-label.md", "A thread may carry a short free-text label.",
                    "A thread may carry a short label.")
    before = project.state()
    result = project.run("record", "sync", "2026-12-01-label")
    assert result.exit_code == 1
    assert "records/2026-12-01-label.zh.md: the summary was edited in records/2026-12-01-label.md but not here" \
        in result.stderr
    assert project.state() == before


def test_a_role_change_needs_a_record(project):
    project.replace("pyproject.toml", 'roots = { Artifact = { at = "#", role = "record" } }',
                    'roots = { Artifact = { at = "#", role = "event" } }')
    findings = project.findings()
    assert [(f["id"], f["root"]) for f in findings if f["id"] == "unacknowledged-change"] == [
        ("unacknowledged-change", "sidecar:Artifact")]
    assert "now has the role event but its latest record" in findings[0]["message"]
    project.edit_json(SIDECAR, lambda d: d["properties"]["schemaVersion"].__setitem__("x-persistence-version", 2))
    result = project.new_record("artifact-is-an-event", "2026-12-01")
    assert result.exit_code == 0, result.output
    assert project.verify().exit_code == 0, project.verify().output


def git(root, *args):
    subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True,
                   env={"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t",
                        "GIT_COMMITTER_EMAIL": "t@t", "PATH": "/usr/bin:/bin", "HOME": str(root)})


def test_refresh_refuses_a_record_that_is_on_the_base_branch(project):
    git(project.root, "init", "-q", "-b", "main")
    add_label(project)
    assert project.new_record("label", "2026-12-01").exit_code == 0
    git(project.root, "add", "-A")
    git(project.root, "commit", "-qm", "label")
    git(project.root, "checkout", "-q", "-b", "feature")
    add_label(project, "colour")
    before = project.state()
    result = project.run("record", "refresh", "2026-12-01-label")
    assert result.exit_code == 1
    assert "is already on the base branch main" in result.stderr
    assert project.state() == before
    # A record only on the feature branch is still the author's to refresh.
    assert project.new_record("colour", "2026-12-01").exit_code == 0
    add_label(project, "size")
    assert project.run("record", "refresh", "2026-12-01-colour").exit_code == 0


def test_an_extra_front_matter_key_is_a_finding(project):
    add_label(project)
    assert project.new_record("label", "2026-12-01").exit_code == 0
    for name in ("2026-12-01-label.md", "2026-12-01-label.zh.md"):
        project.replace(f"records/{name}", "baseline: false\n", "baseline: false\nreviewed: true\n")
    assert "record-syntax" in project.finding_ids()


def test_a_baseline_flag_on_a_later_record_is_a_finding(project):
    add_label(project)
    assert project.new_record("label", "2026-12-01").exit_code == 0
    for name in ("2026-12-01-label.md", "2026-12-01-label.zh.md"):
        project.replace(f"records/{name}", "baseline: false\n", "baseline: true\n")
    assert project.run("record", "sync", "2026-12-01-label").exit_code == 1
    assert "baseline-misplaced" in project.finding_ids()


def test_a_rewritten_detected_changes_section_is_a_finding(project):
    add_label(project)
    assert project.new_record("label", "2026-12-01").exit_code == 0
    for name in ("2026-12-01-label.md", "2026-12-01-label.zh.md"):
        text = project.record("2026-12-01-label", "zh" if "zh" in name else "en").read_text(encoding="utf-8")
        assert "optional-property-added" in text
        project.replace(f"records/{name}", "optional-property-added", "nothing-to-see", count=-1)
    assert project.run("record", "sync", "2026-12-01-label").exit_code in (0, 1)
    assert "generated-section-edited" in project.finding_ids()


def test_a_file_name_with_an_impossible_date_is_a_finding(project):
    add_label(project)
    assert project.new_record("label", "2026-12-01").exit_code == 0
    for part in ("en", "zh", "i18n", "schema"):
        old = project.record("2026-12-01-label", part)
        new = old.with_name(old.name.replace("2026-12-01", "2026-02-30"))
        text = old.read_text(encoding="utf-8").replace("2026-12-01", "2026-02-30")
        new.write_text(text, encoding="utf-8")
        old.unlink()
    findings = project.findings()
    assert any(f["id"] == "record-syntax" and "2026-02-30 is not a date" in f["message"] for f in findings), findings
