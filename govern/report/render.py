"""Render findings. Text is produced here, late, from the findings' ids and arguments."""

from __future__ import annotations

import json

from govern import __version__
from govern.verify.findings import FINDING_KINDS, Finding

FORMATS = ("text", "json", "github", "sarif", "markdown")


def render(findings: list[Finding], output_format: str, *, prose_template: str = "") -> str:
    return {"text": render_text, "json": render_json, "github": render_github, "sarif": render_sarif,
            "markdown": lambda f: render_markdown(f, prose_template)}[output_format](findings)


def _where(finding: Finding) -> str:
    return f"{finding.path}:{finding.line}" if finding.line else finding.path


def render_text(findings: list[Finding]) -> str:
    if not findings:
        return "verify: clean\n"
    lines = []
    for finding in findings:
        lines.append(f"{_where(finding)}: {finding.id}: {finding.message}")
        if finding.hint:
            lines.append(f"  fix: {finding.hint}")
    lines.append(f"verify: {len(findings)} finding{'s' if len(findings) != 1 else ''}")
    return "\n".join(lines) + "\n"


def render_json(findings: list[Finding]) -> str:
    document = {"clean": not findings, "findings": [finding.to_json() for finding in findings]}
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def _escape_github(text: str, property_value: bool = False) -> str:
    text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    if property_value:
        text = text.replace(":", "%3A").replace(",", "%2C")
    return text


def render_github(findings: list[Finding]) -> str:
    lines = []
    for finding in findings:
        properties = f"file={_escape_github(finding.path, True)}"
        if finding.line:
            properties += f",line={finding.line}"
        properties += f",title={_escape_github(finding.id, True)}"
        message = finding.message + (f" (fix: {finding.hint})" if finding.hint else "")
        lines.append(f"::error {properties}::{_escape_github(message)}")
    return "\n".join(lines) + ("\n" if lines else "")


def render_sarif(findings: list[Finding]) -> str:
    used = sorted({finding.id for finding in findings})
    rules = [{"id": rule_id, "name": "".join(part.title() for part in rule_id.split("-")),
              "shortDescription": {"text": FINDING_KINDS[rule_id][0]},
              "properties": {"zh": FINDING_KINDS[rule_id][1]}} for rule_id in used]
    results = []
    for finding in findings:
        location: dict = {"artifactLocation": {"uri": finding.path}}
        if finding.line:
            location["region"] = {"startLine": finding.line}
        text = finding.message + (f" Fix: {finding.hint}" if finding.hint else "")
        results.append({"ruleId": finding.id, "ruleIndex": used.index(finding.id), "level": "error",
                        "message": {"text": text}, "locations": [{"physicalLocation": location}]})
    document = {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{"tool": {"driver": {"name": "govern", "version": __version__, "rules": rules}},
                  "results": results}],
    }
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def render_markdown(findings: list[Finding], prose_template: str = "") -> str:
    if not findings:
        return "### govern verify: clean\n\nEvery persisted root agrees with its latest change record.\n"
    lines = [f"### govern verify: {len(findings)} finding{'s' if len(findings) != 1 else ''}", "",
             "| Finding | Where | What | Fix |", "|---|---|---|---|"]
    for finding in findings:
        cell = lambda text: (text or "").replace("|", "\\|").replace("\n", " ")  # noqa: E731
        lines.append(f"| `{finding.id}` | `{_where(finding)}` | {cell(finding.message)} | {cell(finding.hint)} |")
    unacknowledged = [f for f in findings if f.id.startswith("unacknowledged")]
    if unacknowledged:
        roots = ", ".join(f"`{f.root}`" for f in unacknowledged if f.root)
        lines += ["", f"#### Acknowledge the change to {roots}", "",
                  "Review `govern diff`, save this as `prose.yaml`, fill in both languages, then run:", "",
                  "```sh", "govern record new <slug> --prose prose.yaml", "```", "",
                  "```yaml", prose_template.rstrip("\n"), "```"]
    return "\n".join(lines) + "\n"
