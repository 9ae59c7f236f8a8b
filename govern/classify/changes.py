"""Structural differences between the old and new structure of a root, found by pairing.

The pairing walks both graphs together: object properties by name, union alternatives by discriminator
value or by structure, tuple items by position, named types through references (a rename alone is no
change). Equal digests end a walk early, a pair of named types is compared once (so recursion ends),
and a subtree added or removed as a whole is reported once, at its top. The walk emits differences as
data; it decides nothing. The rule table (`govern.classify.rules`) decides.

A difference below a named type the walk entered through a reference is located in that type: the type
(`Place`) and a pointer inside it. A change inside a type that many places reach is therefore reported
once, at the type, and its location is as long as the type's own nesting, not as long as the chain of
types that led there. Each pair of named types is walked in a frame of its own, from an explicit stack
(`Walker.differences`): the interpreter's stack and the nesting of generators stay as deep as one type,
however long the chain of references (a difference passed up through one generator per level would cost
as much as the chain is long).
"""

from __future__ import annotations

import json
from collections import Counter
from fractions import Fraction
from dataclasses import dataclass, field, replace
from typing import Callable, Hashable, Iterator, Mapping, Sequence

from govern.model.canonical import sha256_digest
from govern.model.fingerprint import DOMAINS, form_text
from govern.model.graph import TypeGraph
from govern.model.nodes import (
    OPEN, Alternative, Applicator, Array, Enum, Intersection, Literal, Map, Never, Node, Object, Opaque, Primitive,
    Property, Ref, Tuple, Union,
)

OLD_DATA = "old-data-new-readers"  # stored data written before the change, read by new readers
NEW_DATA = "new-data-old-readers"  # data written after the change, read by readers not yet upgraded

# Every kind of difference the classification emits: the walk below and the root-level differences of
# `govern.classify.classify` and `govern.classify.modes`. Each kind has a sentence in every language (`govern.classify.explain`), and
# a difference of a kind not listed here is refused when it is made, so the list cannot drift.
KINDS = frozenset({
    "root-added", "root-removed", "format-version-changed", "role-changed", "inventory-format-changed",
    "mode-changed", "structure-changed", "comparison-limit-reached",
    "type-changed", "type-widened-to-any", "literal-changed", "enum-value-added", "enum-value-removed",
    "property-removed", "optional-property-added", "required-property-added", "required-made-optional",
    "optional-made-required", "reserved-made-real", "property-made-reserved",
    "content-model-changed", "pattern-property-added", "pattern-property-removed",
    "tuple-item-added", "tuple-item-removed",
    "operand-added", "operand-removed", "applicator-changed",
    "alternative-added", "alternative-removed", "exclusive-alternative-widened", "qualification-changed",
    "union-mode-changed", "discriminator-changed", "policy-changed",
    "constraint-added", "constraint-removed", "constraint-changed",
})


class Place:
    """A named type the walk entered through a reference: its key on the new side, where its source writes
    it (when known), and how the walk came there (the place it came from and the pointer there of the
    reference it followed). A chain, so the route from the root is built only when someone asks for it.
    Compared by identity; made once per pair of named types entered, so a plain class with slots (a frozen
    dataclass sets each field through `object.__setattr__`)."""

    __slots__ = ("type", "location", "parent", "at", "at_top")

    def __init__(self, type: str, location: str | None, parent: "Place | None", at: str, at_top: bool):
        self.type, self.location, self.parent, self.at = type, location, parent, at
        # Whether the pointer from the root to here is empty (references among the root's own keywords):
        # below the root's own keywords, a change inside an event root is left to that root's rules.
        self.at_top = at_top

    def route(self, path: str) -> str:
        """The pointer from the root through the references the walk followed: as long as the chain."""
        parts = [path]
        place: Place | None = self
        while place is not None:
            parts.append(place.at)
            place = place.parent
        return "".join(reversed(parts))


@dataclass(frozen=True)
class Difference:
    """One structural difference at a JSON pointer inside `place` (a named type), or inside the root's own
    structure when `place` is None."""

    path: str
    kind: str
    old: Node | None = None
    new: Node | None = None
    args: tuple[tuple[str, str], ...] = ()
    breaks: tuple[str, ...] = ()
    place: Place | None = None

    def __post_init__(self) -> None:
        if self.kind not in KINDS:  # pragma: no cover - a programming error
            raise ValueError(f"unknown difference kind {self.kind!r}: add it to KINDS and give it a sentence")

    def arg(self, name: str) -> str | None:
        return dict(self.args).get(name)


@dataclass
class Side:
    graph: TypeGraph
    digests: Mapping[str, str] = field(default_factory=dict)
    # Digests of inline nodes by identity: the walk asks for the digest of a node and then of each of its
    # children, which without this would rehash every subtree once per level above it. The node is kept
    # with its digest so its id cannot be reused while the entry lives.
    _inline: dict[int, tuple[Node, str]] = field(default_factory=dict, repr=False, compare=False)
    # The entries of the objects' properties hashed above, by the property's identity, with the property (see
    # `form_text`): readers share a property wherever it recurs, and its entry is the same text
    # wherever it stands on one side (the digests of its node are this side's, fixed).
    _entries: dict[int, tuple] = field(default_factory=dict, repr=False, compare=False)
    # The JSON types of the nodes asked about, by identity likewise: a oneOf of n alternatives asks for the
    # types of every other alternative once per alternative it compares.
    # (References by their target's key.)
    _types: dict[int | str, tuple[Node, frozenset[str]]] = field(default_factory=dict, repr=False, compare=False)
    _unions: dict[int, tuple[Union, Counter, dict[int, int]]] = field(default_factory=dict, repr=False, compare=False)
    # Discriminator values of the nodes asked about, by identity (references by their target's key) and
    # property name: every union that names a type among its alternatives asks for that type's values.
    # Per union (by identity) and property name: how many alternatives have no values there, and how many have
    # each value (see `values_apart`).
    _values: dict[tuple[int, str], tuple[Union, int, Counter]] = field(default_factory=dict, repr=False,
                                                                       compare=False)
    # Per union (by identity): how many alternatives have no discriminator values of their own (tags), and how many
    # have each tag (see `tags_apart`).
    _tags: dict[int, tuple[Union, int, Counter]] = field(default_factory=dict, repr=False, compare=False)
    _discriminators: dict[tuple[int | str, str], tuple[Node, tuple[str, ...] | None]] = field(
        default_factory=dict, repr=False, compare=False)
    # Whether a node rejects names other intersection operands admit (see `guards_names`), by identity
    # (references by their target's key).
    _guards: dict[int | str, tuple[Node, bool]] = field(default_factory=dict, repr=False, compare=False)
    # The alternatives of a union by the discriminator values that name them, by the union's identity (see
    # govern.witness.generate): every witness search inside a union asks for its group.
    _kind_groups: dict[int, tuple[Union, dict[str, list]]] = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def of(cls, graph: TypeGraph) -> "Side":
        return cls(graph, graph.root_digests)

    def event_root(self, key: str) -> str | None:
        """The id of the event root whose type this named type is, if any."""
        return self.graph.event_roots.get(key)

    def alternative_name(self, alternative: Alternative) -> str:
        """How a reader knows an alternative: its discriminator values, else its type's name, else its kind."""
        if alternative.tags:
            return ", ".join(_value_text(tag) for tag in alternative.tags)
        if isinstance(alternative.node, Ref):
            return self.graph.types[alternative.node.target].name
        node = self.resolve(alternative.node)
        if isinstance(node, Primitive):
            return node.type
        return _value_text(node.value) if isinstance(node, Literal) else node.kind

    def type_counts(self, union: Union) -> tuple[Counter, dict[int, int]]:
        """For each JSON type, how many alternatives of the union admit it; and how often each alternative
        (by identity) occurs in the union."""
        known = self._unions.get(id(union))
        if known is None:
            counts: Counter = Counter()
            multiplicity: dict[int, int] = {}
            for alternative in union.alternatives:
                counts.update(json_types(self, alternative.node))
                multiplicity[id(alternative)] = multiplicity.get(id(alternative), 0) + 1
            known = self._unions[id(union)] = (union, counts, multiplicity)
        return known[1], known[2]

    def tags_apart(self, union: Union, alternative: Alternative) -> bool:
        """Whether every other alternative of the union has discriminator values of its own (tags), none of this
        one's, counted once per union: asked for each alternative of a large mapped oneOf, looking through the
        others each time would make it quadratic."""
        known = self._tags.get(id(union))
        if known is None:
            counts: Counter = Counter()
            untagged = 0
            for other in union.alternatives:
                if other.tags:
                    counts.update(set(other.tags))
                else:
                    untagged += 1
            known = self._tags[id(union)] = (union, untagged, counts)
        _, untagged, counts = known
        # (this alternative's own occurrences, by identity, count for each of its tags)
        own = self.type_counts(union)[1].get(id(alternative), 0)
        return not untagged and all(counts[tag] == own for tag in set(alternative.tags))

    def values_apart(self, union: Union, property_name: str, own: tuple[str, ...]) -> bool:
        """Whether every alternative of the union but the one whose values at the property are `own` has values
        of its own there (none of `own`), counted once per union and property: asked for each alternative of a
        large oneOf, looking through the others each time would make it quadratic. What it says is enough for
        `may_overlap` (where it says no, that looks through the alternatives it needs)."""
        key = (id(union), property_name)
        known = self._values.get(key)
        if known is None:
            counts: Counter = Counter()
            unknown = 0
            for alternative in union.alternatives:
                values = discriminator_values(self, alternative.node, property_name)
                if values is None:
                    unknown += 1
                else:
                    counts.update(set(values))
            known = self._values[key] = (union, unknown, counts)
        _, unknown, counts = known
        return not unknown and all(counts[value] == 1 for value in set(own))

    def named_key(self, key: str) -> str:
        """The named type whose structure a reference to `key` reads: past types that only refer to another, to
        the end of the chain however long (on a loop of bare references, which readers refuse, the loop's first
        type reached). Asked once per pair entered by every root's walk: the graph knows it for every alias (see
        `TypeGraph.alias_targets`), whichever side asks."""
        return self.graph.alias_targets.get(key, key)

    def resolve(self, node: Node) -> Node:
        """The node a reference reads (see `named_key`); any other node is itself."""
        if node.__class__ is not Ref:
            return node
        return self.graph.types[self.named_key(node.target)].node

    def digest(self, node: Node) -> str:
        if node.__class__ is Ref:
            return self.digests[node.target]
        known = self._inline.get(id(node))
        if known is not None:
            return known[1]
        digest = sha256_digest(DOMAINS[self.graph.inventory_format], form_text(node, self.digest, self._entries))
        self._inline[id(node)] = (node, digest)
        return digest


def _value_text(text: str) -> str:
    """A wire value as a reader writes it: a string without its quotes, anything else as JSON."""
    if text[:1] == '"' and "\\" not in text:
        return text[1:-1]  # a canonical string without escapes: its characters as they stand
    value = json.loads(text)
    return value if isinstance(value, str) else text


def _named(differences: Iterator["Difference | Enter"], **names: str | None) -> Iterator["Difference | Enter"]:
    """The differences with arguments that say where they are (an alternative, an event root), unless a
    nearer one already says so."""
    given = {key: value for key, value in names.items() if value is not None}
    return _with_given_names(differences, given) if given else differences


def _with_given_names(differences: Iterator["Difference | Enter"],
                      given: dict[str, str]) -> Iterator["Difference | Enter"]:
    for difference in differences:
        if isinstance(difference, Enter):
            difference.transforms.append(_Named(given))
            yield difference
        else:
            yield _with_names(difference, given)


def _with_names(difference: "Difference", names: Mapping[str, str]) -> "Difference":
    extra = tuple((key, value) for key, value in names.items() if difference.arg(key) is None)
    return replace(difference, args=tuple(sorted(difference.args + extra))) if extra else difference


class _Named:
    """Arguments every difference inside an entered type takes, unless a nearer one already says so."""

    __slots__ = ("names",)

    def __init__(self, names: Mapping[str, str]):
        self.names = names

    def apply(self, difference: "Difference") -> "Difference":
        return _with_names(difference, self.names)


def _without_alternatives(transforms: list) -> list:
    """The transforms a named type passes on to the types it enters: an alternative names the union's
    alternative through which its own type was entered, which says nothing of a change located in a type
    further on (what it changes, an event root's rules, keeps passing on)."""
    kept = []
    for transform in transforms:
        if isinstance(transform, _Named) and "alternative" in transform.names:
            names = {key: value for key, value in transform.names.items() if key != "alternative"}
            if names:
                kept.append(_Named(names))
        else:
            kept.append(transform)
    return kept


class _Mapped:
    """What a wrapper between a reference and its frame's top does to each difference of the entered type
    (an applicator wraps it, an exclusive union makes it break both ways)."""

    __slots__ = ("apply",)

    def __init__(self, apply):
        self.apply = apply


# What a route's wrappers do to a difference, as far as rules can tell: its kind (kept, wrapped under an
# applicator, or a widening no longer allowed) and its directions. Told by what the wrappers make of a probe
# of each kind they treat apart and each set of directions; the table is finite, so a cycle through wrappers
# reaches a type along finitely many routes of different effect.
_PROBE_KINDS = ("required-made-optional", "type-changed", "applicator-changed", "exclusive-alternative-widened")
_PROBE_BREAKS = ((), (OLD_DATA,), (NEW_DATA,), (OLD_DATA, NEW_DATA))
_PROBES = tuple((kind, breaks) for kind in _PROBE_KINDS for breaks in _PROBE_BREAKS)
_PROBE_INDEX = {probe: index for index, probe in enumerate(_PROBES)}


def _route_effect(transforms: list, outer: tuple | None) -> tuple | None:
    """The effect of passing `transforms` (innermost first) and then a route of effect `outer` (None: a
    route that changes nothing)."""
    mapped = [transform for transform in transforms if isinstance(transform, _Mapped)]
    if not mapped:
        return outer
    table = []
    for kind, breaks in _PROBES:
        difference = Difference("", kind, breaks=breaks)
        for transform in mapped:
            difference = transform.apply(difference)
        result = (difference.kind, tuple(direction for direction in (OLD_DATA, NEW_DATA) if direction in difference.breaks))
        table.append(result if outer is None else outer[_PROBE_INDEX[result]])
    return tuple(table)


class Enter:
    """Asked of the walk by the frame of a named type: compare this pair of named types next, in a frame of
    its own. On its way up through the frame's generators each wrapper adds what it does to a difference
    (`transforms`, innermost first), so the entered type's differences are treated as if they had passed."""

    __slots__ = ("old", "new", "path", "guarded", "transforms")

    def __init__(self, old: Ref, new: Ref, path: str, guarded: bool, event: str | None):
        self.old, self.new, self.path, self.guarded = old, new, path, guarded
        self.transforms: list = [_Named({"event": event})] if event is not None else []


