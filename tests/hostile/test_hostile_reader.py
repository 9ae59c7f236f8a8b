"""The one strict reader of JSON and YAML: refusals name line and column; the fast path and the positional
parser agree on every text; nothing but an InputError ever leaves it."""

from __future__ import annotations

import json
import math

import pytest
from hostile_cases import HOSTILE_JSON
from hypothesis import given, settings
from hypothesis import strategies as st

from govern.errors import InputError
from govern.reader import MAX_ALIAS_NODES, MAX_DEPTH, _Fault, _parse_located, check_json_value, parse_json, parse_yaml


@pytest.mark.parametrize("name", sorted(HOSTILE_JSON))
def test_hostile_json_is_refused_with_its_location(name):
    text, line, column, words = HOSTILE_JSON[name]
    with pytest.raises(InputError) as caught:
        parse_json(text, "doc.json")
    problem = caught.value.problems[0]
    assert (problem.path, problem.line, problem.column) == ("doc.json", line, column)
    assert words in problem.reason
    assert problem.render().startswith(f"doc.json:{line}:{column}: ")


@pytest.mark.parametrize("text, value", [
    ("[" * MAX_DEPTH + "]" * MAX_DEPTH, None),
    ('{"emoji": "\\ud83d\\ude00"}', {"emoji": "\U0001F600"}),
    ("[1.7976931348623157e308, -1.7976931348623157e308, 5e-324, 0e999, 0.0e-999, -0]", None),
    ('{"a": 1, "b": {"a": 2}}', {"a": 1, "b": {"a": 2}}),
    ('"\\\\ud800"', "\\ud800"),
    ("  [1, 2.5, true, false, null, \"x\"]\n", [1, 2.5, True, False, None, "x"]),
])
def test_what_json_means_unambiguously_is_accepted(text, value):
    parsed = parse_json(text, "doc.json")
    assert parsed == (json.loads(text) if value is None else value)


@pytest.mark.parametrize("text, line, column, words", [
    ("a: 1\nb: 2\na: 3\n", 3, 1, 'duplicate key "a"'),
    ("responses:\n  200: ok\n  '200': also\n", 3, 3, 'duplicate key "200"'),
    ("format-version: .inf\n", 1, 17, "not a JSON number"),
    ("x: .nan\n", 1, 4, "not a JSON number"),
    ("x: 1e400\n", 1, 4, "not a JSON number"),
    ("x: " + "9" * 400 + "\n", 1, 4, "too large"),
    ('x: "\\ud800"\n', 1, 4, "lone UTF-16 surrogate"),
    ("a: &a [*a]\n", 1, 4, "recursive alias"),
    ("x: !!binary aGk=\n", 1, 4, "no JSON meaning"),
    ("x: !!set {a}\n", 1, 4, "no JSON meaning"),
    ("base: &b {a: 1}\nx:\n  <<: *b\n", 3, 3, "merge key"),
    ("? [a]\n: 1\n", 1, 3, "JSON keys are strings"),
    ("x: [1\n", 2, 1, "not valid YAML"),
    ("a: 1\n---\nb: 2\n", 2, 1, "not valid YAML"),
    ("x: *missing\n", 1, 4, "not valid YAML"),
    ("x: " + "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1) + "\n", 1, 1, f"nests deeper than {MAX_DEPTH}"),
    ("x: " + "[" * 5000 + "]" * 5000 + "\n", None, None, f"nests deeper than {MAX_DEPTH}"),
])
def test_hostile_yaml_is_refused_with_its_location(text, line, column, words):
    with pytest.raises(InputError) as caught:
        parse_yaml(text, "doc.yaml")
    problem = caught.value.problems[0]
    assert (problem.line, problem.column) == (line, column)
    assert words in problem.reason


def alias_bomb(levels: int, fan_out: int = 9) -> str:
    lines = ["a0: &a0 [" + ", ".join(['"lol"'] * fan_out) + "]"]
    for level in range(1, levels + 1):
        lines.append(f"a{level}: &a{level} [" + ", ".join([f"*a{level - 1}"] * fan_out) + "]")
    return "\n".join(lines) + "\n"


def test_an_alias_bomb_is_refused_at_once():
    bomb = alias_bomb(9)
    assert len(bomb.encode()) < 800
    with pytest.raises(InputError) as caught:
        parse_yaml(bomb, "bomb.yaml")
    assert f"aliases may add at most {MAX_ALIAS_NODES} nodes" in caught.value.problems[0].reason


def test_modest_aliases_are_expanded_into_independent_values():
    value = parse_yaml(alias_bomb(3, fan_out=3), "ok.yaml")
    assert value["a2"][0][0] == ["lol", "lol", "lol"]
    value["a2"][0][0].append("changed")
    assert value["a2"][1][0] == value["a0"] == ["lol", "lol", "lol"]


@pytest.mark.parametrize("text, value", [
    ("date: 2026-11-30\nat: 2026-11-30 10:00:00\n", {"date": "2026-11-30", "at": "2026-11-30 10:00:00"}),
    ("responses:\n  200: {}\n  true: 1\n  null: 2\n", {"responses": {"200": {}, "true": 1, "null": 2}}),
    ("n: [0x1F, 1_000, 0o17, 1.5e3, ~]\n", {"n": [31, 1000, 15, 1500.0, None]}),
    ("", None),
])
def test_yaml_values_become_json_values(text, value):
    assert parse_yaml(text, "doc.yaml") == value


@pytest.mark.parametrize("value, words", [
    ({"maximum": float("inf")}, "not a JSON number"),
    ({"x": [float("nan")]}, "not a JSON number"),
    ({"title": "\ud800"}, "lone UTF-16 surrogate"),
    ({1: "x"}, "not a JSON string"),
    ({"x": object()}, "not a JSON value"),
])
def test_values_built_by_code_get_the_same_refusals(value, words):
    with pytest.raises(InputError) as caught:
        check_json_value(value, "models:Thing")
    assert words in caught.value.problems[0].reason


def test_values_built_by_code_share_the_depth_limit():
    deep: object = "leaf"
    for _ in range(MAX_DEPTH):
        deep = [deep]
    assert check_json_value(deep, "x") is deep
    with pytest.raises(InputError):
        check_json_value([deep], "x")


# --- random input ------------------------------------------------------------------------------------------

json_leaves = (st.none() | st.booleans() | st.integers(-(10 ** 20), 10 ** 20)
               | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=6))
