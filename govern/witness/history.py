"""Witnesses over a project's history, for `govern verify --witness`.

Two searches: every record entry declared same-version is checked against its predecessor's snapshot (a
document that breaks a promised direction is an `unsound-verdict` finding on the record), and the
changes not yet acknowledged (latest records against the current source) get their witnesses, so the
report shows what a reviewer is about to acknowledge.
"""

from __future__ import annotations

from dataclasses import dataclass

from govern.classify.classify import classify
from govern.classify.rules import SAME_VERSION, VERSION_BUMP
from govern.config import Config
from govern.errors import InputError
from govern.model.graph import TypeGraph, root_graphs
from govern.records.history import History, recorded_graphs
from govern.verify.findings import Finding
from govern.witness.render import unsound_findings
from govern.witness.search import ChangeWitness, find_witnesses


@dataclass(frozen=True)
class HistoryWitnesses:
    findings: tuple[Finding, ...]  # unsound-verdict, on records and on the current source
    pending: tuple[ChangeWitness, ...]  # the breaking changes not yet acknowledged, with or without a witness


def history_witnesses(config: Config, history: History, current: list[TypeGraph],
                      budget: int) -> HistoryWitnesses:
    findings: list[Finding] = []
    snapshots: dict[str, list[TypeGraph]] = {}

    def snapshot(record_id: str) -> list[TypeGraph]:
        if record_id not in snapshots:
            try:
                snapshots[record_id] = history.records[record_id].snapshot_graphs()
            except (InputError, ValueError, KeyError):  # verify reports the damaged snapshot itself
                snapshots[record_id] = []
        return snapshots[record_id]

    for record in sorted(history.records.values(), key=lambda r: r.id):
        declaration = record.declaration
        for entry in declaration.entries if declaration is not None else ():
            if entry.decision != SAME_VERSION or entry.predecessor not in history.records or entry.after is None:
                continue
            old, new = root_graphs(snapshot(entry.predecessor), entry.root), root_graphs(snapshot(record.id), entry.root)
            if old and new:
                report = find_witnesses(classify(old, new), old, new, budget)
                findings.extend(unsound_findings(report, lambda root, path=record.relative("en"): path))
    recorded = recorded_graphs(config, history)
    report = find_witnesses(classify(recorded, current), recorded, current, budget)
    origins = {root: graph.origin for graph in current for root in graph.roots}
    findings.extend(unsound_findings(report, lambda root: origins.get(root, f"{config.records_dir}/")))
    pending = sorted((entry for entry in report.by_change.values() if entry.change.decision == VERSION_BUMP),
                     key=lambda entry: (entry.root, entry.change.sort_key()))
    return HistoryWitnesses(tuple(findings), tuple(pending))
