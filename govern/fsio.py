"""File input and output with the guarantees every command relies on.

Writes are atomic (a temporary file in the same directory, then a rename), so a failure never leaves a
half-written file. Reads turn every operating-system or decoding failure into an InputError naming the file.
"""

from __future__ import annotations

import contextlib
import glob
import os
import re
import shutil
import tempfile
from pathlib import Path
from typing import Any, AnyStr, Callable, Iterable, Iterator, Sequence

from govern.errors import InputError, Problem


def within(target: Path, boundaries: tuple[Path, ...]) -> bool:
    """Whether a resolved path is one of the folders or inside one of them."""
    return any(target == boundary or target.is_relative_to(boundary) for boundary in boundaries)


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
    with writing(path):
        _atomic_write_bytes(path, data, verify)
    _remove_old_temporaries_of(path)


@contextlib.contextmanager
def writing(path: Path) -> Iterator[None]:
    """An operating-system failure while writing `path` (a read-only folder, a file where a folder should
    be, a full disk) becomes an InputError naming it; nothing half-written is left behind by the callers."""
    try:
        yield
    except OSError as error:
        raise InputError(Problem(str(path), f"cannot be written: {error.strerror or error}",
                                 hint="check that the folder exists, is a folder and is writable")) from None


def _atomic_write_bytes(path: Path, data: bytes, verify: Callable[[Path], None] | None) -> None:
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


# A write takes milliseconds; a temporary this old belongs to a writer that was killed.
_STALE_SECONDS = 60


def _remove_old_temporaries_of(path: Path) -> None:
    """Files written without the project lock (sidecars) clean their own killed writers' temporaries."""
    import time

    cutoff = time.time() - _STALE_SECONDS
    for candidate in path.parent.glob(f".{glob.escape(path.name)}.*.tmp"):
        try:
            if candidate.is_file() and candidate.stat().st_mtime < cutoff:
                candidate.unlink()
        except OSError:
            pass


def atomic_write_text(path: Path | str, text: str) -> None:
    atomic_write_bytes(path, text.encode("utf-8"))


# Large generated texts (an inventory of many types is tens of megabytes) are encoded, compared and written a
# piece at a time, so writing or comparing one never holds a second, encoded copy of the whole. Small enough
# that the pieces in flight stay small beside a megabyte-sized source, large enough that calls are few.
_PIECE = 1 << 16


def encoded_pieces(text: str | Iterable[str | bytes]) -> Iterator[bytes]:
    """`text` (a string, or pieces of one) as UTF-8, in pieces whose concatenation is the whole text encoded. A
    piece that comes as bytes is UTF-8 already, and passes as it is."""
    batch: list[str] = []
    size = 0
    for piece in (text,) if isinstance(text, str) else text:
        if piece.__class__ is bytes:
            if batch:
                yield "".join(batch).encode("utf-8")
                batch, size = [], 0
            yield piece
            continue
        if size + len(piece) < _PIECE:
            batch.append(piece)
            size += len(piece)
            continue
        batch.append(piece)
        joined = "".join(batch)
        batch, size = [], 0
        for start in range(0, len(joined), _PIECE):
            yield joined[start:start + _PIECE].encode("utf-8")
    if batch:
        yield "".join(batch).encode("utf-8")


def atomic_write_many(files: dict[Path, str | Sequence[str]]) -> None:
    """Write several files so that either all are replaced or, on failure before the renames, none is.

    Every file is first written to a temporary sibling; only when all temporaries exist are they renamed.
    """
    staged: list[tuple[str, Path]] = []
    try:
        for path, text in sorted(files.items()):
            with writing(path):
                path.parent.mkdir(parents=True, exist_ok=True)
                handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
                staged.append((temporary, path))
                with os.fdopen(handle, "wb") as stream:
                    for piece in encoded_pieces(text):
                        stream.write(piece)
                    stream.flush()
                    os.fsync(stream.fileno())
                os.chmod(temporary, 0o644)
    except BaseException:
        discard_staged(staged)
        raise
    rename_staged(staged)


def discard_staged(staged: list[tuple[str, Path]]) -> None:
    """Remove staged temporaries, leaving every file they were to replace as it is."""
    for temporary, _ in staged:
        try:
            os.unlink(temporary)
        except FileNotFoundError:
            pass


def rename_staged(staged: list[tuple[str, Path]]) -> None:
    """Move staged temporaries onto the files they replace. A rename the system refuses (the file's path is a
    directory, say) stops there and removes the temporaries not yet moved: the files renamed before it stay
    replaced, the rest stay as they were, and no temporary is left behind."""
    for index, (temporary, path) in enumerate(staged):
        try:
            with writing(path):
                os.replace(temporary, path)
        except BaseException:
            discard_staged(staged[index:])
            raise


