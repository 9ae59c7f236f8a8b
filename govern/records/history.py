"""Reading every record of a project and arranging them into per-root predecessor chains.

Problems found while reading are findings, not exceptions: one malformed record does not hide another.
"""

from __future__ import annotations

import hashlib
import heapq
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from govern.config import Config
from govern.errors import InputError, Problem
from govern.model.canonical import canonical_json, sha256_digest
from govern.model.graph import TypeGraph, root_graphs
from govern.records.format import (
    GENERATED_PARTS, LANGUAGES, RECORD_FILE, Declaration, Entry, FormatError, Prose, parse_consistency,
    parse_declaration, parse_prose, record_suffix, split_front_matter,
)
from govern.verify.findings import Finding


@dataclass
class Record:
    id: str
    folder: Path
    project_root: Path
    declarations: dict[str, Declaration] = field(default_factory=dict)
    prose: dict[str, Prose] = field(default_factory=dict)
    consistency: dict | None = None
    findings: list[Finding] = field(default_factory=list)
    # The configured languages, the source language first: its file is ID.md, the others ID.<language>.md.
    languages: tuple[str, ...] = LANGUAGES
    # The snapshot parsed and normalized, each once, for the bytes they were made from: verify, the format
    # references and the classification of a record against its successors all read the same snapshot.
    _parsed: dict[str, tuple[bytes, Any]] = field(default_factory=dict, repr=False, compare=False)
    # The snapshot's bytes (see `snapshot_bytes`); `_snapshot_unread` while its file is still to be read.
    _snapshot: bytes | None = field(default=None, repr=False)
    _snapshot_unread: bool = field(default=False, repr=False, compare=False)

    @property
    def snapshot_bytes(self) -> bytes | None:
        """The snapshot file's bytes (None without one, or when it cannot be read: a finding says so). A record
        loaded with its snapshot left for later reads the file here, when first asked for."""
        if self._snapshot_unread:
            self._snapshot_unread = False
            self._snapshot = _read_snapshot(self)
        return self._snapshot

    @snapshot_bytes.setter
    def snapshot_bytes(self, value: bytes | None) -> None:
        self._snapshot, self._snapshot_unread = value, False

    @property
    def parts(self) -> tuple[str, ...]:
        return (*self.languages, *GENERATED_PARTS)

    def path(self, part: str) -> Path:
        return self.folder / f"{self.id}{record_suffix(part, self.languages)}"

    def relative(self, part: str) -> str:
        try:
            return self.path(part).relative_to(self.project_root).as_posix()
        except ValueError:  # pragma: no cover - records live inside the project
            return self.path(part).as_posix()

    @property
    def source_file(self) -> str:
        """The source-language file, relative to the project: where findings about the whole record point."""
        return self.relative(self.languages[0])

    @property
    def declaration(self) -> Declaration | None:
        """The source language's declaration: the one every translation must repeat unchanged."""
        return self.declarations.get(self.languages[0])

    @property
    def link(self) -> str | None:
        """What a successor pins: this record's declaration and snapshot, so editing either is evident."""
        if self.declaration is None:
            return None
        snapshot = hashlib.sha256(self.snapshot_bytes or b"").hexdigest()
        return sha256_digest("govern/record-link",
                             canonical_json({"declaration": self.declaration.data(), "snapshot": snapshot}))

    def format_versions(self) -> dict[str, Any]:
        """Source -> the format version the snapshot says it writes after this record (see snapshot.py)."""
        from govern.records.snapshot import format_versions

        try:
            return format_versions(self._snapshot_document()) if self.snapshot_bytes else {}
        except InputError:  # an unreadable snapshot has its own finding
            return {}

    def snapshot_graphs(self) -> list[TypeGraph]:
        from govern.records.snapshot import load_snapshot

        if not self.snapshot_bytes:
            return []
        return list(self._once("graphs", lambda: load_snapshot(self._snapshot_document(), self.relative("schema"))))

    def recorded_digest_tables(self) -> dict[str, Any]:
        """Source -> the digests of its types as the snapshot records them (any JSON value, as written), for
        the sources whose resource has them."""
        from govern.records.snapshot import TYPE_DIGESTS

        try:
            document = self._snapshot_document() if self.snapshot_bytes else None
        except InputError:  # an unreadable snapshot has its own finding
            return {}
        resources = document.get("$defs") if isinstance(document, dict) else None
        if not isinstance(resources, dict):
            return {}
        return {source: resource[TYPE_DIGESTS] for source, resource in resources.items()
                if isinstance(resource, dict) and TYPE_DIGESTS in resource}

    def _snapshot_document(self) -> Any:
        from govern.fsio import parse_json

        def parse() -> Any:
            try:
                text = (self.snapshot_bytes or b"").decode("utf-8")
            except UnicodeDecodeError as error:
                raise InputError(Problem(self.relative("schema"),
                                         f"is not UTF-8 (invalid byte at offset {error.start})",
                                         hint="regenerate it with `govern record refresh`")) from None
            return parse_json(text, self.relative("schema"))

        return self._once("document", parse)

    def _once(self, name: str, make: Callable[[], Any]) -> Any:
        """`make()` for the current snapshot bytes, computed once (a refusal is raised again each time)."""
        known = self._parsed.get(name)
        if known is not None and known[0] is self.snapshot_bytes:
            return known[1]
        value = make()
        self._parsed[name] = (self.snapshot_bytes, value)
        return value


