"""Render findings. Text is produced here, late, from the findings' ids and arguments, in English or Chinese."""

from __future__ import annotations

import json
import re

from govern import __version__
from govern.verify.findings import LANGUAGES, Finding, title

FULL_DIGEST = re.compile(r"(sha256:[0-9a-f]{12})[0-9a-f]{52}")
FORMATS = ("text", "json", "github", "sarif", "markdown")

# The reports' own words around the findings' messages, per language.
LABELS = {
    "en": {
        "clean": "verify: clean",
        "count": "verify: {count} finding{s}",
        "fix-line": "  fix: {hint}",
        "fix-inline": " (fix: {hint})",
        "fix-sentence": " Fix: {hint}",
        "md-clean": "### govern verify: clean\n\nEvery persisted root agrees with its latest change record.",
        "md-count": "### govern verify: {count} finding{s}",
        "md-header": "| Finding | Where | What | Fix |",
        "md-acknowledge": "#### Acknowledge the change to {roots}",
        "md-steps": "Review `govern diff`, save this as `prose.yaml`, fill in every language, then run:",
    },
    "zh": {
        "clean": "verify：通过",
        "count": "verify：共 {count} 项发现",
        "fix-line": "  修复：{hint}",
        "fix-inline": "（修复：{hint}）",
        "fix-sentence": "。修复：{hint}",
        "md-clean": "### govern verify：通过\n\n每个持久化根类型都与其最新的变更记录一致。",
        "md-count": "### govern verify：共 {count} 项发现",
        "md-header": "| 发现 | 位置 | 问题 | 修复 |",
        "md-acknowledge": "#### 确认对 {roots} 的变更",
        "md-steps": "查看 `govern diff`，把下面的内容保存为 `prose.yaml`，填写每种语言，然后运行：",
    },
}


def render(findings: list[Finding], output_format: str, *, suggestion=None, language: str = "en",
           witnesses=None) -> str:
    """`witnesses` (verify --witness): the pending breaking changes' witness documents, shown after the findings
    in text, json and markdown."""
    if output_format == "markdown":
        text = render_markdown(findings, suggestion, language=language)
    else:
        text = {"text": render_text, "json": render_json, "github": render_github,
                "sarif": render_sarif}[output_format](findings, language=language)
    if witnesses is not None:
        from govern.witness.render import with_pending

        text = with_pending(text, output_format, witnesses, language)
    return text


def _where(finding: Finding) -> str:
    return f"{finding.path}:{finding.line}" if finding.line else finding.path


def one_line(text: str) -> str:
    """A path or message may hold line breaks (a folder may be named so); one finding stays one line."""
    return text.replace("\\", "\\\\").replace("\n", "\\n").replace("\r", "\\r") \
        if "\n" in text or "\r" in text else text


def sarif_uri(path: str) -> str:
    """A SARIF artifact uri is a URI reference: a relative path, percent-encoded (`rec ords` -> `rec%20ords`)."""
    from urllib.parse import quote

    return quote(path, safe="/")


def render_error(problems: list, output_format: str, *, exit_code: int = 2, language: str = "en") -> str:
    """An input error (exit 2) or a refusal in a machine format, so the file a CI job uploads stays valid."""
    if output_format == "json":
        document = {"clean": False, "error": {"exit": exit_code, "problems": [
            {"path": problem.path, "line": problem.line, "column": problem.column, "message": problem.reason,
             "hint": problem.hint} for problem in problems]}, "findings": []}
        return json.dumps(document, indent=2, ensure_ascii=False) + "\n"
    if output_format == "github":
        lines = []
        for problem in problems:
            properties = f"file={_escape_github(problem.path, True)}"
            if problem.line:
                properties += f",line={problem.line}"
            if problem.column:
                properties += f",col={problem.column}"
            text = problem.reason + (f" ({problem.hint})" if problem.hint else "")
            lines.append(f"::error {properties},title=input-error::{_escape_github(text)}")
        return "\n".join(lines) + "\n"
    notifications = []
    for problem in problems:
        location: dict = {"artifactLocation": {"uri": sarif_uri(problem.path)}}
        if problem.line:
            location["region"] = {"startLine": problem.line}
            if problem.column:
                location["region"]["startColumn"] = problem.column
        notifications.append({"level": "error", "message": {"text": problem.render()},
                              "locations": [{"physicalLocation": location}]})
    run: dict = {"tool": {"driver": {"name": "govern", "version": __version__, "rules": []}},
                 "invocations": [{"executionSuccessful": False, "exitCode": exit_code,
                                  "toolExecutionNotifications": notifications}], "results": []}
    if language != "en":
        run["language"] = {"zh": "zh-CN"}[language]
    document = {"$schema": "https://json.schemastore.org/sarif-2.1.0.json", "version": "2.1.0", "runs": [run]}
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def _count(label: str, findings: list[Finding], language: str) -> str:
    return LABELS[language][label].format(count=len(findings), s="s" if len(findings) != 1 else "")


