"""JSON Schema adapter (2020-12, 2019-09, draft-07, draft-06, draft-04; OpenAPI schema objects too).

Each subschema becomes a node of the closed node set. Every `$defs`/`definitions` entry and every `$ref`
target becomes a named type, converted once, so extraction is linear in the size of the source.
Annotations (titles, descriptions, examples, defaults, comments) are not structure and are left out of
the model; every other keyword is either interpreted or kept verbatim as a constraint, so it still counts.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass, field, fields, is_dataclass, replace
from fnmatch import fnmatchcase
from functools import lru_cache
from operator import itemgetter
from pathlib import Path
from typing import Any, Callable, Mapping
from urllib.parse import urldefrag

from govern.config import SourcePolicy
from govern.errors import InputError, Problem
from govern.model.canonical import canonical_json, normalize_json_value
from govern.model.graph import TypeGraph
from govern.model.nodes import (
    NEVER, OPEN, Alternative, Applicator, Array, Enum, Intersection, Literal, Map, NamedType, Never, Node,
    Object, Opaque, Primitive, Property, Ref, Root, Tuple, Union, make_constraints,
)
from govern.process import keep_until_exit, long_lived, taken
from govern.reader import compact_serializer, kept_text
from govern.sources.refs import (
    REF_OVERRIDES_SIBLINGS, Document, SchemaSet, Target, _own_id, escape_token, reference_boundaries, target_at,
    urljoin,
)

# Deeper nesting than this is not a real schema; refusing it keeps every later walk within Python's limits.
MAX_DEPTH = 128

ANNOTATIONS = frozenset({
    "title", "description", "examples", "example", "$comment", "default", "deprecated", "externalDocs", "xml",
    "$schema", "$id", "$anchor", "$dynamicAnchor", "$vocabulary", "$defs", "definitions",
})
STRING_KEYWORDS = frozenset({"minLength", "maxLength", "pattern", "format", "contentEncoding",
                             "contentMediaType", "contentSchema"})
NUMBER_KEYWORDS = frozenset({"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"})
ARRAY_KEYWORDS = frozenset({"items", "prefixItems", "additionalItems", "minItems", "maxItems", "uniqueItems",
                            "minContains", "maxContains", "unevaluatedItems"})
OBJECT_KEYWORDS = frozenset({"properties", "required", "additionalProperties", "patternProperties",
                             "minProperties", "maxProperties", "dependentRequired", "dependencies",
                             "unevaluatedProperties"})
# Schema-valued keywords that become Applicator nodes, so names, annotations and order inside them are
# normalized like everywhere else.
APPLICATOR_KEYWORDS = ("not", "if", "then", "else", "contains", "propertyNames", "dependentSchemas")
_APPLICATORS = frozenset(APPLICATOR_KEYWORDS)
# Keywords that compose other schemas with this one.
_COMPOSITION = frozenset({"$ref", "$dynamicRef", "$recursiveRef", "allOf", "anyOf", "oneOf"})
_REFERENCE_KEYWORDS = ("$ref", "$dynamicRef", "$recursiveRef")
# Which unevaluated* keywords see what a schema evaluates (bits of _Context.sees). Where one does, keywords
# that evaluate every property (`additionalProperties`) or every item (`items`) differ from their absence
# even when they admit anything, so the adapter keeps them as the constraint `"additionalProperties": true`
# or `"items": true`; where none does, they are the same as absent and leave no trace.
SEEN_PROPERTIES = 1
SEEN_ITEMS = 2
# Applicators whose subschemas apply to the same instance location and whose evaluations unevaluated* sees.
_EVALUATING_APPLICATORS = frozenset({"if-then-else", "then", "else", "dependentSchemas"})
# Lower bounds whose zero admits every value: provably no constraint.
ZERO_LOWER_BOUNDS = ("minLength", "minItems", "minProperties")
# Keywords that constrain values of some JSON types only: beside a `type` admitting none of those types they
# apply to no value at all (`required` on an array). `format` is not among them: OpenAPI's int32 and
# int64 constrain numbers.
TYPE_SPECIFIC_KEYWORDS = (
    (frozenset({"object"}), OBJECT_KEYWORDS | {"propertyNames", "dependentSchemas"}),
    (frozenset({"array"}), ARRAY_KEYWORDS | {"contains"}),
    (frozenset({"string"}), STRING_KEYWORDS - {"format"}),
    (frozenset({"integer", "number"}), NUMBER_KEYWORDS),
)
# Dialects in which `dependencies` is a keyword: 2019-09 split it into dependentRequired and dependentSchemas.
DEPENDENCIES_DIALECTS = frozenset({"draft-04", "draft-06", "draft-07"})
PRIMITIVES = ("string", "integer", "number", "boolean", "null")
_TYPE_NAMES = frozenset(PRIMITIVES + ("object", "array"))
_PRIMITIVE_NAMES = frozenset(PRIMITIVES)
_JSON_TYPES = {"string": str, "boolean": bool, "null": type(None), "object": dict, "array": list}
_NAME_PATTERN = re.compile(r"^[A-Za-z_][A-Za-z0-9_.-]*$")

RESERVED = "x-persistence-reserved"
# The model's spelling of "any value not of type T": keywords written without `type` are this or the type.
NOT_TYPE = "not-type"
SOURCE_POLICY = "x-persistence-source"
ATTRIBUTION = "x-persistence-attribution"
VERSION_MARKER = "x-persistence-version"
# How snapshots store a discriminator: its property, its mapping to the exported types, unbound values.
DISCRIMINATOR = "x-govern-discriminator"
# The keywords with a branch of their own in the conversion of a schema that most schemas never take (markers,
# identifiers, dependencies, lower bounds that may be zero, unevaluated*, nullable, discriminators, policies, and
# the applicators): a schema with none of them skips those branches after one set operation.
_RARE_KEYWORDS = frozenset({RESERVED, ATTRIBUTION, "$id", "id", "dependencies", *ZERO_LOWER_BOUNDS,
                            "unevaluatedProperties", "unevaluatedItems", "$dynamicRef", "$recursiveRef", "nullable",
                            "discriminator", DISCRIMINATOR, SOURCE_POLICY, *APPLICATOR_KEYWORDS})
_CONTAINS = frozenset({"contains"})
# The span of a schema's parts that are allOf operands when it composes nothing.
_NO_ALLOF = (0, 0)
# A property not yet made from its text (a property left out is None).
_UNKNOWN = object()
# An object's `properties`, `required` or `patternProperties` where it has none (read, never changed).
_NO_PROPERTIES: dict = {}
_NO_NAMES: frozenset = frozenset()


# In a table of templates, a shape whose conversion made no template (see _by_template).
_NO_TEMPLATE = object()


@dataclass(frozen=True, slots=True)
class _Template:
    """A converted subschema that holds references, to make the nodes of subschemas that differ from it only in
    the types they name (see Converter._by_template)."""

    order: tuple[int, ...]  # which of the text's references each reference its conversion made was, in order
    offsets: tuple[int, ...]  # the depth below the subschema's parent at which each was made
    build: Callable[[Any], Node]  # the node with the text's references (reference nodes, in text order) in place


class _Context:
    """Where a schema is being converted. The JSON pointer is built only when asked for (messages and
    named types need it, the conversion of ordinary subschemas does not), which keeps the hot path lean."""

    __slots__ = ("document", "base", "depth", "composes", "composes_items", "sees", "passes", "binds_source",
                 "texts", "_parent", "_tokens", "_pointer")

    def __init__(self, document: Document, pointer: str | None, base: str, depth: int,
                 parent: "_Context | None" = None, tokens: tuple = (), sees: int = 0,
                 texts: "dict[bytes | tuple, Any] | None" = None):
        self.document = document
        self.base = base
        self.depth = depth
        # Whether the schema here also composes others ($ref, allOf, anyOf, oneOf, if, dependentSchemas), in
        # which case unevaluatedProperties sees their properties too and cannot be read as additionalProperties;
        # for unevaluatedItems, `contains` evaluates items too.
        self.composes = False
        self.composes_items = False
        # Which unevaluated* keywords (SEEN_PROPERTIES, SEEN_ITEMS) of enclosing schemas at the same instance
        # location see what this schema evaluates; `passes` adds this schema's own, for its subschemas there.
        self.sees = sees
        self.passes = sees
        # Whether the schema here is a source property its object may bind a policy on (x-persistence-source).
        self.binds_source = False
        # The converted subschemas by text of this place's base URI and dialect (see Converter._text_table);
        # a subschema stands in its parent's document, under its parent's base unless it declares its own.
        self.texts = texts
        self._parent = parent
        self._tokens = tokens
        self._pointer = pointer

    @property
    def pointer(self) -> str:
        if self._pointer is None:
            self._pointer = self._parent.pointer + "".join("/" + escape_token(str(token)) for token in self._tokens)
        return self._pointer

    def child(self, *tokens: str | int) -> "_Context":
        """A subschema applied to another instance location (a property, an item) or under `not`, whose
        evaluations no enclosing unevaluated* keyword sees."""
        return _Context(self.document, None, self.base, self.depth + 1, self, tokens, 0, self.texts)

    def beside(self, *tokens: str | int) -> "_Context":
        """A subschema applied to the same instance location (allOf, anyOf, oneOf, if-then-else,
        dependentSchemas): the unevaluated* keywords that see this schema's evaluations see its too."""
        return _Context(self.document, None, self.base, self.depth + 1, self, tokens, self.passes, self.texts)

    def fail(self, reason: str, hint: str | None = None) -> InputError:
        return InputError(Problem(self.document.label, f"at #{self.pointer}: {reason}", hint=hint))


