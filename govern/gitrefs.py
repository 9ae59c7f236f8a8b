"""Reading a project as it is in a git commit or tree, without checking anything out.

`govern diff --against REF` and the merge driver of the generated files both need the sources of another
tree: the files under the project are read from git's object store (`git ls-tree`, `git cat-file`) into a
temporary copy, and the sources are loaded from there with the configuration that tree holds.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import tempfile
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Iterator

from govern.config import Config
from govern.errors import InputError, Problem

# What a source can be made of: schema documents, Python modules, the configuration itself, and the
# records' Markdown (views generated from the history read it).
SOURCE_SUFFIXES = (".json", ".yaml", ".yml", ".py", ".toml", ".md")


@dataclass(frozen=True)
class Repository:
    top: Path  # the work tree's top folder
    prefix: str  # the project's folder relative to it ("" or ending in "/")


def git(repository_dir: Path, *args: str, input_bytes: bytes | None = None) -> subprocess.CompletedProcess:
    try:
        return subprocess.run(["git", *args], cwd=repository_dir, input=input_bytes, capture_output=True)
    except FileNotFoundError:
        raise InputError(Problem("git", "is not installed", hint="install git to compare with a git ref")) from None


def repository_of(project_root: Path) -> Repository:
    result = git(project_root, "rev-parse", "--show-toplevel", "--show-prefix")
    if result.returncode != 0:
        raise InputError(Problem(str(project_root), "is not inside a git work tree",
                                 hint="run `git init`, or compare two files with `govern diff OLD NEW`"))
    top, prefix = result.stdout.decode("utf-8").split("\n")[:2]
    return Repository(Path(top), prefix)


def resolve_tree(repository: Repository, ref: str) -> str:
    """The tree id of a commit, tag, branch or tree; an unknown ref is an input error naming it."""
    result = git(repository.top, "rev-parse", "--verify", "--quiet", "--end-of-options", f"{ref}^{{tree}}")
    if result.returncode != 0:
        raise InputError(Problem(ref, "is not a commit or tree of this repository",
                                 hint="use a branch, tag or commit such as main, HEAD~1 or origin/main"))
    return result.stdout.decode("ascii").strip()


def materialize(repository: Repository, tree: str, target: Path) -> Path:
    """Write the project's source-like files of `tree` under `target`; return the project's folder there."""
    listing = git(repository.top, "ls-tree", "-r", "-z", "--full-tree", tree, "--", repository.prefix or ".")
    if listing.returncode != 0:
        raise InputError(Problem(tree, f"cannot be listed: {listing.stderr.decode('utf-8', 'replace').strip()}"))
    blobs: list[tuple[str, str]] = []
    for line in listing.stdout.decode("utf-8").split("\0"):
        if not line:
            continue
        meta, path = line.split("\t", 1)
        _, kind, blob = meta.split()
        if kind == "blob" and path.endswith(SOURCE_SUFFIXES):
            blobs.append((blob, path))
    contents = _read_blobs(repository, [blob for blob, _ in blobs])
    for (blob, path), data in zip(blobs, contents):
        destination = target / path
        destination.parent.mkdir(parents=True, exist_ok=True)
        destination.write_bytes(data)
    project = target / repository.prefix
    project.mkdir(parents=True, exist_ok=True)
    return project


def _read_blobs(repository: Repository, blobs: list[str]) -> list[bytes]:
    """Every blob's content through one `git cat-file --batch`, not one process per file."""
    if not blobs:
        return []
    result = git(repository.top, "cat-file", "--batch", input_bytes="".join(f"{blob}\n" for blob in blobs).encode())
    output, position, contents = result.stdout, 0, []
    for _ in blobs:
        header_end = output.index(b"\n", position)
        size = int(output[position:header_end].split()[2])
        contents.append(output[header_end + 1: header_end + 1 + size])
        position = header_end + 1 + size + 1
    return contents


def config_at(current: Config, project: Path) -> Config:
    """The configuration the materialized tree holds, or the current one pointed at it when it holds none."""
    from govern.config import configured_in, load_config

    if configured_in(project) is not None:
        return load_config(project)
    return replace(current, project_root=project)


@contextlib.contextmanager
def isolated_imports(packages: set[str]) -> Iterator[None]:
    """Import `packages` afresh inside the block and forget that copy afterwards.

    The current copy of an application's modules (already imported, or imported later) must never be
    confused with the copy of another tree: both have the same module names.
    """
    def owned(name: str) -> bool:
        return name.partition(".")[0] in packages

    before_path = list(sys.path)
    stashed = {name: module for name, module in sys.modules.items() if owned(name)}
    for name in stashed:
        del sys.modules[name]
    try:
        yield
    finally:
        sys.path[:] = before_path
        for name in [name for name in sys.modules if owned(name)]:
            del sys.modules[name]
        sys.modules.update(stashed)


