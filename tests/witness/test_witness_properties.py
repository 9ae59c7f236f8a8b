"""Every shown witness is what it claims: checked against the source files themselves, not govern's export.

Schema pairs come from the classifier tests' bases and mutations (breaking and same-version ones, with
and without references). For each pair, every witness the search shows must be accepted by the schema
that wrote it and rejected by the one that reads it, validated by jsonschema straight from the source
documents; searching twice gives the same witnesses; and no same-version pair has a document that breaks
a direction it promises.
"""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from conftest import fixtures  # noqa: E402 - the folder's helpers
from govern.classify.classify import classify
from govern.sources.jsonschema import load_jsonschema
from govern.witness.search import find_witnesses

ROOTS = {"Doc": ("#", "record")}
BASES = (fixtures.BASE_INLINE, fixtures.BASE_WITH_DEFS)


def _search(tmp_path, old: dict, new: dict):
    paths = []
    for name, schema in (("old", old), ("new", new)):
        path = tmp_path / f"{name}.schema.json"
        path.write_text(json.dumps(schema), encoding="utf-8")
        paths.append(path)
    graphs = [load_jsonschema(fixtures.SOURCE, path, ROOTS, None) for path in paths]
    results = classify([graphs[0]], [graphs[1]])
    return results, find_witnesses(results, [graphs[0]], [graphs[1]])


def _witnesses(report):
    return {key: entry.witness for key, entry in report.by_change.items() if entry.witness is not None}


@settings(max_examples=25, deadline=None, derandomize=True)
@given(st.sampled_from(BASES), st.data())
def test_every_shown_witness_is_confirmed_by_the_sources(tmp_path_factory, base, data):
    tmp_path = tmp_path_factory.mktemp("witness-pairs")
    mutations = data.draw(st.sampled_from([fixtures.BREAKING_MUTATIONS, fixtures.SAME_VERSION_MUTATIONS]))
    new, _ = fixtures.mutate(base, data.draw, mutations)
    old_is_base = data.draw(st.booleans())
    old, new = (base, new) if old_is_base else (new, base)
    results, report = _search(tmp_path, old, new)
    validators = {"old": Draft202012Validator(old), "new": Draft202012Validator(new)}
    for witness in _witnesses(report).values():
        assert validators[witness.accepted_by].is_valid(witness.document), witness
        assert not validators[witness.rejected_by].is_valid(witness.document), witness
        assert {witness.accepted_by, witness.rejected_by} == {"old", "new"}
    again = find_witnesses(*_graphs_of(tmp_path))
    assert {key: witness.to_json() for key, witness in _witnesses(again).items()} == \
        {key: witness.to_json() for key, witness in _witnesses(report).items()}
    if all(result.minimum == "same-version" for result in results):
        assert report.unsound == [], report.unsound


def _graphs_of(tmp_path):
    graphs = [load_jsonschema(fixtures.SOURCE, tmp_path / f"{name}.schema.json", ROOTS, None)
              for name in ("old", "new")]
    return classify([graphs[0]], [graphs[1]]), [graphs[0]], [graphs[1]]