@dataclass
class Converter:
    """Converts schemas of one SchemaSet into named types, each location exactly once."""

    schemas: SchemaSet
    openapi: bool = False
    # Keyword patterns (fnmatch) the source declares annotation-only: left out of the structure like titles.
    annotations: tuple[str, ...] = ()
    # The conditions of policy bindings. None reads a recorded snapshot as it was recorded: its source was
    # held to the conditions when it was extracted, and history is not re-judged by today's settings.
    source_policy: SourcePolicy | None = SourcePolicy()
    # Whether every value is a JSON value as the reader makes it. Values built by code (pydantic) may hold
    # tuples, which a compact serialization writes as lists, so their subschemas are not shared by text.
    values_from_text: bool = True
    # Location (or variant key) -> node; a registered type not yet converted holds None (see `named`).
    types: dict[str, Node | None] = field(default_factory=dict)
    descriptions: dict[str, str] = field(default_factory=dict)
    preferred_names: dict[str, str] = field(default_factory=dict)
    notes: list[tuple[str, str, str]] = field(default_factory=list)  # see TypeGraph.notes
    # What `named` registered and `run` has still to convert: (target, depth, sees, key), or the target alone for
    # (target, 0, 0, its location). The context of each is made when it is converted, so a source of many
    # definitions does not hold one for each of them while it reads.
    _pending: list[Target | tuple[Target, int, int, str]] = field(default_factory=list)
    # Key -> location of the named types converted for a reference an unevaluated* sees (see `named`).
    _variants: dict[str, str] = field(default_factory=dict)
    # Schemas without subschemas, by content (see _leaf_key): converted once, their node shared.
    _leaves: dict[tuple, Node] = field(default_factory=dict)
    # Subschemas by the base URI where they stand and the dialect, then by their compact text (see
    # `_converted_text`): converted once. The same tables hold the templates of subschemas that hold references,
    # by their text with the references' strings left out and which of them name the same type (tuples, see
    # `_by_template`).
    _texts: dict[tuple[str, str], dict[Any, Any]] = field(default_factory=dict)
    # Properties by name, node (identity), flags and description (see _object): each made once.
    _properties: dict[tuple, Property] = field(default_factory=dict)
    # Properties by the base URI and dialect where they stand, then by requirement (optional, required), name
    # and their schema's text (see _object); None for a property left out.
    _text_properties: dict[tuple[str, str], tuple[dict, dict]] = field(default_factory=dict)
    # One reference node per target location, all of them made here: finish_graph names them in place.
    _refs: dict[str, Ref] = field(default_factory=dict)
    # The compact serialization that keys subschemas by their text (None: values built by code, see above).
    _dumps: Callable[[Any], bytes] | None = field(default=None, init=False, repr=False)
    # The references made (key, depth, sees), in order, while conversions that may become templates run
    # (`_recording` of them, nested).
    _trail: list[tuple[str, int, int]] = field(default_factory=list)
    _recording: int = 0
    # The hashes of the template keys seen once (see `_by_template`).
    _shapes: set[int] = field(default_factory=set)

    def __post_init__(self) -> None:
        self._dumps = compact_serializer() if self.values_from_text else None

    def tables(self) -> tuple:
        """The tables the conversion filled that outlive it, of no use once the graph is made: for a large source,
        hundreds of thousands of entries (see govern.process.keep_until_exit). The tables of shared subschemas and
        the resolver's targets were released when conversion ended (see release_conversion), and the schemas read
        when the types were named (SchemaSet.release_documents): the work that follows reuses that memory."""
        return self.types, self._refs, self._variants

    # --- named types -------------------------------------------------------------------------------

    def named(self, target: Target, depth: int = 0, sees: int = 0) -> str:
        """Register the target as a named type (converted later, once) and return its key: its location, or,
        where unevaluated* keywords see what it evaluates and that may differ from what its conversion
        elsewhere shows (`sees`), the key of a variant converted for them."""
        location = target.location
        key = location
        if sees and _may_hide_evaluation(target.schema, sees):
            key = f"{location}{_SEEN_BY}{sees}"
            self._variants[key] = location
        types = self.types
        if key not in types:  # (the table of types is that of registered keys: no set of them besides it)
            types[key] = None
            # (most are definitions, registered at depth 0 for no unevaluated* keyword: the target alone stands
            # for them, a tuple for the others)
            self._pending.append(target if not depth and not sees else (target, depth, sees, key))
        return key

    def named_at(self, document: Document, pointer: str) -> str:
        target = self.schemas.resolve("#" + pointer, document.uri, document, pointer) if pointer else target_at(
            document, "", document.uri, document.content)
        return self.named(target)

    def run(self) -> None:
        pending, types, descriptions, convert = self._pending, self.types, self.descriptions, self.convert
        while pending:
            target = pending.pop()
            if target.__class__ is Target:
                depth = sees = 0
                key = target.location
            else:
                target, depth, sees, key = target
            schema = target.schema
            if isinstance(schema, dict):
                description = schema.get("description")
                if isinstance(description, str):
                    descriptions[key] = description
            types[key] = convert(schema, _Context(target.document, target.pointer, target.base, depth, None, (), sees))

    def release_conversion(self) -> None:
        """Conversion is over (`run` emptied the queue): drop what only converting reads, the tables of shared
        subschemas and the resolver's targets, which hold the parsed documents' schemas. Naming the types and
        building the graph then reuse that memory. For a source of many small definitions it is much of what
        reading holds: several times the few dozen bytes of input each definition takes.
        Where the command keeps what it read to the end of the process (see keep_until_exit), the tables are
        handed over instead of freed, as they would be at the end of reading."""
        keep_until_exit(self._texts, self._text_properties, self._properties, self._leaves, self._shapes,
                        self.schemas.release_targets())
        self._texts, self._text_properties, self._properties, self._leaves = {}, {}, {}, {}
        self._shapes = set()

    def register_definitions(self, document: Document) -> None:
        """Every `$defs`/`definitions` entry of a document is a named type, referenced or not."""
        content = document.content
        if not isinstance(content, dict):
            return
        for keyword in ("$defs", "definitions"):
            if isinstance(content.get(keyword), dict):
                for target in self.schemas.definitions(document, keyword):
                    self.named(target)

    # --- schemas -------------------------------------------------------------------------------------

    def convert(self, schema: Any, context: _Context) -> Node:
        # Most subschemas of a large source are a few leaves repeated thousands of times ({"type": "string"}):
        # each distinct one is converted once and its (immutable) node shared, which also lets digests and
        # renderings keyed by node reuse their work.
        key = _leaf_key(schema, context.document.dialect) if schema.__class__ is dict and not context.sees \
            and _NO_LEAF.isdisjoint(schema) else None
        if key is None:
            return self._convert(schema, context)
        known = self._leaves.get(key)
        if known is not None and context.depth <= MAX_DEPTH:
            return known
        return self._convert_new(schema, context, key)

    def convert_child(self, schema: Any, parent: _Context, *tokens: str | int) -> Node:
        """`convert(schema, parent.child(*tokens))`; the child's context is made only when the schema is converted
        anew (most subschemas of a large source repeat one converted before)."""
        if schema.__class__ is not dict or parent.depth >= MAX_DEPTH:
            if parent.depth < MAX_DEPTH and (schema is True or schema is False):
                return OPEN if schema else NEVER
            return self.convert(schema, parent.child(*tokens))
        dumps = self._dumps
        # An object holding properties that stands here (an operand, an alternative, an item, a map's values) is
        # converted where it stands: as a whole its text seldom repeats (a type-level object inside an allOf never
        # does, a repeated property holding it is found by its own text), while each of its properties is found
        # by its text. Serializing it, finding its references' spans and keeping its text cost more than that
        # (instructions of reading 1,000 benchmark types: -3.5 %; the GitHub REST description: -0.3 %).
        if dumps is not None and "properties" not in schema:
            try:
                text = dumps(schema)
            except TypeError:  # orjson.JSONEncodeError: an integer beyond 64 bits
                pass
            else:
                texts = parent.texts
                if texts is None:
                    texts = parent.texts = self._text_table(parent)
                return self._converted_text(schema, texts, text, parent, tokens)
        if len(schema) == 1 and not self.annotations:
            reference = schema.get("$ref")
            if reference.__class__ is str:
                target = self.schemas.known(reference, parent.base)
                if target is not None:
                    return self._reference(target, parent.depth + 1)
        key = _leaf_key(schema, parent.document.dialect)
        if key is not None:
            known = self._leaves.get(key)
            if known is not None:
                return known
            return self._convert_new(schema, parent.child(*tokens), key)
        return self._convert(schema, parent.child(*tokens))

    def _text_table(self, place: _Context) -> dict[bytes | tuple, Any]:
        """The subschemas converted under the base URI and dialect of a place, by their compact text, and the
        templates made there, by shape (see _by_template)."""
        key = (place.base, place.document.dialect)
        table = self._texts.get(key)
        if table is None:
            table = self._texts[key] = {}
        return table

    def _converted_text(self, schema: dict, texts: dict[bytes | tuple, Any], text: bytes, parent: _Context,
                        tokens: tuple, kept: bool = False) -> Node:
        """The node of a subschema read from text, by the base URI its references resolve against, the dialect
        (`texts`: the subschemas converted under them) and its compact text (which keeps every key, value and
        JSON type). Where a schema stands
        matters to its conversion only through those (references, identifiers and discriminator mappings
        resolve against the base), through its depth, and through a note naming its place: so a subschema
        that repeats is converted once, unless it might nest deeper than the limit where it stands now, and
        one whose conversion left a note is converted wherever it stands. A schema without subschemas
        converted before with other annotations (see _leaf_key) shares that node. `kept`: the text is a copy
        made to be kept already (see kept_text)."""
        node = texts.get(text)
        if node is not None and (parent.depth + (len(text) >> 1) < MAX_DEPTH or _fits(text, parent.depth)) \
                and not (self._recording and _REFERENCE_KEY in text):  # (a template records its references)
            return node
        if len(schema) == 1 and not self.annotations:
            reference = schema.get("$ref")
            if reference.__class__ is str:
                target = self.schemas.known(reference, parent.base)
                if target is not None:  # a reference resolved before, taken without a context of its own
                    node = texts[text if kept else kept_text(text)] = self._reference(target, parent.depth + 1)
                    return node
        refers = _REFERENCE_KEY in text
        leaf = None if refers else _leaf_key(schema, parent.document.dialect)
        if leaf is not None:
            node = self._leaves.get(leaf)
            if node is None:
                node = None if self.annotations else _plain_primitive(schema)
                if node is None:
                    node = self._convert_new(schema, parent.child(*tokens), leaf)
                else:
                    self._leaves[leaf] = node
        else:
            noted = len(self.notes)
            node = self._by_template(schema, texts, text, parent, tokens) if refers else \
                self._convert(schema, parent.child(*tokens))
            if len(self.notes) != noted:
                return node
        texts[text if kept else kept_text(text)] = node
        return node

    def _by_template(self, schema: dict, texts: dict, text: bytes, parent: _Context, tokens: tuple) -> Node:
        """The node of a subschema that holds references, read from text and converted below `parent`.

        Most such subschemas of a large source differ only in the types they name (`anyOf [ref, null]`, an array
        or a map of a reference, a oneOf of inline objects with references), and each converted anew costs some
        ten times one found by its text. What the conversion makes of a reference does not depend on its target:
        a reference node, registered as a named type at its depth; what it does with the reference nodes depends
        only on which of them are the same type (a repeated alternative or operand counts once). So a subschema
        whose text differs from that of one converted before (a template) only in its references' strings, and
        whose references name the same types where the template's do, is the template's node with the
        references replaced, its references registered in the same order and at the same depths as its own
        conversion would register them. A conversion becomes a template when it made each of its text's
        references once, left no note, and holds nothing whose conversion reads a target or moves the base
        references resolve against (_TARGET_READERS). The base and the dialect are those of `texts`, the table of
        the subschemas converted there, which holds the templates too."""
        spans = _reference_spans(text) if _fits(text, parent.depth) else None
        if spans is None:  # (where it might pass the depth limit, its own conversion says so)
            return self._convert(schema, parent.child(*tokens))
        skeleton, references = spans
        base = parent.base
        known = self.schemas.known
        # The templates of a place share the table of its subschemas' texts (keyed by tuples, never by texts).
        templates: dict = texts
        if len(references) == 1:
            target = known(references[0], base)
            if target is None:
                return self._convert(schema, parent.child(*tokens))
            key: Any = (skeleton, None)
            template = templates.get(key)
            if template is not None:
                if template is _NO_TEMPLATE:
                    return self._convert(schema, parent.child(*tokens))
                return template.build((self._reference(target, parent.depth + template.offsets[0]),))
        else:
            targets = [known(reference, base) for reference in references]
            if None in targets:
                return self._convert(schema, parent.child(*tokens))
            key = (skeleton, _same_targets(targets))
            template = templates.get(key)
            if template is not None:
                if template is _NO_TEMPLATE:
                    return self._convert(schema, parent.child(*tokens))
                depth = parent.depth
                made: list = [None] * len(targets)
                for position, offset in zip(template.order, template.offsets):
                    made[position] = self._reference(targets[position], depth + offset)
                return template.build(made)
        # A shape seen for the first time is only converted: most that never repeat are large (type-level objects
        # inside an allOf), and a template costs more than a conversion. (Its hash is remembered: another shape
        # of the same hash only becomes a template one conversion early.)
        shape = hash(key)
        if shape not in self._shapes:
            self._shapes.add(shape)
            return self._convert(schema, parent.child(*tokens))
        trail = self._trail
        start = len(trail)
        noted = len(self.notes)
        self._recording += 1
        try:
            node = self._convert(schema, parent.child(*tokens))
        finally:
            self._recording -= 1
        made = trail[start:]
        if not self._recording:
            del trail[:]
        template = self._template(node, made, references, parent, skeleton) \
            if len(made) == len(references) and len(self.notes) == noted else None
        # A shape refused once is converted plainly from now on: recording it again would refuse it again, and
        # while recording, no subschema inside it that holds a reference is found by its text.
        templates.setdefault(key, _NO_TEMPLATE if template is None else template)
        return node

    def _template(self, node: Node, made: list[tuple[str, int, int]], references: tuple[str, ...],
                  parent: _Context, skeleton: bytes) -> _Template | None:
        """The template of a converted subschema (see _by_template) that made one reference for each of its
        text's (`made`, in order), or None when it is none. `skeleton`: its text with the references' strings left
        empty, which is all that refusing depends on, so a shape refused once is refused at every occurrence (a
        reference's string names no keyword, even one that reads like one)."""
        if _TARGET_READERS.search(skeleton) is not None or (
                parent.document.dialect == "draft-04" and b'"id":"' in skeleton):
            return None
        base = parent.base
        targets = [self.schemas.known(reference, base) for reference in references]
        if None in targets:
            return None
        locations = [target.location for target in targets]
        unused = list(range(len(locations)))
        order = []
        offsets = []
        for key, depth, sees in made:
            if sees:
                return None
            for position in unused:
                if locations[position] == key:
                    unused.remove(position)
                    order.append(position)
                    offsets.append(depth - parent.depth)
                    break
            else:
                return None
        refs = tuple(self._refs[location] for location in locations)
        return _Template(tuple(order), tuple(offsets), _builder(node, refs))

    def convert_beside(self, schema: Any, parent: _Context, *tokens: str | int) -> Node:
        """`convert(schema, parent.beside(*tokens))`: a subschema at the parent's instance location. Where an
        unevaluated* sees what it evaluates, its conversion depends on that, so no shared conversion serves."""
        if not parent.passes:
            return self.convert_child(schema, parent, *tokens)
        return self._convert(schema, parent.beside(*tokens))

    def _convert_new(self, schema: Any, context: _Context, key: tuple | None) -> Node:
        node = self._convert(schema, context)
        if key is not None:
            self._leaves[key] = node
        return node

    def _reference(self, target: Target, depth: int, sees: int = 0) -> Ref:
        """The one reference node to a target (or to its variant for the unevaluated* that see it, `sees`),
        registered as a named type."""
        location = target.location
        # A reference node made before for the target: registered then (as its location, unless `sees`).
        ref = None if sees else self._refs.get(location)
        if ref is None:
            location = self.named(target, depth, sees)
            ref = self._refs.get(location)
            if ref is None:
                ref = self._refs[location] = Ref(location)
        if self._recording:
            self._trail.append((location, depth, sees))
        return ref

    def _convert(self, schema: Any, context: _Context) -> Node:
        if context.depth > MAX_DEPTH:
            raise context.fail(f"nests deeper than {MAX_DEPTH} schema levels",
                               hint="move nested parts into named definitions")
        if schema is True:
            return OPEN
        if schema is False:
            return NEVER
        if not isinstance(schema, dict):
            raise context.fail(f"a schema must be an object or a boolean, not {type(schema).__name__}")
        # Most schemas use none of the keywords with a branch of their own below: one set operation tells.
        rare = not _RARE_KEYWORDS.isdisjoint(schema)
        if rare:
            if RESERVED in schema:
                raise context.fail(f"{RESERVED} belongs on an optional property whose schema forbids every value")
            if ATTRIBUTION in schema and self.source_policy is not None:
                raise context.fail(f"{ATTRIBUTION} belongs on an alternative of a oneOf or anyOf bound by "
                                   f"{SOURCE_POLICY}",
                                   hint="mark the qualified kind where the source union lists it (pydantic: "
                                        "Annotated[Kind, Field(json_schema_extra=...)] inside the Union)")
            # A subschema with its own `$id` is an embedded resource: references inside it resolve against that
            # identifier, joined to its parent's base. At the top of a named type (no parent) the base given is
            # already the type's own, as the resolver found it (a relative identifier joined twice would name
            # another resource).
            own_id = _own_id(schema, context.document.dialect) if context._parent is not None else None
            if own_id and not own_id.startswith("#"):
                context.base = urldefrag(urljoin(context.base, own_id))[0]
                context.texts = None  # and subschemas are shared under that base
        rest = dict(schema) if ANNOTATIONS.isdisjoint(schema) else \
            {key: value for key, value in schema.items() if key not in ANNOTATIONS}
        if self.annotations:
            # govern's own x-persistence- vocabulary is structure whatever the patterns say.
            rest = {key: value for key, value in rest.items() if key.startswith("x-persistence-")
                    or not any(fnmatchcase(key, pattern) for pattern in self.annotations)}
        if rare and context.document.dialect == "draft-04" and isinstance(rest.get("id"), str):
            del rest["id"]  # draft-04 spells `$id` as `id`: an identifier, not structure
        if "$ref" in rest and len(rest) > 1 and context.document.dialect in REF_OVERRIDES_SIBLINGS:
            # Validators of these dialects ignore them; applying them would call a real change unchanged.
            # govern's own x-persistence- vocabulary is policy, not validation, and stays.
            ignored = sorted(key for key in rest if key != "$ref" and not key.startswith("x-persistence-"))
            if ignored:
                self.notes.append((f"{context.document.label}#{context.pointer}", ", ".join(ignored),
                                   context.document.dialect))
                rest = {key: value for key, value in rest.items() if key not in ignored}
        if rare:
            if "dependencies" in rest and context.document.dialect in DEPENDENCIES_DIALECTS:
                rest = _split_dependencies(rest, context)
            for bound in ZERO_LOWER_BOUNDS:
                if rest.get(bound) == 0 and not isinstance(rest[bound], bool):
                    del rest[bound]  # every string, array and object has at least zero of them
        declared = rest.get("type")
        if declared is not None:
            excluded = _EXCLUDED_BY_TYPE.get(declared) if declared.__class__ is str else None
            if excluded is None:
                rest = _without_excluded_keywords(rest, declared)
            elif not excluded.isdisjoint(rest):
                rest = {key: value for key, value in rest.items() if key not in excluded}
        if rare:
            if "unevaluatedProperties" in rest and "additionalProperties" in rest:
                del rest["unevaluatedProperties"]  # additionalProperties evaluates every name it leaves over
            if "unevaluatedItems" in rest and _evaluates_every_item(rest):
                del rest["unevaluatedItems"]
            if "unevaluatedProperties" in rest:
                context.passes |= SEEN_PROPERTIES
            if "unevaluatedItems" in rest:
                context.passes |= SEEN_ITEMS
        context.composes = not _COMPOSITION.isdisjoint(rest)
        if rare or context.composes:
            parts, allof, nullable = self._composed(rest, context, rare)
        elif declared.__class__ is str and "enum" not in rest and "const" not in rest:
            # Most schemas: one declared type and its keywords, nothing composed, no values (and
            # context.composes_items stays False). The node of that type is the whole (never an open Opaque).
            del rest["type"]
            if declared == "object":
                own = self._object(rest, context)
            elif declared in _TYPE_NAMES:
                own = self._single_type(declared, rest, context)
            else:
                raise context.fail(f"unknown type {declared!r}")
            if rest:
                own = replace(own, constraints=tuple(sorted(own.constraints + make_constraints(rest))))
            return own
        else:
            parts, allof, nullable = [], _NO_ALLOF, False

        value_part = self._values(rest, context) if "enum" in rest or "const" in rest else None
        declared = rest.get("type")
        if declared.__class__ is list and len(set(declared)) > 1:
            # Beside a composition, unevaluated* keywords stay keywords of this schema (they see what the
            # composition evaluates), not of the alternatives of its type list: they apply to their own type.
            seeing = {key: rest.pop(key) for key in (("unevaluatedProperties",) if context.composes else ())
                      + (("unevaluatedItems",) if context.composes_items else ()) if key in rest}
            typeless = self._typed(seeing, context) if seeing else None
            if typeless is not None:
                parts.extend(typeless.operands if typeless.__class__ is Intersection else (typeless,))
        # An unevaluated* kept beside the composition must stay in the operand of this schema's own keywords.
        keeps_unevaluated = (context.composes and "unevaluatedProperties" in rest) or \
            (context.composes_items and "unevaluatedItems" in rest)
        own = self._typed(rest, context)
        if own.__class__ is Intersection:  # keywords without `type` of several types: one operand per type
            parts.extend(own.operands)
            own = None
        if value_part is not None:
            if own is None or _implied_by_values(own, value_part):
                own = value_part
            elif keeps_unevaluated:
                parts.append(value_part)  # beside, not nested with the own keywords away from the composition
            else:
                own = Intersection((value_part, own), (None, None))
        leftovers = make_constraints(rest) if rest else ()
        if leftovers and isinstance(own, (Primitive, Object, Map, Array, Tuple, Opaque)):
            # Keywords the adapter does not interpret still constrain this node, so they join its constraints.
            own = replace(own, constraints=tuple(sorted(own.constraints + leftovers)))
            leftovers = ()
        if own is not None:
            parts.append(own)
        if leftovers:
            parts.append(Opaque(leftovers))

        node = _all_of(parts, allof)
        if nullable is True:
            node = Union((Alternative(node), Alternative(Primitive("null"))), keyword="")
        return node

    def _composed(self, rest: dict, context: _Context, rare: bool) -> tuple[list[Node], tuple[int, int], Any]:
        """The parts a schema composes (references, allOf operands, unions and, with `rare`, applicators),
        taken out of `rest`; the span of the parts that are allOf operands; its OpenAPI `nullable`."""
        parts: list[Node] = []
        for keyword in (_REFERENCE_KEYWORDS if rare else ("$ref",)) if context.composes else ():
            reference = rest.pop(keyword, None)
            if reference is None:
                continue
            if not isinstance(reference, str):
                raise context.fail(f"{keyword} must be a string")
            if keyword == "$recursiveRef":
                reference = "#"
            target = self.schemas.known(reference, context.base) or \
                self.schemas.resolve(reference, context.base, context.document, context.pointer)
            parts.append(self._reference(target, context.depth, context.passes))

        nullable = rest.pop("nullable", False) if rare and self.openapi else False
        discriminator = self._take_discriminator(rest) if rare else None
        policy = rest.pop(SOURCE_POLICY, None) if rare else None
        if policy is not None and self.source_policy is not None and not context.binds_source:
            raise context.fail(f"{SOURCE_POLICY} binds only a source property declared by an object whose role is "
                               f"a literal {' or '.join(self.source_policy.roles)}",
                               hint="move it onto the source property of that object, beside the oneOf or anyOf "
                                    "of its kinds")

        allof_start = len(parts)  # parts[allof_start:allof_end] are the operands of `allOf`, in order
        if context.composes and "allOf" in rest:
            for position, operand in enumerate(self._schema_list(rest.pop("allOf"), "allOf", context)):
                parts.append(self.convert_beside(operand, context, "allOf", position))
        allof_end = len(parts)
        unions: list[Union] = []
        keywords: list[str] = []
        for keyword, exclusive in (("anyOf", False), ("oneOf", True)) if context.composes else ():
            if keyword in rest:
                unions.append(self._union(self._schema_list(rest.pop(keyword), keyword, context), keyword,
                                          exclusive, context))
                keywords.append(keyword)
        if policy is not None or discriminator is not None:
            if not unions:
                raise context.fail(f"{SOURCE_POLICY if policy is not None else 'discriminator'} needs a oneOf or anyOf "
                                   "at the same level")
            unions[-1] = self._discriminated(replace(unions[-1], policy=self._policy_version(policy, context)),
                                             discriminator, context)
        for keyword, union in zip(keywords, unions):
            if self.source_policy is not None and union.policy is None:
                _refuse_unbound_attribution(union, keyword, context)
            parts.append(_normalized_union(union))
        if rare:
            parts.extend(self._applicators(rest, context))
        # Composed schemas that assert nothing (`allOf [{}]`) evaluate no property either, nor does `not`.
        context.composes = context.composes_items = False
        for part in parts:
            if _may_evaluate(part, _EVALUATING_APPLICATORS):
                context.composes = context.composes_items = True
                break
            if _may_evaluate(part, _CONTAINS):
                context.composes_items = True

        return parts, (allof_start, allof_end), nullable

    def _applicators(self, rest: dict, context: _Context) -> list[Node]:
        found: list[Node] = []
        if _APPLICATORS.isdisjoint(rest):
            return found
        if "not" in rest:
            found.append(Applicator("not", (self.convert(rest.pop("not"), context.child("not")),)))
        if "if" in rest:
            branches = tuple(self.convert_beside(rest.pop(keyword), context, keyword) if keyword in rest else OPEN
                             for keyword in ("if", "then", "else"))
            found.append(Applicator("if-then-else", branches))
        else:
            for keyword in ("then", "else"):  # without `if` they have no effect; keep them so they still count
                if keyword in rest:
                    found.append(Applicator(keyword, (self.convert_beside(rest.pop(keyword), context, keyword),)))
        for keyword in ("contains", "propertyNames"):
            if keyword in rest:
                found.append(Applicator(keyword, (self.convert(rest.pop(keyword), context.child(keyword)),)))
        if "dependentSchemas" in rest:
            table = rest.pop("dependentSchemas")
            if not isinstance(table, dict):
                raise context.fail("dependentSchemas must be an object of schemas")
            names = tuple(sorted(table))
            # Where the source wrote them, for messages (draft-07 `dependencies`, see _split_dependencies).
            spelled = "dependencies" if context.document.dialect in DEPENDENCIES_DIALECTS \
                and "dependencies" not in rest else "dependentSchemas"
            found.append(Applicator("dependentSchemas", tuple(
                self.convert_beside(table[name], context, spelled, name) for name in names), names))
        return found

    def _take_discriminator(self, rest: dict) -> Any:
        """OpenAPI's `discriminator` (which pydantic writes into plain JSON Schema too), or a snapshot's own form.

        In plain JSON Schema the keyword is read only in OpenAPI's shape beside a union: anything else is an
        unknown keyword there and stays a constraint, kept verbatim.
        """
        if DISCRIMINATOR in rest:
            return rest.pop(DISCRIMINATOR)
        if self.openapi:
            return rest.pop("discriminator", None)
        value = rest.get("discriminator")
        if isinstance(value, dict) and isinstance(value.get("propertyName"), str) and set(value) <= {"propertyName", "mapping"} \
                and isinstance(value.get("mapping", {}), dict) and ("oneOf" in rest or "anyOf" in rest):
            return rest.pop("discriminator")
        return None

    def _discriminated(self, union: Union, discriminator: Any, context: _Context) -> Union:
        """Bind each mapping value to the alternative its target is, so the mapping counts by structure: a
        renamed target changes nothing, a value moved to another alternative does. A value whose target is
        no alternative of the union stays a value of the discriminator."""
        if discriminator is None:
            return union
        if not isinstance(discriminator, dict) or not isinstance(discriminator.get("propertyName"), str):
            raise context.fail("discriminator must name a propertyName")
        mapping = discriminator.get("mapping", {})
        unbound = discriminator.get("values", [])
        if not isinstance(mapping, dict) or not all(isinstance(target, str) for target in mapping.values()):
            raise context.fail("discriminator mapping must map each value to a schema reference")
        if not isinstance(unbound, list) or not all(isinstance(value, str) for value in unbound):
            raise context.fail("discriminator values must be a list of strings")
        return bind_discriminator(union, discriminator["propertyName"], mapping, unbound,
                                  lambda value, reference: self._mapping_target(value, reference, context))

    def _mapping_target(self, value: str, reference: str, context: _Context) -> str:
        """The location a mapping value selects. OpenAPI lets it be a bare component name."""
        if self.openapi and "#" not in reference and "/" not in reference:
            try:
                return self.schemas.resolve(f"#/components/schemas/{escape_token(reference)}", context.base,
                                            context.document, context.pointer).location
            except InputError:
                pass  # not a component: a relative reference
        try:
            return self.schemas.resolve(reference, context.base, context.document, context.pointer).location
        except InputError as error:
            raise context.fail(f"discriminator mapping value {value!r} selects {reference!r}, which does not resolve "
                               f"({'; '.join(problem.reason for problem in error.problems)})",
                               hint="point it at a schema of the union, or remove the entry") from None

    def _schema_list(self, value: Any, keyword: str, context: _Context) -> list[Any]:
        if not isinstance(value, list) or not value:
            raise context.fail(f"{keyword} must be a non-empty array of schemas")
        return value

    def _union(self, schemas: list[Any], keyword: str, exclusive: bool, context: _Context) -> Union:
        alternatives = []
        for position, alternative in enumerate(schemas):
            qualified = False
            if isinstance(alternative, dict) and ATTRIBUTION in alternative:
                if alternative[ATTRIBUTION] is not True:
                    raise context.child(keyword, position).fail(f"{ATTRIBUTION} takes no argument other than true",
                                                                hint="mark a qualified kind with true, or remove it")
                qualified = True
                alternative = {k: v for k, v in alternative.items() if k != ATTRIBUTION}
            alternatives.append(Alternative(self.convert_beside(alternative, context, keyword, position), qualified))
        return Union(tuple(alternatives), exclusive=exclusive, keyword=keyword)

    def _values(self, rest: dict, context: _Context) -> Node | None:
        if "const" in rest:
            literal = canonical_json(normalize_json_value(rest.pop("const")))
            if "enum" in rest:
                # const within an enum: the const alone decides, unless the enum excludes it. Values are
                # compared as JSON (Python's `1 == True` would let `enum: [true]` vanish beside `const: 1`).
                values = rest.pop("enum")
                if not isinstance(values, list):
                    raise context.fail("enum must be an array")
                if literal not in {canonical_json(normalize_json_value(value)) for value in values}:
                    return NEVER
            return Literal(literal)
        if "enum" in rest:
            values = rest.pop("enum")
            if not isinstance(values, list):
                raise context.fail("enum must be an array")
            texts = sorted({canonical_json(normalize_json_value(value)) for value in values})
            if len(texts) == 1:
                return Literal(texts[0])
            return Enum(tuple(texts)) if texts else NEVER
        return None

    def _typed(self, rest: dict, context: _Context) -> Node | None:
        declared = rest.pop("type", None)
        if declared.__class__ is str:  # the usual spelling: one type name
            if declared not in _TYPE_NAMES:
                raise context.fail(f"unknown type {declared!r}")
            return self._single_type(declared, rest, context)
        if declared is None:
            if not rest:
                return None
            # Keywords without `type` constrain only values of their type: each type they name is the union of
            # its typed node and any value not of that type, and keywords of several types are the
            # intersection of those unions (`{"minLength": 1, "minimum": 3}`: a string of at least one
            # character, a number of at least 3, or any other value), as writing them apart in allOf is.
            unions = []
            for inferred in _inferred_types(rest):
                node = self._single_type(inferred, rest, context)
                if node in (Object((), OPEN), Array(OPEN), Primitive(inferred)):
                    continue  # `{"properties": {}}` constrains nothing: the same as `{}`
                unions.append(Union((Alternative(node), Alternative(Opaque(make_constraints({NOT_TYPE: inferred})))),
                                    keyword=""))
            if not unions:
                return None
            # Keywords of the schema itself, not an allOf or anyOf the source wrote.
            return unions[0] if len(unions) == 1 else Intersection(tuple(unions), (None,) * len(unions))
        types = [declared] if isinstance(declared, str) else declared
        if not isinstance(types, list) or not types or not all(isinstance(t, str) for t in types):
            raise context.fail("type must be a type name or a non-empty array of type names")
        for name in types:
            if name not in PRIMITIVES and name not in ("object", "array"):
                raise context.fail(f"unknown type {name!r}")
        unique = sorted(set(types))
        if len(unique) == 1:
            return self._single_type(unique[0], rest, context)
        shared = dict(rest)
        nodes = []
        for name in unique:
            scoped = dict(shared)
            nodes.append(self._single_type(name, scoped, context))
            for key in list(rest):
                if key not in scoped:
                    rest.pop(key)  # consumed by at least one of the listed types
        return _normalized_union(Union(tuple(Alternative(node) for node in nodes), keyword=""))

    def _single_type(self, name: str, rest: dict, context: _Context) -> Node:
        if name == "object":
            return self._object(rest, context)
        if name == "array":
            return self._array(rest, context)
        keywords = STRING_KEYWORDS if name == "string" else NUMBER_KEYWORDS if name in ("integer", "number") else ()
        taken = {key: rest.pop(key) for key in list(rest) if key in keywords} if rest else {}
        if name in ("integer", "number"):
            taken = _modern_bounds(taken, context)
        return Primitive(name, make_constraints(taken))

    def _object(self, rest: dict, context: _Context) -> Node:
        properties_schema = rest.pop("properties", _NO_PROPERTIES)
        required = rest.pop("required", _NO_PROPERTIES)
        if not isinstance(properties_schema, dict):
            raise context.fail("properties must be an object")
        if required is _NO_PROPERTIES:
            required_names = _NO_NAMES
        elif not isinstance(required, list) or not _all_strings(required):
            raise context.fail("required must be an array of property names")
        else:
            required_names = set(required)
        properties = []
        depth = context.depth
        # Property schemas are shared by their text (below), except where they might pass the depth limit.
        dumps = self._dumps if depth < MAX_DEPTH and properties_schema else None
        if dumps is not None:
            texts = context.texts
            if texts is None:
                texts = context.texts = self._text_table(context)
            place = (context.base, context.document.dialect)
            by_requirement = self._text_properties.get(place)
            if by_requirement is None:
                by_requirement = self._text_properties[place] = ({}, {})
            optional, required_ones = by_requirement
            # A conversion that may become a template records each reference it makes (see _by_template): a
            # property that holds one is converted again (to the same node) rather than found by its text.
            recording = self._recording
        # A property read from text whose schema is a reference alone, resolved before (a third of a large
        # source's properties, each naming its own type, so its text seldom repeats): its node is the reference
        # node, as _converted_text makes it, made at once without serializing it or asking the tables of texts.
        known = self.schemas.known if dumps is not None and not self.annotations else None
        base = context.base
        for name in sorted(properties_schema):
            sub = properties_schema[name]
            is_required = name in required_names
            text = None
            if dumps is not None and sub.__class__ is dict:
                if known is not None and len(sub) == 1:
                    reference = sub.get("$ref")
                    if reference.__class__ is str:
                        target = known(reference, base)
                        if target is not None:
                            properties.append(Property(name, self._reference(target, depth + 1), is_required))
                            continue
                try:
                    text = dumps(sub)  # (first, as it reads the whole schema into the caches)
                except TypeError:  # orjson.JSONEncodeError: an integer beyond 64 bits
                    pass
            if text is None:
                prop = self._declared_property(properties_schema, name, sub, is_required, context)
            else:
                # The same property (name, requirement, schema) recurs across the types of a large source: its
                # schema's text where it stands decides the whole property (see _converted_text), made once.
                by_name = required_ones if is_required else optional
                by_text = by_name.get(name)
                if by_text is None:
                    by_text = by_name[name] = {}
                prop = by_text.get(text, _UNKNOWN)
                if prop is _UNKNOWN:
                    # A marked property is made where it stands (and never kept by its text, so a schema found
                    # by its text, which has the same keywords, holds no marker).
                    anew = RESERVED not in sub and SOURCE_POLICY not in sub
                    if not anew:
                        prop = self._declared_property(properties_schema, name, sub, is_required, context)
                elif recording and _REFERENCE_KEY in text:
                    anew = False
                    self._converted_text(sub, texts, text, context, ("properties", name))
                else:
                    anew = depth + (len(text) >> 1) >= MAX_DEPTH and not _fits(text, depth)
                if anew:
                    noted = len(self.notes)
                    text = kept_text(text)  # one copy for both tables
                    node = self._converted_text(sub, texts, text, context, ("properties", name), kept=True)
                    prop = self._property(name, sub, node, is_required, False, shared=False)
                    if len(self.notes) == noted:
                        by_text[text] = prop
            if prop is not None:
                properties.append(prop)
        undeclared = sorted(required_names.difference(properties_schema)) if required_names else None

        patterns = rest.pop("patternProperties", _NO_PROPERTIES)
        if not isinstance(patterns, dict):
            raise context.fail("patternProperties must be an object")
        pattern_nodes = tuple((pattern, self.convert(patterns[pattern], context.child("patternProperties", pattern)))
                              for pattern in sorted(patterns)) if patterns else ()
        evaluates_every_name = "additionalProperties" in rest
        additional = rest.pop("additionalProperties", True)
        if depth < MAX_DEPTH and (additional is True or additional is False):  # as convert_child makes them
            additional = OPEN if additional else NEVER
        else:
            additional = self.convert_child(additional, context, "additionalProperties")
        seen_by = context.passes  # the unevaluated* that see what is evaluated here: enclosing ones, and this one's
        if "unevaluatedProperties" in rest and not context.composes:
            # Without composition, unevaluated names are exactly the undeclared ones (and additionalProperties
            # is absent: beside it, unevaluatedProperties sees no name and was dropped). Read as additionalProperties,
            # it no longer sees declared names: only enclosing ones do.
            additional = self.convert_child(rest.pop("unevaluatedProperties"), context, "unevaluatedProperties")
            evaluates_every_name = True
            seen_by = context.sees
        taken = {key: rest.pop(key) for key in list(rest) if key in OBJECT_KEYWORDS} if rest else {}
        open_content = additional.__class__ is Opaque and not additional.constraints  # admits anything
        if evaluates_every_name and open_content and context.sees & SEEN_PROPERTIES:
            taken["additionalProperties"] = True  # evaluates every name, and an enclosing unevaluated* sees it
        if undeclared:
            if open_content and "additionalProperties" not in taken and "unevaluatedProperties" not in taken \
                    and not seen_by & SEEN_PROPERTIES:
                # Where the content model admits anything and no unevaluated* sees what is evaluated (an enclosing
                # one, or this schema's own, kept beside its composition when its type is a list), a required
                # name is a required property of any value (patterns apply to declared names too).
                properties.extend(Property(name, OPEN, True) for name in undeclared)
                properties.sort(key=lambda prop: prop.name)
            else:
                # The content model constrains it, or an unevaluated* sees it is not evaluated: declaring it
                # would exempt it from the one and evaluate it for the other.
                taken["required"] = undeclared
        constraints = make_constraints(taken) if taken else ()
        if not properties and not pattern_nodes and not isinstance(additional, (Opaque, Never)):
            return Map(additional, constraints)
        return Object(tuple(properties), additional, pattern_nodes, constraints)

    def _declared_property(self, properties: dict, name: str, sub: Any, is_required: bool,
                           context: _Context) -> Property | None:
        """A property converted where it stands (a reserved name, a source property, a schema that is no plain
        JSON object), or None for one left out."""
        reserved = False
        if isinstance(sub, dict) and RESERVED in sub:
            reserved = self._reserved(sub, is_required, context.child("properties", name))
            node: Node = NEVER
        elif isinstance(sub, dict) and SOURCE_POLICY in sub and self.source_policy is not None:
            child = context.child("properties", name)
            self._check_binding(properties, child)
            node = self.convert(sub, child)
        else:
            node = self.convert_child(sub, context, "properties", name)
        return self._property(name, sub, node, is_required, reserved)

    def _property(self, name: str, sub: Any, node: Node, is_required: bool, reserved: bool,
                  shared: bool = True) -> Property | None:
        """The property of a converted schema, or None for an unmarked optional never property, which is as good
        as undeclared (like `name?: never`). `shared`: looked up among those made before (see below); a property
        read from text is found by its text before it is made (see _object), so it is made at once."""
        is_schema_object = isinstance(sub, dict)
        if not reserved and self.source_policy is not None and not is_required and (node.__class__ is Never or (
                not is_schema_object or "not" in sub or "allOf" in sub) and _forbids_every_value(sub)):
            return None
        description = sub.get("description") if is_schema_object else None
        if not isinstance(description, str):
            description = None
        if not shared:
            return Property(name, node, is_required, reserved, description)
        # The same property (name, node, flags, description) recurs across the types of a large source: one
        # immutable object serves them all (the node's identity stands for it, the key keeps it alive).
        key = (name, id(node), is_required, reserved, description)
        prop = self._properties.get(key)
        if prop is None:
            prop = self._properties[key] = Property(name, node, is_required, reserved, description)
        return prop

    def _reserved(self, schema: dict, required: bool, context: _Context) -> bool:
        if schema.get(RESERVED) is not True:
            raise context.fail(f"{RESERVED} takes no argument other than true")
        if required:
            raise context.fail(f"a required property cannot be {RESERVED}", hint="make it optional")
        remainder = {k: v for k, v in schema.items() if k != RESERVED}
        if not _forbids_every_value(remainder, marked=True):
            raise context.fail(f"a {RESERVED} property must forbid every value",
                               hint='give it the schema {"not": {}} besides the marker')
        return True

    def _check_binding(self, properties: dict, context: _Context) -> None:
        """A policy binds a source property only when its object's `role` is one literal qualifying role."""
        roles = self.source_policy.roles
        condition = f"{SOURCE_POLICY} binds only a source property of an object whose role is a literal " \
                    f"{' or '.join(roles)}"
        configure = "or add the role to persistence-source.roles of this source"
        if "role" not in properties:
            raise context.fail(f"{condition}; this object declares no role property",
                               hint=f'declare the role, such as "role": {{"const": "{roles[0]}"}}, or remove '
                                    "the marker")
        # (`context` is the source property's: the role stands beside it, in the same object)
        role = self._literal_value(properties["role"], (context._parent or context).child("properties", "role"))
        if role is None:
            raise context.fail(f"{condition}; this object's role is not a literal",
                               hint=f"give role one value ({', '.join(roles)}), {configure}")
        if role not in roles:
            raise context.fail(f"{condition}; this object's role is {canonical_json(role)}; qualifying roles: "
                               f"{', '.join(roles)}",
                               hint=f"bind the policy on a {' or '.join(roles)} object, {configure}")
        context.binds_source = True

    def _literal_value(self, schema: Any, context: _Context, hops: int = 0) -> Any:
        """The one value a schema admits when it is a literal (`const`, a one-value `enum`, or a reference
        to one), else None."""
        if not isinstance(schema, dict) or hops > MAX_DEPTH:
            return None
        if "const" in schema:
            return schema["const"]
        values = schema.get("enum")
        if isinstance(values, list) and len({canonical_json(normalize_json_value(v)) for v in values}) == 1:
            return values[0]
        reference = schema.get("$ref")
        if isinstance(reference, str):
            base = context.base
            if not hops:  # a schema where it stands: its own `$id` is the base of its reference (a target's base has it)
                own_id = _own_id(schema, context.document.dialect)
                if own_id and not own_id.startswith("#"):
                    base = urldefrag(urljoin(base, own_id))[0]
            target = self.schemas.resolve(reference, base, context.document, context.pointer)
            return self._literal_value(target.schema, _Context(target.document, target.pointer, target.base,
                                                               context.depth), hops + 1)
        return None

    def _policy_version(self, policy: Any, context: _Context) -> int | None:
        version = _policy_version(policy, context)
        if version is not None and self.source_policy is not None and version not in self.source_policy.policies:
            raise context.fail(f"{SOURCE_POLICY} policy {version} is not supported (supported: "
                               f"{', '.join(map(str, self.source_policy.policies))})",
                               hint="use a supported policy version, or list it in persistence-source.policies "
                                    "of this source")
        return version

    def _array(self, rest: dict, context: _Context) -> Node:
        items = rest.pop("items", None)
        prefix = rest.pop("prefixItems", None)
        additional_items = rest.pop("additionalItems", None)
        if isinstance(items, list):
            prefix, items = items, additional_items
        elif additional_items is not None:
            rest["additionalItems"] = additional_items  # meaningless without array-form items: keep verbatim
        tail_keyword = "items"
        if items is None and "unevaluatedItems" in rest and not context.composes_items:
            # Without composition or `contains`, unevaluated items are exactly those after the positions (and
            # there is no tail of their own: beside one, unevaluatedItems sees no item and was dropped).
            items, tail_keyword = rest.pop("unevaluatedItems"), "unevaluatedItems"
        taken = {key: rest.pop(key) for key in list(rest) if key in ARRAY_KEYWORDS} if rest else {}
        tail = OPEN if items is None else self.convert_child(items, context, tail_keyword)
        if items is not None and tail.__class__ is Opaque and not tail.constraints and context.sees & SEEN_ITEMS:
            taken["items"] = True  # evaluates every item, and an enclosing unevaluated* sees it
        constraints = make_constraints(taken)
        if prefix is not None:
            if not isinstance(prefix, list):
                raise context.fail("prefixItems must be an array of schemas")
            if prefix:
                nodes = tuple(self.convert(item, context.child("prefixItems", position))
                              for position, item in enumerate(prefix))
                return Tuple(nodes, tail, constraints)
            # no positions of its own: every item is checked by the tail alone
        return Array(tail, constraints)


