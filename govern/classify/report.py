"""Renderings of a classification: the stable JSON contract and grouped text."""

from __future__ import annotations

import json
from typing import Callable

from govern.classify.classify import RootDiff
from govern.classify.explain import explain_change

# Optional additions per change (root id, change index) and at the end, e.g. witness documents.
ChangeFields = Callable[[str, int], dict]
ChangeLines = Callable[[str, int], list[str]]


def diff_json(results: list[RootDiff], change_fields: ChangeFields | None = None, extra: dict | None = None) -> str:
    roots = []
    for result in sorted(results, key=lambda r: r.root):
        entry = result.to_json()
        if change_fields is not None:
            for index, change in enumerate(entry["changes"]):
                change.update(change_fields(result.root, index))
        roots.append(entry)
    document = {"roots": roots, **(extra or {})}
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def diff_text(results: list[RootDiff], show_unchanged: bool = False, change_lines: ChangeLines | None = None,
              footer: list[str] | None = None) -> str:
    lines: list[str] = []
    for result in sorted(results, key=lambda r: r.root):
        if result.decision == "unchanged" and not show_unchanged and result.renamed_from is None:
            continue
        minimum = f" (minimum {result.minimum})" if result.minimum and result.minimum != result.decision else ""
        renamed = f" (renamed from {result.renamed_from})" if result.renamed_from else ""
        mode = f" [mode {result.mode}]"
        earlier = f" (breaks earlier {', '.join(result.breaks_earlier)})" if result.breaks_earlier else ""
        lines.append(f"{result.root}: {result.decision}{minimum}{renamed}{mode}{earlier}")
        for index, change in enumerate(result.changes):
            breaks = f" [breaks {', '.join(change.breaks)}]" if change.breaks else ""
            lines.append(f"  {change.decision:<13} {change.location}  {change.kind} ({change.rule}): "
                         f"{explain_change(change).en}{breaks}")
            if change_lines is not None:
                lines.extend(change_lines(result.root, index))
    unchanged = sum(1 for result in results if result.decision == "unchanged")
    lines.append(f"{len(results)} roots: {len(results) - unchanged} changed, {unchanged} unchanged")
    lines.extend(footer or ())
    from govern.report.render import one_line

    return "\n".join(one_line(line) for line in lines) + "\n"
