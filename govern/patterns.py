"""Searching the regular expressions schemas hold (`patternProperties`) in names, within a bound of time.

Python's `re` backtracks: `^(a|aa)+$` against sixty `a`s and a `!` takes longer than anyone will wait, and a
search in progress cannot be interrupted, not even by Ctrl-C. The `regex` engine avoids most such backtracking
and stops a search after a timeout. A search that does not end in time is not known, which every caller treats
as it treats a pattern it cannot read: conservatively. `re` still decides which patterns are readable, as it did.
The bound is generous, so no pattern a schema means seriously comes near it and the output stays the same from
machine to machine; only a pattern that backtracks without end is cut short, and each such pattern only once."""

from __future__ import annotations

import re
from typing import Any

SECONDS_PER_SEARCH = 1.0
SECONDS_IN_ALL = 5.0  # past this much spent on searches cut short, no further pattern is searched

_slow: set[str] = set()  # patterns whose search was cut short: not searched again
_spent = [0.0]
# Each pattern compiled once, by this module (None: unreadable). `re` and `regex` keep caches of their own, but
# of a few hundred patterns: a schema with more, each searched in many names, compiled every pattern again at
# every search (600 patterns against 600 added names took 44 s).
_compiled: dict[str, Any] = {}


def search(pattern: str, text: str) -> bool | None:
    """Whether `pattern` matches somewhere in `text`; None when that is not known: `re` cannot read the
    pattern, or the search took longer than the bound (or this process has cut enough of them short)."""
    if pattern in _slow:
        return None
    compiled = _compiled.get(pattern, _UNSEEN)
    if compiled is _UNSEEN:
        compiled = _compiled[pattern] = _compile(pattern)
    if compiled is None or _spent[0] >= SECONDS_IN_ALL:
        return None
    try:
        return compiled.search(text, timeout=SECONDS_PER_SEARCH) is not None
    except TimeoutError:
        _slow.add(pattern)
        _spent[0] += SECONDS_PER_SEARCH
        return None
    except (OverflowError, RecursionError):  # pragma: no cover - what `regex` raises on a pathological pattern
        return None


_UNSEEN = object()


def _compile(pattern: str) -> Any:
    """The pattern compiled by `regex`, or None when `re` cannot read it (or `regex` cannot)."""
    try:
        re.compile(pattern)
    except (re.error, OverflowError, RecursionError):
        return None
    import regex

    try:
        return regex.compile(pattern)
    except (regex.error, OverflowError, RecursionError):
        return None