def _nearest_event(transforms: list, outer: "_Context | None") -> str | None:
    """The event root a difference passing `transforms` (innermost first) and then `outer` is named in."""
    for transform in transforms:
        if transform.__class__ is _Named and "event" in transform.names:
            return transform.names["event"]
    return None if outer is None else outer.event


class _Context:
    """The transforms the differences of a frame take on their way to the root, innermost first (a linked
    list, shared by the frames below; adjacent argument names merged, so a long chain of references through
    unions costs one entry, not one per level)."""

    __slots__ = ("transform", "outer", "event")

    def __init__(self, transform, outer: "_Context | None"):
        self.transform, self.outer = transform, outer
        # The event root its differences are named in (the nearest), told at once: a route is as long as the walk.
        self.event = transform.names["event"] if transform.__class__ is _Named and "event" in transform.names \
            else outer.event if outer is not None else None

    @staticmethod
    def within(transforms: list, outer: "_Context | None") -> "_Context | None":
        context = outer
        for transform in reversed(transforms):
            if isinstance(transform, _Named) and context is not None and isinstance(context.transform, _Named):
                # the nearer names win, as when the difference passed both wrappers
                context = _Context(_Named({**context.transform.names, **transform.names}), context.outer)
            else:
                context = _Context(transform, context)
        return context

    def apply(self, difference: "Difference") -> "Difference":
        context: _Context | None = self
        while context is not None:
            difference = context.transform.apply(difference)
            context = context.outer
        return difference


def _escape(token: str) -> str:
    if "~" in token or "/" in token:
        return token.replace("~", "~0").replace("/", "~1")
    return token  # most names: nothing to escape


INNER_PREFIX = "inner_"


def wrapped_args(inner_args: tuple[tuple[str, str], ...], **own: str) -> tuple[tuple[str, str], ...]:
    """The arguments of a difference that wraps another (under an applicator): its own, plus the inner
    difference's, whose names that clash with its own (or were renamed by a deeper wrapper) take one more
    `inner_` prefix, so no argument hides another."""
    def renamed(name: str) -> str:
        return INNER_PREFIX + name if name in own or name.startswith(INNER_PREFIX) else name

    return tuple(sorted([(renamed(name), value) for name, value in inner_args] + list(own.items())))


def _args(**values) -> tuple[tuple[str, str], ...]:
    return tuple(sorted((key, value if isinstance(value, str) else json.dumps(value, ensure_ascii=False))
                        for key, value in values.items() if value is not None))


def content_model_name(node: Node) -> str:
    if isinstance(node, Opaque) and not node.constraints:
        return "open"
    if isinstance(node, Never):
        return "closed"
    return "schema"


def admits_name(obj: Object, name: str) -> bool:
    """Whether the object's content model lets any value under this undeclared name through."""
    from govern.patterns import claims_name

    if content_model_name(obj.additional) != "open":
        return False
    if restricts_names(obj.constraints):
        return False
    # A pattern that matches the name (or may: not known) checks it against the pattern's schema.
    return not claims_name(obj.pattern_properties, name)


def restricts_names(constraints) -> bool:
    """Whether constraints check undeclared names: propertyNames, or unevaluatedProperties kept verbatim
    (the adapter keeps it as a constraint when the object also composes others, since it then sees their
    properties too)."""
    for key, value in constraints:
        if key == "propertyNames" or (key == "unevaluatedProperties" and value not in ("true", "{}")):
            return True
    return False


def guards_names(side: "Side", node: Node) -> bool:
    """Whether an intersection operand rejects names the other operands declare or admit."""
    # Kept per node (a reference's answer by its target's key): every intersection naming a type asks again,
    # and unions of intersections of one chain of types reach each type along two routes per level
    # (twenty levels asked a million times). A union or an intersection guards names when one of its alternatives
    # or operands does, and a chain of them can be as long as the source: they are asked with a stack of their own,
    # not by recursing, which took a frame per type (and compiled, C stack: see govern/compiled.py).
    guards = side._guards
    key = _guard_key(node)
    known = guards.get(key)
    if known is not None:
        return known[1]
    # Each frame: a node, its key, its own answer or the nodes that decide it, and how many of those were passed
    # (they said no, or were being asked already).
    frames = [[node, key, _own_guard(side, node), 0]]
    asking = {key}
    while frames:
        frame = frames[-1]
        deciding = frame[2]
        if deciding.__class__ is bool:
            answer = deciding
        else:
            position, answer, waiting = frame[3], False, None
            while position < len(deciding):
                child = deciding[position]
                child_key = _guard_key(child)
                found = guards.get(child_key)
                if found is None and child_key not in asking:
                    waiting = child
                    break
                if found is not None and found[1]:
                    answer = True
                    break
                # It said no, or it is being asked already: on a loop of in-place references (which readers
                # refuse) the node met again is not followed, so there the answers depend on where the question
                # began; nothing loops.
                position += 1
            frame[3] = position
            if waiting is not None:  # asked first, then this frame goes on from it
                frames.append([waiting, child_key, _own_guard(side, waiting), 0])
                asking.add(child_key)
                continue
        frames.pop()
        asking.discard(frame[1])
        guards[frame[1]] = (frame[0], answer)
    return guards[key][1]


def _guard_key(node: Node) -> int | str:
    return node.target if node.__class__ is Ref else id(node)


def _own_guard(side: "Side", node: Node) -> "bool | tuple[Node, ...]":
    """Whether a node guards names by itself, or the nodes that decide it: a union's alternatives, an intersection's
    operands (it guards names when one of them does)."""
    node = side.resolve(node)
    if isinstance(node, Object):
        return content_model_name(node.additional) != "open" or restricts_names(node.constraints)
    if isinstance(node, Map):
        return True
    if isinstance(node, Opaque):
        return restricts_names(node.constraints)
    if isinstance(node, Union):
        return tuple([alternative.node for alternative in node.alternatives])
    if isinstance(node, Intersection):
        return node.operands
    return False


def discriminator_values(side: Side, node: Node, property_name: str = "kind") -> tuple[str, ...] | None:
    """The wire values of a discriminator property on an object alternative, if it has a literal one."""
    # A reference's values are its target's: kept by the target's key, so every reference to a type shares them.
    key = (node.target if node.__class__ is Ref else id(node), property_name)
    known = side._discriminators.get(key)
    if known is None:
        known = side._discriminators[key] = (node, _discriminator_values(side, node, property_name))
    return known[1]


def _discriminator_values(side: Side, node: Node, property_name: str) -> tuple[str, ...] | None:
    resolved = side.resolve(node)
    operands = resolved.operands if isinstance(resolved, Intersection) else (resolved,)
    for operand in operands:
        operand = side.resolve(operand)
        if isinstance(operand, Object):
            prop = operand.property(property_name)
            if prop is not None and prop.required:
                value = side.resolve(prop.node)
                if isinstance(value, Literal):
                    return (value.value,)
                if isinstance(value, Enum):
                    return value.values
    return None


# Widenings a rule may call same-version; inside an alternative of an exclusive union they are not. (An
# optional property added where the name was admitted stays same-version: it rests on old data not
# using the name, which holds inside a oneOf as well.)
_SAME_VERSION_WIDENINGS = frozenset({"required-made-optional", "alternative-added"})
_ANY_NUMBER = "number"  # integers are numbers: for disjointness both count as one JSON type
_ALL_TYPES = frozenset({"string", _ANY_NUMBER, "boolean", "null", "object", "array"})


def json_types(side: Side, node: Node) -> frozenset[str]:
    """The JSON types a node's instances may have (a superset; exact where the structure says it)."""
    key = node.target if node.__class__ is Ref else id(node)  # a reference's types are its target's
    known = side._types.get(key)
    if known is not None:
        return known[1]
    found = _json_types(side, node, 0, {})
    side._types[key] = (node, found)
    return found


def _json_types(side: Side, node: Node, depth: int, told: dict) -> frozenset[str]:
    """`told`: the answers of this question so far, by node (a reference's by its target's key) and depth
    (below 64 levels the answer is cut short, so it depends on the depth too): a chain of types reached along
    two routes per level would otherwise be asked a number of times doubling with every level."""
    key = (node.target if node.__class__ is Ref else id(node), depth)
    known = told.get(key)
    if known is None:
        known = told[key] = (node, _json_types_at(side, node, depth, told))
    return known[1]


def _json_types_at(side: Side, node: Node, depth: int, told: dict) -> frozenset[str]:
    node = side.resolve(node)
    if depth > 64:
        return _ALL_TYPES
    if isinstance(node, Primitive):
        return frozenset({_ANY_NUMBER if node.type == "integer" else node.type})
    if isinstance(node, (Object, Map)):
        return frozenset({"object"})
    if isinstance(node, (Array, Tuple)):
        return frozenset({"array"})
    if isinstance(node, (Literal, Enum)):
        texts = (node.value,) if isinstance(node, Literal) else node.values
        return frozenset(_value_type(json.loads(text)) for text in texts)
    if isinstance(node, Never):
        return frozenset()
    if isinstance(node, Union):
        found: frozenset[str] = frozenset()
        for alternative in node.alternatives:
            found |= _json_types(side, alternative.node, depth + 1, told)
        return found
    if isinstance(node, Intersection):
        found = _ALL_TYPES
        for operand in node.operands:
            found &= _json_types(side, operand, depth + 1, told)
        return found
    if isinstance(node, Opaque):
        excluded = dict(node.constraints).get("not-type")
        return _ALL_TYPES - {json.loads(excluded)} if excluded is not None and len(node.constraints) == 1 \
            else _ALL_TYPES
    return _ALL_TYPES


def _value_type(value) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return _ANY_NUMBER
    if isinstance(value, str):
        return "string"
    return "array" if isinstance(value, list) else "object"


def may_overlap(side: Side, union: Union, alternative: Alternative) -> bool:
    """Whether an instance may match this alternative and another one of the union. Disjoint JSON types,
    a required property whose values (const or enum) differ, or different values of a discriminator
    mapping prove it cannot."""
    own_types = json_types(side, alternative.node)
    # How many alternatives admit each JSON type, counted once per union: asked for every alternative of
    # a union, listing the others each time would make a large oneOf quadratic.
    counts, multiplicity = side.type_counts(union)
    if not any(counts[name] > multiplicity.get(id(alternative), 0) for name in own_types):
        return False  # no other alternative shares a JSON type with this one
    candidates = {json.loads(union.discriminator)["propertyName"]} if union.discriminator else set()
    resolved = side.resolve(alternative.node)
    for operand in resolved.operands if isinstance(resolved, Intersection) else (resolved,):
        operand = side.resolve(operand)
        if isinstance(operand, Object):
            candidates.update(p.name for p in operand.properties if p.required)
    if union.discriminator is not None and alternative.tags and side.tags_apart(union, alternative):
        # A discriminator mapping selects one alternative by the property's value: readers that honour it
        # (OpenAPI, pydantic) never try two alternatives with different mapped values.
        return False
    others = None
    for name in sorted(candidates):
        own = discriminator_values(side, alternative.node, name)
        if own is None:
            continue
        if side.values_apart(union, name, own):
            return False  # every other alternative has values of its own there (see Side.values_apart)
        if others is None:
            others = [other.node for other in union.alternatives
                      if other is not alternative and own_types & json_types(side, other.node)]
        if all((values := discriminator_values(side, other, name)) is not None and not set(own) & set(values)
               for other in others):
            return False
    return True


def _operand_slot(node: Intersection, position: int) -> tuple[str, str]:
    """Where an intersection operand was written (`allOf`, the schema's own keywords, or not known) and what
    kind of operand it is: operands that agree on both stand for the same part of a schema."""
    positions = node.positions
    where = "unknown" if not positions else "allOf" if positions[position] is not None else "own"
    operand = node.operands[position]
    if isinstance(operand, Applicator):
        return where, f"applicator:{operand.keyword}"
    if isinstance(operand, Union) and operand.keyword == "":
        # keywords without a type, one union per type they constrain: told apart by that type
        excluded = [dict(a.node.constraints).get("not-type") for a in operand.alternatives
                    if isinstance(a.node, Opaque)]
        return where, f"union:{excluded}"
    if isinstance(operand, (Ref, Union, Intersection, Opaque)):
        return where, operand.kind
    return where, "typed"


# The keyword that holds an operand written beside the schema's own keywords, by kind of operand.
_OPERAND_KEYWORDS = {"ref": "$ref", "primitive": "type", "object": "type", "map": "type", "array": "type",
                     "tuple": "type", "literal": "const", "enum": "enum"}


def _operand_keyword(node: Intersection, position: int) -> str | None:
    """The keyword an operand was written under: `allOf`, or the schema's own keywords that hold it (joined
    by ", "; empty when they are not known by name); None where it stood is not known."""
    if not node.positions:
        return None
    if node.positions[position] is not None:
        return "allOf"
    operand = node.operands[position]
    if isinstance(operand, Union):
        if operand.keyword == "":
            # a list of types, or keywords without a type (one alternative is "any value not of that type")
            return "" if any(isinstance(a.node, Opaque) and a.node.constraints for a in operand.alternatives) \
                else "type"
        return operand.keyword if operand.keyword is not None else "oneOf" if operand.exclusive else "anyOf"
    if isinstance(operand, Applicator):
        return "if" if operand.keyword == "if-then-else" else operand.keyword
    if isinstance(operand, Opaque):
        return ", ".join(name for name, _ in operand.constraints)
    return _OPERAND_KEYWORDS.get(operand.kind, "")


def _operand_path(node: Intersection, position: int, path: str, named: bool = False) -> str:
    """Where an operand stands: at its `allOf` position, or the schema itself when it is the schema's own
    keywords (`named`: at the keyword that holds it, for an operand added or removed as a whole)."""
    if not node.positions:
        return f"{path}/allOf"
    if node.positions[position] is not None:
        return f"{path}/allOf/{node.positions[position]}"
    keyword = _operand_keyword(node, position) if named else None
    return f"{path}/{_escape(keyword)}" if keyword and ", " not in keyword else path


# `Walker._compare_object`'s default: the objects are not a frame's own named types.
_NESTED = object()


# How many pairs of named types one walk enters, per type of the two graphs, and beyond that. Pairs of the
# same name are at most one per type (a few more where a type is reached along routes of different effect),
# but within a recursive component every pair differs, and a retargeted reference pairs types of different
# names whose references are misaligned in turn: the product of the two graphs, up to n^2 pairs. The walk
# stays linear by entering no more than this many; the next pair that differs is reported as not compared
# (a version-bump, both ways), and the gate never says same-version where a full comparison might not.
# Every test, real schema pair and benchmark project enters under one pair per type of the two graphs (half
# a pair from a thousand types on: one per type of a side); past the limit each pair costs its comparison
# and its differences, so the limit leaves a few times that and no more.
PAIRS_PER_TYPE = 2
PAIRS_BEYOND = 1000


