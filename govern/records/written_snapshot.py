"""Reading a snapshot in the layout govern writes, without the general JSON Schema adapter.

`govern verify` reads the snapshot of every record, and through the JSON Schema adapter that cost several
times what reading the record's files does: the adapter indexes identifiers and anchors, resolves every
reference through base URIs, tracks locations to name them, and normalizes whatever JSON Schema it is given.
A snapshot govern wrote is different: it is the export (`export_node`) of nodes the adapter normalized
already, in a few shapes, with references only of the form `#/$defs/<name>` inside one resource per source.

This reader accepts exactly those shapes and builds the graph the adapter builds from them. Wherever the
adapter normalizes on the way (unions, intersections, constraint texts, enum values) it calls the
adapter's own functions, so the two cannot drift apart. Anything else (a hand edit, another layout, a
keyword outside these shapes, a name the adapter would read through URI rules, a depth near the adapter's
limit, anything the adapter would refuse) makes it decline, and the adapter reads the snapshot as before,
with its own messages. A test checks on random snapshots and on randomly edited ones that this reader either
declines or gives the adapter's graph (tests/records/test_written_snapshot.py).
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from govern.errors import InputError
from govern.model.canonical import canonical_json, normalize_json_value
from govern.model.fingerprint import DOMAINS
from govern.model.graph import TypeGraph
from govern.model.nodes import (
    NEVER, OPEN, Alternative, Applicator, Array, Enum, Literal, Map, NamedType, Never, Node, Object, Opaque,
    Primitive, Property, Ref, Root, Tuple, Union, make_constraints,
)
from govern.sources.jsonschema import (
    ATTRIBUTION, DISCRIMINATOR, MAX_DEPTH, NOT_TYPE, NUMBER_KEYWORDS, RESERVED, SOURCE_POLICY, STRING_KEYWORDS,
    VERSION_MARKER, ZERO_LOWER_BOUNDS, _all_of, _normalized_union, _reject_reference_loops, bind_discriminator, event_roots_of,
)
from govern.process import long_lived
from govern.reader import compact_serializer, kept_text
from govern.records.snapshot import DIALECT, EVENT_ROOTS, FORMAT_VERSION, INVENTORY_FORMAT, ROOTS, TYPE_DIGESTS
from govern.sources.refs import escape_token, unescape_token

# Keys of a snapshot's resource per source (see snapshot_document); anything else is left to the adapter.
_RESOURCE_KEYS = frozenset({"$schema", "$id", "$defs", FORMAT_VERSION, INVENTORY_FORMAT, EVENT_ROOTS, TYPE_DIGESTS})
# A digest as govern writes it.
_DIGEST = re.compile(r"sha256:[0-9a-f]{64}")
# Type names read here: the adapter reaches every type through a URI fragment, where percent escapes, white
# space and brackets have URI meanings; names with other characters are left to it.
_NAME = re.compile(r"[A-Za-z0-9_.:~@+/-]+")
_REFERENCE_PREFIX = "#/$defs/"
# Resource identifiers as govern writes them (`urn:govern:record:<id>:<source>`).
_RESOURCE_ID = re.compile(r"urn:govern:record:[A-Za-z0-9_.:@+-]+")
# Deeper than this, the adapter decides (it refuses schemas nested beyond MAX_DEPTH).
_DEPTH = MAX_DEPTH - 8
# Schemas whose compact text is at most this long are read once per resource (see _Reader.node); only those
# with at most _SMALL_KEYS keywords are written out to tell, so no schema of many keywords is written out.
_SMALL_TEXT = 256
_SMALL_KEYS = 16
# How deep such a schema nests at most: each level is an object with a key at least (`{"":` and `}`).
_SMALL_NESTING = _SMALL_TEXT // 5 + 1
# Small schemas are shared only above this depth: reading one there cannot reach the depth limit.
_SHARED_DEPTH = _DEPTH - _SMALL_NESTING
# Constraint keywords read per JSON type, each as the adapter keeps it: verbatim as a constraint.
_PRIMITIVE_KEYWORDS = {
    "string": STRING_KEYWORDS - {"contentSchema"},
    "integer": NUMBER_KEYWORDS | {"format"},
    "number": NUMBER_KEYWORDS | {"format"},
    "boolean": frozenset(),
    "null": frozenset(),
}
_OBJECT_CONSTRAINTS = ("minProperties", "maxProperties", "dependentRequired")
_OBJECT_KEYS = frozenset({"type", "properties", "required", "patternProperties", "additionalProperties",
                          *_OBJECT_CONSTRAINTS})
_ARRAY_CONSTRAINTS = ("minItems", "maxItems", "uniqueItems")
_ARRAY_KEYS = frozenset({"type", "items", "prefixItems", *_ARRAY_CONSTRAINTS})
# The keywords of each kind of node that give no constraint.
_OBJECT_STRUCTURE = _OBJECT_KEYS - set(_OBJECT_CONSTRAINTS)
_ARRAY_STRUCTURE = _ARRAY_KEYS - set(_ARRAY_CONSTRAINTS)
_TYPE_ONLY = frozenset({"type"})
# Keywords without `type`, per the type the adapter infers from them (in its order), read here when all of
# them belong to that one type.
_TYPELESS = (("object", _OBJECT_KEYS - {"type"}), ("array", _ARRAY_KEYS - {"type"}),
             ("string", _PRIMITIVE_KEYWORDS["string"]), ("number", NUMBER_KEYWORDS))
_ANY_OBJECT = Object((), OPEN)
_ANY_ARRAY = Array(OPEN)
_SINGLE_APPLICATORS = ("not", "contains", "propertyNames")
# Keywords the adapter does not interpret, which it keeps verbatim as constraints of the node they stand in:
# vendor extensions (not govern's own x-persistence- and x-govern- vocabularies, but the format version marker,
# which only sources are read for), and the model's marker of a value not of a type.
_GOVERN_PREFIXES = ("x-persistence-", "x-govern-")
_SCALARS = (str, int, float, bool, type(None))


class _Decline(Exception):
    """Not in the layout read here: the adapter reads the snapshot."""


def read_written_snapshot(document: Any, origin: str) -> list[TypeGraph] | None:
    """The graphs `load_snapshot` gives for a snapshot in the layout govern writes, else None."""
    try:
        with long_lived():  # the graphs are kept, and their nodes hold no reference cycle
            return _graphs(document, origin)
    except _Decline:
        return None


def _graphs(document: Any, origin: str) -> list[TypeGraph]:
    roots_table = document.get(ROOTS) if document.__class__ is dict else None
    resources = document.get("$defs") if document.__class__ is dict else None
    if roots_table.__class__ is not dict or resources.__class__ is not dict:
        raise _Decline
    by_source: dict[str, dict[str, tuple[str, str]]] = {}
    for root_id, entry in roots_table.items():
        if entry.__class__ is not dict or not all(entry.get(key).__class__ is str for key in ("source", "type", "role")):
            raise _Decline
        by_source.setdefault(entry["source"], {})[root_id] = (entry["type"], entry["role"])
    return [_graph(source, roots, resources.get(source), origin) for source, roots in sorted(by_source.items())]


def _graph(source: str, roots: dict[str, tuple[str, str]], resource: Any, origin: str) -> TypeGraph:
    if resource.__class__ is not dict or not _RESOURCE_KEYS.issuperset(resource) \
            or resource.get("$schema") != DIALECT \
            or not (isinstance(resource.get("$id"), str) and _RESOURCE_ID.fullmatch(resource["$id"])):
        raise _Decline
    table = resource.get("$defs")
    if table.__class__ is not dict or not all(_NAME.fullmatch(name) for name in table):
        raise _Decline
    format_version = resource.get(FORMAT_VERSION)
    domain = resource.get(INVENTORY_FORMAT)
    events = resource.get(EVENT_ROOTS, {})
    if not (format_version is None or format_version.__class__ in (str, int)) \
            or (domain is not None and (domain.__class__ is not int or domain not in DOMAINS)) \
            or events.__class__ is not dict or not all(key.__class__ is str and key in table for key in events.values()):
        raise _Decline
    label = f"{origin}#/$defs/{source}"
    reader = _Reader(table)
    nodes = {name: reader.node(table[name], 0) for name in sorted(table)}
    locations = {name: f"{label}#/$defs/{escape_token(name)}" for name in nodes}
    try:
        _reject_reference_loops(nodes, locations, label)
    except InputError:
        raise _Decline from None  # the adapter refuses it, with its own message
    declared: dict[str, tuple[str, str]] = {}
    for root_id, (type_name, role) in roots.items():
        if type_name not in table:
            raise _Decline
        declared[root_id.partition(":")[2]] = (type_name, role)
    root_objects = {f"{source}:{root_name}": Root(f"{source}:{root_name}", type_name, role)
                    for root_name, (type_name, role) in sorted(declared.items())}
    graph = TypeGraph(source=source, types={name: NamedType(name, name, node) for name, node in nodes.items()},
                      roots=root_objects, format_version=format_version, origin=label,
                      locations=dict(sorted(locations.items(), key=lambda item: item[1])),
                      event_roots=event_roots_of(root_objects.values()))
    event_roots = {key: root_id for root_id, key in sorted(events.items(), reverse=True)}
    graph = replace(graph, declared_format=domain, event_roots={**event_roots, **graph.event_roots})
    recorded = resource.get(TYPE_DIGESTS)
    if recorded is not None:
        # One digest per type, each as govern writes it; anything else is a hand edit, left to the adapter,
        # which hashes the types itself.
        if recorded.__class__ is not dict or recorded.keys() != table.keys() \
                or not all(value.__class__ is str and _DIGEST.fullmatch(value) for value in recorded.values()):
            raise _Decline
        graph.take_recorded_digests(recorded)
    return graph


class _Reader:
    """Nodes of one resource's schemas; references name its `$defs` entries."""

    def __init__(self, table: dict):
        self.table = table
        self.refs: dict[str, Ref] = {}  # by the reference as written
        # Small schemas by content (see `node`): a large snapshot repeats a few of them thousands of times
        # ({"type": "string"}, a reference, a list of references to one type). Each is read once and its node
        # shared, as the adapter shares such nodes, which also lets digests reuse their work by node.
        self.small: dict[bytes, Node] = {}
        # Properties by (name, node, required): the same property recurs across the types of a large snapshot,
        # and one immutable object serves them all, as in the adapter (the key's node identity stays its own:
        # the property kept holds the node).
        self.properties: dict[tuple[str, int, bool], Property] = {}
        # The same properties by (name, their schema's compact text, required), for small schemas (see `_object`).
        self.by_text: dict[tuple[str, bytes, bool], Property] = {}
        self.dumps = compact_serializer()

    def node(self, schema: Any, depth: int) -> Node:
        """The node of a schema at `depth`. A small schema is read once per resource, keyed by its compact
        JSON text (orjson's, None for a larger one or one orjson cannot write). Within one resource a
        reference names the same type wherever it stands, so a schema's reading depends on its content alone:
        its keys and values in order, each value with its class, since `1`, `1.0` and `true` are equal in
        Python but not in JSON, which the text keeps apart (and floats by their shortest text, which tells
        `-0.0` from `0.0`). Unlike the adapter's key, no keyword is left out: what makes this reader decline
        must make it decline wherever it stands."""
        if schema.__class__ is dict:
            # Only where reading it could not reach the depth limit (a small schema nests no deeper than
            # _SMALL_NESTING levels): a shared node must be what reading it here gives. A named type or an
            # operand holding properties is read where it stands, as the adapter converts it (its text, as large
            # as the type, seldom repeats, and writing it cost a sixth of reading the snapshot).
            if depth < 2 and "properties" in schema:
                return self._read(schema, depth)
            if depth < _SHARED_DEPTH and len(schema) <= _SMALL_KEYS and self.dumps is not None:
                try:
                    key = self.dumps(schema)
                except TypeError:  # orjson.JSONEncodeError: an integer beyond 64 bits, a lone surrogate
                    key = None
                if key is not None and len(key) <= _SMALL_TEXT:
                    known = self.small.get(key)
                    if known is None:
                        known = self.small[kept_text(key)] = self._read(schema, depth)
                    return known
            elif depth > _DEPTH:
                raise _Decline
            return self._read(schema, depth)
        if depth > _DEPTH:
            raise _Decline
        if schema is True:
            return OPEN
        if schema is False:
            return NEVER
        raise _Decline

    def _read(self, schema: dict, depth: int) -> Node:
        if "type" in schema:
            kind = schema["type"]
            if kind == "object" and kind.__class__ is str:
                return self._object(schema, depth)
            if kind == "array" and kind.__class__ is str:
                return self._array(schema, depth)
            return _primitive(kind, schema, "type")
        if len(schema) == 1:
            (keyword, value), = schema.items()
            if keyword == "$ref":
                return self._ref(value)
            if keyword == "const":
                return Literal(canonical_json(normalize_json_value(value)))
            if keyword == "enum":
                return _enum(value)
            if keyword == "allOf":
                operands = [self.node(operand, depth + 1) for operand in _schemas(value)]
                return _all_of(operands, (0, len(operands)))
            if keyword in _SINGLE_APPLICATORS:
                return Applicator(keyword, (self.node(value, depth + 1),))
        if "anyOf" in schema or "oneOf" in schema:
            return self._union(schema, depth)
        if schema.keys() == {"if", "then", "else"}:
            return Applicator("if-then-else", tuple(self.node(schema[keyword], depth + 1)
                                                    for keyword in ("if", "then", "else")))
        if all(_kept_verbatim(key) for key in schema):
            return Opaque(_constraints(schema, ())) if schema else OPEN
        return self._typeless(schema, depth)

    def _typeless(self, schema: dict, depth: int) -> Node:
        """Keywords of one JSON type written without `type` (see snapshot._typeless): they constrain only
        values of that type, which the adapter reads as that type or any value not of it."""
        kind = next((kind for kind, keywords in _TYPELESS if keywords.issuperset(schema)), None)
        if kind is None:
            raise _Decline  # keywords of several types, or with others: the adapter decides
        node = self._object(schema, depth) if kind == "object" else self._array(schema, depth) \
            if kind == "array" else _primitive(kind, schema, None)
        if node in (_ANY_OBJECT, _ANY_ARRAY, Primitive(kind)):
            return OPEN  # `{"properties": {}}` constrains nothing
        return Union((Alternative(node), Alternative(Opaque(make_constraints({NOT_TYPE: kind})))), keyword="")

    def _ref(self, reference: Any) -> Ref:
        ref = self.refs.get(reference) if reference.__class__ is str else None
        if ref is None:
            ref = self.refs[reference] = Ref(self._target(reference))
        return ref

    def _target(self, reference: Any) -> str:
        if reference.__class__ is not str or not reference.startswith(_REFERENCE_PREFIX):
            raise _Decline
        token = reference[len(_REFERENCE_PREFIX):]
        name = unescape_token(token)
        if escape_token(name) != token or name not in self.table:
            raise _Decline
        return name

    def _object(self, schema: dict, depth: int) -> Node:
        if not (_OBJECT_KEYS.issuperset(schema) or all(key in _OBJECT_KEYS or _kept_verbatim(key) for key in schema)):
            raise _Decline
        declared = schema.get("properties", {})
        required = schema.get("required", [])
        if declared.__class__ is not dict or required.__class__ is not list \
                or not all(name.__class__ is str for name in required):
            raise _Decline
        required_names = set(required)
        if not required_names.issubset(declared):
            raise _Decline  # a required name the object does not declare: how it counts depends on the content model
        properties = []
        shared, node, below = self.properties, self.node, depth + 1
        # A small property schema (small as `node` counts it: within _SHARED_DEPTH, of few keys and a short text) is
        # shared by its text, and its property is found by its name, that text and whether it is required: most
        # properties of a large snapshot recur. A reference alone is its reference node (as `_read` makes it), found
        # without writing its text. (Unlike `node` near the top, an object is shared here too: a property's inline
        # object recurs across the types.)
        by_text = self.by_text if below < _SHARED_DEPTH and self.dumps is not None else None
        for name in sorted(declared):
            sub = declared[name]
            if sub.__class__ is dict and RESERVED in sub:
                if sub != {"not": {}, RESERVED: True} or name in required_names:
                    raise _Decline
                properties.append(Property(name, NEVER, False, True))
                continue
            required_name = name in required_names
            text = None
            if by_text is not None and sub.__class__ is dict and len(sub) <= _SMALL_KEYS:
                if len(sub) == 1 and "$ref" in sub:
                    child = self._ref(sub["$ref"])
                else:
                    try:
                        text = self.dumps(sub)
                    except TypeError:  # orjson.JSONEncodeError: as `node` takes it
                        pass
                    if text is None or len(text) > _SMALL_TEXT:
                        text = None
                        child = self._read(sub, below)  # (what `node` does with a larger schema, or one orjson refuses)
                    else:
                        prop = by_text.get((name, text, required_name))
                        if prop is not None:
                            properties.append(prop)
                            continue
                        text = kept_text(text)
                        child = self.small.get(text)
                        if child is None:
                            child = self.small[text] = self._read(sub, below)
            else:
                child = node(sub, below)
            key = (name, id(child), required_name)
            prop = shared.get(key)
            if prop is None:
                prop = shared[key] = Property(name, child, required_name)
            if text is not None:
                by_text[(name, text, required_name)] = prop
            properties.append(prop)
        patterns = schema.get("patternProperties", {})
        if patterns.__class__ is not dict:
            raise _Decline
        pattern_nodes = tuple((pattern, self.node(patterns[pattern], depth + 1)) for pattern in sorted(patterns))
        additional = self.node(schema.get("additionalProperties", True), depth + 1)
        constraints = _constraints(schema, _OBJECT_CONSTRAINTS, _OBJECT_STRUCTURE)
        if not properties and not pattern_nodes and not isinstance(additional, (Opaque, Never)):
            return Map(additional, constraints)
        return Object(tuple(properties), additional, pattern_nodes, constraints)

    def _array(self, schema: dict, depth: int) -> Node:
        if not (_ARRAY_KEYS.issuperset(schema) or all(key in _ARRAY_KEYS or _kept_verbatim(key) for key in schema)):
            raise _Decline
        items = schema.get("items")
        if items.__class__ is list:
            raise _Decline  # draft-04's positional items
        tail = OPEN if items is None else self.node(items, depth + 1)
        constraints = _constraints(schema, _ARRAY_CONSTRAINTS, _ARRAY_STRUCTURE)
        prefix = schema.get("prefixItems")
        if prefix is None or prefix == []:
            return Array(tail, constraints)
        return Tuple(tuple(self.node(item, depth + 1) for item in _schemas(prefix)), tail, constraints)

    def _union(self, schema: dict, depth: int) -> Node:
        keyword = "oneOf" if "oneOf" in schema else "anyOf"
        if not {keyword, SOURCE_POLICY, DISCRIMINATOR}.issuperset(schema):
            raise _Decline
        alternatives = []
        for alternative in _schemas(schema[keyword]):
            qualified = alternative.__class__ is dict and ATTRIBUTION in alternative
            if qualified:
                if alternative[ATTRIBUTION] is not True:
                    raise _Decline
                alternative = {key: value for key, value in alternative.items() if key != ATTRIBUTION}
            alternatives.append(Alternative(self.node(alternative, depth + 1), qualified))
        union = Union(tuple(alternatives), exclusive=keyword == "oneOf", keyword=keyword)
        if SOURCE_POLICY in schema or DISCRIMINATOR in schema:
            union = self._discriminated(replace(union, policy=_policy(schema.get(SOURCE_POLICY))),
                                        schema.get(DISCRIMINATOR))
        return _normalized_union(union)

    def _discriminated(self, union: Union, discriminator: Any) -> Union:
        """As the adapter binds a discriminator's mapping: each value to the alternative its target is."""
        if discriminator is None:
            return union
        if discriminator.__class__ is not dict or discriminator.get("propertyName").__class__ is not str:
            raise _Decline
        mapping = discriminator.get("mapping", {})
        unbound = discriminator.get("values", [])
        if mapping.__class__ is not dict or unbound.__class__ is not list \
                or not all(value.__class__ is str for value in unbound):
            raise _Decline
        return bind_discriminator(union, discriminator["propertyName"], mapping, unbound,
                                  lambda value, reference: self._target(reference))


