"""The witness search: for each change, a document the writing side accepts and the reading side rejects.

A version-bump change is searched in every direction it claims to break, in the order it names them; the
first document both validators confirm is its witness. A change of a same-version root is searched in the
directions it promises to keep (both, unless its rule excuses one: see EXCUSED); a document found there
makes the verdict unsound, and that is reported, never hidden. Same-version promises are about documents
with the declared properties (old writers did not write names their schema did not declare), so their
search writes undeclared names only where a content model itself changed; a version-bump's search also
writes them wherever the writer's content model admits them (old data of an open object may hold a name
the new schema types).

Every search is bounded and deterministic: candidates come in a fixed order (nothing is random, so the
order is the seed), the first confirmed one wins, and a budget counted in work, never in time, stops a
fruitless search: so many distinct candidates checked by the validators per change and direction (and
DRAWN_PER_CHECKED times as many drawn, repeats and empty ones included). The same inputs give the same
outcome, witness or `exhausted`, on every machine and under any load.
"""

from __future__ import annotations

import itertools
import json
from dataclasses import dataclass, field
from typing import Any, Iterator

from govern.classify.changes import NEW_DATA, OLD_DATA, Side
from govern.classify.classify import Change, RootDiff
from govern.classify.rules import SAME_VERSION, VERSION_BUMP
from govern.model.graph import TypeGraph
from govern.model.nodes import Node, Ref
from govern.witness.confirm import Validator, root_schema
from govern.witness.generate import (
    ABSENT, ENTRY_NAMES, Hints, candidates, documents, hints_of, locations, routes, split_pointer,
)
from govern.witness.local import TooCostly, place_of

# Candidates checked per change and direction (`--witness-budget`). Checking one costs about a millisecond on
# typical schemas (jsonschema, both sides), so a fruitless search costs about what the former default of
# 200 ms did; the targeted candidates find a witness within the first few dozen in the usual case.
DEFAULT_BUDGET = 200
DRAWN_PER_CHECKED = 20  # candidates drawn (repeats and empty ones included) per one the budget allows checking
# Validation steps (subschemas applied to a value) each side may take per candidate the budget allows checking,
# summed over the search. A check usually takes a few hundred on real schemas; the largest measured, on GitHub's
# REST description, takes about 13,000, and its costliest search about 88,000 of the 200,000 the default budget
# allows. A schema applying a recursive type to one value twice takes exponentially many in the document's
# depth, and this stops its search.
STEPS_PER_CHECKED = 1_000
FIRST_AIMED = 16  # documents aimed at a change's own location tried before looking below it
# What the searches of one diff may do in all, per node of the two sides' graphs, beyond a floor: each search has
# its budget, but a hostile pair has thousands of changes, each at the end of a path thousands of levels deep or
# checked against an `anyOf` of thousands, and searched one by one that is the product (a 1 MB pair took minutes
# and 6 GB). Counted in work as the budget is (never in time): a validation step, a level of the path a
# candidate is written along, and 16 characters of a candidate's text are one each. GitHub's REST description
# (two releases, 209 searches) does 3.5 million in all, under a third of what its graphs allow. Past this,
# the changes left are not searched (`limit-reached`).
WORK_PER_NODE = 100
WORK_BEYOND = 2_000_000
CHARACTERS_PER_WORK = 16

# Same-version rules whose promise for one direction is not validation but a duty of readers: new data may
# lack a property that was required (readers handle its absence), carry a qualified kind old readers do
# not know (they preserve it), or be of an added event type (readers are upgraded before writers use it).
# Every other direction of a same-version change must validate.
EXCUSED = {"required-made-optional": (NEW_DATA,), "qualified-kind-added": (NEW_DATA,),
           "event-type-added": (NEW_DATA,)}

FOUND, EXHAUSTED, NO_DIRECTION, HELD, UNSOUND = "found", "exhausted", "no-direction", "promise-held", "unsound"
LIMIT_REACHED = "limit-reached"  # not searched: the searches before it did all that a diff's searches may
Location = tuple[tuple[str, ...], ...]  # a change's location as steps (see `searched_location`)
WRITER = {OLD_DATA: "old", NEW_DATA: "new"}
READER = {OLD_DATA: "new", NEW_DATA: "old"}


