"""A source's normalized graph: named types, roots and the facts needed to fingerprint them."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

from govern.model.nodes import NamedType, Root, Union, children


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

    # Both are facts of the whole graph, asked once per root and per compared node: computed once per graph
    # (the graph is frozen, so the cached value cannot go stale).
    @cached_property
    def policy_bearing(self) -> bool:
        """Whether any type carries a preservation policy (inventory format 2)."""
        stack = [named.node for named in self.types.values()]
        while stack:
            node = stack.pop()
            if isinstance(node, Union) and (node.policy is not None or any(a.qualified for a in node.alternatives)):
                return True
            stack.extend(children(node))
        return False

    @cached_property
    def inventory_format(self) -> int:
        if self.declared_format is not None:
            return self.declared_format
        return 2 if self.policy_bearing else 1
