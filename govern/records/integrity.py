"""The checks one record answers for on its own: its languages agree, and its snapshot reproduces its
declaration (digests and format versions). `govern verify` runs them on every record, and `govern record
sync` refuses to bless a record that fails them.
"""

from __future__ import annotations

from govern.errors import InputError
from govern.model.graph import TypeGraph
from govern.model.inventory import build_inventory
from govern.records.format import PROSE_KEYS, text_hash
from govern.classify.rules import VERSION_BUMP
from govern.records.history import History, Record
from govern.records.versions import raises_format_version, same_version, show_version, source_of
from govern.verify.findings import Finding


def check_languages(record: Record) -> list[Finding]:
    findings = []
    source, translations = record.languages[0], record.languages[1:]
    original = record.declarations.get(source)
    for language in translations:
        translated = record.declarations.get(language)
        if original is not None and translated is not None and original != translated:
            findings.append(Finding("declaration-mismatch", record.relative(language),
                                    {"source": record.source_file}, line=2))
    consistency = record.consistency
    if consistency is None or original is None or len(record.prose) != len(record.languages):
        return findings
    if consistency.get("declaration") != original.hash:
        findings.append(Finding("consistency-stale", record.relative("i18n"),
                                {"variant": "declaration", "record": record.id}))
    recorded = consistency.get("prose") or {}
    for key in PROSE_KEYS:
        edited = [language for language in record.languages
                  if text_hash(record.prose[language].get(key)) != (recorded.get(language) or {}).get(key)]
        if edited and len(edited) == len(record.languages):
            findings.append(Finding("consistency-stale", record.relative("i18n"),
                                    {"variant": "prose", "key": key, "record": record.id}))
        elif edited:
            # Every language left as it was is now a stale translation of the edited one.
            for language in record.languages:
                if language not in edited:
                    findings.append(Finding("translation-stale", record.relative(language),
                                            {"key": key, "edited": record.relative(edited[0]), "record": record.id}))
    generated = consistency.get("generated")
    if isinstance(generated, dict):
        for language in record.languages:
            if language in generated and text_hash(record.prose[language].get("changes")) != generated[language]:
                findings.append(Finding("generated-section-edited", record.relative(language), {"record": record.id}))
    return findings


def check_baseline(history: History, only: str | None = None) -> list[Finding]:
    """Only the first record of the history is a baseline, and a baseline has no predecessors.

    First means earliest by date; on the first day a baseline comes before the records written after it.
    """
    readable = [record for record in history.records.values() if record.declaration is not None]
    if not readable:
        return []
    first = min(readable, key=lambda record: (record.declaration.date, not record.declaration.baseline, record.id))
    findings = []
    for record in readable:
        if not record.declaration.baseline or only not in (None, record.id):
            continue
        if record is not first or any(entry.predecessor for entry in record.declaration.entries):
            findings.append(Finding("baseline-misplaced", record.source_file,
                                    {"record": record.id, "first": first.id}, line=5))
    return findings


# How many types a finding about recorded type digests names (the rest are counted).
_TYPES_SHOWN = 5


def _differing_digests(table: object, hashed: dict | object) -> list[str]:
    """The types whose digest in a snapshot's table (as written: any JSON value) is not the hashed one, or
    that only one of the two has; every type when the table is not a table of names."""
    if not isinstance(table, dict):
        return sorted(hashed)
    return sorted(str(key) for key in table.keys() | hashed.keys() if table.get(key) != hashed.get(key))


def check_snapshot(record: Record, findings: list[Finding]) -> list[TypeGraph] | None:
    declaration = record.declaration
    if declaration is None or record.snapshot_bytes is None:
        return None
    try:
        graphs = record.snapshot_graphs()
    except (InputError, ValueError) as error:
        findings.append(Finding("snapshot-mismatch", record.relative("schema"),
                                {"variant": "unnormalizable", "error": error}))
        return None
    # The digests the snapshot records for its types are what a later comparison takes instead of hashing the
    # snapshot: from here on the graphs hold the hashed ones, and each table as written must agree with them.
    for graph in graphs:
        graph.check_recorded_digests()
    digests = build_inventory(graphs).roots
    broken: set[str] = set()  # sources with a root whose digest does not hold
    for entry in declaration.entries:
        found = digests.get(entry.root)
        if entry.after is None and found is not None:
            variant: dict = {"variant": "removed", "root": entry.root}
        elif entry.after is not None and found is None:
            variant = {"variant": "absent", "root": entry.root, "declared": entry.after}
        elif entry.after is not None and found.digest != entry.after:
            variant = {"variant": "digest", "root": entry.root, "actual": found.digest, "declared": entry.after}
        else:
            continue
        findings.append(Finding("snapshot-mismatch", record.relative("schema"), variant, root=entry.root))
        broken.add(source_of(entry.root))
    tables = record.recorded_digest_tables()
    for graph in graphs:
        # (A schema edited in a source changes its root's digest too: that finding says it.)
        if graph.source in tables and graph.source not in broken:
            types = _differing_digests(tables[graph.source], graph.digests)
            if types:
                shown = ", ".join(types[:_TYPES_SHOWN]) + (f" (+{len(types) - _TYPES_SHOWN})"
                                                          if len(types) > _TYPES_SHOWN else "")
                findings.append(Finding("snapshot-mismatch", record.relative("schema"),
                                        {"variant": "type-digests", "source": graph.source, "types": shown}))
    versions = record.format_versions()
    for entry in declaration.entries:
        recorded = versions.get(source_of(entry.root))
        if not same_version(entry.format_after, recorded):
            findings.append(Finding("format-version-mismatch", record.source_file, {
                "variant": "snapshot", "root": entry.root, "declared": show_version(entry.format_after),
                "recorded": show_version(recorded), "snapshot": record.relative("schema"), "record": record.id},
                root=entry.root))
    return graphs


def check_format_versions(history: History, only: str | None = None) -> list[Finding]:
    """A declared `format-version.before` is what the root's predecessor declared after, and a version-bump
    raises it: a version raised by an earlier record does not count again. A tombstone raises it too,
    unless its whole source is gone (nothing writes that format any more)."""
    findings = []
    for record in history.records.values():
        declaration = record.declaration
        if declaration is None or only not in (None, record.id):
            continue
        versions = record.format_versions()
        for entry in declaration.entries:
            predecessor = history.records.get(entry.predecessor) if entry.predecessor else None
            previous = predecessor.declaration.entry(entry.root) \
                if predecessor is not None and predecessor.declaration is not None else None
            before = previous.format_after if previous is not None else entry.format_before
            if previous is not None and not same_version(entry.format_before, previous.format_after):
                findings.append(Finding("format-version-mismatch", record.source_file, {
                    "variant": "predecessor", "root": entry.root, "declared": show_version(entry.format_before),
                    "predecessor": predecessor.id, "recorded": show_version(previous.format_after),
                    "record": record.id}, root=entry.root))
            elif entry.predecessor is None and entry.format_before is not None:
                findings.append(Finding("format-version-mismatch", record.source_file, {
                    "variant": "new-root", "root": entry.root, "declared": show_version(entry.format_before),
                    "record": record.id}, root=entry.root))
            retired = entry.after is None and source_of(entry.root) not in versions
            unversioned = before is None and entry.format_after is None
            if entry.decision == VERSION_BUMP and entry.predecessor is not None and not retired and not unversioned \
                    and not raises_format_version(before, entry.format_after):
                findings.append(Finding("format-version-not-raised", record.source_file,
                                        {"root": entry.root, "before": show_version(before),
                                         "after": show_version(entry.format_after), "record": record.id},
                                        root=entry.root))
    return findings