def pair_limit(old: Side, new: Side) -> int:
    """How many pairs of named types one walk of `old` against `new` enters."""
    return PAIRS_PER_TYPE * (len(old.graph.types) + len(new.graph.types)) + PAIRS_BEYOND


# How many questions of `_breaks_between` may be answered one inside the other. Each runs a walk whose frames
# are generators, and in CPython resuming a generator nested inside thousands of others costs time that grows
# with the depth, so a deep chain is quadratic: 41,000 nested questions took 9 s.
# Chains of that kind come from rings of types that each replace a content model by another member; real
# schemas nest a few.
QUESTIONS_NESTED = 100
# How many comparisons in place of a reference with an inline node may run one inside the other within the
# frame of one pair of named types (see `Walker._looked_through`).
IN_PLACE_NESTED = QUESTIONS_NESTED  # (the same limit: one sentence tells either)
# How much the walk and the walks it runs compare in all (nodes, properties, tuple positions, alternatives and
# operands, each one), beyond a floor, per node of the two graphs. A pair of named types is entered once, but a
# question (`_breaks_between`) and a comparison in place walk what they meet again wherever they meet it: asked
# for every property added beside a large content model, each question compared that model's every property
# again (3,000 such properties beside a type of 2,000 took 28 s), and a type inlined against its reference
# compares its inline copy once per place. Past this the walk stops as at its pair limit. The graphs' nodes are
# counted only once the floor is passed: a walk compares each node about once, and no real schema pair compares
# more than a few thousand per root.
COMPARED_PER_NODE = 4
COMPARED_BEYOND = 500_000
# What a reported difference counts towards that limit: its entry in the report is hundreds of bytes of text
# and a few objects, where comparing a part is a look-up or two. Counted as one, a comparison in place that
# nests and branches until the limit reported 618,000 changes from a 1 MB pair (280 MB of JSON).
REPORTED_COUNTS = 16
_PAIRS, _NESTING, _WORK = "pairs", "nesting", "work"


class _Shared:
    """What a walk shares with the walks it runs to tell which ways a replacement breaks (`_breaks_between`),
    and they with theirs. Each such walk starts afresh, and a type whose content model is a type that gained a
    property meets such a replacement in every pair it enters: counted apart, those walks nested without end
    (a 4-type ring did not end in a minute), and told apart, a ring of n types asks n^2 different questions.
    One count for the whole family keeps it within the walk's limit."""

    __slots__ = ("entered", "compared", "breaks", "asking", "limit_met", "unasked_compared", "unasked_entered",
                 "cut_short")

    def __init__(self) -> None:
        # Pairs of named types entered, or compared in place with a union's alternative, and questions of
        # `_breaks_between` walked, by every walk of the family.
        self.entered = 0
        self.compared = 0  # what every walk of the family compared (see COMPARED_PER_NODE)
        # The answers given, by the nodes' identities, with the nodes (so their ids stay theirs): an answer
        # depends on the pair alone, and the same pair is asked at every place a type recurs.
        # (With what answering each cost, in all, see `unasked_compared`, and whether that depends on where it
        # was asked, see `cut_short`.)
        self.breaks: dict[tuple[int, int], tuple[Node, Node, tuple[str, ...], int, int, bool]] = {}
        # What the answers taken from `breaks` cost when they were first given (their walks, and the answers
        # those took from `breaks` in turn), counted apart from the limits: what a frame recorded for other
        # roots' walks (see Replays) would have counted had it asked each question itself.
        self.unasked_compared = 0
        self.unasked_entered = 0
        # How often a question was answered at once because it was being answered further out (or an answer so
        # given was taken again): what such an answer costs depends on where it was asked, so a frame whose
        # walk met one counts no fixed cost, and is not replayed for other roots.
        self.cut_short = 0
        # The questions being answered, one inside the other (the walks run to their end where they are asked).
        self.asking: set[tuple[Node, Node]] = set()
        # Which limit a walk of the family first met, leaving something uncompared (`_PAIRS`, `_NESTING` or
        # `_WORK`).
        self.limit_met: str | None = None


class Replays:
    """What the frames of the roots' walks in one comparison yielded, for the walks of the other roots, which
    meet the same pairs of named types again. Each root is walked on its own (its report lists every change it
    reaches), so many roots reaching one large recursive component, in which every pair differs once one does,
    compared every pair of it again per root. A frame yields the same whatever root it was reached from, given
    the pair, the names guarded and the route's effect where it was met, and whether the route to it is empty:
    what it yielded (and what it counted towards the limits) is replayed instead. Frames are kept only from
    walks that met no limit."""

    __slots__ = ("frames", "entered", "own_walks")

    def __init__(self, own_walks: int) -> None:
        # (old key, new key, names guarded, route's effect, at the top) -> (items, what the frame counted towards
        # the limit of what is compared, and towards the pair limit)
        self.frames: dict[tuple, tuple[list, int, int]] = {}
        # The pairs of named types the roots' own walks entered, replayed or not, in all; and how many they may,
        # past which the roots left are walked together (see SharedWalk).
        self.entered = 0
        self.own_walks = own_walks


class FrameGraph:
    """The frames a walk shared by many roots entered (see SharedWalk), each once: a node per frame (by its pair,
    the names guarded, the route's effect and the event root nearest on it where it was met, and whether the route
    to it is empty), with what it yielded, the frames it reaches (every pair it met, entered there or before), and
    whether it ran to its end before any limit was met. Each root's own frame is a node as well."""

    __slots__ = ("nodes", "keys", "items", "successors", "complete", "successor_nodes")

    def __init__(self) -> None:
        self.nodes: dict[tuple, int] = {}
        self.keys: list[tuple] = []
        self.items: list[list[Difference]] = []
        self.successors: list[list[tuple]] = []  # by key: a pair met once a limit was met may have no node
        self.complete: list[bool] = []
        self.successor_nodes: list[list[int]] = []  # (by node, -1 for none: made by `reached`)

    def add(self, key: tuple) -> int:
        node = self.nodes[key] = len(self.keys)
        self.keys.append(key)
        self.items.append([])
        self.successors.append([])
        self.complete.append(False)
        return node

    def reached(self, tops: list[int]) -> list[tuple[list[int], bool]]:
        """For each of `tops`: the nodes it reaches that yielded something (itself included), in the order they
        were added, and whether it reaches a frame cut short by a limit (or a pair never entered for one). Told
        through the graph's strongly connected components, each once, where a walk from each top would be the
        product of the tops and the graph. What a component reaches is a set while it is small (most reach a
        few changes), else a bit per node that yielded something; each is dropped once the last component or
        top that reaches it has taken it."""
        nodes, complete = self.nodes, self.complete
        successors = self.successor_nodes = [[nodes.get(key, -1) for key in keys] for keys in self.successors]
        component, count = strongly_connected(successors)
        yielding = [node for node, items in enumerate(self.items) if items]
        position = {node: index for index, node in enumerate(yielding)}
        members: list[list[int]] = [[] for _ in range(count)]
        for node, number in enumerate(component):
            members[number].append(node)
        # What each component reaches, and how many components and tops still have to take it.
        takers = [0] * count
        below: list[set[int]] = [set() for _ in range(count)]
        for number in range(count):
            for node in members[number]:
                below[number].update(component[successor] for successor in successors[node] if successor >= 0)
            below[number].discard(number)
            for other in below[number]:
                takers[other] += 1
        for top in tops:
            takers[component[top]] += 1
        reach: list[frozenset[int] | int | None] = [None] * count
        cut = [False] * count
        for number in range(count):  # (a component's successors are numbered before it)
            small: set[int] = {node for node in members[number] if node in position}
            bits, short = 0, False
            for node in members[number]:
                short = short or not complete[node] or -1 in successors[node]
            for other in below[number]:
                taken = reach[other]
                if taken.__class__ is int:
                    bits |= taken
                else:
                    small |= taken
                short = short or cut[other]
                takers[other] -= 1
                if not takers[other]:
                    reach[other] = None
            if bits or len(small) > _SMALL_REACH:
                for node in small:
                    bits |= 1 << position[node]
                reach[number] = bits
            else:
                reach[number] = frozenset(small)
            cut[number] = short
            below[number] = set()
        found = []
        for top in tops:
            number = component[top]
            taken = reach[number]
            if taken.__class__ is int:
                text = format(taken, "b")[::-1]  # (bit i of the number is character i)
                reached, index = [], text.find("1")
                while index >= 0:
                    reached.append(yielding[index])
                    index = text.find("1", index + 1)
            else:
                reached = sorted(taken)
            found.append((reached, cut[number]))
            takers[number] -= 1
            if not takers[number]:
                reach[number] = None
        return found

    def reached_without(self, top: int, passed: Callable[[int], bool]) -> tuple[list[int], bool]:
        """What `reached` tells of `top`, along routes that go on from no node `passed` names: a walk from the
        top, after `reached` (for the one root whose routes differ from the graph's, see SharedWalk)."""
        successors, complete = self.successor_nodes, self.complete
        seen, stack, cut = {top}, [top], False
        while stack:
            node = stack.pop()
            cut = cut or not complete[node]
            if node != top and passed(node):
                continue
            for successor in successors[node]:
                if successor < 0:
                    cut = True
                elif successor not in seen:
                    seen.add(successor)
                    stack.append(successor)
        return sorted(node for node in seen if self.items[node]), cut


# What a component of a graph of frames reaches is kept as a set up to this many nodes (see FrameGraph.reached).
_SMALL_REACH = 64


def strongly_connected(successors: list[list[int]]) -> tuple[list[int], int]:
    """The strongly connected components of a graph (Tarjan's algorithm, with an explicit stack): each node's
    component, numbered so that the components a component reaches come before it, and how many there are.
    A successor below 0 is no node."""
    count = len(successors)
    order, low, component = [-1] * count, [0] * count, [-1] * count
    on_stack = [False] * count
    stack: list[int] = []
    numbered = found = 0
    for start in range(count):
        if order[start] >= 0:
            continue
        order[start] = low[start] = numbered
        numbered += 1
        stack.append(start)
        on_stack[start] = True
        work = [(start, iter(successors[start]))]
        while work:
            node, rest = work[-1]
            for successor in rest:
                if successor < 0:
                    continue
                if order[successor] < 0:
                    order[successor] = low[successor] = numbered
                    numbered += 1
                    stack.append(successor)
                    on_stack[successor] = True
                    work.append((successor, iter(successors[successor])))
                    break
                if on_stack[successor] and order[successor] < low[node]:
                    low[node] = order[successor]
            else:
                work.pop()
                if work and low[node] < low[work[-1][0]]:
                    low[work[-1][0]] = low[node]
                if low[node] == order[node]:
                    while True:
                        member = stack.pop()
                        on_stack[member] = False
                        component[member] = found
                        if member == node:
                            break
                    found += 1
    return component, found


class SharedWalk:
    """One walk for many roots of one pair of graphs, past what their own walks may enter in all
    (`classify.OWN_WALKS_PER_TYPE`): each root's own frame is walked, but a pair of named types is entered once
    for all of them, and each root is told what its frames reach in the graph of frames (`FrameGraph`). A root
    walked on its own enters every pair it reaches, so many roots reaching one large recursive component cost
    the product of the two (10,000 of them, minutes).

    What a root is told: every difference of every frame it reaches, each as the walk met it, so a change's
    arguments that say how it was met (the alternative of a union it was entered through, the applicators it is
    under) are those of the route the walk took, which may start at another root. A root reaches the frames its
    own walk reaches (a frame is a pair with the names guarded, the route's effect and the event root nearest on
    it), and with them every change, its kind, its directions and its decision.

    The walk replays the frames the roots' own walks recorded, and has the limits of one walk. Walking every
    root's frame and every pair they reach once, it counts at least what any one root's own walk would: a walk
    that meets no limit tells each root what its own walk would, limits included. A root that reaches a frame
    cut short by a limit (or one never entered for it) is not told: it is walked on its own."""

    def __init__(self, old: Side, new: Side, replays: Replays | None = None):
        """`replays`: the frames the roots' own walks recorded, replayed here as well."""
        self._graph = FrameGraph()
        self._walker = Walker(old, new, graph=self._graph, replays=replays)
        self._tops: dict[str, tuple[int | None, tuple[str, str]]] = {}

    def walk(self, root_id: str, old_key: str, new_key: str) -> None:
        """Walk a root's own frame, entering the pairs no root has entered before."""
        walker = self._walker
        walker.start_root()
        for _ in walker.differences(Ref(old_key), Ref(new_key)):
            pass
        self._tops[root_id] = (walker.top, (old_key, new_key))

    def differences(self) -> dict[str, list[Difference] | None]:
        """What each root walked is told, once every root is walked; None for a root that reaches a frame a limit
        cut short (to be walked on its own)."""
        graph = self._graph
        roots = [root_id for root_id, (top, _) in self._tops.items() if top is not None]
        told: dict[str, list[Difference] | None] = {root_id: [] for root_id, (top, _) in self._tops.items()
                                                    if top is None}
        reached = graph.reached([self._tops[root_id][0] for root_id in roots])
        for root_id, (nodes, cut) in zip(roots, reached):
            top, (old_key, new_key) = self._tops[root_id]
            # A root's own pair is not entered again below it, and a pair met where the route is empty is told
            # as met there (as the root's own walk does: it meets both there first).
            own = (self._walker.old.named_key(old_key), self._walker.new.named_key(new_key), False, None, None)
            again = graph.nodes.get(own + (False,))
            if again is not None and {key[:5] for key in graph.successors[again]} != \
                    {key[:5] for key in graph.successors[top]}:
                # Met again below itself, the root's own pair goes on to other frames than from the top (a
                # `$ref` among its own keywords to an event root's type is no longer at the top there, and is
                # named after it): the root's own walk does not go on from there, nor is it told so.
                nodes, cut = graph.reached_without(top, lambda node: graph.keys[node][:5] == own)
            if cut:
                told[root_id] = None
                continue
            at_top = {graph.keys[node][:5] for node in nodes if node != top and graph.keys[node][5] is True}
            found = []
            for node in nodes:
                key = graph.keys[node]
                if node != top and (key[:5] == own or key[5] is False and key[:5] in at_top):
                    continue
                found += graph.items[node]
            told[root_id] = found
        return told


