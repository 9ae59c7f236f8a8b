"""Renderings of a classification: the stable JSON contract and grouped text."""

from __future__ import annotations

from typing import Callable, Iterator

from govern.classify.classify import RootDiff
from govern.classify.explain import explain_change
from govern.model.canonical import Streamed, streamed_json

# Optional additions per change (root id, change index) and at the end, e.g. witness documents.
ChangeFields = Callable[[str, int], dict]
ChangeLines = Callable[[str, int], list[str]]


def diff_json(results: list[RootDiff], change_fields: ChangeFields | None = None, extra: dict | None = None) -> str:
    return "".join(diff_json_pieces(results, change_fields, extra))


def diff_json_pieces(results: list[RootDiff], change_fields: ChangeFields | None = None,
                     extra: dict | None = None) -> Iterator[str]:
    """The JSON contract (`json.dumps` with an indent of 2, the text as it is), a piece at a time: each change's
    entry is made and written in turn, so a report of a hundred thousand changes is never held whole."""

    def entries(result: RootDiff) -> Iterator[dict]:
        for index, change in enumerate(result.changes):
            entry = change.to_json()
            if change_fields is not None:
                entry.update(change_fields(result.root, index))
            yield entry

    roots = (result.to_json(Streamed(entries(result))) for result in sorted(results, key=lambda r: r.root))
    return streamed_json({"roots": Streamed(roots), **(extra or {})}, "\n")


def diff_text(results: list[RootDiff], show_unchanged: bool = False, change_lines: ChangeLines | None = None,
              footer: list[str] | None = None) -> str:
    return "".join(diff_text_pieces(results, show_unchanged, change_lines, footer))


def diff_text_pieces(results: list[RootDiff], show_unchanged: bool = False, change_lines: ChangeLines | None = None,
                     footer: list[str] | None = None) -> Iterator[str]:
    """The text report, a line at a time (each ends with a line break)."""
    from govern.report.render import one_line

    for line in _text_lines(results, show_unchanged, change_lines, footer):
        yield one_line(line) + "\n"


def _text_lines(results: list[RootDiff], show_unchanged: bool, change_lines: ChangeLines | None,
                footer: list[str] | None) -> Iterator[str]:
    for result in sorted(results, key=lambda r: r.root):
        if result.decision == "unchanged" and not show_unchanged and result.renamed_from is None:
            continue
        minimum = f" (minimum {result.minimum})" if result.minimum and result.minimum != result.decision else ""
        renamed = f" (renamed from {result.renamed_from})" if result.renamed_from else ""
        mode = f" [mode {result.mode}]"
        earlier = f" (breaks earlier {', '.join(result.breaks_earlier)})" if result.breaks_earlier else ""
        yield f"{result.root}: {result.decision}{minimum}{renamed}{mode}{earlier}"
        if result.shared_walk:
            yield ("  (walked with other roots: a change below a named type is told as that walk first met it, "
                   "which may be from another root)")
        for index, change in enumerate(result.changes):
            breaks = f" [breaks {', '.join(change.breaks)}]" if change.breaks else ""
            yield (f"  {change.decision:<13} {change.location}  {change.kind} ({change.rule}): "
                   f"{explain_change(change).en}{breaks}")
            if change_lines is not None:
                yield from change_lines(result.root, index)
    unchanged = sum(1 for result in results if result.decision == "unchanged")
    yield f"{len(results)} roots: {len(results) - unchanged} changed, {unchanged} unchanged"
    yield from footer or ()
