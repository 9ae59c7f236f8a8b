"""The modules an installation compiles to C extensions, and which of the two runs: an extension is imported
only when it was built from the very source beside it.

Installing govern compiles the modules below with Cython where a C compiler is at hand (see setup.py): the
same Python source, run without the interpreter dispatching each of its instructions. They are where the time
of reading, hashing and comparing large sources goes. Where no compiler is at hand, the installation keeps the
Python source alone, which gives the same results, more slowly.

Python imports an extension in preference to the source beside it, also after that source was edited (a
checkout installed for development, then changed). So the build records, for each extension it built, the SHA-256
of the source it translated, the extension's file name and its size (see `manifest_name`, in the package's
folder), and the finder installed by `install` imports the source instead whenever the extension was not built
from the source as it is now, or when the environment sets PURE_PYTHON_VARIABLE (to compare the two, or to rule
the extensions out).

A listed module recurses only over structures of bounded depth (documents the reader accepted, nodes made from
them, at most 128 levels): compiled, its calls do not count towards Python's recursion limit and each takes more
of the C stack, so recursing without a bound would overflow the C stack where the source raises RecursionError.
(`govern.model.canonical`, which writes any JSON value a caller hands it, is therefore not listed.) Chains of
named types can be as long as the source: the question that follows them from one type to the next, whether an
operand guards names (`guards_names` in `govern.classify.changes`), keeps a stack of its own instead of recursing.

This module is read by setup.py on its own, so it imports nothing of govern's and only the standard library.
"""

from __future__ import annotations

import os
import sys
from importlib.machinery import EXTENSION_SUFFIXES
from importlib.util import spec_from_file_location

# The hot modules, by how much of a large source's time they take. A module listed here must be plain Python
# that any interpreter runs as written (the extension is built from it unchanged).
COMPILED_MODULES = (
    "govern.sources.jsonschema",
    "govern.model.fingerprint",
    "govern.model.render",
    "govern.model.inventory",
    "govern.model.graph",
    "govern.reader",
    "govern.sources.refs",
    "govern.sources.openapi",
    "govern.catalog.render",
    "govern.classify.changes",
    "govern.classify.classify",
    # The reader of written snapshots: a record's snapshot is read for every comparison with the records, and
    # its nodes are made here (it recurses at most MAX_DEPTH - 8 levels: `_DEPTH`).
    "govern.records.written_snapshot",
)

PACKAGE = "govern"
PURE_PYTHON_VARIABLE = "GOVERN_PURE_PYTHON"


def manifest_name(suffix: str = EXTENSION_SUFFIXES[0]) -> str:
    """The build record of the extensions for one interpreter (the extension file suffix it imports first, such as
    `.cpython-311-x86_64-linux-gnu.so`): one folder may hold the extensions of several interpreters."""
    return "_compiled" + suffix.rsplit(".", 1)[0] + ".json"


def is_set(variable: str) -> bool:
    """Whether an environment variable is set to something other than empty, 0, false or no."""
    return os.environ.get(variable, "").strip().lower() not in ("", "0", "false", "no")


# Why a module runs as it does (see `status`).
COMPILED = "compiled"
SOURCE_ASKED = "source: asked for by " + PURE_PYTHON_VARIABLE
SOURCE_NOT_BUILT = "source: no extension was built"
SOURCE_CHANGED = "source: changed since its extension was built"


def source_digest(path: str) -> str:
    """The SHA-256 of a source file's bytes, as the build records it."""
    import hashlib

    with open(path, "rb") as handle:
        return hashlib.sha256(handle.read()).hexdigest()


def read_manifest(path: str) -> dict[str, dict]:
    """Module name -> what the build recorded of its extension: the SHA-256 of the source it translated
    ("source"), the extension's file name ("extension") and size in bytes ("size"). Empty when there is no build
    record or it cannot be read (the sources then run, which is always correct)."""
    import json

    try:
        with open(path, "rb") as handle:
            recorded = json.loads(handle.read())
    except (OSError, ValueError):
        return {}
    modules = recorded.get("modules") if isinstance(recorded, dict) else None
    if not isinstance(modules, dict):
        return {}
    return {name: entry for name, entry in modules.items() if isinstance(name, str) and isinstance(entry, dict)
            and isinstance(entry.get("source"), str) and isinstance(entry.get("extension"), str)
            and type(entry.get("size")) is int}


