"""The strict JSON reader's fast path parses with no Python call per object and proves what the C parser
cannot see (duplicate keys, depth, integers beyond 64 bits) from a compact re-serialization; whatever that
proof accepts, the positional parser accepts with the same value, and whatever it refuses is refused with
the positional parser's message."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import govern.reader as reader
from govern.errors import InputError
from govern.reader import MAX_DEPTH, _Fault, _parse_located, parse_json


def _typed(value):
    """A value with its JSON types spelled out (Python's 1 == 1.0 == True would hide a difference)."""
    if isinstance(value, dict):
        return ("object", tuple((key, _typed(item)) for key, item in value.items()))
    if isinstance(value, list):
        return ("array", tuple(_typed(item) for item in value))
    return (type(value).__name__, repr(value))


def _outcome(parse, text):
    try:
        return ("value", _typed(parse(text)))
    except InputError as error:
        problem = error.problems[0]
        return ("refused", problem.line, problem.column, problem.reason)
    except _Fault as fault:
        return ("refused", fault.offset, fault.reason)


def _agree(text: str) -> None:
    fast = _outcome(lambda t: parse_json(t, "x"), text)
    slow = _outcome(_parse_located, text)
    assert fast[0] == slow[0], text
    if fast[0] == "value":
        assert fast[1] == slow[1], text


def test_the_installed_orjson_is_the_one_the_proof_relies_on():
    assert reader.compact_serializer() is not None


def test_an_ordinary_document_needs_no_python_call_per_object(monkeypatch):
    calls = []
    original = reader._fast_pairs

    def counting(pairs):
        calls.append(len(pairs))
        return original(pairs)

    monkeypatch.setattr(reader, "_fast_pairs", counting)
    document = {"type": "object", "properties": {f"p{index}": {"type": "string", "pattern": "^a:b$",
                                                                "description": "see http://x: y"}
                                                  for index in range(50)}}
    assert parse_json(json.dumps(document, indent=2), "x") == document
    assert calls == []


@pytest.mark.parametrize("text, key", [
    ('{"a": 1, "a": 2}', "a"),
    ('{"a": "x:y", "a": 2}', "a"),  # the dropped value held a colon
    ('{"a": 1, "b": {"c": [{"d": 1, "d": 1}]}}', "d"),
    ('{"a": "\\u003a", "a": "::"}', "a"),  # an escaped colon beside literal ones
    ('{"\\u003a": 1, ":": 2}', ":"),  # the same key, once escaped
    ('{"a\\u003A": 1, "a:": 2, "b": "\\u003a\\u003a"}', "a:"),
])
def test_duplicate_keys_are_refused_whatever_colons_surround_them(text, key):
    with pytest.raises(InputError) as caught:
        parse_json(text, "doc.json")
    assert f"duplicate key {json.dumps(key)}" in caught.value.problems[0].reason
    _agree(text)


@pytest.mark.parametrize("levels", [MAX_DEPTH - 1, MAX_DEPTH, MAX_DEPTH + 1])
@pytest.mark.parametrize("inner", ["[]", "{}", "1", '"x"'])
def test_depth_is_judged_exactly_at_the_limit(levels, inner):
    text = inner
    for level in range(levels):
        text = f'{{"k{level}": {text}, "n": 1}}' if level % 2 else f"[0, {text}]"
    containers = levels + (inner in ("[]", "{}"))
    outcome = _outcome(lambda t: parse_json(t, "x"), text)
    assert outcome[0] == ("value" if containers <= MAX_DEPTH else "refused")
    _agree(text)


@pytest.mark.parametrize("literal", ["9223372036854775807", "-9223372036854775808", "18446744073709551616",
                                     "-18446744073709551617", "1" + "0" * 300, "9" * 309, "1" + "0" * 309,
                                     "1e-400", "1e400", "0e999", "5e-324", "-0.0"])
def test_numbers_at_the_edges_mean_what_the_positional_parser_says(literal):
    _agree(f'{{"n": {literal}, "a": [{literal}]}}')


# --- random documents with duplicates, escapes and nesting -------------------------------------------------

_KEYS = st.sampled_from(["a", "b", ":", "a:b", "x", ""])
_STRINGS = st.sampled_from(["", "a", ":", "a:b", "::", "u003a", "\\", '"', "é"])
_LEAVES = (st.none() | st.booleans() | st.integers(-(2 ** 70), 2 ** 70) | st.sampled_from([0.5, -0.0, 1e300])
           | _STRINGS)


def _tree():
    # Objects are lists of (key, value) pairs, so a text may hold one key twice.
    return st.recursive(_LEAVES, lambda inner: st.lists(inner, max_size=3).map(lambda items: ("array", items))
                        | st.lists(st.tuples(_KEYS, inner), max_size=3).map(lambda pairs: ("object", pairs)),
                        max_leaves=12)


def _string(value: str, escape: bool) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text.replace(":", "\\u003a") if escape else text


def _write(tree, escape: st.DataObject, wrap: int) -> str:
    if isinstance(tree, tuple) and tree[0] == "array":
        text = "[" + ", ".join(_write(item, escape, 0) for item in tree[1]) + "]"
    elif isinstance(tree, tuple):
        text = "{" + ", ".join(f"{_string(key, escape.draw(st.booleans()))} : {_write(item, escape, 0)}"
                               for key, item in tree[1]) + "}"
    elif isinstance(tree, str):
        text = _string(tree, escape.draw(st.booleans()))
    else:
        text = json.dumps(tree)
    return "[" * wrap + text + "]" * wrap


@settings(settings.get_profile("hostile"))
@given(_tree(), st.data(), st.sampled_from([0, 0, MAX_DEPTH - 3, MAX_DEPTH - 1]))
def test_the_fast_path_agrees_with_the_positional_parser_on_random_documents(tree, data, wrap):
    _agree(_write(tree, data, wrap))