def load_configured_isolated(config: Config, then=None):
    """The configured sources of a copy of the project, its modules imported apart from the current copy's;
    `then(graphs)`, when given, runs while that copy is imported (it may look at the models) and its
    result is returned instead of the graphs."""
    from govern.sources.load import load_configured

    packages = {source.path.partition(":")[0].partition(".")[0] for source in config.sources
                if source.kind == "pydantic"}
    with isolated_imports(packages):
        graphs = load_configured(config)
        return then(graphs) if then is not None else graphs


def load_at(config: Config, ref: str) -> list:
    """The configured sources as they are at `ref` (a source absent there contributes no roots)."""
    repository = repository_of(config.project_root)
    tree = resolve_tree(repository, ref)
    with tempfile.TemporaryDirectory(prefix="govern-ref-") as temporary:
        project = materialize(repository, tree, Path(temporary))
        then = config_at(config, project)
        present = replace(then, sources=tuple(source for source in then.sources if _exists(then, source)))
        return load_configured_isolated(present)


def _exists(config: Config, source) -> bool:
    """Whether a source is in the materialized tree (a module elsewhere, say installed, would be another copy)."""
    from govern.sources.pydantic import module_file, module_search_path

    if source.kind != "pydantic":
        return (config.project_root / source.path).exists()
    search_path = module_search_path(config.project_root, config.pythonpath)
    return module_file(search_path, source.path.partition(":")[0]) is not None


RECURSION_GUARD = "GOVERN_MERGE_GENERATED"


def merge_env_theirs() -> str | None:
    """The commit being merged in, which git names to merge drivers only through a GITHEAD_<id> variable."""
    found = [name[len("GITHEAD_"):] for name in os.environ if name.startswith("GITHEAD_")]
    return found[0] if len(found) == 1 else None


class MergeUnresolved(Exception):
    """The generated file cannot be regenerated here; git must report a conflict. The reason says why."""


def regenerate_merged(repository: Repository, path: str) -> str:
    """The content of the generated file `path` (relative to the work tree's top) for the merged sources.

    Git runs merge drivers before it writes anything to the work tree, so the merged sources exist only
    as a tree: `git merge-tree --write-tree` builds it from HEAD and the commit being merged, the project
    is materialized from that tree, and the file is generated as `govern extract` would.
    """
    from govern.config import find_project_root, load_config
    from govern.extract import generated_files
    from govern.model.inventory import build_inventory

    if os.environ.get(RECURSION_GUARD):
        raise MergeUnresolved("nested merge: left to the outer merge")
    theirs = merge_env_theirs()
    if theirs is None:
        raise MergeUnresolved("git did not name the commit being merged (only `git merge` and `git pull` do)")
    environment = {**os.environ, RECURSION_GUARD: "1"}
    merged = subprocess.run(["git", "merge-tree", "--write-tree", "--name-only", "HEAD", theirs],
                            cwd=repository.top, capture_output=True, env=environment)
    lines = merged.stdout.decode("utf-8").split("\n")
    if merged.returncode not in (0, 1) or not lines[0]:
        raise MergeUnresolved(f"git merge-tree failed: {merged.stderr.decode('utf-8', 'replace').strip()}")
    # --name-only: the tree, one conflicted path per line, a blank line, then messages.
    rest = lines[1:]
    tree, conflicted = lines[0], rest[:rest.index("") if "" in rest else len(rest)]
    current = load_config(find_project_root(repository.top / Path(path).parent))
    prefix = current.project_root.relative_to(repository.top).as_posix()
    with tempfile.TemporaryDirectory(prefix="govern-merge-") as temporary:
        project = materialize(Repository(repository.top, "" if prefix == "." else prefix + "/"), tree,
                              Path(temporary))
        config = config_at(current, project)
        generated_names = {file.relative_to(Path(temporary)).as_posix() for file in _generated_paths(config)}
        sources_conflicted = sorted(set(conflicted) - generated_names)
        if sources_conflicted:
            raise MergeUnresolved(f"the sources conflict ({', '.join(sources_conflicted)}): resolve them, "
                                  "then run `govern extract`")
        if path not in generated_names:
            raise MergeUnresolved(f"{path} is not a file `govern extract` generates")
        files = load_configured_isolated(config, lambda graphs: generated_files(config, build_inventory(graphs)))
        return {file.path.relative_to(Path(temporary)).as_posix(): file.text for file in files}[path]


def _generated_paths(config: Config) -> list[Path]:
    """The files `govern extract` writes, known without reading the sources (which may conflict)."""
    from govern.catalog.render import page_languages, page_name
    from govern.extract import format_reference_files

    schemas = config.path(config.schemas_dir)
    catalogs = [schemas / page_name("catalog", language) for language in page_languages(tuple(config.languages))]
    return [schemas / "inventory.json", *catalogs, *(file.path for file in format_reference_files(config))]
