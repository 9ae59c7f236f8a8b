"""Anchor resolution: text is the truth, context disambiguates, the line hint only breaks ties."""

from __future__ import annotations

import pytest

from govern.sidecar.anchor import build_fingerprint, resolve_anchor

DOC = "intro\nthe cat sat\nmiddle\nthe cat sat\nend\n"


def _fingerprint(text, before="", after="", line=0):
    return {"text": text, "before": before, "after": after, "lineHint": line}


@pytest.mark.parametrize("fingerprint,line", [
    (_fingerprint("cat", "intro\nthe ", " sat\nmiddle", 3), 1),   # context beats a misleading hint
    (_fingerprint("cat", "middle\nthe ", " sat\nend", 0), 3),
    (_fingerprint("cat", "", "", 3), 3),                         # no context: nearest to the hint
    (_fingerprint("cat", "", "", 0), 1),
    (_fingerprint("cat", "the ", " sat", 2), 1),                 # equal context, equal distance: earlier
    (_fingerprint("middle", "zzz", "yyy", 40), 2),               # only one occurrence: found anyway
])
def test_resolution_picks_the_expected_occurrence(fingerprint, line):
    resolution = resolve_anchor(DOC, fingerprint)
    assert resolution.found and resolution.line == line
    assert DOC[resolution.offset:].startswith(fingerprint["text"])


@pytest.mark.parametrize("fingerprint", [_fingerprint("dog", line=1), _fingerprint("", line=1),
                                         _fingerprint("Cat", "the ", " sat", 1)])
def test_missing_text_is_orphaned_never_guessed_by_line(fingerprint):
    resolution = resolve_anchor(DOC, fingerprint)
    assert not resolution.found and resolution.line is None and resolution.offset is None


def test_built_fingerprints_resolve_back_to_their_place():
    for offset in (DOC.index("cat"), DOC.rindex("cat")):
        fingerprint = build_fingerprint(DOC, offset, 3)
        resolution = resolve_anchor(DOC, fingerprint)
        assert resolution.offset == offset and resolution.context_matched and resolution.candidates == 2


def test_context_is_limited_to_three_lines_and_120_characters():
    text = "".join(f"line {n}\n" for n in range(10)) + "TARGET" + "".join(f"\nafter {n}" for n in range(10))
    fingerprint = build_fingerprint(text, text.index("TARGET"), 6)
    assert fingerprint["before"] == "line 8\nline 9\n"
    assert fingerprint["after"] == "\nafter 0\nafter 1"
    assert fingerprint["lineHint"] == 10
    long = "x" * 500 + "TARGET" + "y" * 500
    fingerprint = build_fingerprint(long, 500, 6)
    assert fingerprint["before"] == "x" * 120 and fingerprint["after"] == "y" * 120 and fingerprint["lineHint"] == 0
