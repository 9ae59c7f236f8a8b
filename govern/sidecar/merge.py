"""The contract's deterministic two-way merge of sidecars.

There is no common ancestor: both sides' records are kept (union by key or id), so no record written on
either side is lost. The merge builds the whole result, so it owns the rewrite and, as the contract's
§3.1 says of such writers, prunes the anchors no record of the result refers to (and reports them). Where the same id holds different content a fixed rule picks the winner, and every
such decision is reported. Every rule, including the order of records in the result, is a symmetric
function of the two sides, so merge(a, b) and merge(b, a) serialize to the same bytes.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from govern.errors import InputError, Problem, Refusal
from govern.sidecar.canonical import tie_break_key
from govern.sidecar.contract import FORMAT_MAJOR, KNOWN_KEYS, utf16_key
from govern.sidecar.fmt import prune_anchors
from govern.sidecar.load import load_sidecar, require_writable
from govern.sidecar.timestamps import instant_key
from govern.sidecar.validate import format_major, validate_artifact

TIE_BREAK = "tie-break"
NEWER_UPDATED_AT = "newer-updatedAt"


@dataclass(frozen=True)
class Divergence:
    """One place where the sides disagreed and a rule decided."""

    section: str
    """`document`, `anchors`, `threads`, `messages`, `attributions`, `proposals` or `root`."""
    key: str
    """The anchor key, record id or root key that diverged."""
    rule: str
    winner: str
    """`ours` or `theirs`: whose version is in the result."""
    thread: str | None = None
    """For a message, the id of the thread holding it."""

    def describe(self) -> str:
        where = f"message {self.key} of thread {self.thread}" if self.thread else f"{self.section} {self.key}"
        if self.section == "document":
            where = "document"
        return f"{where}: diverged, {self.rule} kept {self.winner}"


@dataclass(frozen=True)
class MergeResult:
    merged: dict[str, Any]
    divergences: tuple[Divergence, ...]
    pruned: tuple[str, ...] = ()
    """Anchor ids dropped because no record of the result refers to them."""


def merge_artifacts(ours: dict[str, Any], theirs: dict[str, Any], *,
                    names: tuple[str, str] = ("ours", "theirs")) -> MergeResult:
    """Merge two valid sidecars. Differing majors, or a major newer than implemented, are refused."""
    major_ours, major_theirs = format_major(ours["schemaVersion"]), format_major(theirs["schemaVersion"])
    check_majors(major_ours, major_theirs, names)
    report: list[Divergence] = []
    merged: dict[str, Any] = {"schemaVersion": major_ours}
    merged["document"] = _pick(ours["document"], theirs["document"], "document", "document", report)
    merged["anchors"] = _merge_map(ours["anchors"], theirs["anchors"], "anchors", report)
    merged["threads"] = _merge_records(ours["threads"], theirs["threads"], "threads", report, _merge_thread)
    merged["attributions"] = _merge_records(ours["attributions"], theirs["attributions"], "attributions",
                                            report, _merge_attribution)
    merged["proposals"] = _merge_records(ours["proposals"], theirs["proposals"], "proposals", report,
                                         _merge_by_tie_break)
    known = set(KNOWN_KEYS["Artifact"])
    unknown_ours = {key: value for key, value in ours.items() if key not in known}
    unknown_theirs = {key: value for key, value in theirs.items() if key not in known}
    merged.update(_merge_map(unknown_ours, unknown_theirs, "root", report))
    merged, pruned = prune_anchors(merged)
    return MergeResult(merged, tuple(report), pruned)


def check_majors(major_ours: int | None, major_theirs: int | None, names: tuple[str, str]) -> None:
    if major_ours != major_theirs:
        raise Refusal(Problem(
            f"{names[0]}, {names[1]}",
            f"majors differ (schemaVersion {major_ours} and {major_theirs}); refusing to merge what one "
            "side cannot fully read, nothing was written",
            hint="upgrade the older side's writer, then merge again",
        ))
    if major_ours is not None and major_ours > FORMAT_MAJOR:
        raise Refusal(Problem(
            f"{names[0]}, {names[1]}",
            f"schemaVersion {major_ours} is newer than the implemented major {FORMAT_MAJOR}; "
            "refusing to write a read-only sidecar, nothing was written",
            hint="upgrade govern to a release that implements this major",
        ))


def merge_files(ours_path: Path, theirs_path: Path) -> MergeResult:
    """Read, check and merge two sidecar files; every problem of both sides is reported at once.

    Differing majors are named first: that is the reason to upgrade, whatever else is wrong.
    """
    loaded, unreadable = [], []
    for path in (ours_path, theirs_path):
        try:
            loaded.append(load_sidecar(path))
        except InputError as error:
            unreadable.extend(error.problems)
    if unreadable:
        raise InputError(unreadable)
    ours, theirs = loaded
    names = (str(ours_path), str(theirs_path))
    if ours.report.major is not None and theirs.report.major is not None:
        check_majors(ours.report.major, theirs.report.major, names)
    refusals = []
    for side in loaded:
        try:
            require_writable(side, "merge")
        except Refusal as error:
            refusals.extend(error.problems)
    if refusals:
        raise Refusal(refusals)
    result = merge_artifacts(ours.data, theirs.data, names=names)
    report = validate_artifact(result.merged)
    if not report.valid:  # defensive: two valid sidecars always merge into a valid one
        raise Refusal([Problem(f"{names[0]}, {names[1]}",
                               f"the merge result would be invalid: {f.message} (at {f.pointer})")
                       for f in report.errors])
    return result


def _pick(ours: Any, theirs: Any, section: str, key: str, report: list[Divergence],
          thread: str | None = None) -> Any:
    """The tie-break: the larger stable stringify wins, whichever side it came from."""
    if tie_break_key(ours) == tie_break_key(theirs):
        return ours
    ours_wins = tie_break_key(ours) > tie_break_key(theirs)
    report.append(Divergence(section, key, TIE_BREAK, "ours" if ours_wins else "theirs", thread))
    return ours if ours_wins else theirs


def _merge_map(ours: dict[str, Any], theirs: dict[str, Any], section: str,
               report: list[Divergence]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key in sorted(set(ours) | set(theirs), key=utf16_key):
        if key in ours and key in theirs:
            result[key] = _pick(ours[key], theirs[key], section, key, report)
        else:
            result[key] = ours[key] if key in ours else theirs[key]
    return result


Resolver = Callable[[dict[str, Any], dict[str, Any], str, list[Divergence]], dict[str, Any]]


def _merge_records(ours: list[dict[str, Any]], theirs: list[dict[str, Any]], section: str,
                   report: list[Divergence], resolve: Resolver) -> list[dict[str, Any]]:
    by_id_ours = {record["id"]: record for record in ours}
    by_id_theirs = {record["id"]: record for record in theirs}
    result = []
    for record_id in _symmetric_order(ours, theirs):
        mine, other = by_id_ours.get(record_id), by_id_theirs.get(record_id)
        if mine is None or other is None:
            result.append(mine if other is None else other)
        elif tie_break_key(mine) == tie_break_key(other):
            result.append(mine)
        else:
            result.append(resolve(mine, other, section, report))
    return result


def _symmetric_order(ours: list[dict[str, Any]], theirs: list[dict[str, Any]]) -> list[str]:
    """Order ids by their later position on either side, then by id.

    Using the later of the two positions is symmetric, keeps a list merged with itself unchanged, and
    puts records appended on either side after those both sides share.
    """
    position: dict[str, int] = {}
    for records in (ours, theirs):
        for index, record in enumerate(records):
            position[record["id"]] = max(index, position.get(record["id"], index))
    return sorted(position, key=lambda record_id: (position[record_id], utf16_key(record_id)))


def _merge_by_tie_break(ours: dict[str, Any], theirs: dict[str, Any], section: str,
                        report: list[Divergence]) -> dict[str, Any]:
    return _pick(ours, theirs, section, ours["id"], report)


def _merge_attribution(ours: dict[str, Any], theirs: dict[str, Any], section: str,
                       report: list[Divergence]) -> dict[str, Any]:
    newer_ours, newer_theirs = instant_key(ours["updatedAt"]), instant_key(theirs["updatedAt"])
    if newer_ours == newer_theirs:
        return _pick(ours, theirs, section, ours["id"], report)
    ours_wins = newer_ours > newer_theirs
    report.append(Divergence(section, ours["id"], NEWER_UPDATED_AT, "ours" if ours_wins else "theirs"))
    return ours if ours_wins else theirs


def _merge_thread(ours: dict[str, Any], theirs: dict[str, Any], section: str,
                  report: list[Divergence]) -> dict[str, Any]:
    """Shell and messages merge independently, so a reply on one side never loses to an edit on the other."""
    thread_id = ours["id"]
    shell_ours = {key: value for key, value in ours.items() if key != "messages"}
    shell_theirs = {key: value for key, value in theirs.items() if key != "messages"}
    shell = _pick(shell_ours, shell_theirs, section, thread_id, report)
    messages_ours = {message["id"]: message for message in ours["messages"]}
    messages_theirs = {message["id"]: message for message in theirs["messages"]}
    messages = []
    # Sorted so that the report lists divergent messages in the same order under any hash seed.
    for message_id in sorted(set(messages_ours) | set(messages_theirs), key=utf16_key):
        mine, other = messages_ours.get(message_id), messages_theirs.get(message_id)
        if mine is None or other is None:
            messages.append(mine if other is None else other)
        else:
            messages.append(_pick(mine, other, "messages", message_id, report, thread=thread_id))
    messages.sort(key=lambda message: (instant_key(message["createdAt"]), utf16_key(message["id"])))
    return {**shell, "messages": messages}
