"""Any language set, the first being the source language; record templates shipped with the package."""

from __future__ import annotations

import json

import pytest
from tests.adoption.conftest import App, english_prose

SOURCE = '''
[tool.govern]
languages = {languages}

[[tool.govern.sources]]
name = "config"
kind = "jsonschema"
path = "schemas/config.schema.json"
'''


def configure(app: App, languages: str) -> None:
    with app.path("pyproject.toml").open("a", encoding="utf-8") as handle:
        handle.write(SOURCE.format(languages=languages))


def test_an_english_only_team_adopts_govern_without_writing_chinese(app: App) -> None:
    configure(app, '["en"]')
    skeleton = app.run("record", "prose")
    assert skeleton.exit_code == 0
    assert "\nen:\n" in skeleton.stdout and "zh:" not in skeleton.stdout
    app.write("prose.yaml", english_prose())
    result = app.run("record", "new", "baseline", "--prose", str(app.path("prose.yaml")), "--date", "2026-12-01")
    assert result.exit_code == 0, result.output
    assert sorted(path.name for path in app.path("records").iterdir()) == [
        "2026-12-01-baseline.i18n.yaml", "2026-12-01-baseline.md", "2026-12-01-baseline.schema.json"]
    assert sorted(path.name for path in app.path("schemas").iterdir()) == [
        "catalog.md", "config.schema.json", "inventory.json"]
    assert "source-language: en" in app.path("records/2026-12-01-baseline.i18n.yaml").read_text()
    assert app.run("verify").stdout == "verify: clean\n"
    assert app.run("extract", "--check").exit_code == 0


def test_a_chinese_prose_section_is_refused_when_only_english_is_configured(app: App) -> None:
    configure(app, '["en"]')
    app.write("prose.yaml", english_prose() + 'zh:\n  title: "t"\n')
    result = app.run("record", "new", "baseline", "--prose", str(app.path("prose.yaml")))
    assert result.exit_code == 2
    assert ": zh is not a configured language (use en (tool.govern.languages))\n" in result.stderr
    assert not app.path("records").exists()


def test_the_first_language_is_the_source_language_and_names_the_plain_file(app: App) -> None:
    configure(app, '["zh", "en"]')
    prose = {"zh": {"title": "基线", "summary": "现状。", "compatibility": "全部为新。", "verification": "通过。"},
             "en": {"title": "Baseline", "summary": "As is.", "compatibility": "All new.", "verification": "Clean."}}
    app.write("prose.yaml", "".join(f"{language}:\n" + "".join(f"  {key}: {json.dumps(value, ensure_ascii=False)}\n"
                                                               for key, value in section.items())
                                    for language, section in prose.items()))
    result = app.run("record", "new", "baseline", "--prose", str(app.path("prose.yaml")), "--date", "2026-12-01")
    assert result.exit_code == 0, result.output
    assert "# 基线" in app.path("records/2026-12-01-baseline.md").read_text(encoding="utf-8")
    assert "# Baseline" in app.path("records/2026-12-01-baseline.en.md").read_text(encoding="utf-8")
    assert app.run("verify").stdout == "verify: clean\n"
    # Editing the translation only is a stale translation of the source language's file.
    record = app.path("records/2026-12-01-baseline.en.md")
    record.write_text(record.read_text(encoding="utf-8").replace("As is.", "As it is."), encoding="utf-8")
    findings = json.loads(app.run("verify", "--format", "json").stdout)["findings"]
    assert [(f["id"], f["path"]) for f in findings] == [("translation-stale", "records/2026-12-01-baseline.md")]


def test_a_language_without_a_shipped_template_needs_the_projects_own(app: App) -> None:
    configure(app, '["en", "de"]')
    app.write("prose.yaml", english_prose() + "de:\n" + "".join(
        f"  {key}: \"{key} auf Deutsch\"\n" for key in ("title", "summary", "compatibility", "verification")))
    prose_path = str(app.path("prose.yaml"))
    refused = app.run("record", "new", "baseline", "--prose", prose_path, "--date", "2026-12-01")
    assert refused.exit_code == 2
    assert refused.stderr.startswith("error: templates/record.de.md: does not exist, and govern ships no such "
                                     "template (govern ships record templates for en, zh;")
    assert not app.path("records").exists()
    german = app.path("records/2026-12-01-baseline.de.md")
    app.write("templates/record.de.md", "---\n{{declaration}}---\n\n# {{title}}\n\n## Zusammenfassung\n\n"
              "{{summary}}\n\n## Kompatibilität\n\n{{compatibility}}\n\n## Nachweis\n\n{{verification}}\n\n"
              "## Erkannte Änderungen\n\n{{changes}}\n")
    result = app.run("record", "new", "baseline", "--prose", prose_path, "--date", "2026-12-01")
    assert result.exit_code == 0, result.output
    assert "## Zusammenfassung\n\nsummary auf Deutsch" in german.read_text(encoding="utf-8")
    assert app.run("verify").stdout == "verify: clean\n"


def test_a_projects_template_overrides_the_shipped_one(app: App) -> None:
    configure(app, '["en"]')
    app.write("templates/record.en.md", "---\n{{declaration}}---\n\n# {{title}}\n\nReviewed by the data team.\n\n"
              "## Summary\n\n{{summary}}\n\n## Compatibility\n\n{{compatibility}}\n\n## Evidence\n\n"
              "{{verification}}\n\n## Changes\n\n{{changes}}\n")
    app.write("prose.yaml", english_prose())
    result = app.run("record", "new", "baseline", "--prose", str(app.path("prose.yaml")), "--date", "2026-12-01")
    assert result.exit_code == 0, result.output
    assert "Reviewed by the data team." in app.path("records/2026-12-01-baseline.md").read_text()


@pytest.mark.parametrize("languages", ['[]', '["en", "en"]', '["EN"]', '"en"', '["en", 7]'])
def test_a_bad_language_list_is_a_configuration_error(app: App, languages: str) -> None:
    configure(app, languages)
    result = app.run("verify")
    assert result.exit_code == 2
    assert "tool.govern.languages: must be a non-empty list of distinct lowercase language tags" in result.stderr