def _with_fix(finding: Finding, label: str, language: str) -> str:
    hint = finding.hint(language)
    return finding.message(language) + (LABELS[language][label].format(hint=hint) if hint else "")


def render_text(findings: list[Finding], *, language: str = "en") -> str:
    if not findings:
        return LABELS[language]["clean"] + "\n"
    lines = []
    for finding in findings:
        lines.append(one_line(f"{_where(finding)}: {finding.id}: {finding.message(language)}"))
        hint = finding.hint(language)
        if hint:
            lines.append(one_line(LABELS[language]["fix-line"].format(hint=hint)))
    lines.append(_count("count", findings, language))
    return "\n".join(lines) + "\n"


def render_json(findings: list[Finding], *, language: str = "en") -> str:
    document = {"clean": not findings, "findings": [finding.to_json(language) for finding in findings]}
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def _escape_github(text: str, property_value: bool = False) -> str:
    text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    if property_value:
        text = text.replace(":", "%3A").replace(",", "%2C")
    return text


def render_github(findings: list[Finding], *, language: str = "en") -> str:
    lines = []
    for finding in findings:
        properties = f"file={_escape_github(finding.path, True)}"
        if finding.line:
            properties += f",line={finding.line}"
        properties += f",title={_escape_github(finding.id, True)}"
        lines.append(f"::error {properties}::{_escape_github(_with_fix(finding, 'fix-inline', language))}")
    return "\n".join(lines) + ("\n" if lines else "")


def render_sarif(findings: list[Finding], *, language: str = "en") -> str:
    used = sorted({finding.id for finding in findings})
    # The other language's title rides along as a property, so a dashboard can show either.
    other = LANGUAGES[1 - LANGUAGES.index(language)]
    rules = [{"id": rule_id, "name": "".join(part.title() for part in rule_id.split("-")),
              "shortDescription": {"text": title(rule_id, language)},
              "properties": {other: title(rule_id, other)}} for rule_id in used]
    results = []
    for finding in findings:
        location: dict = {"artifactLocation": {"uri": sarif_uri(finding.path)}}
        if finding.line:
            location["region"] = {"startLine": finding.line}
        results.append({"ruleId": finding.id, "ruleIndex": used.index(finding.id), "level": "error",
                        "message": {"text": _with_fix(finding, "fix-sentence", language)},
                        "locations": [{"physicalLocation": location}]})
    run: dict = {"tool": {"driver": {"name": "govern", "version": __version__, "rules": rules}}}
    if language != "en":  # SARIF's default language is en-US; English output stays as it always was.
        run["language"] = {"zh": "zh-CN"}[language]
    run["results"] = results
    document = {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [run],
    }
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def _short_digests(text: str) -> str:
    """A table cell shows a digest's first 12 hex digits; JSON and SARIF keep the full value."""
    return FULL_DIGEST.sub(lambda match: match.group(1) + "…", text)


def render_markdown(findings: list[Finding], suggestion=None, *, language: str = "en") -> str:
    """A pull-request comment; `suggestion` (command and pre-filled prose) closes it when changes are unacknowledged."""
    labels = LABELS[language]
    if not findings:
        return labels["md-clean"] + "\n"
    lines = [_count("md-count", findings, language), "", labels["md-header"], "|---|---|---|---|"]
    for finding in findings:
        cell = lambda text: _short_digests(text or "").replace("|", "\\|").replace("\n", " ")  # noqa: E731
        lines.append(f"| `{finding.id}` | `{_where(finding)}` | {cell(finding.message(language))} | "
                     f"{cell(finding.hint(language))} |")
    unacknowledged = [f for f in findings if f.id.startswith("unacknowledged")]
    if unacknowledged and suggestion is not None:
        roots = ", ".join(f"`{root}`" for root in suggestion.roots)
        lines += ["", labels["md-acknowledge"].format(roots=roots), "", labels["md-steps"], "",
                  "```yaml", suggestion.prose.rstrip("\n"), "```", "", "```sh", suggestion.command, "```"]
    return "\n".join(lines) + "\n"

