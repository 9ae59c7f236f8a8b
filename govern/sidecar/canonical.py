"""Byte-deterministic serialization of a sidecar and the stable stringify used by the merge tie-break.

Two conforming writers must produce identical bytes for the same logical content, so the order of
every key is decided here rather than left to the order the data happened to be read in. The layout
is exactly JavaScript's `JSON.stringify(value, null, 2)`, the contract's reference writer: the same
string escapes and, above all, the same numbers. JSON has one number type, so `1`, `1.0` and `1E0`
are one value and are written `1`; every number is written as ECMAScript writes it, which is also
RFC 8785's rule (`1.5e-7`, `1e+21`, `12345678901234567000`).
"""

from __future__ import annotations

import json
import math
from typing import Any

from govern.sidecar.contract import CHILD_KINDS, KNOWN_KEYS, utf16_key

_SAFE_INTEGER = 2**53 - 1
_encode_string = json.encoder.encode_basestring  # escapes what JSON.stringify escapes, nothing more


def ecmascript_number(value: int | float) -> str:
    """A number as JSON.stringify writes it: the shortest digits that read back as the same double.

    Integers beyond 2**53 are doubles to every other JSON reader, so they are written as the double they
    read as (12345678901234567890 becomes 12345678901234567000), never as digits no reader keeps.
    """
    if type(value) is int and -_SAFE_INTEGER <= value <= _SAFE_INTEGER:
        return int.__repr__(value)
    try:
        number = float(value)
    except OverflowError:
        raise ValueError(f"{value} is beyond the range of a JSON number (an IEEE double)") from None
    if not math.isfinite(number):
        raise ValueError(f"{value} is not a finite JSON number")
    import rfc8785

    return rfc8785.dumps(number).decode("ascii")


def _scalar(value: Any) -> str:
    if isinstance(value, str):
        return _encode_string(value)
    if value is True:
        return "true"
    if value is False:
        return "false"
    if value is None:
        return "null"
    if isinstance(value, (int, float)):
        return ecmascript_number(value)
    raise TypeError(f"{type(value).__name__} is not a JSON value")


def _pretty(value: Any, indent: str) -> str:
    if isinstance(value, dict):
        if not value:
            return "{}"
        inner = indent + "  "
        items = (f"{inner}{_encode_string(key)}: {_pretty(item, inner)}" for key, item in value.items())
        return "{\n" + ",\n".join(items) + "\n" + indent + "}"
    if isinstance(value, list):
        if not value:
            return "[]"
        inner = indent + "  "
        return "[\n" + ",\n".join(inner + _pretty(item, inner) for item in value) + "\n" + indent + "]"
    return _scalar(value)


def canonical_text(artifact: dict[str, Any]) -> str:
    """The canonical file content: two-space indent, unescaped Unicode, exactly one trailing newline."""
    return _pretty(_order(artifact, "Artifact"), "") + "\n"


def canonical_bytes(artifact: dict[str, Any]) -> bytes:
    # Encoding here, not at the call site, keeps "UTF-8 without BOM" a property of the format.
    # A lone surrogate has no UTF-8 form; readers refuse such text before it can get here.
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
            f"{_encode_string(key)}:{stable_stringify(value[key])}"
            for key in sorted(value, key=utf16_key)
        )
        return "{" + ",".join(items) + "}"
    if isinstance(value, list):
        return "[" + ",".join(stable_stringify(item) for item in value) + "]"
    return _scalar(value)


def tie_break_key(value: Any) -> bytes:
    """Larger wins. Compared by UTF-16 code units for the same reason keys are sorted that way."""
    return utf16_key(stable_stringify(value))
