"""Canonical formatting of a sidecar, with optional pruning of anchors nothing refers to."""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

from govern.sidecar.canonical import canonical_bytes


@dataclass(frozen=True)
class Formatted:
    content: bytes
    changed: bool
    pruned: tuple[str, ...]
    """Anchor ids removed because no thread, attribution or proposal referred to them."""


def referenced_anchor_ids(artifact: dict[str, Any]) -> set[str]:
    referenced: set[str] = set()
    for section in ("threads", "attributions", "proposals"):
        for record in artifact.get(section, []):
            if isinstance(record, dict) and isinstance(record.get("anchorId"), str):
                referenced.add(record["anchorId"])
    return referenced


def prune_anchors(artifact: dict[str, Any]) -> tuple[dict[str, Any], tuple[str, ...]]:
    """Drop unreferenced anchors. Only on request: a writer that did not create them may not own them."""
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
    return Formatted(content, content != current, pruned)