def batched(chunks: Iterable[AnyStr], size: int | None = None) -> Iterator[AnyStr]:
    """`chunks` (bytes, or text) joined into pieces of about `size` bytes or characters (`_PIECE` by default):
    many small pieces cost one read or write call each."""
    size = size or _PIECE
    batch: list = []
    length = 0
    for chunk in chunks:
        batch.append(chunk)
        length += len(chunk)
        if length >= size:
            yield chunk[:0].join(batch)
            batch, length = [], 0
    if batch:
        yield batch[0][:0].join(batch)


def holds_bytes(path: Path, chunks: Iterable[bytes]) -> bool:
    """Whether the file at `path` holds exactly the concatenation of `chunks` (False when it cannot be read).
    Stops asking for chunks at the first difference."""
    chunks = iter(chunks)
    try:
        with Path(path).open("rb") as stream:
            for chunk in batched(chunks):
                if stream.read(len(chunk)) != chunk:
                    return False
            return stream.read(1) == b""
    except OSError:
        return False
    finally:
        close = getattr(chunks, "close", None)
        if close is not None:
            close()


def atomic_write_changed(files: Iterable[tuple[Path, Callable[[], Iterable[bytes]]]]) -> list[Path]:
    """Write the files whose content differs from the file on disk so that either all are replaced or, on
    failure before the renames, none is; return the paths replaced.

    Each file's content is produced a chunk at a time (`render()`, UTF-8 bytes) and compared with the file
    on disk as it comes; from the first difference on it goes to a temporary sibling (the equal part
    copied from the file first), so a large generated file is never held whole, and the next file is
    produced only once this one is written. When every file is produced the temporaries are renamed into
    place; a failure before (producing a later file, writing one) removes every temporary.
    """
    staged = stage_changed(files)
    rename_staged(staged)
    return [path for _, path in staged]


def stage_changed(files: Iterable[tuple[Path, Callable[[], Iterable[bytes]]]]) -> list[tuple[str, Path]]:
    """The first half of `atomic_write_changed`: (temporary, path) of each file whose content differs, the
    temporary holding the new content; nothing is replaced yet. Finish with `rename_staged` (or abandon
    with `discard_staged`), so other files can be written together with these. A failure while staging
    removes every temporary."""
    staged: list[tuple[str, Path]] = []
    try:
        for path, render in files:
            with writing(path):
                temporary = _stage_if_changed(path, batched(render()))
            if temporary is not None:
                staged.append((temporary, path))
    except BaseException:
        discard_staged(staged)
        raise
    return staged


def _stage_if_changed(path: Path, chunks: Iterable[bytes]) -> str | None:
    """The temporary file holding `chunks` beside `path`, or None when `path` holds them already."""
    try:
        current = path.open("rb")
    except OSError:  # missing (or unreadable, which the rename reports if it cannot replace it)
        current = None
    temporary: str | None = None
    stream = None
    matched = 0
    try:
        for chunk in chunks:
            if stream is None:
                if current is not None and current.read(len(chunk)) == chunk:
                    matched += len(chunk)
                    continue
                temporary, stream = _temporary_beside(path, current, matched)
            _write_all(stream, chunk)
        if stream is None:
            if current is not None and current.read(1) == b"":
                return None
            temporary, stream = _temporary_beside(path, current, matched)  # the new text is shorter
        os.fsync(stream.fileno())
        stream.close()
        os.chmod(temporary, 0o644)
        return temporary
    except BaseException:
        if stream is not None:
            stream.close()
        if temporary is not None:
            try:
                os.unlink(temporary)
            except FileNotFoundError:
                pass
        raise
    finally:
        if current is not None:
            current.close()


