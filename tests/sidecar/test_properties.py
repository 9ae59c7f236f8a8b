"""Invariants over generated sidecars: canonical form, preservation, merge symmetry and honesty."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from govern.errors import Refusal
from govern.sidecar.canonical import canonical_bytes, stable_stringify
from govern.sidecar.fmt import prune_anchors, referenced_anchor_ids
from govern.sidecar.load import Sidecar, require_writable
from govern.sidecar.merge import merge_artifacts
from govern.sidecar.typed import dump_model, load_model
from govern.sidecar.validate import validate_artifact

PROFILE = settings.get_profile("sidecar")


def _unknown_paths(value, path=()):
    """Every (path, key) of an unknown field, where the generator marks them with an `x-` prefix."""
    found = set()
    if isinstance(value, dict):
        for key, item in value.items():
            if key.startswith("x-"):
                found.add((path, key, stable_stringify(item)))
            else:
                found |= _unknown_paths(item, path + (key,))
    elif isinstance(value, list):
        for item in value:
            identity = item.get("id", "") if isinstance(item, dict) else ""
            found |= _unknown_paths(item, path + (identity,))
    return found


def _objects(value, path=()):
    """The path of every record-like object in a sidecar (not the anchors map), as in _unknown_paths."""
    found = {path} if isinstance(value, dict) and path != ("anchors",) else set()
    if isinstance(value, dict):
        for key, item in value.items():
            if not key.startswith("x-"):
                found |= _objects(item, path + (key,))
    elif isinstance(value, list):
        for item in value:
            found |= _objects(item, path + (item.get("id", "") if isinstance(item, dict) else "",))
    return found


@PROFILE
@given(data=st.data())
def test_generated_sidecars_are_valid(gen, data):
    artifact = data.draw(gen.sidecars())
    assert validate_artifact(artifact).findings == ()


@PROFILE
@given(data=st.data())
def test_fmt_is_idempotent_and_keeps_content(gen, data):
    artifact = data.draw(gen.sidecars())
    once = canonical_bytes(artifact)
    # Read back as JavaScript reads JSON (every number a double): the same values.
    assert json.loads(once.decode("utf-8"), parse_int=float) == artifact
    reread = json.loads(once.decode("utf-8"))
    assert canonical_bytes(reread) == once
    assert once.endswith(b"\n") and not once.endswith(b"\n\n") and not once.startswith(b"\xef\xbb\xbf")


@PROFILE
@given(data=st.data(), seed=st.integers())
def test_fmt_is_stable_under_key_shuffling(gen, data, seed):
    artifact = data.draw(gen.sidecars())
    assert canonical_bytes(gen.shuffled(artifact, random.Random(seed))) == canonical_bytes(artifact)


@PROFILE
@given(data=st.data())
def test_unknown_fields_survive_model_load_and_dump(gen, data):
    artifact = data.draw(gen.sidecars(least=1))
    assert _objects(artifact) <= {path for path, _, _ in _unknown_paths(artifact)}
    dumped = dump_model(load_model(artifact))
    assert dumped == artifact
    assert canonical_bytes(dumped) == canonical_bytes(artifact)


@PROFILE
@given(data=st.data())
def test_merge_with_itself_changes_nothing_but_unreferenced_anchors(gen, data):
    artifact = data.draw(gen.sidecars())
    result = merge_artifacts(artifact, artifact)
    assert result.divergences == ()
    pruned, dropped = prune_anchors(artifact)
    assert result.pruned == dropped
    assert canonical_bytes(result.merged) == canonical_bytes(pruned)
    assert canonical_bytes(merge_artifacts(result.merged, result.merged).merged) == canonical_bytes(result.merged)


@PROFILE
@given(data=st.data())
def test_merge_is_symmetric_and_valid(gen, data):
    ours, theirs = data.draw(gen.sidecars()), data.draw(gen.sidecars())
    forward, backward = merge_artifacts(ours, theirs), merge_artifacts(theirs, ours)
    assert canonical_bytes(forward.merged) == canonical_bytes(backward.merged)
    flip = {"ours": "theirs", "theirs": "ours"}
    assert sorted((d.section, d.key, d.thread, d.rule, d.winner) for d in forward.divergences) == sorted(
        (d.section, d.key, d.thread, d.rule, flip[d.winner]) for d in backward.divergences)
    assert validate_artifact(forward.merged).findings == ()


def _ids(artifact):
    ids = {("anchor", key) for key in artifact["anchors"]}
    ids |= {("root", key) for key in artifact if key.startswith("x-")}
    for section in ("threads", "attributions", "proposals"):
        ids |= {(section, record["id"]) for record in artifact[section]}
    for thread in artifact["threads"]:
        ids |= {("message", thread["id"], message["id"]) for message in thread["messages"]}
    return ids


@PROFILE
@given(data=st.data())
def test_merge_keeps_every_id_and_every_unknown_field_of_a_winner(gen, data):
    ours, theirs = data.draw(gen.sidecars(least=1)), data.draw(gen.sidecars(least=1))
    result = merge_artifacts(ours, theirs)
    merged = result.merged
    # Only anchors go, and only those no record of the result refers to.
    assert _ids(merged) == (_ids(ours) | _ids(theirs)) - {("anchor", key) for key in result.pruned}
    assert not set(result.pruned) & referenced_anchor_ids(merged)
    assert set(merged["anchors"]) <= referenced_anchor_ids(merged)
    # Every record of the result is, whole, the record of one side: nothing inside it was dropped.
    for section in ("attributions", "proposals"):
        for record in merged[section]:
            sides = [r for r in ours[section] + theirs[section] if r["id"] == record["id"]]
            assert record in sides
    for key, anchor in merged["anchors"].items():
        assert anchor in (ours["anchors"].get(key), theirs["anchors"].get(key))
    for thread in merged["threads"]:
        sides = [t for t in ours["threads"] + theirs["threads"] if t["id"] == thread["id"]]
        shell = {k: v for k, v in thread.items() if k != "messages"}
        assert shell in [{k: v for k, v in t.items() if k != "messages"} for t in sides]
        for message in thread["messages"]:
            assert message in [m for t in sides for m in t["messages"]]


@PROFILE
@given(data=st.data())
def test_merge_reports_every_divergence_and_nothing_else(gen, data):
    ours, theirs = data.draw(gen.sidecars()), data.draw(gen.sidecars())
    expected = set()
    if stable_stringify(ours["document"]) != stable_stringify(theirs["document"]):
        expected.add(("document", "document", None))
    for key in set(ours["anchors"]) & set(theirs["anchors"]):
        if stable_stringify(ours["anchors"][key]) != stable_stringify(theirs["anchors"][key]):
            expected.add(("anchors", key, None))
    for key in {k for k in ours if k.startswith("x-")} & {k for k in theirs if k.startswith("x-")}:
        if stable_stringify(ours[key]) != stable_stringify(theirs[key]):
            expected.add(("root", key, None))
    for section in ("attributions", "proposals"):
        mine = {r["id"]: r for r in ours[section]}
        for record in theirs[section]:
            if record["id"] in mine and stable_stringify(mine[record["id"]]) != stable_stringify(record):
                expected.add((section, record["id"], None))
    mine_threads = {t["id"]: t for t in ours["threads"]}
    for thread in theirs["threads"]:
        other = mine_threads.get(thread["id"])
        if other is None:
            continue
        shells = [stable_stringify({k: v for k, v in t.items() if k != "messages"}) for t in (thread, other)]
        if shells[0] != shells[1]:
            expected.add(("threads", thread["id"], None))
        other_messages = {m["id"]: m for m in other["messages"]}
        for message in thread["messages"]:
            if message["id"] in other_messages and stable_stringify(message) != stable_stringify(
                    other_messages[message["id"]]):
                expected.add(("messages", message["id"], thread["id"]))
    reported = [(d.section, d.key, d.thread) for d in merge_artifacts(ours, theirs).divergences]
    assert len(reported) == len(set(reported))
    assert set(reported) == expected


@PROFILE
@given(data=st.data(), major=st.integers(2, 50))
def test_a_newer_major_is_never_written(gen, data, major):
    artifact = data.draw(gen.sidecars(major=major))
    report = validate_artifact(artifact)
    assert report.valid and report.newer_major
    assert [f.id for f in report.findings] == ["newer-major"]
    with pytest.raises(Refusal):
        require_writable(Sidecar(Path("x.json"), artifact, report), "format")
    with pytest.raises(Refusal):
        merge_artifacts(artifact, artifact)
    older = dict(artifact, schemaVersion=1)
    with pytest.raises(Refusal, match="majors differ"):
        merge_artifacts(older, artifact)