def record_ids(folder: Path) -> list[str]:
    if not folder.is_dir():
        return []
    ids = set()
    try:
        paths = list(folder.iterdir())
    except OSError as error:
        raise InputError(Problem(str(folder), f"cannot be read: {error.strerror or error}",
                                 hint="check the folder's permissions")) from None
    for path in paths:
        match = RECORD_FILE.match(path.name)
        if match:
            ids.add(match.group("id"))
    return sorted(ids)


def load_record(folder: Path, record_id: str, project_root: Path, languages: tuple[str, ...] = LANGUAGES,
                snapshot_when_needed: bool = False) -> Record:
    """A record read from its files; with `snapshot_when_needed`, its snapshot is read only when first asked
    for (`Record.snapshot_bytes`), and a snapshot that cannot be read adds its finding then."""
    record = Record(record_id, folder, project_root, languages=languages)
    source = languages[0]
    missing = [part for part in record.parts if not record.path(part).is_file()]
    if missing:
        # Only the consistency record can be rebuilt from the others; anything else is lost content.
        record.findings.append(Finding("record-files-missing", record.relative(source), {
            "variant": "consistency" if missing == ["i18n"] else "content", "record": record_id,
            "files": ", ".join(record.relative(p) for p in missing)}))
    for language in languages:
        path = record.path(language)
        if not path.is_file():
            continue
        try:
            front, body, _ = split_front_matter(path.read_text(encoding="utf-8"))
            declaration = parse_declaration(front)
            if declaration.id != record_id:
                record.findings.append(Finding("record-syntax", record.relative(language), {
                    "variant": "id-mismatch", "declared": declaration.id, "record": record_id}))
                continue
            record.declarations[language] = declaration
            record.prose[language] = parse_prose(body)
        except FormatError as error:
            record.findings.append(Finding("record-syntax", record.relative(language),
                                           {"variant": "format", "reason": error.reason}, line=error.line))
        except (UnicodeDecodeError, OSError) as error:
            record.findings.append(Finding("record-syntax", record.relative(language),
                                           {"variant": "unreadable", "error": error}))
    if record.path("i18n").is_file():
        try:
            record.consistency = parse_consistency(record.path("i18n").read_text(encoding="utf-8"))
        except (FormatError, UnicodeDecodeError, OSError) as error:
            record.findings.append(Finding("record-syntax", record.relative("i18n"),
                                           {"variant": "consistency", "reason": error, "record": record_id}))
    if record.path("schema").is_file():
        if snapshot_when_needed:
            record._snapshot_unread = True
        else:
            record.snapshot_bytes = _read_snapshot(record)
    return record


def _read_snapshot(record: Record) -> bytes | None:
    try:
        return record.path("schema").read_bytes()
    except OSError as error:
        record.findings.append(Finding("record-syntax", record.relative("schema"),
                                       {"variant": "unreadable", "error": error.strerror or error}))
        return None


