"""The one reader of JSON and YAML documents: every source, snapshot, record, sidecar and configuration
value that govern reads from a file passes through here.

A document is accepted only when its meaning is unambiguous and survives a round trip through any
conforming JSON implementation, so nothing is lost and nothing is silently resolved:

- duplicate object keys are refused (JSON parsers disagree on which value wins);
- numbers must be finite IEEE doubles: `1e400` (infinity), `1e-400` (rounds to zero), NaN and Infinity
  are refused, and so are integers too large for a double;
- strings may not hold lone UTF-16 surrogates (`"\\ud800"`): they cannot be written as UTF-8;
- nesting deeper than MAX_DEPTH is refused, the same limit for every command;
- YAML: alias expansion may add at most MAX_ALIAS_NODES nodes, recursive aliases are refused, and only
  JSON-compatible values are produced (timestamps stay the text written; keys become strings).

Every refusal is an InputError naming the file, line and column. JSON goes through the C parser first,
and what it cannot see (duplicate keys, depth, integers beyond 64 bits) is proved absent at C speed from
a compact re-serialization (orjson); only what that proof leaves open is parsed again with a Python hook per
object, and only when that path meets something to refuse does the positional parser below run, to say where.
"""

from __future__ import annotations

import functools
import json
import math
import re
import sys
from typing import Any, Callable

from govern.errors import InputError, Problem
from govern.process import long_lived

MAX_DEPTH = 128
MAX_ALIAS_NODES = 100_000
# The longest integer literal that can be a finite double (1.8e308 has 309 digits).
_MAX_INTEGER_DIGITS = 309

_HINT = "correct the file: govern reads only unambiguous JSON and YAML (limits in the README)"


class _Fault(Exception):
    """A refusal found by the positional parser: a reason and a character offset."""

    def __init__(self, reason: str, offset: int):
        super().__init__(reason)
        self.reason = reason
        self.offset = offset


class _FastPathRefused(Exception):
    """The C parser met something the strict rules refuse; the positional parser will say where."""


def _location(text: str, offset: int) -> tuple[int, int]:
    line = text.count("\n", 0, offset) + 1
    column = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return line, column


def _refusal(origin: str, text: str, reason: str, offset: int) -> InputError:
    line, column = _location(text, offset)
    return InputError(Problem(origin, reason, line=line, column=column, hint=_HINT))


# --- numbers -----------------------------------------------------------------------------------------------

def _integer(literal: str) -> int:
    digits = literal.lstrip("-")
    if len(digits) > _MAX_INTEGER_DIGITS or abs(int(literal)) > sys.float_info.max:
        raise ValueError(f"the integer {_abbreviate(literal)} is too large for an IEEE double")
    return int(literal)


def _float(literal: str) -> float:
    value = float(literal)
    if math.isinf(value):
        raise ValueError(f"the number {_abbreviate(literal)} is beyond the range of an IEEE double")
    if value == 0.0 and re.search("[1-9]", literal.lower().partition("e")[0]):
        raise ValueError(f"the number {_abbreviate(literal)} is too small for an IEEE double (it would become 0)")
    return value


def _abbreviate(literal: str) -> str:
    return literal if len(literal) <= 24 else f"{literal[:10]}...{literal[-10:]} ({len(literal)} characters)"


# --- the fast path -----------------------------------------------------------------------------------------

def _fast_pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result = dict(pairs)
    if len(result) != len(pairs):
        raise _FastPathRefused
    return result


def _fast_integer(literal: str) -> int:
    try:
        return _integer(literal)
    except ValueError:
        raise _FastPathRefused from None


def _fast_float(literal: str) -> float:
    try:
        return _float(literal)
    except ValueError:
        raise _FastPathRefused from None


def _fast_constant(literal: str) -> Any:
    raise _FastPathRefused


_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