class Walker:
    def __init__(self, old: Side, new: Side, shared: _Shared | None = None,
                 limits: tuple[int, int] | None = None, replays: Replays | None = None,
                 graph: "FrameGraph | None" = None):
        self.old = old
        self.new = new
        # Frames yielded by the walks of other roots (see Replays), and those this walk records for them.
        self._replays = replays
        self._recorded_frames: list[tuple[tuple, list, int, int]] = []
        self._replayed_any = False
        # The graph of frames a walk shared by many roots records (see SharedWalk): what each frame yields and
        # which frames it reaches.
        self._graph = graph
        # Whether a frame may leave out the pairs this walk has entered: not where its frame is recorded for
        # others (Replays), nor where every pair it reaches is an edge of the graph of frames.
        self._prunes_visited = replays is None and graph is None
        # (the walks this one runs share its limits: `limits` is (pair limit, limit of what is compared); the
        # latter counts the graphs' nodes only once the floor is passed, see `_exhausted`)
        self.pair_limit, self.compared_limit = limits if limits is not None else (
            pair_limit(old, new), COMPARED_BEYOND)
        # The walks this one runs to tell a replacement's directions count against the same limit; the walk that
        # started them tells when one of them met it.
        self._shared = _Shared() if shared is None else shared
        self._first = shared is None
        self._limited = False  # whether a pair was left uncompared at the limit (reported once, the first)
        # Whether the walk has yielded a limit as it is, not wrapped as the inner change of another (under `not`,
        # say): the root reports one so wherever a limit was met.
        self._told_plainly = False
        # Pairs of a named type and a type a union names compared in place (`_single_in_union`): each looks
        # through a reference without a frame of its own, so these count against the limit as well (around a
        # cycle of such unions they would otherwise nest without end).
        self._in_place = 0
        # How many comparisons of a reference with an inline node run one inside the other in the running frame.
        self._in_place_depth = 0
        # The comparisons in place running (one inside the other): met again inside itself, the same
        # comparison would only repeat what it is finding, at a longer path, without end.
        self._comparing_in_place: set[tuple[bool, str, int, bool]] = set()
        # Pairs of named types compared, with the names guarded, what the route to them does to a
        # difference's direction and kind (`_route_effect`) and the event root nearest on it: a type reached
        # plainly and under `not` breaks the opposite ways along the two routes, so it is compared along each.
        self._visited: set[tuple[str, str, bool, tuple | None, str | None]] = set()
        self._event: str | None = None  # the event root nearest on the running frame's route
        # Set while comparing an intersection operand whose sibling operands check undeclared names (for
        # example unevaluatedProperties: false next to allOf): a name the operand admits is still rejected.
        self._names_guarded = False
        self._place: Place | None = None  # the named type whose frame runs (None: the root's own structure)
        # Digests are comparable only within one inventory format (its domain enters every digest).
        self._same_format = old.graph.inventory_format == new.graph.inventory_format
        # Pairs of composite nodes told equal or not (see `_same`), with the nodes, so their ids stay theirs.
        self._equal: dict[tuple[int, int], tuple[Node, Node, bool]] = {}
        # Pairs of properties known to hold no difference (equal leaves, equal digests), by identity, with the
        # properties: readers share a property wherever it recurs, so most pairs of a large graph recur.
        self._quiet: dict[tuple[int, int], tuple[Property, Property]] = {}
        # Whether any type of the new side is an event root's (see `_same_event_root`).
        self._events = bool(new.graph.event_roots)
        self.top: int | None = None  # the node of the root's own frame in `graph`, once walked

    def differences(self, old: Node, new: Node) -> Iterator[Difference]:
        """Every difference between `old` and `new`, compared from the top (the root's own structure).

        Each pair of named types the walk enters is compared in a frame of its own on an explicit stack: a
        frame's walk yields `Enter` where it meets a pair to follow, and the pair's frame runs to its end
        before the frame that met it goes on, so the order (and with it which place first reaches a shared
        type) is that of a walk that recursed there."""
        graph = self._graph
        if graph is None:
            if isinstance(old, Ref) and isinstance(new, Ref) and not self._enters(old, new, None):
                return
            node = None
        else:
            # (A root's own frame is a node of its own: the pair it compares is every root's to walk from the top.)
            if isinstance(old, Ref) and isinstance(new, Ref) and not self._differ(old, new):
                return
            node = self.top = graph.add(("root", len(graph.keys)))
        # Per frame: its walk, its place, what its differences take on the way to the root (`context`),
        # what the frames it enters inherit of that (`inherited`: the same without the alternatives named),
        # the names guarded where it was met, what its route does to a difference (`effect`), how many
        # comparisons in place were running where it was met (`depth`), and its node of the graph of frames.
        frames: list[tuple[Iterator, Place | None, _Context | None, _Context | None, bool, tuple | None, int,
                           int | None]] = [
            (self._compare_nodes(old, new, ""), None, None, None, self._names_guarded, None, self._in_place_depth,
             node)]
        visited, locations, named_key = self._visited, self.new.graph.locations, self.new.named_key
        old_named_key = self.old.named_key
        shared, replays = self._shared, self._replays
        while frames:
            walk, place, context, inherited, guarded, effect, depth, node = frames[-1]
            self._place = place
            self._event = None if inherited is None else inherited.event
            for item in walk:
                if item.__class__ is not Enter:
                    if context is not None:
                        item = context.apply(item)
                    if item.kind == "comparison-limit-reached":
                        self._told_plainly = True
                    # What the report holds counts as well; inside a comparison in place by the length of its path
                    # too: nested a hundred deep, they report differences at paths of thousands of characters.
                    shared.compared += REPORTED_COUNTS + (len(item.path) >> 5) if self._in_place_depth \
                        else REPORTED_COUNTS
                    if place is not None:
                        item = replace(item, place=place)
                    if node is not None:
                        graph.items[node].append(item)
                    yield item
                    if shared.compared >= self.compared_limit and self._past_compared_limit():
                        # The rest of the walk is not told: the limit, both ways (unless told already), and the
                        # walk ends.
                        if not self._told_plainly:
                            self._limited = self._told_plainly = True
                            yield self._limit_reached("", old, new, _WORK)
                        return
                    continue
                # Only here are the wrappers it passed on its way up known, and with them its route's effect.
                transforms = item.transforms
                # (Names alone, such as the alternative a union names, change no direction and no kind.)
                entered_effect = effect if not transforms or len(transforms) == 1 and transforms[0].__class__ is _Named \
                    else _route_effect(transforms, effect)
                # (An Enter is made only for a pair whose digests differ: see `_enters`.) The event root
                # nearest on the route is part of what was compared: the frame's differences name it, and rules
                # judge a change inside an event root by its own, so a type reached through an event root and
                # outside it is compared along both (which came first depended on the order of names).
                # (A pair by the types the references read: a reference to an alias of a type and one to the type
                # meet one pair, told once.)
                old_key, key = old_named_key(item.old.target), named_key(item.new.target)
                seen = (old_key, key, item.guarded, entered_effect, _nearest_event(transforms, inherited))
                at_top = (place is None or place.at_top) and not item.path
                if node is not None:
                    # (and whether the route is empty, in a graph of frames: see SharedWalk)
                    seen += (at_top,)
                    graph.successors[node].append(seen)
                if seen in visited:
                    continue
                exhausted = self._exhausted()
                if exhausted is not None:
                    if not self._limited:
                        self._limited = True
                        # It stands where the pair was met, below the wrappers the pair passed there.
                        item = self._limit_reached(item.path, item.old, item.new, exhausted)
                        within = _Context.within(transforms, context)
                        if within is not None:
                            item = within.apply(item)
                        self._told_plainly = self._told_plainly or item.kind == "comparison-limit-reached"
                        yield item if place is None else replace(item, place=place)
                    continue
                visited.add(seen)
                shared.entered += 1
                entered = Place(key, locations.get(key), place, item.path, at_top)
                if replays is None:
                    entered_walk = self._compare_entered(item.old, item.new, entered_effect)
                else:
                    frame_key = (old_key, key, item.guarded, entered_effect, entered.at_top)
                    recorded = replays.frames.get(frame_key)
                    if recorded is None:
                        # (a walk shared by many roots keeps its frames in its graph: it records none for others)
                        entered_walk = self._recording(item.old, item.new, entered_effect, frame_key) \
                            if graph is None else self._compare_entered(item.old, item.new, entered_effect)
                    else:
                        # What the frame counted in all is counted as it starts: the walk meets a limit no later
                        # than its own walk would (and a walk that meets one is made again, see `keep_frames`).
                        self._replayed_any = True
                        items, frame_compared, frame_entered = recorded
                        shared.compared += frame_compared
                        shared.entered += frame_entered
                        entered_walk = iter(items)
                frames.append((entered_walk, entered,
                               _Context.within(transforms, inherited) if transforms else inherited,
                               _Context.within(_without_alternatives(transforms), inherited) if transforms
                               else inherited, self._names_guarded, entered_effect, self._in_place_depth,
                               None if node is None else graph.add(seen)))
                self._names_guarded = item.guarded
                self._in_place_depth = 0  # (each frame's comparisons in place nest on their own)
                break  # the entered pair's frame runs to its end before this one goes on
            else:
                frames.pop()
                self._names_guarded = guarded  # as the frame that met the pair left it
                self._in_place_depth = depth
                if node is not None and shared.limit_met is None:
                    # (a frame that ends once a limit is met may have been cut short: every root reaching it says so)
                    graph.complete[node] = True
        if self._first and self._shared.limit_met is not None and not self._told_plainly:
            # A walk this one ran to tell a replacement's directions met a limit (the answer it gave, both ways,
            # is not proven), or the limit this walk met was told only as the inner change of another: the
            # root says so.
            self._limited = self._told_plainly = True
            yield self._limit_reached("", old, new, self._shared.limit_met)

    def start_root(self) -> None:
        """Make the walk ready for another root of a walk shared by many (see SharedWalk): what it tells once
        per root is told anew."""
        self._limited = self._told_plainly = False
        self._place = self.top = None

    def _recording(self, old: Ref, new: Ref, effect: tuple | None, key: tuple) -> Iterator[Difference | Enter]:
        """The walk of an entered pair (`_compare_entered`), with what it yields and what it would count towards
        the limits in a walk of its own, noted for other roots' walks once it has run to its end: what it
        counts itself (as it is made, too), each answer it takes from those given before at what giving it
        cost, and for each difference what the walk counts beyond `REPORTED_COUNTS` (its path's length, inside
        a comparison in place). Not what the frames it enters count, nor the walk's `REPORTED_COUNTS` per
        difference. A replay counts all of that as it starts, so it counts no less, at any point, than the walk
        of the root alone would."""
        shared = self._shared
        items: list = []
        compared = entered = 0
        before_compared = shared.compared + shared.unasked_compared
        before_entered = shared.entered + shared.unasked_entered
        # (and whether it met an answer cut short, see `_Shared.cut_short`: then it is not kept)
        cut_short, before_cut_short = 0, shared.cut_short
        for item in self._compare_entered(old, new, effect):
            compared += shared.compared + shared.unasked_compared - before_compared
            entered += shared.entered + shared.unasked_entered - before_entered
            cut_short += shared.cut_short - before_cut_short
            if self._in_place_depth and item.__class__ is not Enter:
                compared += len(item.path) >> 5  # (the walk counts it when the item reaches it)
            items.append(item)
            yield item
            # (the entered frames ran meanwhile)
            before_compared = shared.compared + shared.unasked_compared
            before_entered = shared.entered + shared.unasked_entered
            before_cut_short = shared.cut_short
        compared += shared.compared + shared.unasked_compared - before_compared
        entered += shared.entered + shared.unasked_entered - before_entered
        cut_short += shared.cut_short - before_cut_short
        if not cut_short:
            self._recorded_frames.append((key, items, compared, entered))

    def pairs_entered(self) -> int:
        """How many pairs of named types the walk entered (replayed ones too)."""
        return len(self._visited)

    def keep_frames(self) -> bool:
        """After a root's walk that had `replays`: whether its differences are those of a walk without them, in
        which case its frames are kept for the other roots' walks. A replayed frame counts towards the limits, as
        it starts, at least what it would count in the root's own walk (see `_recording`), so a walk with
        replays that met no limit is the root's own walk; one that met a limit (or came to one) after replaying
        is to be made again without them: False."""
        limited = self._limited or self._shared.limit_met is not None or self._exhausted() is not None
        if limited:
            return not self._replayed_any
        frames = self._replays.frames
        for key, items, compared, entered in self._recorded_frames:
            frames.setdefault(key, (items, compared, entered))
        self._recorded_frames = []
        return True

    def _charge(self, count: int, path: str) -> bool:
        """Count `count` parts about to be compared at `path`, and tell whether the walk may go on. Inside a
        comparison in place each costs the length of its path as well: only there do paths grow without
        bound (a long name repeated at every level of a hundred), and building them is the cost."""
        shared = self._shared
        shared.compared += count * (1 + (len(path) >> 5)) if self._in_place_depth else count
        return shared.compared < self.compared_limit or not self._past_compared_limit()

    def _stopped(self, path: str, old: Node, new: Node) -> Iterator[Difference]:
        """Where the walk stops for its limit of what it compares: the limit, told once."""
        if not self._limited:
            self._limited = True
            yield self._limit_reached(path, old, new, _WORK)

    def _past_compared_limit(self) -> bool:
        """Whether the walks have compared as much as they may, noted as the limit met."""
        self._exhausted()  # (which counts the graphs' nodes once the floor is passed)
        return self._shared.compared >= self.compared_limit

    def _exhausted(self) -> str | None:
        """Which of the limits the walk shares with the walks it runs is used up (`_PAIRS` or `_WORK`), noted
        as the limit met; None while neither is."""
        shared = self._shared
        if shared.compared >= self.compared_limit and self.compared_limit == COMPARED_BEYOND:
            # Past the floor: the graphs' size is counted now, once, and shared with the walks this one runs.
            self.compared_limit = COMPARED_PER_NODE * (self.old.graph.node_count + self.new.graph.node_count) \
                + COMPARED_BEYOND
        exhausted = _PAIRS if shared.entered >= self.pair_limit else _WORK if shared.compared >= self.compared_limit \
            else None
        if exhausted is not None and shared.limit_met is None:
            shared.limit_met = exhausted
        return exhausted

    def _limit_reached(self, path: str, old: Node, new: Node, limit: str = _PAIRS) -> Difference:
        """The difference a pair that differs holds when the walk has met a limit: entered as many pairs as it
        may (`_PAIRS`), compared as much as it may (`_WORK`), or nested as many questions or comparisons in
        place inside one another (`_NESTING`). The types differ, and nothing finer is known, so it breaks both
        ways. Told once per walk (at the first such pair): any one of them makes the root a version-bump."""
        names = {side: getattr(self, side).named_key(node.target)
                 for side, node in (("old", old), ("new", new)) if node.__class__ is Ref}
        value = QUESTIONS_NESTED if limit == _NESTING else self.compared_limit if limit == _WORK else self.pair_limit
        return Difference(path, "comparison-limit-reached", old, new,
                          _args(limit=str(value), nesting=True if limit == _NESTING else None,
                                measure="comparisons" if limit == _WORK else None,
                                new_type=names.get("new"), old_type=names.get("old")),
                          (OLD_DATA, NEW_DATA))

    def _next_level(self, differences: Iterator[Difference]) -> Iterator[Difference]:
        """Children of an object or array are another level, which sibling operands do not guard."""
        saved, self._names_guarded = self._names_guarded, False
        try:
            yield from differences
        finally:
            self._names_guarded = saved

    def _below(self, old: Node, new: Node, path: str) -> Iterator[Difference | Enter]:
        """`_next_level(compare(old, new, path))` for a child at a non-empty path, told without generators
        where the pair says it at once: named types are entered unguarded, equal leaves hold nothing, and a
        level that guards no names already needs no guard lifted."""
        kind = old.__class__
        if kind is new.__class__:
            if kind is Ref:
                if not self._differ(old, new):
                    return _NOTHING
                return (Enter(old, new, path, False, self._same_event_root(old, new)),)
            if kind in _LEAVES and self._same_format and old == new:
                return _NOTHING
        walk = self._compare_nodes(old, new, path)
        return self._next_level(walk) if self._names_guarded else walk

    def _admits(self, obj: Object, name: str) -> bool:
        return not self._names_guarded and admits_name(obj, name)

    def compare(self, old: Node, new: Node, path: str) -> Iterator[Difference | Enter]:
        """The differences between two nodes at `path` of the running frame; a pair of named types is left
        to a frame of its own (`Enter`)."""
        if isinstance(old, Ref) and isinstance(new, Ref):
            enter = self._enter(old, new, path)
            if enter is not None:
                yield enter
            return
        yield from self._compare_nodes(old, new, path)

    def _enter(self, old: Ref, new: Ref, path: str) -> "Enter | None":
        """What `compare` yields for a pair of named types, told now: an `Enter`, or None when their digests
        are equal."""
        if not self._differ(old, new):
            return None
        # Below the root's own keywords, an event root is judged by its own rules: its differences say they
        # are in it.
        top = not path and (self._place is None or self._place.at_top)
        return Enter(old, new, path, self._names_guarded, None if top else self._same_event_root(old, new))

    def _differ(self, old: Ref, new: Ref) -> bool:
        """Whether a pair of named types can hold a difference: their digests (or inventory formats) differ."""
        return self.old.digests[old.target] != self.new.digests[new.target] or \
            self.old.graph.inventory_format != self.new.graph.inventory_format

    def _enters(self, old: Ref, new: Ref, effect: tuple | None, guarded: bool | None = None) -> bool:
        """Whether a pair of named types is to be compared at the top (no event root names its differences):
        it can hold a difference and was not compared before with the same names guarded along a route of the
        same effect, which it counts as compared from now on."""
        pair = (self.old.named_key(old.target), self.new.named_key(new.target),
                self._names_guarded if guarded is None else guarded, effect, None)
        if not self._differ(old, new) or pair in self._visited:
            return False
        self._visited.add(pair)
        return True

    def _compare_entered(self, old: Ref, new: Ref, effect: tuple | None = None) -> Iterator[Difference | Enter]:
        """The walk of a pair of named types entered through references, which is entered only when their
        digests differ. Their nodes are not first tested for equal digests (`_same`): the test would say they
        differ, or, had they been equal, the walk would find nothing in them either (every child pair it
        meets is then equal, which it skips). Within a recursive component every entered pair differs, and
        the test would run through each type's properties up to its first reference only to be repeated.
        `effect`: what the route to the pair does to a difference (see `differences`)."""
        old_node, new_node = self.old.resolve(old), self.new.resolve(new)
        kind = old_node.__class__
        if kind is new_node.__class__ and (kind is Object or kind is Intersection):
            return (self._compare_object if kind is Object else self._compare_intersection)(
                old_node, new_node, "", effect)
        return self._compare_resolved(old_node, new_node, "")

    def _compare_nodes(self, old: Node, new: Node, path: str) -> Iterator[Difference | Enter]:
        # Not a generator itself (nor is `_compare_resolved`): what it decides depends on the nodes alone,
        # and it hands on the walk of their kind, one generator fewer per level for every difference to pass.
        old_node, new_node = self.old.resolve(old), self.new.resolve(new)
        if self._same(old_node, new_node):
            return _NOTHING
        if (old.__class__ is Ref) is not (new.__class__ is Ref):
            # A reference against an inline node is compared in place, without a frame of its own
            return self._looked_through(self._compare_resolved(old_node, new_node, path), old, new, path)
        return self._compare_resolved(old_node, new_node, path)

    def _looked_through(self, walk: Iterator[Difference | Enter], old: Node, new: Node,
                        path: str) -> Iterator[Difference | Enter]:
        """`walk`, the comparison in place of a reference on one side with an inline node on the other, as
        the `IN_PLACE_NESTED`-th such comparison inside one another in one frame at most. No pair of named types
        is met on the way, so nothing marks one as compared: a type whose inline copy holds a reference to the
        type itself, against the reference, nests another such comparison at every level, without end (and ran
        out of memory). What each compares counts towards the walk's limit of what it compares (where several
        nest at every level they branch). Past a limit the pair is not compared: both ways, told once."""
        shared = self._shared
        exhausted = _NESTING if self._in_place_depth >= IN_PLACE_NESTED else self._exhausted()
        if exhausted is not None:
            shared.limit_met = shared.limit_met or exhausted
            if not self._limited:
                self._limited = True
                yield self._limit_reached(path, old, new, exhausted)
            return
        self._in_place_depth += 1
        try:
            yield from walk
        finally:
            self._in_place_depth -= 1

    def _same(self, old: Node, new: Node) -> bool:
        """Whether an old and a new node have equal digests, told from their structure where it says so.

        A node's digest hashes its form: its kind, its own fields and its children's digests, the children
        in a fixed order wherever the kind pairs them by position (object properties by name, items, the
        content model, operands of an applicator). Two such nodes have equal digests exactly when their own
        fields are equal and each pair of children has, which is told without writing or hashing a form, and
        stops at the first pair that differs. Leaves are equal exactly when their fields are. A union lists
        its alternatives sorted by digest: a few are matched pair by pair, many by their digests. An
        intersection, and a reference against an inline node (a reference hashes as its target's inline copy
        would), are told by the digests themselves. Within one recursive component every named type differs
        once one does, and most pairs differ only in the types they refer to: this finds that at their first
        reference, where hashing would write the form of every inline node of both sides."""
        if not self._same_format:
            return False
        kind = old.__class__
        if kind is not new.__class__:
            if kind is Ref or new.__class__ is Ref:
                return self.old.digest(old) == self.new.digest(new)
            return False  # every form names its kind
        if kind is Ref:
            return self.old.digests[old.target] == self.new.digests[new.target]
        if kind in _LEAVES:
            return old == new
        compare = _SAME_BY_KIND.get(kind)
        if compare is None:
            return self.old.digest(old) == self.new.digest(new)
        pair = (id(old), id(new))
        known = self._equal.get(pair)
        if known is None:
            known = self._equal[pair] = (old, new, compare(self, old, new))
        return known[2]

    def _same_object(self, old: Object, new: Object) -> bool:
        if old.constraints != new.constraints or len(old.properties) != len(new.properties) \
                or len(old.pattern_properties) != len(new.pattern_properties):
            return False
        same = self._same
        for before, after in zip(old.properties, new.properties):
            if before.name != after.name or before.required != after.required or before.reserved != after.reserved \
                    or not same(before.node, after.node):
                return False
        for (old_pattern, old_node), (new_pattern, new_node) in zip(old.pattern_properties, new.pattern_properties):
            if old_pattern != new_pattern or not same(old_node, new_node):
                return False
        return same(old.additional, new.additional)

    def _same_map(self, old: Map, new: Map) -> bool:
        return old.constraints == new.constraints and self._same(old.values, new.values)

    def _same_array(self, old: Array, new: Array) -> bool:
        return old.constraints == new.constraints and self._same(old.items, new.items)

    def _same_tuple(self, old: Tuple, new: Tuple) -> bool:
        return old.constraints == new.constraints and len(old.items) == len(new.items) \
            and all(map(self._same, old.items, new.items)) and self._same(old.rest, new.rest)

    def _same_union(self, old: Union, new: Union) -> bool:
        # The form lists every alternative by (digest, qualified, tags), sorted: equal exactly when the two
        # lists hold the same entries as often, which between few alternatives is told pair by pair.
        if old.exclusive != new.exclusive or old.policy != new.policy or old.discriminator != new.discriminator \
                or len(old.alternatives) != len(new.alternatives):
            return False
        if len(old.alternatives) ** 2 > _FEW_PAIRS:
            return self.old.digest(old) == self.new.digest(new)
        waiting = list(new.alternatives)
        for alternative in old.alternatives:
            for position, other in enumerate(waiting):
                if _same_key(alternative, other) and self._same(alternative.node, other.node):
                    del waiting[position]
                    break
            else:
                return False
        return True

    def _same_applicator(self, old: Applicator, new: Applicator) -> bool:
        return old.keyword == new.keyword and old.names == new.names and len(old.operands) == len(new.operands) \
            and all(map(self._same, old.operands, new.operands))

    def _same_event_root(self, old: Node, new: Node) -> str | None:
        """The event root both references read (an alias of an event root's type reads that type), if any."""
        if old.__class__ is not Ref or new.__class__ is not Ref:
            return None
        event = self.new.event_root(self.new.named_key(new.target))
        return event if event is not None and self.old.event_root(self.old.named_key(old.target)) == event else None

    def _added_event_root(self, alternatives: list[Alternative]) -> str | None:
        """The event root an added alternative is, when it is exactly one."""
        if len(alternatives) == 1 and isinstance(alternatives[0].node, Ref):
            return self.new.event_root(self.new.named_key(alternatives[0].node.target))
        return None

    def _compare_resolved(self, old: Node, new: Node, path: str) -> Iterator[Difference]:
        self._charge(1, path)
        if old.__class__ is new.__class__:
            return getattr(self, _COMPARE_BY_KIND[old.__class__])(old, new, path)
        if isinstance(old, Union) and not isinstance(new, Union):
            return self._union_narrowed(old, new, path)
        if isinstance(new, Union) and not isinstance(old, Union):
            return self._union_widened(old, new, path)
        if isinstance(old, Intersection) != isinstance(new, Intersection):
            # allOf [A, B] against A alone: an operand was added or removed, the rest compared as operands.
            return self._compare_intersection(*(node if isinstance(node, Intersection) else Intersection((node,), (None,))
                                                for node in (old, new)), path)
        if {type(old), type(new)} == {Array, Tuple}:
            # A list of one item schema is a tuple without positions whose tail is that schema.
            return self._compare_tuple(*(Tuple((), node.items, node.constraints) if isinstance(node, Array)
                                         else node for node in (old, new)), path)
        return self._kind_changed(old, new, path)

    # --- per kind -----------------------------------------------------------------------------------

    def _compare_primitive(self, old: Primitive, new: Primitive, path: str) -> Iterator[Difference]:
        if old.type != new.type:
            widening = (old.type, new.type) == ("integer", "number")
            narrowing = (old.type, new.type) == ("number", "integer")
            breaks = (NEW_DATA,) if widening else (OLD_DATA,) if narrowing else (OLD_DATA, NEW_DATA)
            yield Difference(path, "type-changed", old, new, _args(old=old.type, new=new.type), breaks)
        yield from self._constraints(old.constraints, new.constraints, path)

    def _compare_literal(self, old: Literal, new: Literal, path: str) -> Iterator[Difference]:
        if old.value == new.value:
            return  # reached when the inventory formats differ, so equal digests could not end the walk
        yield Difference(path, "literal-changed", old, new, _args(old=old.value, new=new.value), (OLD_DATA, NEW_DATA))

    def _compare_enum(self, old: Enum, new: Enum, path: str) -> Iterator[Difference]:
        yield from self._values_changed(set(old.values), set(new.values), old, new, path)

    def _values_changed(self, old_values: set[str], new_values: set[str], old: Node, new: Node,
                        path: str) -> Iterator[Difference]:
        added, removed = sorted(new_values - old_values), sorted(old_values - new_values)
        if added:
            yield Difference(path, "enum-value-added", old, new, _args(values=", ".join(added)), (NEW_DATA,))
        if removed:
            yield Difference(path, "enum-value-removed", old, new, _args(values=", ".join(removed)), (OLD_DATA,))

    def _compare_object(self, old: Object, new: Object, path: str, effect=_NESTED) -> Iterator[Difference]:
        """`effect`: given (the route's effect) when the pair is a frame's own named types (see
        `_compare_entered`): a pair of named types met among their properties reaches the walk's driver as
        it is made, with nothing added on its way, so the driver's test of whether the pair was compared
        along a route of that effect is made here, before an `Enter` is made for nothing."""
        if not self._charge(len(old.properties) + len(new.properties), path):
            yield from self._stopped(path, old, new)
            return
        prefix = path + "/properties/"
        old_digests, new_digests = self.old.digests, self.new.digests
        same_format, same, quiet = self._same_format, self._same, self._quiet
        # (A frame recorded for other roots' walks yields every pair it meets: theirs have compared others.)
        visited = self._visited if effect is not _NESTED and self._prunes_visited else None
        old_named_key, new_named_key = self.old.named_key, self.new.named_key
        for name, before, after in _property_pairs(old.properties, new.properties):
            if before is not None and after is not None:
                pair = (id(before), id(after))
                if pair in quiet:
                    continue
            if before is not None and after is not None and before.reserved == after.reserved \
                    and before.required == after.required:
                # The common case, told without a generator per property: a pair of named types is entered
                # as `compare` enters it one level down (no sibling guards names there), a pair with equal
                # digests holds nothing, and any other pair of one kind is walked as `_below` walks it.
                old_node, new_node = before.node, after.node
                kind = old_node.__class__
                if kind is new_node.__class__:
                    if kind is Ref:
                        if old_digests[old_node.target] != new_digests[new_node.target] or not same_format:
                            event = self._same_event_root(old_node, new_node) if self._events else None
                            if visited is not None and (old_named_key(old_node.target), new_named_key(new_node.target),
                                                        False, effect, event or self._event) in visited:
                                continue
                            yield Enter(old_node, new_node, prefix + _escape(name), False, event)
                        continue
                    if kind in _LEAVES:
                        if same_format and old_node == new_node:
                            quiet[pair] = (before, after)
                            continue
                    elif kind in _ONE_CHILD:
                        # An array or map of a named type (most of them in a graph of many types): its one
                        # child is entered as the walk of its kind would enter it, when the two differ only
                        # there; equal digests of both children, with equal constraints, are equal nodes.
                        attribute, suffix = _ONE_CHILD[kind]
                        old_child, new_child = getattr(old_node, attribute), getattr(new_node, attribute)
                        if old_child.__class__ is Ref and new_child.__class__ is Ref \
                                and old_node.constraints == new_node.constraints:
                            if old_digests[old_child.target] != new_digests[new_child.target] or not same_format:
                                event = self._same_event_root(old_child, new_child)
                                if visited is not None and (old_named_key(old_child.target),
                                                            new_named_key(new_child.target), False, effect,
                                                            event or self._event) in visited:
                                    continue
                                yield Enter(old_child, new_child, prefix + _escape(name) + suffix, False, event)
                            continue
                        if same(old_node, new_node):
                            quiet[pair] = (before, after)
                            continue
                    elif same(old_node, new_node):
                        quiet[pair] = (before, after)
                        continue
                    if not self._names_guarded:
                        yield from self._compare_resolved(old_node, new_node, prefix + _escape(name))
                        continue
                elif same(self.old.resolve(old_node), self.new.resolve(new_node)):
                    continue
            where = prefix + _escape(name)
            if before is None:
                yield self._property_added(old, new, after, where)
            elif after is None:
                yield Difference(where, "property-removed", before.node, None,
                                 _args(property=name, required=before.required), self._removal_breaks(new, before))
            else:
                if before.reserved != after.reserved:
                    kind = "reserved-made-real" if before.reserved else "property-made-reserved"
                    yield Difference(where, kind, before.node, after.node, _args(property=name),
                                     (NEW_DATA,) if before.reserved else (OLD_DATA,))
                    continue
                if before.required and not after.required:
                    yield Difference(where, "required-made-optional", before.node, after.node, _args(property=name),
                                     (NEW_DATA,))
                elif after.required and not before.required:
                    yield Difference(where, "optional-made-required", before.node, after.node, _args(property=name),
                                     (OLD_DATA,))
                yield from self._below(before.node, after.node, where)
        if not (old.additional.__class__ in _LEAVES and old.additional == new.additional):
            yield from self._next_level(self._content_model(old.additional, new.additional,
                                                            f"{path}/additionalProperties"))
        if not old.pattern_properties and not new.pattern_properties:
            if old.constraints != new.constraints:
                yield from self._constraints(old.constraints, new.constraints, path)
            return
        old_patterns, new_patterns = dict(old.pattern_properties), dict(new.pattern_properties)
        # The added patterns that may match a name the old object declares, and the removed ones a name the new
        # object declares, asked of all of them together (thousands of patterns beside thousands of names).
        added = [pattern for pattern in new_patterns if pattern not in old_patterns]
        removed = [pattern for pattern in old_patterns if pattern not in new_patterns]
        claimed = _patterns_matching_names(added, old.properties) | _patterns_matching_names(removed, new.properties)
        for pattern in sorted(old_patterns.keys() | new_patterns.keys()):
            where = f"{path}/patternProperties/{_escape(pattern)}"
            if pattern not in old_patterns:
                yield Difference(where, "pattern-property-added", None, new_patterns[pattern], _args(pattern=pattern),
                                 self._pattern_breaks(pattern in claimed, old, new_patterns[pattern], added=True))
            elif pattern not in new_patterns:
                yield Difference(where, "pattern-property-removed", old_patterns[pattern], None,
                                 _args(pattern=pattern),
                                 self._pattern_breaks(pattern in claimed, new, old_patterns[pattern], added=False))
            else:
                yield from self._below(old_patterns[pattern], new_patterns[pattern], where)
        yield from self._constraints(old.constraints, new.constraints, path)

    def _property_added(self, old: Object, new: Object, prop, where: str) -> Difference:
        admitted = self._admits(old, prop.name)
        # What old data may hold under the name is what the old content model let through; the new
        # property's schema now decides it, in both directions.
        breaks = self._breaks_between(self._undeclared(old, prop.name), prop.node)
        if prop.required:
            return Difference(where, "required-property-added", None, prop.node,
                              _args(property=prop.name), _merge(breaks, (OLD_DATA,)))
        return Difference(where, "optional-property-added", None, prop.node,
                          _args(property=prop.name, admitted=admitted, reserved=prop.reserved or None), breaks)

    def _removal_breaks(self, new: Object, before) -> tuple[str, ...]:
        """A removed property's name falls to the new content model: old values must pass it, and new
        data may carry any value it lets through, or omit a name old readers required."""
        breaks = self._breaks_between(before.node, self._undeclared(new, before.name, side=self.new))
        return _merge(breaks, (NEW_DATA,) if before.required else ())

    def _undeclared(self, obj: Object, name: str, side: "Side | None" = None) -> Node:
        """The schema an object applies to an undeclared name: the matching patterns' (all of them), else
        the content model. Anything this cannot name exactly counts as rejecting the name."""
        from govern.patterns import pattern_set

        if self._names_guarded or restricts_names(obj.constraints):
            return UNKNOWN_MODEL
        entries = obj.pattern_properties
        claims = pattern_set(entries).claims(name, until_unknown=True) if entries else ()
        if claims and claims[-1][1] is None:
            return UNKNOWN_MODEL
        matching = [entries[position][1] for position, _ in claims]
        if not matching:
            return obj.additional
        return matching[0] if len(matching) == 1 else Intersection(tuple(matching))

    def _breaks_between(self, old: Node, new: Node) -> tuple[str, ...]:
        """Which ways replacing `old` (of the old graph) by `new` (of the new graph) breaks, as far as
        pairing can tell; nothing when they are the same."""
        if old is UNKNOWN_MODEL or new is UNKNOWN_MODEL:
            return (OLD_DATA, NEW_DATA)
        shared = self._shared
        if shared.asking and (old, new) in shared.asking:
            # Asked again while answering it (a type whose content model holds the type itself, one side a
            # union of it): the answer would ask again without end. Both ways, as far as anyone can prove.
            shared.cut_short += 1
            return (OLD_DATA, NEW_DATA)
        told = shared.breaks.get((id(old), id(new)))
        if told is not None:
            shared.unasked_compared += told[3]
            shared.unasked_entered += told[4]
            shared.cut_short += told[5]
            return told[2]
        # Past a limit the question is not walked: both ways, and the walk that started the family says why.
        if self._exhausted() is not None:
            return (OLD_DATA, NEW_DATA)
        if len(shared.asking) >= QUESTIONS_NESTED:
            shared.limit_met = shared.limit_met or _NESTING
            return (OLD_DATA, NEW_DATA)
        compared, entered = shared.compared + shared.unasked_compared, shared.entered + shared.unasked_entered
        cut_short = shared.cut_short
        shared.entered += 1
        shared.asking.add((old, new))
        found: tuple[str, ...] = ()
        try:
            for difference in Walker(self.old, self.new, shared, (self.pair_limit, self.compared_limit)) \
                    .differences(old, new):
                found = _merge(found, difference.breaks)
                if len(found) == 2:
                    break  # both ways: nothing further can add to the answer
        finally:
            shared.asking.discard((old, new))
        # (An answer found while an enclosing question was taken to break both ways can only say more than the
        # full answer, never less, so it is kept as well.)
        shared.breaks[(id(old), id(new))] = (old, new, found,
                                             shared.compared + shared.unasked_compared - compared,
                                             shared.entered + shared.unasked_entered - entered,
                                             shared.cut_short != cut_short)
        return found

    def _pattern_breaks(self, declared: bool, other: Object, node: Node, added: bool) -> tuple[str, ...]:
        """A pattern entry takes the names it matches from the content model (and also checks declared
        properties whose names match it: `declared`, whether it may match a name `other` declares)."""
        model = other.additional if not self._names_guarded and not restricts_names(other.constraints) else UNKNOWN_MODEL
        if other.pattern_properties:
            model = UNKNOWN_MODEL  # names may also match the other side's patterns: not provable here
        breaks = self._breaks_between(model, node) if added else self._breaks_between(node, model)
        return (OLD_DATA, NEW_DATA) if declared else breaks

    def _content_model(self, old: Node, new: Node, path: str) -> Iterator[Difference]:
        old_model, new_model = content_model_name(old), content_model_name(new)
        if old_model == new_model == "schema":
            yield from self.compare(old, new, path)
        elif old_model != new_model:
            breaks = (OLD_DATA,) if new_model == "closed" or old_model == "open" else (NEW_DATA,)
            yield Difference(path, "content-model-changed", old, new, _args(old=old_model, new=new_model), breaks)

    def _compare_map(self, old: Map, new: Map, path: str) -> Iterator[Difference]:
        yield from self._below(old.values, new.values, f"{path}/additionalProperties")
        yield from self._constraints(old.constraints, new.constraints, path)

    def _compare_array(self, old: Array, new: Array, path: str) -> Iterator[Difference]:
        yield from self._below(old.items, new.items, f"{path}/items")
        yield from self._constraints(old.constraints, new.constraints, path)

    def _compare_tuple(self, old: Tuple, new: Tuple, path: str) -> Iterator[Difference]:
        """Position by position: where one side has no position of its own, its tail (open, closed or a
        schema) applies there, so an added position narrows an open tail and widens a closed one."""
        if not self._charge(max(len(old.items), len(new.items)), path):
            yield from self._stopped(path, old, new)
            return
        for position in range(max(len(old.items), len(new.items))):
            where = f"{path}/prefixItems/{position}"
            if position >= len(old.items):
                yield Difference(where, "tuple-item-added", None, new.items[position], _args(position=position),
                                 self._breaks_between(old.rest, new.items[position]))
            elif position >= len(new.items):
                yield Difference(where, "tuple-item-removed", old.items[position], None, _args(position=position),
                                 self._breaks_between(old.items[position], new.rest))
            else:
                yield from self._below(old.items[position], new.items[position], where)
        yield from self._next_level(self._content_model(old.rest, new.rest, f"{path}/items"))
        yield from self._constraints(old.constraints, new.constraints, path)

    def _compare_intersection(self, old: Intersection, new: Intersection, path: str,
                              effect=_NESTED) -> Iterator[Difference]:
        """Operands of equal digest are the same; the others are paired where they were written (the schema's
        own keywords, `allOf`) and by kind, one to one, so a change inside one is told precisely, and each
        is located where the source wrote it. `effect`: as `_compare_object` takes it, for a frame's own
        types (what an object operand's walk yields passes here unchanged)."""
        self._charge(len(old.operands) + len(new.operands), path)
        old_left: dict[str, int] = {}
        new_left: dict[str, int] = {}
        for left, operands, side in ((old_left, old.operands, self.old), (new_left, new.operands, self.new)):
            for position, op in enumerate(operands):
                left.setdefault(side.digest(op), position)
        same = old_left.keys() & new_left.keys() if self.old.graph.inventory_format == self.new.graph.inventory_format else set()
        old_rest = [position for digest, position in sorted(old_left.items()) if digest not in same]
        new_rest = [position for digest, position in sorted(new_left.items()) if digest not in same]
        pairs = []
        if len(old_rest) == len(new_rest) == 1:
            pairs.append((old_rest.pop(), new_rest.pop()))
        elif old_rest and new_rest:
            pairs.extend(_pairs_by_name(old.operands, new.operands, old_rest, new_rest))
        # By where an operand was written and its kind, then by its kind alone (see `_operand_slot`).
        old_keys = {i: _operand_slot(old, i) for i in old_rest}
        new_keys = {j: _operand_slot(new, j) for j in new_rest}
        for part in (slice(None), 1):
            if not old_rest or not new_rest:
                break  # nothing left to pair with on one side
            old_slots = _tally([old_keys[i][part] for i in old_rest])
            new_slots = {new_keys[j][part]: j for j in new_rest}
            new_counts = _tally([new_keys[j][part] for j in new_rest])
            for i in list(old_rest):
                key = old_keys[i][part]
                if old_slots[key] == 1 and new_counts.get(key) == 1:
                    pairs.append((i, new_slots[key]))
                    old_rest.remove(i)
                    new_rest.remove(new_slots[key])
        # Which operands reject names the others admit, asked once: a pair's walk is guarded by every operand but
        # its own (asking of the others for each pair would take the square of a large allOf).
        guarding = [guards_names(self.old, op) for op in old.operands] if pairs and not self._names_guarded else ()
        guards = sum(guarding)
        for i, j in pairs:
            guarded = self._names_guarded or guards - guarding[i] > 0
            saved, self._names_guarded = self._names_guarded, guarded
            try:
                old_operand, new_operand = old.operands[i], new.operands[j]
                if old_operand.__class__ is Object and new_operand.__class__ is Object:
                    # A paired operand's digest is none of the other side's (those are in `same`), so the two
                    # differ: `compare` would test their digests only to be told so (for inline nodes, whose
                    # digests `_same` tells exactly).
                    yield from self._compare_object(old_operand, new_operand, _operand_path(new, j, path), effect)
                elif old_operand.__class__ is not Ref and new_operand.__class__ is not Ref:
                    yield from self._compare_resolved(old_operand, new_operand, _operand_path(new, j, path))
                else:
                    yield from self.compare(old_operand, new_operand, _operand_path(new, j, path))
            finally:
                self._names_guarded = saved
        for i in old_rest:
            yield Difference(_operand_path(old, i, path, named=True), "operand-removed", old.operands[i], None,
                             _args(keyword=_operand_keyword(old, i)), (NEW_DATA,))
        for j in new_rest:
            yield Difference(_operand_path(new, j, path, named=True), "operand-added", None, new.operands[j],
                             _args(keyword=_operand_keyword(new, j)), (OLD_DATA,))

    def _compare_union(self, old: Union, new: Union, path: str) -> Iterator[Difference]:
        self._charge(len(old.alternatives) + len(new.alternatives), path)
        if old.policy == new.policy and old.exclusive == new.exclusive and old.discriminator == new.discriminator:
            return self._alternatives(old, new, path)  # (most pairs: no generator of its own)
        return self._union_changes(old, new, path)

    def _union_changes(self, old: Union, new: Union, path: str) -> Iterator[Difference]:
        if old.policy != new.policy:
            yield Difference(path, "policy-changed", old, new, _args(old=old.policy, new=new.policy),
                             (OLD_DATA, NEW_DATA))
        if old.exclusive != new.exclusive:
            yield Difference(path, "union-mode-changed", old, new,
                             _args(old="oneOf" if old.exclusive else "anyOf", new="oneOf" if new.exclusive else "anyOf"),
                             (OLD_DATA,) if new.exclusive else (NEW_DATA,))
        if old.discriminator != new.discriminator:
            yield Difference(path, "discriminator-changed", old, new,
                             _args(old=old.discriminator, new=new.discriminator), (OLD_DATA, NEW_DATA))
        yield from self._alternatives(old, new, path)

    def _exclusivity(self, union: Union, alternatives: list[Alternative],
                     differences: Iterator[Difference]) -> Iterator[Difference]:
        """In a oneOf, a changed or added alternative that may overlap another moves instances into or out
        of the overlap, which oneOf rejects: it breaks both ways, and a widening is no longer allowed."""
        return self._exclusive_differences(differences) if self._overlapping(union, alternatives) else differences

    def _overlapping(self, union: Union, alternatives: list[Alternative]) -> bool:
        """Whether the union is a oneOf in which any of these (new) alternatives may overlap another."""
        return union.exclusive and any(may_overlap(self.new, union, alternative) for alternative in alternatives)

    @staticmethod
    def _exclusive_differences(differences: Iterator[Difference]) -> Iterator[Difference]:
        for difference in differences:
            if isinstance(difference, Enter):
                difference.transforms.append(_Mapped(_exclusive))
                yield difference
            else:
                yield _exclusive(difference)

    def _alternatives(self, old: Union, new: Union, path: str) -> Iterator[Difference]:
        # Not a generator itself: the grouping depends on the unions alone, and it hands on one of two walks.
        keyword = new.keyword if new.keyword is not None else "oneOf" if new.exclusive else "anyOf"  # as written
        base = f"{path}/{keyword}" if keyword else path  # "": the schema's own keywords (a list of types)
        groups_old = self._groups(self.old, old)
        groups_new = self._groups(self.new, new) if groups_old is not None else None
        if groups_old is not None and groups_new is not None:
            return self._grouped_alternatives(old, new, base, groups_old, groups_new)
        return self._pair_by_structure(list(old.alternatives), list(new.alternatives), base, old, new,
                                       positioned=bool(keyword))

    def _grouped_alternatives(self, old: Union, new: Union, base: str, groups_old: dict[str, list[Alternative]],
                              groups_new: dict[str, list[Alternative]]) -> Iterator[Difference]:
        """Alternatives by discriminator value: a value added or removed, else its alternatives paired."""
        for kind in sorted(groups_old.keys() | groups_new.keys()):
            name = _value_text(kind)
            where = f"{base}/{_escape(name)}"
            before, after = groups_old.get(kind, []), groups_new.get(kind, [])
            if not before:
                added = Difference(where, "alternative-added", None, after[0].node,
                                   _args(alternative=name, qualified=all(a.qualified for a in after),
                                         policy=new.policy, old_policy=old.policy,
                                         event_type=self._added_event_root(after)), (NEW_DATA,))
                yield from self._exclusivity(new, after, iter((added,)))
            elif not after:
                yield self._removed(old, before, Difference(where, "alternative-removed", before[0].node, None,
                                                            _args(alternative=name), (OLD_DATA,)))
            else:
                yield from self._pair_by_structure(before, after, where, old, new, name)

    def _removed(self, old: Union, removed: list[Alternative], difference: Difference) -> Difference:
        """Instances that matched a removed oneOf alternative and another were rejected; now they are read."""
        if old.exclusive and any(may_overlap(self.old, old, alternative) for alternative in removed):
            return replace(difference, breaks=(OLD_DATA, NEW_DATA))
        return difference

    def _groups(self, side: Side, union: Union) -> dict[str, list[Alternative]] | None:
        """Alternatives grouped by discriminator value: several alternatives with one wire kind form one group."""
        property_name = "kind"
        if union.discriminator is not None:
            property_name = json.loads(union.discriminator)["propertyName"]
        groups: dict[str, list[Alternative]] = {}
        for alternative in union.alternatives:
            values = alternative.tags or discriminator_values(side, alternative.node, property_name)
            if values is None or len(values) != 1:
                return None
            groups.setdefault(values[0], []).append(alternative)
        return groups

    def _pair_by_structure(self, before: list[Alternative], after: list[Alternative], path: str, old_union: Union,
                           new_union: Union, group: str | None = None, positioned: bool = True) -> Iterator[Difference]:
        """Alternatives paired by equal structure, then by kind; `group` is the discriminator value that
        names them all, else each is named on its own. Unless `positioned`, the alternatives are the schema's
        own keywords (a list of types) and stand at its path."""
        at = self._at if positioned else lambda where, alternatives, position: where
        unmatched_old = list(range(len(before)))
        unmatched_new = list(range(len(after)))
        if self._same_format and len(before) * len(after) <= _FEW_PAIRS:
            # Each old alternative takes the first unpaired new one with its digest, qualification and
            # discriminator values; between few alternatives, each pair is told equal or not from structure.
            kept: list[int] = []
            same = self._same
            for i in unmatched_old:
                alternative = before[i]
                for position, j in enumerate(unmatched_new):
                    other = after[j]
                    if alternative.qualified == other.qualified and alternative.tags == other.tags \
                            and same(alternative.node, other.node):
                        del unmatched_new[position]
                        break
                else:
                    kept.append(i)
            unmatched_old = kept
        elif self._same_format:
            # Between many: looked up by that key, so a union of n alternatives pairs in linear time.
            old_digests = [self.old.digest(a.node) for a in before]
            new_digests = [self.new.digest(a.node) for a in after]
            waiting: dict[tuple, list[int]] = {}
            for j in reversed(unmatched_new):
                waiting.setdefault((new_digests[j], after[j].qualified, after[j].tags), []).append(j)
            paired: set[int] = set()
            kept = []
            for i in unmatched_old:
                same = waiting.get((old_digests[i], before[i].qualified, before[i].tags))
                if same:
                    paired.add(same.pop())
                else:
                    kept.append(i)
            unmatched_old = kept
            unmatched_new = [j for j in unmatched_new if j not in paired]
        if not unmatched_old and not unmatched_new:
            return  # every alternative has its equal
        # Pair the rest, so a change inside an alternative is precise: first those that name the same type on both
        # sides, one to one (see _pairs_by_name); then those whose kinds match one to one.
        old_nodes, new_nodes = [a.node for a in before], [a.node for a in after]
        pairs = _pairs_by_name(old_nodes, new_nodes, unmatched_old, unmatched_new)
        old_kinds = {i: self.old.resolve(before[i].node).kind for i in unmatched_old}
        old_count: dict[str, int] = {}
        for kind in old_kinds.values():
            old_count[kind] = old_count.get(kind, 0) + 1
        new_by_kind: dict[str, list[int]] = {}
        for j in unmatched_new:
            new_by_kind.setdefault(self.new.resolve(after[j].node).kind, []).append(j)
        for i in list(unmatched_old):
            candidates = new_by_kind.get(old_kinds[i], ())
            if len(candidates) == 1 and old_count[old_kinds[i]] == 1:
                j = candidates[0]
                unmatched_old.remove(i)
                unmatched_new.remove(j)
                pairs.append((i, j))
        if len(unmatched_old) > 1 and len(unmatched_new) > 1:
            # Then objects that declare the same property names, one to one: inline alternatives of one kind inside
            # a recursive component all change digest with any change in it, and have no name to pair by.
            pairs.extend(_pairs_by_declared_names(self.old, self.new, old_nodes, new_nodes, unmatched_old,
                                                  unmatched_new))
            # And inline arrays, maps and tuples that hold alike: the same types by name, inline objects of the same
            # property names, and other nodes of the same kinds (what holds otherwise is removed and added, as an
            # object of other names is).
            pairs.extend(_pairs_by_key(unmatched_old, unmatched_new, _held(old_nodes), _held(new_nodes)))
        pairs.sort()  # (in the old side's order, as they stand)
        for i, j in pairs:
            name = group or self.new.alternative_name(after[j])
            # In a oneOf, a changed alternative that may overlap another, in the new union or in the old one, moves
            # instances into or out of an overlap, which oneOf rejects: its changes break both ways.
            exclusive = self._overlapping(new_union, [after[j]]) or (
                old_union.exclusive and may_overlap(self.old, old_union, before[i]))
            if before[i].qualified != after[j].qualified:
                yield Difference(path, "qualification-changed", before[i].node, after[j].node,
                                 _args(old=before[i].qualified, new=after[j].qualified, alternative=name),
                                 (OLD_DATA, NEW_DATA))
            if before[i].tags != after[j].tags:  # the discriminator now selects it by other values
                yield Difference(path, "discriminator-changed", before[i].node, after[j].node,
                                 _args(old=", ".join(before[i].tags), new=", ".join(after[j].tags),
                                       alternative=name), (OLD_DATA, NEW_DATA))
            old_node, new_node = before[i].node, after[j].node
            if old_node.__class__ is Ref and new_node.__class__ is Ref:
                # A pair of named types (most pairs): its `Enter`, with what the wrappers below would add
                # on its way up, without a generator per wrapper.
                enter = self._enter(old_node, new_node, at(path, after, j))
                if enter is not None:
                    if exclusive:
                        enter.transforms.append(_Mapped(_exclusive))
                    if positioned:
                        enter.transforms.append(_Named({"alternative": name}))
                    yield enter
                continue
            changes = self.compare(old_node, new_node, at(path, after, j))
            if exclusive:
                changes = self._exclusive_differences(changes)
            # The schema's own keywords are no alternatives a reader would name.
            yield from _named(changes, alternative=name) if positioned else changes
        for i in unmatched_old:
            yield self._removed(old_union, [before[i]], Difference(
                at(path, before, i), "alternative-removed", before[i].node, None,
                _args(alternative=group or self.old.alternative_name(before[i])), (OLD_DATA,)))
        for j in unmatched_new:
            yield from self._exclusivity(new_union, [after[j]], iter((
                Difference(at(path, after, j), "alternative-added", None, after[j].node,
                           _args(qualified=after[j].qualified, alternative=group or self.new.alternative_name(after[j]),
                                 event_type=self._added_event_root([after[j]])), (NEW_DATA,)),)))

    @staticmethod
    def _at(path: str, alternatives: list[Alternative], position: int) -> str:
        """An alternative's path: by position, unless a discriminator value already names it alone."""
        return path if len(alternatives) == 1 and not path.endswith(("/oneOf", "/anyOf")) else f"{path}/{position}"

    def _union_widened(self, old: Node, new: Union, path: str) -> Iterator[Difference]:
        yield from self._single_in_union(old, new, self.old, self.new, "alternative-added", (NEW_DATA,), path,
                                         lambda: self._kind_changed(old, new, path))

    def _union_narrowed(self, old: Union, new: Node, path: str) -> Iterator[Difference]:
        yield from self._single_in_union(new, old, self.new, self.old, "alternative-removed", (OLD_DATA,), path,
                                         lambda: self._kind_changed(old, new, path))

    def _single_in_union(self, single: Node, union: Union, single_side: Side, union_side: Side, kind: str,
                         breaks: tuple[str, ...], path: str, otherwise) -> Iterator[Difference]:
        """A type became a union containing it (or the reverse): the other alternatives were added (removed).
        When no alternative equals the type but exactly one has its kind, the two are compared as well."""
        same_format = self.old.graph.inventory_format == self.new.graph.inventory_format
        digest = single_side.digest(single)
        matches = [a for a in union.alternatives if same_format and union_side.digest(a.node) == digest]
        inner: list[Difference] = []
        if not matches and union.policy is None:
            matches = [a for a in union.alternatives if _same_kind(union_side.resolve(a.node), single)]
            if len(matches) == 1:
                added = kind == "alternative-added"
                pair = (single, matches[0].node) if added else (matches[0].node, single)
                running = (added, matches[0].node.target, id(single), self._names_guarded) \
                    if matches[0].node.__class__ is Ref else None
                if running is None:
                    inner = list(self.compare(*pair, path))
                elif running in self._comparing_in_place:
                    pass  # what it holds is being told further up (as a pair of named types is compared once)
                elif (exhausted := self._exhausted()) is None:
                    self._in_place += 1
                    self._shared.entered += 1
                    self._comparing_in_place.add(running)
                    try:
                        inner = list(self.compare(*pair, path))
                    finally:
                        self._comparing_in_place.discard(running)
                elif not self._limited:  # (see `differences`)
                    self._limited = True
                    inner = [self._limit_reached(path, *pair, exhausted)]
            else:
                matches = []
        if not matches or union.policy is not None:
            yield from otherwise()
            return
        yield from inner
        if union.exclusive and may_overlap(union_side, union, matches[0]):
            breaks = (OLD_DATA, NEW_DATA)  # in a oneOf, instances of the type that also match another are rejected
        for alternative in union.alternatives:
            if alternative is not matches[0]:
                added = kind == "alternative-added"
                yield Difference(path, kind, None if added else alternative.node, alternative.node if added else None,
                                 _args(alternative=union_side.alternative_name(alternative),
                                       event_type=self._added_event_root([alternative]) if added else None), breaks)

    def _compare_opaque(self, old: Opaque, new: Opaque, path: str) -> Iterator[Difference]:
        yield from self._constraints(old.constraints, new.constraints, path)

    def _compare_applicator(self, old: Applicator, new: Applicator, path: str) -> Iterator[Difference]:
        if old.keyword != new.keyword:
            yield Difference(path, "type-changed", old, new, _args(old=old.keyword, new=new.keyword),
                             (OLD_DATA, NEW_DATA))
            return
        if old.keyword == "dependentSchemas":
            before, after = dict(zip(old.names, old.operands)), dict(zip(new.names, new.operands))
            pairs = [(name, before.get(name), after.get(name)) for name in sorted(before.keys() | after.keys())]
        else:
            labels = ("if", "then", "else") if old.keyword == "if-then-else" else (old.keyword,)
            pairs = list(zip(labels, old.operands, new.operands))
        for label, before_node, after_node in pairs:
            where = f"{path}/{_escape(label)}"
            if before_node is None or after_node is None:
                # An entry applies only to objects holding the name: adding one narrows, removing widens.
                added = before_node is None
                yield Difference(where, "applicator-changed", before_node, after_node,
                                 _args(keyword=old.keyword, inner="operand-added" if added else "operand-removed",
                                       property=label),
                                 self._breaks_between(OPEN, after_node) if added
                                 else self._breaks_between(before_node, OPEN))
                continue
            wrap = _under_applicator(old.keyword, label)
            for difference in self._next_level(self.compare(before_node, after_node, where)):
                if isinstance(difference, Enter):
                    difference.transforms.append(_Mapped(wrap))
                    yield difference
                else:
                    yield wrap(difference)

    def _compare_never(self, old: Never, new: Never, path: str) -> Iterator[Difference]:
        return iter(())

    def _compare_ref(self, old: Ref, new: Ref, path: str) -> Iterator[Difference]:  # pragma: no cover
        return iter(())  # references are resolved before comparison

    def _kind_changed(self, old: Node, new: Node, path: str) -> Iterator[Difference]:
        if isinstance(old, (Literal, Enum)) and isinstance(new, (Literal, Enum)):
            old_values = {old.value} if isinstance(old, Literal) else set(old.values)
            new_values = {new.value} if isinstance(new, Literal) else set(new.values)
            yield from self._values_changed(old_values, new_values, old, new, path)
            return
        # A primitive's kind says little ("primitive"): its JSON type goes along, so the change reads exactly.
        if isinstance(new, Opaque) and not new.constraints:
            yield Difference(path, "type-widened-to-any", old, new, _args(old=old.kind, old_type=_primitive_type(old)),
                             (NEW_DATA,))
            return
        yield Difference(path, "type-changed", old, new,
                         _args(old=old.kind, new=new.kind, old_type=_primitive_type(old), new_type=_primitive_type(new)),
                         _kind_breaks(old, new))

    def _constraints(self, old, new, path: str) -> Iterator[Difference]:
        return _NOTHING if old == new else self._constraint_changes(old, new, path)

    def _constraint_changes(self, old, new, path: str) -> Iterator[Difference]:
        before, after = dict(old), dict(new)
        for keyword in sorted(before.keys() | after.keys()):
            if before.get(keyword) == after.get(keyword):
                continue
            old_value, new_value = before.get(keyword), after.get(keyword)
            yield Difference(f"{path}/{_escape(keyword)}" if path or keyword else path,
                             "constraint-changed" if old_value is not None and new_value is not None
                             else "constraint-added" if new_value is not None else "constraint-removed",
                             None, None, _args(keyword=keyword, old=old_value, new=new_value,
                                               detail=_structured_detail(old_value, new_value)),
                             _constraint_breaks(keyword, old_value, new_value))


