"""Broken records are findings with a file and line; broken prose inputs are input errors that write nothing."""

from __future__ import annotations

import pytest

BASELINE = "2026-11-30-baseline"
RECORD = "2026-12-01-add-thread-label"


@pytest.fixture
def recorded(project):
    project.add_sidecar_thread_property("label")
    assert project.new_record("add-thread-label").exit_code == 0
    return project


@pytest.mark.parametrize(("old", "new", "line", "reason"), [
    ("roots:\n", "roots: [\n", 7, "invalid YAML: expected the node content, but found '-'"),
    ("---\nkind:", "kind:", 1, "does not start with a YAML front matter block (a line `---`)"),
    ("kind: persistence-change", "kind: change", 2, "front matter kind must be persistence-change"),
    ('id: "2026-12-01-add-thread-label"', 'id: "2026-12-01-other"', None,
     "declares id 2026-12-01-other but the file is named 2026-12-01-add-thread-label"),
    ('decision: "same-version"', 'decision: "maybe"', None, "roots[0].decision must be same-version or version-bump"),
])
def test_broken_front_matter_is_a_record_syntax_finding(recorded, old, new, line, reason) -> None:
    recorded.replace(f"records/{RECORD}.md", old, new)
    findings = recorded.findings()
    syntax = [f for f in findings if f["id"] == "record-syntax"]
    assert syntax == [{"id": "record-syntax", "path": f"records/{RECORD}.md", "line": line, "message": reason,
                       "hint": "compare with templates/record.en.md and records/README.md"}]
    text = recorded.verify().stdout
    where = f"records/{RECORD}.md:{line}" if line else f"records/{RECORD}.md"
    assert f"{where}: record-syntax: {reason}\n" in text


def test_a_broken_record_does_not_hide_other_findings(recorded) -> None:
    recorded.replace(f"records/{RECORD}.md", "roots:\n", "roots: [\n")
    recorded.replace(f"records/{BASELINE}.zh.md", "# ", "# 已修改的", 1)
    ids = recorded.finding_ids()
    assert "record-syntax" in ids and "translation-stale" in ids


def test_a_record_without_its_consistency_record_can_be_synced(recorded) -> None:
    recorded.record(RECORD, "i18n").unlink()
    findings = recorded.findings()
    assert findings == [{
        "id": "record-files-missing", "path": f"records/{RECORD}.md", "line": None,
        "message": f"record {RECORD} lacks records/{RECORD}.i18n.yaml",
        "hint": f"run `govern record sync {RECORD}` to regenerate it"}]
    result = recorded.run("record", "sync", RECORD)
    assert result.exit_code == 0, result.output
    assert recorded.verify().exit_code == 0


@pytest.mark.parametrize("part", ["zh", "schema"])
def test_a_missing_sibling_file_is_reported(recorded, part: str) -> None:
    missing = recorded.record(RECORD, part)
    missing.unlink()
    findings = [f for f in recorded.findings() if f["id"] == "record-files-missing"]
    assert findings == [{
        "id": "record-files-missing", "path": f"records/{RECORD}.md", "line": None,
        "message": f"record {RECORD} lacks records/{missing.name}",
        "hint": f"restore it from version control, or `govern record refresh {RECORD}` if no record depends on it"}]
    assert recorded.verify().exit_code == 1


def test_a_record_missing_its_chinese_file_is_repaired_by_refresh_with_prose(recorded) -> None:
    recorded.record(RECORD, "zh").unlink()
    kept = recorded.run("record", "refresh", RECORD)
    assert kept.exit_code == 1
    assert kept.stderr == (f"error: records/{RECORD}.zh.md: its prose cannot be read, so it cannot be kept (pass "
                           f"the prose again: govern record refresh {RECORD} --prose FILE)\n")
    refreshed = recorded.run("record", "refresh", RECORD, "--prose", str(recorded.path("p.yaml")))
    assert refreshed.exit_code == 0, refreshed.output
    assert recorded.verify().exit_code == 0


