"""Declarations and consistency records in the layout govern writes are read without the YAML parser, and
whatever that direct reading accepts means exactly what the YAML reader makes of it."""

from __future__ import annotations

import string
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import govern.reader
from govern.errors import InputError
from govern.records.format import (
    Declaration, Entry, Prose, consistency_yaml, declaration_yaml, parse_consistency, parse_declaration,
    read_written_layout, split_front_matter,
)
from govern.reader import parse_yaml

REPOSITORY = Path(__file__).resolve().parents[2]
DIGEST = "sha256:" + "ab" * 32

_text = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=12)
_ascii = st.text(alphabet=string.printable.replace("\x0b", "").replace("\x0c", ""), max_size=12)
_version = st.one_of(st.none(), st.integers(-10**20, 10**20), _text, _ascii)


@st.composite
def declarations(draw) -> Declaration:
    roots = draw(st.lists(st.one_of(_text, _ascii, st.just("grp:ActionClaimRequest")), min_size=1, max_size=3,
                          unique=True))
    entries = tuple(Entry(root=root, decision=draw(st.sampled_from(["same-version", "version-bump"])),
                          predecessor=draw(st.one_of(st.none(), _ascii, st.just("2026-11-30-baseline"))),
                          predecessor_link=draw(st.one_of(st.none(), st.just(DIGEST))),
                          after=draw(st.one_of(st.none(), st.just(DIGEST), _text)),
                          format_before=draw(_version), format_after=draw(_version))
                    for root in roots)
    return Declaration(draw(st.one_of(_ascii, st.just("2026-11-30-x"))), "2026-11-30", draw(st.booleans()), entries)


def _yaml(text: str):
    try:
        return parse_yaml(text, "")
    except InputError:
        return InputError


def _front(declaration: Declaration) -> str:
    return declaration_yaml(declaration)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(declarations())
def test_a_written_declaration_reads_as_yaml_reads_it(declaration):
    text = _front(declaration)
    direct = read_written_layout(text)
    assert direct is None or direct == _yaml(text)
    plain = all(isinstance(value, str) and value.isascii() and value.isprintable() and not set(value) & set('"\\')
                or value is None or isinstance(value, bool) or (isinstance(value, int) and abs(value) < 10**15)
                for entry in declaration.entries
                for value in (entry.root, entry.predecessor, entry.after, entry.format_before, entry.format_after))
    plain = plain and declaration.id.isascii() and declaration.id.isprintable() and not set(declaration.id) & set('"\\')
    if plain:
        assert direct == declaration.data()


_EDITS = st.sampled_from([" ", "  ", "-", "- ", ":", ": ", "#", '"', "\\", "\n", "\r", "\t", "no", "yes", "on",
                          "~", "&a", "*a", "!!str ", "0", "1.5", "0x1f", "[", "{", "'", "é", "\u2028", "\x85"])


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(declarations(), st.lists(st.tuples(st.floats(0, 1), st.integers(0, 3), _EDITS), min_size=1, max_size=3))
def test_an_edited_layout_is_read_as_yaml_reads_it_or_left_to_the_yaml_reader(declaration, edits):
    prose = Prose("Title", {"summary": "s", "compatibility": "c", "verification": "v", "changes": "d"})
    for text in (_front(declaration), consistency_yaml(declaration, {"en": prose, "zh": prose})):
        for where, removed, inserted in edits:
            at = int(where * len(text))
            text = text[:at] + inserted + text[at + removed:]
        direct = read_written_layout(text)
        assert direct is None or direct == _yaml(text), text


@pytest.mark.parametrize("text", [
    "kind: persistence-change\n",
    "# a comment\nsource-language: zh-hant\nprose:\n  en:\n    title: \"sha256:00\"\n",
    "roots:\n  - root: \"a\"\n    format-version:\n      before: null\n      after: 3\n  - root: \"b\"\n",
])
def test_the_direct_reading_accepts_the_written_layout(text):
    assert read_written_layout(text) == parse_yaml(text, "")


@pytest.mark.parametrize("text", [
    "source-language: no\n",  # YAML 1.1 reads `no` as false
    "no: \"x\"\n",
    "a: \"x\"\na: \"y\"\n",  # a duplicate key: the YAML reader refuses it
    "a: \"x\\ty\"\n",  # an escape
    "a: \"é\"\n",  # non-ASCII
    "a: 1.5\n",
    "a: 0o17\n",
    "a:\nb: \"x\"\n",  # an empty value
    "a:\n- b: \"x\"\n",  # a list at the key's column
    "a: \"x\"\n  b: \"y\"\n",
    "a: \"x\"",  # no final line break
    "a: \"x\" # comment\n",
    "---\na: \"x\"\n",
    "",
])
def test_anything_else_is_left_to_the_yaml_reader(text):
    assert read_written_layout(text) is None


def test_this_repositorys_records_are_read_without_the_yaml_parser(monkeypatch):
    def refuse(text, origin):
        raise AssertionError("the YAML parser was asked to read a record in the written layout")

    monkeypatch.setattr(govern.reader, "parse_yaml", refuse)
    records = sorted((REPOSITORY / "records").glob("2*.md"))
    assert records
    for path in records:
        front, _, _ = split_front_matter(path.read_text(encoding="utf-8"))
        assert parse_declaration(front).entries
    for path in sorted((REPOSITORY / "records").glob("*.i18n.yaml")):
        assert parse_consistency(path.read_text(encoding="utf-8"))["prose"]
