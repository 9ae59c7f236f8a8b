"""The `[tool.govern]` configuration of a project, parsed into frozen dataclasses.

Every problem names the offending key (for example `tool.govern.sources[1].kind`) so the fix is obvious.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from govern.errors import ConfigError, InputError, Problem
from govern.fsio import within

SOURCE_KINDS = ("jsonschema", "openapi", "pydantic")
ROLES = ("record", "event", "header", "envelope")
LANGUAGES = ("en", "zh")  # the default; any list works, its first language is the source language
# The JSON Schema dialects a source can be read in, whatever its `$schema` says.
DIALECT_NAMES = ("2020-12", "2019-09", "draft-07", "draft-06", "draft-04")
# Compatibility modes: the seed's rule table, or the directions schema registries check (transitive:
# against every earlier record of the root, not only the predecessor).
MODES = ("persistence", "backward", "forward", "full", "backward-transitive", "forward-transitive",
         "full-transitive")
LANGUAGE_TAG = re.compile(r"^[a-z]{2,3}(?:-[a-z0-9]+)*$")


@dataclass(frozen=True)
class RootConfig:
    """A root declared in the configuration: where its type is and which role it plays."""

    name: str
    role: str = "record"
    # Where the type is, in the source's own terms: a JSON pointer (jsonschema), a component name
    # (openapi) or a model class name (pydantic). None lets the adapter find it by name.
    at: str | None = None


@dataclass(frozen=True)
class SourcePolicy:
    """Where a source may bind a preservation policy (`x-persistence-source`) and which policies exist.

    A binding sits on a source property of an object whose `role` property is a literal among `roles`;
    its policy version is one of `policies`.
    """

    roles: tuple[str, ...] = ("user", "developer")
    policies: tuple[int, ...] = (1,)


@dataclass(frozen=True)
class SourceConfig:
    name: str
    kind: str
    path: str
    roots: tuple[RootConfig, ...] = ()
    # JSON pointer into the source document to the format version: a property schema marked with
    # x-persistence-version, or a plain value such as an OpenAPI info.version.
    format_version: str | None = None
    # Whether roots beyond the declared ones are discovered (OpenAPI bodies, pydantic module models).
    discover: bool = True
    # The JSON Schema dialect to read the source in, whatever its `$schema` declares (None: as declared).
    dialect: str | None = None
    # The compatibility mode its changes are decided in (MODES).
    mode: str = "persistence"
    # Keyword patterns (fnmatch, such as "x-kubernetes-*") that carry no structure in this source.
    annotations: tuple[str, ...] = ()
    # The conditions of its x-persistence-source bindings (the persistence-source table).
    source_policy: SourcePolicy = SourcePolicy()


@dataclass(frozen=True)
class Config:
    project_root: Path
    sources: tuple[SourceConfig, ...]
    schemas_dir: str = "schemas"
    records_dir: str = "records"
    templates_dir: str = "templates"
    languages: tuple[str, ...] = LANGUAGES
    # Folders (relative to the project root) that pydantic modules are imported from before the project
    # root itself and before anything installed: the copy being checked, never an installed one.
    pythonpath: tuple[str, ...] = ()
    # Resolved folders outside the project root that `allow-outside` opens for paths and `$ref` targets.
    allow_outside: tuple[Path, ...] = ()
    # The branch where records become accepted history (None: origin/main when present, else main).
    base: str | None = None

    def path(self, relative: str) -> Path:
        return self.project_root / relative

    def source(self, name: str) -> SourceConfig:
        for source in self.sources:
            if source.name == name:
                return source
        raise KeyError(name)


CONFIG_FILE = "govern.toml"  # the configuration of a project without pyproject.toml (or preferring its own file)


def find_project_root(start: Path) -> Path:
    start = start.resolve()
    for candidate in (start, *start.parents):
        if (candidate / CONFIG_FILE).is_file() or (candidate / "pyproject.toml").is_file():
            return candidate
    raise InputError(
        Problem(str(start), f"no {CONFIG_FILE} or pyproject.toml here or in any parent directory",
                hint="run govern inside a project, pass --project DIR, or set it up with `govern init`")
    )


def configured_in(project_root: Path) -> Path | None:
    """The file configuring govern in a project: govern.toml, or pyproject.toml with a [tool.govern] table."""
    if (project_root / CONFIG_FILE).is_file():
        return project_root / CONFIG_FILE
    pyproject = project_root / "pyproject.toml"
    if pyproject.is_file() and _load_toml(pyproject).get("tool", {}).get("govern") is not None:
        return pyproject
    return None


def _load_toml(path: Path) -> dict[str, Any]:
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - exercised on Python 3.10 only
        import tomli as tomllib
    try:
        with path.open("rb") as handle:
            return tomllib.load(handle)
    except OSError as error:
        raise InputError(Problem(str(path), f"cannot be read: {error.strerror}")) from None
    except UnicodeDecodeError as error:
        raise InputError(Problem(str(path), f"is not UTF-8 (invalid byte at offset {error.start})",
                                 hint="save the file as UTF-8")) from None
    except tomllib.TOMLDecodeError as error:
        raise InputError(Problem(str(path), f"is not valid TOML: {error}")) from None


def _govern_table(document: dict[str, Any], pyproject: Path) -> dict[str, Any] | None:
    tool = document.get("tool", {})
    if not isinstance(tool, dict):
        raise ConfigError(Problem(str(pyproject), "tool must be a table", hint="write [tool.govern] as a table"))
    table = tool.get("govern")
    if table is not None and not isinstance(table, dict):
        raise ConfigError(Problem(str(pyproject), "tool.govern must be a table, not "
                                  f"{'an array of tables' if isinstance(table, list) else 'a ' + type(table).__name__}",
                                  hint="write [tool.govern] (one pair of brackets) with its keys below it"))
    return table


def load_config(project_root: Path) -> Config:
    """The configuration of govern.toml (its top level) or of [tool.govern] in pyproject.toml; never both."""
    pyproject = project_root / "pyproject.toml"
    own = project_root / CONFIG_FILE
    table = _govern_table(_load_toml(pyproject), pyproject) if pyproject.is_file() else None
    if own.is_file():
        if table is not None:
            raise ConfigError(Problem(str(own), "and [tool.govern] in pyproject.toml both configure govern",
                                      hint="keep one of them"))
        return parse_config(_load_toml(own), project_root, str(own))
    if table is None:
        raise ConfigError(Problem(str(pyproject), "has no [tool.govern] table",
                                  hint="set govern up with `govern init SOURCE...`, or declare at least one "
                                       "[[tool.govern.sources]] entry"))
    return parse_config(table, project_root, str(pyproject))


def parse_config(table: dict[str, Any], project_root: Path, origin: str = "pyproject.toml") -> Config:
    problems: list[Problem] = []

    prefix = "" if Path(origin).name == CONFIG_FILE else "tool.govern."

    def wrong(key: str, reason: str, hint: str | None = None) -> None:
        problems.append(Problem(origin, f"{prefix}{key}: {reason}", hint=hint))

    known = {"sources", "schemas", "records", "templates", "languages", "pythonpath", "allow-outside", "base"}
    for key in sorted(set(table) - known):
        wrong(key, "unknown key", hint=f"known keys: {', '.join(sorted(known))}")

    def text(key: str, default: str) -> str:
        value = table.get(key, default)
        if not isinstance(value, str) or not value:
            wrong(key, "must be a non-empty string (a path relative to the project root)")
            return default
        return value

    allow_outside: list[Path] = []
    raw_allowed = table.get("allow-outside", [])
    if not isinstance(raw_allowed, list) or not all(isinstance(folder, str) and folder for folder in raw_allowed):
        wrong("allow-outside", "must be a list of folders (relative to the project root, or absolute)",
              hint='allow-outside = ["../shared-schemas"]')
    else:
        allow_outside = [(project_root / folder).resolve() for folder in raw_allowed]
    boundaries = (project_root.resolve(), *allow_outside)

    def contained(key: str, relative: str, folder: bool) -> None:
        """The project root is a boundary: configured paths stay inside it unless allow-outside opens them."""
        target = (project_root / relative).resolve()
        if not within(target, boundaries):
            wrong(key, f"{relative} leaves the project root",
                  hint=f'keep it inside the project, or open the folder with allow-outside = ["{relative}"]')
        elif folder and target.exists() and not target.is_dir():
            wrong(key, f"{relative} is a file, not a folder")

    schemas_dir = text("schemas", "schemas")
    records_dir = text("records", "records")
    templates_dir = text("templates", "templates")
    for key, folder_path in (("schemas", schemas_dir), ("records", records_dir), ("templates", templates_dir)):
        contained(key, folder_path, folder=True)

    base = table.get("base")
    if base is not None and (not isinstance(base, str) or not base or base.startswith("-")):
        wrong("base", "must be a git branch or ref such as main or origin/main")
        base = None

    languages = table.get("languages", list(LANGUAGES))
    if not isinstance(languages, list) or not languages or \
            not all(isinstance(tag, str) and LANGUAGE_TAG.match(tag) for tag in languages) or \
            len(set(languages)) != len(languages):
        wrong("languages", "must be a non-empty list of distinct lowercase language tags, the source language "
              "first", hint='languages = ["en"] for English only, or ["en", "zh"] (the default)')
        languages = list(LANGUAGES)

    # A src/ layout is the common case where an installed copy would shadow the one being checked.
    pythonpath = table.get("pythonpath", ["src"] if (project_root / "src").is_dir() else [])
    if not isinstance(pythonpath, list) or not all(isinstance(folder, str) and folder for folder in pythonpath):
        wrong("pythonpath", "must be a list of folders relative to the project root", hint='pythonpath = ["src"]')
        pythonpath = []
    for position, folder_path in enumerate(pythonpath):
        contained(f"pythonpath[{position}]", folder_path, folder=True)

    raw_sources = table.get("sources", [])
    sources: list[SourceConfig] = []
    if not isinstance(raw_sources, list) or not raw_sources:
        wrong("sources", "must be a non-empty array of tables", hint="add a [[tool.govern.sources]] entry")
        raw_sources = []
    seen: set[str] = set()
    for index, raw in enumerate(raw_sources):
        key = f"sources[{index}]"
        if not isinstance(raw, dict):
            wrong(key, "must be a table")
            continue
        source = _parse_source(raw, key, wrong)
        if source is None:
            continue
        if source.name in seen:
            wrong(f"{key}.name", f"duplicates the source name {source.name!r}")
        seen.add(source.name)
        if source.kind != "pydantic":
            contained(f"{key}.path", source.path, folder=False)
            if not (project_root / source.path).exists():
                wrong(f"{key}.path", f"{source.path} does not exist", hint="paths are relative to the project root")
        sources.append(source)

    if problems:
        raise ConfigError(problems)
    return Config(project_root=project_root, sources=tuple(sources), schemas_dir=schemas_dir,
                  records_dir=records_dir, templates_dir=templates_dir, languages=tuple(languages),
                  pythonpath=tuple(pythonpath), allow_outside=tuple(allow_outside), base=base)


def _parse_source(raw: dict[str, Any], key: str, wrong) -> SourceConfig | None:
    known = {"name", "kind", "path", "roots", "format-version", "discover", "dialect", "mode", "annotations",
             "persistence-source"}
    for extra in sorted(set(raw) - known):
        wrong(f"{key}.{extra}", "unknown key", hint=f"known keys: {', '.join(sorted(known))}")
    name, kind, path = raw.get("name"), raw.get("kind"), raw.get("path")
    ok = True
    if not isinstance(name, str) or not name or ":" in name:
        wrong(f"{key}.name", "must be a non-empty string without ':'")
        ok = False
    if kind not in SOURCE_KINDS:
        wrong(f"{key}.kind", f"must be one of {', '.join(SOURCE_KINDS)}, not {kind!r}")
        ok = False
    if not isinstance(path, str) or not path:
        wrong(f"{key}.path", "must be a file path (jsonschema, openapi) or a module name (pydantic)")
        ok = False
    format_version = raw.get("format-version")
    if format_version is not None and (not isinstance(format_version, str) or
                                       not (format_version == "" or format_version.startswith("/"))):
        wrong(f"{key}.format-version", "must be a JSON pointer such as /info/version or /properties/schemaVersion")
        ok = False
    discover = raw.get("discover", True)
    if not isinstance(discover, bool):
        wrong(f"{key}.discover", "must be true or false")
        ok = False
    dialect = raw.get("dialect")
    if dialect is not None and dialect not in DIALECT_NAMES:
        wrong(f"{key}.dialect", f"must be one of {', '.join(DIALECT_NAMES)}, not {dialect!r}")
        ok = False
    mode = raw.get("mode", "persistence")
    if mode not in MODES:
        wrong(f"{key}.mode", f"must be one of {', '.join(MODES)}, not {mode!r}")
        ok = False
    annotations = raw.get("annotations", [])
    if not isinstance(annotations, list) or not all(isinstance(item, str) and item for item in annotations):
        wrong(f"{key}.annotations", "must be an array of keyword names or patterns",
              hint='annotations = ["x-kubernetes-*", "handlers"]')
        ok = False
    source_policy = _parse_source_policy(raw.get("persistence-source", {}), f"{key}.persistence-source", wrong)
    ok = ok and source_policy is not None
    roots: list[RootConfig] = []
    raw_roots = raw.get("roots", {})
    if not isinstance(raw_roots, dict):
        wrong(f"{key}.roots", "must be a table of root name = { role = ..., at = ... }")
        raw_roots = {}
    for root_name, spec in raw_roots.items():
        root_key = f"{key}.roots.{root_name}"
        if isinstance(spec, str):
            spec = {"role": spec}
        if not isinstance(spec, dict):
            wrong(root_key, 'must be a role string or a table like { role = "record", at = "#" }')
            ok = False
            continue
        for extra in sorted(set(spec) - {"role", "at"}):
            wrong(f"{root_key}.{extra}", "unknown key", hint="known keys: at, role")
            ok = False
        role = spec.get("role", "record")
        if role not in ROLES:
            wrong(f"{root_key}.role", f"must be one of {', '.join(ROLES)}, not {role!r}")
            ok = False
        at = spec.get("at")
        if at is not None and not isinstance(at, str):
            wrong(f"{root_key}.at", "must be a string")
            ok = False
        roots.append(RootConfig(name=root_name, role=role, at=at))
    if not ok:
        return None
    return SourceConfig(name=name, kind=kind, path=path, roots=tuple(sorted(roots, key=lambda r: r.name)),
                        format_version=format_version, discover=discover, dialect=dialect, mode=mode,
                        annotations=tuple(annotations) if isinstance(annotations, list) else (),
                        source_policy=source_policy)


def _parse_source_policy(raw: Any, key: str, wrong) -> SourcePolicy | None:
    if not isinstance(raw, dict):
        wrong(key, "must be a table", hint='persistence-source = { roles = ["user", "developer"], policies = [1] }')
        return None
    ok = True
    for extra in sorted(set(raw) - {"roles", "policies"}):
        wrong(f"{key}.{extra}", "unknown key", hint="known keys: policies, roles")
        ok = False
    default = SourcePolicy()
    roles = raw.get("roles", list(default.roles))
    if not isinstance(roles, list) or not roles or not all(isinstance(role, str) and role for role in roles) or \
            len(set(roles)) != len(roles):
        wrong(f"{key}.roles", "must be a non-empty array of distinct role values",
              hint='roles = ["user", "developer"] (the default)')
        ok = False
    policies = raw.get("policies", list(default.policies))
    if not isinstance(policies, list) or not policies or len(set(map(repr, policies))) != len(policies) or \
            not all(isinstance(policy, int) and not isinstance(policy, bool) and policy >= 1 for policy in policies):
        wrong(f"{key}.policies", "must be a non-empty array of distinct integers >= 1", hint="policies = [1] (the default)")
        ok = False
    return SourcePolicy(tuple(roles), tuple(sorted(policies))) if ok else None
