"""Node kinds of the normalized type model (a closed set), as frozen dataclasses.

Order that carries no meaning (properties, enum values, pattern entries) is fixed at construction, so two
sources that differ only in such order build equal nodes. Union alternatives and intersection operands
keep their source order for display and are ordered by digest when hashed. Constraint values are stored
as canonical JSON text: hashable, comparable, and already in the form the fingerprint needs.
"""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import MISSING, dataclass, field, fields
from operator import attrgetter, itemgetter
from typing import Callable, Union as _TypingUnion

from govern.model.canonical import canonical_json, normalize_json_value

Constraints = tuple[tuple[str, str], ...]
_property_name = attrgetter("name")
_entry_pattern = itemgetter(0)


def _sorted_entry(entries: tuple, key: str, key_of: Callable):
    """The entry whose key is `key` among entries sorted by it (an object's properties, its pattern entries), or
    None: by bisection among many, found in a few steps among thousands."""
    if len(entries) > 16:
        position = bisect_left(entries, key, key=key_of)
        return entries[position] if position < len(entries) and key_of(entries[position]) == key else None
    for entry in entries:
        if key_of(entry) == key:
            return entry
    return None


def make_constraints(values: dict) -> Constraints:
    if not values:
        return ()
    # Most constraint values are integers and strings (bounds, formats, patterns), which normalize to themselves.
    return tuple(sorted([(key, canonical_json(value) if value.__class__ is int or value.__class__ is str
                          else canonical_json(normalize_json_value(value))) for key, value in values.items()]))


@dataclass(frozen=True, slots=True)
class Ref:
    """A reference to a named type of the same graph, by its key."""

    target: str
    kind = "ref"


@dataclass(frozen=True, slots=True)
class Primitive:
    type: str  # string, integer, number, boolean, null
    constraints: Constraints = ()
    kind = "primitive"


@dataclass(frozen=True, slots=True)
class Literal:
    value: str  # canonical JSON text
    kind = "literal"


@dataclass(frozen=True, slots=True)
class Enum:
    values: tuple[str, ...]  # canonical JSON texts, sorted
    kind = "enum"


@dataclass(frozen=True, slots=True)
class Property:
    name: str
    node: "Node"
    required: bool
    # Declared forbidden by name (x-persistence-reserved): readers reject it, the digest keeps it.
    reserved: bool = False
    # The source's description, for the catalog: an annotation, so it takes no part in equality or digests.
    description: str | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class Object:
    properties: tuple[Property, ...]  # sorted by name
    # Content model for undeclared names: Opaque means open, Never means closed, anything else a schema.
    additional: "Node"
    pattern_properties: tuple[tuple[str, "Node"], ...] = ()  # sorted by pattern
    constraints: Constraints = ()
    kind = "object"

    def property(self, name: str) -> Property | None:
        return _sorted_entry(self.properties, name, _property_name)

    def pattern_schema(self, pattern: str) -> "Node | None":
        """The schema of the entry for `pattern`, or None."""
        entry = _sorted_entry(self.pattern_properties, pattern, _entry_pattern)
        return None if entry is None else entry[1]


@dataclass(frozen=True, slots=True)
class Map:
    values: "Node"
    constraints: Constraints = ()
    kind = "map"


@dataclass(frozen=True, slots=True)
class Array:
    items: "Node"
    constraints: Constraints = ()
    kind = "array"


@dataclass(frozen=True, slots=True)
class Tuple:
    items: tuple["Node", ...]
    rest: "Node"  # Never: no further items; Opaque: anything; else the schema of further items
    constraints: Constraints = ()
    kind = "tuple"


@dataclass(frozen=True, slots=True)
class Alternative:
    node: "Node"
    # x-persistence-attribution: a qualified kind whose unknown instances readers preserve.
    qualified: bool = False
    # Wire values (canonical JSON texts, sorted) the union's discriminator mapping binds to this alternative:
    # the mapping is structure by its target, so a value stays bound to what it selects whatever that is named.
    tags: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Union:
    alternatives: tuple[Alternative, ...]
    exclusive: bool = False  # oneOf (exactly one) rather than anyOf (at least one)
    # x-persistence-source policy version: readers preserve unknown kinds of this slot.
    policy: int | None = None
    # Canonical JSON {"propertyName", "values"}: the discriminating property, and mapping values whose target
    # is no alternative of the union (values bound to an alternative are its `tags`).
    discriminator: str | None = None
    # Where the alternatives were written, for reports only (no structure: equality and digests ignore it):
    # "oneOf" or "anyOf", "" for the schema's own keywords (a list of types, keywords without a type), None
    # when not known. A oneOf of disjoint alternatives is not exclusive, yet it was written as a oneOf.
    keyword: str | None = field(default=None, compare=False)
    kind = "union"


