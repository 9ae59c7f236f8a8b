"""Classify every root of an old and a new set of graphs."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable, TypeVar

from govern.classify.changes import (NEW_DATA, OLD_DATA, PAIRS_BEYOND, PAIRS_PER_TYPE, Difference, Place, Replays,
                                     SharedWalk, Side, Walker)
from govern.classify.explain import explain_change
from govern.classify.rules import STRICT_ROLES, SAME_VERSION, VERSION_BUMP, RuleContext, decide, max_decision
from govern.model.graph import TypeGraph, digest_for_comparison
from govern.model.nodes import Ref

UNCHANGED, NEW, REMOVED = "unchanged", "new", "removed"
T = TypeVar("T")


@dataclass(frozen=True)
class Change:
    """A decided change. `path` is a JSON pointer inside the named type `type` (its key on the new side)
    when the change lies below a type the walk entered through a reference, else inside the root's own
    structure (`type` None)."""

    path: str
    kind: str
    rule: str
    decision: str
    args: tuple[tuple[str, str], ...]
    breaks: tuple[str, ...]
    type: str | None = None
    type_location: str | None = None  # where the source writes the type (`file#pointer`), when known
    # How the walk reached the type (see `root_pointer`); not part of what the change is.
    place: Place | None = field(default=None, compare=False, repr=False)

    @property
    def location(self) -> str:
        """The location as text reads it: `Type#/pointer` inside a named type, `/pointer` (or `/`) inside
        the root's own structure."""
        pointer = self.path or "/"
        return pointer if self.type is None else f"{self.type}#{pointer}"

    def root_pointer(self) -> str:
        """The pointer from the root through every reference the walk followed to get here: as long as that
        chain of types, so built only when asked (the witness search writes documents along it)."""
        return self.path if self.place is None else self.place.route(self.path)

    def sort_key(self) -> tuple:
        """The root's own structure first, then by type and pointer, kind and arguments: the same order on
        every run, whatever the order the walk met them."""
        return (self.type is not None, self.type or "", self.path, self.kind, self.args, self.breaks)

    def location_json(self) -> dict:
        """The location fields of the JSON contract: `path`, and below a named type `type` and, when known,
        `type_location`."""
        found: dict = {"path": self.path}
        if self.type is not None:
            found["type"] = self.type
            if self.type_location is not None:
                found["type_location"] = self.type_location
        return found

    def to_json(self) -> dict:
        return {**self.location_json(), "kind": self.kind, "rule": self.rule, "decision": self.decision,
                "breaks": list(self.breaks), "args": dict(self.args), "text": explain_change(self).to_json()}


@dataclass(frozen=True)
class RootDiff:
    root: str
    decision: str  # unchanged | same-version | version-bump | new | removed
    minimum: str | None  # the decision a record must declare at least (None when unchanged)
    changes: tuple[Change, ...]
    old_digest: str | None
    new_digest: str | None
    renamed_from: str | None = None  # ad-hoc comparisons: the removed root with the same digest
    mode: str = "persistence"  # the compatibility mode the decisions were made in (govern.classify.modes)
    # Transitive modes: digests of earlier records the current structure breaks against.
    breaks_earlier: tuple[str, ...] = ()
    # Whether the root was told from a walk shared with other roots (see SharedWalk): its changes below named
    # types are told as that walk met them.
    shared_walk: bool = False

    def to_json(self, changes: Any = None) -> dict:
        """The root's entry of the JSON contract; `changes` in place of its changes' entries (a report written a
        change at a time passes them as they are made)."""
        document = {"root": self.root, "decision": self.decision, "minimum": self.minimum, "mode": self.mode,
                    "before": self.old_digest, "after": self.new_digest,
                    "changes": [change.to_json() for change in self.changes] if changes is None else changes}
        if self.renamed_from is not None:
            document["renamed_from"] = self.renamed_from
        if self.breaks_earlier:
            document["breaks_earlier"] = list(self.breaks_earlier)
        if self.shared_walk:
            document["shared_walk"] = True
        return document


def _roots(graphs: list[TypeGraph]) -> dict[str, tuple[Side, str, str]]:
    found = {}
    for graph in graphs:
        side = Side.of(graph)
        for root in graph.roots.values():
            found[root.id] = (side, root.type_key, root.role)
    return found


def classify(old_graphs: list[TypeGraph], new_graphs: list[TypeGraph], routes: bool = True) -> list[RootDiff]:
    """Every root of the two sets of graphs, classified. Without `routes`, changes do not keep how the walk
    reached them (`Change.root_pointer` is then the pointer inside their type): only witness documents need the
    route, and each is as long as the walk that found it, so many roots reaching one large component held the
    product of the two."""
    from govern.process import long_lived

    digest_for_comparison(old_graphs, new_graphs)
    old_roots, new_roots = _roots(old_graphs), _roots(new_graphs)
    # What each root's walk met, replayed for the other roots of the same pair of graphs (see Replays): only
    # where a pair of graphs has several roots to walk (recording costs a root walked alone a little).
    sides: dict[tuple[int, int], tuple[Side, Side]] = {}
    pairs_of_sides: Counter = Counter()
    for root_id in old_roots.keys() & new_roots.keys():
        old_side, new_side = old_roots[root_id][0], new_roots[root_id][0]
        sides[id(old_side), id(new_side)] = (old_side, new_side)
        pairs_of_sides[id(old_side), id(new_side)] += 1
    replays = {pair: Replays(own_walks_limit(*sides[pair])) for pair, count in pairs_of_sides.items() if count > 1}
    # The walk's tables (pairs compared, places, digests of inline nodes) hold no reference cycle, and reference
    # counting frees them when it ends: a young-generation collection during the walk would only walk them.
    with long_lived():
        return with_deep_stack(lambda: _classify_roots(old_roots, new_roots, replays, routes))


