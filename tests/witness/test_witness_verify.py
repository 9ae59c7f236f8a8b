"""`govern verify --witness`: witnesses of the pending breaking changes in every format and language, and
records declared same-version checked for documents that break them."""

from __future__ import annotations

import dataclasses
import json

import pytest
from click.testing import CliRunner

from conftest import REPO_ROOT, projects  # noqa: E402 - the folder's helpers

SIDECAR = projects.SIDECAR


@pytest.fixture
def project(tmp_path):
    return projects.Project(projects.copy_project(REPO_ROOT, tmp_path / "project"), CliRunner())


def tighten_line_hint(project) -> None:
    project.edit_json(SIDECAR, lambda d: d["$defs"]["Fingerprint"]["properties"]["lineHint"].__setitem__("minimum", 1))


# The bound is in the named type Fingerprint, which the root reaches through a reference: located there.
LINE_HINT = "Fingerprint#/properties/lineHint/minimum"


def test_a_clean_project_stays_clean(project):
    result = project.verify("--witness")
    assert (result.exit_code, result.stdout) == (0, "verify: clean\n")


def test_text_lists_the_witness_of_an_unacknowledged_breaking_change(project):
    tighten_line_hint(project)
    result = project.verify("--witness")
    assert result.exit_code == 1
    tail = result.stdout.split("witnesses of the unacknowledged breaking changes:\n", 1)[1].splitlines()
    assert tail[0] == f"  sidecar:Artifact {LINE_HINT}  constraint-changed (constraint-changed): minimum raised from 0 to 1"
    assert tail[1].startswith('    witness (old-data-new-readers): {"attributions":[]')
    assert tail[2] == ("      old accepts it; new rejects it at /anchors/key/fingerprint/lineHint: "
                       "0 is less than the minimum of 1")
    assert "witness" not in project.verify().stdout


def test_json_and_markdown_in_both_languages(project):
    tighten_line_hint(project)
    [entry] = json.loads(project.verify("--witness", "--format", "json").stdout)["witnesses"]
    assert (entry["root"], entry["type"], entry["path"], entry["witness_search"]) == \
        ("sidecar:Artifact", "Fingerprint", "/properties/lineHint/minimum", "found")
    assert entry["type_location"] == "schemas/coauthoring-sidecar.schema.json#/$defs/Fingerprint"
    assert entry["witness"]["document"]["anchors"]["key"]["fingerprint"]["lineHint"] == 0
    english = project.verify("--witness", "--format", "markdown").stdout
    chinese = project.verify("--witness", "--format", "markdown", "--lang", "zh").stdout
    assert "#### Witnesses of the unacknowledged breaking changes" in english
    assert "<details><summary>Witness: a document that old accepts and new rejects (old-data-new-readers)</summary>" \
        in english
    assert "#### 尚未确认的破坏性变更的见证文档" in chinese
    assert "<details><summary>见证文档：旧模式接受、新模式拒绝的文档（新读取方读旧数据）</summary>" in chinese
    assert "constraint-changed (`constraint-changed`) minimum raised from 0 to 1" in english
    assert "constraint-changed (`constraint-changed`) minimum 从 0 提高到 1" in chinese
    for text in (english, chinese):
        assert '"lineHint": 0' in text and text.count("</details>") == 1


def test_a_record_declared_same_version_that_a_document_breaks_is_an_unsound_verdict(project, monkeypatch):
    from govern.classify import rules

    # A rule table that (wrongly) lets a tightened bound be same-version: the record goes through, and
    # only the witness search can tell.
    monkeypatch.setattr(rules, "RULES", [dataclasses.replace(rule, decision="same-version")
                                         if rule.id == "constraint-changed" else rule for rule in rules.RULES])
    tighten_line_hint(project)
    assert project.new_record("tighten-line-hint").exit_code == 0
    assert project.verify().exit_code == 0
    result = project.verify("--witness", "--format", "json")
    assert result.exit_code == 1
    [finding] = json.loads(result.stdout)["findings"]
    assert finding["id"] == "unsound-verdict"
    assert finding["path"] == "records/2026-12-01-tighten-line-hint.md"
    assert finding["message"].startswith(f"sidecar:Artifact: the same-version change at {LINE_HINT} "
                                         "(constraint-changed) breaks old-data-new-readers: the old schema accepts")
    chinese = json.loads(project.verify("--witness", "--format", "json", "--lang", "zh").stdout)["findings"][0]
    assert chinese["message"].startswith(f"sidecar:Artifact：位于 {LINE_HINT} 的同版本变更（constraint-changed）破坏了 "
                                         "新读取方读旧数据：旧模式接受 {")
    assert "，而新模式拒绝它（" in chinese["message"]


def test_a_record_embeds_the_witness_of_each_breaking_change_in_every_language(project):
    tighten_line_hint(project)
    project.edit_json(SIDECAR, lambda d: d["properties"]["schemaVersion"].__setitem__("x-persistence-version", 2))
    result = project.new_record("tighten-line-hint", "2026-12-01", "--witness")
    assert result.exit_code == 0, result.output
    english = project.record("2026-12-01-tighten-line-hint").read_text(encoding="utf-8")
    chinese = project.record("2026-12-01-tighten-line-hint", "zh").read_text(encoding="utf-8")
    detected_en = english.split("## Detected changes", 1)[1]
    assert "    <details><summary>Witness: a document that old accepts and new rejects (old-data-new-readers)" \
           "</summary>" in detected_en
    assert '            "lineHint": 0' in detected_en
    assert "    Rejected at `/anchors/key/fingerprint/lineHint`: 0 is less than the minimum of 1" in detected_en
    assert "    <details><summary>见证文档：旧模式接受、新模式拒绝的文档（新读取方读旧数据）</summary>" in chinese
    # The writer constant changed too: no validator can show that, so it carries no block.
    assert english.count("<details>") == chinese.count("<details>") == 1
    assert project.verify().exit_code == 0
