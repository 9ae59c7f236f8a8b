"""Canonical formatting of a sidecar, and the pruning of anchors nothing refers to.

The contract (§3.1): "Anchors referenced by no record are pruned by writers that own the rewrite."
`reply` and `merge` build the new content, so they own their rewrite and prune. `fmt` only changes the
layout of content someone else wrote, so it prunes on request (`--prune-anchors`).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

from govern.sidecar.canonical import canonical_bytes


@dataclass(frozen=True)
class Formatted:
    artifact: dict[str, Any]
    """What is written: the input, less the pruned anchors."""
    content: bytes
    changed: bool
    pruned: tuple[str, ...]
    """Anchor ids removed because no thread, attribution or proposal referred to them."""


ANCHOR_REFERENCE = "anchorId"


def referenced_anchor_ids(artifact: dict[str, Any]) -> set[str]:
    """Every `anchorId` anywhere outside the anchors map, unknown sections and fields included.

    A newer minor may add a root section whose records point at anchors (the contract allows new
    sections within a major); counting their references keeps this writer from destroying their data.
    """
    referenced: set[str] = set()
    pending = [value for key, value in artifact.items() if key != "anchors"]
    while pending:
        value = pending.pop()
        if isinstance(value, dict):
            reference = value.get(ANCHOR_REFERENCE)
            if isinstance(reference, str):
                referenced.add(reference)
            pending.extend(value.values())
        elif isinstance(value, list):
            pending.extend(value)
    return referenced


def prune_anchors(artifact: dict[str, Any]) -> tuple[dict[str, Any], tuple[str, ...]]:
    """Drop the anchors no record refers to; returns the result and the dropped ids, sorted."""
    referenced = referenced_anchor_ids(artifact)
    pruned = tuple(sorted(key for key in artifact["anchors"] if key not in referenced))
    if not pruned:
        return artifact, ()
    result = copy.copy(artifact)
    result["anchors"] = {key: value for key, value in artifact["anchors"].items() if key in referenced}
    return result, pruned


def format_artifact(artifact: dict[str, Any], current: bytes, *, prune: bool = False) -> Formatted:
    """The caller has validated `artifact`; `current` is the file's bytes, to tell whether it changes."""
    pruned: tuple[str, ...] = ()
    if prune:
        artifact, pruned = prune_anchors(artifact)
    content = canonical_bytes(artifact)
    return Formatted(artifact, content, content != current, pruned)