def _nests_too_deeply(value: Any) -> bool:
    """Breadth-first over containers only: cheaper than scanning the text for brackets outside strings."""
    level = [value] if isinstance(value, (dict, list)) else []
    depth = 0
    while level:
        depth += 1
        if depth > MAX_DEPTH:
            return True
        deeper: list[Any] = []
        for item in level:
            children = item.values() if type(item) is dict else item
            deeper.extend([child for child in children if type(child) is dict or type(child) is list])
        level = deeper
    return False


# orjson refuses to serialize more than this many nested containers (checked once per process, see
# compact_serializer): a document wrapped in this many minus MAX_DEPTH lists serializes iff it nests no
# deeper than MAX_DEPTH.
_ORJSON_NESTING = 254


def _nested_lists(levels: int) -> list:
    value: list = []
    for _ in range(levels - 1):
        value = [value]
    return value


@functools.cache
def compact_serializer() -> Callable[[Any], bytes] | None:
    """orjson.dumps (compact JSON text as bytes, every key written `"key":`, every JSON type told apart),
    when it is installed and refuses exactly what nests deeper than _ORJSON_NESTING; else None."""
    try:
        import orjson
    except ImportError:  # pragma: no cover - a declared dependency; the hooked parse below stays exact
        return None

    def serializes(value: Any) -> bool:
        try:
            orjson.dumps(value)
        except orjson.JSONEncodeError:
            return False
        return True
    deepest = _nested_lists(_ORJSON_NESTING)
    if serializes(deepest) and not serializes([deepest]) and serializes({"a": deepest[0]}) \
            and not serializes({"a": deepest}):
        return orjson.dumps
    return None  # pragma: no cover - another orjson with another limit: the hooked parse below stays exact


def kept_text(text: bytes) -> bytes:
    """A copy of a compact text to keep (as a dictionary key, say): orjson's bytes keep the whole buffer they
    were written into, four kilobytes at least, so a table of its small texts would hold forty times their
    size; the copy holds the text alone. (Joining two empty texts with it copies it into a new object of its
    size, in a fifth of the time `bytes(memoryview(text))` takes.)"""
    return text.join(_TWO_EMPTY)


_TWO_EMPTY = (b"", b"")


def _proved_strict(text: str, value: Any) -> bytes | None:
    """The compact serialization of `value` wrapped in lists (see below) when `value`, parsed from `text` by
    the C parser without per-object hooks, is proved to come from a text with no duplicate key, no integer
    beyond 64 bits and no nesting deeper than MAX_DEPTH; else None.

    Duplicate keys: the colons of a JSON text are its key separators plus the literal colons inside its
    strings; a compact serialization of the parsed value has one separator per key kept and every colon of
    its strings literally. A duplicate drops a key (and whatever colons its value held), so the text has
    more colons than the serialization, unless some colons of the text's strings were escapes (\\u003a),
    each of which spells `u003a` or `u003A`. So the text has no duplicate key when its colons plus those
    spellings are no more than the serialization's colons (equal in every ordinary document).
    Depth and integers: orjson refuses integers beyond 64 bits and the wrapped value beyond its limit."""
    dumps = compact_serializer()
    if dumps is None:
        return None  # pragma: no cover - see compact_serializer
    wrapped = value
    for _ in range(_ORJSON_NESTING - MAX_DEPTH):
        wrapped = [wrapped]
    try:
        compact = dumps(wrapped)
    except TypeError:  # orjson.JSONEncodeError: too deep, or an integer beyond 64 bits
        return None
    # Escapes need a backslash: most documents have none, which one search for a single character tells.
    escaped_colons = text.count("u003a") + text.count("u003A") if "\\" in text else 0
    return compact if text.count(":") + escaped_colons <= compact.count(b":") else None


def parse_json(text: str, origin: str) -> Any:
    """Parse one JSON document strictly; any refusal is an InputError naming origin, line and column."""
    return parse_json_compact(text, origin)[0]


def parse_json_compact(text: str, origin: str) -> tuple[Any, bytes | None]:
    """`parse_json`, and a compact serialization of the value when reading it made one (None otherwise): the
    value's text as compact_serializer writes it, wrapped in lists, so every key of every object in it is
    written `"key":` (a caller asking which keys occur need not serialize the value again)."""
    with long_lived():
        return _parse_json(text, origin)


