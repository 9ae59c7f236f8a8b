"""The validator's verdict on documents that differ from each other at one place only.

A search checks many documents of one shape: the same structure down to the change's location, another
value there. Validating each whole costs time in proportion to how deep that location is, although
only the value there differs. So a document is split at a place (`Place`): its value there, and the rest
(the skeleton, read as canonical text). For each skeleton, the first validations record which subschemas
the validator applies to the value there (queries) and what the verdict was for each answer, as a
decision tree; a later document of that skeleton is validated by asking the tree's queries of its value
alone, following its answers to a verdict. An answer the tree has not met yet runs the whole validation
again (recording it). So every verdict is the one the whole validation gives: the tree only replays it.

That holds where the value there is read only through those queries: where every subschema applied above
it looks at it only by descending into it (properties, items, intersections, unions, references...), and
never as a whole (`enum`, `const`, `uniqueItems`, `contains`, `not`, `if`, `unevaluated*`: see SAFE). A
skeleton whose validation meets anything else is validated whole, every time.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Iterator

# Keywords of the validator that read a value below the one they apply to only through the subschemas they
# apply to it (or read its keys, its length, its type). Any other keyword the validator applies (`enum`,
# `const`, `uniqueItems`, `contains`, `not`, `if`, `unevaluated*`, `$dynamicRef`, and whatever a later
# jsonschema adds) disables the replay for a skeleton where it applies above the varying place; keywords the
# validator does not apply (annotations, extensions) read nothing.
SAFE = frozenset({
    "$ref", "allOf", "anyOf", "oneOf", "dependentSchemas", "properties", "patternProperties", "additionalProperties",
    "propertyNames", "required", "dependentRequired", "minProperties", "maxProperties", "items", "prefixItems",
    "minItems", "maxItems", "type", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf",
    "minLength", "maxLength", "pattern", "format",
})
# Stands for the varying value in a skeleton's text (private-use characters: a skeleton where it occurs
# anywhere else is not split).
HOLE = "\ue000varies\ue000"


@dataclass(frozen=True)
class Place:
    """Where a document varies: the value there, the containers above it, the document's canonical text
    with the value replaced by HOLE (its skeleton), and the document to validate: the same document, its
    containers down to the value copied so that each is met only there, and a string or number there
    standing in a subclass of its own (equal to it, and to the validator alike) so that it is too."""

    value: Any
    above: frozenset[int]  # ids of the containers from the document down to the value's parent
    skeleton: str
    document: Any


class TooCostly(Exception):
    """The validations since `allow` would take more steps than it allowed: the verdict is not worked out."""


class _Text(str):
    __slots__ = ()


class _Integer(int):
    __slots__ = ()


class _Real(float):
    __slots__ = ()


_STAND_INS = {str: _Text, int: _Integer, float: _Real}  # booleans and null have no subclass: their container varies


def place_of(document: Any, steps: Iterable[tuple[str, Any]]) -> Place | None:
    """The deepest value reached by following `steps` into the document that is a container, a string or a
    number: ("key", name), ("index", position) or ("entry", names: the first of them the object has); a step
    the document does not have ends the walk. None where that is the document itself. Which place is chosen
    only decides how much is replayed, never a verdict."""
    route: list[tuple[Any, Any]] = []  # (container, key or position) from the document down
    at = document
    for kind, step in steps:
        if not isinstance(at, (dict, list)):
            break
        if kind == "entry" and isinstance(at, dict):
            step = next((name for name in step if name in at), None)
            kind = "key"
        if kind == "key" and isinstance(at, dict) and step in at or \
                kind == "index" and isinstance(at, list) and 0 <= step < len(at):
            route.append((at, step))
            at = at[step]
        else:
            break
    while route and not isinstance(at, (dict, list)) and type(at) not in _STAND_INS:
        at = route.pop()[0]
    if not route:
        return None
    if isinstance(at, (dict, list)):
        value = dict(at) if isinstance(at, dict) else list(at)
    else:
        value = _STAND_INS[type(at)](at)
    copied, above = _with(route, value)
    skeleton = _text(_with(route, HOLE)[0])
    if skeleton.count(_text(HOLE)) != 1:
        return None
    return Place(value, frozenset(above), skeleton, copied)


def _with(route: list[tuple[Any, Any]], value: Any) -> tuple[Any, list[int]]:
    """The document with `value` at the end of the route: each container on it copied, with their ids."""
    above = []
    for container, step in reversed(route):
        copy = dict(container) if isinstance(container, dict) else list(container)
        copy[step] = value
        above.append(id(copy))
        value = copy
    return value, above


def _text(value: Any) -> str:
    import json

    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


class _Query:
    """A subschema the validator applied to the varying value (the call it made, kept to ask it again of
    another value), and what came next for each answer (valid or not): another query or the verdict."""

    __slots__ = ("call", "after")

    def __init__(self, call: tuple):
        self.call = call
        self.after: dict[bool, _Query | bool] = {}


_NOTHING = object()  # watched while a query runs: the value's own subschemas are the query's business


class _Recording:
    """One whole validation, watched: the queries asked of the varying value (with their answers, in the
    order asked), and whether anything above the value read it other than by a query."""

    def __init__(self, place: Place, descend: Callable):
        self.value = place.value
        self.above = place.above
        self.descend = descend
        self.queries: list[tuple[tuple, bool]] = []
        self.safe = True

    def ask(self, validator, instance, schema, path, schema_path, resolver) -> Iterator[Any]:
        watched, self.value = self.value, _NOTHING
        try:
            errors = list(self.descend(validator, instance, schema, path, schema_path, resolver))
        finally:
            self.value = watched
        self.queries.append(((validator, schema, path, schema_path, resolver), not errors))
        yield from errors


_UNSEEN = object()
_UNBOUNDED = float("inf")
_SCALARS = frozenset({str, int, float, bool, type(None), _Text, _Integer, _Real})
_VALID_KEPT = 100_000  # entries (each a key and the objects it names, a few hundred bytes)


class LocalVerdicts:
    """Whether a 2020-12 schema accepts documents, each validated whole or replayed per skeleton (see the
    module's description); the verdicts are the validator's, whichever way they are reached."""

    def __init__(self, schema: Any):
        from jsonschema import Draft202012Validator
        from jsonschema.validators import extend

        cls = extend(Draft202012Validator, validators=_keywords())
        descend, iter_errors = cls.descend, cls.iter_errors
        reading = frozenset(cls.VALIDATORS) - SAFE
        recording: list[_Recording | None] = [None]
        # Steps (subschemas applied to a value) taken since `allow`, and how many it allows: validating is
        # exponential in a document's depth where a schema applies a recursive type to one value more than
        # once (an `allOf` or `oneOf` of two references to it), and documents of a type whose recursion is
        # required nest as deep as the search builds them.
        steps = self._steps = [0, _UNBOUNDED]
        # The resolvers that stay the same from one validation to the next (see _remember_evolved), by id.
        lasting: dict[int, Any] = {}
        # Subschemas a string, number, boolean or null was found valid under, with the steps that took: most
        # values a search's documents hold are the same from one document to the next, and each was checked
        # again in every one (on GitHub's REST description, 98% of the checks of such values had been made
        # before). Whether a value is valid under a subschema depends only on the validator (its settings and
        # resolver), the subschema and the value (its type included); the steps are counted as they were, so
        # every limit is met where it would be. Each entry keeps what its key names by identity. Only validators
        # whose resolvers last are asked again (see _remember_evolved): the others are made at each step.
        valid: dict[tuple, tuple] = {}

        def remembered(key: tuple, kept: tuple, errors: Iterator[Any]) -> Iterator[Any]:
            start = steps[0]
            failed = False
            for error in errors:
                failed = True
                yield error
            if not failed and len(valid) < _VALID_KEPT:
                valid[key] = (kept, steps[0] - start)

        def watched_descend(validator, instance, schema, path=None, schema_path=None, resolver=None):
            steps[0] += 1
            if steps[0] > steps[1]:
                raise TooCostly
            current = recording[0]
            if current is not None:
                if instance is current.value:
                    return current.ask(validator, instance, schema, path, schema_path, resolver)
                if id(instance) in current.above and isinstance(schema, dict) and \
                        ("$schema" in schema or not reading.isdisjoint(schema)):
                    current.safe = False  # a keyword that reads the value whole, or another dialect below
            kind = instance.__class__
            if kind in _SCALARS and lasting.get(id(validator._resolver)) is validator._resolver and (
                    resolver is None or lasting.get(id(resolver)) is resolver):
                key = (id(validator), id(schema), id(resolver), kind, instance)
                found = valid.get(key)
                if found is None:
                    return remembered(key, (validator, schema, resolver),
                                      descend(validator, instance, schema, path, schema_path, resolver))
                steps[0] += found[1]
                if steps[0] > steps[1]:
                    raise TooCostly
                return iter(())
            return descend(validator, instance, schema, path, schema_path, resolver)

        def watched_iter_errors(validator, instance, _schema=None):
            # Reached without descending: the root, and the later alternatives of a `oneOf`.
            steps[0] += 1
            if steps[0] > steps[1]:
                raise TooCostly
            current = recording[0]
            if current is not None:
                schema = validator.schema if _schema is None else _schema
                if instance is current.value or (id(instance) in current.above and isinstance(schema, dict)
                                                 and not reading.isdisjoint(schema)):
                    current.safe = False
            return iter_errors(validator, instance, _schema)

        cls.descend, cls.iter_errors = watched_descend, watched_iter_errors
        _remember_references(cls, lasting)
        _remember_evolved(cls, lasting)
        self._descend = descend
        self._recording = recording
        self._validator = cls(schema)
        resolver = getattr(self._validator, "_resolver", None)
        lasting[id(resolver)] = resolver
        self._trees: dict[str, Any] = {}  # by skeleton: a _Query or a verdict; None: validated whole
        self._valid = valid

    def allow(self, steps: int) -> None:
        """From now on, validations may take `steps` steps in all; beyond that they raise TooCostly. Once they
        have, they always do: the documents of one schema cost alike, so another search would only spend
        as much again."""
        if self._steps[0] <= self._steps[1]:
            self._steps[:] = [0, steps]

    def steps_taken(self) -> int:
        """The steps validations took since `allow` (past the steps allowed, those allowed and one)."""
        return min(self._steps[0], int(min(self._steps[1], 1 << 62)) + 1)

    def accepts(self, document: Any, place: Place | None = None) -> bool:
        if place is None:
            return self._whole(document)
        node = self._trees.get(place.skeleton, _UNSEEN)
        if node is _UNSEEN:
            return self._record(place)
        if node is None:
            return self._whole(place.document)
        while isinstance(node, _Query):
            validator, schema, path, schema_path, resolver = node.call
            answer = next(self._descend(validator, place.value, schema, path, schema_path, resolver), None) is None
            if answer not in node.after:
                return self._record(place)
            node = node.after[answer]
        return node

    def iter_errors(self, document: Any) -> Iterator[Any]:
        """The validator's errors, validating the whole document."""
        return self._validator.iter_errors(document)

    def _whole(self, document: Any) -> bool:
        return next(self._validator.iter_errors(document), None) is None

    def _record(self, place: Place) -> bool:
        recording = self._recording[0] = _Recording(place, self._descend)
        try:
            verdict = self._whole(place.document)
        finally:
            self._recording[0] = None
        if not recording.safe or not self._insert(place.skeleton, recording.queries, verdict):
            self._trees[place.skeleton] = None  # validated whole from now on
        return verdict

    def _insert(self, skeleton: str, queries: list[tuple[tuple, bool]], verdict: bool) -> bool:
        """Adds one validation's queries and verdict to the skeleton's tree; False where they contradict it."""
        def chain(position: int) -> Any:
            """The queries from `position` on, ending in the verdict."""
            node: Any = verdict
            for call, answer in reversed(queries[position:]):
                query = _Query(call)
                query.after[answer] = node
                node = query
            return node

        node = self._trees.get(skeleton, _UNSEEN)
        if node is _UNSEEN:
            self._trees[skeleton] = chain(0)
            return True
        for position, (call, answer) in enumerate(queries):
            if not isinstance(node, _Query) or node.call[1] is not call[1]:
                return False
            if answer not in node.after:
                node.after[answer] = chain(position + 1)
                return True
            node = node.after[answer]
        return node is verdict


def _keywords() -> dict[str, Callable]:
    """Keywords applied as the validator applies them, only at a cost that does not grow with what `re`'s cache
    of 512 compiled patterns cannot hold, nor with the properties a schema declares beside a few a document holds:
    a witness search checks hundreds of documents per change, and each check applied every pattern of a schema
    of a thousand through that cache, compiling each again (a minute for an `anyOf` of 1,000 patterns)."""
    compiled: dict[str, Callable] = {}  # each pattern's search, compiled once

    def searcher(pattern: str) -> Callable:
        found = compiled.get(pattern)
        if found is None:
            found = compiled[pattern] = _bounded_search(pattern)
        return found

    def pattern_keyword(validator, patrn, instance, schema):
        from jsonschema.exceptions import ValidationError

        if validator.is_type(instance, "string") and not searcher(patrn)(instance):
            yield ValidationError(f"{instance!r} does not match {patrn!r}")

    return {"patternProperties": _pattern_properties_keyword(searcher), "properties": _properties_keyword(),
            "pattern": pattern_keyword}


# A group followed by a quantifier (`)*`, `)+`, `)?`, `){2`, `){,60}`): what backtracking exponential in the
# text needs.
_QUANTIFIED_GROUP = re.compile(r"\)(?:[*+?]|\{\d|\{,)")
# Repeats without an upper bound (`*`, `+`, `{2,}`; inside a set too, which only counts a pattern as costlier
# than it is): three of them may backtrack as the cube of the text, more as a higher power (`.*.*.*.*.*.*.*=` on
# 60 characters took 12 s).
_UNBOUNDED_REPEAT = re.compile(r"(?<!\\)[*+]|\{\d*,\}")
_REPEATS_OF_A_SLOW_SEARCH = 3


class PatternTooSlow(Exception):
    """A pattern's search did not end in time (see _bounded_search): the document's verdict is not known."""


def _may_backtrack_without_end(pattern: str) -> bool:
    """Whether a search of the pattern may backtrack without end: exponentially in the text (a quantified group),
    or as a power of it of three or more (as many unbounded repeats)."""
    return (_QUANTIFIED_GROUP.search(pattern) is not None
            or len(_UNBOUNDED_REPEAT.findall(pattern)) >= _REPEATS_OF_A_SLOW_SEARCH)


def _bounded_search(pattern: str) -> Callable[[str], Any]:
    """The pattern's search, as the validator's `re.search` answers it, but bounded in time.

    `re` backtracks without end on some patterns real schemas hold: CloudFormation's
    `^https://[A-Za-z0-9]((.|-+)?[A-Za-z0-9]){0,252}/...` takes minutes on `https://a-a-a-...-a!`, and `re` has no
    timeout, so a witness search hung. Backtracking exponential in the text needs a quantified group (`(...)*`,
    `(...){0,252}`), and as a high power of it, several unbounded repeats (`.*.*.*=`): a pattern with either is
    searched within govern.patterns' bound of time, and a search cut short raises PatternTooSlow, which confirms
    nothing (the search goes on to its next candidate). The `regex` engine searches it where it reads the pattern
    and the text as `re` does (see govern.patterns.reads_as_re and reads_classes_as_re): it backtracks far less,
    so it answers many searches `re` would only be cut short in. `re` itself searches the others, bounded by
    govern.patterns.search_by_re. `re`, several times cheaper per search, searches the patterns that cannot
    backtrack without end as the validator does."""
    from govern import patterns

    plain = re.compile(pattern).search  # (raises where the validator's own compiling raises)
    if not _may_backtrack_without_end(pattern):
        return plain
    by_regex = patterns.reads_as_re(pattern)
    by_classes = patterns.UNICODE_CLASSES.search(pattern) is not None
    same_classes = patterns.reads_classes_as_re
    clock = time.perf_counter

    def search_in_time(text: str) -> bool:
        started = clock()
        if by_regex and not (by_classes and not same_classes(text)):
            found = patterns.search(pattern, text)
        else:  # (a pattern, or a class of it on this text, that `regex` reads otherwise: as the validator searches it)
            found = patterns.search_by_re(pattern, plain, text)
        if found is None:
            raise PatternTooSlow(pattern)
        # (a search that ends just under the bound, in each of many strings, counts towards the bound in all)
        patterns.count_long_search(clock() - started)
        return found

    return search_in_time


def _pattern_properties_keyword(searcher: Callable[[str], Callable]) -> Callable:
    """`patternProperties` as the validator applies it (each pattern `re.search`ed in each key, the subschemas
    applied in the order of patterns, then of keys), with each pattern compiled once, and the patterns that can
    match a key found together: those starting `^literal` by the key's start, the others by one expression
    first (but those searched within a bound of time, each on its own). The validator's own searches every
    pattern in every key by name through `re`'s cache, which holds 512: beside a thousand patterns each search
    compiled its pattern again (a witness search took minutes)."""
    from govern.patterns import COMBINED_APART, literal_prefix

    prepared: dict[int, tuple[Any, Any]] = {}  # id of a patternProperties object -> (it, its index)

    def index(patterns: dict) -> tuple | None:
        """(position of each pattern, patterns by the literal text they start with, the lengths of those texts,
        the other patterns searched on their own, the other patterns found by one expression first, and that
        expression's search, None when there is no such expression); None where a pattern is one `re` cannot
        read (searched as the validator searches, it raises where the validator does)."""
        known = prepared.get(id(patterns))
        if known is not None and known[0] is patterns:
            return known[1]
        made = None
        try:
            for pattern in patterns:
                searcher(pattern)
        except (re.error, OverflowError, RecursionError):
            pass
        else:
            by_prefix: dict[str, list[str]] = {}
            others = []
            for pattern in patterns:
                prefix = literal_prefix(pattern) if COMBINED_APART.search(pattern) is None else ""
                if prefix:
                    by_prefix.setdefault(prefix, []).append(pattern)
                else:
                    others.append(pattern)
            # A pattern searched within the bound of time (see _bounded_search) is searched on its own: inside one
            # expression of them all, `re` would search it without one, as long as it backtracks.
            apart: list[str] = []
            together: list[str] = []
            for pattern in others:
                (apart if _may_backtrack_without_end(pattern) else together).append(pattern)
            search_together = None
            if len(together) > 8 and not any(COMBINED_APART.search(pattern) for pattern in together):
                try:
                    search_together = re.compile("|".join(f"(?:{pattern})" for pattern in together)).search
                except (re.error, OverflowError, RecursionError):
                    pass
            if search_together is None:
                apart, together = others, []
            made = ({pattern: position for position, pattern in enumerate(patterns)}, by_prefix,
                    sorted({len(prefix) for prefix in by_prefix}), apart, together, search_together)
        prepared[id(patterns)] = (patterns, made)  # (kept: its id stays its own)
        return made

    def pattern_properties(validator, patternProperties, instance, schema):
        if not validator.is_type(instance, "object"):
            return
        found = index(patternProperties) if len(patternProperties) > 8 else None
        if found is None:
            # As the validator's own: lazily, so a pattern `re` cannot read raises only where it would (a caller
            # asking for the first error stops before it).
            for pattern, subschema in patternProperties.items():
                for key, value in instance.items():
                    if searcher(pattern)(key):
                        yield from validator.descend(value, subschema, path=key, schema_path=pattern)
            return
        # (every pattern here is one `re` reads: found all at once, the same matches in the same order)
        positions, by_prefix, lengths, apart, together, search_together = found
        keyed = []
        for order, key in enumerate(instance):
            candidates = [pattern for length in lengths if length <= len(key)
                          for pattern in by_prefix.get(key[:length], ())]
            candidates += apart
            if together and search_together(key):
                candidates += together
            keyed += [(positions[pattern], order, pattern, key) for pattern in candidates if searcher(pattern)(key)]
        matched = [(pattern, key) for _, _, pattern, key in sorted(keyed)]
        for pattern, key in matched:
            yield from validator.descend(instance[key], patternProperties[pattern], path=key, schema_path=pattern)

    return pattern_properties


def _properties_keyword() -> Callable:
    """`properties` as the validator applies it (the subschemas of the properties a document holds, in the
    schema's order), looking up the document's keys among the schema's rather than every property the schema
    declares in the document: a witness holds a few properties of an object that may declare thousands."""
    order: dict[int, tuple[dict, dict[str, int]]] = {}  # id of a properties object -> (it, position of each name)

    def positions(properties: dict) -> dict[str, int]:
        known = order.get(id(properties))
        if known is None or known[0] is not properties:
            known = order[id(properties)] = (properties, {name: position for position, name in enumerate(properties)})
        return known[1]

    def properties_keyword(validator, properties, instance, schema):
        if not validator.is_type(instance, "object"):
            return
        if len(instance) * 4 < len(properties):
            position = positions(properties)
            present = sorted([key for key in instance if key in properties], key=position.__getitem__)
        else:
            present = [name for name in properties if name in instance]
        for name in present:
            yield from validator.descend(instance[name], properties[name], path=name, schema_path=name)

    return properties_keyword


def _remember_evolved(cls, lasting: dict[int, Any]) -> None:
    """Each validator for a subschema is made once: the validator descends into a subschema by making a new
    validator for it (`evolve`), which is a pure function of its class, the subschema and the validator's
    settings (resolver, format checker, registry), all immutable. Made anew at each step, it was a fifth of a
    witness search's time (on GitHub's REST description), and more beside large unions, where every
    alternative is a step.

    Only validators whose resolver lasts (`lasting`: the root's, and those that remembered references resolve
    to) are kept: a subschema with an identifier of its own is read with a resolver made at each step, and
    keeping what each made would only hold memory. Left as it is where this jsonschema's validators have other
    settings."""
    from attrs import fields

    if sorted(field.alias for field in fields(cls) if field.init) != \
            ["_resolver", "format_checker", "registry", "resolver", "schema"]:
        return
    evolve = cls.evolve
    made: dict[tuple, tuple] = {}  # key -> (what the key's ids are of, kept so they stay their own; the validator)

    def remembered_evolve(validator, **changes):
        if not changes.keys() <= {"schema", "_resolver"}:
            return evolve(validator, **changes)
        resolver = changes.get("_resolver", validator._resolver)
        if lasting.get(id(resolver)) is not resolver:
            return evolve(validator, **changes)
        kept = (validator.__class__, changes.get("schema", validator.schema), resolver, validator._ref_resolver,
                validator.format_checker, validator._registry)
        key = tuple(map(id, kept))
        found = made.get(key)
        if found is None:
            found = made[key] = (kept, evolve(validator, **changes))
        return found[1]

    cls.evolve = remembered_evolve


def _remember_references(cls, lasting: dict[int, Any]) -> None:
    """Each reference is looked up once per resolver that lasts (see _remember_evolved): a lookup (`referencing`
    walks the pointer, making a resource per step) is a pure function of the resolver, which is immutable, and
    the reference. The resolver it resolves to lasts too. Left as it is where this jsonschema's validators do not
    resolve references the way this relies on."""
    import referencing.exceptions
    from jsonschema import exceptions

    validate_reference = getattr(cls, "_validate_reference", None)
    wrapped = getattr(exceptions, "_WrappedReferencingError", None)
    if validate_reference is None or wrapped is None:
        return
    lookups: dict[tuple[int, str], Any] = {}  # (the resolver is kept in `lasting`: its id stays its own)

    def remembered_reference(validator, ref, instance):
        resolver = getattr(validator, "_resolver", None)
        if resolver is None or getattr(validator, "_ref_resolver", None) is not None or \
                lasting.get(id(resolver)) is not resolver:
            return validate_reference(validator, ref, instance)
        resolved = lookups.get((id(resolver), ref))
        if resolved is None:
            try:
                resolved = resolver.lookup(ref)
            except referencing.exceptions.Unresolvable as error:
                raise wrapped(error) from error
            lookups[(id(resolver), ref)] = resolved
            lasting[id(resolved.resolver)] = resolved.resolver
        return validator.descend(instance, resolved.contents, resolver=resolved.resolver)

    cls._validate_reference = remembered_reference