# Keywords whose value is a schema or a table of schemas, if the schema is valid, so a schema holding one is no
# leaf (_leaf_key), or a reference.
_NO_LEAF = frozenset({"properties", "patternProperties", "$ref", "$dynamicRef", "$recursiveRef"})
# Keywords the conversion drops without looking at them, so they take no part in a leaf's identity.
_DROPPED_ANNOTATIONS = frozenset({"title", "description", "$comment", "examples", "example", "default", "deprecated"})
# Keywords whose meaning depends on where the schema stands.
_REFERENCES = frozenset({"$ref", "$dynamicRef", "$recursiveRef"})


def _leaf_key(schema: dict, dialect: str) -> tuple | None:
    """What the conversion of a schema without subschemas depends on, or None for any other schema.

    Such a schema (only scalar values and lists of scalars, no reference) converts to the same node
    wherever it stands: nothing in it resolves against a base or refers elsewhere. Values are keyed with
    their classes, since JSON tells `1`, `1.0` and `true` apart where Python's equality does not.
    """
    key: list = [dialect]
    for name, value in schema.items():
        if name in _DROPPED_ANNOTATIONS:
            continue
        kind = value.__class__
        if kind is dict or name in _REFERENCES:
            return None
        if kind is list:
            for item in value:
                if item.__class__ is dict or item.__class__ is list:
                    return None
            value = tuple([(item.__class__, item) for item in value])
        key.append((name, kind, value))
    return tuple(key)


