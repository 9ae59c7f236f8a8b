"""Byte-deterministic serialization of a sidecar and the stable stringify used by the merge tie-break.

Two conforming writers must produce identical bytes for the same logical content, so the order of
every key is decided here rather than left to the order the data happened to be read in.
"""

from __future__ import annotations

import json
from typing import Any

from govern.sidecar.contract import CHILD_KINDS, KNOWN_KEYS, utf16_key


def canonical_text(artifact: dict[str, Any]) -> str:
    """The canonical file content: two-space indent, unescaped Unicode, exactly one trailing newline."""
    return json.dumps(_order(artifact, "Artifact"), indent=2, ensure_ascii=False) + "\n"


def canonical_bytes(artifact: dict[str, Any]) -> bytes:
    # Encoding here, not at the call site, keeps "UTF-8 without BOM" a property of the format.
    return canonical_text(artifact).encode("utf-8")


def _order(value: Any, kind: str | None) -> Any:
    if kind is not None and kind.startswith("["):
        item_kind = kind[1:-1]
        return [_order(item, item_kind) for item in value] if isinstance(value, list) else _order(value, None)
    if kind is not None and kind.startswith("{"):
        if not isinstance(value, dict):
            return _order(value, None)
        entry_kind = kind[1:-1]
        return {key: _order(value[key], entry_kind) for key in sorted(value, key=utf16_key)}
    if isinstance(value, list):
        return [_order(item, None) for item in value]
    if not isinstance(value, dict):
        return value
    # A known kind that arrives as something else (only possible in a document we refuse to write)
    # is still ordered generically, so rendering never fails.
    known = KNOWN_KEYS.get(kind or "", ())
    ordered: dict[str, Any] = {}
    for key in known:
        if key in value:
            ordered[key] = _order(value[key], CHILD_KINDS.get((kind or "", key)))
    # Everything below an unknown key is unknown too, so its keys are sorted all the way down.
    for key in sorted((key for key in value if key not in known), key=utf16_key):
        ordered[key] = _order(value[key], None)
    return ordered


def stable_stringify(value: Any) -> str:
    """JSON with every object's keys sorted and no whitespace: the merge's comparable form of a record."""
    if isinstance(value, dict):
        items = (
            f"{json.dumps(key, ensure_ascii=False)}:{stable_stringify(value[key])}"
            for key in sorted(value, key=utf16_key)
        )
        return "{" + ",".join(items) + "}"
    if isinstance(value, list):
        return "[" + ",".join(stable_stringify(item) for item in value) + "]"
    return json.dumps(value, ensure_ascii=False)


def tie_break_key(value: Any) -> bytes:
    """Larger wins. Compared by UTF-16 code units for the same reason keys are sorted that way."""
    return utf16_key(stable_stringify(value))