# Leaves: their forms are their fields, so equal fields are equal digests.
_LEAVES = frozenset({Primitive, Literal, Enum, Opaque, Never})
# Composite kinds whose forms list their children in a fixed order (see `Walker._same`).
_SAME_BY_KIND = {Object: Walker._same_object, Map: Walker._same_map, Array: Walker._same_array,
                 Tuple: Walker._same_tuple, Union: Walker._same_union, Applicator: Walker._same_applicator}
# Kinds with one child, by kind: the child's field and its pointer below the node.
_ONE_CHILD = {Array: ("items", "/items"), Map: ("values", "/additionalProperties")}
def _pairs_by_name(before: Sequence[Node], after: Sequence[Node], unmatched_old: list[int],
                   unmatched_new: list[int]) -> list[tuple[int, int]]:
    """The unpaired nodes (alternatives, operands) that are references to a type of one name on both sides, paired
    one to one (see _pairs_by_key). A type keeps its name across versions, and a change anywhere in a recursive
    component changes the digest of every type in it: a union or an intersection of several of its types would
    otherwise pair none of them where their kinds are alike, and report each removed and added."""
    def name(nodes: Sequence[Node]) -> Callable[[int], str | None]:
        return lambda position: nodes[position].target if nodes[position].__class__ is Ref else None

    return _pairs_by_key(unmatched_old, unmatched_new, name(before), name(after))