@dataclass
class History:
    records: dict[str, Record]
    # (predecessor record id, root) -> ids of the records naming it as predecessor for that root
    successors: dict[tuple[str, str], list[str]]
    # root -> (record id, entry) of every record declaring that root
    by_root: dict[str, list[str]]

    def latest(self, root: str) -> str | None:
        """The record that ends the root's chain (the newest id when a fork leaves several ends)."""
        ends = [record_id for record_id in self.by_root.get(root, [])
                if not self.successors.get((record_id, root))]
        return max(ends) if ends else None

    def latest_entry(self, root: str) -> Entry | None:
        """The root's entry in its latest record (None before any record, or when that record is unreadable)."""
        latest = self.latest(root)
        declaration = self.records[latest].declaration if latest else None
        return declaration.entry(root) if declaration else None

    def recorded_modes(self) -> dict[str, str]:
        """Root -> the compatibility mode its latest record was decided in, for every root still present."""
        found = {}
        for root in self.by_root:
            entry = self.latest_entry(root)
            if entry is not None and entry.after is not None:
                found[root] = entry.mode
        return found

    def ordered(self) -> list[Record]:
        """Readable records, every predecessor before its successors; ids break ties (dates lead ids).

        Records caught in a cycle (a finding of their own) follow in id order, so the order is total.
        """
        readable = {record_id: record for record_id, record in self.records.items() if record.declaration}
        waiting = {record_id: {entry.predecessor for entry in record.declaration.entries
                               if entry.predecessor in readable and entry.predecessor != record_id}
                   for record_id, record in readable.items()}
        # Each record waits for its predecessors; the smallest ready id goes next. Successors are looked up,
        # not searched for, so a long history orders in O(n log n).
        successors: dict[str, list[str]] = {}
        for record_id, before in waiting.items():
            for predecessor in before:
                successors.setdefault(predecessor, []).append(record_id)
        order: list[str] = []
        ready = sorted(record_id for record_id, before in waiting.items() if not before)
        while ready:
            current = heapq.heappop(ready)
            order.append(current)
            for record_id in successors.get(current, ()):
                before = waiting[record_id]
                before.discard(current)
                if not before:
                    heapq.heappush(ready, record_id)
        placed = set(order)
        order += sorted(set(readable) - placed)
        return [readable[record_id] for record_id in order]

    def dependants(self, record_id: str) -> list[str]:
        found = set()
        for (predecessor, _), successors in self.successors.items():
            if predecessor == record_id:
                found.update(successors)
        return sorted(found)


def load_history(config: Config, snapshots_when_needed: bool = False) -> History:
    """Every record of the project. With `snapshots_when_needed`, each record's snapshot is read only when
    something asks for it: the generated views need only the snapshots of the format references, while a
    large project's snapshots are many times the size of everything else in its records."""
    folder = config.path(config.records_dir)
    return build_history({record_id: load_record(folder, record_id, config.project_root, config.languages,
                                                 snapshots_when_needed)
                          for record_id in record_ids(folder)})


def build_history(records: dict[str, Record]) -> History:
    """Arrange records (read from disk, or about to be written) into per-root chains."""
    successors: dict[tuple[str, str], list[str]] = {}
    by_root: dict[str, list[str]] = {}
    for record in records.values():
        if record.declaration is None:
            continue
        for entry in record.declaration.entries:
            by_root.setdefault(entry.root, []).append(record.id)
            if entry.predecessor is not None:
                successors.setdefault((entry.predecessor, entry.root), []).append(record.id)
    return History(records, successors, by_root)


def recorded_graphs(config: Config, history: History | None = None) -> list[TypeGraph]:
    """For every root, the graph of its latest record's snapshot, restricted to that root."""
    history = history or load_history(config)
    wanted: dict[str, set[str]] = {}
    for root in history.by_root:
        entry = history.latest_entry(root)
        if entry is not None and entry.after is not None:
            wanted.setdefault(history.latest(root), set()).add(root)
    graphs: list[TypeGraph] = []
    for record_id, roots in sorted(wanted.items()):
        for graph in history.records[record_id].snapshot_graphs():
            if roots & graph.roots.keys():
                graphs.append(graph.with_roots(roots))
    return graphs


def predecessor_of(history: History, record_id: str | None, root: str) -> str | None:
    record = history.records.get(record_id) if record_id else None
    entry = record.declaration.entry(root) if record is not None and record.declaration else None
    return entry.predecessor if entry else None


def chain_graphs(history: History, root: str, start: str | None) -> list[list[TypeGraph]]:
    """The snapshot graphs of a root at `start` and every record before it in the root's chain, restricted
    to the root, newest first (what a transitive compatibility mode checks against)."""
    found: list[list[TypeGraph]] = []
    current, seen = start, set()
    while current is not None and current in history.records and current not in seen:
        seen.add(current)
        record = history.records[current]
        entry = record.declaration.entry(root) if record.declaration else None
        if entry is None:
            break
        if entry.after is not None:
            graphs = root_graphs(record.snapshot_graphs(), root)
            if graphs:
                found.append(graphs)
        current = entry.predecessor
    return found
