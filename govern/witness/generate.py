"""Candidate documents for a witness search, built from one side's normalized graph.

No validator is involved here and nothing is random: the same graph, path and hints give the same
candidates in the same order, so a search that stops at the first confirmed candidate finds the same
witness on every run. A candidate is only a guess; `search` keeps the ones a validator confirms.

The building blocks:

- `minimal(side, node)`: a small value meant to be valid (required properties only, lower bounds met);
- `candidates(side, node, hints)`: values around what a change may have moved: every bound plus or minus
  one, every enum and const value met on either side, each optional property present or absent, a value
  of every type for an unconstrained slot, objects of two union alternatives merged (for `oneOf`);
- `documents(side, root, tokens, leaf)`: whole documents of the root that hold a leaf candidate at the
  instance location the change's schema path names (properties by name, array items, tuple positions,
  union alternatives, intersection operands), minimal everywhere else.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Iterator

from govern.model.nodes import (
    Applicator, Array, Enum, Intersection, Literal, Map, Never, Node, Object, Opaque, Primitive, Ref, Tuple, Union,
    children,
)
from govern.patterns import claims_name

ABSENT = type("Absent", (), {"__repr__": lambda self: "ABSENT"})()  # the location holds no value
MAX_DEPTH = 24  # deeper than this, a recursive type contributes no further required structure
VARIANTS = 12  # candidate values tried per property or item when varying a whole object or array
MAX_LENGTH = 4096  # no string or array longer than this is built
APPLICATOR_LABELS = ("not", "if", "then", "else", "contains", "propertyNames", "dependentSchemas")
EXTRA_NAMES = ("extra", "x-extra", "witness", "unknown", "z")
MAP_KEY = "key"  # the name a map's entry is written under
ENTRY_NAMES = (MAP_KEY, *EXTRA_NAMES, "x" * 40)  # names an entry of a map or an open object may have
FORMAT_SAMPLES = {
    "date-time": "2026-01-01T00:00:00Z", "date": "2026-01-01", "time": "00:00:00Z", "email": "a@example.org",
    "idn-email": "a@example.org", "hostname": "example.org", "idn-hostname": "example.org", "ipv4": "192.0.2.1",
    "ipv6": "2001:db8::1", "uri": "https://example.org/", "uri-reference": "https://example.org/",
    "iri": "https://example.org/", "iri-reference": "https://example.org/", "uuid": "00000000-0000-4000-8000-000000000000",
    "duration": "P1D", "json-pointer": "/a", "relative-json-pointer": "0", "regex": "a", "uri-template": "https://example.org/",
}
_LENGTH_KEYS = ("minLength", "maxLength")
_ITEM_KEYS = ("minItems", "maxItems")
_PROPERTY_KEYS = ("minProperties", "maxProperties")


@dataclass(frozen=True)
class Hints:
    """Values met at the change's location on either side: what a witness most likely has to hit."""

    constants: tuple[str, ...] = ()  # canonical JSON texts of const and enum values
    numbers: tuple[float, ...] = ()  # numeric constraint values (bounds, lengths, multiples)

    def values(self) -> Iterator[Any]:
        for text in self.constants:
            yield json.loads(text)

    def lengths(self) -> list[int]:
        found = {0, 1}
        for number in self.numbers:
            if float(number).is_integer():
                found.update({int(number) - 1, int(number), int(number) + 1})
        return sorted(length for length in found if 0 <= length <= MAX_LENGTH)


def hints_of(side, nodes: Iterable[Node], limit: int = 400) -> Hints:
    """Constants and numbers of the subtrees under the given nodes (a bounded walk through references)."""
    constants: dict[str, None] = {}
    numbers: dict[float, None] = {}
    stack = list(nodes)
    seen = 0
    while stack and seen < limit:
        node = side.resolve(stack.pop())
        seen += 1
        if isinstance(node, Literal):
            constants[node.value] = None
        elif isinstance(node, Enum):
            constants.update(dict.fromkeys(node.values))
        for _, text in getattr(node, "constraints", ()):
            value = json.loads(text)
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                numbers[value] = None
            elif isinstance(value, list):  # const/enum kept verbatim by a dialect quirk, or a type list
                constants.update(dict.fromkeys(json.dumps(item, sort_keys=True) for item in value
                                               if not isinstance(item, (dict, list))))
        if isinstance(node, Object):
            stack.extend(prop.node for prop in node.properties)
            stack.extend(child for _, child in node.pattern_properties)
            stack.append(node.additional)
        else:
            stack.extend(children(node))
    return Hints(tuple(constants), tuple(sorted(numbers)))