@dataclass(frozen=True)
class Witness:
    document: Any
    direction: str
    accepted_by: str  # old | new: the side that wrote it
    rejected_by: str  # new | old: the side that cannot read it
    reason: str  # the rejecting validator's message
    at: str  # where in the document the rejecting validator objects (JSON pointer)

    def to_json(self) -> dict:
        return {"document": self.document, "direction": self.direction, "accepted_by": self.accepted_by,
                "rejected_by": self.rejected_by, "reason": self.reason, "at": self.at}


@dataclass(frozen=True)
class ChangeWitness:
    """The outcome of the search for one change: `found` (or `unsound`) with a witness, or why not."""

    root: str
    change: Change
    status: str  # found | exhausted | no-direction | promise-held | unsound | limit-reached
    witness: Witness | None = None

    def to_json(self) -> dict:
        return {"witness": self.witness.to_json() if self.witness else None, "witness_search": self.status}

    def change_json(self) -> dict:
        """Which change this is, for lists outside the change's own entry."""
        return {"root": self.root, **self.change.location_json(), "kind": self.change.kind, "rule": self.change.rule,
                "breaks": list(self.change.breaks), "witness_search": self.status}


@dataclass(frozen=True)
class WitnessReport:
    by_change: dict[tuple[str, int], ChangeWitness] = field(default_factory=dict)  # (root, change index)

    def of(self, root: str, index: int) -> ChangeWitness | None:
        return self.by_change.get((root, index))

    @property
    def breaking(self) -> list[ChangeWitness]:
        return [entry for entry in self.by_change.values() if entry.change.decision == VERSION_BUMP]

    @property
    def witnessed(self) -> list[ChangeWitness]:
        return [entry for entry in self.breaking if entry.status == FOUND]

    @property
    def without_witness(self) -> list[ChangeWitness]:
        return [entry for entry in self.breaking if entry.status != FOUND]

    @property
    def unsound(self) -> list[ChangeWitness]:
        return [entry for entry in self.by_change.values() if entry.status == UNSOUND]

    def summary_json(self) -> dict:
        return {"breaking": len(self.breaking), "witnessed": len(self.witnessed),
                "without_witness": [entry.change_json() for entry in self.without_witness],
                "unsound": [{**entry.change_json(), "witness": entry.witness.to_json()} for entry in self.unsound]}


class _Root:
    """One root on one side: its graph, type key, resolver, and (built on first use) validator and routes to
    the named types its changes lie in."""

    def __init__(self, graph: TypeGraph | None, type_key: str | None, changes: tuple[Change, ...] = ()):
        self.graph = graph
        self.type_key = type_key
        self.changed_types = {change.type for change in changes if change.type is not None}
        self.side = Side(graph) if graph is not None else None
        self._validator: Validator | None = None
        self._routes: dict[str, list[str]] | None = None

    @property
    def validator(self) -> Validator:
        if self._validator is None:
            self._validator = Validator(root_schema(self.graph, self.type_key, on_demand=True))
        return self._validator

    def tokens(self, change: Change) -> list[str]:
        """Where on this side the search writes the change's value: along the shortest route from the root to
        the named type the change lies in, then the change's path inside it; along the walk's own route when
        this side has no type by that key (or the change lies in the root's own structure)."""
        if change.type is not None and self.graph is not None and change.type in self.graph.types:
            if self._routes is None:
                self._routes = routes(self.side, self.type_key, self.changed_types)  # one walk for all changes
            route = self._routes.get(change.type)
            if route is not None:
                return route + split_pointer(change.path)
        return split_pointer(change.root_pointer())


def _roots(graphs: list[TypeGraph]) -> dict[str, tuple[TypeGraph, str]]:
    return {root.id: (graph, root.type_key) for graph in graphs for root in graph.roots.values()}