# How a compact text writes a reference: orjson writes every key `"key":` and a quote inside a string as `\"`, so
# this occurs nowhere but at a `$ref` key with a string value.
_REFERENCE_KEY = b'"$ref":"'
_BACKSLASH = ord("\\")  # (a byte is found in a text at C speed, faster than a text of one byte)
# What a subschema's conversion may read from its references' targets, or what moves the base they resolve
# against (an identifier): a discriminator's mapping, a source policy's role, the unevaluated* that see a target's
# evaluations, dynamic and recursive references. A subschema whose text holds one of them is no template.
_TARGET_READERS = re.compile(rb'discriminator|unevaluated|\$dynamicRef|\$recursiveRef|"\$id":|'
                             + re.escape(SOURCE_POLICY.encode()))


def _reference_spans(text: bytes) -> tuple[bytes, tuple[str, ...]] | None:
    """A compact text with its `$ref` strings left empty, and those strings in the order written; None when one
    is written with an escape."""
    begin = text.find(_REFERENCE_KEY) + len(_REFERENCE_KEY)
    end = text.find(b'"', begin)
    index = text.find(_REFERENCE_KEY, end)
    if index < 0:  # most hold one
        value = text[begin:end]
        return None if _BACKSLASH in value else (text[:begin] + text[end:], (value.decode(),))
    pieces = []
    references = []
    start = 0
    index = text.find(_REFERENCE_KEY)
    while index >= 0:
        begin = index + len(_REFERENCE_KEY)
        end = text.find(b'"', begin)
        value = text[begin:end]
        if _BACKSLASH in value:
            return None
        pieces.append(text[start:begin])
        references.append(value.decode("utf-8"))
        start = end
        index = text.find(_REFERENCE_KEY, end)
    pieces.append(text[start:])
    return b"".join(pieces), tuple(references)