def _pairs_by_declared_names(old_side: "Side", new_side: "Side", before: Sequence[Node], after: Sequence[Node],
                             unmatched_old: list[int], unmatched_new: list[int]) -> list[tuple[int, int]]:
    """The unpaired nodes that read objects declaring the same set of property names on both sides, paired one to
    one (see _pairs_by_key). (Any one-to-one pairing is sound, each pair being compared in full; this one is precise
    where an alternative changed only below its properties.)"""
    def declared(side: "Side", nodes: Sequence[Node]) -> Callable[[int], frozenset | None]:
        def names(position: int) -> frozenset | None:
            node = side.resolve(nodes[position])
            return frozenset([prop.name for prop in node.properties]) if node.__class__ is Object else None
        return names

    return _pairs_by_key(unmatched_old, unmatched_new, declared(old_side, before), declared(new_side, after))


def _held(nodes: Sequence[Node]) -> Callable[[int], tuple | None]:
    """For a position among `nodes`: what the inline array, map or tuple there holds (see `_holding`), or None for
    any other node."""
    def key(position: int) -> tuple | None:
        node = nodes[position]
        return _holding(node, _HELD_DEPTH) if node.__class__ in (Array, Map, Tuple) else None
    return key


_HELD_DEPTH = 4  # inline containers nested this deep are told by their kind alone below that


