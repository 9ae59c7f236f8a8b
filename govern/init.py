"""Setting up govern in a repository: detect the sources named, propose roots and roles, write the configuration.

Everything is read and checked before anything is written: the proposed configuration is parsed and every
source loaded with it, so `govern init` never leaves a configuration that the next command refuses.
"""

from __future__ import annotations

import glob
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping

from govern.config import CONFIG_FILE, ROLES, Config, parse_config
from govern.errors import InputError, Problem, Refusal
from govern.model.graph import TypeGraph

SERIALIZATION_SUFFIX = "~serialization"  # see govern.sources.pydantic.MODES
# A property whose constant value names the kind of a stored document marks an event (one of many kinds
# appended to one log); anything else is proposed as a record.
EVENT_TAGS = ("kind", "type", "event", "event_type", "eventType")


@dataclass(frozen=True)
class ProposedSource:
    name: str
    kind: str
    path: str
    roots: tuple[tuple[str, str | None, str], ...]  # (root name, at, role) written to the configuration
    graph: TypeGraph


@dataclass(frozen=True)
class InitPlan:
    config_path: Path
    text: str  # the whole new content of config_path
    sources: tuple[ProposedSource, ...]
    records_dir: Path
    config: Config
    gitattributes: str | None  # the new content of .gitattributes, when lines are missing from it


MERGE_DRIVER = "govern-generated"
MERGE_DRIVER_COMMAND = 'git config merge.govern-generated.driver "govern merge-generated %O %A %B %P"'


def merge_attributes(config: Config) -> list[str]:
    """The .gitattributes lines that send the generated files to the merge driver regenerating them."""
    from govern.catalog.render import FORMATS_FOLDER

    schemas = config.schemas_dir.strip("/")
    return [f"{schemas}/inventory.json merge={MERGE_DRIVER}", f"{schemas}/catalog*.md merge={MERGE_DRIVER}",
            f"{schemas}/{FORMATS_FOLDER}/** merge={MERGE_DRIVER}"]


def plan_init(project_root: Path, specs: list[str], languages: tuple[str, ...], cwd: Path) -> InitPlan:
    from govern.sources.load import load_source

    project_root = project_root.resolve()
    pyproject = project_root / "pyproject.toml"
    config_path = pyproject if pyproject.is_file() else project_root / CONFIG_FILE
    _refuse_existing_configuration(project_root, pyproject)
    if not specs:
        raise Refusal(Problem(str(project_root), "no sources named",
                              hint="name the schema files and pydantic modules to govern, e.g. "
                                   "`govern init schemas/*.json app.models`"))
    detected = _detect(project_root, specs, cwd)
    table = {"languages": list(languages),
             "sources": [{"name": name, "kind": kind, "path": path} for name, kind, path in detected]}
    config = parse_config(table, project_root, str(config_path))
    proposed: list[ProposedSource] = []
    problems: list[Problem] = []
    for source in config.sources:
        try:
            graph = load_source(source, project_root)
        except InputError as error:
            problems.extend(error.problems)
            continue
        roots = _propose_roots(source.kind, graph)
        proposed.append(ProposedSource(source.name, source.kind, source.path, roots, graph))
    if problems:
        raise InputError(problems)
    # The configuration as written must load the same way: parse it again from the proposal.
    for entry, source in zip(table["sources"], proposed):
        if source.roots:
            entry["roots"] = {name: {"role": role, **({"at": at} if at else {})} for name, at, role in source.roots}
    config = parse_config(table, project_root, str(config_path))
    # What the next command will see: the sources read again with the roots and roles as written.
    proposed = [ProposedSource(source.name, source.kind, source.path, source.roots, load_source(configured, project_root))
                for source, configured in zip(proposed, config.sources)]
    section = _toml(table, top_level=config_path.name == CONFIG_FILE)
    if config_path == pyproject:
        existing = pyproject.read_text(encoding="utf-8")
        text = existing + ("" if existing.endswith("\n") or not existing else "\n") + "\n" + section
    else:
        text = section
    attributes_path = project_root / ".gitattributes"
    existing_attributes = attributes_path.read_text(encoding="utf-8") if attributes_path.is_file() else ""
    missing = [line for line in merge_attributes(config) if line not in existing_attributes.splitlines()]
    attributes = None
    if missing:
        separator = "" if not existing_attributes or existing_attributes.endswith("\n") else "\n"
        attributes = existing_attributes + separator + "\n".join(missing) + "\n"
    return InitPlan(config_path, text, tuple(proposed), project_root / config.records_dir, config, attributes)


def write_init(plan: InitPlan) -> None:
    from govern.fsio import atomic_write_text

    atomic_write_text(plan.config_path, plan.text)
    if plan.gitattributes is not None:
        atomic_write_text(plan.config.project_root / ".gitattributes", plan.gitattributes)
    plan.records_dir.mkdir(parents=True, exist_ok=True)


