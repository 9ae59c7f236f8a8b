"""Invariances of the classifier, checked on random graphs and random mutations (hypothesis).

- a graph compared with itself has no change;
- renaming definitions or reordering properties, enum values, anyOf alternatives and required names is no
  change;
- every structural mutation that can break old data or old readers is a version-bump, never same-version;
- the only same-version mutations (an optional property added to an open object, a required property made
  optional) come out same-version, and an allowed change never hides a breaking one made with it.
"""

from __future__ import annotations

import json
import string

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import (  # noqa: E402 - the folder's helpers
    BASE_INLINE, BASE_WITH_DEFS, BREAKING_MUTATIONS, SAME_VERSION_MUTATIONS, SOURCE, fixture_cases, mutate, rename_definitions,
    reorder,
)
from govern.classify.classify import classify
from govern.sources.load import load_spec

BASES = {"inline": BASE_INLINE, "defs": BASE_WITH_DEFS}
PROFILE = settings.get_profile("classify")
DOC = f"{SOURCE}:Doc"


def _all_unchanged(roots: dict[str, dict]) -> None:
    for root, entry in roots.items():
        assert entry["decision"] == "unchanged", (root, entry)
        assert entry["changes"] == [] and entry["before"] == entry["after"]


@pytest.mark.parametrize("path", sorted({str(p) for case in fixture_cases() for p in (case.old, case.new)})
                         + ["schemas/coauthoring-sidecar.schema.json", "schemas/grp-coordination.openapi.json"])
def test_every_fixture_and_contract_is_unchanged_against_itself(path, helpers):
    full = helpers.repo_root / path
    new = load_spec(str(full))
    old = load_spec(str(full), source=new.source)
    results = classify([old], [new])
    assert results
    _all_unchanged({result.root: result.to_json() for result in results})


@settings(PROFILE)
@given(data=st.data(), base=st.sampled_from(sorted(BASES)), steps=st.integers(0, 3))
def test_a_mutated_graph_is_unchanged_against_itself(pair_classifier, data, base, steps):
    schema = BASES[base]
    for _ in range(steps):
        schema, _ = mutate(schema, data.draw, BREAKING_MUTATIONS + SAME_VERSION_MUTATIONS)
    _all_unchanged(pair_classifier.classify(schema, json.loads(json.dumps(schema))))


@settings(PROFILE)
@given(data=st.data(), base=st.sampled_from(sorted(BASES)), rnd=st.randoms(use_true_random=False))
def test_reordering_is_no_change(pair_classifier, data, base, rnd):
    schema = BASES[base]
    if data.draw(st.booleans()):  # reorder a mutated graph too, not only the base
        schema, _ = mutate(schema, data.draw, BREAKING_MUTATIONS + SAME_VERSION_MUTATIONS)
    _all_unchanged(pair_classifier.classify(schema, reorder(schema, rnd)))


definition_names = st.text(alphabet=string.ascii_letters + string.digits + "_", min_size=1, max_size=8).filter(
    lambda name: name[0].isalpha())


@settings(PROFILE)
@given(names=st.lists(definition_names, min_size=len(BASE_WITH_DEFS["$defs"]),
                      max_size=len(BASE_WITH_DEFS["$defs"]), unique=True),
       rnd=st.randoms(use_true_random=False), shuffle=st.booleans())
def test_renaming_definitions_is_no_change(pair_classifier, names, rnd, shuffle):
    renamed = rename_definitions(BASE_WITH_DEFS, dict(zip(BASE_WITH_DEFS["$defs"], names)))
    if shuffle:
        renamed = reorder(renamed, rnd)
    _all_unchanged(pair_classifier.classify(BASE_WITH_DEFS, renamed))


@settings(PROFILE)
@given(data=st.data(), base=st.sampled_from(sorted(BASES)),
       mutation=st.sampled_from(BREAKING_MUTATIONS), rnd=st.randoms(use_true_random=False))
def test_a_structural_mutation_is_never_same_version(pair_classifier, data, base, mutation, rnd):
    mutated, applied = mutate(BASES[base], data.draw, (mutation,))
    if data.draw(st.booleans()):
        mutated = reorder(mutated, rnd)
    entry = pair_classifier.classify(BASES[base], mutated)[DOC]
    assert entry["decision"] == "version-bump", (applied, entry)
    assert all(change["decision"] == "version-bump" for change in entry["changes"]), entry


@settings(PROFILE)
@given(data=st.data(), base=st.sampled_from(sorted(BASES)), mutation=st.sampled_from(SAME_VERSION_MUTATIONS),
       steps=st.integers(1, 3))
def test_same_version_mutations_are_same_version(pair_classifier, data, base, mutation, steps):
    mutated = BASES[base]
    for _ in range(steps):
        mutated, _ = mutate(mutated, data.draw, (mutation,))
    entry = pair_classifier.classify(BASES[base], mutated)[DOC]
    assert entry["decision"] == "same-version", entry
    assert {change["rule"] for change in entry["changes"]} <= {"optional-property-added", "required-made-optional"}


@settings(PROFILE)
@given(data=st.data(), base=st.sampled_from(sorted(BASES)), allowed=st.sampled_from(SAME_VERSION_MUTATIONS),
       breaking=st.sampled_from(BREAKING_MUTATIONS))
def test_an_allowed_change_never_hides_a_breaking_one(pair_classifier, data, base, allowed, breaking):
    allowed_only, _ = mutate(BASES[base], data.draw, (allowed,))
    both, _ = mutate(allowed_only, data.draw, (breaking,))
    assert pair_classifier.classify(allowed_only, both)[DOC]["decision"] == "version-bump"
    entry = pair_classifier.classify(BASES[base], both)[DOC]
    # The breaking mutation may undo the allowed one (remove the property just added): then nothing changed.
    assert entry["decision"] in ("version-bump", "unchanged"), entry
    if entry["decision"] == "unchanged":
        assert entry["before"] == entry["after"]