def _same_targets(targets: list) -> tuple[int, ...]:
    """Which references of a subschema name the same type: for each, the first that names its target."""
    locations = [target.location for target in targets]
    return tuple([locations.index(location) for location in locations])


# Nodes that hold no other node.
_LEAF_KINDS = frozenset({Primitive, Literal, Enum, Opaque, Never})


def _builder(node: Node, refs: tuple[Ref, ...]) -> Callable[[Any], Node]:
    """What makes a template's node with other reference nodes in place of its own (`refs`, in text order): for
    the usual shapes of one reference (an array or a map of it, a union of it and nodes without references), the
    one constructor; else a rebuilding of the parts that hold one, planned once for the template (`_plan`)."""
    kind = node.__class__
    if len(refs) == 1:
        ref = refs[0]
        constraints = getattr(node, "constraints", None)
        if kind is Array and node.items is ref:
            return lambda made: Array(made[0], constraints)
        if kind is Map and node.values is ref:
            return lambda made: Map(made[0], constraints)
        if kind is Union:
            alternatives = node.alternatives
            at = [position for position, alternative in enumerate(alternatives) if alternative.node is ref]
            if len(at) == 1 and all(alternative.node.__class__ in _LEAF_KINDS
                                    for position, alternative in enumerate(alternatives) if position != at[0]):
                before, after, old = alternatives[:at[0]], alternatives[at[0] + 1:], alternatives[at[0]]
                qualified, tags = old.qualified, old.tags
                exclusive, policy, discriminator, keyword = node.exclusive, node.policy, node.discriminator, \
                    node.keyword
                return lambda made: Union(before + (Alternative(made[0], qualified, tags),) + after, exclusive,
                                          policy, discriminator, keyword)
    positions = {id(ref): position for position, ref in enumerate(refs)}
    plan = _plan(node, positions)
    return plan if plan is not None else lambda made: node


def _plan(node: Node, positions: dict[int, int]) -> Callable[[Any], Node] | None:
    """A function of the reference nodes made for a template (`made`, in text order) that makes `node` with them in
    place of the template's own (`positions`: each one's place in `made`, by its identity), or None where `node`
    holds none of them. Planned once per template, it makes only the parts on a path to a reference, each with its
    constructor, and takes every other part as it is, with no walk over them."""
    kind = node.__class__
    if kind is Ref:
        position = positions.get(id(node))
        return None if position is None else itemgetter(position)
    if kind in _LEAF_KINDS:
        return None
    if kind is Union:
        alternatives = [(alternative, _plan(alternative.node, positions)) for alternative in node.alternatives]
        if all(plan is None for _, plan in alternatives):
            return None
        exclusive, policy, discriminator, keyword = node.exclusive, node.policy, node.discriminator, node.keyword
        return lambda made: Union(tuple([alternative if plan is None else Alternative(
            plan(made), alternative.qualified, alternative.tags) for alternative, plan in alternatives]),
            exclusive, policy, discriminator, keyword)
    if kind is Object:
        properties = [(prop, _plan(prop.node, positions)) for prop in node.properties]
        additional, additional_plan = node.additional, _plan(node.additional, positions)
        patterns = [(pattern, inner, _plan(inner, positions)) for pattern, inner in node.pattern_properties]
        if additional_plan is None and all(plan is None for _, plan in properties) \
                and all(plan is None for _, _, plan in patterns):
            return None
        constraints = node.constraints
        return lambda made: Object(
            tuple([prop if plan is None else Property(prop.name, plan(made), prop.required, prop.reserved,
                                                      prop.description) for prop, plan in properties]),
            additional if additional_plan is None else additional_plan(made),
            tuple([(pattern, inner if plan is None else plan(made)) for pattern, inner, plan in patterns]), constraints)
    if kind is Array or kind is Map:
        inner = _plan(node.items if kind is Array else node.values, positions)
        if inner is None:
            return None
        constraints = node.constraints
        return lambda made: kind(inner(made), constraints)
    if kind is Tuple:
        items = [(item, _plan(item, positions)) for item in node.items]
        rest, rest_plan = node.rest, _plan(node.rest, positions)
        if rest_plan is None and all(plan is None for _, plan in items):
            return None
        constraints = node.constraints
        return lambda made: Tuple(tuple([item if plan is None else plan(made) for item, plan in items]),
                                  rest if rest_plan is None else rest_plan(made), constraints)
    if kind is Intersection or kind is Applicator:
        operands = [(operand, _plan(operand, positions)) for operand in node.operands]
        if all(plan is None for _, plan in operands):
            return None
        if kind is Intersection:
            written = node.positions
            return lambda made: Intersection(_rebuilt_operands(operands, made), written)
        keyword, names = node.keyword, node.names
        return lambda made: Applicator(keyword, _rebuilt_operands(operands, made), names)
    raise TypeError(f"no node kind {kind.__name__}")  # pragma: no cover - the node set is closed


