"""Every output format of `govern verify`, on real findings and on a hand-made set."""

from __future__ import annotations

import json

import pytest

from govern.report.render import FORMATS, render, render_github, render_json, render_markdown, render_sarif, \
    render_text
from govern.verify.findings import FINDING_KINDS, Finding

RECORD = "2026-12-01-add-thread-label"

FINDINGS = [
    Finding("declaration-mismatch", "records/2026-12-01-a.zh.md", {"source": "records/2026-12-01-a.md"}, line=2),
    Finding("unacknowledged-change", "records/2026-11-30-baseline.md",
            {"variant": "recorded", "root": "sidecar:Artifact", "digest": "sha256:b", "recorded": "sha256:a",
             "record": "2026-11-30-baseline",
             "command": "govern record new change-sidecar-artifact --prose prose.yaml"}, root="sidecar:Artifact"),
    Finding("generated-stale", "schemas/catalog.md"),
]


@pytest.fixture
def unacknowledged(project):
    project.add_sidecar_thread_property("label")
    return project


@pytest.fixture
def mismatched(project):
    """One unacknowledged change plus a finding with a line (a Chinese declaration edited)."""
    project.add_sidecar_thread_property("label")
    assert project.new_record("add-thread-label").exit_code == 0
    project.replace(f"records/{RECORD}.zh.md", 'decision: "same-version"', 'decision: "version-bump"')
    project.add_sidecar_thread_property("colour")
    return project


def check_sarif(document: dict) -> None:
    """The structure SARIF 2.1.0 requires of what govern emits; the official JSON schema is not available
    offline, so the required members and their cross-references are checked directly."""
    assert document["version"] == "2.1.0"
    assert document["$schema"].endswith("sarif-2.1.0.json")
    assert isinstance(document["runs"], list) and len(document["runs"]) == 1
    run = document["runs"][0]
    driver = run["tool"]["driver"]
    assert driver["name"] == "govern"
    rule_ids = [rule["id"] for rule in driver["rules"]]
    assert len(rule_ids) == len(set(rule_ids))
    for rule in driver["rules"]:
        assert rule["shortDescription"]["text"] == FINDING_KINDS[rule["id"]][0]
    for result in run["results"]:
        assert result["ruleId"] in rule_ids
        assert rule_ids[result["ruleIndex"]] == result["ruleId"]
        assert result["level"] in ("none", "note", "warning", "error")
        assert isinstance(result["message"]["text"], str) and result["message"]["text"]
        for location in result["locations"]:
            physical = location["physicalLocation"]
            assert isinstance(physical["artifactLocation"]["uri"], str)
            if "region" in physical:
                assert isinstance(physical["region"]["startLine"], int) and physical["region"]["startLine"] >= 1


def test_sarif_output_is_structurally_valid_sarif_2_1_0(mismatched) -> None:
    result = mismatched.verify("--format", "sarif")
    assert result.exit_code == 1
    document = json.loads(result.stdout)
    check_sarif(document)
    results = document["runs"][0]["results"]
    assert {r["ruleId"] for r in results} == {"declaration-mismatch", "unacknowledged-change", "generated-stale"}
    located = [r for r in results if r["ruleId"] == "declaration-mismatch"][0]["locations"][0]["physicalLocation"]
    assert located == {"artifactLocation": {"uri": f"records/{RECORD}.zh.md"}, "region": {"startLine": 2}}


def test_sarif_with_no_findings_has_an_empty_run(project) -> None:
    result = project.verify("--format", "sarif")
    assert result.exit_code == 0
    document = json.loads(result.stdout)
    check_sarif(document)
    assert document["runs"][0]["results"] == [] and document["runs"][0]["tool"]["driver"]["rules"] == []


def test_github_output_annotates_files_and_lines(mismatched) -> None:
    result = mismatched.verify("--format", "github")
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert lines and all(line.startswith("::error file=") for line in lines)
    assert (f"::error file=records/{RECORD}.zh.md,line=2,title=declaration-mismatch::its machine declaration "
            f"differs from the one in records/{RECORD}.md, the source language's record (fix: copy the declaration "
            f"from records/{RECORD}.md unchanged)") in lines
    assert any(line.startswith("::error file=schemas/coauthoring-sidecar.schema.json,line=1,"
                               "title=unacknowledged-change::sidecar:Artifact changed since its latest record ")
               for line in lines)
    assert "::error file=schemas/inventory.json,title=generated-stale::does not match the current sources (fix: " \
           "run `govern extract`)" in lines


def test_json_output_lists_findings_with_ids(mismatched) -> None:
    result = mismatched.verify("--format", "json")
    assert result.exit_code == 1
    document = json.loads(result.stdout)
    assert document["clean"] is False
    assert sorted(f["id"] for f in document["findings"]) == [
        "declaration-mismatch", "generated-stale", "generated-stale", "generated-stale", "unacknowledged-change"]
    change = next(f for f in document["findings"] if f["id"] == "unacknowledged-change")
    assert set(change) == {"id", "path", "line", "message", "hint", "root", "mode"}
    assert change["mode"] == "persistence"  # the compatibility mode the shown decisions were made in
    # Where the changed type is written, not the record it differs from.
    assert change["root"] == "sidecar:Artifact" and change["path"] == "schemas/coauthoring-sidecar.schema.json"