def _refuse_existing_configuration(project_root: Path, pyproject: Path) -> None:
    from govern.config import configured_in

    if configured_in(project_root) is not None:
        raise Refusal(Problem(str(configured_in(project_root)), "already configures govern",
                              hint="edit the configuration, or run `govern verify`"))


def _detect(project_root: Path, specs: list[str], cwd: Path) -> list[tuple[str, str, str]]:
    """(source name, kind, path or module) for every spec: files by content, anything else as a module."""
    from govern.fsio import read_document
    from govern.sources.jsonschema import _stem
    from govern.sources.load import _MODEL_SPEC

    found: list[tuple[str, str, str]] = []
    problems: list[Problem] = []
    names: set[str] = set()
    for spec in specs:
        paths = [Path(match) for match in sorted(glob.glob(str(cwd / spec)))] if glob.has_magic(spec) else \
            [cwd / spec]
        if not paths:
            problems.append(Problem(spec, "matches no file", hint="check the pattern"))
            continue
        for path in paths:
            if not path.exists() and _MODEL_SPEC.match(spec) and not spec.endswith((".json", ".yaml", ".yml")):
                name, kind, where = spec.partition(":")[0].rsplit(".", 1)[-1], "pydantic", spec
            else:
                try:
                    relative = path.resolve().relative_to(project_root).as_posix()
                except ValueError:
                    problems.append(Problem(str(path), "is outside the project",
                                            hint=f"sources must be inside {project_root}"))
                    continue
                try:
                    content = read_document(path)
                except InputError as error:
                    problems.extend(error.problems)
                    continue
                kind = "openapi" if isinstance(content, dict) and "openapi" in content else "jsonschema"
                name, where = _stem(path.name), relative
            name = _unique(re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-") or "source", names)
            names.add(name)
            found.append((name, kind, where))
    if problems:
        raise InputError(problems)
    return found


def _unique(name: str, taken: set[str]) -> str:
    candidate, number = name, 2
    while candidate in taken:
        candidate, number = f"{name}-{number}", number + 1
    return candidate


def _propose_roots(kind: str, graph: TypeGraph) -> tuple[tuple[str, str | None, str], ...]:
    """The roots to write: a JSON Schema file is one root (its document); others keep discovery, and only
    roles other than the default `record` need writing down."""
    proposed = []
    aliases = graph.alias_targets  # (each chain of aliases followed once, for all the roots)
    for root_id, root in sorted(graph.roots.items()):
        name = root_id.partition(":")[2]
        location = graph.locations.get(root.type_key, "")
        role = "event" if _is_event(graph, root.type_key, aliases) else "record"
        if kind == "jsonschema":
            if location.endswith("#"):
                proposed.append((name, "#", role))
        elif role != "record" and not (kind == "pydantic" and name.endswith(SERIALIZATION_SUFFIX)):
            # A model's role covers both of its roots (validation and serialization).
            proposed.append((name, None, role))
    if kind == "jsonschema" and not proposed:
        return ()  # a file of definitions only: every definition stays a root
    assert all(role in ROLES for _, _, role in proposed)
    return tuple(proposed)


def _is_event(graph: TypeGraph, type_key: str, aliases: Mapping[str, str]) -> bool:
    """Whether the type is an object with a literal event tag. `aliases`: the type each alias of the graph stands
    for (see `TypeGraph.alias_targets`)."""
    from govern.model.nodes import Literal, Object, Ref

    node = graph.types[aliases.get(type_key, type_key)].node
    if not isinstance(node, Object):
        return False
    for prop in node.properties:
        value = prop.node
        if isinstance(value, Ref):
            value = graph.types[aliases.get(value.target, value.target)].node
        if prop.name in EVENT_TAGS and isinstance(value, Literal):
            return True
    return False


def _toml(table: dict, top_level: bool) -> str:
    """The configuration as TOML, keys in a fixed order (strings JSON-quoted, which TOML reads alike)."""
    prefix = "" if top_level else "tool.govern."
    lines = [] if top_level else ["[tool.govern]"]
    lines.append(f"languages = [{', '.join(json.dumps(language) for language in table['languages'])}]")
    for source in table["sources"]:
        lines += ["", f"[[{prefix}sources]]"]
        lines += [f"{key} = {json.dumps(source[key])}" for key in ("name", "kind", "path")]
        if source.get("roots"):
            entries = []
            for name, spec in source["roots"].items():
                fields = ", ".join(f"{key} = {json.dumps(value)}" for key, value in spec.items())
                entries.append(f"{_toml_key(name)} = {{ {fields} }}")
            lines.append(f"roots = {{ {', '.join(entries)} }}")
    return "\n".join(lines) + "\n"


def _toml_key(name: str) -> str:
    return name if re.fullmatch(r"[A-Za-z0-9_-]+", name) else json.dumps(name)
