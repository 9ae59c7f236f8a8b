"""Validation of one sidecar: the JSON Schema plus the rules of the contract a schema cannot express.

Uniqueness scopes, chosen so that merging two valid sidecars by id always yields a valid one:
thread ids within `threads`, message ids within their thread, attribution ids within `attributions`,
proposal ids within `proposals`. Anchor ids are map keys and unique by construction.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Iterator

from govern.sidecar.contract import FORMAT_MAJOR
from govern.sidecar.timestamps import has_instant_shape, is_utc_instant

ERROR = "error"
WARNING = "warning"
NOTE = "note"
"""Says what was not checked; never makes a sidecar invalid."""


@dataclass(frozen=True)
class Finding:
    id: str
    pointer: str
    message: str
    severity: str = ERROR


@dataclass(frozen=True)
class Report:
    findings: tuple[Finding, ...]
    major: int | None
    """The document's schemaVersion when it is an integer (`2.0` is the integer 2), else None."""

    @property
    def valid(self) -> bool:
        return not any(finding.severity == ERROR for finding in self.findings)

    @property
    def newer_major(self) -> bool:
        """A newer major is read-only: readable when valid, never written."""
        return self.major is not None and self.major > FORMAT_MAJOR

    @property
    def errors(self) -> tuple[Finding, ...]:
        return tuple(finding for finding in self.findings if finding.severity == ERROR)


def validate_artifact(artifact: Any) -> Report:
    findings = list(_schema_findings(artifact))
    findings.extend(_semantic_findings(artifact))
    major = format_major(artifact.get("schemaVersion") if isinstance(artifact, dict) else None)
    if major is not None and major > FORMAT_MAJOR:
        findings.insert(0, Finding(
            "newer-major", "/schemaVersion",
            f"schemaVersion {major} is newer than the implemented major {FORMAT_MAJOR}: only the "
            f"v{FORMAT_MAJOR} subset was validated, and the file is read-only (upgrade govern to write it)",
            WARNING,
        ))
    return Report(tuple(findings), major)


def format_major(value: Any) -> int | None:
    """The major a schemaVersion names, or None when it names none.

    JSON has one number type: `2.0` and `2` are the same value (JavaScript, the reference writer, cannot
    tell them apart, and JSON Schema's `integer` is any number without a fractional part). So `2.0` is
    major 2, newer than this implementation and read-only, and `1.0` is major 1, written back as `1`.
    """
    if isinstance(value, bool):
        return None
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value if isinstance(value, int) else None


def _schema_findings(artifact: Any) -> Iterator[Finding]:
    from govern.sidecar.schema import validator

    errors = sorted(validator().iter_errors(artifact), key=lambda error: (_pointer(error.absolute_path), error.message))
    for error in errors:
        yield Finding(f"schema-{error.validator}", _pointer(error.absolute_path), _schema_message(error))


_JSON_TYPES = ((bool, "a boolean"), (int, "an integer"), (float, "a number"), (str, "a string"),
               (list, "an array"), (dict, "an object"), (type(None), "null"))


def _schema_message(error: Any) -> str:
    # jsonschema's own messages quote whole instances, which for a sidecar can be pages long.
    if error.validator == "type":
        found = next((name for kind, name in _JSON_TYPES if isinstance(error.instance, kind)), "a value")
        return f"is {found}, expected type {json.dumps(error.validator_value)}"
    if error.validator == "not":
        return f"must not match {json.dumps(error.validator_value, sort_keys=True)}"
    message = error.message
    return message if len(message) <= 200 else message[:197] + "..."


def _pointer(parts: Any) -> str:
    return "".join("/" + str(part).replace("~", "~0").replace("/", "~1") for part in parts)


def _semantic_findings(artifact: Any) -> Iterator[Finding]:
    if not isinstance(artifact, dict):
        return
    anchors = artifact.get("anchors")
    # Without an anchors map every reference would dangle; the schema finding already says why.
    anchor_ids = set(anchors) if isinstance(anchors, dict) else None
    for section in ("threads", "attributions", "proposals"):
        records = artifact.get(section)
        if not isinstance(records, list):
            continue
        yield from _duplicates(f"/{section}", records, section[:-1])
        for index, record in enumerate(records):
            if not isinstance(record, dict):
                continue
            where = f"/{section}/{index}"
            anchor_id = record.get("anchorId")
            if anchor_ids is not None and isinstance(anchor_id, str) and anchor_id not in anchor_ids:
                yield Finding("dangling-anchor", f"{where}/anchorId",
                              f"anchorId {anchor_id!r} names no entry of anchors")
            for field in ("createdAt", "updatedAt"):
                yield from _timestamp(record, field, where)
            messages = record.get("messages") if section == "threads" else None
            if isinstance(messages, list):
                yield from _duplicates(f"{where}/messages", messages, "message")
                for position, message in enumerate(messages):
                    if isinstance(message, dict):
                        yield from _timestamp(message, "createdAt", f"{where}/messages/{position}")


def _duplicates(pointer: str, records: list[Any], noun: str) -> Iterator[Finding]:
    first_seen: dict[str, int] = {}
    for index, record in enumerate(records):
        record_id = record.get("id") if isinstance(record, dict) else None
        if not isinstance(record_id, str):
            continue
        if record_id in first_seen:
            yield Finding("duplicate-id", f"{pointer}/{index}/id",
                          f"{noun} id {record_id!r} already used at {pointer}/{first_seen[record_id]}")
        else:
            first_seen[record_id] = index


def _timestamp(record: dict[str, Any], field: str, where: str) -> Iterator[Finding]:
    value = record.get(field)
    # A wrong shape is already a schema finding; this adds what a pattern cannot see (month 13, Feb 30).
    if has_instant_shape(value) and not is_utc_instant(value):
        yield Finding("invalid-timestamp", f"{where}/{field}",
                      f"{value!r} is not a real UTC instant (no such date or time)")
