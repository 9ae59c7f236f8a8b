"""The sampling oracle: no instance contradicts a direction the classifier calls non-breaking.

For each pair, instances valid under OLD are drawn (hypothesis-jsonschema) and checked against NEW, and
instances of NEW against OLD. A rejected old instance proves `old-data-new-readers`; a rejected new one
proves `new-data-old-readers`. The classifier may claim more than the sampling finds (where it cannot
prove inclusion it claims both), never less. Pairs: the direction table and random mutations of a base
schema.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import BASE_INLINE, BREAKING_MUTATIONS, SAME_VERSION_MUTATIONS, SOURCE, mutate  # noqa: E402
from direction_cases import CASES, NEW, OLD  # noqa: E402
from oracle import counterexamples  # noqa: E402

PROFILE = settings.get_profile("classify")


def claimed(entry: dict) -> set[str]:
    return {direction for change in entry["changes"] for direction in change["breaks"]}


@pytest.mark.parametrize("old, new", [pytest.param(case[1], case[2], id=case[0]) for case in CASES])
@settings(PROFILE, max_examples=3)
@given(data=st.data())
def test_no_sampled_instance_contradicts_a_claimed_direction(pair_classifier, old, new, data):
    entry = pair_classifier.classify(old, new)[f"{SOURCE}:Doc"]
    proven = counterexamples(data, old, new)
    assert proven <= claimed(entry), (proven, entry)


@settings(PROFILE, max_examples=12)
@given(data=st.data(), steps=st.integers(1, 2))
def test_random_changes_claim_every_sampled_break(pair_classifier, data, steps):
    new = BASE_INLINE
    for _ in range(steps):
        new, _ = mutate(new, data.draw, SAME_VERSION_MUTATIONS + BREAKING_MUTATIONS)
    entry = pair_classifier.classify(BASE_INLINE, new)[f"{SOURCE}:Doc"]
    proven = counterexamples(data, BASE_INLINE, new)
    assert proven <= claimed(entry), (proven, entry)


@settings(PROFILE, max_examples=3)
@given(data=st.data())
def test_the_oracle_finds_a_break_every_instance_shows(data):
    string, integer = ({"$schema": "https://json-schema.org/draft/2020-12/schema", "type": kind}
                       for kind in ("string", "integer"))
    assert counterexamples(data, string, integer) == {OLD, NEW}
