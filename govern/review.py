"""What a pull request adds to the history: the records that are new since a base ref, and the changes
each acknowledges (classified again from the record's and its predecessor's snapshots)."""

from __future__ import annotations

from dataclasses import dataclass

from govern.classify.classify import RootDiff, classify
from govern.config import Config
from govern.errors import InputError
from govern.records.history import History


@dataclass(frozen=True)
class AddedRecord:
    id: str
    title: dict[str, str]  # by language
    results: tuple[RootDiff, ...]  # per declared root: the acknowledged changes
    decisions: tuple[tuple[str, str, object, object], ...]  # (root, decision, format before, format after)


@dataclass(frozen=True)
class Review:
    base: str
    added: tuple[AddedRecord, ...]


def records_at(config: Config, ref: str) -> set[str]:
    """The ids of the records in the records folder at a git ref (read from git, no checkout)."""
    from govern.gitrefs import git, repository_of, resolve_tree
    from govern.records.format import RECORD_FILE

    repository = repository_of(config.project_root)
    tree = resolve_tree(repository, ref)
    folder = (config.project_root / config.records_dir).resolve().relative_to(repository.top.resolve()).as_posix()
    listing = git(repository.top, "ls-tree", "-z", "--name-only", "--full-tree", f"{tree}:{folder}")
    names = listing.stdout.decode("utf-8").split("\0") if listing.returncode == 0 else []
    return {match.group("id") for name in names if (match := RECORD_FILE.match(name))}


def review_since(config: Config, history: History, base: str) -> Review:
    from govern.model.graph import root_graphs

    existing = records_at(config, base)
    added = []
    for record_id in sorted(set(history.records) - existing):
        record = history.records[record_id]
        if record.declaration is None:
            continue  # its syntax finding says why
        try:
            snapshot = record.snapshot_graphs()
        except (InputError, ValueError):  # an unreadable snapshot has its own finding; summarize what is left
            snapshot = []
        results: list[RootDiff] = []
        for entry in record.declaration.entries:
            predecessor = history.records.get(entry.predecessor) if entry.predecessor else None
            try:
                old = root_graphs(predecessor.snapshot_graphs(), entry.root) if predecessor else []
            except (InputError, ValueError):
                old = []
            results.extend(classify(old, root_graphs(snapshot, entry.root)))
        added.append(AddedRecord(record_id, {language: prose.title for language, prose in record.prose.items()},
                                 tuple(result for result in results if result.decision != "unchanged"),
                                 tuple((e.root, e.decision, e.format_before, e.format_after)
                                       for e in record.declaration.entries)))
    return Review(base, tuple(added))
