"""The sidecar v1 JSON Schema against its canonical positive and negative instances.

Every file under ``schemas/examples/sidecar/valid`` must validate. Every file under
``.../invalid`` must fail for exactly one reason, and that reason is pinned in
``EXPECTED_FAILURES`` so a negative example cannot start failing for an unrelated
(and therefore untested) rule without the suite noticing.
"""

from __future__ import annotations

import json
import re
from datetime import datetime
from pathlib import Path
from typing import Any, Iterator

import pytest
from jsonschema import Draft202012Validator, FormatChecker
from jsonschema.exceptions import ValidationError

REPO = Path(__file__).resolve().parent.parent
SCHEMA_PATH = REPO / "schemas" / "coauthoring-sidecar.schema.json"
EXAMPLES = REPO / "schemas" / "examples" / "sidecar"
VALID_FILES = sorted((EXAMPLES / "valid").glob("*.json"))
INVALID_FILES = sorted((EXAMPLES / "invalid").glob("*.json"))

# file stem -> (JSON pointer of the offending instance location, failing keyword,
# the property name the failure is about, when the keyword alone is ambiguous)
EXPECTED_FAILURES: dict[str, tuple[str, str, str | None]] = {
    "missing-threads": ("", "required", "threads"),
    "missing-schemaversion": ("", "required", "schemaVersion"),
    "missing-document-path": ("/document", "required", "path"),
    "schemaversion-zero": ("/schemaVersion", "minimum", None),
    "schemaversion-not-integer": ("/schemaVersion", "type", None),
    "anchors-as-array": ("/anchors", "type", None),
    "anchor-missing-fingerprint": ("/anchors/a_limits", "required", "fingerprint"),
    "fingerprint-missing-text": ("/anchors/a_intro/fingerprint", "required", "text"),
    "negative-linehint": ("/anchors/a_intro/fingerprint/lineHint", "minimum", None),
    "linehint-not-integer": ("/anchors/a_intro/fingerprint/lineHint", "type", None),
    "status-unknown": ("/threads/0/status", "enum", None),
    "thread-missing-anchorid": ("/threads/0", "required", "anchorId"),
    "message-missing-body": ("/threads/0/messages/0", "required", "body"),
    "provenance-kind-unknown": ("/threads/0/messages/0/author/kind", "enum", None),
    "provenance-missing-id": ("/threads/0/messages/0/author", "required", "id"),
    "agent-kind-without-agent": ("/threads/0/messages/1/author", "required", "agent"),
    "human-with-agent": ("/threads/0/messages/0/author", "not", "agent"),
    "agent-missing-model": ("/threads/0/messages/1/author/agent", "required", "model"),
    "onbehalfof-missing-id": (
        "/threads/0/messages/1/author/agent/onBehalfOf",
        "required",
        "id",
    ),
    "email-not-string": ("/threads/0/messages/0/author/email", "type", None),
    "timestamp-not-utc": ("/threads/0/messages/0/createdAt", "pattern", None),
    "timestamp-without-milliseconds": ("/threads/0/messages/0/createdAt", "pattern", None),
    "timestamp-impossible-date": ("/threads/0/messages/0/createdAt", "format", None),
    "attribution-missing-updatedat": ("/attributions/0", "required", "updatedAt"),
    "proposal-missing-replacement": ("/proposals/0", "required", "replacement"),
    "proposals-as-object": ("/proposals", "type", None),
}

_RFC3339 = re.compile(
    r"^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$"
)


def _is_rfc3339_date_time(value: object) -> bool:
    if not isinstance(value, str):
        return True  # format only constrains strings
    if not _RFC3339.match(value):
        return False
    try:
        datetime.fromisoformat(value.upper())
    except ValueError:
        return False
    return True


def _format_checker() -> FormatChecker:
    # jsonschema only registers "date-time" when an optional RFC 3339 package is
    # installed; without it the keyword would be silently ignored, so keep a
    # strict fallback that rejects impossible calendar dates.
    checker = FormatChecker()
    if "date-time" not in checker.checkers:
        checker.checks("date-time")(_is_rfc3339_date_time)
    return checker


FORMAT_CHECKER = _format_checker()


