"""Canonical JSON (RFC 8785) and the sha256 digests built on it.

The general case goes through the `rfc8785` package. The hash forms this project builds itself only hold
ASCII keys, strings, booleans, integers and lists; for those the standard library's sorted, compact
encoding is byte-identical to RFC 8785 and several times faster, so the hot path uses it.
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import json
from typing import Any, Callable, Iterable, Iterator

DIGEST_PREFIX = "sha256:"
# The standard library's own string encoder (C where available): the same escapes as RFC 8785.
_encode_string = json.encoder.encode_basestring


def canonical_json(value: Any) -> str:
    """RFC 8785 text of an arbitrary JSON value (numbers normalized, keys in UTF-16 order)."""
    kind = value.__class__
    if kind is str:
        return _encode_string(value)
    if kind is bool:
        return "true" if value else "false"
    if kind is int:
        return int.__repr__(value)
    if value is None:
        return "null"
    if _is_simple(value):
        return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    if kind is float:
        import rfc8785

        return rfc8785.dumps(value).decode("utf-8")
    if isinstance(value, list):
        return "[" + ",".join(canonical_json(item) for item in value) + "]"
    # An object: keys in UTF-16 code-unit order (RFC 8785). Integers are written exactly everywhere, as the
    # simple path writes them, also beyond 2**53, where a double would round them.
    keys = sorted(value, key=lambda key: key.encode("utf-16-be"))
    return "{" + ",".join(_encode_string(key) + ":" + canonical_json(value[key]) for key in keys) + "}"


def simple_canonical_json(value: Any) -> str:
    """Canonical text of a value known to hold only ASCII keys, strings, booleans, integers and lists."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _is_simple(value: Any) -> bool:
    if isinstance(value, (str, bool)) or value is None:
        return True
    if isinstance(value, int):
        return True
    if isinstance(value, float):
        return False
    if isinstance(value, list):
        return all(_is_simple(item) for item in value)
    if isinstance(value, dict):
        return all(isinstance(key, str) and key.isascii() and _is_simple(item) for key, item in value.items())
    return False


def normalize_json_value(value: Any) -> Any:
    """Integer-valued floats become integers, so `1.0` and `1` mean the same constraint."""
    if isinstance(value, float) and value.is_integer() and abs(value) < 2**53:
        return int(value)
    if isinstance(value, list):
        return [normalize_json_value(item) for item in value]
    if isinstance(value, dict):
        return {key: normalize_json_value(item) for key, item in value.items()}
    return value


def sha256_digest(domain: str, text: str) -> str:
    return DIGEST_PREFIX + hashlib.sha256((domain + "\n" + text).encode("utf-8")).hexdigest()


class Rendered:
    """A value already written by `indented_json` (at the top level), placed as it is at any depth.

    JSON strings hold no raw line breaks, so indenting the text deeper only prefixes its lines: a value
    repeated thousands of times in a document is written once.
    """

    __slots__ = ("text",)

    def __init__(self, value: Any):
        self.text = indented_json(value)


def indented_json(value: Any, end: str = "") -> str:
    """Exactly `json.dumps(value, indent=2, ensure_ascii=False) + end`, several times faster on large documents.

    The standard library's C encoder is only used without indentation; with it, every value passes through
    a chain of Python generators. Generated files (the inventory, snapshots) are megabytes of nested JSON,
    so this writes the same text with one recursive function and the C string encoder.
    """
    parts: list[str] = []
    _indented(value, parts, "\n")
    parts.append(end)
    return "".join(parts)


class Streamed:
    """A JSON array whose items are made one at a time, as `streamed_json` writes them."""

    __slots__ = ("items",)

    def __init__(self, items: Iterable[Any]):
        self.items = items


def streamed_json(value: Any, end: str = "") -> Iterator[str]:
    """`indented_json(value, end)`, a piece at a time, where each `Streamed` array (held by dicts, lists and
    other such arrays) makes its items only as it writes them: each is made, written and dropped in turn.

    For reports of any number of entries: neither their values nor their text are ever held whole (the
    standard library's indented writer holds a string per token, about ten times the text).
    """
    yield from _streamed(value, "\n")
    if end:
        yield end


def _streamed(value: Any, newline: str) -> Iterator[str]:
    kind = value.__class__
    if kind is Streamed or (kind is list or kind is tuple) and _holds_streamed(value):
        inner = newline + "  "
        opened = False
        for item in value.items if kind is Streamed else value:
            yield "," + inner if opened else "[" + inner
            opened = True
            yield from _streamed(item, inner)
        yield newline + "]" if opened else "[]"
    elif kind is dict and _holds_streamed(value):
        inner = newline + "  "
        separator = "{" + inner
        for key, item in value.items():
            yield separator + _member_name(key) + ": "
            yield from _streamed(item, inner)
            separator = "," + inner
        yield newline + "}"
    else:  # nothing below is made while written: written whole
        parts: list[str] = []
        _indented(value, parts, newline)
        yield "".join(parts)


def _holds_streamed(value: Any) -> bool:
    kind = value.__class__
    if kind is Streamed:
        return True
    if kind is dict:
        return any(_holds_streamed(item) for item in value.values())
    if kind is list or kind is tuple:
        return any(_holds_streamed(item) for item in value)
    return False


