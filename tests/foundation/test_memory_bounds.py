"""Reading keeps memory in proportion to the input: tables of repeated subschemas keyed by their compact text
hold each text at its own size (orjson's bytes keep the whole buffer they were written into, four kilobytes
at least, so a table of small texts would otherwise hold forty times their size)."""

from __future__ import annotations

import json
import tracemalloc
from pathlib import Path

import orjson

from govern.reader import kept_text
from govern.records.snapshot import snapshot_document
from govern.records.written_snapshot import read_written_snapshot
from govern.sources.jsonschema import load_jsonschema

# Types, each with properties of small schemas that differ from type to type (so reading keeps a text per
# property schema): the tables of a real source of many types.
TYPES = 300


def _many_small_schemas() -> dict:
    definitions = {}
    for index in range(TYPES):
        definitions[f"T{index}"] = {"type": "object", "required": ["id"], "properties": {
            "id": {"type": "string", "maxLength": index + 1},
            "count": {"type": "integer", "minimum": index},
            "tags": {"type": "array", "items": {"type": "string", "minLength": index}},
            "next": {"$ref": f"#/$defs/T{(index + 1) % TYPES}"},
        }}
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "$defs": definitions}


def _peak_traced(read) -> tuple[int, object]:
    """The most memory `read` held at once (traced Python allocations), and what it returned."""
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        start = tracemalloc.get_traced_memory()[0]
        result = read()
        peak = tracemalloc.get_traced_memory()[1] - start
    finally:
        tracemalloc.stop()
    return peak, result


def test_a_kept_text_holds_its_own_size():
    texts = [orjson.dumps({"type": "string", "maxLength": index}) for index in range(200)]
    peak, kept = _peak_traced(lambda: [kept_text(text) for text in texts])
    assert kept == texts
    assert peak < 200 * 200  # each copy well under the four kilobytes of orjson's buffer


def test_reading_a_source_of_many_small_schemas_holds_a_few_times_its_size():
    source = _many_small_schemas()
    size = len(json.dumps(source))
    peak, graph = _peak_traced(lambda: load_jsonschema("src", Path("src.json"), {}, None, adhoc=True,
                                                       source_policy=None, content=source))
    assert len(graph.types) == TYPES
    # Measured: about 17x (nodes are larger than the JSON text of a schema that nothing repeats) with texts
    # kept at their size; about 93x when each kept a four-kilobyte buffer.
    assert peak < 30 * size


def test_reading_a_snapshot_of_many_small_schemas_holds_a_few_times_its_size():
    graph = load_jsonschema("src", Path("src.json"), {}, None, adhoc=True, source_policy=None,
                            content=_many_small_schemas())
    roots = set(graph.roots)
    document = json.loads(json.dumps(snapshot_document(
        "2026-01-01-x", [graph], roots, {root: graph.digests[graph.roots[root].type_key] for root in roots}, {"src"})))
    size = len(json.dumps(document))
    peak, graphs = _peak_traced(lambda: read_written_snapshot(document, "records/x.schema.json"))
    assert graphs is not None and len(graphs[0].types) == TYPES
    # Measured: about 6x with texts kept at their size; about 65x when each kept a four-kilobyte buffer.
    assert peak < 15 * size
