"""Records in predecessor order, ids breaking ties: the order the catalog history and the format references
follow. Found with a heap of ready records and each record's successors (a long history orders in
O(n log n)); the same order as placing, one at a time, the smallest id whose predecessors are placed."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from govern.records.format import Declaration, Entry
from govern.records.history import Record, build_history

DIGEST = "sha256:" + "0" * 64


def _reference_order(records: dict[str, Record]) -> list[str]:
    """The definition, placed one record at a time (quadratic, for comparison)."""
    readable = {record_id: record for record_id, record in records.items() if record.declaration}
    waiting = {record_id: {entry.predecessor for entry in record.declaration.entries
                           if entry.predecessor in readable and entry.predecessor != record_id}
               for record_id, record in readable.items()}
    order: list[str] = []
    while True:
        ready = sorted(record_id for record_id, before in waiting.items()
                       if record_id not in order and before <= set(order))
        if not ready:
            break
        order.append(ready[0])
    return order + sorted(set(readable) - set(order))


@st.composite
def histories(draw) -> dict[str, Record]:
    count = draw(st.integers(1, 12))
    ids = [f"2026-12-{day:02d}-r{index}" for index, day in
           enumerate(draw(st.lists(st.integers(1, 28), min_size=count, max_size=count)))]
    records = {}
    for record_id in ids:
        roots = draw(st.lists(st.sampled_from(["a:A", "a:B", "b:C"]), min_size=1, max_size=3, unique=True))
        # Any other record may be named as predecessor (cycles and forks included: the order stays total).
        entries = tuple(Entry(root=root, decision="same-version", after=DIGEST,
                              predecessor=draw(st.one_of(st.none(), st.sampled_from(ids), st.just("2026-01-01-gone"))))
                        for root in roots)
        record = Record(record_id, Path("records"), Path("."))
        record.declarations["en"] = Declaration(record_id, record_id[:10], False, entries)
        records[record_id] = record
    return records


@settings(max_examples=200, deadline=None)
@given(histories())
def test_records_are_ordered_predecessors_first_smallest_id_next(records):
    history = build_history(records)
    assert [record.id for record in history.ordered()] == _reference_order(records)


def test_a_long_chain_is_ordered_from_its_first_record_whatever_the_ids_say():
    records = {}
    previous = None
    for position in range(3000):
        record_id = f"2026-12-01-r{2999 - position:04d}"  # ids fall along the chain
        record = Record(record_id, Path("records"), Path("."))
        record.declarations["en"] = Declaration(record_id, "2026-12-01", previous is None, (
            Entry(root="a:A", decision="same-version", after=DIGEST, predecessor=previous),))
        records[record_id] = record
        previous = record_id
    assert [record.id for record in build_history(records).ordered()] == sorted(records, reverse=True)
