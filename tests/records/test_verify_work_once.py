"""`govern verify` does each piece of work once: a record's snapshot is parsed and normalized once, the
digests of a graph are computed once however many roots and records ask, and nothing locates or
classifies changes of roots that agree with their records."""

from __future__ import annotations

from collections import Counter

import govern.model.graph
import govern.records.create
import govern.records.snapshot
from govern.config import load_config
from govern.verify.checks import verify_project

from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]


def test_verify_of_this_repository_computes_each_graphs_digests_once(monkeypatch):
    calls: Counter = Counter()
    original = govern.model.graph.type_digests

    def counted(types, domain, **options):
        calls[(id(types), domain)] += 1
        return original(types, domain, **options)

    monkeypatch.setattr(govern.model.graph, "type_digests", counted)
    findings, _, _ = verify_project(load_config(REPO_ROOT))
    assert findings == []
    assert calls and max(calls.values()) == 1


def test_verify_of_this_repository_normalizes_each_snapshot_once(monkeypatch):
    calls: Counter = Counter()
    original = govern.records.snapshot.load_snapshot

    def counted(document, origin):
        calls[origin] += 1
        return original(document, origin)

    monkeypatch.setattr(govern.records.snapshot, "load_snapshot", counted)
    findings, _, history = verify_project(load_config(REPO_ROOT))
    assert findings == []
    assert set(calls) == {record.relative("schema") for record in history.records.values()}
    assert max(calls.values()) == 1


def test_a_clean_verify_neither_locates_nor_classifies_the_current_roots(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("changes located although every root agrees with its latest record")

    monkeypatch.setattr(govern.records.create, "pending_changes", refuse)
    findings, _, _ = verify_project(load_config(REPO_ROOT))
    assert findings == []


def test_a_changed_root_is_still_located(project):
    project.add_sidecar_thread_property("label", {"type": "string"})
    changed = [finding for finding in project.findings() if finding["id"] == "unacknowledged-change"]
    assert len(changed) == 1
    assert changed[0]["path"].startswith("schemas/coauthoring-sidecar.schema.json") and changed[0]["line"]


def test_verify_classifies_the_whole_history_in_one_thread(project, monkeypatch):
    """Classification runs in a thread with a deep stack; one for every record of the history, not one each."""
    import threading

    for name in ("label", "colour"):
        project.add_sidecar_thread_property(name, {"type": "string"})
        project.write_prose()
        assert project.new_record(f"add-{name}").exit_code == 0
    started: list[str] = []
    original = threading.Thread.start

    def counted(thread):
        started.append(thread.name)
        return original(thread)

    monkeypatch.setattr(threading.Thread, "start", counted)
    findings, _, history = verify_project(load_config(project.root))
    assert findings == [] and len(history.records) == 5
    assert started.count("govern-classify") == 1
