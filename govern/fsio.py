"""File input and output with the guarantees every command relies on.

Writes are atomic (a temporary file in the same directory, then a rename), so a failure never leaves a
half-written file. Reads turn every operating-system or decoding failure into an InputError naming the file.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any, Callable

from govern.errors import InputError, Problem


def read_text(path: Path | str) -> str:
    path = Path(path)
    if path.is_dir():
        raise InputError(Problem(str(path), "is a directory, not a file"))
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise InputError(Problem(str(path), "does not exist", hint="check the path")) from None
    except OSError as error:
        raise InputError(Problem(str(path), f"cannot be read: {error.strerror}")) from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise InputError(Problem(str(path), f"is not UTF-8 (invalid byte at offset {error.start})",
                                 hint="save the file as UTF-8")) from None
    return text[1:] if text.startswith("\ufeff") else text


def parse_json(text: str, origin: str) -> Any:
    """Parse JSON with the strict reader (see govern.reader): refusals name the origin, line and column."""
    from govern.reader import parse_json as strict_json

    return strict_json(text, origin)


def read_json(path: Path | str) -> Any:
    return parse_json(read_text(path), str(path))


def read_document(path: Path | str) -> Any:
    """Read a JSON or YAML document (YAML by its .yaml/.yml suffix) with the strict reader."""
    path = Path(path)
    text = read_text(path)
    if path.suffix.lower() in (".yaml", ".yml"):
        from govern.reader import parse_yaml

        return parse_yaml(text, str(path))
    return parse_json(text, str(path))


def atomic_write_bytes(path: Path | str, data: bytes, *, verify: Callable[[Path], None] | None = None) -> None:
    """Replace `path` with `data`. `verify` reads the written temporary file before it replaces `path`:
    when it raises, the temporary file is removed and `path` is left as it was."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
        if verify is not None:
            verify(Path(temporary))
        if path.exists():
            os.chmod(temporary, path.stat().st_mode & 0o7777)
        else:
            os.chmod(temporary, 0o644)
        os.replace(temporary, path)
    except BaseException:
        try:
            os.unlink(temporary)
        except FileNotFoundError:
            pass
        raise


def atomic_write_text(path: Path | str, text: str) -> None:
    atomic_write_bytes(path, text.encode("utf-8"))


def atomic_write_many(files: dict[Path, str]) -> None:
    """Write several files so that either all are replaced or, on failure before the renames, none is.

    Every file is first written to a temporary sibling; only when all temporaries exist are they renamed.
    """
    staged: list[tuple[str, Path]] = []
    try:
        for path, text in sorted(files.items()):
            path.parent.mkdir(parents=True, exist_ok=True)
            handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
            with os.fdopen(handle, "wb") as stream:
                stream.write(text.encode("utf-8"))
                stream.flush()
                os.fsync(stream.fileno())
            os.chmod(temporary, 0o644)
            staged.append((temporary, path))
    except BaseException:
        for temporary, _ in staged:
            try:
                os.unlink(temporary)
            except FileNotFoundError:
                pass
        raise
    for temporary, path in staged:
        os.replace(temporary, path)
