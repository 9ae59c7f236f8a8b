"""Witnesses in the outputs: JSON fields per change, text lines, a collapsed markdown block, findings.

Text is rendered here, late, in English or Chinese; the witness itself (document, sides, the validator's
message) stays as the validator gave it.
"""

from __future__ import annotations

import json
from typing import Any

from govern.classify.explain import explain_change
from govern.terms import value_term
from govern.verify.findings import Finding
from govern.witness.search import NO_DIRECTION, ChangeWitness, Witness, WitnessReport

TEXT_LIMIT = 200
TRUNCATED = " …[truncated]"
NOT_SEARCHED = "not-applicable"

LABELS = {
    "en": {
        "witness": "witness ({direction}): {document}",
        "verdict": "{accepted_by} accepts it; {rejected_by} rejects it at {at}: {reason}",
        "none": "no witness found ({status})",
        "summary": "witnesses: {witnessed} of {breaking} breaking changes have one",
        "without": "without a witness (candidates for a more precise rule):",
        "md-summary": "Witness: a document that {accepted_by} accepts and {rejected_by} rejects ({direction})",
        "md-reason": "Rejected at `{at}`: {reason}",
        "pending": "witnesses of the unacknowledged breaking changes:",
        "md-pending": "#### Witnesses of the unacknowledged breaking changes",
    },
    "zh": {
        "witness": "见证文档（{direction}）：{document}",
        "verdict": "{accepted_by}接受它；{rejected_by}在 {at} 拒绝它：{reason}",
        "none": "未找到见证文档（{status}）",
        "summary": "见证文档：{breaking} 个破坏性变更中有 {witnessed} 个找到了见证文档",
        "without": "没有见证文档的变更（可考虑更精确的规则）：",
        "md-summary": "见证文档：{accepted_by}接受、{rejected_by}拒绝的文档（{direction}）",
        "md-reason": "在 `{at}` 被拒绝：{reason}",
        "pending": "尚未确认的破坏性变更的见证文档：",
        "md-pending": "#### 尚未确认的破坏性变更的见证文档",
    },
}


# The sides a witness names (`old` | `new`, as the JSON contract keeps them), in each language's text.
SIDES = {"en": {"old": "old", "new": "new"}, "zh": {"old": "旧模式", "new": "新模式"}}


def side_name(side: str, language: str) -> str:
    return SIDES.get(language, SIDES["en"]).get(side, side)


def document_text(document: Any, limit: int = TEXT_LIMIT) -> str:
    """The document as compact JSON on one line, cut with a visible marker past the limit."""
    text = json.dumps(document, ensure_ascii=False, separators=(",", ":"))
    return text if len(text) <= limit else text[:limit] + TRUNCATED


def change_fields(report: WitnessReport):
    """For the JSON contract: `witness` and `witness_search` on every change."""
    def fields(root: str, index: int) -> dict:
        entry = report.of(root, index)
        return entry.to_json() if entry is not None else {"witness": None, "witness_search": NOT_SEARCHED}

    return fields


def change_lines(report: WitnessReport, language: str = "en"):
    """For text output: the witness under its change, or why a breaking change has none."""
    labels = LABELS[language]

    def lines(root: str, index: int) -> list[str]:
        entry = report.of(root, index)
        if entry is None or entry.status == "promise-held":
            return []
        if entry.witness is None:
            return [f"      {labels['none'].format(status=entry.status)}"]
        return [f"      {line}" for line in witness_lines(entry.witness, language)]

    return lines


def witness_lines(witness: Witness, language: str = "en") -> list[str]:
    labels = LABELS[language]
    return [labels["witness"].format(direction=value_term(witness.direction, language),
                                     document=document_text(witness.document)),
            "  " + labels["verdict"].format(accepted_by=side_name(witness.accepted_by, language),
                                            rejected_by=side_name(witness.rejected_by, language),
                                            at=witness.at or "/", reason=witness.reason)]