def find_witnesses(results: list[RootDiff], old_graphs: list[TypeGraph], new_graphs: list[TypeGraph],
                   budget: int = DEFAULT_BUDGET) -> WitnessReport:
    """`budget`: candidate documents checked per change and direction before a search reports `exhausted`.

    The searches run with the classifier's deep stack: the validator descends a level of the interpreter's stack
    per subschema it applies, and a value read through a chain of hundreds of references passed the default
    limit, so every document checked there failed and a witness the validator confirms was reported exhausted."""
    from govern.classify.classify import with_deep_stack

    return with_deep_stack(lambda: _find_witnesses(results, old_graphs, new_graphs, budget))


def _find_witnesses(results: list[RootDiff], old_graphs: list[TypeGraph], new_graphs: list[TypeGraph],
                    budget: int) -> WitnessReport:
    old_roots, new_roots = _roots(old_graphs), _roots(new_graphs)
    work = _Work(WORK_PER_NODE * sum(graph.node_count for graph in {id(graph): graph for graph in
                                                                   [*old_graphs, *new_graphs]}.values())
                 + WORK_BEYOND)
    found: dict[tuple[str, int], ChangeWitness] = {}
    for result in sorted(results, key=lambda r: r.root):
        if not result.changes:
            continue
        old = _Root(*old_roots.get(result.root, (None, None)), result.changes)
        new = _Root(*new_roots.get(result.root, (None, None)), result.changes)
        searched: dict[tuple[Location, str, bool], Witness | None] = {}
        for index, change in enumerate(result.changes):
            entry = _search_change(result, change, old, new, budget, searched, work)
            if entry is not None:
                found[(result.root, index)] = entry
    return WitnessReport(found)


class _Work:
    """What the searches of one diff did, and may do, in all (see WORK_PER_NODE)."""

    __slots__ = ("done", "limit")

    def __init__(self, limit: int):
        self.done = 0
        self.limit = limit

    @property
    def spent(self) -> bool:
        return self.done > self.limit


class _LimitReached(Exception):
    """A search stopped by the diff's limit of work: its change, and those after it, are not searched."""


def searched_location(tokens: list[str]) -> Location:
    """A change's location as the search reads it: its steps, each a keyword with what that keyword names (a
    property name, a pattern, a position, a discriminator value), read token by token the way `documents`
    follows them. An operand's position in `allOf` does not narrow the location (the documents look in
    whichever operand holds the rest of the path), so operands of one `allOf` search alike; a name or value
    spelled like a keyword stays a name."""
    steps: list[tuple[str, ...]] = []
    index = 0
    while index < len(tokens):
        keyword = tokens[index]
        named = tokens[index + 1:index + 2]
        if keyword in _NAMING and named:
            steps.append((keyword, named[0]))
            index += 2
        elif keyword in ("anyOf", "oneOf") and named:
            # An alternative's position, or a discriminator value and then, in a group of several, a position.
            grouped = not named[0].isdigit() and index + 2 < len(tokens) and tokens[index + 2].isdigit()
            steps.append((keyword, *tokens[index + 1:index + (3 if grouped else 2)]))
            index += 3 if grouped else 2
        elif keyword == "allOf":
            steps.append((keyword,))
            index += 2 if named and named[0].isdigit() else 1
        elif keyword in ("items", "additionalProperties"):
            steps.append((keyword,))
            index += 1
        else:  # a keyword of the node itself: the documents stop here, the rest is kept as written
            steps.append(tuple(tokens[index:]))
            break
    return tuple(steps)


_NAMING = ("properties", "patternProperties", "prefixItems")  # keywords followed by what they name


