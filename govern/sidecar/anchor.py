"""Locating anchored text by content, and building the fingerprint of a new anchor.

The anchored text is the truth: a region is found only where that exact text occurs. The stored
context chooses among several occurrences and the line hint only breaks the remaining ties, so an
anchor whose text is gone is reported orphaned rather than moved to wherever its old line now points.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from govern.sidecar.contract import CONTEXT_MAX_CHARS, CONTEXT_MAX_LINES

FOUND = "found"
ORPHANED = "orphaned"


@dataclass(frozen=True)
class Resolution:
    status: str
    offset: int | None = None
    """Character offset of the anchored text in the document."""
    line: int | None = None
    """0-based line where the anchored text starts, the same convention as lineHint."""
    candidates: int = 0
    """How many exact occurrences of the text were weighed."""
    context_matched: bool = False
    """Whether both stored contexts agree exactly with the document around the chosen occurrence."""

    @property
    def found(self) -> bool:
        return self.status == FOUND


def resolve_anchor(document_text: str, fingerprint: Mapping[str, Any]) -> Resolution:
    text = fingerprint.get("text")
    if not isinstance(text, str) or not text:
        # Empty text matches everywhere, which is the same as knowing nothing.
        return Resolution(ORPHANED)
    before = fingerprint.get("before") if isinstance(fingerprint.get("before"), str) else ""
    after = fingerprint.get("after") if isinstance(fingerprint.get("after"), str) else ""
    hint = fingerprint.get("lineHint")
    hint = hint if isinstance(hint, int) and not isinstance(hint, bool) else None
    offsets = _occurrences(document_text, text)
    if not offsets:
        return Resolution(ORPHANED)

    def rank(offset: int) -> tuple[int, int, int, int]:
        preceding = document_text[:offset]
        following = document_text[offset + len(text):]
        agreement = _common_suffix(preceding, before) + _common_prefix(following, after)
        exact = int(preceding.endswith(before)) + int(following.startswith(after))
        distance = abs(preceding.count("\n") - hint) if hint is not None else 0
        # More agreeing context first, then nearer the hint, then earlier in the file (determinism).
        return (-exact, -agreement, distance, offset)

    best = min(offsets, key=rank)
    preceding = document_text[:best]
    return Resolution(
        FOUND, best, preceding.count("\n"), len(offsets),
        preceding.endswith(before) and document_text[best + len(text):].startswith(after),
    )


def _occurrences(haystack: str, needle: str) -> list[int]:
    offsets, start = [], haystack.find(needle)
    while start != -1:
        offsets.append(start)
        start = haystack.find(needle, start + 1)
    return offsets


def _common_suffix(left: str, right: str) -> int:
    count = 0
    while count < min(len(left), len(right)) and left[-1 - count] == right[-1 - count]:
        count += 1
    return count


def _common_prefix(left: str, right: str) -> int:
    count = 0
    while count < min(len(left), len(right)) and left[count] == right[count]:
        count += 1
    return count


def context_before(document_text: str, offset: int) -> str:
    """At most CONTEXT_MAX_LINES lines (the partial line of the anchor counts) and CONTEXT_MAX_CHARS chars."""
    lines = document_text[:offset].split("\n")[-CONTEXT_MAX_LINES:]
    return "\n".join(lines)[-CONTEXT_MAX_CHARS:]


def context_after(document_text: str, end: int) -> str:
    lines = document_text[end:].split("\n")[:CONTEXT_MAX_LINES]
    return "\n".join(lines)[:CONTEXT_MAX_CHARS]


def build_fingerprint(document_text: str, offset: int, length: int) -> dict[str, Any]:
    """The fingerprint of document_text[offset:offset+length], in the contract's key order."""
    return {
        "text": document_text[offset:offset + length],
        "before": context_before(document_text, offset),
        "after": context_after(document_text, offset + length),
        "lineHint": document_text[:offset].count("\n"),
    }


def locate_text(document_text: str, text: str, near_line: int | None = None) -> int | None:
    """Where a writer anchors new text: the occurrence nearest `near_line` (0-based), else the first."""
    offsets = _occurrences(document_text, text) if text else []
    if not offsets:
        return None
    if near_line is None:
        return offsets[0]
    return min(offsets, key=lambda offset: (abs(document_text[:offset].count("\n") - near_line), offset))
