"""A source's normalized graph: named types, roots and the facts needed to fingerprint them."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cached_property
from types import MappingProxyType
from typing import Iterable, Mapping

from govern.model.fingerprint import DOMAINS, Refinements, alias_targets, count_nodes, scan_types, type_digests
from govern.model.nodes import NamedType, Root

# Facts of the types alone (not of the roots): a copy with fewer roots shares them. (The roots' digests
# depend on the roots, but a copy with fewer roots reaches fewer types: those cover it.)
# (`recorded_digests` marks digests taken from a record's snapshot: a copy checks them as the original would.)
_TYPE_FACTS = ("references_and_policy", "policy_bearing", "inventory_format", "digests", "root_digests",
               "recorded_digests", "node_count", "alias_targets")


@dataclass(frozen=True)
class TypeGraph:
    source: str
    types: dict[str, NamedType]  # by key, in sorted key order
    roots: dict[str, Root]  # by root id, in sorted order
    format_version: str | int | None = None
    origin: str = ""  # the file or module it was read from (for messages)
    locations: dict[str, str] = field(default_factory=dict, compare=False)  # type key -> source location
    # Keywords the source's dialect ignores and the reading therefore left out, so the catalog can say so:
    # (location, keywords, dialect), for example keywords beside `$ref` in draft-07.
    notes: tuple[tuple[str, str, str], ...] = field(default=(), compare=False)
    # The inventory format of the whole source when the graph holds only part of it (a record's snapshot
    # exports just the types its roots reach): one source has one fingerprint domain.
    declared_format: int | None = None
    # Event roots of the whole source, type key -> root id, also when `roots` holds only some of them (a
    # record's snapshot, or one root picked out for comparison): a root reaching an event root leaves the
    # changes inside it to the event root's rules.
    event_roots: dict[str, str] = field(default_factory=dict, compare=False)

    # Facts of the whole graph, asked once per root and per compared node: computed once per graph (the
    # graph is frozen, so the cached value cannot go stale).
    @cached_property
    def references_and_policy(self) -> tuple[Mapping[str, tuple[str, ...]], bool]:
        """The keys each type refers to (aliases left out: see `scan_types` and `refers_to`), and whether any type
        carries a preservation policy: one walk over every node gives both."""
        return scan_types(self.types)

    @cached_property
    def alias_targets(self) -> Mapping[str, str]:
        """The type each alias (a type that is only a reference to another) stands for: the end of its chain of
        references (see `govern.model.fingerprint.alias_targets`), each chain followed once for the whole graph,
        however many comparisons and searches ask."""
        return MappingProxyType(alias_targets(self.types))

    @cached_property
    def node_count(self) -> int:
        """How many nodes the named types hold, a node shared by several counted at each (each property, tuple
        position, alternative and operand a node): what the work of comparing the graph is measured against."""
        return sum(count_nodes(named.node) for named in self.types.values())

    @cached_property
    def policy_bearing(self) -> bool:
        """Whether any type carries a preservation policy (inventory format 2)."""
        return self.references_and_policy[1]

    @cached_property
    def inventory_format(self) -> int:
        if self.declared_format is not None:
            return self.declared_format
        return 2 if self.policy_bearing else 1

    @cached_property
    def digests(self) -> Mapping[str, str]:
        """The digest of every named type (read-only: every reader of the graph shares it)."""
        return MappingProxyType(type_digests(self.types, DOMAINS[self.inventory_format],
                                             referred=self.references_and_policy[0]))

    @cached_property
    def root_digests(self) -> Mapping[str, str]:
        """The digests of the types the roots reach, which is all that comparing roots asks for: a large
        source may hold many more types than its roots reach. Every digest, when those are known already."""
        if "digests" in self.__dict__:
            return self.digests
        return self._reached_digests()

    def _reached_digests(self, earlier: Refinements | None = None,
                         record: Refinements | None = None) -> Mapping[str, str]:
        return MappingProxyType(type_digests(self.types, DOMAINS[self.inventory_format],
                                             reachable_from=[root.type_key for root in self.roots.values()],
                                             referred=self.__dict__.get("references_and_policy", (None,))[0],
                                             earlier=earlier, record=record))

    def take_recorded_digests(self, recorded: Mapping[str, str]) -> None:
        """Take the digests a record's snapshot wrote for every one of these types instead of hashing them again
        (comparing a large source with its last record then hashes one side, not two). They are what hashing
        would give unless the snapshot was edited, which `govern verify` finds: see `check_recorded_digests`."""
        self.__dict__["digests"] = self.__dict__["recorded_digests"] = MappingProxyType(dict(recorded))
        self.__dict__.pop("root_digests", None)

    def check_recorded_digests(self) -> list[str]:
        """The types whose digest, hashed from their structure, is not the one their snapshot recorded (none
        when nothing was recorded); the hashed digests replace the recorded ones from then on."""
        recorded = self.__dict__.pop("recorded_digests", None)
        if recorded is None:
            return []
        for name in ("digests", "root_digests"):
            self.__dict__.pop(name, None)
        hashed = self.digests
        return sorted(key for key in recorded.keys() | hashed.keys() if recorded.get(key) != hashed.get(key))

    def with_roots(self, root_ids: Iterable[str]) -> "TypeGraph":
        """The same graph with only those of `root_ids` it has as roots; the facts of its types computed so
        far carry over, as the types are the same."""
        wanted = set(root_ids)
        restricted = replace(self, roots={root_id: root for root_id, root in self.roots.items() if root_id in wanted})
        for name in _TYPE_FACTS:
            if name in self.__dict__:
                restricted.__dict__[name] = self.__dict__[name]
        return restricted


def digest_for_comparison(old_graphs: Iterable[TypeGraph], new_graphs: Iterable[TypeGraph]) -> None:
    """Compute the root digests of graphs about to be compared, each new graph right after the old graph of its
    source, from what that one's refinement found (see Refinements): a large recursive component that changed
    in a few places is hashed again only as far as the changes reach. The digests are those each graph gives
    alone; graphs that know theirs already, or have no counterpart, are left to compute them when asked."""
    earlier = {}
    for graph in old_graphs:
        earlier.setdefault(graph.source, graph)
    for graph in new_graphs:
        old = earlier.pop(graph.source, None)
        if old is None or old is graph or _knows_digests(old) or _knows_digests(graph):
            continue
        refinements = Refinements()
        old.__dict__["root_digests"] = old._reached_digests(record=refinements)
        graph.__dict__["root_digests"] = graph._reached_digests(earlier=refinements)


def _knows_digests(graph: TypeGraph) -> bool:
    return "root_digests" in graph.__dict__ or "digests" in graph.__dict__


def root_graphs(graphs: Iterable[TypeGraph], *root_ids: str) -> list[TypeGraph]:
    """The graphs that have any of `root_ids` as a root, each restricted to those roots."""
    wanted = set(root_ids)
    return [graph.with_roots(wanted) for graph in graphs if not wanted.isdisjoint(graph.roots)]
