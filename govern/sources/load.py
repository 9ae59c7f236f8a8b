"""Reading sources: the configured ones of a project, or files and models named on the command line."""

from __future__ import annotations

import re
from pathlib import Path

from govern.config import Config, SourceConfig
from govern.errors import InputError, Problem
from govern.model.graph import TypeGraph

_MODEL_SPEC = re.compile(r"^[A-Za-z_][\w.]*(:[A-Za-z_]\w*)?$")


def load_source(source: SourceConfig, project_root: Path, pythonpath: tuple[str, ...] = (),
                allow_outside: tuple[Path, ...] = ()) -> TypeGraph:
    roots = {root.name: (root.at, root.role) for root in source.roots}
    if source.kind == "pydantic":
        from govern.sources.pydantic import load_pydantic

        return load_pydantic(source.name, source.path, roots, project_root, discover=source.discover,
                             pythonpath=pythonpath, format_version_pointer=source.format_version,
                             source_policy=source.source_policy)
    path = project_root / source.path
    if source.kind == "openapi":
        from govern.sources.openapi import load_openapi

        return load_openapi(source.name, path, roots, project_root, source.format_version, source.discover,
                            allow_outside=allow_outside, annotations=source.annotations,
                            source_policy=source.source_policy)
    from govern.sources.jsonschema import load_jsonschema

    return load_jsonschema(source.name, path, roots, project_root, source.format_version,
                           adhoc=source.discover and not roots, allow_outside=allow_outside,
                           dialect=source.dialect, annotations=source.annotations,
                           source_policy=source.source_policy)


def load_configured(config: Config) -> list[TypeGraph]:
    """Every configured source; all failures are collected so one bad file does not hide another."""
    graphs: list[TypeGraph] = []
    problems: list[Problem] = []
    for source in config.sources:
        try:
            graphs.append(load_source(source, config.project_root, config.pythonpath, config.allow_outside))
        except InputError as error:
            problems.extend(error.problems)
    if problems:
        raise InputError(problems)
    return graphs


def load_spec(spec: str, label_root: Path | None = None, source: str | None = None,
              document_root: str | None = None, all_definitions: bool = True,
              dialect: str | None = None) -> TypeGraph:
    """A file (JSON Schema or OpenAPI, told apart by content) or a `module:Model` spec, with no configuration.

    A JSON Schema document is itself a root, named by its title or file name unless `document_root` names it;
    its definitions are roots too (`all_definitions`, as `govern digests` lists them), or only when it has no
    structure of its own. `dialect`
    overrides the JSON Schema dialect the file declares.
    """
    path = Path(spec)
    if not path.exists() and _MODEL_SPEC.match(spec) and not spec.endswith((".json", ".yaml", ".yml")):
        from govern.sources.pydantic import load_pydantic

        name = source or spec.partition(":")[0].rsplit(".", 1)[-1]
        return load_pydantic(name, spec, {}, label_root or Path.cwd())
    from govern.fsio import read_document
    from govern.process import Handed
    from govern.sources.jsonschema import _stem

    content = read_document(path)  # reports a missing or unreadable file by name
    name = source or _stem(path.name)
    kind = "openapi" if isinstance(content, dict) and "openapi" in content else \
        "swagger" if isinstance(content, dict) and "swagger" in content else "jsonschema"
    # Handed over, so that this frame holds no reference to the document and the reader can let go of it once it
    # has read it (see govern.process.Handed).
    handed, content = Handed(content), None
    if kind == "openapi":
        from govern.sources.openapi import load_openapi

        return load_openapi(name, path, {}, label_root, None, content=handed)
    if kind == "swagger":
        raise InputError(Problem(str(path), "is a Swagger 2.0 document", hint="govern reads OpenAPI 3.0 and 3.1"))
    from govern.sources.jsonschema import load_jsonschema

    return load_jsonschema(name, path, {}, label_root, None, adhoc=True, document_root=document_root,
                           all_definitions=all_definitions, dialect=dialect, content=handed)


def document_root_name(graph: TypeGraph) -> str | None:
    """The name of the root that is a whole JSON Schema document, if the graph has one."""
    for root in graph.roots.values():
        if graph.locations.get(root.type_key, "").endswith("#"):
            return root.id.partition(":")[2]
    return None


def load_specs(specs: list[str], label_root: Path | None = None, all_definitions: bool = True,
               dialect: str | None = None) -> list[TypeGraph]:
    graphs, problems = read_specs(specs, label_root, all_definitions, dialect)
    if problems:
        raise InputError(problems)
    return graphs


def read_specs(specs: list[str], label_root: Path | None = None, all_definitions: bool = True,
               dialect: str | None = None) -> tuple[list[TypeGraph], list[Problem]]:
    """Every spec that can be read, and one problem (or more) for each that cannot."""
    graphs: list[TypeGraph] = []
    problems: list[Problem] = []
    names: dict[str, int] = {}
    for spec in specs:
        try:
            graph = load_spec(spec, label_root, all_definitions=all_definitions, dialect=dialect)
        except InputError as error:
            problems.extend(error.problems)
            continue
        if graph.source in names:
            names[graph.source] += 1
            graph = load_spec(spec, label_root, source=f"{graph.source}~{names[graph.source]}",
                              all_definitions=all_definitions, dialect=dialect)
        else:
            names[graph.source] = 1
        graphs.append(graph)
    return graphs, problems