def merge(primary: Any, secondary: Any) -> Any:
    """Two partial instances of one location as one: objects are joined, elsewhere the primary wins."""
    if secondary is ABSENT:
        return primary
    if isinstance(primary, dict) and isinstance(secondary, dict):
        joined = dict(secondary)
        for key, value in primary.items():
            joined[key] = merge(value, secondary[key]) if key in secondary else value
        return joined
    return secondary if primary is ABSENT else primary


def _constraints(node: Node) -> dict[str, Any]:
    return {key: json.loads(text) for key, text in getattr(node, "constraints", ())}


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


# --- minimal values -------------------------------------------------------------------------------------


def minimal(side, node: Node, depth: int = 0) -> Any:
    node = side.resolve(node)
    if depth > MAX_DEPTH:
        return None
    if isinstance(node, Primitive):
        return next(_primitive_values(node, Hints()), None)
    if isinstance(node, Literal):
        return json.loads(node.value)
    if isinstance(node, Enum):
        return json.loads(node.values[0]) if node.values else None
    if isinstance(node, Object):
        return object_minimal(side, node, depth)
    if isinstance(node, Map):
        count = int(_constraints(node).get("minProperties", 0))
        return {f"k{index}": minimal(side, node.values, depth + 1) for index in range(min(count, MAX_LENGTH))}
    if isinstance(node, Array):
        count = min(int(_constraints(node).get("minItems", 0)), MAX_LENGTH)
        if count and _constraints(node).get("uniqueItems"):
            return _distinct(candidates(side, node.items, Hints(), depth + 1), count)
        return [minimal(side, node.items, depth + 1)] * count
    if isinstance(node, Tuple):
        items = [minimal(side, item, depth + 1) for item in node.items]
        count = int(_constraints(node).get("minItems", 0))
        while len(items) < count and not isinstance(node.rest, Never):
            items.append(minimal(side, node.rest, depth + 1))
        return items
    if isinstance(node, Union):
        return minimal(side, node.alternatives[0].node, depth + 1) if node.alternatives else None
    if isinstance(node, Intersection):
        value: Any = ABSENT
        for operand in node.operands:
            if not isinstance(side.resolve(operand), Applicator):
                value = merge(value, minimal(side, operand, depth + 1))
        return None if value is ABSENT else value
    if isinstance(node, Opaque):
        return next(_opaque_values(node, Hints()), None)
    return None


def object_minimal(side, obj: Object, depth: int = 0, omit: str | None = None) -> dict:
    value = {prop.name: minimal(side, prop.node, depth + 1) for prop in obj.properties
             if prop.required and not prop.reserved and prop.name != omit}
    wanted = int(_constraints(obj).get("minProperties", 0))
    for prop in obj.properties:
        if len(value) >= wanted:
            break
        if prop.name not in value and not prop.reserved and prop.name != omit:
            value[prop.name] = minimal(side, prop.node, depth + 1)
    return value


def _once(make: Callable[[], Any]) -> Callable[[], Any]:
    """`make()` when first asked for, the same value after: a document's minimal surroundings of a location
    are built only once a document there is written (locating the nodes at a change writes none)."""
    made: list = []

    def value() -> Any:
        if not made:
            made.append(make())
        return made[0]

    return value


def _distinct(values: Iterator[Any], count: int) -> list:
    found: dict[str, Any] = {}
    for value in values:
        found.setdefault(json.dumps(value, sort_keys=True), value)
        if len(found) >= count:
            break
    return list(found.values())


# --- candidate values -----------------------------------------------------------------------------------