def _temporary_beside(path: Path, current, prefix: int):
    """A new temporary sibling of `path` opened for writing, holding the first `prefix` bytes of `current`
    (found equal to the new content)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    stream = os.fdopen(handle, "wb", buffering=0)  # chunks come batched: buffering would only copy them
    try:
        if prefix:
            current.seek(0)
            while prefix:
                block = current.read(min(prefix, _PIECE))
                if not block:
                    raise OSError(f"{path} changed while it was compared")
                _write_all(stream, block)
                prefix -= len(block)
    except BaseException:
        stream.close()
        os.unlink(temporary)
        raise
    return temporary, stream


def _write_all(stream, data: bytes) -> None:
    """Write all of `data` to an unbuffered stream (which may take part of it per call)."""
    view = memoryview(data)
    while view:
        view = view[stream.write(view):]


# --- exclusive record creation --------------------------------------------------------------------------

LOCK_NAME = ".govern.lock"
STAGING_PREFIX = ".govern-staging-"
_COMMIT_MARKER = ".committed"
_TEMPORARY = re.compile(r"^\..+\.[A-Za-z0-9_]{6,}\.tmp$")


@contextlib.contextmanager
def project_lock(root: Path, timeout: float = 60.0) -> Iterator[None]:
    """Hold `<root>/.govern.lock` for the duration: commands that write records or generated files run one
    at a time, so a second `record new` sees the first one's record instead of forking the history.

    The lock is an fcntl lock (released by the kernel if the process dies), and the file is removed when
    released; a waiter that locked a file meanwhile removed retries on the new one.
    """
    import fcntl
    import time

    path = Path(root) / LOCK_NAME
    deadline = time.monotonic() + timeout
    while True:
        try:
            handle = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as error:
            raise InputError(Problem(str(path), f"cannot be created: {error.strerror}",
                                     hint="govern needs write access to the project to record changes")) from None
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(handle)
            if time.monotonic() > deadline:
                raise InputError(Problem(str(path), "is held by another govern command that is writing",
                                         hint="wait for it to finish, then run the command again")) from None
            time.sleep(0.05)
            continue
        try:
            same = os.path.samestat(os.fstat(handle), os.stat(path))
        except FileNotFoundError:
            same = False
        if same:
            break
        os.close(handle)
    try:
        yield
    finally:
        try:
            os.unlink(path)
        finally:
            os.close(handle)


def remove_stale_temporaries(folder: Path) -> None:
    """Remove what interrupted writes left (`.NAME.xxxx.tmp` files, uncommitted staging folders); finish
    committed staging folders. Only called under the project lock, when no other writer can be running."""
    try:
        entries = sorted(folder.iterdir()) if folder.is_dir() else []
    except OSError:
        return  # an unreadable folder is reported by the command's own reading or writing
    for entry in entries:
        if entry.name.startswith(STAGING_PREFIX) and entry.is_dir():
            if (entry / _COMMIT_MARKER).is_file():
                with writing(folder):
                    _move_staged(entry, folder, replace=True)
            else:
                shutil.rmtree(entry, ignore_errors=True)
        elif _TEMPORARY.match(entry.name) and entry.is_file():
            try:
                entry.unlink()
            except OSError:
                pass  # gone already, or not ours to remove: readers ignore it either way


def write_file_set(folder: Path, files: dict[str, str], *, replace: bool = False) -> None:
    """Put a set of files into `folder` all together: staged in a folder inside it, committed by a marker,
    then moved into place in the given order (the last one is what makes the set visible to readers).

    Without `replace`, no file may exist yet: the set is created exclusively and nothing is overwritten.
    A kill before the marker leaves only the staging folder (removed by the next write); a kill after it
    leaves a committed staging folder that the next write under the project lock finishes.
    """
    if not replace:
        existing = [name for name in files if (folder / name).exists()]
        if existing:
            raise FileExistsError(str(folder / existing[0]))
    with writing(folder):
        folder.mkdir(parents=True, exist_ok=True)
        stage = Path(tempfile.mkdtemp(prefix=STAGING_PREFIX, dir=folder))
        try:
            for name, text in files.items():
                _write_synced(stage / name, text.encode("utf-8"))
            _write_synced(stage / _COMMIT_MARKER, "\n".join(files).encode("utf-8"))
            _sync_directory(stage)
        except BaseException:
            shutil.rmtree(stage, ignore_errors=True)
            raise
        _move_staged(stage, folder, replace=replace)


def _move_staged(stage: Path, folder: Path, replace: bool) -> None:
    order = [name for name in (stage / _COMMIT_MARKER).read_text(encoding="utf-8").split("\n") if name]
    for name in order:
        source, target = stage / name, folder / name
        if not source.exists():
            continue  # moved before an interruption
        if replace:
            os.replace(source, target)
            continue
        try:
            os.link(source, target)  # fails if the target exists: never overwrite
        except FileExistsError:
            if target.read_bytes() != source.read_bytes():
                raise
        source.unlink()
    _sync_directory(folder)
    shutil.rmtree(stage, ignore_errors=True)


def _write_synced(path: Path, data: bytes) -> None:
    with open(path, "xb") as stream:
        stream.write(data)
        stream.flush()
        os.fsync(stream.fileno())
    os.chmod(path, 0o644)


def _sync_directory(folder: Path) -> None:
    try:
        handle = os.open(folder, os.O_RDONLY)
    except OSError:  # pragma: no cover - platforms without directory handles
        return
    try:
        os.fsync(handle)
    except OSError:  # pragma: no cover - file systems that cannot sync a directory
        pass
    finally:
        os.close(handle)
