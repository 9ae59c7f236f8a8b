"""The fast writer of generated JSON files produces exactly the standard library's indented text."""

from __future__ import annotations

import json
from collections import OrderedDict

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from govern.model.canonical import Rendered, Streamed, indented_json, indented_members, streamed_json

PROFILE = settings.get_profile("foundation")

scalars = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=True, allow_infinity=True),
                    st.text())
values = st.recursive(scalars, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                       st.dictionaries(st.text(max_size=5), inner, max_size=4)),
                      max_leaves=30)


@settings(PROFILE)
@given(value=values)
def test_same_text_as_the_standard_library(value):
    assert indented_json(value) == json.dumps(value, indent=2, ensure_ascii=False)


@pytest.mark.parametrize("value", [
    {1: "a", 2.5: "b", True: "c", None: "d"}, OrderedDict([("z", 1), ("a", [])]), ("tuple", {"x": ()}),
    {"unicode": "漢字 \u2028 \x00 \"q\" \\"}, [[], {}, [[]], {"": {}}],
])
def test_same_text_for_keys_and_containers_the_standard_library_converts(value):
    assert indented_json(value) == json.dumps(value, indent=2, ensure_ascii=False)


def test_unserializable_values_are_refused_like_the_standard_library():
    with pytest.raises(TypeError):
        indented_json({"a": object()})


def _spelled(value):
    """`value` with its floats as `Rendered`, as `indented_members` takes them (orjson writes 1e-07 as 1e-7)."""
    if isinstance(value, float):
        return Rendered(value)
    if isinstance(value, list):
        return [_spelled(item) for item in value]
    if isinstance(value, dict):
        return {key: _spelled(item) for key, item in value.items()}
    return value


@settings(PROFILE)
@given(entries=st.dictionaries(st.text(max_size=5), values, max_size=6), depth=st.integers(0, 3),
       group=st.integers(1, 4))
def test_an_object_written_member_by_member_is_written_like_the_object_itself(entries, depth, group):
    """Whether orjson or the fallback writes a group of members (integers beyond 64 bits, nesting beyond
    orjson's limit, multi-line `Rendered` values, keys that are not strings go to the fallback), and
    however the members fall into groups."""
    nested: dict = entries
    for _ in range(depth):
        nested = {"outer": nested}
    expected = json.dumps(nested, indent=2, ensure_ascii=False)
    members = b"".join(indented_members(iter(list(_spelled(entries).items())), depth, group)).decode("utf-8")
    prefix = "".join('{\n' + "  " * (level + 1) + '"outer": ' for level in range(depth))
    suffix = "".join("\n" + "  " * level + "}" for level in reversed(range(depth)))
    assert prefix + members + suffix == expected


@settings(PROFILE)
@given(value=values, inner=values, nested=st.booleans())
def test_a_rendered_value_is_written_like_the_value_itself(value, inner, nested):
    document = {"outer": [value, Rendered(inner)]} if nested else Rendered(inner)
    plain = {"outer": [value, inner]} if nested else inner
    assert indented_json(document) == json.dumps(plain, indent=2, ensure_ascii=False)


def _nested(levels: int) -> list:
    value: list = [1]
    for _ in range(levels):
        value = [value]
    return value


@pytest.mark.parametrize("value, plain", [
    ({"n": [2**64, -(2**63) - 1]}, {"n": [2**64, -(2**63) - 1]}),  # integers beyond 64 bits
    (_nested(300), _nested(300)),  # deeper than orjson nests
    ({1: "a", None: [True]}, {1: "a", None: [True]}),  # keys that are not strings
    ({"leaf": Rendered({"a": [1, 2]}), "f": Rendered(1e-07)}, {"leaf": {"a": [1, 2]}, "f": 1e-07}),  # multi-line
])
def test_what_orjson_cannot_write_is_written_like_the_standard_library(value, plain):
    whole = json.dumps({"outer": {"v": plain}}, indent=2, ensure_ascii=False)
    written = b"".join(indented_members([("v", value)], 1)).decode("utf-8")
    assert written == whole[len('{\n  "outer": '):-len("\n}")]


@pytest.mark.parametrize("group", [1, 2, 3, 64])
def test_a_member_orjson_cannot_write_leaves_its_group_written_alike(group):
    members = [("a", {"x": 1}), ("big", [2**64]), ("c", Rendered(1e-07)), ("deep", _nested(300)), ("e", [])]
    plain = {"a": {"x": 1}, "big": [2**64], "c": 1e-07, "deep": _nested(300), "e": []}
    whole = json.dumps({"outer": plain}, indent=2, ensure_ascii=False)
    written = b"".join(indented_members(members, 1, group)).decode("utf-8")
    assert written == whole[len('{\n  "outer": '):-len("\n}")]


def test_a_key_repeated_within_a_group_is_written_twice():
    written = b"".join(indented_members([("a", 1), ("a", 2), ("b", 3)], 0)).decode("utf-8")
    assert written == '{\n  "a": 1,\n  "a": 2,\n  "b": 3\n}'


def _streaming(value, draw_choice):
    """`value` with some of its lists (at any depth) turned into `Streamed` arrays made by generators."""
    if isinstance(value, list):
        items = [_streaming(item, draw_choice) for item in value]
        return Streamed(item for item in items) if draw_choice() else items
    if isinstance(value, dict):
        return {key: _streaming(item, draw_choice) for key, item in value.items()}
    return value


@settings(PROFILE)
@given(value=values, data=st.data())
def test_a_document_written_a_piece_at_a_time_is_written_like_the_document(value, data):
    """Arrays made while written, wherever they stand (in objects, in lists, in one another, empty), change
    no character of the text."""
    document = _streaming({"outer": [value, {"inner": [value]}], "after": value}, lambda: data.draw(st.booleans()))
    expected = json.dumps({"outer": [value, {"inner": [value]}], "after": value}, indent=2, ensure_ascii=False)
    assert "".join(streamed_json(document, "\n")) == expected + "\n"


def test_a_streamed_array_makes_its_items_only_as_they_are_written():
    written: list[str] = []
    seen_when_made = []

    def items():
        for index in range(3):
            seen_when_made.append("".join(written))  # what was written when this item was made
            yield {"index": index}

    for piece in streamed_json({"entries": Streamed(items())}):
        written.append(piece)
    assert "".join(written) == json.dumps({"entries": [{"index": 0}, {"index": 1}, {"index": 2}]}, indent=2)
    # each item is made after the one before it is written whole, never ahead
    assert [text.count('"index"') for text in seen_when_made] == [0, 1, 2]
    assert all(text.endswith("}") for text in seen_when_made[1:])
    assert "".join(streamed_json(Streamed(iter(())))) == "[]"
