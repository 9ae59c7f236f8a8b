"""Facts of the sidecar contract (format major 1) that code needs as data.

Key orders follow the contract's field tables, which are normative for serialization; a test checks
that the JSON Schema names the same properties, so the two cannot drift apart unnoticed.
"""

from __future__ import annotations

FORMAT_MAJOR = 1
"""The major this implementation reads and writes; a larger schemaVersion is read-only."""

SIDECAR_DIR = ".threads"

# object kind -> its known keys, in serialization order
KNOWN_KEYS: dict[str, tuple[str, ...]] = {
    "Artifact": ("schemaVersion", "document", "anchors", "threads", "attributions", "proposals"),
    "Document": ("path",),
    "Anchor": ("fingerprint",),
    "Fingerprint": ("text", "before", "after", "lineHint"),
    "Provenance": ("kind", "id", "email", "agent"),
    "Agent": ("sdk", "model", "sessionId", "onBehalfOf"),
    "OnBehalfOf": ("id", "email"),
    "Thread": ("id", "anchorId", "status", "messages"),
    "Message": ("id", "author", "body", "createdAt"),
    "AttributionRecord": ("id", "anchorId", "author", "createdAt", "updatedAt", "turnId"),
    "Proposal": ("id", "anchorId", "replacement", "author", "createdAt", "turnId", "instruction"),
}

# (object kind, key) -> the kind of the value; "[X]" is a list of X, "{X}" a map of X
CHILD_KINDS: dict[tuple[str, str], str] = {
    ("Artifact", "document"): "Document",
    ("Artifact", "anchors"): "{Anchor}",
    ("Artifact", "threads"): "[Thread]",
    ("Artifact", "attributions"): "[AttributionRecord]",
    ("Artifact", "proposals"): "[Proposal]",
    ("Anchor", "fingerprint"): "Fingerprint",
    ("Provenance", "agent"): "Agent",
    ("Agent", "onBehalfOf"): "OnBehalfOf",
    ("Thread", "messages"): "[Message]",
    ("Message", "author"): "Provenance",
    ("AttributionRecord", "author"): "Provenance",
    ("Proposal", "author"): "Provenance",
}

# the record sections merged by id, with the prefix reference writers give new ids
RECORD_SECTIONS: dict[str, str] = {"threads": "t_", "attributions": "at_", "proposals": "p_"}
MESSAGE_PREFIX = "m_"
ANCHOR_PREFIX = "a_"

# Context stored around an anchor: enough to tell repeated text apart, small enough to survive edits.
CONTEXT_MAX_LINES = 3
CONTEXT_MAX_CHARS = 120


def utf16_key(text: str) -> bytes:
    """Sort key ordering strings by UTF-16 code units.

    Writers in other languages (JavaScript's default sort, for one) compare code units, not code points;
    ordering the same way keeps every conforming writer's output byte-identical, even for astral text.
    """
    return text.encode("utf-16-be", "surrogatepass")
