"""Validate instances against the schemas this repository owns.

JSON Schema 2020-12 plus one extension keyword, `x-maxUtf8Bytes`: a byte limit on a string once encoded
as UTF-8 (`maxLength` counts code points, so it cannot say this). Components of an OpenAPI 3.1 document
are validated in place, so their internal `#/components/...` references resolve against the document.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any

COORDINATION_DOCUMENT = Path(__file__).resolve().parent.parent / "schemas" / "grp-coordination.openapi.json"
ROOT_URI = "urn:govern:contract-root"
MAX_UTF8_BYTES = "x-maxUtf8Bytes"


def _max_utf8_bytes(validator: Any, limit: int, instance: Any, schema: Mapping[str, Any]) -> Iterator[Any]:
    from jsonschema.exceptions import ValidationError

    if not validator.is_type(instance, "string"):
        return
    size = len(instance.encode("utf-8"))
    if size > limit:
        yield ValidationError(f"string is {size} UTF-8 bytes, more than the limit of {limit}")


@lru_cache(maxsize=None)
def validator_class() -> type:
    """Draft 2020-12 extended with `x-maxUtf8Bytes`."""
    from jsonschema import Draft202012Validator, validators

    return validators.extend(Draft202012Validator, {MAX_UTF8_BYTES: _max_utf8_bytes})


def _pointer_to(root: Any, target: Any, prefix: str = "") -> str | None:
    """JSON pointer of `target` inside `root`, found by identity so equal-looking subschemas stay apart."""
    if root is target:
        return prefix
    if isinstance(root, Mapping):
        items = root.items()
    elif isinstance(root, list):
        items = enumerate(root)
    else:
        return None
    for key, value in items:
        token = str(key).replace("~", "~0").replace("/", "~1")
        found = _pointer_to(value, target, f"{prefix}/{token}")
        if found is not None:
            return found
    return None


def validator_for(schema: Mapping[str, Any], *, root_schema: Mapping[str, Any] | None = None) -> Any:
    """A validator (with format checking) for `schema`.

    When `schema` lives inside `root_schema` (for example an OpenAPI component), it is validated at its
    place in that document, so references relative to the document resolve.
    """
    from jsonschema import Draft202012Validator
    from referencing import Registry
    from referencing.jsonschema import DRAFT202012

    cls = validator_class()
    if root_schema is None:
        return cls(schema, format_checker=Draft202012Validator.FORMAT_CHECKER)
    pointer = _pointer_to(root_schema, schema)
    if pointer is None:
        raise ValueError("schema is not part of root_schema")
    registry = Registry().with_resource(ROOT_URI, DRAFT202012.create_resource(root_schema))
    entry = {"$ref": f"{ROOT_URI}#{pointer}"}
    return cls(entry, registry=registry, format_checker=Draft202012Validator.FORMAT_CHECKER)


@lru_cache(maxsize=4)
def load_document(path: Path = COORDINATION_DOCUMENT) -> Mapping[str, Any]:
    """The parsed OpenAPI document (cached; treat it as read-only)."""
    return json.loads(Path(path).read_text(encoding="utf-8"))


def component_names(document: Mapping[str, Any] | None = None) -> list[str]:
    """Names under `components/schemas`, sorted."""
    doc = load_document() if document is None else document
    return sorted(doc.get("components", {}).get("schemas", {}))


@lru_cache(maxsize=None)
def _component_validator(path: Path, name: str) -> Any:
    doc = load_document(path)
    schemas = doc.get("components", {}).get("schemas", {})
    if name not in schemas:
        raise KeyError(f"no component schema named {name!r} in {path}")
    return validator_for(schemas[name], root_schema=doc)


def iter_errors(component_name: str, instance: Any, *, document: Path = COORDINATION_DOCUMENT) -> list[Any]:
    """Every `jsonschema` error of `instance` against `#/components/schemas/<component_name>`."""
    validator = _component_validator(Path(document), component_name)
    return sorted(validator.iter_errors(instance), key=lambda e: (list(e.absolute_path), e.message))


def validate_instance(component_name: str, instance: Any, *, document: Path = COORDINATION_DOCUMENT) -> list[str]:
    """Readable problems of `instance` (empty when it conforms), each prefixed by its JSON pointer."""
    problems = []
    for error in iter_errors(component_name, instance, document=document):
        # A failed oneOf/anyOf says little by itself: report the leaf failures of its alternatives.
        for cause in leaf_errors(error):
            where = "/" + "/".join(str(part) for part in cause.absolute_path)
            problems.append(f"{where}: {_shorten(cause.message)} [{cause.validator}]")
    return problems


def leaf_errors(error: Any) -> list[Any]:
    """The innermost errors under `error` (itself when it has no sub-errors)."""
    if not error.context:
        return [error]
    return [leaf for child in error.context for leaf in leaf_errors(child)]


def _shorten(message: str, limit: int = 240) -> str:
    return message if len(message) <= limit else message[: limit - 3] + "..."