def summary_lines(report: WitnessReport, language: str = "en") -> list[str]:
    """The over-caution report: how many breaking changes have a witness, and which have none."""
    labels = LABELS[language]
    breaking = len(report.breaking)
    lines = [labels["summary"].format(witnessed=len(report.witnessed), breaking=breaking,
                                      s="s" if breaking != 1 and language == "en" else "")]
    missing = report.without_witness
    if missing:
        lines.append(labels["without"])
        for entry in missing:
            lines.append(f"  {entry.root} {entry.change.location}  {entry.change.kind} ({entry.change.rule}): "
                         f"{entry.status}{' ' + '/'.join(entry.change.breaks) if entry.status != NO_DIRECTION else ''}")
    return lines


def unsound_findings(report: WitnessReport, path_of_root) -> list[Finding]:
    """An `unsound-verdict` finding per same-version change that a confirmed document breaks."""
    return [unsound_finding(entry, path_of_root(entry.root)) for entry in report.unsound]


def unsound_finding(entry: ChangeWitness, path: str) -> Finding:
    witness = entry.witness
    return Finding("unsound-verdict", path, {
        "root": entry.root, "at": entry.change.location, "rule": entry.change.rule, "direction": witness.direction,
        "accepted_by": witness.accepted_by, "rejected_by": witness.rejected_by,
        "accepted_by@zh": side_name(witness.accepted_by, "zh"), "rejected_by@zh": side_name(witness.rejected_by, "zh"),
        "document": document_text(witness.document), "reason": witness.reason}, root=entry.root)


def markdown_block(witness: Witness, language: str = "en") -> str:
    """A collapsed block: the summary says who accepts and who rejects, the body holds the document."""
    labels = LABELS[language]
    summary = labels["md-summary"].format(accepted_by=side_name(witness.accepted_by, language),
                                          rejected_by=side_name(witness.rejected_by, language),
                                          direction=value_term(witness.direction, language))
    body = json.dumps(witness.document, ensure_ascii=False, indent=2)
    reason = labels["md-reason"].format(at=witness.at or "/", reason=witness.reason.replace("|", "\\|"))
    return f"<details><summary>{summary}</summary>\n\n```json\n{body}\n```\n\n{reason}\n\n</details>"


def _change_head(entry: ChangeWitness, language: str) -> str:
    sentence = explain_change(entry.change).text(language)
    return f"{entry.root} {entry.change.location}  {entry.change.kind} ({entry.change.rule}): {sentence}"


def with_pending(text: str, output_format: str, pending, language: str = "en") -> str:
    """A verify report with the witnesses of the pending breaking changes after its findings."""
    labels = LABELS[language]
    if not pending or output_format not in ("text", "json", "markdown"):
        return text
    if output_format == "json":
        document = json.loads(text)
        document["witnesses"] = [{**entry.change_json(), **entry.to_json()} for entry in pending]
        return json.dumps(document, indent=2, ensure_ascii=False) + "\n"
    if output_format == "text":
        lines = [labels["pending"]]
        for entry in pending:
            lines.append(f"  {_change_head(entry, language)}")
            if entry.witness is None:
                lines.append(f"    {labels['none'].format(status=entry.status)}")
            else:
                lines.extend(f"    {line}" for line in witness_lines(entry.witness, language))
        return text + "\n".join(lines) + "\n"
    blocks = [labels["md-pending"]]
    for entry in pending:
        head = f"`{entry.root}` `{entry.change.location}` {entry.change.kind} (`{entry.change.rule}`) " \
               f"{explain_change(entry.change).text(language)}"
        if entry.witness is None:
            blocks.append(f"{head}: {labels['none'].format(status=entry.status)}")
        else:
            blocks.append(f"{head}\n\n{markdown_block(entry.witness, language)}")
    return text + "\n" + "\n\n".join(blocks) + "\n"