def _parse_json(text: str, origin: str) -> tuple[Any, bytes | None]:
    # (a backslash looked for first: a search for one character costs a fraction of the expression's, and many
    # texts hold none)
    if "\\" not in text or not _SURROGATE_ESCAPE.search(text):
        try:
            # Numbers with a fraction or an exponent are few and each needs its range checked: a hook. NaN
            # and Infinity are refused by theirs.
            value = json.loads(text, parse_float=_fast_float, parse_constant=_fast_constant)
        except (ValueError, RecursionError, _FastPathRefused):
            pass  # the positional parser below names the place
        else:
            compact = _proved_strict(text, value)
            if compact is not None:
                return value, compact
            try:
                value = json.loads(text, object_pairs_hook=_fast_pairs, parse_int=_fast_integer,
                                   parse_float=_fast_float, parse_constant=_fast_constant)
            except (ValueError, RecursionError, _FastPathRefused):
                pass
            else:
                if text.count("[") + text.count("{") <= MAX_DEPTH or not _nests_too_deeply(value):
                    return value, None
    try:
        return _parse_located(text), None
    except _Fault as fault:
        raise _refusal(origin, text, fault.reason, fault.offset) from None


# --- the positional parser ---------------------------------------------------------------------------------

_WHITESPACE = re.compile(r"[ \t\n\r]*")
_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?")
_ESCAPE = re.compile(r"\\(u[0-9a-fA-F]{4}|.)", re.DOTALL)
_SURROGATE = re.compile("[\ud800-\udfff]")
_LIST = object()


def _skip(text: str, index: int) -> int:
    return _WHITESPACE.match(text, index).end()


def _string(text: str, index: int) -> tuple[str, int]:
    """The string starting at the quote at index, and the index after its closing quote."""
    from json.decoder import scanstring

    try:
        value, end = scanstring(text, index + 1, True)
    except json.JSONDecodeError as error:
        raise _Fault(f"is not valid JSON: {error.msg}", error.pos) from None
    if _SURROGATE.search(value):
        raise _Fault("a string holds a lone UTF-16 surrogate "
                     "(an unpaired \\ud800-\\udfff escape), which no UTF-8 file can hold",
                     _lone_surrogate_offset(text, index + 1, end))
    return value, end


def _lone_surrogate_offset(text: str, start: int, end: int) -> int:
    escapes = [(match.start(), match.group(1)) for match in _ESCAPE.finditer(text, start, end)]
    for position, (offset, escape) in enumerate(escapes):
        if len(escape) != 5:
            continue
        code = int(escape[1:], 16)
        if 0xD800 <= code <= 0xDBFF:
            follower = escapes[position + 1] if position + 1 < len(escapes) else None
            if follower and follower[0] == offset + 6 and len(follower[1]) == 5 \
                    and 0xDC00 <= int(follower[1][1:], 16) <= 0xDFFF:
                continue
            return offset
        if 0xDC00 <= code <= 0xDFFF:
            previous = escapes[position - 1] if position else None
            if not (previous and previous[0] == offset - 6 and len(previous[1]) == 5
                    and 0xD800 <= int(previous[1][1:], 16) <= 0xDBFF):
                return offset
    return start


def _number(text: str, index: int) -> tuple[int | float, int]:
    match = _NUMBER.match(text, index)
    if match is None or match.end() == index:
        raise _Fault("is not valid JSON: expected a value", index)
    literal = match.group(0)
    try:
        value: int | float = _float(literal) if match.group(1) or match.group(2) else _integer(literal)
    except ValueError as error:
        raise _Fault(f"{error}", index) from None
    return value, match.end()


_KEYWORDS = (("true", True), ("false", False), ("null", None))
_NOT_JSON = ("NaN", "Infinity", "-Infinity")


