"""What reading makes and keeps (a parsed document, the nodes normalized from it) holds no reference cycle, so
the cycle collector's young-generation passes would only walk it: reading runs none, and what it made is
moved to the oldest generation, where a full collection still finds any cycle. That is the command line's
choice for its own process; a program using govern as a library keeps its collector as it set it."""

from __future__ import annotations

import gc
import json
from pathlib import Path

import pytest

import govern.process
from govern.process import long_lived
from govern.reader import parse_json
from govern.sources.load import load_spec


@pytest.fixture(autouse=True)
def owned_collector(monkeypatch):
    """As in govern's own process (the command line owns the collector), unless a test says otherwise."""
    monkeypatch.setattr(govern.process, "_COLLECTOR_OWNED", True)


@pytest.fixture
def frequent_collections():
    """Young-generation collections every 500 surviving objects, and a record of those that run."""
    runs: list[int] = []

    def record(phase, info):
        if phase == "start":
            runs.append(info["generation"])

    threshold = gc.get_threshold()
    gc.collect()
    gc.set_threshold(500, 10, 10)
    gc.callbacks.append(record)
    try:
        yield runs
    finally:
        gc.callbacks.remove(record)
        gc.set_threshold(*threshold)


def _young_ids() -> set[int]:
    return {id(value) for generation in (0, 1) for value in gc.get_objects(generation=generation)}


def _document(types: int) -> dict:
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "$defs": {
        f"T{index}": {"type": "object", "required": ["id"], "properties": {
            "id": {"type": "string", "maxLength": index + 1},
            "tags": {"type": "array", "items": {"type": "string", "minLength": index}},
            "next": {"anyOf": [{"$ref": f"#/$defs/T{(index + 1) % types}"}, {"type": "null"}]},
        }} for index in range(types)}}


def test_parsing_a_document_runs_no_collection_and_leaves_it_old(frequent_collections):
    text = json.dumps(_document(400))
    runs = frequent_collections
    runs.clear()
    value = parse_json(text, "doc.json")
    assert runs == []  # about 4,000 containers made: eight collections at this threshold before
    young = _young_ids()
    assert id(value) not in young and id(value["$defs"]["T7"]["properties"]) not in young
    assert gc.get_count()[0] < 500


def test_reading_a_source_runs_no_collection_and_leaves_its_nodes_old(frequent_collections, tmp_path):
    path = tmp_path / "spec.schema.json"
    path.write_text(json.dumps(_document(400)), encoding="utf-8")
    load_spec(str(path), tmp_path)  # the modules reading needs, imported (imports make objects of their own)
    runs = frequent_collections
    runs.clear()
    graph = load_spec(str(path), tmp_path)
    assert len(graph.types) == 400
    assert runs == []
    young = _young_ids()
    assert not any(id(named) in young or id(named.node) in young for named in graph.types.values())


@pytest.mark.parametrize("enabled", [True, False])
def test_the_collector_is_left_as_it_was(enabled):
    was = gc.isenabled()
    (gc.enable if enabled else gc.disable)()
    try:
        with long_lived():
            assert not gc.isenabled()
        assert gc.isenabled() is enabled
        with pytest.raises(ValueError), long_lived():
            raise ValueError
        assert gc.isenabled() is enabled
    finally:
        (gc.enable if was else gc.disable)()


def test_a_cycle_made_inside_is_still_collected():
    class Node:
        pass

    with long_lived():
        first, second = Node(), Node()
        first.other, second.other = second, first
        watched = id(first)
    del first, second
    gc.collect()
    assert watched not in {id(value) for value in gc.get_objects()}


def _snapshot(source: dict) -> dict:
    """The snapshot govern writes of every definition of a source."""
    from govern.records.snapshot import snapshot_document
    from govern.sources.jsonschema import load_jsonschema

    graph = load_jsonschema("src", Path("src.json"), {}, None, adhoc=True, source_policy=None, content=source)
    roots = set(graph.roots)
    return json.loads(json.dumps(snapshot_document("2026-01-01-x", [graph], roots, {
        root: graph.digests[graph.roots[root].type_key] for root in roots}, {"src"})))


