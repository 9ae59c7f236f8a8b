"""Compatibility modes: which break directions make a change a version-bump.

`persistence` is the rule table (seed 001). The other modes are those schema registries check: a change is
same-version exactly when it breaks in none of the mode's directions. `backward`: new readers read old
data; `forward`: old readers read new data; `full`: both. A `-transitive` mode checks the current
structure against every earlier record of the root, not only the latest one.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Callable

from govern.classify.changes import NEW_DATA, OLD_DATA, Difference
from govern.classify.classify import NEW, REMOVED, UNCHANGED, Change, RootDiff, classify
from govern.classify.rules import SAME_VERSION, VERSION_BUMP, RuleContext, decide, max_decision
from govern.config import MODES
from govern.model.graph import TypeGraph, root_graphs

PERSISTENCE = "persistence"
DIRECTIONS = {"backward": (OLD_DATA,), "forward": (NEW_DATA,), "full": (OLD_DATA, NEW_DATA)}


def directions(mode: str) -> tuple[str, ...]:
    """The break directions that count in a mode (none for persistence, which decides by rule)."""
    if mode not in MODES:
        raise ValueError(f"unknown compatibility mode {mode!r}")
    return DIRECTIONS.get(mode.removesuffix("-transitive"), ())


def transitive(mode: str) -> bool:
    return mode.endswith("-transitive")


def in_mode(result: RootDiff, mode: str) -> RootDiff:
    """The result decided in a mode: each change by its directions, the root by the maximum.

    A new root reads no old data and meets no old reader; a removed root is a version-bump in every mode
    (its stored data can no longer be read).
    """
    if mode == PERSISTENCE:
        return result
    if result.decision in (UNCHANGED, REMOVED):
        return replace(result, mode=mode)
    counted = directions(mode)
    if result.decision == NEW:
        return replace(result, minimum=SAME_VERSION, mode=mode,
                       changes=tuple(replace(change, decision=SAME_VERSION) for change in result.changes))
    changes = tuple(replace(change, decision=VERSION_BUMP if set(change.breaks) & set(counted) else SAME_VERSION)
                    for change in result.changes)
    decision = max_decision({change.decision for change in changes})
    return replace(result, decision=decision, minimum=decision, changes=changes, mode=mode)


def with_earlier(decided: RootDiff, earlier: list[RootDiff], mode: str) -> RootDiff:
    """A transitive mode: a result decided against the latest record, raised to version-bump when the
    current structure breaks, in the mode's directions, against any earlier record of the root."""
    if decided.decision == VERSION_BUMP:
        return decided
    breaking = [root for root in (in_mode(other, mode) for other in earlier) if root.minimum == VERSION_BUMP]
    if not breaking:
        return decided
    return replace(decided, decision=VERSION_BUMP, minimum=VERSION_BUMP,
                   breaks_earlier=tuple(sorted(other.old_digest or "" for other in breaking)))


def at_least_as_strict(mode: str, other: str) -> bool:
    """Whether `mode` checks everything `other` checks: each of its directions, against at least as many
    records. Persistence decides by rules rather than directions and compares with no other mode."""
    if PERSISTENCE in (mode, other):
        return mode == other
    return set(directions(mode)) >= set(directions(other)) and (transitive(mode) or not transitive(other))


def with_mode_change(decided: RootDiff, recorded: str) -> RootDiff:
    """A result whose root was last recorded in another mode: the change of mode is a change of its own
    (the rule table decides whether it may stay at the same version), so it is never silent."""
    difference = Difference("", "mode-changed", None, None, (("new", decided.mode), ("old", recorded)), ())
    rule = decide(difference, RuleContext(role="record"))  # the mode rules precede every role rule
    change = Change("", "mode-changed", rule.id, rule.decision, difference.args, ())
    changes = tuple(sorted((*decided.changes, change), key=lambda c: c.sort_key()))
    # A transitive mode may already have raised the root beyond its changes (breaks_earlier).
    decision = max_decision({c.decision for c in changes} | {decided.minimum})
    return replace(decided, decision=decision, minimum=decision, changes=changes)


def source_of(root_id: str) -> str:
    return root_id.partition(":")[0]


def apply_modes(results: list[RootDiff], modes: dict[str, str],
                earlier: Callable[[str], list[RootDiff]] | None = None,
                recorded: dict[str, str] | None = None) -> list[RootDiff]:
    """Each result decided in its source's mode (`modes`: source name -> mode; absent means persistence).

    `earlier(root)` classifies the current structure of a root against each record before its latest one;
    it is asked only for roots of transitive modes. `recorded` (root -> mode) holds the mode each root's
    latest record was decided in; a root whose mode differs from it carries a `mode-changed` change.
    """
    decided = []
    for result in results:
        mode = modes.get(source_of(result.root), PERSISTENCE)
        before = (recorded or {}).get(result.root, mode)
        mode_changed = before != mode and result.decision not in (NEW, REMOVED)
        outcome = in_mode(result, mode)
        # Unchanged structure is checked against earlier records too when the mode just became transitive.
        if transitive(mode) and earlier is not None and result.decision not in (REMOVED, NEW) and \
                (result.decision != UNCHANGED or mode_changed):
            outcome = with_earlier(outcome, earlier(result.root), mode)
        if mode_changed:
            outcome = with_mode_change(outcome, before)
        decided.append(outcome)
    return decided


def source_modes(config) -> dict[str, str]:
    """Source name -> mode, for the sources whose mode is not persistence."""
    return {source.name: source.mode for source in config.sources if source.mode != PERSISTENCE}


def against_each(root: str, earlier: list[list[TypeGraph]], new_graphs: list[TypeGraph]) -> list[RootDiff]:
    """The current structure of a root classified against each of its earlier snapshots."""
    current = root_graphs(new_graphs, root)
    return [result for graphs in earlier for result in classify(graphs, current) if result.root == root]
