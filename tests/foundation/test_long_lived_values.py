"""What reading makes and keeps (a parsed document, the nodes normalized from it) holds no reference cycle, so
the cycle collector's young-generation passes would only walk it: reading runs none, and what it made is
moved to the oldest generation, where a full collection still finds any cycle."""

from __future__ import annotations

import gc
import json

import pytest

from govern.reader import long_lived, parse_json
from govern.sources.load import load_spec


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
