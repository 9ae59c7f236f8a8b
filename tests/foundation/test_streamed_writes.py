"""Generated files are compared and written as they are produced, all replaced together or none.

`atomic_write_changed` asks each file for its content a chunk at a time: a chunk reaches the file's
temporary sibling before the next is produced, the next file is produced only when this one is written,
unchanged files are left alone, and a failure anywhere leaves every file as it was and no temporary behind.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import govern.fsio
from govern.fsio import atomic_write_changed, holds_bytes

PROFILE = settings.get_profile("foundation")
contents = st.binary(max_size=40)


@pytest.fixture(autouse=True)
def small_pieces(monkeypatch):
    monkeypatch.setattr(govern.fsio, "_PIECE", 4)


def _chunks(data: bytes, cuts: list[int]) -> list[bytes]:
    points = sorted({0, len(data), *(cut % (len(data) + 1) for cut in cuts)})
    return [data[start:end] for start, end in zip(points, points[1:])]


def _leftovers(folder: Path) -> list[str]:
    return sorted(path.name for path in folder.iterdir() if path.name.endswith(".tmp"))


@settings(PROFILE)
@given(old=st.none() | contents, new=contents, cuts=st.lists(st.integers(0, 50), max_size=6))
def test_a_file_is_replaced_exactly_when_its_content_differs(old, new, cuts):
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "inventory.json"
        if old is not None:
            path.write_bytes(old)
        before = path.stat() if old is not None else None
        written = atomic_write_changed([(path, lambda: iter(_chunks(new, cuts)))])
        assert path.read_bytes() == new
        assert written == ([] if old == new else [path])
        if old == new:  # left alone, not rewritten
            assert (path.stat().st_ino, path.stat().st_mtime_ns) == (before.st_ino, before.st_mtime_ns)
        assert _leftovers(Path(folder)) == []
        assert holds_bytes(path, iter(_chunks(new, cuts)))
        assert holds_bytes(path, [new + b"x"]) is False and (not new or holds_bytes(path, [new[:-1]]) is False)


def test_each_chunk_reaches_the_temporary_file_before_the_next_is_produced(tmp_path, monkeypatch):
    monkeypatch.setattr(govern.fsio, "_PIECE", 1)  # no batching of chunks
    path = tmp_path / "inventory.json"
    path.write_bytes(b"[1, 2, 3]")  # differs from the first chunk on
    seen: list[bytes] = []

    def render():
        for chunk in (b"[4,", b" 5,", b" 6]"):
            if seen:  # what was produced so far is in the temporary file already
                (temporary,) = [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]
                assert temporary.read_bytes() == b"".join(seen)
            seen.append(chunk)
            yield chunk

    assert atomic_write_changed([(path, render)]) == [path]
    assert path.read_bytes() == b"[4, 5, 6]"


def test_the_equal_beginning_is_copied_from_the_file_once_a_difference_appears(tmp_path):
    path = tmp_path / "catalog.md"
    path.write_bytes(b"# Catalog\n\nold tail\n")
    produced = [b"# Cat", b"alog\n\n", b"new tail\n"]
    assert atomic_write_changed([(path, lambda: iter(produced))]) == [path]
    assert path.read_bytes() == b"# Catalog\n\nnew tail\n"
    path.write_bytes(b"# Catalog\n\nnew tail\nand more\n")  # the new content is a beginning of the file
    assert atomic_write_changed([(path, lambda: iter(produced))]) == [path]
    assert path.read_bytes() == b"# Catalog\n\nnew tail\n"


def test_the_next_file_is_produced_only_when_the_previous_one_is_written(tmp_path):
    first, second = tmp_path / "inventory.json", tmp_path / "catalog.md"

    def render_second():
        (temporary,) = [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]
        assert temporary.read_bytes() == b"first"
        assert not first.exists()  # renamed only when every file is written
        yield b"second"

    assert atomic_write_changed([(first, lambda: iter([b"fir", b"st"])), (second, render_second)]) == [first, second]
    assert (first.read_bytes(), second.read_bytes()) == (b"first", b"second")


@pytest.mark.parametrize("fail_at", range(4))
def test_a_failure_while_producing_leaves_every_file_as_it_was_and_no_temporary(tmp_path, fail_at):
    files = {tmp_path / "catalog.md": b"old catalog", tmp_path / "inventory.json": b"old inventory"}
    for path, text in files.items():
        path.write_bytes(text)
    steps = iter(range(10))

    def render(texts):
        for text in texts:
            if next(steps) == fail_at:
                raise RuntimeError("rendering failed")
            yield text

    with pytest.raises(RuntimeError, match="rendering failed"):
        atomic_write_changed([(tmp_path / "inventory.json", lambda: render([b"new ", b"inventory"])),
                              (tmp_path / "catalog.md", lambda: render([b"new ", b"catalog"]))])
    assert {path: path.read_bytes() for path in files} == files
    assert _leftovers(tmp_path) == []


def test_a_write_failure_is_an_input_error_and_leaves_nothing(tmp_path, monkeypatch):
    from govern.errors import InputError

    first, second = tmp_path / "inventory.json", tmp_path / "catalog.md"
    first.write_bytes(b"old")
    real = govern.fsio.tempfile.mkstemp
    calls = []

    def mkstemp(*args, **kwargs):
        calls.append(1)
        if len(calls) == 2:
            raise OSError(28, "No space left on device")
        return real(*args, **kwargs)

    monkeypatch.setattr(govern.fsio.tempfile, "mkstemp", mkstemp)
    with pytest.raises(InputError, match="No space left on device"):
        atomic_write_changed([(first, lambda: iter([b"new"])), (second, lambda: iter([b"new"]))])
    assert first.read_bytes() == b"old" and not second.exists()
    assert _leftovers(tmp_path) == []


def test_a_comparison_stops_producing_at_the_first_difference(tmp_path):
    path = tmp_path / "inventory.json"
    path.write_bytes(b"abcdef")
    produced = []

    def render():
        for chunk in (b"abcd", b"XXXX", b"never", b"asked"):
            produced.append(chunk)
            yield chunk

    assert holds_bytes(path, render()) is False
    assert produced == [b"abcd", b"XXXX"]


def test_the_inventory_is_produced_a_few_types_at_a_time(tmp_path, monkeypatch):
    import json

    import govern.model.inventory as inventory_module
    from govern.model.inventory import build_inventory, inventory_chunks
    from govern.sources.load import load_spec

    schema = {"$defs": {name: {"type": "object", "properties": {"n": {"type": "integer", "minimum": index}}}
                        for index, name in enumerate(("A", "B", "C", "D", "E"))}, "$ref": "#/$defs/A"}
    (tmp_path / "doc.json").write_text(json.dumps(schema), encoding="utf-8")
    inventory = build_inventory([load_spec(str(tmp_path / "doc.json"), tmp_path)])
    built = []
    real = inventory_module.structure
    monkeypatch.setattr(inventory_module, "structure", lambda node, written: built.append(node) or real(node, written))
    monkeypatch.setattr(inventory_module, "TYPES_PER_CHUNK", 2)
    chunks = inventory_chunks(inventory)
    head = next(chunks)
    assert b'"types": ' in head and built == []
    pieces = [head]
    for count in range(1, (len(inventory.types) + 1) // 2 + 1):
        pieces.append(next(chunks))
        assert len(built) == min(2 * count, len(inventory.types))
    text = b"".join(pieces) + b"".join(chunks)
    assert len(built) == len(inventory.types) == 6
    assert list(json.loads(text)["types"]) == list(inventory.types)