def test_json_output_when_clean(project) -> None:
    result = project.verify("--format", "json")
    assert result.exit_code == 0
    assert result.stdout == '{\n  "clean": true,\n  "findings": []\n}\n'


def test_markdown_for_an_unacknowledged_change_carries_a_prefilled_prose_file(unacknowledged) -> None:
    result = unacknowledged.verify("--format", "markdown")
    assert result.exit_code == 1
    text = result.stdout
    assert text.startswith("### govern verify: 4 findings\n\n| Finding | Where | What | Fix |\n|---|---|---|---|\n")
    assert "#### Acknowledge the change to `sidecar:Artifact`" in text
    command = "govern record new change-sidecar-artifact --prose prose.yaml"
    assert f"```sh\n{command}\n```\n" in text
    prose = text.split("```yaml\n", 1)[1].split("\n```", 1)[0]
    assert '  title: "Change sidecar:Artifact"' in prose and '  title: "变更 sidecar:Artifact"' in prose
    assert "optional-property-added" in prose
    # The draft is a real prose input: with the reasoning written, the suggested command acknowledges it.
    filled = prose.replace('compatibility: ""', 'compatibility: "Old data omits it; readers ignore it."')
    unacknowledged.path("prose.yaml").write_text(filled, encoding="utf-8")
    arguments = [str(unacknowledged.path("prose.yaml")) if word == "prose.yaml" else word for word in command.split()]
    created = unacknowledged.run(*arguments[1:], "--date", "2026-12-01")
    assert created.exit_code == 0, created.output
    assert unacknowledged.verify().exit_code == 0


def test_markdown_when_clean(project) -> None:
    result = project.verify("--format", "markdown")
    assert result.exit_code == 0
    assert result.stdout == ("### govern verify: clean\n\nEvery persisted root agrees with its latest change "
                             "record.\n")


def test_text_rendering_is_exact() -> None:
    assert render_text(FINDINGS) == (
        "records/2026-12-01-a.zh.md:2: declaration-mismatch: its machine declaration differs from the one in "
        "records/2026-12-01-a.md, the source language's record\n"
        "  fix: copy the declaration from records/2026-12-01-a.md unchanged\n"
        "records/2026-11-30-baseline.md: unacknowledged-change: sidecar:Artifact is now sha256:b but is recorded "
        "as sha256:a by its latest record 2026-11-30-baseline\n"
        "  fix: review `govern diff`, then acknowledge it: govern record new change-sidecar-artifact --prose "
        "prose.yaml\n"
        "schemas/catalog.md: generated-stale: does not match the current sources\n"
        "  fix: run `govern extract`\n"
        "verify: 3 findings\n")
    assert render_text(FINDINGS[2:]) == ("schemas/catalog.md: generated-stale: does not match the current sources\n"
                                         "  fix: run `govern extract`\nverify: 1 finding\n")
    assert render_text([]) == "verify: clean\n"


def test_github_rendering_is_exact() -> None:
    assert render_github(FINDINGS) == (
        "::error file=records/2026-12-01-a.zh.md,line=2,title=declaration-mismatch::its machine declaration "
        "differs from the one in records/2026-12-01-a.md, the source language's record (fix: copy the declaration from "
        "records/2026-12-01-a.md unchanged)\n"
        "::error file=records/2026-11-30-baseline.md,title=unacknowledged-change::sidecar:Artifact is now "
        "sha256:b but is recorded as sha256:a by its latest record 2026-11-30-baseline (fix: review `govern "
        "diff`, then acknowledge it: govern record new change-sidecar-artifact --prose prose.yaml)\n"
        "::error file=schemas/catalog.md,title=generated-stale::does not match the current sources (fix: run "
        "`govern extract`)\n")
    multiline = Finding("record-syntax", "records/a:b,c.md", {"variant": "unreadable", "error": "100%\nbroken"},
                        line=3)
    assert render_github([multiline]) == ("::error file=records/a%3Ab%2Cc.md,line=3,title=record-syntax::cannot be read: "
                                          "100%25%0Abroken\n")


def test_sarif_rendering_of_hand_made_findings() -> None:
    document = json.loads(render_sarif(FINDINGS))
    check_sarif(document)
    assert [rule["id"] for rule in document["runs"][0]["tool"]["driver"]["rules"]] == [
        "declaration-mismatch", "generated-stale", "unacknowledged-change"]
    assert [result["ruleIndex"] for result in document["runs"][0]["results"]] == [0, 2, 1]


def test_every_format_is_deterministic() -> None:
    for output_format in FORMATS:
        assert render(FINDINGS, output_format) == render(list(FINDINGS), output_format)
    assert json.loads(render_json(FINDINGS))["findings"][1]["root"] == "sidecar:Artifact"
    assert "govern record new" not in render_markdown(FINDINGS[:1])


def test_every_finding_kind_has_both_titles() -> None:
    for finding_id, (english, chinese) in FINDING_KINDS.items():
        assert finding_id == finding_id.lower() and " " not in finding_id
        assert english and chinese and english != chinese