def _holding(node: Node, depth: int) -> tuple:
    """A node as the types it names and the shapes it holds inline: a reference by the type's name (a type keeps its
    name across versions, while a change in a recursive component changes every digest in it), an object by its
    property names, a container by what it holds, anything else by its kind."""
    kind = node.__class__
    if kind is Ref:
        return ("ref", node.target)
    if kind is Object:
        return ("object", frozenset([prop.name for prop in node.properties]))
    if depth == 0 or kind not in (Array, Map, Tuple):
        return (node.kind,)
    if kind is Array:
        return ("array", _holding(node.items, depth - 1))
    if kind is Map:
        return ("map", _holding(node.values, depth - 1))
    return ("tuple", tuple([_holding(item, depth - 1) for item in node.items]), _holding(node.rest, depth - 1))


def _pairs_by_key(unmatched_old: list[int], unmatched_new: list[int], old_key: Callable[[int], Hashable | None],
                  new_key: Callable[[int], Hashable | None]) -> list[tuple[int, int]]:
    """The unpaired positions whose key (not None) stands once among the unpaired of each side, paired (old
    position, new position); they leave the unmatched lists."""
    def keyed(unmatched: list[int], key: Callable[[int], Hashable | None]) -> dict[Hashable, list[int]]:
        found: dict[Hashable, list[int]] = {}
        for position in unmatched:
            value = key(position)
            if value is not None:
                found.setdefault(value, []).append(position)
        return found

    old_keyed = keyed(unmatched_old, old_key)
    if not old_keyed:
        return []
    new_keyed = keyed(unmatched_new, new_key)
    pairs = [(old_positions[0], new_keyed[value][0]) for value, old_positions in old_keyed.items()
             if len(old_positions) == 1 and len(new_keyed.get(value, ())) == 1]
    if pairs:
        paired_old, paired_new = {i for i, _ in pairs}, {j for _, j in pairs}
        unmatched_old[:] = [i for i in unmatched_old if i not in paired_old]
        unmatched_new[:] = [j for j in unmatched_new if j not in paired_new]
    return pairs