def instance_steps(location: Location) -> list[tuple[str, Any]]:
    """Where in a candidate document a location's value is, as `documents` places it: a property by its
    name, the first item, a map's or open object's entry under the name `documents` gives it; unions and
    intersections stay at the same value. Ends at a step that names no one place (a pattern, a keyword)."""
    steps: list[tuple[str, Any]] = []
    for step in location:
        keyword = step[0]
        if keyword == "properties" and len(step) == 2:
            steps.append(("key", step[1]))
        elif keyword == "prefixItems" and len(step) == 2 and step[1].isdigit():
            steps.append(("index", int(step[1])))
        elif keyword == "items" and len(step) == 1:
            steps.append(("index", 0))
        elif keyword == "additionalProperties" and len(step) == 1:
            steps.append(("entry", ENTRY_NAMES))
        elif keyword not in ("anyOf", "oneOf", "allOf"):
            break
    return steps


def _search_change(result: RootDiff, change: Change, old: _Root, new: _Root, budget: int,
                   searched: dict[tuple[Location, str, bool], Witness | None],
                   work: _Work | None = None) -> ChangeWitness | None:
    """`searched`: the outcomes of this root's searches so far. A search depends on the change only through its
    location (several changes at one place, such as operands added and removed there, search alike), so
    each location, direction and depth is searched once. `work`: what the diff's searches did and may do."""
    def search(direction: str, deep: bool = True) -> Witness | None:
        if work is not None and work.spent:
            raise _LimitReached
        writer = old if direction == OLD_DATA else new
        tokens = writer.tokens(change)
        if work is not None:
            work.done += len(tokens)  # (the location is read along its path)
        key = (searched_location(tokens), direction, deep)
        if key not in searched:
            searched[key] = search_direction(change, direction, old, new, budget, deep, work)
        return searched[key]

    try:
        return _searched(result, change, search)
    except _LimitReached:
        return ChangeWitness(result.root, change, LIMIT_REACHED) if change.decision == VERSION_BUMP \
            or (change.kind != "root-added" and result.minimum == SAME_VERSION) else None


def _searched(result: RootDiff, change: Change, search) -> ChangeWitness | None:
    if change.decision == VERSION_BUMP:
        if not change.breaks:
            return ChangeWitness(result.root, change, NO_DIRECTION)
        for direction in change.breaks:
            witness = search(direction)
            if witness is not None:
                return ChangeWitness(result.root, change, FOUND, witness)
        return ChangeWitness(result.root, change, EXHAUSTED)
    if change.kind == "root-added":
        return None  # no reader of the old side ever meets a root that did not exist
    if result.minimum == SAME_VERSION:
        for direction in (OLD_DATA, NEW_DATA):
            if direction in EXCUSED.get(change.rule, ()):
                continue
            # Targeted candidates only: a same-version change's search always runs to its end, so it stays short.
            witness = search(direction, deep=False)
            if witness is not None:
                return ChangeWitness(result.root, change, UNSOUND, witness)
        return ChangeWitness(result.root, change, HELD)
    return None


def search_direction(change: Change, direction: str, old: _Root, new: _Root, budget: int,
                     deep: bool = True, work: _Work | None = None) -> Witness | None:
    """The first document the writer accepts and the reader rejects, or None within the budget. `work`: what the
    diff's searches did and may do (raises _LimitReached past it)."""
    writer, reader = (old, new) if direction == OLD_DATA else (new, old)
    if writer.graph is None:
        return None
    writer_validator, reader_validator = writer.validator, reader.validator
    writer_validator.allow(budget * STEPS_PER_CHECKED)
    reader_validator.allow(budget * STEPS_PER_CHECKED)
    # (a validator that has once taken more than it was allowed takes no step again: see Validator.allow)
    before = writer_validator.steps_taken() + reader_validator.steps_taken()
    try:
        return _search(change, direction, writer, reader, budget, deep, work)
    finally:
        if work is not None:
            work.done += writer_validator.steps_taken() + reader_validator.steps_taken() - before


