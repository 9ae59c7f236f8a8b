"""`govern verify --lang`: every finding is data rendered late, in English or Chinese, from one table."""

from __future__ import annotations

import json
import re
import string

import pytest

from govern.report.render import FORMATS, LABELS, render, render_markdown, render_sarif, render_text
from govern.records.create import Suggestion
from govern.verify.findings import FINDING_KINDS, FINDING_TABLE, LANGUAGES, Finding, templates

CJK = re.compile(r"[\u4e00-\u9fff]")
RECORD = "2026-12-01-add-thread-label"
OPENAPI = "schemas/grp-coordination.openapi.json"
COMMAND = "govern record new change-sidecar-artifact --prose prose.yaml"

FINDINGS = [
    Finding("declaration-mismatch", "records/2026-12-01-a.zh.md", {"source": "records/2026-12-01-a.md"}, line=2),
    Finding("unacknowledged-change", "records/2026-11-30-baseline.md",
            {"variant": "recorded", "root": "sidecar:Artifact", "digest": "sha256:b", "recorded": "sha256:a",
             "record": "2026-11-30-baseline", "command": COMMAND}, root="sidecar:Artifact"),
    Finding("generated-stale", "schemas/catalog.md"),
]


SUGGESTION = Suggestion("govern record new change-x --prose prose.yaml", "en:\nzh:\n", ("sidecar:Artifact",))


def placeholders(template: str) -> set[str]:
    return {field for _, field, _, _ in string.Formatter().parse(template) if field is not None}


def test_the_table_is_the_only_registry_of_finding_ids() -> None:
    assert set(FINDING_KINDS) == set(FINDING_TABLE)
    for finding_id, kind in FINDING_TABLE.items():
        english, chinese = kind["title"]
        assert CJK.search(chinese) and not CJK.search(english)
        assert kind["texts"], finding_id


@pytest.mark.parametrize(("finding_id", "variant", "texts"), list(templates()),
                         ids=[f"{finding_id}:{variant or '-'}" for finding_id, variant, _ in templates()])
def test_every_template_exists_in_both_languages_with_the_same_placeholders(finding_id, variant, texts) -> None:
    assert set(texts) in ({"en", "zh"}, {"en", "zh", "hint_en", "hint_zh"})
    for english, chinese in (("en", "zh"), ("hint_en", "hint_zh")):
        if english not in texts:
            continue
        assert placeholders(texts[english]) == placeholders(texts[chinese])
        assert "variant" not in placeholders(texts[english])
        assert CJK.search(texts[chinese]), texts[chinese]
        assert not CJK.search(texts[english]), texts[english]
    arguments = {name: f"<{name}>" for key in texts for name in placeholders(texts[key])}
    finding = Finding(finding_id, "records/a.md", {**arguments, **({"variant": variant} if variant else {})})
    for language in LANGUAGES:
        assert finding.message(language) == texts[language].format(**arguments)
        assert finding.hint(language) == (texts[f"hint_{language}"].format(**arguments)
                                          if f"hint_{language}" in texts else None)


def test_arguments_render_the_english_text_verify_always_printed() -> None:
    assert render_text(FINDINGS) == (
        "records/2026-12-01-a.zh.md:2: declaration-mismatch: its machine declaration differs from the one in "
        "records/2026-12-01-a.md, the source language's record\n"
        "  fix: copy the declaration from records/2026-12-01-a.md unchanged\n"
        "records/2026-11-30-baseline.md: unacknowledged-change: sidecar:Artifact is now sha256:b but is recorded "
        "as sha256:a by its latest record 2026-11-30-baseline\n"
        f"  fix: review `govern diff`, then acknowledge it: {COMMAND}\n"
        "schemas/catalog.md: generated-stale: does not match the current sources\n"
        "  fix: run `govern extract`\n"
        "verify: 3 findings\n")


def test_text_rendering_in_chinese_is_exact() -> None:
    assert render_text(FINDINGS, language="zh") == (
        "records/2026-12-01-a.zh.md:2: declaration-mismatch: 其机器声明与源语言记录 records/2026-12-01-a.md 中的不一致\n"
        "  修复：从 records/2026-12-01-a.md 原样复制声明\n"
        "records/2026-11-30-baseline.md: unacknowledged-change: sidecar:Artifact 现在是 sha256:b，但其最新记录 "
        "2026-11-30-baseline 记载的是 sha256:a\n"
        f"  修复：先查看 `govern diff`，再确认这一变更：{COMMAND}\n"
        "schemas/catalog.md: generated-stale: 与当前来源不一致\n"
        "  修复：运行 `govern extract`\n"
        "verify：共 3 项发现\n")
    assert render_text(FINDINGS[2:], language="zh") == ("schemas/catalog.md: generated-stale: 与当前来源不一致\n"
                                                        "  修复：运行 `govern extract`\nverify：共 1 项发现\n")
    assert render_text([], language="zh") == "verify：通过\n"