def test_reading_a_written_snapshot_runs_no_collection_and_leaves_its_nodes_old(frequent_collections):
    from govern.records.written_snapshot import read_written_snapshot

    document = _snapshot(_document(400))
    read_written_snapshot(_snapshot(_document(2)), "records/x.schema.json")  # (imports make objects of their own)
    runs = frequent_collections
    runs.clear()
    graphs = read_written_snapshot(document, "records/x.schema.json")
    assert graphs is not None and len(graphs[0].types) == 400
    assert runs == []
    young = _young_ids()
    assert not any(id(named) in young or id(named.node) in young for named in graphs[0].types.values())


def test_classifying_runs_no_collection(frequent_collections, tmp_path):
    """The walk's tables hold no reference cycle either; every pair of types of a ring of 400 differs."""
    from govern.classify.classify import classify
    from govern.sources.jsonschema import load_jsonschema

    before, after = _document(400), _document(400)
    after["$defs"]["T0"]["properties"]["note"] = {"type": "string"}
    old, new = (load_jsonschema("ring", Path("ring.json"), {"Start": ("#/$defs/T1", "record")}, None, content=document)
                for document in (before, after))
    classify([old], [new])  # (imports make objects of their own)
    runs = frequent_collections
    runs.clear()
    results = classify([old], [new])
    assert [(change.type, change.path) for result in results for change in result.changes] == \
        [("T0", "/properties/note")]
    assert runs == []


def test_computing_digests_runs_no_collection(frequent_collections, tmp_path):
    """The memo and compiled rounds of the digests are freed by reference counting when the computation ends:
    a ring of 400 types (one recursive component) and 400 acyclic ones are hashed without a collection."""
    from govern.model.fingerprint import DOMAINS, type_digests

    ring = _document(400)
    chain = _document(400)
    for index in range(400):  # T399 refers to nothing: the chain is acyclic
        chain["$defs"][f"T{index}"]["properties"]["next"]["anyOf"][0]["$ref"] = f"#/$defs/T{min(index + 1, 399)}"
    chain["$defs"]["T399"]["properties"].pop("next")
    graphs = []
    for name, document in (("ring", ring), ("chain", chain)):
        path = tmp_path / f"{name}.schema.json"
        path.write_text(json.dumps(document), encoding="utf-8")
        graphs.append(load_spec(str(path), tmp_path))
    type_digests(graphs[0].types, DOMAINS[1])  # (imports make objects of their own)
    runs = frequent_collections
    for graph in graphs:
        runs.clear()
        digests = type_digests(graph.types, DOMAINS[1])
        assert len(digests) == 400 and len(set(digests.values())) == 400
        assert runs == []


def test_the_command_line_owns_the_collector(monkeypatch):
    import sys

    from govern.cli import main

    monkeypatch.setattr(govern.process, "_COLLECTOR_OWNED", False)
    monkeypatch.setattr(sys, "argv", ["govern", "--version"])
    threshold = gc.get_threshold()
    try:
        with pytest.raises(SystemExit):
            main()
        assert govern.process._COLLECTOR_OWNED
        assert gc.get_threshold() == (100_000, 50, 1_000)
    finally:
        gc.set_threshold(*threshold)


def test_a_library_caller_keeps_its_collector(monkeypatch, tmp_path):
    """Used as a library, reading changes nothing of the process's collector: it stays enabled or not, what the
    caller froze stays frozen, and the caller's own garbage is still found by young-generation collections."""
    monkeypatch.setattr(govern.process, "_COLLECTOR_OWNED", False)
    path = tmp_path / "spec.schema.json"
    path.write_text(json.dumps(_document(50)), encoding="utf-8")
    load_spec(str(path), tmp_path)

    class Garbage:
        pass

    kept = [[index] for index in range(1000)]
    gc.freeze()
    try:
        frozen = gc.get_freeze_count()
        with long_lived():
            assert gc.isenabled()
        for _ in range(3):
            first, second = Garbage(), Garbage()
            first.other, second.other = second, first
            watched = id(first)
            del first, second
            load_spec(str(path), tmp_path)
            assert gc.get_freeze_count() == frozen
            gc.collect(0)  # a young-generation collection finds the caller's cycle made just before
            assert watched not in {id(value) for value in gc.get_objects()}
    finally:
        gc.unfreeze()
    assert kept