def indented_members(members: Iterable[tuple[str, Any]], depth: int, group: int = 64) -> Iterator[bytes]:
    """A JSON object `depth` levels deep in a document, as `indented_json` writes it, in UTF-8: one piece per
    `group` members (with the separator before it), asked for one at a time, and one for the closing brace.

    For documents with many large members (the inventory's types): the members' values are built, written
    and dropped a group at a time, so neither the values nor the document's text are ever held whole.
    Members are written by orjson where it can (several times faster) and by `indented_json` where it
    cannot (integers beyond 64 bits, nesting beyond orjson's limit, lone surrogates, keys that are not
    strings or that repeat within a group); orjson spells some floats otherwise than the standard library
    (1e-7 for 1e-07), so floats must come as `Rendered` (as `govern.model.render.structure` gives them for
    writing).
    """
    newline = "\n" + "  " * depth
    inner = newline + "  "
    first, following = ("{" + inner).encode(), ("," + inner).encode()
    fast = _indented_by_orjson()
    # orjson indents from the top of what it writes: a group is written inside `depth` objects, which puts
    # its members at their depth in the document, and cut out of them (no second pass to indent it).
    opening = len("".join("{\n" + "  " * (level + 1) + '"": ' for level in range(depth)) + "{" + inner)
    closing = len(newline + "}" + "".join("\n" + "  " * level + "}" for level in reversed(range(depth))))
    separator = first
    remaining = iter(members)
    while entries := list(itertools.islice(remaining, group)):
        text = None
        wrapped: dict = dict(entries)
        if fast is not None and len(wrapped) == len(entries):
            for _ in range(depth):
                wrapped = {"": wrapped}
            try:
                text = memoryview(fast(wrapped))[opening:-closing]  # copied once, joined to the separator
            except TypeError:  # orjson.JSONEncodeError: written below, as the standard library writes it
                pass
        if text is None:
            text = ("," + inner).encode().join([_member(key, value, inner) for key, value in entries])
        yield separator + text
        separator = following
    yield b"{}" if separator is first else (newline + "}").encode()


def _member(key: Any, value: Any, inner: str) -> bytes:
    """One member as `indented_json` writes it, its value's lines indented by `inner`."""
    fast = _indented_by_orjson()
    if fast is not None and key.__class__ is str:
        try:
            return (_encode_string(key) + ": ").encode("utf-8") + fast(value).replace(b"\n", inner.encode())
        except TypeError:  # orjson.JSONEncodeError: written below
            pass
    parts: list[str] = [_member_name(key), ": "]
    _indented(value, parts, inner)
    return "".join(parts).encode("utf-8")


@functools.cache
def _indented_by_orjson() -> Callable[[Any], bytes] | None:
    """orjson.dumps with two-space indentation, placing single-line `Rendered` values as they are written
    (None without orjson, a declared dependency)."""
    try:
        import orjson
    except ImportError:  # pragma: no cover - a declared dependency; indented_json writes the same
        return None
    option = orjson.OPT_INDENT_2

    def rendered(value: Any) -> Any:
        if value.__class__ is Rendered and "\n" not in value.text:
            return orjson.Fragment(value.text.encode("utf-8"))
        raise TypeError(f"Type is not JSON serializable: {value.__class__.__name__}")

    return lambda value: orjson.dumps(value, default=rendered, option=option)


def _indented(value: Any, parts: list[str], newline: str) -> None:
    kind = value.__class__
    if kind is str:
        parts.append(_encode_string(value))
    elif kind is dict:
        if not value:
            parts.append("{}")
            return
        inner = newline + "  "
        separator = "{" + inner
        for key, item in value.items():
            parts.append(separator)
            parts.append(_member_name(key))
            parts.append(": ")
            _indented(item, parts, inner)
            separator = "," + inner
        parts.append(newline + "}")
    elif kind is list or kind is tuple:
        if not value:
            parts.append("[]")
            return
        inner = newline + "  "
        separator = "[" + inner
        for item in value:
            parts.append(separator)
            _indented(item, parts, inner)
            separator = "," + inner
        parts.append(newline + "]")
    elif kind is Rendered:
        parts.append(value.text if newline == "\n" else value.text.replace("\n", newline))
    elif kind is bool:
        parts.append("true" if value else "false")
    elif kind is int:
        parts.append(int.__repr__(value))
    elif value is None:
        parts.append("null")
    elif isinstance(value, float):  # the standard library's spelling, specials included
        parts.append(json.dumps(value))
    elif isinstance(value, (str, dict, list, tuple, int)):  # subclasses: as their base, the same way
        base = next(base for base in (bool, str, dict, list, tuple, int) if isinstance(value, base))
        _indented(base(value), parts, newline)
    else:
        raise TypeError(f"Object of type {kind.__name__} is not JSON serializable")


def _member_name(key: Any) -> str:
    """An object member's name as the standard library writes it (a key that is not a string, converted)."""
    return _encode_string(key) if key.__class__ is str else _encode_string(_key_text(key))


def _key_text(key: Any) -> str:
    """How the standard library spells a non-string key (it converts them, as JSON keys must be strings)."""
    if key is True:
        return "true"
    if key is False:
        return "false"
    if key is None:
        return "null"
    if isinstance(key, float):
        return json.dumps(key)
    if isinstance(key, int):
        return int.__repr__(key)
    raise TypeError(f"keys must be str, int, float, bool or None, not {key.__class__.__name__}")