def test_markdown_in_chinese_has_chinese_headings() -> None:
    text = render_markdown(FINDINGS, SUGGESTION, language="zh")
    assert text.startswith("### govern verify：共 3 项发现\n\n| 发现 | 位置 | 问题 | 修复 |\n|---|---|---|---|\n"
                           "| `declaration-mismatch` | `records/2026-12-01-a.zh.md:2` | 其机器声明与源语言记录 records/2026-12-01-a.md 中的不一致 | "
                           "从 records/2026-12-01-a.md 原样复制声明 |\n")
    assert "\n#### 确认对 `sidecar:Artifact` 的变更\n" in text
    assert "```yaml\nen:\nzh:\n```\n\n```sh\ngovern record new change-x --prose prose.yaml\n```" in text
    assert render_markdown([], language="zh") == "### govern verify：通过\n\n每个持久化根类型都与其最新的变更记录一致。\n"


def test_sarif_in_chinese_describes_rules_and_results_in_chinese() -> None:
    run = json.loads(render_sarif(FINDINGS, language="zh"))["runs"][0]
    assert run["language"] == "zh-CN"
    rules = run["tool"]["driver"]["rules"]
    assert [(rule["shortDescription"]["text"], rule["properties"]) for rule in rules] == [
        (FINDING_KINDS[rule["id"]][1], {"en": FINDING_KINDS[rule["id"]][0]}) for rule in rules]
    assert [result["message"]["text"] for result in run["results"]][2] == "与当前来源不一致。修复：运行 `govern extract`"
    assert "language" not in json.loads(render_sarif(FINDINGS))["runs"][0]


def test_every_format_has_its_labels_in_both_languages() -> None:
    assert set(LABELS) == set(LANGUAGES) and set(LABELS["en"]) == set(LABELS["zh"])
    for output_format in FORMATS:
        english = render(FINDINGS, output_format, suggestion=SUGGESTION)
        chinese = render(FINDINGS, output_format, suggestion=SUGGESTION, language="zh")
        assert english != chinese and CJK.search(chinese)
        assert chinese == render(list(FINDINGS), output_format, suggestion=SUGGESTION, language="zh")


def test_parser_reasons_stay_english_inside_a_chinese_frame() -> None:
    finding = Finding("record-syntax", "records/a.md", {"variant": "format", "reason": "front matter is missing"})
    assert finding.message() == "front matter is missing"
    assert finding.message("zh") == "记录格式错误：front matter is missing"


@pytest.fixture
def unacknowledged(project):
    project.add_sidecar_thread_property("label")
    return project


def test_verify_in_chinese_names_the_root_and_the_command(unacknowledged) -> None:
    result = unacknowledged.verify("--lang", "zh")
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    first = next(line for line in lines if "unacknowledged-change" in line)
    fix = lines[lines.index(first) + 1]
    assert re.fullmatch(r"schemas/coauthoring-sidecar\.schema\.json:1: unacknowledged-change: sidecar:Artifact "
                        r"自其最新记录 2026-11-30-baseline 以来已变更（兼容模式 persistence）：在 "
                        r"Thread#/properties/label 新增属性 `label`（同版本）", first)
    assert fix == f"  修复：先查看 `govern diff`，再确认这一变更：{COMMAND}"
    assert result.stdout.endswith("\nverify：共 4 项发现\n")


def test_verify_defaults_to_english(unacknowledged) -> None:
    assert unacknowledged.verify().stdout == unacknowledged.verify("--lang", "en").stdout
    assert not CJK.search(unacknowledged.verify().stdout)


def test_an_unknown_language_is_a_usage_error(project) -> None:
    result = project.verify("--lang", "fr")
    assert result.exit_code == 2 and "'fr' is not one of 'en', 'zh'" in result.stderr


def damage(project) -> None:
    """Several kinds of findings at once: a change, a removal, an edited Chinese declaration, stale files."""
    project.add_sidecar_thread_property("label")
    assert project.new_record("add-thread-label").exit_code == 0
    project.replace(f"records/{RECORD}.zh.md", 'decision: "same-version"', 'decision: "version-bump"')
    project.add_sidecar_thread_property("colour")
    project.edit_json(OPENAPI, lambda d: d["components"]["schemas"].pop("ActionClaimRequest") and
                      d["paths"].pop("/api/rooms/{slug}/actions/{action_id}/claim"))


@pytest.mark.parametrize("output_format", ["json", "sarif"])
def test_json_and_sarif_in_chinese_report_the_same_findings(project, output_format) -> None:
    damage(project)
    english = json.loads(project.verify("--format", output_format).stdout)
    chinese = json.loads(project.verify("--format", output_format, "--lang", "zh").stdout)
    if output_format == "sarif":
        english, chinese = (document["runs"][0]["results"] for document in (english, chinese))
        messages = [(e["message"]["text"], c["message"]["text"]) for e, c in zip(english, chinese)]
        strip = lambda result: {k: v for k, v in result.items() if k != "message"}  # noqa: E731
    else:
        english, chinese = english["findings"], chinese["findings"]
        messages = [(e["message"], c["message"]) for e, c in zip(english, chinese)]
        strip = lambda finding: {k: v for k, v in finding.items() if k not in ("message", "hint")}  # noqa: E731
    assert len(english) == len(chinese) >= 4
    assert [strip(f) for f in english] == [strip(f) for f in chinese]
    for message_en, message_zh in messages:
        assert not CJK.search(message_en) and CJK.search(message_zh)
