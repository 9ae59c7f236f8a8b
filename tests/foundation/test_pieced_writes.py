"""Generated files are written and compared a piece at a time; the result is the same as with the whole
text encoded at once, wherever a piece boundary falls (also inside a run of characters outside ASCII)."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import govern.fsio
from govern.fsio import atomic_write_many, encoded_pieces, holds_bytes

PROFILE = settings.get_profile("foundation")
texts = st.text(st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=12)


def holds_text(path, text) -> bool:
    return holds_bytes(path, encoded_pieces(text))


@pytest.fixture(autouse=True)
def small_pieces(monkeypatch):
    monkeypatch.setattr(govern.fsio, "_PIECE", 3)


@settings(PROFILE)
@given(text=texts, other=texts)
def test_pieces_write_and_compare_like_the_whole_text(text, other):
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "generated.md"
        atomic_write_many({path: text})
        assert path.read_bytes() == text.encode("utf-8")
        assert holds_text(path, text)
        assert holds_text(path, other) == (other == text)


def test_a_missing_file_holds_nothing(tmp_path):
    assert not holds_text(tmp_path / "absent.json", "")


@settings(PROFILE)
@given(pieces=st.lists(texts, max_size=6), other=st.lists(texts, max_size=6))
def test_a_text_given_in_pieces_is_written_and_compared_as_their_concatenation(pieces, other):
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "inventory.json"
        atomic_write_many({path: pieces})
        assert path.read_bytes() == "".join(pieces).encode("utf-8")
        assert holds_text(path, pieces) and holds_text(path, "".join(pieces))
        assert holds_text(path, other) == ("".join(other) == "".join(pieces))
