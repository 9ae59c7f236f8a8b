"""Format versions (the writer constant of a source): how they are ordered, and what a version-bump must
do with them. A version-bump ends on a declared format version above the one its predecessor declared.
"""

from __future__ import annotations

import re
from typing import Any

_DOTTED = re.compile(r"\d+(\.\d+)*")


def source_of(root_id: str) -> str:
    """The source a root belongs to: `sidecar:Artifact` -> `sidecar`."""
    return root_id.partition(":")[0]


def format_version_key(value: Any) -> tuple:
    """Order format versions: integers numerically, dotted versions part by part (pre-release and build
    suffixes ignored), anything else as text."""
    if isinstance(value, int) and not isinstance(value, bool):
        return (value,)
    if isinstance(value, str):
        core = value.split("-")[0].split("+")[0]
        if _DOTTED.fullmatch(core):
            return tuple(int(part) for part in core.split("."))
    return (str(value),)


def raises_format_version(before: Any, after: Any) -> bool:
    """Whether `after` is a declared format version above `before`.

    No version after is never a raise. A first declared version (nothing before) is one: the source
    starts saying which format it writes.
    """
    if after is None:
        return False
    if before is None:
        return True
    try:
        return format_version_key(after) > format_version_key(before)
    except TypeError:  # an integer and a text version cannot be ordered
        return False


def same_version(first: Any, second: Any) -> bool:
    """Equal declared versions: `1` and `"1"` are different declarations (and `true` is no version)."""
    return type(first) is type(second) and first == second


def show_version(value: Any) -> str:
    """A declared version as the declaration spells it: `1`, `"0.2.0"` or `null`."""
    import json

    return json.dumps(value, ensure_ascii=False)
