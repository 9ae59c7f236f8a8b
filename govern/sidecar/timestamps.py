"""UTC instants as the contract writes them: `YYYY-MM-DDTHH:MM:SS.sssZ`.

A pattern alone accepts month 13 or February 30; these helpers also ask the calendar.
"""

from __future__ import annotations

import re
from datetime import datetime, timezone

_SHAPE = re.compile(r"(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?Z")


def has_instant_shape(text: object) -> bool:
    return isinstance(text, str) and _SHAPE.fullmatch(text) is not None


def is_utc_instant(text: object) -> bool:
    if not isinstance(text, str):
        return False
    match = _SHAPE.fullmatch(text)
    if match is None:
        return False
    year, month, day, hour, minute, second = (int(part) for part in match.groups()[:6])
    try:
        datetime(year, month, day, hour, minute, second, tzinfo=timezone.utc)
    except ValueError:
        return False
    return True


def instant_key(text: str) -> tuple[str, str]:
    """A key ordering valid instants chronologically, whatever the number of fraction digits.

    The fixed-width date and time compare correctly as text; the fraction is padded so that
    `...:00Z` sorts before `...:00.5Z`, which plain string comparison gets wrong.
    """
    match = _SHAPE.fullmatch(text)
    if match is None:
        return (text, "")
    fraction = (match.group(7) or "").ljust(32, "0")
    return (text[:19], fraction)


def format_instant(moment: datetime) -> str:
    """Millisecond precision and a `Z` suffix, the shape every reference writer stamps."""
    moment = moment.astimezone(timezone.utc)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"
