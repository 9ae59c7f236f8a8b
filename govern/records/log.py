"""A root's history read from the records: every record in its predecessor chain, newest first."""

from __future__ import annotations

from dataclasses import dataclass

from govern.records.history import History


@dataclass(frozen=True)
class LogEntry:
    root: str
    record: str
    date: str
    decision: str
    baseline: bool
    after: str | None  # None: a tombstone
    format_before: str | int | None
    format_after: str | int | None
    predecessor: str | None
    mode: str  # the compatibility mode the decision was made in

    def to_json(self) -> dict:
        return {"root": self.root, "record": self.record, "date": self.date, "decision": self.decision,
                "mode": self.mode, "baseline": self.baseline, "after": self.after, "predecessor": self.predecessor,
                "format-version": {"before": self.format_before, "after": self.format_after}}


def root_log(history: History, root: str) -> list[LogEntry]:
    """The chain that ends in the root's latest record, walked back to its first record (cycles stop)."""
    entries: list[LogEntry] = []
    seen: set[str] = set()
    current = history.latest(root)
    while current is not None and current not in seen and current in history.records:
        seen.add(current)
        declaration = history.records[current].declaration
        entry = declaration.entry(root) if declaration else None
        if entry is None:
            break
        entries.append(LogEntry(root, current, declaration.date, entry.decision, declaration.baseline, entry.after,
                                entry.format_before, entry.format_after, entry.predecessor, entry.mode))
        current = entry.predecessor
    return entries


def heads(history: History) -> list[LogEntry]:
    """The latest record of every root the records name, sorted by root."""
    return [root_log(history, root)[0] for root in sorted(history.by_root) if root_log(history, root)]