@dataclass(frozen=True, slots=True)
class Intersection:
    operands: tuple["Node", ...]
    # Where each operand was written, for reports only (no structure: equality and digests ignore it): its
    # position in `allOf`, or None for keywords of the schema itself beside it (`$ref`, `anyOf`, `not`,
    # `type` and its keywords, unknown keywords); empty when not known.
    positions: tuple[int | None, ...] = field(default=(), compare=False)
    kind = "intersection"


@dataclass(frozen=True, slots=True)
class Applicator:
    """A schema-valued keyword that applies subschemas without being a type of its own.

    `not` (one operand), `if-then-else` (three: if, then, else, an absent one being Opaque),
    `contains`, `propertyNames` (one each) and `dependentSchemas` (one per property name in `names`).
    It stands as an operand of an intersection next to the node it constrains.
    """

    keyword: str
    operands: tuple["Node", ...]
    names: tuple[str, ...] = ()
    kind = "applicator"


@dataclass(frozen=True, slots=True)
class Opaque:
    """No visible structure (any value), possibly with constraints the adapter does not interpret."""

    constraints: Constraints = ()
    kind = "opaque"


@dataclass(frozen=True, slots=True)
class Never:
    kind = "never"


Node = _TypingUnion[Ref, Primitive, Literal, Enum, Object, Map, Array, Tuple, Union, Intersection, Applicator, Opaque,
                    Never]

OPEN = Opaque()
NEVER = Never()


@dataclass(frozen=True, slots=True)
class NamedType:
    key: str  # unique within a graph; names never enter a digest
    name: str
    node: Node
    description: str | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class Root:
    id: str  # <source>:<Name>
    type_key: str
    role: str = "record"


def _slot_init(cls: type) -> type:
    """Give a frozen dataclass with slots an `__init__` that stores each field through its slot's own setter.

    The generated `__init__` of a frozen dataclass stores each field with `object.__setattr__(self, name, value)`
    (a global and an attribute lookup, then the generic attribute protocol finding the slot by name), since its
    own `__setattr__` refuses: half the cost of making a node, and reading a large source makes a hundred
    thousand of them. The slot's setter stores the same value in the same place. The signature (names, order,
    defaults) is the generated one's; equality, hashing, `replace` and the refusal to assign stay the
    dataclass's own."""
    namespace: dict = {}
    parameters = []
    stores = []
    for position, each in enumerate(fields(cls)):
        if not each.init or each.default_factory is not MISSING or each.kw_only:
            raise TypeError(f"{cls.__name__}.{each.name}: only plain fields are supported")  # pragma: no cover
        namespace[f"_set{position}"] = cls.__dict__[each.name].__set__
        if each.default is MISSING:
            parameters.append(each.name)
        else:
            namespace[f"_default{position}"] = each.default
            parameters.append(f"{each.name}=_default{position}")
        stores.append(f" _set{position}(self, {each.name})")
    source = f"def __init__(self, {', '.join(parameters)}):\n" + ("\n".join(stores) or " pass") + "\n"
    exec(source, namespace)  # (as dataclasses itself makes __init__: a function of these very parameters)
    init = namespace["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__module__ = cls.__module__
    init.__annotations__ = {**{each.name: each.type for each in fields(cls)}, "return": None}
    cls.__init__ = init
    return cls


for _kind in (Ref, Primitive, Literal, Enum, Property, Object, Map, Array, Tuple, Alternative, Union, Intersection,
              Applicator, Opaque, NamedType, Root):
    _slot_init(_kind)


# Direct children per node kind; nodes of the other kinds have none.
_CHILDREN = {
    Object: lambda node: [p.node for p in node.properties] + [n for _, n in node.pattern_properties]
    + [node.additional],
    Map: lambda node: [node.values],
    Array: lambda node: [node.items],
    Tuple: lambda node: [*node.items, node.rest],
    Union: lambda node: [a.node for a in node.alternatives],
    Intersection: lambda node: list(node.operands),
    Applicator: lambda node: list(node.operands),
}


def children(node: Node) -> list[Node]:
    """Direct child nodes, in a fixed order (used by walks that must not recurse per kind)."""
    of = _CHILDREN.get(node.__class__)
    return of(node) if of is not None else []


def references(node: Node) -> set[str]:
    """Keys of the named types a node refers to directly (without following them)."""
    found: set[str] = set()
    stack = [node]
    while stack:
        current = stack.pop()
        kind = current.__class__
        if kind is Ref:
            found.add(current.target)
        else:
            of = _CHILDREN.get(kind)
            if of is not None:
                stack.extend(of(current))
    return found