def candidates(side, node: Node, hints: Hints, depth: int = 0) -> Iterator[Any]:
    """Values of the node worth trying, the most likely valid first; duplicates are left to the caller."""
    node = side.resolve(node)
    if depth > MAX_DEPTH or isinstance(node, Never):
        return
    if isinstance(node, Primitive):
        yield from _primitive_values(node, hints)
    elif isinstance(node, Literal):
        yield json.loads(node.value)
    elif isinstance(node, Enum):
        yield from (json.loads(value) for value in node.values)
    elif isinstance(node, Object):
        yield from _object_values(side, node, hints, depth)
    elif isinstance(node, Map):
        yield minimal(side, node, depth)
        for count in hints.lengths():
            yield {f"k{index}": minimal(side, node.values, depth + 1) for index in range(count)}
        for value in _first(candidates(side, node.values, hints, depth + 1), VARIANTS):
            yield {**minimal(side, node, depth), MAP_KEY: value}
    elif isinstance(node, Array):
        yield from _array_values(side, node, hints, depth)
    elif isinstance(node, Tuple):
        yield from _tuple_values(side, node, hints, depth)
    elif isinstance(node, Union):
        yield from _union_values(side, node, hints, depth)
    elif isinstance(node, Intersection):
        yield from _intersection_values(side, node, hints, depth)
    elif isinstance(node, Opaque):
        yield from _opaque_values(node, hints)


def _first(values: Iterator[Any], count: int) -> Iterator[Any]:
    for index, value in enumerate(values):
        if index >= count:
            return
        yield value


def _primitive_values(node: Primitive, hints: Hints) -> Iterator[Any]:
    own = _constraints(node)
    if node.type == "string":
        yield from _strings(own, hints)
    elif node.type in ("integer", "number"):
        yield from _numbers(own, hints, integral=node.type == "integer")
    elif node.type == "boolean":
        yield from (False, True)
    elif node.type == "null":
        yield None
    for value in hints.values():  # const/enum met at the location, of this type or not
        yield value


def _strings(own: dict, hints: Hints) -> Iterator[str]:
    bases = [""]
    if isinstance(own.get("pattern"), str):
        bases = sample_regex(own["pattern"]) or [""]
    elif isinstance(own.get("format"), str) and own["format"] in FORMAT_SAMPLES:
        bases = [FORMAT_SAMPLES[own["format"]]]
    low = int(own.get("minLength", 0)) if _is_number(own.get("minLength")) else 0
    yield _padded(bases[0], low)
    for base in bases[1:]:
        yield _padded(base, low)
    for value in hints.values():
        if isinstance(value, str):
            yield value
    numbers = [own[key] for key in _LENGTH_KEYS if _is_number(own.get(key))]
    for length in Hints(numbers=tuple(numbers) + hints.numbers).lengths():
        yield _padded(bases[0], length)


def _padded(base: str, length: int) -> str:
    """The base grown to the length by repeating its last character (a pattern's class usually admits it)."""
    if len(base) >= length:
        return base
    return base + (base[-1] if base else "a") * (length - len(base))


def _numbers(own: dict, hints: Hints, integral: bool) -> Iterator[int | float]:
    low = own.get("minimum") if _is_number(own.get("minimum")) else None
    high = own.get("maximum") if _is_number(own.get("maximum")) else None
    if _is_number(own.get("exclusiveMinimum")):
        step = 1 if integral else 0.5
        low = own["exclusiveMinimum"] + step if low is None else max(low, own["exclusiveMinimum"] + step)
    if _is_number(own.get("exclusiveMaximum")):
        step = 1 if integral else 0.5
        high = own["exclusiveMaximum"] - step if high is None else min(high, own["exclusiveMaximum"] - step)
    start = 0
    if low is not None and start < low:
        start = low
    if high is not None and start > high:
        start = high
    multiple = own.get("multipleOf") if _is_number(own.get("multipleOf")) and own.get("multipleOf") > 0 else None
    if multiple is not None:
        import math

        start = math.ceil(start / multiple) * multiple
    yield _shape(start, integral)
    values = [0, 1, -1]
    for bound in list(hints.numbers) + [v for v in (low, high, multiple) if v is not None]:
        values.extend([bound - 1, bound, bound + 1])
        if not integral:
            values.extend([bound - 0.5, bound + 0.5])
        if multiple is not None:
            values.append(bound * multiple)
    if not integral:
        values.append(0.5)
    for value in values:
        yield _shape(value, integral)


def _shape(value: float, integral: bool) -> int | float:
    if integral or float(value).is_integer():
        return int(value) if float(value).is_integer() else value
    return value