def _load(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def schema() -> dict[str, Any]:
    return _load(SCHEMA_PATH)


@pytest.fixture(scope="module")
def validator(schema: dict[str, Any]) -> Draft202012Validator:
    return Draft202012Validator(schema, format_checker=FORMAT_CHECKER)


def _pointer(error: ValidationError) -> str:
    parts = (str(p).replace("~", "~0").replace("/", "~1") for p in error.absolute_path)
    return "".join("/" + p for p in parts)


def _leaf_errors(errors: list[ValidationError]) -> Iterator[ValidationError]:
    for error in errors:
        if error.context:
            yield from _leaf_errors(error.context)
        else:
            yield error


def _ids(paths: list[Path]) -> list[str]:
    return [p.stem for p in paths]


# --- the schema itself -------------------------------------------------------


def test_schema_is_valid_2020_12(schema: dict[str, Any]) -> None:
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    Draft202012Validator.check_schema(schema)


def test_schema_file_is_pretty_printed() -> None:
    text = SCHEMA_PATH.read_text(encoding="utf-8")
    assert text == json.dumps(json.loads(text), indent=2, ensure_ascii=False) + "\n"


def test_format_checker_covers_date_time() -> None:
    assert "date-time" in FORMAT_CHECKER.checkers
    assert FORMAT_CHECKER.conforms("2026-06-10T09:15:00.000Z", "date-time")
    assert not FORMAT_CHECKER.conforms("2026-02-30T09:15:00.000Z", "date-time")


def test_timestamp_def_declares_format_and_utc_pattern(schema: dict[str, Any]) -> None:
    timestamp = schema["$defs"]["Timestamp"]
    assert timestamp["format"] == "date-time"
    pattern = re.compile(timestamp["pattern"])
    assert pattern.search("2026-06-10T09:15:00.000Z")
    rejected_shapes = (
        "2026-06-10T09:15:00Z",
        "2026-06-10T09:15:00.000+00:00",
        "2026-06-10 09:15:00.000Z",
    )
    for rejected in rejected_shapes:
        assert not pattern.search(rejected), rejected


def test_schema_version_marks_the_writer_constant(schema: dict[str, Any]) -> None:
    version = schema["properties"]["schemaVersion"]
    assert version["x-persistence-version"] == 1
    assert version["type"] == "integer"
    assert version["minimum"] == 1


def _subschemas(node: Any, pointer: str = "") -> Iterator[tuple[str, dict[str, Any]]]:
    if isinstance(node, dict):
        yield pointer, node
        for key, value in node.items():
            yield from _subschemas(value, f"{pointer}/{key}")
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _subschemas(value, f"{pointer}/{index}")


def test_every_object_level_stays_open_to_unknown_keys(schema: dict[str, Any]) -> None:
    closed = [
        f"{pointer}/{keyword}"
        for pointer, node in _subschemas(schema)
        for keyword in ("additionalProperties", "unevaluatedProperties")
        if node.get(keyword) is False
    ]
    assert closed == []


def test_every_property_has_a_description(schema: dict[str, Any]) -> None:
    undocumented = [
        f"{pointer}/properties/{name}"
        for pointer, node in _subschemas(schema)
        if isinstance(node.get("properties"), dict) and not pointer.endswith("/if")
        for name, prop in node["properties"].items()
        if not (isinstance(prop, dict) and prop.get("description"))
    ]
    assert undocumented == []


# --- positive instances ------------------------------------------------------


def test_enough_examples() -> None:
    assert len(VALID_FILES) >= 8
    assert len(INVALID_FILES) >= 12


@pytest.mark.parametrize("path", VALID_FILES, ids=_ids(VALID_FILES))
def test_valid_example_validates(path: Path, validator: Draft202012Validator) -> None:
    errors = [f"{_pointer(e)}: {e.message}" for e in validator.iter_errors(_load(path))]
    assert errors == []


# --- negative instances ------------------------------------------------------


def test_every_invalid_example_has_an_expected_failure() -> None:
    stems = {p.stem for p in INVALID_FILES}
    assert sorted(stems - EXPECTED_FAILURES.keys()) == [], "add an EXPECTED_FAILURES entry"
    assert sorted(EXPECTED_FAILURES.keys() - stems) == [], "stale EXPECTED_FAILURES entry"


@pytest.mark.parametrize("path", INVALID_FILES, ids=_ids(INVALID_FILES))
def test_invalid_example_fails_for_its_stated_reason(
    path: Path, validator: Draft202012Validator
) -> None:
    assert path.stem in EXPECTED_FAILURES, f"no expected failure recorded for {path.name}"
    pointer, keyword, subject = EXPECTED_FAILURES[path.stem]

    errors = list(validator.iter_errors(_load(path)))
    leaves = list(_leaf_errors(errors))
    found = [(_pointer(e), e.validator) for e in leaves]
    assert found == [(pointer, keyword)], "exactly one rule must be broken"
    if subject is not None:
        assert repr(subject) in leaves[0].message


@pytest.mark.parametrize(
    "path", VALID_FILES + INVALID_FILES, ids=_ids(VALID_FILES) + _ids(INVALID_FILES)
)
def test_example_is_pretty_json_with_trailing_newline(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert not text.startswith("\ufeff")
    assert text == json.dumps(json.loads(text), indent=2, ensure_ascii=False) + "\n"