def _rebuilt_operands(operands: list[tuple[Node, Callable[[Any], Node] | None]], made: Any) -> tuple:
    # (a function of the module, not one made beside the plans that call it: compiled, the plans' shared frame
    # would hold it, and it that frame, a cycle that only the collector frees)
    return tuple([operand if plan is None else plan(made) for operand, plan in operands])


def _all_strings(values: list) -> bool:
    """Whether every item is a string (joining them checks that at C speed)."""
    try:
        "".join(values)
    except TypeError:
        return False
    return True


def _fits(text: bytes, depth: int) -> bool:
    """Whether the schema of this compact text, converted below a schema at `depth`, stays within MAX_DEPTH:
    it nests no deeper than the objects it holds, which are fewer than half its length and no more than its
    opening braces."""
    return depth + (len(text) >> 1) < MAX_DEPTH or depth + text.count(b"{") < MAX_DEPTH


# Keywords whose conversion takes more than a constraint (composition, values, the rare ones but zero lower bounds).
_NOT_PLAIN = (_RARE_KEYWORDS - frozenset(ZERO_LOWER_BOUNDS)) | _COMPOSITION | {"enum", "const"}
_EXCLUSIVE_BOUNDS = ("exclusiveMinimum", "exclusiveMaximum")


def _plain_primitive(schema: dict) -> Primitive | None:
    """The node of a schema that declares one primitive type beside keywords that are only constraints, as its
    conversion makes it: annotations, a zero lower bound and the keywords of other types are left out, every
    other keyword is a constraint. None for any other schema, which takes the general conversion (and for the
    boolean exclusive bounds of draft-04, which it rewrites)."""
    declared = schema.get("type")
    if declared.__class__ is not str or declared not in _PRIMITIVE_NAMES or not _NOT_PLAIN.isdisjoint(schema):
        return None
    excluded = _EXCLUDED_BY_TYPE[declared]
    taken = {}
    for key, value in schema.items():
        if key in ANNOTATIONS or key in excluded or key == "type":
            continue
        if value.__class__ is bool and key in _EXCLUSIVE_BOUNDS:
            return None
        if key in ZERO_LOWER_BOUNDS and value == 0 and value.__class__ is not bool:
            continue  # every string has at least zero characters
        taken[key] = value
    return Primitive(declared, make_constraints(taken))


def _modern_bounds(taken: dict, context: _Context) -> dict:
    """Draft-04 boolean exclusive bounds become the modern numeric form, so equal schemas hash alike."""
    for bound, exclusive in (("minimum", "exclusiveMinimum"), ("maximum", "exclusiveMaximum")):
        flag = taken.get(exclusive)
        if isinstance(flag, bool):
            del taken[exclusive]
            if flag:
                if bound not in taken:
                    raise context.fail(f"{exclusive}: true needs {bound}")
                taken[exclusive] = taken.pop(bound)
    return taken


def _may_evaluate(part: Node, applicators) -> bool:
    """Whether a part of a schema may evaluate names or items an unevaluated* beside it then does not see:
    anything but `true`, and of the applicators only the given ones."""
    if part.__class__ is Applicator:
        return part.keyword in applicators
    return part.__class__ is not Opaque or bool(part.constraints)


# Separates a named type's location from the unevaluated* bits its variant is converted for.
_SEEN_BY = " seen by "
# Keywords whose conversion depends on which unevaluated* sees it (marks, required names, references).
_HIDING = ((SEEN_PROPERTIES, frozenset({"additionalProperties", "unevaluatedProperties", "required"})),
           (SEEN_ITEMS, frozenset({"items", "additionalItems", "unevaluatedItems"})))
_SAME_LOCATION_LISTS = ("allOf", "anyOf", "oneOf")
_SAME_LOCATION_SCHEMAS = ("if", "then", "else")


def _may_hide_evaluation(schema: Any, sees: int) -> bool:
    """Whether a schema (with its subschemas at the same instance location) converts differently where the
    given unevaluated* keywords see it: a reference there may, so it counts."""
    stack, visited = [schema], 0
    while stack and visited < 10_000:
        current = stack.pop()
        visited += 1
        if current.__class__ is not dict:
            continue
        if not _REFERENCES.isdisjoint(current):
            return True
        for bit, keywords in _HIDING:
            if sees & bit and not keywords.isdisjoint(current):
                return True
        for keyword in _SAME_LOCATION_LISTS:
            if isinstance(current.get(keyword), list):
                stack.extend(current[keyword])
        stack.extend(current[keyword] for keyword in _SAME_LOCATION_SCHEMAS if keyword in current)
        if isinstance(current.get("dependentSchemas"), dict):
            stack.extend(current["dependentSchemas"].values())
    return bool(stack)


def _split_dependencies(rest: dict, context: _Context) -> dict:
    """Draft-07's `dependencies` as the keywords 2019-09 split it into: a list of names is `dependentRequired`,
    a schema `dependentSchemas`. They mean the same, so a source migrated to 2020-12 keeps its digest, and a
    snapshot (2020-12, where `dependencies` is no keyword) validates as the source did."""
    table = rest["dependencies"]
    if not isinstance(table, dict):
        raise context.fail("dependencies must be an object")
    names: dict[str, list] = {}
    schemas: dict[str, Any] = {}
    for name, value in table.items():
        if isinstance(value, list):
            if not all(isinstance(item, str) for item in value):
                raise context.fail(f"dependencies of {name!r} must be property names or a schema")
            names[name] = value
        elif isinstance(value, (dict, bool)):
            schemas[name] = value
        else:
            raise context.fail(f"dependencies of {name!r} must be property names or a schema")
    if (names and "dependentRequired" in rest) or (schemas and "dependentSchemas" in rest):
        return rest  # this dialect does not know the newer keyword: both stay as written
    split = {key: value for key, value in rest.items() if key != "dependencies"}
    if names:
        split["dependentRequired"] = names
    if schemas:
        split["dependentSchemas"] = schemas
    return split


def _evaluates_every_item(rest: dict) -> bool:
    """Whether a schema's own tail (`items` after any positions) evaluates every item."""
    items = rest.get("items")
    return items is not None and (not isinstance(items, list) or "additionalItems" in rest)


def _inferred_types(rest: dict) -> list[str]:
    """The JSON types whose keywords a schema without `type` uses."""
    return [name for name, keywords in (("object", OBJECT_KEYWORDS), ("array", ARRAY_KEYWORDS),
                                        ("string", STRING_KEYWORDS), ("number", NUMBER_KEYWORDS))
            if not keywords.isdisjoint(rest)]


def _implied_by_values(own: Node, values: Node) -> bool:
    """`type: string` next to an enum of strings adds nothing; the enum alone says it."""
    if not isinstance(own, Primitive) or own.constraints:
        return False
    texts = values.values if isinstance(values, Enum) else (values.value,) if isinstance(values, Literal) else ()
    if not texts:
        return False
    for text in texts:
        value = json.loads(text)
        if own.type == "integer":
            ok = isinstance(value, int) and not isinstance(value, bool)
        elif own.type == "number":
            ok = isinstance(value, (int, float)) and not isinstance(value, bool)
        else:
            ok = isinstance(value, _JSON_TYPES[own.type]) and not (own.type != "boolean" and isinstance(value, bool))
        if not ok:
            return False
    return True


def _forbids_every_value(schema: Any, marked: bool = False) -> bool:
    """Whether a property schema is one of the spellings of never (`marked`: beside a reserved marker, which
    forbids every value by itself)."""
    if schema is False:
        return True
    if not isinstance(schema, dict):
        return False
    if "not" not in schema and "allOf" not in schema:  # asked of every optional property: the common answer fast
        return marked and ANNOTATIONS.issuperset(schema)
    remainder = {key: value for key, value in schema.items() if key not in ANNOTATIONS}
    return remainder in ({"not": {}}, {"not": True}, {"allOf": [False]}) or (marked and remainder == {})


def _refuse_unbound_attribution(union: Union, keyword: str, context: _Context) -> None:
    """A qualified kind promises preservation under a policy; a union without one has nothing to promise."""
    for position, alternative in enumerate(union.alternatives):
        if alternative.qualified:
            raise context.child(keyword, position).fail(
                f"{ATTRIBUTION} marks a kind of a union that has no bound {SOURCE_POLICY}",
                hint=f"bind the union with {SOURCE_POLICY} on its source property, or remove the marker")


def _without_excluded_keywords(rest: dict, declared: Any) -> dict:
    excluded = _excluded_keywords(declared if isinstance(declared, str) else tuple(declared)
                                  if isinstance(declared, list) and all(isinstance(name, str) for name in declared)
                                  else ())
    if excluded.isdisjoint(rest):
        return rest  # nothing to drop (the usual case), no `type`, or a malformed one that `_typed` refuses
    return {key: value for key, value in rest.items() if key not in excluded}


@lru_cache(maxsize=256)
def _excluded_keywords(declared: str | tuple[str, ...]) -> frozenset[str]:
    """The keywords that apply to no value of the declared type or types."""
    types = {declared} if isinstance(declared, str) else set(declared)
    return frozenset().union(*(keywords for admitting, keywords in TYPE_SPECIFIC_KEYWORDS
                               if types and not admitting & types))


# The same for one type name, looked up without a call (every typed schema asks).
_EXCLUDED_BY_TYPE = {name: _excluded_keywords(name) for name in _TYPE_NAMES}


def _shape(value: Any) -> Any:
    """A node's structure as a comparable value that ignores the order of union alternatives and intersection
    operands (the digest ignores it too), so that a repeated operand is recognized in whatever order its
    nested unions were written."""
    if isinstance(value, tuple):
        return tuple(_shape(item) for item in value)
    kind = value.__class__
    names = _compared_fields(kind)
    if names is None:
        return value
    parts = []
    for name in names:
        shaped = _shape(getattr(value, name))
        if (kind is Union and name == "alternatives") or (kind is Intersection and name == "operands"):
            shaped = tuple(sorted(shaped, key=repr))
        parts.append(shaped)
    return (kind.__name__, tuple(parts))


_COMPARED_FIELDS: dict[type, tuple[str, ...] | None] = {}


def _compared_fields(kind: type) -> tuple[str, ...] | None:
    """The fields of a dataclass that take part in equality, in order (None for other classes)."""
    try:
        return _COMPARED_FIELDS[kind]
    except KeyError:
        names = tuple(each.name for each in fields(kind) if each.compare) if is_dataclass(kind) else None
        return _COMPARED_FIELDS.setdefault(kind, names)


def _coarse_kind(item: Any) -> tuple:
    """A cheap part of an item's `_shape`: items that differ in it cannot be repeats of each other."""
    if item.__class__ is Alternative:
        return Alternative, item.node.__class__, item.qualified, item.tags
    return (item.__class__,)


def _distinct(items) -> list:
    """The items without repeats (by `_shape`), in their first order.

    Only items of one coarse kind can repeat each other, so the structure (a walk over the whole subtree)
    is compared only among those: most compositions join nodes of different kinds, and every node's own
    parts pass through here, so shaping them all would walk each subtree once per level above it."""
    items = list(items)
    if len(items) < 2:
        return items
    kinds = [_coarse_kind(item) for item in items]
    if len(set(kinds)) == len(kinds):
        return items
    repeated_kinds = {kind for kind, count in Counter(kinds).items() if count > 1}  # (a count per kind: linear)
    seen: set = set()
    distinct = []
    for item, kind in zip(items, kinds):
        if kind in repeated_kinds:
            key = _shape(item)
            if key in seen:
                continue
            seen.add(key)
        distinct.append(item)
    return distinct