def _key(text: str, index: int, container: dict) -> tuple[str, int]:
    if not text.startswith('"', index):
        raise _Fault("is not valid JSON: expected a property name in double quotes", index)
    key, end = _string(text, index)
    if key in container:
        raise _Fault(f"has a duplicate key {json.dumps(key, ensure_ascii=False)} in one object "
                     "(JSON readers disagree on which value wins)", index)
    end = _skip(text, end)
    if not text.startswith(":", end):
        raise _Fault("is not valid JSON: expected ':' after a property name", end)
    return key, _skip(text, end + 1)


def _parse_located(text: str) -> Any:
    """An iterative strict parser that knows where it is; it refuses with a _Fault at the offending offset."""
    length = len(text)
    stack: list[list[Any]] = []  # [container, key or _LIST]
    index = _skip(text, 0)
    while True:
        if index >= length:
            raise _Fault("is not valid JSON: the document ends where a value is expected", index)
        char = text[index]
        value: Any
        if char in "[{":
            if len(stack) >= MAX_DEPTH:
                raise _Fault(f"nests deeper than {MAX_DEPTH} levels, the limit for every document",
                             index)
            after = _skip(text, index + 1)
            if text.startswith("]" if char == "[" else "}", after):
                value, index = ([] if char == "[" else {}), after + 1
            elif char == "[":
                stack.append([[], _LIST])
                index = after
                continue
            else:
                container: dict = {}
                key, index = _key(text, after, container)
                stack.append([container, key])
                continue
        elif char == '"':
            value, index = _string(text, index)
        elif any(text.startswith(word, index) for word in _NOT_JSON):
            raise _Fault("is not valid JSON: NaN and Infinity are not JSON numbers", index)
        elif char == "-" or char.isdigit():
            value, index = _number(text, index)
        else:
            for word, constant in _KEYWORDS:
                if text.startswith(word, index):
                    value, index = constant, index + len(word)
                    break
            else:
                raise _Fault("is not valid JSON: expected a value", index)
        while True:
            index = _skip(text, index)
            if not stack:
                if index != length:
                    raise _Fault("is not valid JSON: extra data after the document", index)
                return value
            frame = stack[-1]
            if frame[1] is _LIST:
                frame[0].append(value)
            else:
                frame[0][frame[1]] = value
            if text.startswith(",", index):
                index = _skip(text, index + 1)
                if frame[1] is not _LIST:
                    frame[1], index = _key(text, index, frame[0])
                break
            if text.startswith("]" if frame[1] is _LIST else "}", index):
                stack.pop()
                value, index = frame[0], index + 1
                continue
            raise _Fault("is not valid JSON: expected ',' or '" + ("]" if frame[1] is _LIST else "}")
                         + "'", index)


# --- values produced by code (pydantic schemas) ------------------------------------------------------------

def check_json_value(value: Any, origin: str) -> Any:
    """Refuse what the strict parser would refuse in a value built by code rather than read from text."""
    pending: list[tuple[Any, str, int]] = [(value, "", 1)]
    while pending:
        item, pointer, depth = pending.pop()
        if depth > MAX_DEPTH and isinstance(item, (dict, list, tuple)):
            raise InputError(Problem(origin, f"nests deeper than {MAX_DEPTH} levels at {pointer}", hint=_HINT))
        reason = None
        if isinstance(item, float) and not math.isfinite(item):
            reason = f"holds the number {item}, which is not a JSON number"
        elif isinstance(item, str) and _SURROGATE.search(item):
            reason = "holds a string with a lone UTF-16 surrogate"
        elif isinstance(item, dict):
            for key, child in item.items():
                if not isinstance(key, str) or _SURROGATE.search(key):
                    reason = f"holds a key {key!r} that is not a JSON string"
                    break
                pending.append((child, f"{pointer}/{key}", depth + 1))
        elif isinstance(item, (list, tuple)):
            pending.extend((child, f"{pointer}/{position}", depth + 1) for position, child in enumerate(item))
        elif item is not None and not isinstance(item, (str, int, float, bool)):
            reason = f"holds a {type(item).__name__}, which is not a JSON value"
        if reason:
            raise InputError(Problem(origin, f"{reason} (at {pointer or '/'})", hint=_HINT))
    return value