# How many pairs of named types the roots of one pair of graphs may enter in their own walks, in all (per type of
# the two graphs, and beyond that): one walk's pair limit. The roots left past it are walked together
# (SharedWalk), unless their changes keep their routes (witness documents follow each root's own). No real
# schema pair comes near: the GitHub REST description's 64 changed roots enter 129 pairs in all.
OWN_WALKS_PER_TYPE = PAIRS_PER_TYPE
OWN_WALKS_BEYOND = PAIRS_BEYOND


def own_walks_limit(old: Side, new: Side) -> int:
    """How many pairs of named types the roots of `old` against `new` may enter in their own walks, in all."""
    return OWN_WALKS_PER_TYPE * (len(old.graph.types) + len(new.graph.types)) + OWN_WALKS_BEYOND


def _classify_roots(old_roots: dict[str, tuple[Side, str, str]], new_roots: dict[str, tuple[Side, str, str]],
                    replays: dict[tuple[int, int], Replays], routes: bool) -> list[RootDiff]:
    results: dict[str, RootDiff] = {}
    shared_walks: dict[tuple[int, int], SharedWalk] = {}
    for root_id in sorted(old_roots.keys() | new_roots.keys()):
        old, new = old_roots.get(root_id), new_roots.get(root_id)
        if old is not None and new is not None and not routes:
            pair = (id(old[0]), id(new[0]))
            frames = replays.get(pair)
            if frames is not None and frames.entered >= frames.own_walks \
                    and old[0].digests[old[1]] != new[0].digests[new[1]]:
                if pair not in shared_walks:
                    shared_walks[pair] = SharedWalk(old[0], new[0], frames)
                shared_walks[pair].walk(root_id, old[1], new[1])
                continue
        results[root_id] = classify_root(root_id, old, new, replays, routes)
    for walk in shared_walks.values():
        for root_id, differences in walk.differences().items():
            # (a root that reaches a frame the walk's limit cut short is walked on its own, as it would be alone)
            results[root_id] = classify_root(root_id, old_roots[root_id], new_roots[root_id], replays, routes,
                                             walked=differences)
    return [results[root_id] for root_id in sorted(results)]


# The walk compares named types from an explicit stack (`Walker.differences`), and so does the one question
# known to follow chains of named types, whether an intersection operand guards names (`guards_names`). The
# other questions asked on the way still recurse over the nodes they look into: the thread's deep stack and
# recursion limit are kept as a margin for them.
_DEEP_STACK_BYTES = 1 << 30  # reserved address space; only the pages a deep walk touches are used
_DEEP_RECURSION_LIMIT = 1_000_000
_DEEP_STACK_THREAD = "govern-classify"


def with_deep_stack(function: Callable[[], T]) -> T:
    """Run `function` in a thread with a stack and recursion limit that deep type graphs need (directly when
    already in such a thread: a caller classifying many pairs starts one thread for all of them)."""
    import sys
    import threading

    from govern.patterns import SearchServer

    if threading.current_thread().name == _DEEP_STACK_THREAD:
        return function()
    outcome: dict[str, Any] = {}
    server: SearchServer | None = None

    def run() -> None:
        try:
            outcome["value"] = function()
        except BaseException as error:  # re-raised in the caller's thread
            outcome["error"] = error
        finally:
            if server is not None:
                server.finish()

    previous_size, previous_limit = threading.stack_size(_DEEP_STACK_BYTES), sys.getrecursionlimit()
    sys.setrecursionlimit(max(previous_limit, _DEEP_RECURSION_LIMIT))
    try:
        # (a daemon: once its caller is interrupted, nothing waits for what it computes, nor should the exit)
        worker = threading.Thread(target=run, name=_DEEP_STACK_THREAD, daemon=True)
        # The main thread, which only waits meanwhile, runs the worker's `re` searches that need a bound of time
        # (see govern.patterns.search_by_re): only the main thread can end one.
        server = SearchServer.start(worker)
        worker.start()
        if server is not None:
            server.serve()
        worker.join()
    finally:
        if server is not None:
            server.stop()
        threading.stack_size(previous_size)
        sys.setrecursionlimit(previous_limit)
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]


