"""One Chinese term per concept: the glossary, the generated Chinese text and the messages agree."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from govern.classify.classify import Change, RootDiff
from govern.records.create import render_changes
from govern.terms import AVOIDED, MACHINE_VALUES, TERMS
from govern.verify.findings import Finding, templates
from history_project import REPO_ROOT, Project

DECISIONS_AND_DIRECTIONS = ("same-version", "version-bump", "old-data-new-readers", "new-data-old-readers")


def glossary_rows(path: Path) -> dict[str, tuple[str, str]]:
    rows = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        if line.startswith("| ") and len(cells) == 4 and cells[0] in TERMS:
            rows[cells[0]] = (cells[1], cells[2])
    return rows


def prose_outside_code(text: str) -> str:
    """What a reader reads as words: code spans, code blocks and link targets removed."""
    text = re.sub(r"```.*?```", "", text, flags=re.S)
    text = re.sub(r"`[^`]*`", "", text)
    return re.sub(r"\]\([^)]*\)", "]", text)


def assert_glossary_words(text: str, where: str) -> None:
    words = prose_outside_code(text)
    for avoided, concept in AVOIDED["zh"].items():
        assert avoided not in words, f"{where}: {avoided} used for {concept}; the glossary says {TERMS[concept]['zh']}"
    for value in DECISIONS_AND_DIRECTIONS:
        assert value not in words, f"{where}: {value} untranslated; the glossary says {TERMS[value]['zh']}"


@pytest.mark.parametrize("name", ["glossary.md", "glossary.zh.md"])
def test_the_glossary_lists_exactly_the_terms_govern_uses(name: str) -> None:
    rows = glossary_rows(REPO_ROOT / "docs" / name)
    assert set(rows) == set(TERMS)
    for concept, (english, chinese) in rows.items():
        assert english == TERMS[concept]["en"] and chinese.startswith(TERMS[concept]["zh"]), concept
    assert set(MACHINE_VALUES) <= set(TERMS)


def test_one_chinese_term_is_one_concept() -> None:
    chinese = [entry["zh"] for entry in TERMS.values()]
    assert len(chinese) == len(set(chinese))
    # An avoided word is never the chosen term of the concept it must not stand for.
    assert all(TERMS[concept]["zh"] != word for word, concept in AVOIDED["zh"].items())


@pytest.mark.parametrize("finding_id, variant, texts", list(templates()), ids=lambda v: str(v)[:40])
def test_chinese_messages_use_the_glossary(finding_id: str, variant: str, texts: dict) -> None:
    for key in ("zh", "hint_zh"):
        if key in texts:
            assert_glossary_words(texts[key], f"{finding_id}/{variant}/{key}")


def test_decisions_in_chinese_messages_are_translated() -> None:
    finding = Finding("decision-too-weak", "records/x.md", {"root": "s:A", "decision": "same-version",
                                                            "minimum": "version-bump", "record": "x",
                                                            "mode": "backward"}, root="s:A")
    assert finding.message("zh") == "s:A 声明为同版本，但在兼容模式 backward 下该变更需要版本升级"
    assert finding.message("en") == ("s:A declares same-version, but the change needs version-bump in "
                                     "compatibility mode backward")
    assert finding.to_json("en")["message"] == finding.message("en")


def test_detected_changes_in_chinese_translate_decisions_and_break_directions() -> None:
    change = Change("/properties/a", "property-removed", "property-removed", "version-bump", (("property", "a"),),
                    ("old-data-new-readers", "new-data-old-readers"))
    result = RootDiff("s:A", "version-bump", "version-bump", (change,), "sha256:old", "sha256:new")
    chinese = render_changes([result], "zh")
    assert chinese.startswith("- `s:A`: 版本升级\n")
    assert "`/properties/a` 删除属性 `a`：版本升级，规则 `property-removed`；破坏方向：新读取方读旧数据、旧读取方读新数据。删除" \
        in chinese
    assert_glossary_words(chinese, "render_changes zh")
    english = render_changes([result], "en")
    assert "version-bump, rule `property-removed`; breaks: old-data-new-readers, new-data-old-readers." in english


def test_generated_chinese_views_use_the_glossary(three_formats: Project) -> None:
    for relative in ["schemas/catalog.zh.md", *sorted(p.relative_to(three_formats.root).as_posix()
                                                      for p in three_formats.path("schemas/formats").glob("*.zh.md"))]:
        assert_glossary_words(three_formats.path(relative).read_text(encoding="utf-8"), relative)


def test_prefilled_prose_comments_follow_the_chosen_language(project: Project) -> None:
    project.add_sidecar_thread_property("label", {"type": "string"})
    chinese = project.verify("--format", "markdown", "--lang", "zh").stdout
    english = project.verify("--format", "markdown").stdout
    assert "# 由 govern 根据检测到的变更预先填写。" in chinese and "# Pre-filled by govern" not in chinese
    assert "# Pre-filled by govern from the detected changes." in english
    assert "optional-property-added (同版本)" in chinese
