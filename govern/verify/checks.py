"""Every verification check of the record history against the current source, as findings.

Checks never stop at the first problem: all findings are collected and reported together.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from govern.classify.classify import classify, with_deep_stack
from govern.classify.modes import PERSISTENCE, against_each, apply_modes, source_of
from govern.classify.rules import VERSION_BUMP
from govern.config import Config
from govern.model.graph import TypeGraph, root_graphs
from govern.model.inventory import Inventory, build_inventory
from govern.records.format import suggested_slug
from govern.records.history import History, chain_graphs, load_history, predecessor_of
from govern.records.integrity import check_baseline, check_format_versions, check_languages, check_snapshot
from govern.records.versions import same_version, show_version
from govern.verify.findings import Finding

DAMAGED_RECORD = frozenset({"record-syntax", "record-files-missing", "snapshot-mismatch"})
NEW_RECORD_HINT = "govern record new {slug} --prose prose.yaml"
BASELINE_HINT = "govern record new baseline --prose prose.yaml"
TOMBSTONE_HINT = "govern record new {slug} --prose prose.yaml --decision version-bump"


def verify_project(config: Config) -> tuple[list[Finding], Inventory, History]:
    from govern.extract import generated_files, obsolete_files, stale_files
    from govern.sources.load import load_configured

    history = load_history(config)
    findings: list[Finding] = []
    snapshots: dict[str, list[TypeGraph]] = {}
    for record in history.records.values():
        findings.extend(record.findings)
        findings.extend(check_languages(record))
        graphs = check_snapshot(record, findings)
        if graphs is not None:
            snapshots[record.id] = graphs
    chain_findings = check_chains(history)
    findings.extend(chain_findings)
    # A predecessor edited after the fact makes any comparison with it meaningless: its own finding says so.
    edited = {(finding.root, finding.path) for finding in chain_findings if finding.id == "predecessor-edited"}
    # One thread with a deep stack for every classification of the history, not one per record.
    findings.extend(with_deep_stack(lambda: check_decisions(history, snapshots, edited)))
    findings.extend(check_format_versions(history))
    findings.extend(check_baseline(history))
    inventory = build_inventory(load_configured(config))
    # An unreadable record drops out of the history, which would make its roots look unacknowledged
    # against the record before it; its syntax finding already names the real problem.
    if all(record.declaration is not None for record in history.records.values()):
        findings.extend(check_current(history, inventory, config, snapshots,
                                      lambda: _changed_places(config, history, inventory)))
    # Before the first record the baseline writes the generated files; its one finding says so.
    generated = generated_files(config, inventory, history) if history.records else []
    if any(finding.id in DAMAGED_RECORD for finding in findings):
        # The catalog and the format references are views of the history: while a record is damaged they
        # cannot be current, and the record's own finding names the problem.
        inventory_path = config.path(config.schemas_dir) / "inventory.json"
        generated = [file for file in generated if file.path == inventory_path]
    for stale in stale_files(generated):
        error = _unreadable(stale.path)
        findings.append(Finding("generated-stale", stale.path.relative_to(config.project_root).as_posix(),
                                {"variant": "unreadable", "error": error} if error else {}))
    for obsolete in obsolete_files(config, generated) if len(generated) > 1 else ():
        findings.append(Finding("generated-stale", obsolete.relative_to(config.project_root).as_posix(),
                                {"variant": "obsolete"}))
    from govern.catalog.archive import check_archive

    findings.extend(check_archive(config))  # its format only: the archive acknowledges nothing
    return sorted(set(findings), key=Finding.sort_key), inventory, history


def _unreadable(path: Path) -> str | None:
    """Why an existing generated file cannot be read (so it is not reported as merely out of date)."""
    if not path.exists():
        return None
    if path.is_dir():
        return "it is a folder"
    try:
        path.read_bytes()
    except OSError as error:
        return error.strerror or str(error)
    return None


def check_chains(history: History) -> list[Finding]:
    findings = []
    for record in history.records.values():
        if record.declaration is None:
            continue
        for entry in record.declaration.entries:
            if entry.predecessor is None:
                continue
            predecessor = history.records.get(entry.predecessor)
            if predecessor is None or predecessor.declaration is None or predecessor.declaration.entry(entry.root) is None:
                findings.append(Finding("predecessor-missing", record.source_file,
                                        {"predecessor": entry.predecessor, "root": entry.root}, root=entry.root))
            elif predecessor.declaration.date > record.declaration.date:
                findings.append(Finding("history-order", record.source_file,
                                        {"date": record.declaration.date, "predecessor": predecessor.id,
                                         "root": entry.root}, root=entry.root))
            elif predecessor.link != entry.predecessor_link:
                findings.append(Finding("predecessor-edited", predecessor.source_file,
                                        {"predecessor": predecessor.id, "record": record.id}, root=entry.root))
    for (predecessor, root), successors in sorted(history.successors.items()):
        if len(successors) > 1:
            findings.append(Finding("history-fork", history.records[successors[-1]].source_file,
                                    {"successors": ", ".join(successors), "predecessor": predecessor, "root": root,
                                     "last": successors[-1], "previous": successors[-2]}, root=root))
    for root, record_ids in sorted(history.by_root.items()):
        for start in record_ids:
            seen: list[str] = []
            current: str | None = start
            while current is not None and current in history.records:
                if current in seen:
                    cycle = " -> ".join(seen[seen.index(current):] + [current])
                    findings.append(Finding("history-cycle", history.records[start].source_file,
                                            {"root": root, "cycle": cycle}, root=root))
                    break
                seen.append(current)
                declaration = history.records[current].declaration
                entry = declaration.entry(root) if declaration else None
                current = entry.predecessor if entry else None
    return findings


def check_decisions(history: History, snapshots: dict[str, list[TypeGraph]],
                    edited: set[tuple[str | None, str]] = frozenset()) -> list[Finding]:
    """Declared decisions against the inferred ones, each decided in the compatibility mode its record
    stored (a record without one: persistence), a change of mode since the predecessor included."""
    findings = []
    for record in history.records.values():
        declaration = record.declaration
        if declaration is None or record.id not in snapshots:
            continue
        # An entry declared version-bump cannot be too weak. The others are classified together per
        # predecessor and stored mode: one comparison of the two snapshots, whose digests are computed once.
        by_predecessor: dict[tuple[str | None, str], list] = {}
        for entry in declaration.entries:
            if entry.decision == VERSION_BUMP:
                continue
            if entry.predecessor is not None and (
                    entry.predecessor not in snapshots
                    or (entry.root, history.records[entry.predecessor].source_file) in edited):
                continue
            by_predecessor.setdefault((entry.predecessor, entry.mode), []).append(entry)
        minimums: dict[str, str | None] = {}
        for (predecessor, mode), entries in by_predecessor.items():
            roots = [entry.root for entry in entries]
            old = root_graphs(snapshots[predecessor], *roots) if predecessor is not None else []
            new = root_graphs(snapshots[record.id], *roots)
            previous = history.records[predecessor].declaration if predecessor is not None else None
            recorded = {root: earlier.mode for root in roots
                        if previous is not None and (earlier := previous.entry(root)) is not None
                        and earlier.after is not None}
            results = apply_modes(classify(old, new, routes=False), {source_of(root): mode for root in roots},
                                  lambda root: against_each(root, chain_graphs(
                                      history, root, predecessor_of(history, predecessor, root)), new), recorded)
            minimums.update({result.root: result.minimum for result in results if result.root in roots})
        for entry in declaration.entries:
            minimum = minimums.get(entry.root)
            if minimum == VERSION_BUMP and entry.decision != VERSION_BUMP:
                findings.append(Finding("decision-too-weak", record.source_file,
                                        {"root": entry.root, "decision": entry.decision, "minimum": minimum,
                                         "record": record.id, "mode": entry.mode},
                                        root=entry.root))
    return findings


def _recorded_variant(snapshot: list[TypeGraph] | None, inventory: Inventory, root_id: str) -> str:
    """`recorded-bump` when the change is a version-bump (its hint says to raise the format version)."""
    if not snapshot:
        return "recorded"
    current = root_graphs([inventory.graph(inventory.roots[root_id].source)], root_id)
    results = classify(root_graphs(snapshot, root_id), current, routes=False)
    return "recorded-bump" if results and results[0].minimum == VERSION_BUMP else "recorded"


def _recorded_role(graphs: list[TypeGraph], root_id: str) -> str | None:
    for graph in graphs:
        if root_id in graph.roots:
            return graph.roots[root_id].role
    return None


# What changed in a root, as a finding's message lists it: the first few changes, then how many more.
LISTED_CHANGES = 3
CHANGE_ITEM = {"en": "{sentence} at {path} ({decision})", "zh": "在 {path} {sentence}（{decision}）"}
CHANGE_LIST = {"en": ("; ", "; and {count} more"), "zh": ("；", "；另有 {count} 项")}


def changes_summary(changes, language: str) -> str:
    """The changes of a root in one line of the language: sentence, place and decision of each."""
    from govern.classify.explain import explain_change
    from govern.terms import value_term

    items = [CHANGE_ITEM[language].format(sentence=explain_change(change).text(language), path=change.location,
                                          decision=value_term(change.decision, language))
             for change in changes[:LISTED_CHANGES]]
    separator, more = CHANGE_LIST[language]
    rest = len(changes) - LISTED_CHANGES
    return separator.join(items) + (more.format(count=rest) if rest > 0 else "")


# root -> (file, line, what changed per language, minimum decision)
Places = dict[str, tuple[str, int | None, dict[str, str], str | None]]


def _changed_places(config: Config, history: History, inventory: Inventory) -> Places:
    """Where each root that differs from its latest record is written, and what changed in it."""
    from govern.records.create import pending_changes
    from govern.sources.locate import root_locations

    if not history.records:
        return {}
    locations = root_locations(config, list(inventory.graphs))
    places = {}
    for result in pending_changes(config, history, list(inventory.graphs)):
        file, _, line = locations.get(result.root, "").partition(":")
        summary = {language: changes_summary(result.changes, language) or result.minimum or ""
                   for language in CHANGE_ITEM}
        places[result.root] = (file, int(line) if line.isdigit() else None, summary, result.minimum)
    return places


def check_current(history: History, inventory: Inventory, config: Config,
                  snapshots: dict[str, list[TypeGraph]] | None = None,
                  locate: Callable[[], Places] | None = None) -> list[Finding]:
    """Each root's latest record against the current source. `locate()` gives where and how the changed
    roots changed (see `_changed_places`); it classifies every root, so it is asked only once a root differs."""
    snapshots = snapshots or {}
    places: Places | None = None
    findings = []
    records_dir = config.records_dir
    if not history.records and inventory.roots:
        return [Finding("unacknowledged-root", f"{records_dir}/",
                        {"variant": "baseline", "count": len(inventory.roots), "roots": ", ".join(inventory.roots),
                         "command": BASELINE_HINT})]
    # A forked root has no single latest record; the fork's own finding says how to get one back.
    forked = {root for (_, root), successors in history.successors.items() if len(successors) > 1}
    modes = {source.name: source.mode for source in config.sources}
    for root_id, root in inventory.roots.items():
        if root_id in forked:
            continue
        latest = history.latest(root_id)
        command = NEW_RECORD_HINT.format(slug="change-" + suggested_slug(root_id))
        if latest is None:
            findings.append(Finding("unacknowledged-root", f"{records_dir}/", {"root": root_id, "command": command},
                                    root=root_id))
            continue
        declaration = history.records[latest].declaration
        entry = declaration.entry(root_id) if declaration else None
        if entry is None:
            continue
        recorded_role = _recorded_role(snapshots.get(latest, []), root_id)
        current_version = inventory.graph(root.source).format_version
        mode = modes.get(root.source, PERSISTENCE)
        if entry.after != root.digest:
            if places is None:
                places = locate() if locate is not None else {}
            file, line, changes, minimum = places.get(root_id, ("", None, {}, None))
            if entry.after is None:
                state = {"variant": "removed"}
            elif file and changes.get("en"):
                # The annotation belongs where the type is written, saying what changed there.
                state = {"variant": "changed-bump" if minimum == VERSION_BUMP else "changed",
                         "recorded": entry.after, "changes": changes["en"], "changes@zh": changes["zh"],
                         "mode": mode}
            else:
                state = {"variant": _recorded_variant(snapshots.get(latest), inventory, root_id),
                         "recorded": entry.after}
        elif not same_version(entry.format_after, current_version):
            # The writer constant is part of what is acknowledged, though it is not part of the digest.
            state = {"variant": "format-version", "recorded": show_version(entry.format_after),
                     "current": show_version(current_version)}
        elif recorded_role is not None and recorded_role != root.role:
            state = {"variant": "role", "recorded": recorded_role, "current": root.role}
        elif entry.mode != mode:
            # How later changes are decided is part of what is acknowledged: a weaker mode must not slip in.
            state = {"variant": "mode", "recorded": entry.mode, "current": mode, "mode": mode}
        else:
            continue
        located = state["variant"] in ("changed", "changed-bump")
        findings.append(Finding("unacknowledged-change", file if located else history.records[latest].source_file,
                                {**state, "root": root_id, "digest": root.digest, "record": latest,
                                 "command": command}, root=root_id, line=line if located else None))
    for root_id in sorted(history.by_root.keys() - inventory.roots.keys()):
        latest = history.latest(root_id)
        declaration = history.records[latest].declaration if latest else None
        entry = declaration.entry(root_id) if declaration else None
        if entry is not None and entry.after is not None:
            command = TOMBSTONE_HINT.format(slug="retire-" + suggested_slug(root_id.split(":")[-1]))
            findings.append(Finding("unacknowledged-removal", history.records[latest].source_file,
                                    {"root": root_id, "record": latest, "command": command}, root=root_id))
    return findings