def classify_root(root_id: str, old: tuple[Side, str, str] | None, new: tuple[Side, str, str] | None,
                  replays: dict[tuple[int, int], Replays] | None = None, routes: bool = True,
                  walked: list[Difference] | None = None) -> RootDiff:
    """`replays`: what the walks of the roots classified before met, kept by the caller for those after (see
    `Replays`); `routes`: whether changes keep how the walk reached them (see `classify`); `walked`: the
    differences a walk shared with other roots told this one (see SharedWalk), in place of its own walk."""
    if old is None and new is None:  # pragma: no cover - callers pass at least one side
        raise ValueError(root_id)
    roles = {entry[2] for entry in (old, new) if entry is not None}
    context = RuleContext(role=next((role for role in STRICT_ROLES if role in roles), sorted(roles)[0]))
    if old is None:
        side, key, _ = new
        change = _decided(Difference("", "root-added", None, Ref(key), (("root", root_id),), ()), context)
        return RootDiff(root_id, NEW, change.decision, (change,), None, side.digests[key])
    if new is None:
        side, key, _ = old
        change = _decided(Difference("", "root-removed", Ref(key), None, (("root", root_id),), (OLD_DATA,)), context)
        return RootDiff(root_id, REMOVED, change.decision, (change,), side.digests[key], None)
    old_side, old_key, old_role = old
    new_side, new_key, new_role = new
    old_digest, new_digest = old_side.digests[old_key], new_side.digests[new_key]
    # What a root is beyond its structure: the writer constant of its source and the rules it answers to.
    # Neither enters the digest, and each is a change to acknowledge.
    framing = _framing_differences(old_side.graph.format_version, new_side.graph.format_version, old_role, new_role)
    if old_digest == new_digest and not framing:
        return RootDiff(root_id, UNCHANGED, None, (), old_digest, new_digest)
    differences = framing
    if walked is not None:  # (None: walked on its own)
        differences += walked
    elif old_digest != new_digest:
        frames = replays.get((id(old_side), id(new_side))) if replays is not None else None
        if frames is None:
            differences += Walker(old_side, new_side).differences(Ref(old_key), Ref(new_key))
        else:
            walker = Walker(old_side, new_side, replays=frames)
            found = list(walker.differences(Ref(old_key), Ref(new_key)))
            frames.entered += walker.pairs_entered()
            if not walker.keep_frames():
                walker = Walker(old_side, new_side)
                found = list(walker.differences(Ref(old_key), Ref(new_key)))
                frames.entered += walker.pairs_entered()
            differences += found
    if old_side.graph.inventory_format != new_side.graph.inventory_format:
        differences.append(Difference("", "inventory-format-changed", None, None,
                                      (("new", str(new_side.graph.inventory_format)),
                                       ("old", str(old_side.graph.inventory_format))), (OLD_DATA, NEW_DATA)))
    if not differences:
        # The digests differ but the walk found nothing it can name: never call that same-version.
        differences.append(Difference("", "structure-changed", None, None, (), (OLD_DATA, NEW_DATA)))
    changes = tuple(sorted((_decided(d, context, routes) for d in differences), key=Change.sort_key))
    decision = max_decision({change.decision for change in changes})
    return RootDiff(root_id, decision, decision, changes, old_digest, new_digest, shared_walk=walked is not None)


def pair_renamed(results: list[RootDiff]) -> list[RootDiff]:
    """A removed and a new root with the same digest are one root under a new name, unchanged.

    Only for comparisons of two files, where root names come from definition names: configured roots are
    named by the configuration, and there a rename is a decision for the records. A digest shared by
    several removed or several new roots pairs nothing (which one was renamed is not known).
    """
    removed = [r for r in results if r.decision == REMOVED]
    added = [r for r in results if r.decision == NEW]
    pairs = {}
    for result in added:
        same = [old for old in removed if old.old_digest == result.new_digest]
        if len(same) == 1 and sum(1 for other in added if other.new_digest == result.new_digest) == 1:
            pairs[same[0].root] = result
    if not pairs:
        return results
    paired_new = {result.root: old_root for old_root, result in pairs.items()}
    renamed = []
    for result in results:
        if result.root in pairs:
            continue
        if result.root in paired_new:
            result = RootDiff(result.root, UNCHANGED, None, (), result.new_digest, result.new_digest,
                              renamed_from=paired_new[result.root])
        renamed.append(result)
    return renamed


def _framing_differences(old_version, new_version, old_role: str, new_role: str) -> list[Difference]:
    found = []
    if old_version != new_version:
        found.append(Difference("", "format-version-changed", None, None,
                                (("new", json.dumps(new_version)), ("old", json.dumps(old_version))), (NEW_DATA,)))
    if old_role != new_role:
        found.append(Difference("", "role-changed", None, None, (("new", new_role), ("old", old_role)),
                                (OLD_DATA, NEW_DATA)))
    return found


def _decided(difference: Difference, context: RuleContext, route: bool = True) -> Change:
    entry = decide(difference, context)
    place = difference.place
    return Change(difference.path, difference.kind, entry.id, entry.decision, difference.args, difference.breaks,
                  place.type if place else None, place.location if place else None, place if route else None)


__all__ = ["Change", "RootDiff", "classify", "pair_renamed", "UNCHANGED", "NEW", "REMOVED", "SAME_VERSION", "VERSION_BUMP",
           "NEW_DATA", "OLD_DATA"]