# --- YAML --------------------------------------------------------------------------------------------------

_TAG = "tag:yaml.org,2002:"
_SCALAR_TAGS = {_TAG + name for name in ("str", "int", "float", "bool", "null", "timestamp")}


def parse_yaml(text: str, origin: str) -> Any:
    """Parse one YAML document into JSON values, with the same refusals as JSON plus bounded aliases."""
    from ruamel.yaml import YAML
    from ruamel.yaml.error import MarkedYAMLError, YAMLError

    loader = YAML(typ="safe", pure=False)
    try:
        node = loader.compose(text)
    except MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        reason = error.problem or error.context
        raise InputError(Problem(origin, f"is not valid YAML: {reason}",
                                 line=None if mark is None else mark.line + 1,
                                 column=None if mark is None else mark.column + 1, hint=_HINT)) from None
    except YAMLError as error:
        raise InputError(Problem(origin, f"is not valid YAML: {error}", hint=_HINT)) from None
    except RecursionError:
        raise InputError(Problem(origin, f"nests deeper than {MAX_DEPTH} levels, the limit for every document",
                                 hint=_HINT)) from None
    if node is None:
        return None
    _YamlBudget(origin).measure(node)
    return _YamlBuilder(origin, loader.constructor).build(node)


def _yaml_refusal(origin: str, node: Any, reason: str) -> InputError:
    mark = node.start_mark
    return InputError(Problem(origin, reason, line=mark.line + 1, column=mark.column + 1, hint=_HINT))


class _YamlBudget:
    """Counts the nodes a document expands to, sharing work between aliases of one anchor, so an alias bomb
    is measured in time proportional to its text and refused before anything is built."""

    def __init__(self, origin: str):
        self.origin = origin
        self.sizes: dict[int, int] = {}
        self.heights: dict[int, int] = {}

    def measure(self, root: Any) -> None:
        own = self._walk(root)
        expanded = self.sizes[id(root)]
        if expanded - own > MAX_ALIAS_NODES:
            raise _yaml_refusal(self.origin, root, f"expands its aliases to {expanded} nodes from {own}; aliases may "
                                                   f"add at most {MAX_ALIAS_NODES} nodes to a document")
        if self.heights[id(root)] > MAX_DEPTH:
            raise _yaml_refusal(self.origin, root, f"nests deeper than {MAX_DEPTH} levels (counting aliases), "
                                                   "the limit for every document")

    def _walk(self, root: Any) -> int:
        """Post-order without recursion; returns the number of distinct nodes."""
        on_path: set[int] = set()
        stack: list[tuple[Any, bool]] = [(root, False)]
        while stack:
            node, done = stack.pop()
            key = id(node)
            children = _children(node)
            if done:
                on_path.discard(key)
                self.sizes[key] = 1 + sum(self.sizes[id(child)] for child in children)
                # Like JSON nesting: a scalar adds no level, a mapping or a list adds one.
                self.heights[key] = 0 if not children and not _is_collection(node) else \
                    1 + max((self.heights[id(child)] for child in children), default=0)
                continue
            if key in self.sizes:
                continue
            if key in on_path:
                raise _yaml_refusal(self.origin, node, "has a recursive alias (an anchor used inside itself)")
            on_path.add(key)
            stack.append((node, True))
            for child in children:
                if id(child) in on_path:
                    raise _yaml_refusal(self.origin, child,
                                        "has a recursive alias (an anchor used inside itself)")
                if id(child) not in self.sizes:
                    stack.append((child, False))
        return len(self.sizes)


def _is_collection(node: Any) -> bool:
    from ruamel.yaml.nodes import MappingNode, SequenceNode

    return isinstance(node, (MappingNode, SequenceNode))


def _children(node: Any) -> list[Any]:
    from ruamel.yaml.nodes import MappingNode, SequenceNode

    if isinstance(node, MappingNode):
        return [part for pair in node.value for part in pair]
    if isinstance(node, SequenceNode):
        return list(node.value)
    return []


