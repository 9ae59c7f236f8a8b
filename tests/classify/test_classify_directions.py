"""Every change carries the directions it breaks, decided by provable inclusion (see direction_cases.py)."""

from __future__ import annotations

import pytest

from conftest import SOURCE  # noqa: E402 - the folder's helpers
from direction_cases import CASES  # noqa: E402


@pytest.mark.parametrize("old, new, expected", [pytest.param(*case[1:], id=case[0]) for case in CASES])
def test_break_directions_are_exact(pair_classifier, old, new, expected):
    entry = pair_classifier.classify(old, new)[f"{SOURCE}:Doc"]
    assert entry["changes"], entry
    assert {direction for change in entry["changes"] for direction in change["breaks"]} == expected, entry
