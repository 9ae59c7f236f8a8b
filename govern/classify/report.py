"""Renderings of a classification: the stable JSON contract and grouped text."""

from __future__ import annotations

import json

from govern.classify.classify import RootDiff


def diff_json(results: list[RootDiff]) -> str:
    document = {"roots": [result.to_json() for result in sorted(results, key=lambda r: r.root)]}
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def diff_text(results: list[RootDiff], show_unchanged: bool = False) -> str:
    lines: list[str] = []
    for result in sorted(results, key=lambda r: r.root):
        if result.decision == "unchanged" and not show_unchanged:
            continue
        minimum = f" (minimum {result.minimum})" if result.minimum and result.minimum != result.decision else ""
        lines.append(f"{result.root}: {result.decision}{minimum}")
        for change in result.changes:
            details = ", ".join(f"{key}={value}" for key, value in change.args)
            breaks = f" [breaks {', '.join(change.breaks)}]" if change.breaks else ""
            lines.append(f"  {change.decision:<13} {change.path or '/'}  {change.kind} ({change.rule})"
                         f"{': ' + details if details else ''}{breaks}")
    unchanged = sum(1 for result in results if result.decision == "unchanged")
    lines.append(f"{len(results)} roots: {len(results) - unchanged} changed, {unchanged} unchanged")
    return "\n".join(lines) + "\n"