def test_sync_refuses_when_a_language_file_is_missing(recorded) -> None:
    recorded.record(RECORD, "zh").unlink()
    result = recorded.run("record", "sync", RECORD)
    assert result.exit_code == 1
    assert result.stderr == f"error: records/{RECORD}.zh.md: does not exist (restore it from version control)\n"


@pytest.mark.parametrize(("content", "message"), [
    ("en: [\n", ":2:1: is not valid YAML: expected the node content, but found '<stream end>' (correct the "
                     "file: govern reads only unambiguous JSON and YAML (limits in the README))"),
    ('en:\n  title: "a"\n  summary: "b"\n', ": zh: must be a mapping with title, summary, compatibility, "
                                            "verification (start from `govern record prose > prose.yaml`)"),
    ("- en\n- zh\n", ": must be a mapping with en: and zh: (start from `govern record prose > prose.yaml`)"),
    ('en:\n  title: ""\nzh:\n  title: "t"\n', ": en.title must not be empty"),
    ('en:\n  title: "t"\n  notes: "n"\nzh:\n  title: "t"\n', ": en.notes is not a prose key (use title, summary, "
                                                               "compatibility, verification)"),
])
def test_a_bad_prose_file_is_an_input_error_that_writes_nothing(project, content: str, message: str) -> None:
    project.add_sidecar_thread_property("label")
    prose = project.path("p.yaml")
    prose.write_text(content, encoding="utf-8")
    before = project.state()
    result = project.new_record("add-thread-label")
    assert result.exit_code == 2
    assert f"error: {prose}{message}\n" in result.stderr
    assert result.stdout == ""
    assert project.state() == before


def test_a_missing_prose_file_is_an_input_error(project) -> None:
    project.add_sidecar_thread_property("label")
    before = project.state()
    result = project.run("record", "new", "add-thread-label", "--prose", str(project.path("nope.yaml")))
    assert result.exit_code == 2
    assert result.stderr == f"error: {project.path('nope.yaml')}: does not exist (check the path)\n"
    assert project.state() == before


def test_a_bad_date_is_refused(project) -> None:
    project.add_sidecar_thread_property("label")
    project.write_prose()
    before = project.state()
    result = project.new_record("add-thread-label", "2026-13-01")
    assert result.exit_code == 1
    assert result.stderr == "error: 2026-13-01: is not a date (use YYYY-MM-DD)\n"
    assert project.state() == before


def test_a_broken_record_does_not_make_its_roots_look_unacknowledged(recorded) -> None:
    # The broken record drops out of the history; comparing the source with the record before it would
    # blame a change that is in fact recorded.
    recorded.replace(f"records/{RECORD}.md", "roots:\n", "roots: [\n")
    ids = recorded.finding_ids()
    assert "record-syntax" in ids
    assert not [finding_id for finding_id in ids if finding_id.startswith("unacknowledged")]


def test_a_record_dated_before_its_predecessor_is_out_of_order(project) -> None:
    project.add_sidecar_thread_property("label")
    assert project.new_record("add-thread-label", "2026-12-01").exit_code == 0
    # `govern record new` refuses such a date, so the record is re-dated by hand.
    for part in ("en", "zh", "i18n", "schema"):
        old = project.record("2026-12-01-add-thread-label", part)
        text = old.read_text(encoding="utf-8").replace("2026-12-01", "2026-11-29")
        old.with_name(old.name.replace("2026-12-01", "2026-11-29")).write_text(text, encoding="utf-8")
        old.unlink()
    findings = [f for f in project.findings() if f["id"] == "history-order"]
    assert findings == [{"id": "history-order", "path": "records/2026-11-29-add-thread-label.md", "line": None,
                         "root": "sidecar:Artifact",
                         "message": "is dated 2026-11-29 but follows 2026-11-30-baseline for sidecar:Artifact, "
                                    "which is dated later",
                         "hint": "a record cannot be older than its predecessor; fix the date"}]
