"""Canonical JSON of any value the strict reader admits: RFC 8785 where a double holds the number exactly,
and integers written exactly everywhere (the fast path already writes them so), never a traceback."""

from __future__ import annotations

import json

import pytest
import rfc8785
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import invoke
from govern.model.canonical import canonical_json

SAFE = 2**53 - 1  # rfc8785 refuses integers a double cannot hold exactly
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-SAFE, SAFE) | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=4), children, max_size=4),
    max_leaves=12)


@settings(max_examples=300)
@given(json_values)
def test_canonical_json_is_rfc8785_within_the_safe_integer_domain(value):
    assert canonical_json(value) == rfc8785.dumps(value).decode("utf-8")


@pytest.mark.parametrize("make, large, text", [
    (lambda n: [0.5, n], 2**53 + 1, "[0.5,9007199254740993]"),
    (lambda n: {"é": n, "a": 1.5}, 2**53 + 1, '{"a":1.5,"é":9007199254740993}'),
    (lambda n: {"é": n}, -(2**64), '{"é":-18446744073709551616}'),
], ids=["list", "object", "negative"])
def test_integers_beyond_a_double_are_written_exactly(make, large, text):
    assert canonical_json(make(large)) == text
    # A double would round both to the same number; their canonical texts stay apart.
    assert float(large) == float(large - 1) and canonical_json(make(large - 1)) != text


@pytest.mark.parametrize("schema", [
    {"type": "array", "x-limits": [0.5, 2**53 + 1]},
    {"type": "object", "x-limits": {"é": 2**53 + 1}},
    {"enum": [0.5, 2**53 + 1]},
], ids=["list-with-a-float", "non-ascii-key", "enum"])
def test_digests_of_a_schema_holding_a_large_integer(tmp_path, schema):
    path = tmp_path / "large.json"
    path.write_text(json.dumps(schema), encoding="utf-8")
    result = invoke("digests", str(path))
    assert result.exit_code == 0, result.output
    assert result.output.startswith("large:large  sha256:")
    bumped = json.loads(json.dumps(schema).replace("9007199254740993", "9007199254740995"))
    path.write_text(json.dumps(bumped), encoding="utf-8")
    assert invoke("digests", str(path)).output != result.output


def test_the_unknown_dialect_message_names_each_dialect_once(tmp_path):
    path = tmp_path / "foreign.json"
    path.write_text(json.dumps({"$schema": "https://example.com/meta", "type": "object"}), encoding="utf-8")
    result = invoke("digests", str(path))
    assert result.exit_code == 2
    listed = result.stderr.partition("use one of ")[2].partition(" in $schema")[0]
    assert listed.split(", ") == ["2019-09", "2020-12", "draft-04", "draft-06", "draft-07"], result.stderr
