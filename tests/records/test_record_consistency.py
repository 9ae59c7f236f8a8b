"""Tampering and half-done edits to a record are caught, each by its own finding."""

from __future__ import annotations

import pytest

BASELINE = "2026-11-30-baseline"
RECORD = "2026-12-01-add-thread-label"


@pytest.fixture
def recorded(project):
    """A copy with one acknowledged change on top of the baseline, verified clean."""
    project.add_sidecar_thread_property("label")
    created = project.new_record("add-thread-label")
    assert created.exit_code == 0, created.output
    assert project.verify().exit_code == 0
    return project


def test_editing_the_chinese_declaration_is_a_declaration_mismatch(recorded) -> None:
    recorded.replace(f"records/{RECORD}.zh.md", 'decision: "same-version"', 'decision: "version-bump"')
    result = recorded.verify()
    assert result.exit_code == 1
    assert result.stdout == (
        f"records/{RECORD}.zh.md:2: declaration-mismatch: its machine declaration differs from the one in "
        f"records/{RECORD}.md, the source language's record\n"
        f"  fix: copy the declaration from records/{RECORD}.md unchanged\n"
        "verify: 1 finding\n")


def test_editing_only_the_english_summary_is_a_stale_translation(recorded) -> None:
    recorded.replace(f"records/{RECORD}.md", "A thread may carry a short free-text label.",
                     "A thread may carry a short label of free text.")
    findings = recorded.findings()
    assert [f["id"] for f in findings] == ["translation-stale"]
    assert findings[0]["path"] == f"records/{RECORD}.zh.md"
    assert findings[0]["message"] == f"the summary was edited in records/{RECORD}.md but not here"
    assert findings[0]["hint"] == f"update the summary in both languages, then run `govern record sync {RECORD}`"


def test_editing_only_the_chinese_title_is_a_stale_translation_of_the_english(recorded) -> None:
    recorded.replace(f"records/{RECORD}.zh.md", "# 为讨论串添加标签", "# 为讨论串增加标签")
    findings = recorded.findings()
    assert [(f["id"], f["path"]) for f in findings] == [("translation-stale", f"records/{RECORD}.md")]
    assert findings[0]["message"] == f"the title was edited in records/{RECORD}.zh.md but not here"


@pytest.mark.parametrize("edit", ["add-property", "constraint"])
def test_editing_the_snapshot_is_a_snapshot_mismatch(recorded, edit: str) -> None:
    def change(document: dict) -> None:
        thread = document["$defs"]["sidecar"]["$defs"]["Thread"]
        if edit == "add-property":
            thread["properties"]["extra"] = {"type": "string"}
        else:
            thread["properties"]["label"]["maxLength"] = 40

    recorded.edit_json(f"records/{RECORD}.schema.json", change)
    findings = recorded.findings()
    assert [(f["id"], f["path"], f.get("root")) for f in findings] == [
        ("snapshot-mismatch", f"records/{RECORD}.schema.json", "sidecar:Artifact")]
    assert findings[0]["message"].startswith("normalizes sidecar:Artifact to sha256:")
    assert findings[0]["message"].endswith(", not the declared " + _declared_after(recorded))


def _declared_after(project) -> str:
    text = project.record(RECORD).read_text(encoding="utf-8")
    return text.split('after: "', 1)[1].split('"', 1)[0]


def test_editing_the_baseline_snapshot_after_a_successor_exists_is_evident(recorded) -> None:
    recorded.edit_json(f"records/{BASELINE}.schema.json", lambda d: d["$defs"]["sidecar"]["$defs"]["Thread"]
                       ["properties"].__setitem__("extra", {"type": "string"}))
    findings = recorded.findings()
    # Other records of this repository that follow the baseline are reported too; this one is about RECORD.
    edited = [f for f in findings if f["id"] == "predecessor-edited" and f"the link in {RECORD})" in f["message"]]
    assert len(edited) == 1
    assert edited[0]["path"] == f"records/{BASELINE}.md"
    assert edited[0]["message"] == (
        f"record {BASELINE} was edited after {RECORD} came to depend on it (its declaration or snapshot no "
        f"longer matches the link in {RECORD})")
    assert ("snapshot-mismatch", f"records/{BASELINE}.schema.json") in {(f["id"], f["path"]) for f in findings}
    # The successor is not also judged against the edited snapshot: that comparison means nothing.
    assert "decision-too-weak" not in {f["id"] for f in findings}


def test_editing_the_baseline_declaration_in_both_languages_is_still_evident(recorded) -> None:
    old = 'after: 1\n---'
    for part in ("", ".zh"):
        recorded.replace(f"records/{BASELINE}{part}.md", old, 'after: 2\n---')
    ids = recorded.finding_ids()
    assert "predecessor-edited" in ids
    assert "declaration-mismatch" not in ids
    assert "consistency-stale" in ids


def test_sync_after_updating_both_languages_clears_the_consistency_finding(recorded) -> None:
    recorded.replace(f"records/{RECORD}.md", "A thread may carry a short free-text label.",
                     "A thread may carry a short label of free text.")
    recorded.replace(f"records/{RECORD}.zh.md", "讨论串可以带一个简短的自由文本标签。", "讨论串可以带一个简短的文本标签。")
    findings = recorded.findings()
    assert [(f["id"], f["path"], f["message"]) for f in findings] == [
        ("consistency-stale", f"records/{RECORD}.i18n.yaml",
         "the summary changed in both languages since the consistency record was written")]

    synced = recorded.run("record", "sync", RECORD)
    assert synced.exit_code == 0, synced.output
    assert synced.stdout == f"wrote records/{RECORD}.i18n.yaml\n"
    assert recorded.verify().exit_code == 0


def test_sync_refuses_while_the_declarations_differ(recorded) -> None:
    recorded.replace(f"records/{RECORD}.zh.md", 'decision: "same-version"', 'decision: "version-bump"')
    before = recorded.state()
    result = recorded.run("record", "sync", RECORD)
    assert result.exit_code == 1
    assert f"records/{RECORD}.zh.md: its declaration differs from the English one" in result.stderr
    assert recorded.state() == before