def _primitive(kind: Any, schema: dict, type_keyword: str | None) -> Primitive:
    keywords = _PRIMITIVE_KEYWORDS.get(kind) if kind.__class__ is str else None
    if keywords is None:
        raise _Decline
    if not all(key in keywords or key == type_keyword or _kept_verbatim(key) for key in schema):
        raise _Decline
    return Primitive(kind, _constraints(schema, keywords, _TYPE_ONLY if type_keyword else frozenset()))


def _kept_verbatim(key: str) -> bool:
    return key in (NOT_TYPE, VERSION_MARKER) or key.startswith("x-") and not key.startswith(_GOVERN_PREFIXES)


def _constraints(schema: dict, keywords, structure: frozenset = frozenset()) -> tuple:
    """The node's constraints as the adapter keeps them: the keywords of its type that are present and the
    keywords it does not interpret (`structure`: the node's keywords that are neither). Zero lower bounds
    (which it drops), boolean exclusive bounds (which it rewrites) and structured values are left to it."""
    if structure.issuperset(schema):
        return ()
    taken = {key: value for key, value in schema.items() if key in keywords or _kept_verbatim(key)}
    for key, value in taken.items():
        if not _plain(value) and not (value.__class__ is dict and all(item.__class__ is list and _plain(item)
                                                                      for item in value.values())):
            raise _Decline  # (the adapter looks for identifiers in objects: values that are lists hold none)
        if key in ZERO_LOWER_BOUNDS and value == 0 and value.__class__ is not bool:
            raise _Decline
        if key in ("exclusiveMinimum", "exclusiveMaximum") and value.__class__ is bool:
            raise _Decline
    return make_constraints(taken)


def _plain(value: Any) -> bool:
    """A scalar, or a list of scalars."""
    return value.__class__ in _SCALARS or value.__class__ is list and all(item.__class__ in _SCALARS for item in value)


def _enum(values: Any) -> Node:
    if values.__class__ is not list:
        raise _Decline
    texts = sorted({canonical_json(normalize_json_value(value)) for value in values})
    if len(texts) == 1:
        return Literal(texts[0])
    return Enum(tuple(texts)) if texts else NEVER


def _schemas(value: Any) -> list:
    if value.__class__ is not list or not value:
        raise _Decline
    return value


def _policy(policy: Any) -> int | None:
    if policy is None:
        return None
    if policy.__class__ is not dict or policy.keys() != {"policy"} or policy["policy"].__class__ is not int \
            or policy["policy"] < 1:
        raise _Decline
    return policy["policy"]