json_values = st.recursive(json_leaves, lambda inner: st.lists(inner, max_size=4)
                           | st.dictionaries(st.text(max_size=4), inner, max_size=4), max_leaves=20)

# Text near JSON: fragments that exercise every branch of both parsers, glued at random.
fragments = st.sampled_from(['{', '}', '[', ']', ',', ':', '"a"', '"a"', ' ', '\n', '1', '-0', '1e400', '1e-400',
                             '2.5', 'NaN', 'Infinity', 'true', 'null', '"\\ud800"', '"\\ud83d\\ude00"', '"\\udc00"',
                             '"\\\\ud800"', '"x', '\\', '"\\u12"', '\x00', '99999999999999999999'])
near_json = st.lists(fragments, max_size=30).map("".join)


def _outcome(parse, text):
    try:
        return ("value", parse(text))
    except InputError as error:
        return ("refused", error.problems[0].line, error.problems[0].column)
    except _Fault as fault:
        return ("refused", fault.offset)


@settings(settings.get_profile("hostile"))
@given(json_values)
def test_every_json_value_round_trips(value):
    text = json.dumps(value, ensure_ascii=False)
    assert parse_json(text, "x") == json.loads(text)
    assert parse_json(json.dumps(value, indent=2), "x") == json.loads(text)


@settings(settings.get_profile("hostile"))
@given(st.one_of(near_json, st.text(max_size=40)))
def test_the_fast_path_and_the_positional_parser_agree(text):
    fast = _outcome(lambda t: parse_json(t, "x"), text)
    slow = _outcome(_parse_located, text)
    assert fast[0] == slow[0]
    if fast[0] == "value":
        assert fast[1] == slow[1] or (isinstance(fast[1], float) and math.isnan(fast[1]))


@settings(settings.get_profile("hostile"))
@given(st.one_of(near_json, st.text(max_size=60), st.binary(max_size=60).map(lambda b: b.decode("latin-1"))))
def test_random_text_into_every_reader_is_a_value_or_an_input_error(text):
    for parse in (parse_json, parse_yaml):
        try:
            parse(text, "x")
        except InputError as error:
            assert error.problems[0].path == "x"