class _YamlBuilder:
    """Builds JSON values from composed nodes (a fresh copy per alias: the budget already bounds the size)."""

    def __init__(self, origin: str, constructor: Any):
        self.origin = origin
        self.constructor = constructor

    def build(self, root: Any) -> Any:
        from ruamel.yaml.nodes import MappingNode, SequenceNode

        result: list[Any] = []
        # Work items: (node, place to put the value) where place is (container, key) or None for the result.
        stack: list[tuple[Any, Any, Any]] = [(root, result, None)]
        while stack:
            node, container, key = stack.pop()
            if isinstance(node, MappingNode):
                value: Any = {}
                if str(node.tag) != _TAG + "map":
                    raise _yaml_refusal(self.origin, node, f"uses the tag {node.tag}, which has no JSON meaning")
                for key_node, value_node in node.value:
                    name = self._key(key_node)
                    if name in value:
                        raise _yaml_refusal(self.origin, key_node,
                                            f"has a duplicate key {json.dumps(name, ensure_ascii=False)} in one "
                                            "mapping (readers disagree on which value wins)")
                    value[name] = None
                    stack.append((value_node, value, name))
            elif isinstance(node, SequenceNode):
                if str(node.tag) != _TAG + "seq":
                    raise _yaml_refusal(self.origin, node, f"uses the tag {node.tag}, which has no JSON meaning")
                value = [None] * len(node.value)
                stack.extend((child, value, position) for position, child in enumerate(node.value))
            else:
                value = self._scalar(node)
            if key is None and container is result:
                result.append(value)
            else:
                container[key] = value
        return result[0]

    def _key(self, node: Any) -> str:
        from ruamel.yaml.nodes import ScalarNode

        tag = str(node.tag)
        if not isinstance(node, ScalarNode):
            raise _yaml_refusal(self.origin, node, "has a key that is a mapping or a list; JSON keys are strings")
        if tag == _TAG + "merge":
            raise _yaml_refusal(self.origin, node, "uses a merge key (<<), which govern does not expand; "
                                                   "write the mapping out")
        value = self._scalar(node)
        if tag == _TAG + "str":
            return value
        # A non-string key (`200:` in OpenAPI responses) becomes the text of its JSON form.
        return value if isinstance(value, str) else json.dumps(value)

    def _scalar(self, node: Any) -> Any:
        tag = str(node.tag)
        if tag not in _SCALAR_TAGS:
            raise _yaml_refusal(self.origin, node, f"uses the tag {tag}, which has no JSON meaning")
        text = node.value
        if _SURROGATE.search(text):
            raise _yaml_refusal(self.origin, node, "holds a lone UTF-16 surrogate, which no UTF-8 file can hold")
        if tag == _TAG + "str" or tag == _TAG + "timestamp":
            return text  # a timestamp stays the text written: JSON has no date type
        if tag == _TAG + "int" and len(text.replace("_", "").lstrip("+-")) > _MAX_INTEGER_DIGITS:
            raise _yaml_refusal(self.origin, node, f"holds the integer {_abbreviate(text)}, too large for an IEEE "
                                                   "double")
        try:
            value = self.constructor.construct_object(node)
        except Exception as error:  # ruamel raises several error types for malformed scalars
            raise _yaml_refusal(self.origin, node, f"holds a value that cannot be read: {error}") from None
        if isinstance(value, float):
            if not math.isfinite(value):
                raise _yaml_refusal(self.origin, node, f"holds the number {text}, which is not a JSON number "
                                                       "(beyond the range of an IEEE double, or NaN)")
            if value == 0.0 and re.search("[1-9]", text.lower().partition("e")[0]):
                raise _yaml_refusal(self.origin, node, f"holds the number {text}, too small for an IEEE double")
        elif isinstance(value, int) and not isinstance(value, bool) and abs(value) > sys.float_info.max:
            raise _yaml_refusal(self.origin, node, f"holds the integer {_abbreviate(text)}, too large for an IEEE "
                                                   "double")
        return value