def bind_discriminator(union: Union, property_name: str, mapping: dict, unbound: list[str],
                       target_of: Callable[[str, str], str]) -> Union:
    """The union with each mapping value bound to the alternative its target is (`target_of(value,
    reference)`: the key its references name), and the values bound to none kept as the discriminator's."""
    positions = {alternative.node.target: position for position, alternative in enumerate(union.alternatives)
                 if isinstance(alternative.node, Ref)}
    tags: dict[int, set[str]] = {}
    unbound = set(unbound)
    for value, reference in mapping.items():
        position = positions.get(target_of(value, reference))
        if position is None:
            unbound.add(value)
        else:
            tags.setdefault(position, set()).add(canonical_json(value))
    alternatives = tuple(replace(alternative, tags=tuple(sorted(tags[position]))) if position in tags
                         else alternative for position, alternative in enumerate(union.alternatives))
    return replace(union, alternatives=alternatives, discriminator=canonical_json(
        {"propertyName": property_name, "values": sorted(unbound)}))


def _all_of(nodes: list[Node], allof: tuple[int, int] | None = None) -> Node:
    """The conjunction of nodes, each asserted once (`allOf [A, A]` is A); `true` asserts nothing.
    `allof`: the span of `nodes` that are the operands of an `allOf`, in order, the others standing beside
    it (see Intersection.positions); None when that is not known."""
    if len(nodes) == 1:  # most schemas: one part, asserted as it is
        node = nodes[0]
        return OPEN if node.__class__ is Opaque and not node.constraints else node
    distinct = _distinct(node for node in nodes if node.__class__ is not Opaque or node.constraints)
    if not distinct:
        return OPEN
    if len(distinct) == 1:
        return distinct[0]
    if allof is None:
        return Intersection(tuple(distinct))
    written: dict[int, int | None] = {}
    for index, node in enumerate(nodes):  # a repeated node is kept where it first stands
        written.setdefault(id(node), index - allof[0] if allof[0] <= index < allof[1] else None)
    return Intersection(tuple(distinct), tuple(written[id(node)] for node in distinct))


def _normalized_union(union: Union) -> Node:
    """A union in the one form of what it admits. A union of JSON type sets is the set of types it admits:
    a oneOf admits the types exactly one alternative admits (a value two alternatives admit is rejected), so
    `oneOf [[string, null], [integer, null]]` is `type [string, integer]`, and `anyOf [integer, number]` is
    `number`. A oneOf whose alternatives no value can match together rejects nothing an anyOf admits, so
    `oneOf [string, null]` is `type [string, null]`. An anyOf asserts each alternative once."""
    plain = _is_plain(union)
    if plain:
        classes = _value_classes(union)
        typed = _type_set(classes, _type_names(union)) if classes is not None else None
        if typed is not None:
            return replace(typed, keyword=union.keyword) if isinstance(typed, Union) else typed
        if union.exclusive and _disjoint_by_type(union.alternatives):
            union = replace(union, exclusive=False)
    if not union.exclusive:
        distinct = _distinct(union.alternatives)
        if len(distinct) < len(union.alternatives):  # _distinct only drops repeats, keeping the order
            union = replace(union, alternatives=tuple(distinct))
    if len(union.alternatives) == 1 and plain:
        return union.alternatives[0].node
    return union


def _is_plain(node: Node) -> bool:
    """Whether a node is a union that admits by its alternatives alone: no policy, discriminator or
    qualified kind gives an alternative a meaning of its own."""
    if node.__class__ is not Union or node.policy is not None or node.discriminator is not None:
        return False
    for alternative in node.alternatives:
        if alternative.qualified:
            return False
    return True


# The values a JSON type admits, in classes no two types split: `number` admits integers and fractions.
_TYPE_CLASSES = {"array": frozenset({"array"}), "boolean": frozenset({"boolean"}), "integer": frozenset({"integer"}),
                 "null": frozenset({"null"}), "number": frozenset({"integer", "fraction"}),
                 "object": frozenset({"object"}), "string": frozenset({"string"})}
_ALL_CLASSES = frozenset().union(*_TYPE_CLASSES.values())
_ANY_OBJECT = Object((), OPEN)
_ANY_ARRAY = Array(OPEN)


def _value_classes(node: Node) -> frozenset[str] | None:
    """The value classes a node admits when it is nothing but a set of JSON types, else None."""
    if node.__class__ is Ref:  # the usual alternative beside a null: a named type, not a set of JSON types
        return None
    if isinstance(node, Opaque):
        return _ALL_CLASSES if not node.constraints else None
    if isinstance(node, Never):
        return frozenset()
    if isinstance(node, Primitive):
        return _TYPE_CLASSES[node.type] if not node.constraints else None
    if (node.__class__ is Object or node.__class__ is Array) and (node == _ANY_OBJECT or node == _ANY_ARRAY):
        return _TYPE_CLASSES[node.kind]
    if isinstance(node, Union) and node.policy is None and node.discriminator is None:
        counts: dict[str, int] = {}
        for alternative in node.alternatives:
            classes = None if alternative.qualified else _value_classes(alternative.node)
            if classes is None:
                return None
            for value_class in classes:
                counts[value_class] = counts.get(value_class, 0) + 1
        return frozenset(value_class for value_class, count in counts.items()
                         if count == 1 or not node.exclusive)
    return None


def _possible_classes(node: Node) -> frozenset[str] | None:
    """The value classes a node may admit (a superset), or None when that depends on a named type."""
    if isinstance(node, Ref):
        return None
    if isinstance(node, Never):
        return frozenset()
    if isinstance(node, Primitive):
        return _TYPE_CLASSES[node.type]
    if isinstance(node, (Object, Map, Array, Tuple)):
        return _TYPE_CLASSES["object" if isinstance(node, (Object, Map)) else "array"]
    if isinstance(node, (Literal, Enum)):
        return frozenset().union(*(_literal_classes(text) for text in (
            (node.value,) if isinstance(node, Literal) else node.values)))
    if isinstance(node, Union):
        found: frozenset[str] = frozenset()
        for alternative in node.alternatives:
            classes = _possible_classes(alternative.node)
            if classes is None:
                return None
            found |= classes
        return found
    if isinstance(node, Intersection):
        # Every operand must admit a value: operands whose classes are unknown only narrow the others.
        known = [classes for classes in map(_possible_classes, node.operands) if classes is not None]
        return frozenset.intersection(*known) if known else None
    if isinstance(node, Opaque) and len(node.constraints) == 1 and node.constraints[0][0] == NOT_TYPE:
        return _ALL_CLASSES - _TYPE_CLASSES[json.loads(node.constraints[0][1])]
    return _ALL_CLASSES


def _literal_classes(text: str) -> frozenset[str]:
    value = json.loads(text)
    if isinstance(value, bool):
        return _TYPE_CLASSES["boolean"]
    if isinstance(value, int):
        return _TYPE_CLASSES["integer"]
    if isinstance(value, float):
        # An integral float beyond the exact range is an integer to some validators and not to others.
        return _TYPE_CLASSES["number"] if value.is_integer() else frozenset({"fraction"})
    for name, python_type in _JSON_TYPES.items():
        if isinstance(value, python_type):
            return _TYPE_CLASSES[name]
    return _ALL_CLASSES


def _disjoint_by_type(alternatives: tuple[Alternative, ...]) -> bool:
    """Whether no value can match two of the alternatives, since no two admit a value class in common."""
    seen: frozenset[str] = frozenset()
    for alternative in alternatives:
        classes = _possible_classes(alternative.node)
        if classes is None or classes & seen:
            return False
        seen |= classes
    return True


def _type_names(node: Node) -> list[str]:
    """The JSON types a type set names, in source order (for display; the digest does not see it)."""
    if isinstance(node, Primitive):
        return [node.type]
    if isinstance(node, (Object, Array)):
        return [node.kind]
    if isinstance(node, Union):
        return [name for alternative in node.alternatives for name in _type_names(alternative.node)]
    return []


def _type_set(classes: frozenset[str], order: list[str]) -> Node | None:
    """The node of a set of JSON types admitting exactly these classes, if there is one (fractions without
    integers are no set of types), its alternatives in the given order of type names where they appear."""
    if classes == _ALL_CLASSES:
        return OPEN
    if "fraction" in classes and "integer" not in classes:
        return None
    names = sorted((name for name, admitted in _TYPE_CLASSES.items()
                    if admitted <= classes and not (name == "integer" and "fraction" in classes)),
                   key=lambda name: order.index(name) if name in order else len(order))
    nodes = [_ANY_OBJECT if name == "object" else _ANY_ARRAY if name == "array" else Primitive(name) for name in names]
    if not nodes:
        return NEVER
    # The types of a set admit no value in common, so it takes no oneOf to say so.
    return nodes[0] if len(nodes) == 1 else Union(tuple(Alternative(node) for node in nodes))


def _policy_version(policy: Any, context: _Context) -> int | None:
    if policy is None:
        return None
    if not isinstance(policy, dict) or set(policy) != {"policy"} or not isinstance(policy["policy"], int) \
            or isinstance(policy["policy"], bool) or policy["policy"] < 1:
        raise context.fail(f"{SOURCE_POLICY} must be {{\"policy\": N}} with an integer N >= 1")
    return policy["policy"]


# --- graphs -----------------------------------------------------------------------------------------


@long_lived()  # the nodes and the graph made here are kept, and hold no reference cycle
def finish_graph(converter: Converter, source: str, roots: dict[str, tuple[str, str]], origin: str,
                 format_version: str | int | None = None) -> TypeGraph:
    """Name every converted location, rewrite references to names and check for structureless loops.

    `roots` maps a root name to (location, role).
    """
    converter.run()
    converter.release_conversion()
    for root_name, (location, _) in roots.items():
        converter.preferred_names.setdefault(location, root_name)
    names = _assign_names(converter)  # (the last to read the documents: a document's title names it)
    converter.schemas.release_documents()
    # References were made by location, before names could be chosen (they depend on every location). The
    # converter made each of them and nothing outside it has seen one yet, so they are named in place:
    # rebuilding every node on a path to a reference would cost a walk over the whole graph.
    for location, ref in converter._refs.items():
        object.__setattr__(ref, "target", names[location])
    renamed = {names[location]: node for location, node in converter.types.items()}
    locations = {name: converter._variants.get(location, location) for location, name in names.items()}
    _reject_reference_loops(renamed, locations, origin)
    # (few types have a description: the types are built in the order of names without a list of pairs)
    described = {names[location]: text for location, text in converter.descriptions.items()}
    types = {name: NamedType(name, name, renamed[name], described.get(name)) for name in sorted(renamed)}
    del renamed
    root_objects = {f"{source}:{root_name}": Root(f"{source}:{root_name}", names[location], role)
                    for root_name, (location, role) in sorted(roots.items())}
    return TypeGraph(source=source, types=types, roots=root_objects, format_version=format_version, origin=origin,
                     locations=locations,
                     notes=tuple(sorted(set(converter.notes))), event_roots=event_roots_of(root_objects.values()))


def event_roots_of(roots) -> dict[str, str]:
    """Type key -> id of the event roots; where roots share a type (a model's validation and serialization
    roots), the first id by name."""
    found: dict[str, str] = {}
    for root in sorted(roots, key=lambda root: root.id):
        if root.role == "event":
            found.setdefault(root.type_key, root.id)
    return found


def _assign_names(converter: Converter) -> dict[str, str]:
    """Names from preferences, titles and pointers, unique by a prefix or a number; a variant converted for
    an unevaluated* keyword takes the name of its location, numbered after it."""
    simple: dict[str, str] = {}
    for location in sorted(converter.types):
        if location not in converter._variants:
            simple[location] = converter.preferred_names.get(location) or _simple_name(location, converter)
    counts: dict[str, int] = {}
    for name in simple.values():
        counts[name] = counts.get(name, 0) + 1
    # The table of simple names becomes that of names, in place and in the same (sorted) order: a source of many
    # types holds one table of them, not two.
    names = simple
    taken: set[str] = set()
    for location in simple:
        name = simple[location]
        if counts[name] > 1 and location not in converter.preferred_names:
            label = location.split("#", 1)[0]
            name = f"{_stem(label)}.{name}"
        candidate, number = name, 2
        while candidate in taken:
            candidate, number = f"{name}~{number}", number + 1
        taken.add(candidate)
        names[location] = candidate
    for variant in sorted(converter._variants):
        if variant in converter.types:
            location = converter._variants[variant]
            name = names.get(location) or converter.preferred_names.get(location) or _simple_name(location, converter)
            candidate, number = name, 2
            while candidate in taken:
                candidate, number = f"{name}~{number}", number + 1
            taken.add(candidate)
            names[variant] = candidate
    return names


