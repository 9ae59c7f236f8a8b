"""Where a sidecar lives: the document path is the sidecar key.

The sidecar of `docs/spec.md` is `.threads/docs/spec.md.json` at the top of the same git work tree, and
its `document.path` says `docs/spec.md`. A file under that `.threads/` directory whose name and
`document.path` disagree would be attached to the wrong document by every reader keyed by path.
"""

from __future__ import annotations

import subprocess
from pathlib import Path, PurePosixPath
from typing import Any

from govern.errors import InputError, Problem
from govern.sidecar.contract import SIDECAR_DIR
from govern.sidecar.validate import ERROR, NOTE, Finding

SIDECAR_SUFFIX = ".json"


def git(directory: Path, *arguments: str) -> str | None:
    try:
        completed = subprocess.run(["git", *arguments], cwd=directory, capture_output=True, text=True, check=False)
    except OSError:
        return None
    value = completed.stdout.strip()
    return value if completed.returncode == 0 and value else None


def find_repo_root(start: Path) -> Path | None:
    directory = start if start.is_dir() else start.parent
    # A sidecar about to be created may sit in directories that do not exist yet.
    while not directory.is_dir() and directory != directory.parent:
        directory = directory.parent
    root = git(directory, "rev-parse", "--show-toplevel")
    return Path(root) if root else None


def document_key(document: Path, repo_root: Path | None) -> str:
    """The repository-relative path that names the document (and its sidecar)."""
    if repo_root is None:
        return PurePosixPath(*document.parts).as_posix()
    try:
        relative = document.resolve().relative_to(repo_root.resolve())
    except ValueError:
        raise InputError(Problem(str(document), f"is outside the repository {repo_root}",
                                 hint="pass --sidecar to say where its sidecar lives")) from None
    return relative.as_posix()


def sidecar_path_for(key: str, repo_root: Path) -> Path:
    return repo_root / SIDECAR_DIR / (key + SIDECAR_SUFFIX)


def sidecar_relative_path(path: Path) -> str | None:
    """The path of `path` inside the `.threads/` directory of its git work tree, or None when outside it."""
    resolved = path.resolve()
    if SIDECAR_DIR not in resolved.parts[:-1]:
        return None  # the common case of a file elsewhere needs no git call
    root = find_repo_root(resolved)
    if root is None:
        return None
    try:
        return resolved.relative_to((root / SIDECAR_DIR).resolve()).as_posix()
    except ValueError:
        return None


def location_findings(artifact: Any, path: Path) -> tuple[Finding, ...]:
    """Compare `document.path` with the file's location when the file lives under the sidecar root."""
    document = artifact.get("document") if isinstance(artifact, dict) else None
    declared = document.get("path") if isinstance(document, dict) else None
    if not isinstance(declared, str):
        return ()  # the schema finding says what is wrong with it
    relative = sidecar_relative_path(path)
    if relative is None:
        return (Finding("location-not-checked", "/document/path",
                        f"the file is not under the {SIDECAR_DIR}/ directory of a git work tree, so "
                        f"document.path {declared!r} was not compared with its location", NOTE),)
    key = relative[:-len(SIDECAR_SUFFIX)] if relative.endswith(SIDECAR_SUFFIX) else None
    if key == declared:
        return ()
    described = f"describes {key!r}" if key is not None else f"is not named <document path>{SIDECAR_SUFFIX}"
    return (Finding("document-path-mismatch", "/document/path",
                    f"document.path is {declared!r}, but the sidecar at {SIDECAR_DIR}/{relative} {described}: "
                    f"the document path is the sidecar key (move the file to "
                    f"{SIDECAR_DIR}/{declared}{SIDECAR_SUFFIX} or correct document.path)", ERROR),)