def choose(name: str, source: str, extension: str | None, manifest: dict[str, dict], pure: bool) -> str:
    """Why `name` runs as it does (one of the reasons above): its extension only when one was built, the file
    that import would load is the one the build recorded, and it was built from the source as it is now, and the
    source was not asked for."""
    if extension is None:
        return SOURCE_NOT_BUILT
    if pure:
        return SOURCE_ASKED
    recorded = manifest.get(name)
    if recorded is None:
        return SOURCE_NOT_BUILT
    try:
        if os.path.basename(extension) != recorded["extension"] or os.path.getsize(extension) != recorded["size"]:
            return SOURCE_NOT_BUILT  # another file than the one built (left by another build, or put there)
        current = source_digest(source)
    except OSError:
        return SOURCE_CHANGED
    return COMPILED if current == recorded["source"] else SOURCE_CHANGED


class SourceUnlessCurrent:
    """A meta path finder for the compiled modules of one package folder: it leaves a module to the usual import
    (which takes the extension) only when `choose` says so, and otherwise gives the spec of its source."""

    def __init__(self, package_folder: str, package: str = PACKAGE, modules: tuple[str, ...] = COMPILED_MODULES):
        self.package_folder = os.path.realpath(package_folder)
        self.package = package  # (not the folder's name, which a link may change)
        self.modules = frozenset(modules)
        self.chosen: dict[str, str] = {}  # module name -> the reason it runs as it does
        self._manifest: dict[str, dict] | None = None

    def manifest(self) -> dict[str, dict]:
        if self._manifest is None:
            self._manifest = read_manifest(os.path.join(self.package_folder, manifest_name()))
        return self._manifest

    def locate(self, name: str) -> tuple[str, str | None] | None:
        """The module's source file and its extension file (None when there is none), when the module is one of
        this folder's compiled modules."""
        if name not in self.modules:
            return None
        parts = name.split(".")
        if parts[0] != self.package:
            return None
        folder = os.path.join(self.package_folder, *parts[1:-1])
        source = os.path.join(folder, parts[-1] + ".py")
        if not os.path.isfile(source):
            return None
        for suffix in EXTENSION_SUFFIXES:
            extension = os.path.join(folder, parts[-1] + suffix)
            if os.path.isfile(extension):
                return source, extension
        return source, None

    def find_spec(self, name: str, path=None, target=None):
        if name not in self.modules or not path:
            return None
        # Only for the package this finder belongs to (another copy of govern on the path has its own).
        inside = self.package_folder + os.sep
        if not any(folder == self.package_folder or folder.startswith(inside)
                   for folder in map(os.path.realpath, path)):
            return None
        located = self.locate(name)
        if located is None:
            return None
        source, extension = located
        reason = self.chosen[name] = self.reason(name)
        if reason == COMPILED or extension is None:
            return None  # the usual import: the extension, or the source when there is none
        return spec_from_file_location(name, source)

    def reason(self, name: str) -> str:
        """Why one of this folder's compiled modules runs as it would if imported now (see `choose`)."""
        located = self.locate(name)
        source, extension = located if located is not None else ("", None)
        return choose(name, source, extension, self.manifest() if extension else {}, is_set(PURE_PYTHON_VARIABLE))


def install(package_folder: str, package: str = PACKAGE) -> SourceUnlessCurrent:
    """Put the finder for `package_folder` first on the import path, once per folder, and return it."""
    folder = os.path.realpath(package_folder)
    for finder in sys.meta_path:
        if isinstance(finder, SourceUnlessCurrent) and finder.package_folder == folder:
            return finder
    finder = SourceUnlessCurrent(folder, package)
    sys.meta_path.insert(0, finder)
    return finder


def summary() -> str:
    """How many compiled modules of the govern that is running run compiled, without importing them (`govern
    --version` says it): "12 of 12 modules compiled", and why the others run their source."""
    import govern

    finder = install(os.path.dirname(govern.__file__))
    reasons = [finder.reason(name) for name in COMPILED_MODULES]
    text = f"{reasons.count(COMPILED)} of {len(COMPILED_MODULES)} modules compiled"
    others = sorted(set(reasons) - {COMPILED})
    return text + "".join(f"; {count} {'runs its' if count == 1 else 'run their'} {reason}"
                          for count, reason in ((reasons.count(reason), reason) for reason in others))


def status() -> dict[str, str]:
    """Each compiled module of the govern that is running, with why it runs as it does (importing those not
    imported yet)."""
    import importlib

    import govern

    finder = install(os.path.dirname(govern.__file__))
    for name in COMPILED_MODULES:
        importlib.import_module(name)
    return {name: finder.chosen[name] for name in COMPILED_MODULES}