def _simple_name(location: str, converter: Converter) -> str:
    label, pointer = location.split("#", 1)
    if not pointer:
        document = converter.schemas.documents.get(label)
        title = document.content.get("title") if document and isinstance(document.content, dict) else None
        if isinstance(title, str) and _NAME_PATTERN.match(title):
            return title
        return _stem(label)
    head, _, last = pointer.rpartition("/")
    if head.rpartition("/")[2] in _DEFINITION_TABLES:  # most: the entry of a table, named by its own name
        return last.replace("~1", "/").replace("~0", "~") if "~" in last else last
    tokens = [token.replace("~1", "/").replace("~0", "~") for token in pointer.split("/")[1:]]
    return ".".join(tokens[-2:])


# The tables whose entries are named by their names (`#/$defs/Name`, OpenAPI's `#/components/schemas/Name`).
_DEFINITION_TABLES = frozenset({"$defs", "definitions", "schemas"})


def _stem(label: str) -> str:
    name = label.rsplit("/", 1)[-1]
    for suffix in (".schema.json", ".openapi.json", ".openapi.yaml", ".json", ".yaml", ".yml"):
        if name.endswith(suffix):
            return name[: -len(suffix)]
    return name


def _rename(node: Node, names: dict[str, str]) -> Node:
    """The node with references by location rewritten to names; a subtree without references is returned
    as it is (most of a large schema), so renaming allocates only along paths to references."""
    if isinstance(node, Ref):
        return Ref(names[node.target])
    if isinstance(node, Object):
        properties = tuple(_renamed_property(p, names) for p in node.properties)
        additional = _rename(node.additional, names)
        patterns = tuple((k, _rename(v, names)) for k, v in node.pattern_properties)
        if additional is node.additional and _same(properties, node.properties) and \
                all(new is old for (_, new), (_, old) in zip(patterns, node.pattern_properties)):
            return node
        return replace(node, properties=properties, additional=additional, pattern_properties=patterns)
    if isinstance(node, Map):
        values = _rename(node.values, names)
        return node if values is node.values else replace(node, values=values)
    if isinstance(node, Array):
        items = _rename(node.items, names)
        return node if items is node.items else replace(node, items=items)
    if isinstance(node, Tuple):
        items, rest = tuple(_rename(i, names) for i in node.items), _rename(node.rest, names)
        return node if rest is node.rest and _same(items, node.items) else replace(node, items=items, rest=rest)
    if isinstance(node, Union):
        alternatives = tuple(_renamed_alternative(a, names) for a in node.alternatives)
        return node if _same(alternatives, node.alternatives) else replace(node, alternatives=alternatives)
    if isinstance(node, (Intersection, Applicator)):
        operands = tuple(_rename(o, names) for o in node.operands)
        return node if _same(operands, node.operands) else replace(node, operands=operands)
    return node


def _renamed_property(prop: Property, names: dict[str, str]) -> Property:
    renamed = _rename(prop.node, names)
    return prop if renamed is prop.node else replace(prop, node=renamed)


def _renamed_alternative(alternative: Alternative, names: dict[str, str]) -> Alternative:
    renamed = _rename(alternative.node, names)
    return alternative if renamed is alternative.node else replace(alternative, node=renamed)


def _same(new: tuple, old: tuple) -> bool:
    return all(a is b for a, b in zip(new, old))


def _reject_reference_loops(types: dict[str, Node], locations: Mapping[str, str], origin: str) -> None:
    """A type that reaches itself with no structure in between describes nothing: a chain of references that
    returns to itself, or a cycle through references and combinators that apply to the value itself."""
    ends = _alias_ends(types, locations, origin)
    in_place: dict[str, list[str]] = {}
    for name, node in types.items():
        if node.__class__ in _COMBINATOR_KINDS:
            targets = _in_place_references(node)
            if targets:
                in_place[name] = targets
    if not in_place:
        return
    # A cycle through combinators passes each alias on it to the end of the alias's chain, so only aliases whose
    # chain ends at a combinator with references of its own can be on one. The rest (most aliases, which end in an
    # object) lead nowhere onward, and leaving them out changes neither whether a cycle is found nor which one is
    # found first, while the table of edges stays the size of the combinators rather than of every alias.
    onward: dict[str, list[str]] = {}
    for name, node in types.items():
        if node.__class__ is Ref:
            if ends[name] in in_place:
                onward[name] = [node.target]
        elif name in in_place:
            kept = [target for target in in_place[name] if ends.get(target, target) in in_place]
            if kept:
                onward[name] = kept
    cycle = _first_cycle(onward)
    if cycle:
        route = " -> ".join(locations[name] for name in cycle)
        raise InputError(Problem(
            origin, f"type {cycle[0]} reaches itself through references and combinators alone, with no property, "
                    f"item or value in between: {route}",
            hint="a validator would recurse into it without end; put the recursion under a property, an array "
                 "item or a map value"))


def _alias_ends(types: dict[str, Node], locations: Mapping[str, str], origin: str) -> dict[str, str]:
    """Each alias's chain end: the first type on its chain of bare references that is not one. A chain that
    returns to itself is refused. Each chain is followed once: a name whose chain was followed before (from an
    earlier start) has its end recorded, so a chain of n aliases costs n steps in all, not n for each alias. One
    table serves both purposes: while a chain is followed, its names hold its start (an alias, never an end), so
    meeting one again is a loop; afterwards they hold the end."""
    ends: dict[str, str] = {}
    for start, node in types.items():
        if node.__class__ is not Ref or start in ends:
            continue
        name = start
        while True:
            known = ends.get(name)
            if known is not None:
                if known == start:
                    cycle = [name]
                    looped = types[name].target
                    while looped != name:
                        cycle.append(looped)
                        looped = types[looped].target
                    cycle.append(name)
                    raise InputError(Problem(
                        origin, "$ref loop with no structure in between: " + " -> ".join(
                            locations[looped] for looped in cycle),
                        hint="a reference must eventually reach a schema with structure"))
                end = known
                break
            current = types[name]
            if current.__class__ is not Ref:
                end = name
                break
            ends[name] = start
            name = current.target
        name = start
        while name != end and ends.get(name) == start:
            ends[name] = end
            name = types[name].target
    return ends


_COMBINATOR_KINDS = frozenset({Union, Intersection, Applicator})
# Applicators whose schemas apply to the value itself; the others (contains, propertyNames) apply to an item
# or a name of it, which is structure in between as much as a property is.
_IN_PLACE_APPLICATORS = frozenset({"not", "if-then-else", "dependentSchemas"})


def _in_place_references(node: Node) -> list[str]:
    """The types a union, intersection or applicator applies to the value itself: references reached through
    unions, intersections and in-place applicators alone."""
    found: list[str] = []
    stack = [node]
    while stack:
        current = stack.pop()
        kind = current.__class__
        if kind is Intersection:
            children = current.operands
        elif kind is Union:
            children = [alternative.node for alternative in current.alternatives]
        elif kind is Applicator and current.keyword in _IN_PLACE_APPLICATORS:
            children = current.operands
        else:
            continue
        for child in children:
            if child.__class__ is Ref:
                found.append(child.target)
            elif child.__class__ in _COMBINATOR_KINDS:
                stack.append(child)
    return found


def _first_cycle(edges: dict[str, list[str]]) -> list[str]:
    """The first cycle of the edges (its first name repeated at its end), searched depth first from each
    name in order, or an empty list."""
    done: set[str] = set()
    for start in edges:
        if start in done:
            continue
        path, on_path = [start], {start}
        pending = [iter(edges[start])]
        while pending:
            target = next(pending[-1], None)
            if target is None:
                pending.pop()
                on_path.discard(finished := path.pop())
                done.add(finished)
            elif target in on_path:
                return path[path.index(target):] + [target]
            elif target not in done and target in edges:
                path.append(target)
                on_path.add(target)
                pending.append(iter(edges[target]))
            else:
                done.add(target)
    return []


@long_lived()
def load_jsonschema(source: str, path: Path, roots: dict[str, tuple[str | None, str]], project_root: Path | None,
                    format_version_pointer: str | None = None, adhoc: bool = False,
                    document_root: str | None = None, all_definitions: bool = True,
                    dialect: str | None = None, allow_outside: tuple[Path, ...] = (),
                    annotations: tuple[str, ...] = (), source_policy: SourcePolicy = SourcePolicy(),
                    content: Any = None) -> TypeGraph:
    """Read a JSON Schema file (and whatever it references) into a TypeGraph.

    `roots` maps root names to (pointer or None, role). With `adhoc`, the document itself is a root when it
    has structure, and each of its definitions is one too (without `all_definitions`, only when the
    document has no structure of its own). `dialect` overrides what `$schema` declares. `content` is the
    file's document when the caller has read it already, best `Handed` over (see govern.process.Handed).
    """
    schemas = SchemaSet(label_root=project_root, boundaries=reference_boundaries(path, project_root, allow_outside))
    document = schemas.load_file(path, dialect=dialect, content=taken(content))
    content = None  # (the document holds it, and lets go of it once read: see SchemaSet.release_documents)
    converter = Converter(schemas, annotations=annotations, source_policy=source_policy)
    converter.register_definitions(document)
    resolved_roots: dict[str, tuple[str, str]] = {}
    for name, (at, role) in roots.items():
        pointer = _root_pointer(document, name, at)
        resolved_roots[name] = (converter.named_at(document, pointer), role)
    if adhoc:
        resolved_roots.update(_adhoc_roots(converter, document, document_root, all_definitions))
    try:
        graph = finish_graph(converter, source, resolved_roots, document.label,
                             format_version=read_format_version(document, format_version_pointer))
    except RecursionError:
        raise InputError(Problem(document.label, "nests too deeply to be read",
                                 hint="move nested parts into named definitions")) from None
    keep_until_exit(*converter.tables())
    return graph


def _root_pointer(document: Document, name: str, at: str | None) -> str:
    if at is None:
        content = document.content
        for keyword in ("$defs", "definitions"):
            if isinstance(content, dict) and isinstance(content.get(keyword), dict) and name in content[keyword]:
                return f"/{keyword}/{escape_token(name)}"
        return ""
    pointer = at[1:] if at.startswith("#") else at
    if pointer and not pointer.startswith("/"):
        raise InputError(Problem(document.label, f"root {name}: {at!r} is not a JSON pointer",
                                 hint='use "#" for the document or "#/$defs/Name"'))
    return pointer


def _adhoc_roots(converter: Converter, document: Document, document_root: str | None = None,
                 all_definitions: bool = False) -> dict[str, tuple[str, str]]:
    """A document with structure is the persisted type and its definitions are its parts (renaming or
    inlining one is no change of roots); a document of definitions only is a set of roots."""
    content = document.content
    found: dict[str, tuple[str, str]] = {}
    structural = not isinstance(content, dict) or any(key not in ANNOTATIONS for key in content)
    if isinstance(content, dict) and (all_definitions or not structural):
        for keyword in ("$defs", "definitions"):
            table = content.get(keyword)
            if isinstance(table, dict):
                for name in table:
                    found[name] = (converter.named_at(document, f"/{keyword}/{escape_token(name)}"), "record")
    if structural or not found:
        name = document_root or _simple_name(f"{document.label}#", converter)
        found[name if name not in found else f"{name}~document"] = (converter.named_at(document, ""), "record")
    return found


def read_format_version(document: Document, pointer: str | None) -> str | int | None:
    """The format version at a JSON pointer: a property marked x-persistence-version, or a plain value."""
    if pointer is None:
        return None
    value: Any = document.content
    for token in pointer.split("/")[1:] if pointer else []:
        key = token.replace("~1", "/").replace("~0", "~")
        if isinstance(value, dict) and key in value:
            value = value[key]
        else:
            raise InputError(Problem(document.label, f"has nothing at the format-version pointer {pointer}",
                                     hint="fix format-version in [tool.govern.sources]"))
    if isinstance(value, dict):
        marked = value.get(VERSION_MARKER)
        if isinstance(marked, int) and not isinstance(marked, bool):
            return marked
        raise InputError(Problem(document.label, f"the schema at {pointer} has no integer x-persistence-version",
                                 hint="mark the version property with x-persistence-version: N"))
    if isinstance(value, (str, int)) and not isinstance(value, bool):
        return value
    raise InputError(Problem(document.label, f"the format version at {pointer} is neither a string nor an integer"))