def _search(change: Change, direction: str, writer: _Root, reader: _Root, budget: int, deep: bool,
            work: _Work | None) -> Witness | None:
    writer_validator, reader_validator = writer.validator, reader.validator
    tokens = writer.tokens(change)
    steps = instance_steps(searched_location(tokens))
    seen: set[str] = set()
    drawn = itertools.islice(_candidate_documents(change, writer, reader, deep), budget * DRAWN_PER_CHECKED)
    for document in drawn:
        if work is not None:
            # (each candidate is written along the path to the change: a level each)
            work.done += len(tokens) + 1
            if work.spent:
                raise _LimitReached
        if document is ABSENT:
            continue
        key = json.dumps(document, sort_keys=True, ensure_ascii=False)
        if key in seen:
            continue
        if len(seen) >= budget:
            return None
        seen.add(key)
        if work is not None:
            work.done += len(key) // CHARACTERS_PER_WORK
        # The candidates differ mostly at the change's location: both validators replay what they found
        # above it for the documents before (see govern.witness.local), so a check costs what the value
        # there costs, however deep it lies.
        place = place_of(document, steps)
        try:
            # Most candidates are read by both sides: the first error decides; the reader's best message is
            # worked out only for the witness itself.
            if reader_validator.accepts(document, place) or not writer_validator.accepts(document, place):
                continue
            rejection = reader_validator.rejection(document)
        except TooCostly:
            return None  # its documents cost more to validate than a search may spend: exhausted
        except Exception:  # noqa: BLE001 - a schema the validator cannot apply confirms nothing
            continue
        if rejection is not None:
            return Witness(document, direction, WRITER[direction], READER[direction], rejection.reason, rejection.at)
    return None


def _candidate_documents(change: Change, writer: _Root, reader: _Root, deep: bool) -> Iterator[Any]:
    """Documents aimed at the change's location. With `deep` (the search for a version-bump's witness), also
    names the writing side does not declare but its content model admits, and then every location below
    the change's, nearest first (a change the classifier could only name as a whole, such as an operand or
    alternative replaced, may break far inside it)."""
    tokens = writer.tokens(change)
    root = Ref(writer.type_key)
    located = _located(change, writer, reader)
    hints = _hints(located)

    def leaf(node: Node | None) -> Iterator[Any]:
        if node is None:
            yield ABSENT
            return
        yield from candidates(writer.side, node, hints)

    aimed = documents(writer.side, root, tokens, leaf, undeclared=deep)
    if not deep:
        yield from aimed
        return
    # A few documents aimed at the location itself, then the places below it where the sides differ (few,
    # thanks to the pruning, and each with its own bounds and values), then the rest of the aimed ones.
    yield from itertools.islice(aimed, FIRST_AIMED)
    mine = [node for side, node in located if side is writer.side]
    theirs = [node for side, node in located if side is not writer.side]
    below_here = locations(writer.side, mine[0], reader.side, theirs[0] if theirs else None) if mine else ()
    for below, node, other in below_here:
        # What the two sides say at this very place (its bounds, its values) is what a witness must hit.
        local = _hints([(writer.side, node)] + ([(reader.side, other)] if other is not None else []))

        def leaf_here(at: Node | None, local=local) -> Iterator[Any]:
            if at is None:
                yield ABSENT
                return
            yield from candidates(writer.side, at, local)

        yield from documents(writer.side, root, tokens + below, leaf_here, undeclared=True)
    yield from aimed


def _located(change: Change, writer: _Root, reader: _Root) -> list[tuple[Side, Node]]:
    """The nodes at the change's location, the writing side's first, each side reached by its own route."""
    located: list[tuple[Side, Node]] = []
    for side_root in (writer, reader):
        if side_root.graph is None:
            continue

        def collect(node: Node | None, side=side_root.side) -> Iterator[Any]:
            if node is not None and len(located) < 16:
                located.append((side, node))
            return iter(())

        for _ in documents(side_root.side, Ref(side_root.type_key), side_root.tokens(change), collect):
            pass
    return located


def _hints(located: list[tuple[Side, Node]]) -> Hints:
    constants: dict[str, None] = {}
    numbers: dict[float, None] = {}
    for side, node in located:
        found = hints_of(side, [node])
        constants.update(dict.fromkeys(found.constants))
        numbers.update(dict.fromkeys(found.numbers))
    return Hints(tuple(constants), tuple(sorted(numbers)))