def _object_values(side, node: Object, hints: Hints, depth: int) -> Iterator[dict]:
    base = object_minimal(side, node, depth)
    yield base
    optional = [prop for prop in node.properties if not prop.required and not prop.reserved]
    for prop in optional:
        yield {**base, prop.name: minimal(side, prop.node, depth + 1)}
    if optional:
        yield {**base, **{prop.name: minimal(side, prop.node, depth + 1) for prop in optional}}
    if depth <= 2:
        for prop in node.properties:
            if prop.reserved:
                continue
            for value in _first(candidates(side, prop.node, hints, depth + 1), VARIANTS):
                yield {**base, prop.name: value}
            if prop.required:
                yield {key: value for key, value in base.items() if key != prop.name}
    for count in hints.lengths():  # around minProperties/maxProperties: declared names first, then extra
        names = [prop.name for prop in node.properties if not prop.reserved]
        value = {}
        for name in names[:count]:
            value[name] = base.get(name, minimal(side, node.property(name).node, depth + 1))
        if len(value) == count:
            yield value


def _array_values(side, node: Array, hints: Hints, depth: int) -> Iterator[list]:
    yield minimal(side, node, depth)
    own = _constraints(node)
    item = minimal(side, node.items, depth + 1)
    numbers = tuple(own[key] for key in _ITEM_KEYS if _is_number(own.get(key))) + hints.numbers
    variants = list(_first(candidates(side, node.items, hints, depth + 1), VARIANTS))
    for count in Hints(numbers=numbers).lengths():
        yield [item] * count
        if own.get("uniqueItems") and count > 1:
            yield _distinct(iter(variants), count)
    for value in variants:
        yield [value]
    if variants:
        yield [variants[0], variants[0]]


def _tuple_values(side, node: Tuple, hints: Hints, depth: int) -> Iterator[list]:
    base = minimal(side, node, depth)
    yield base
    for position, item in enumerate(node.items):
        for value in _first(candidates(side, item, hints, depth + 1), VARIANTS):
            yield base[:position] + [value] + base[position + 1:]
    for count in range(len(base)):
        yield base[:count]
    if not isinstance(side.resolve(node.rest), Never):
        for value in _first(candidates(side, node.rest, hints, depth + 1), VARIANTS):
            yield base + [value]


def _union_values(side, node: Union, hints: Hints, depth: int) -> Iterator[Any]:
    streams = [candidates(side, alternative.node, hints, depth + 1) for alternative in node.alternatives]
    firsts = [minimal(side, alternative.node, depth + 1) for alternative in node.alternatives]
    # Round robin, so every alternative shows up early even when one has many candidates.
    while streams:
        for stream in list(streams):
            value = next(stream, ABSENT)
            if value is ABSENT:
                streams.remove(stream)
            else:
                yield value
    # A value two alternatives both accept is what an exclusive union (oneOf) rejects.
    for i, first in enumerate(firsts):
        for second in firsts[i + 1:]:
            if isinstance(first, dict) and isinstance(second, dict):
                yield merge(first, second)


def _intersection_values(side, node: Intersection, hints: Hints, depth: int) -> Iterator[Any]:
    for operand, others in _operands_with_the_rest(side, node, depth):
        for value in candidates(side, operand, hints, depth + 1):
            yield merge(value, others())
    yield from hints.values()


def _operands_with_the_rest(side, node: Intersection, depth: int) -> Iterator[tuple[Node, Callable[[], Any]]]:
    """Each operand that describes values (not an applicator), with the minimal value of all the others (built
    when first asked for)."""
    operands = [operand for operand in node.operands if not isinstance(side.resolve(operand), Applicator)]
    bases = _once(lambda: [minimal(side, operand, depth + 1) for operand in operands])

    def the_rest(index: int) -> Any:
        others: Any = ABSENT
        for position, value in enumerate(bases()):
            if position != index:
                others = merge(others, value)
        return others

    for index, operand in enumerate(operands):
        yield operand, _once(lambda index=index: the_rest(index))


