"""OpenAPI 3.0 and 3.1 adapter.

Roots are the component schemas used as request or response bodies, named `<source>:<Component>`;
the configuration may add roots, give them roles, or switch discovery off. Schema objects go through the
JSON Schema adapter: 3.1 documents use their `jsonSchemaDialect` (2020-12 by default), 3.0 documents the
OpenAPI 3.0 flavour (`nullable`, boolean exclusive bounds).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from govern.config import SourcePolicy
from govern.errors import InputError, Problem
from govern.model.graph import TypeGraph
from govern.process import keep_until_exit, long_lived, taken
from govern.sources.jsonschema import Converter, finish_graph, read_format_version
from govern.sources.refs import OPENAPI_30, SchemaSet, dialect_of, escape_token, reference_boundaries

HTTP_METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
COMPONENT_PREFIX = "#/components/schemas/"


@long_lived()
def load_openapi(source: str, path: Path, roots: dict[str, tuple[str | None, str]], project_root: Path | None,
                 format_version_pointer: str | None = "/info/version", discover: bool = True,
                 allow_outside: tuple[Path, ...] = (), annotations: tuple[str, ...] = (),
                 source_policy: SourcePolicy = SourcePolicy(), content: Any = None) -> TypeGraph:
    """`content`: the document already read from `path` (a caller that looked at it first; best `Handed` over, see
    govern.process.Handed), else it is read."""
    schemas = SchemaSet(label_root=project_root, boundaries=reference_boundaries(path, project_root, allow_outside))
    label = schemas.label_for(path)
    content = taken(content)
    if content is None:
        from govern.fsio import read_document

        content = read_document(path)
    if not isinstance(content, dict) or not isinstance(content.get("openapi"), str):
        raise InputError(Problem(label, "is not an OpenAPI document (no openapi version string)",
                                 hint="use kind = \"jsonschema\" for a plain JSON Schema"))
    version = content["openapi"]
    if version.startswith("3.0"):
        dialect = OPENAPI_30
    elif version.startswith("3.1"):
        declared = content.get("jsonSchemaDialect")
        dialect = dialect_of(declared, label) if isinstance(declared, str) else "2020-12"
    else:
        raise InputError(Problem(label, f"declares OpenAPI {version}, which govern does not read",
                                 hint="govern reads OpenAPI 3.0 and 3.1"))
    document = schemas.add_document(content, label, path, path.resolve().as_uri(), dialect=dialect)
    converter = Converter(schemas, openapi=True, annotations=annotations, source_policy=source_policy)
    components = content.get("components", {}).get("schemas", {}) if isinstance(content.get("components"), dict) else {}
    if not isinstance(components, dict):
        raise InputError(Problem(label, "components.schemas must be an object"))
    for name in components:
        converter.named_at(document, f"/components/schemas/{escape_token(name)}")

    declared_roots: dict[str, tuple[str, str]] = {}
    if discover:
        for component in body_components(content, label):
            declared_roots[component] = (converter.named_at(document, f"/components/schemas/{escape_token(component)}"),
                                         "record")
    content = components = None  # (the document holds it, and lets go of it once read: see finish_graph)
    for name, (at, role) in roots.items():
        component = at or name
        pointer = component[1:] if component.startswith("#/") else f"/components/schemas/{escape_token(component)}"
        declared_roots[name] = (converter.named_at(document, pointer), role)
    format_version = read_format_version(document, format_version_pointer) if format_version_pointer else None
    try:
        graph = finish_graph(converter, source, declared_roots, label, format_version=format_version)
    except RecursionError:
        raise InputError(Problem(label, "nests too deeply to be read")) from None
    keep_until_exit(*converter.tables())
    return graph


def body_components(content: dict, label: str) -> list[str]:
    """Names of the component schemas that request or response bodies refer to directly."""
    found: set[str] = set()
    paths = content.get("paths") or {}
    if not isinstance(paths, dict):
        raise InputError(Problem(label, "paths must be an object"))
    for item in paths.values():
        if not isinstance(item, dict):
            continue
        for method in HTTP_METHODS:
            operation = item.get(method)
            if not isinstance(operation, dict):
                continue
            bodies = [operation.get("requestBody")]
            responses = operation.get("responses")
            if isinstance(responses, dict):
                bodies.extend(responses.values())
            for body in bodies:
                body = _follow(content, body)
                media = body.get("content") if isinstance(body, dict) else None
                if not isinstance(media, dict):
                    continue
                for entry in media.values():
                    schema = entry.get("schema") if isinstance(entry, dict) else None
                    reference = schema.get("$ref") if isinstance(schema, dict) else None
                    if isinstance(reference, str) and reference.startswith(COMPONENT_PREFIX):
                        found.add(reference[len(COMPONENT_PREFIX):].replace("~1", "/").replace("~0", "~"))
    return sorted(found)


def _follow(content: dict, value: Any) -> Any:
    """Request bodies and responses may themselves be references into components."""
    seen = 0
    while isinstance(value, dict) and isinstance(value.get("$ref"), str) and value["$ref"].startswith("#/") and seen < 16:
        target: Any = content
        for token in value["$ref"][2:].split("/"):
            token = token.replace("~1", "/").replace("~0", "~")
            target = target.get(token) if isinstance(target, dict) else None
        value = target
        seen += 1
    return value