# Up to this many pairs of alternatives, equal ones are found pair by pair (each told from structure, see
# `Walker._same`) rather than by their digests: larger unions are paired through their digests, in linear time.
_FEW_PAIRS = 64


def _tally(keys: list) -> dict:
    """How often each key occurs (a few keys: a dictionary costs less than building a Counter)."""
    counts: dict = {}
    for key in keys:
        counts[key] = counts.get(key, 0) + 1
    return counts


def _same_key(old: Alternative, new: Alternative) -> bool:
    """Whether two alternatives agree on what their union's form lists beside their digests."""
    return old.qualified == new.qualified and old.tags == new.tags


def _patterns_matching_names(patterns: list[str], properties: tuple[Property, ...]) -> set[str]:
    """The patterns that match the name of some property, or may (a match not known counts as a match)."""
    from govern.patterns import PatternSet

    if not patterns or not properties:
        return set()
    searched = PatternSet(tuple(patterns))
    claimed: set[int] = set()
    for prop in properties:
        claimed.update(position for position, _ in searched.claims(prop.name))
        if len(claimed) == len(patterns):
            break
    return {patterns[position] for position in claimed}


def _property_pairs(old: tuple[Property, ...], new: tuple[Property, ...]) -> Iterator[tuple]:
    """The properties of two objects by name, in the order of names: (name, old or None, new or None)."""
    names = [prop.name for prop in old]
    if names == [prop.name for prop in new] and names == sorted(names):
        return zip(names, old, new)  # the same names, as objects hold them: sorted
    old_props = {prop.name: prop for prop in old}
    new_props = {prop.name: prop for prop in new}
    return ((name, old_props.get(name), new_props.get(name)) for name in sorted(old_props.keys() | new_props.keys()))


_NOTHING: Iterator = iter(())
# The method that compares two nodes of one kind, by that kind.
_COMPARE_BY_KIND = {kind: f"_compare_{kind.kind}" for kind in (
    Ref, Primitive, Literal, Enum, Object, Map, Array, Tuple, Union, Intersection, Applicator, Opaque, Never)}


def _exclusive(difference: Difference) -> Difference:
    """A difference inside an alternative of a oneOf that may overlap another: it breaks both ways, and a
    widening is no longer allowed."""
    if difference.kind in _SAME_VERSION_WIDENINGS:
        return Difference(difference.path, "exclusive-alternative-widened", difference.old, difference.new,
                          wrapped_args(difference.args, inner=difference.kind), (OLD_DATA, NEW_DATA))
    return replace(difference, breaks=(OLD_DATA, NEW_DATA))


def _under_applicator(keyword: str, label: str):
    """What an applicator makes of a difference below it. No rule proves a change under an applicator
    same-version; its direction follows the keyword: `not` reverses it, `if` decides between branches (both
    ways), the others keep it. Past `APPLICATORS_NAMED` applicators one inside the other, the outer ones are
    counted (`APPLICATORS_BEYOND`), no longer named."""
    def wrap(difference: Difference) -> Difference:
        breaks = flip(difference.breaks) if keyword == "not" else \
            (OLD_DATA, NEW_DATA) if label == "if" else difference.breaks
        if difference.kind == "applicator-changed" and _applicators_named(difference.args) >= APPLICATORS_NAMED:
            args = dict(difference.args)
            args[APPLICATORS_BEYOND] = str(int(args.get(APPLICATORS_BEYOND, "0")) + 1)
            return Difference(difference.path, "applicator-changed", difference.old, difference.new,
                              tuple(sorted(args.items())), breaks)
        return Difference(difference.path, "applicator-changed", difference.old, difference.new,
                          wrapped_args(difference.args, keyword=keyword, inner=difference.kind), breaks)

    return wrap


# How many applicators (`not`, `if`, ...) one inside the other a difference's arguments name. Each names its
# keyword and the kind it wraps, and every deeper one's names take one more `inner_` prefix, so naming them all
# costs the square of their number: a difference under a thousand `not`s (each a named type's property) held
# gigabytes, and telling it recursed past the interpreter's limit. Beyond this many, the outer ones are counted.
APPLICATORS_NAMED = 32
APPLICATORS_BEYOND = "applicators_beyond"


def _applicators_named(args: tuple[tuple[str, str], ...]) -> int:
    """How many applicators the arguments of an `applicator-changed` difference name (`inner`, `inner_inner`, ...)."""
    return sum(1 for name, _ in args if name.endswith("inner") and name.replace(INNER_PREFIX, "") == "inner")


def _primitive_type(node: Node) -> str | None:
    return node.type if isinstance(node, Primitive) else None


def _same_kind(one: Node, other: Node) -> bool:
    if isinstance(one, Primitive) and isinstance(other, Primitive):
        return one.type == other.type
    return type(one) is type(other) and not isinstance(one, (Union, Intersection, Opaque, Applicator))


def _kind_breaks(old: Node, new: Node) -> tuple[str, ...]:
    """Directions of a change between node kinds, where one side provably contains the other."""
    if isinstance(old, Never) or isinstance(old, Opaque) and not old.constraints:
        return (OLD_DATA,) if isinstance(old, Opaque) else (NEW_DATA,)
    if isinstance(new, Never):
        return (OLD_DATA,)
    if isinstance(old, (Literal, Enum)) and isinstance(new, Primitive) and values_fit(new, old):
        return (NEW_DATA,)  # the values become their whole type: an enum removed
    if isinstance(new, (Literal, Enum)) and isinstance(old, Primitive) and values_fit(old, new):
        return (OLD_DATA,)
    return (OLD_DATA, NEW_DATA)


def values_fit(primitive: Primitive, values: Literal | Enum) -> bool:
    """Whether every value of a literal or enum is an instance of an unconstrained primitive type."""
    if primitive.constraints:
        return False
    for text in (values.value,) if isinstance(values, Literal) else values.values:
        value = json.loads(text)
        if primitive.type in ("integer", "number"):
            fits = isinstance(value, (int, float)) and not isinstance(value, bool) and \
                (primitive.type == "number" or float(value).is_integer())
        else:
            fits = _value_type(value) == primitive.type
        if not fits:
            return False
    return True


# Stands for what an object applies to a name when no node says it exactly (a name guard such as
# propertyNames, or patterns of the other side): a change there breaks both ways, as far as anyone can prove.
UNKNOWN_MODEL = Opaque((("govern:unknown-content-model", "true"),))


def _merge(*groups: tuple[str, ...]) -> tuple[str, ...]:
    found = {direction for group in groups for direction in group}
    return tuple(direction for direction in (OLD_DATA, NEW_DATA) if direction in found)


def flip(breaks: tuple[str, ...]) -> tuple[str, ...]:
    """The directions of the reverse change (under `not`, narrowing the operand widens the whole)."""
    swap = {OLD_DATA: NEW_DATA, NEW_DATA: OLD_DATA}
    return _merge(tuple(swap[direction] for direction in breaks))


def _structured_detail(old: str | None, new: str | None) -> str | None:
    """For a constraint whose value is an object or array (kept verbatim), say what inside it changed.

    Whole old and new values of a large verbatim keyword are hard to compare by eye; deepdiff names the
    inner paths. Lines are sorted so the text does not depend on its traversal order.
    """
    if old is None or new is None or not (old.startswith(("{", "[")) and new.startswith(("{", "["))):
        return None
    from deepdiff import DeepDiff

    lines = DeepDiff(json.loads(old), json.loads(new), verbose_level=2).pretty().splitlines()
    return "; ".join(sorted(lines)) or None


_LOWER_BOUNDS = {"minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties", "minContains"}
_UPPER_BOUNDS = {"maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties", "maxContains"}


def _constraint_breaks(keyword: str, old: str | None, new: str | None) -> tuple[str, ...]:
    """Which way a constraint change breaks: tightening rejects old data, loosening rejects new data."""
    if old is None:
        return (OLD_DATA,)
    if new is None:
        return (NEW_DATA,)
    try:
        before, after = json.loads(old), json.loads(new)
    except ValueError:  # pragma: no cover - constraint texts are canonical JSON
        return (OLD_DATA, NEW_DATA)
    numbers = all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in (before, after))
    if numbers:
        if keyword in _LOWER_BOUNDS:
            return (OLD_DATA,) if after > before else (NEW_DATA,)
        if keyword in _UPPER_BOUNDS:
            return (OLD_DATA,) if after < before else (NEW_DATA,)
        if keyword == "multipleOf":
            return _divisibility(Fraction(str(before)), Fraction(str(after)))
    if keyword == "uniqueItems" and isinstance(before, bool) and isinstance(after, bool):
        return (OLD_DATA,) if after else (NEW_DATA,)
    if keyword == "dependentRequired" and _name_lists(before) and _name_lists(after):
        tighter = all(set(names) <= set(after.get(key, ())) for key, names in before.items())
        looser = all(set(names) <= set(before.get(key, ())) for key, names in after.items())
        return (OLD_DATA,) if tighter else (NEW_DATA,) if looser else (OLD_DATA, NEW_DATA)
    return (OLD_DATA, NEW_DATA)


def _divisibility(before: Fraction, after: Fraction) -> tuple[str, ...]:
    """Multiples of 10 are multiples of 2: a new divisor that divides the old one admits more."""
    if after <= 0 or before <= 0:
        return (OLD_DATA, NEW_DATA)
    if (before / after).denominator == 1:
        return (NEW_DATA,)
    if (after / before).denominator == 1:
        return (OLD_DATA,)
    return (OLD_DATA, NEW_DATA)


def _name_lists(value) -> bool:
    return isinstance(value, dict) and all(isinstance(names, list) for names in value.values())