def _opaque_values(node: Opaque, hints: Hints) -> Iterator[Any]:
    own = _constraints(node)
    if any(key in own for key in ("properties", "required", "minProperties", "maxProperties")):
        yield {}
    elif any(key in own for key in ("minLength", "maxLength", "pattern", "format")):
        yield from _strings(own, hints)
    elif any(key in own for key in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf")):
        yield from _numbers(own, hints, integral=False)
    elif any(key in own for key in ("minItems", "maxItems", "uniqueItems")):
        yield []
    yield from (None, False, 0, "", {}, [], True, 1, 0.5, "a")
    yield from hints.values()
    for length in hints.lengths():
        yield "a" * length
        yield [None] * length
    for number in hints.numbers:
        yield from (number - 1, number, number + 1)


# --- documents along a path -----------------------------------------------------------------------------


Leaf = Callable[[Node | None], Iterator[Any]]


def split_pointer(pointer: str) -> list[str]:
    return [token.replace("~1", "/").replace("~0", "~") for token in pointer.split("/")[1:]] if pointer else []


def documents(side, node: Node, tokens: list[str], leaf: Leaf, depth: int = 0,
              undeclared: bool = False) -> Iterator[Any]:
    """Instances of the node whose value at the schema location `tokens` comes from `leaf`.

    `leaf` receives the node found there on this side, or None when this side has no such location (a
    property it does not declare); it may yield ABSENT for "no value here". With `undeclared`, a property
    this side does not declare is also written as its content model admits it (any value, for an open
    object): the data an old writer could have produced under a name it did not know.
    """
    node = side.resolve(node)
    if depth > MAX_DEPTH or isinstance(node, Never):
        return
    if not tokens:
        yield from leaf(node)
        return
    head, rest = tokens[0], tokens[1:]
    if isinstance(node, Object):
        yield from _object_documents(side, node, head, rest, leaf, depth, undeclared)
    elif isinstance(node, Map) and head == "additionalProperties":
        base = _once(lambda: minimal(side, node, depth))
        for value in documents(side, node.values, rest, leaf, depth + 1, undeclared):
            yield base() if value is ABSENT else {**base(), MAP_KEY: value}
    elif isinstance(node, Array) and head == "items":
        base = _once(lambda: minimal(side, node, depth))
        for value in documents(side, node.items, rest, leaf, depth + 1, undeclared):
            yield base() if value is ABSENT else [value] + base()[1:]
    elif isinstance(node, Tuple) and head in ("prefixItems", "items"):
        yield from _tuple_documents(side, node, head, rest, leaf, depth, undeclared)
    elif isinstance(node, Union):
        yield from _union_documents(side, node, head, rest, tokens, leaf, depth, undeclared)
    elif isinstance(node, Intersection):
        yield from _intersection_documents(side, node, head, rest, tokens, leaf, depth, undeclared)
    elif head in _PLACES_BELOW and isinstance(node, (Primitive, Literal, Enum)):
        return  # a scalar holds no property, item or entry: this side has no such location
    else:  # a keyword of the node itself (a constraint, `not`, ...): the node is the location
        yield from leaf(node)


_PLACES_BELOW = ("properties", "patternProperties", "additionalProperties", "items", "prefixItems")


def _object_documents(side, node: Object, head: str, rest: list[str], leaf: Leaf, depth: int,
                      undeclared: bool = False) -> Iterator[Any]:
    if head == "properties" and rest:
        name, deeper = rest[0], rest[1:]
        base = _once(lambda: object_minimal(side, node, depth, omit=name))
        prop = node.property(name)
        if prop is None or prop.reserved:
            if not deeper:
                for value in leaf(None):
                    if value is ABSENT:
                        yield base()
                claimed = claims_name(node.pattern_properties, name)
                if undeclared and prop is None and not claimed:
                    for value in leaf(node.additional):
                        if value is not ABSENT:
                            yield {**base(), name: value}
            return
        if not prop.required and not deeper:
            yield base()
        for value in documents(side, prop.node, deeper, leaf, depth + 1, undeclared):
            yield base() if value is ABSENT else {**base(), name: value}
    elif head == "additionalProperties":
        base = _once(lambda: object_minimal(side, node, depth))
        name = extra_name(node)
        for value in documents(side, node.additional, rest, leaf, depth + 1, undeclared):
            if value is not ABSENT:
                yield {**base(), name: value}
    elif head == "patternProperties" and rest:
        base = _once(lambda: object_minimal(side, node, depth))
        governing = node.pattern_schema(rest[0])
        if governing is None:
            governing = node.additional
        for key in sample_regex(rest[0]):
            if node.property(key) is not None:
                continue
            for value in documents(side, governing, rest[1:], leaf, depth + 1, undeclared):
                if value is not ABSENT:
                    yield {**base(), key: value}
    else:
        yield from leaf(node)


def extra_name(node: Object) -> str:
    """An undeclared property name no pattern of the object claims."""
    for name in EXTRA_NAMES:
        if node.property(name) is None and not claims_name(node.pattern_properties, name):
            return name
    return ENTRY_NAMES[-1]


def _tuple_documents(side, node: Tuple, head: str, rest: list[str], leaf: Leaf, depth: int,
                     undeclared: bool = False) -> Iterator[Any]:
    if head == "prefixItems" and rest and rest[0].isdigit():
        position, deeper = int(rest[0]), rest[1:]
    elif head == "items":
        position, deeper = len(node.items), rest
    else:
        yield from leaf(node)
        return
    base = _once(lambda: minimal(side, node, depth))
    slot = node.items[position] if position < len(node.items) else node.rest
    prefix = _once(lambda: (base() + [minimal(side, node.rest, depth + 1)] * position)[:position])
    for value in documents(side, slot, deeper, leaf, depth + 1, undeclared):
        yield prefix() if value is ABSENT else prefix() + [value] + base()[position + 1:]


def _union_documents(side, node: Union, head: str, rest: list[str], tokens: list[str], leaf: Leaf,
                     depth: int, undeclared: bool = False) -> Iterator[Any]:
    if head not in ("anyOf", "oneOf"):  # the path passes through the union into whichever alternative has it
        for alternative in node.alternatives:
            yield from documents(side, alternative.node, tokens, leaf, depth + 1, undeclared)
        return
    if not rest:
        yield from leaf(node)
        return
    # A discriminator value names the group of alternatives the change is in.
    named = _groups_by_kind(side, node).get(rest[0])
    group, rest = (named, rest[1:]) if named else (list(node.alternatives), rest)
    for alternative, deeper in _by_position(group, rest):
        yield from documents(side, alternative.node, deeper, leaf, depth + 1, undeclared)


def _by_position(alternatives: list, tokens: list[str]) -> Iterator[tuple[Any, list[str]]]:
    """The alternatives to look in: the one a position token names first (the position may count on the other
    side, so the rest follow), or all of them in order."""
    if tokens and tokens[0].isdigit():
        position, deeper = int(tokens[0]), tokens[1:]
        if position < len(alternatives):
            yield alternatives[position], deeper
        for index, alternative in enumerate(alternatives):
            if index != position:
                yield alternative, deeper
        return
    for alternative in alternatives:
        yield alternative, tokens


def _groups_by_kind(side, node: Union) -> dict[str, list]:
    """The union's alternatives by each discriminator value (a `kind` or `type` property's literal, or a tag) that
    names them, in the union's order; made once per union and side: every change inside a union of thousands
    asks for its group (each asking every alternative made searching quadratic in the union)."""
    known = side._kind_groups.get(id(node))
    if known is None:
        groups: dict[str, list] = {}
        for alternative in node.alternatives:
            values = _kinds(side, alternative.node)
            values.update(value for value in map(json.loads, alternative.tags) if isinstance(value, str))
            for value in values:
                groups.setdefault(value, []).append(alternative)
        known = side._kind_groups[id(node)] = (node, groups)
    return known[1]


def _kinds(side, node: Node) -> set[str]:
    from govern.classify.changes import discriminator_values

    found = set()
    for property_name in ("kind", "type"):
        for value in discriminator_values(side, node, property_name) or ():
            loaded = json.loads(value)
            found.add(loaded if isinstance(loaded, str) else value)
    return found


def _intersection_documents(side, node: Intersection, head: str, rest: list[str], tokens: list[str], leaf: Leaf,
                            depth: int, undeclared: bool = False) -> Iterator[Any]:
    target = rest if head == "allOf" else tokens
    if target and head == "allOf" and target[0].isdigit():
        target = target[1:]  # an operand's position in allOf: whichever operand has the rest holds it
    if not target or target[0] in APPLICATOR_LABELS:
        yield from leaf(node)  # an applicator constrains the value the whole intersection describes
        return
    for operand, others in _operands_with_the_rest(side, node, depth):
        for value in documents(side, operand, target, leaf, depth + 1, undeclared):
            yield merge(value, others())


def locations(side, node: Node, reader=None, reader_node: Node | None = None, max_depth: int = 8,
              limit: int = 20000) -> Iterator[tuple[list[str], Node, Node | None]]:
    """Schema paths below the node, nearest first (breadth first), as `documents` understands them, each with
    the node there on this side and on the reading side (None where it has none).

    Given the reading side's node at the same place, a path is followed only while the two sides differ
    there: below a subtree both sides share, no document can tell them apart.
    """
    from collections import deque

    memo: dict = {}
    queue: deque = deque([([], node, reader_node, 0)])
    produced = 0
    while queue and produced < limit:
        tokens, current, other, depth = queue.popleft()
        if reader is not None and other is not None and same_structure(side, current, reader, other, memo):
            continue
        if tokens:
            produced += 1
            yield tokens, current, other
        if depth < max_depth:
            theirs = {tuple(step): child for step, child in _steps(reader, reader.resolve(other))} \
                if reader is not None and other is not None else {}
            queue.extend((tokens + step, child, theirs.get(tuple(step)), depth + 1)
                         for step, child in _steps(side, side.resolve(current)))


COMPARE_DEPTH = 150  # deeper than this, two subtrees count as different: the search then looks inside


def same_structure(side, node: Node, other_side, other: Node, memo: dict, depth: int = 0) -> bool:
    """Whether two nodes of two graphs describe the same values: equal fields, references followed (a pair
    of named types met again while being compared counts as equal, so recursion ends). Only ever used to
    skip work, so "different" is the safe answer when the comparison would go too deep."""
    if depth > COMPARE_DEPTH:
        return False
    if isinstance(node, Ref) and isinstance(other, Ref):
        key = (node.target, other.target)
        if key not in memo:
            memo[key] = True
            memo[key] = same_structure(side, side.resolve(node), other_side, other_side.resolve(other), memo,
                                       depth + 1)
        return memo[key]
    node, other = side.resolve(node), other_side.resolve(other)
    if type(node) is not type(other) or isinstance(node, Ref):
        return False
    return all(_same_value(side, getattr(node, name), other_side, getattr(other, name), memo, depth + 1)
               for name in node.__dataclass_fields__)


def _same_value(side, value: Any, other_side, other: Any, memo: dict, depth: int) -> bool:
    if isinstance(value, tuple) and isinstance(other, tuple):
        return len(value) == len(other) and \
            all(_same_value(side, a, other_side, b, memo, depth) for a, b in zip(value, other))
    if hasattr(value, "__dataclass_fields__") and type(value) is type(other):
        if hasattr(value, "kind") and not hasattr(value, "node"):  # a node
            return same_structure(side, value, other_side, other, memo, depth)
        return all(_same_value(side, getattr(value, name), other_side, getattr(other, name), memo, depth)
                   for name in value.__dataclass_fields__)  # a property or an alternative
    if isinstance(value, Ref) or isinstance(other, Ref):
        return same_structure(side, value, other_side, other, memo, depth)
    return value == other


def _steps(side, node: Node) -> list[tuple[list[str], Node]]:
    if isinstance(node, Object):
        return [(["properties", prop.name], prop.node) for prop in node.properties if not prop.reserved]
    if isinstance(node, Array):
        return [(["items"], node.items)]
    if isinstance(node, Map):
        return [(["additionalProperties"], node.values)]
    if isinstance(node, Tuple):
        return [(["prefixItems", str(position)], item) for position, item in enumerate(node.items)]
    if isinstance(node, Union):
        return [(["anyOf", str(position)], alternative.node) for position, alternative in enumerate(node.alternatives)]
    if isinstance(node, Intersection):  # `documents` passes a path through an intersection to every operand
        return [step for operand in node.operands if not isinstance(side.resolve(operand), Applicator)
                for step in _steps(side, side.resolve(operand))]
    return []


def routes(side, root: str, wanted: Iterable[str] | None = None) -> dict[str, list[str]]:
    """For the named types the root reaches (the wanted ones, or all), the schema path of one shortest way
    there from the root, as `documents` follows it: fewest named types crossed, then the structure's own
    order (breadth first), so the same graph gives the same routes. One walk over what the root reaches,
    for all types at once, ending as soon as every wanted type is reached."""
    from collections import deque

    # Each type reached: the type it was first reached from, and the way inside that one, as a chain of
    # (the way to the parent node, the step from it) pairs, spelled out only for the route asked for.
    parents: dict[str, tuple[str | None, Any]] = {root: (None, None)}
    missing = None if wanted is None else set(wanted) - {root}
    types: deque = deque([root])
    while types and missing != set():
        key = types.popleft()
        inside: deque = deque([(None, side.graph.types[key].node)])
        while inside:
            way, node = inside.popleft()
            if isinstance(node, Ref):
                if node.target not in parents:
                    parents[node.target] = (key, way)
                    types.append(node.target)
                    if missing is not None:
                        missing.discard(node.target)
                continue
            for step, child in _route_steps(side, node):
                inside.append(((way, step) if step else way, child))

    def route(key: str) -> list[str]:
        steps = []
        while key is not None:
            key, way = parents[key]
            while way is not None:
                way, step = way
                steps.append(step)
        return [token for step in reversed(steps) for token in step]

    return {key: route(key) for key in (parents if wanted is None else wanted) if key in parents}


def _route_steps(side, node: Node) -> list[tuple[list[str], Node]]:
    """The places one level below a node, references kept (a route crosses them), with what `documents` also
    follows besides `_steps`: an object's undeclared names and pattern properties."""
    if isinstance(node, Intersection):  # a path passes through an intersection into every operand
        return [([], operand) for operand in node.operands if not isinstance(side.resolve(operand), Applicator)]
    steps = _steps(side, node)
    if isinstance(node, Object):
        steps += [(["patternProperties", pattern], child) for pattern, child in node.pattern_properties]
        if not isinstance(node.additional, (Opaque, Never)):
            steps.append((["additionalProperties"], node.additional))
    elif isinstance(node, Tuple) and not isinstance(node.rest, Never):
        steps.append((["items"], node.rest))
    return steps


# --- strings matching a regular expression ----------------------------------------------------------------


def sample_regex(pattern: str, limit: int = 3) -> list[str]:
    """A few short strings that `re.search(pattern, s)` accepts (empty when the pattern is beyond this sampler)."""
    from govern.patterns import search

    try:
        import re._parser as sre_parse  # Python 3.11+
    except ImportError:  # pragma: no cover - Python 3.10
        import sre_parse  # type: ignore[no-redef]
    try:
        parsed = sre_parse.parse(pattern)
    except (re.error, OverflowError, RecursionError):
        return []
    found: list[str] = []
    for choice in range(limit):
        try:
            text = _emit(parsed, sre_parse, choice)
        except _Unsupported:
            break
        if text not in found and search(pattern, text):
            found.append(text)
    return found


class _Unsupported(Exception):
    pass


def _emit(items, sre_parse, choice: int) -> str:
    c = sre_parse  # the parser module re-exports the opcode constants
    out = []
    for op, arg in items:
        if op is c.LITERAL:
            out.append(chr(arg))
        elif op is c.NOT_LITERAL:
            out.append("a" if chr(arg) != "a" else "b")
        elif op is c.ANY:
            out.append("a")
        elif op is c.IN:
            out.append(_in_class(arg, c, choice))
        elif op in (c.MAX_REPEAT, c.MIN_REPEAT, getattr(c, "POSSESSIVE_REPEAT", None)):
            low, high, sub = arg
            count = low if choice == 0 or high == low else min(low + choice, high if high != c.MAXREPEAT else low + choice)
            out.append(_emit(sub, sre_parse, choice) * count)
        elif op is c.SUBPATTERN:
            out.append(_emit(arg[-1], sre_parse, choice))
        elif op is getattr(c, "ATOMIC_GROUP", None):
            out.append(_emit(arg, sre_parse, choice))
        elif op is c.BRANCH:
            branches = arg[1]
            out.append(_emit(branches[choice % len(branches)], sre_parse, choice))
        elif op is c.AT:
            continue
        else:
            raise _Unsupported(op)
    return "".join(out)


def _in_class(arg, c, choice: int) -> str:
    negated = any(op is c.NEGATE for op, _ in arg)
    if negated:
        excluded = set()
        for op, value in arg:
            if op is c.LITERAL:
                excluded.add(chr(value))
            elif op is c.RANGE:
                excluded.update(chr(code) for code in range(value[0], min(value[1], value[0] + 256) + 1))
        for candidate in "aZ0_-. ":
            if candidate not in excluded:
                return candidate
        raise _Unsupported("negated class")
    options: list[str] = []
    for op, value in arg:
        if op is c.LITERAL:
            options.append(chr(value))
        elif op is c.RANGE:
            options.append(chr(value[0]))
        elif op is c.CATEGORY:
            options.append({c.CATEGORY_DIGIT: "0", c.CATEGORY_WORD: "a", c.CATEGORY_SPACE: " ",
                            c.CATEGORY_NOT_DIGIT: "a", c.CATEGORY_NOT_WORD: "-", c.CATEGORY_NOT_SPACE: "a"}.get(value, "a"))
    if not options:
        raise _Unsupported("empty class")
    return options[choice % len(options)]
