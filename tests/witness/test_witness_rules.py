"""Every positive rule fixture, searched for witnesses: the document and direction of each are asserted.

A breaking change shows a confirmed document; where none can exist, the row says why, so a witness found
later (a better search) or lost (a regression) fails here. Same-version fixtures must keep their promise:
no document breaks a direction they claim to keep.
"""

from __future__ import annotations

import pytest

from conftest import fixtures, witness_rows  # noqa: E402 - the folder's helpers
from govern.classify.rules import RULES

OLD, NEW = "old-data-new-readers", "new-data-old-readers"
FOUND, EXHAUSTED, NO_DIRECTION, HELD = "found", "exhausted", "no-direction", "promise-held"

# case -> [(change location: path, or Type#path inside a named type; rule, outcome, direction, document)]
EXPECTED = {
    "alternatives-changed/positive/anyof-alternative-added": [
        ("/properties/value/anyOf/2", "alternatives-changed", FOUND, NEW, {"id": "", "value": False})],
    "alternatives-changed/positive/anyof-alternative-removed": [
        ("/properties/value/anyOf/2", "alternatives-changed", FOUND, OLD, {"id": "", "value": False})],
    # An integer of at least 0 matches both alternatives: oneOf rejects it.
    "alternatives-changed/positive/anyof-to-oneof-overlapping-numbers": [
        ("/properties/value", "alternatives-changed", FOUND, OLD, {"id": "", "value": 0})],
    "alternatives-changed/positive/anyof-to-oneof-overlapping": [
        ("/properties/value", "alternatives-changed", FOUND, OLD, {"id": "", "value": ""})],
    "constraint-changed/positive/max-length-tightened": [
        ("/properties/note/maxLength", "constraint-changed", FOUND, OLD, {"id": "", "note": "aaaaaa"})],
    "constraint-changed/positive/minimum-loosened": [
        ("/properties/n/minimum", "constraint-changed", FOUND, NEW, {"id": "", "n": 0})],
    # A keyword no validator knows constrains nothing a validator can show.
    "constraint-changed/positive/unknown-keyword-added": [
        ("/properties/note/x-maxUtf8Bytes", "constraint-changed", EXHAUSTED, None, None)],
    "content-model-changed/positive/object-closed": [
        ("/additionalProperties", "content-model-changed", FOUND, OLD, {"id": "", "extra": None})],
    "content-model-changed/positive/object-opened": [
        ("/additionalProperties", "content-model-changed", FOUND, NEW, {"id": "", "extra": None})],
    "content-model-changed/positive/pattern-property-added": [
        ("/patternProperties/^x-", "content-model-changed", FOUND, OLD, {"id": "", "x-": None})],
    "enum-changed/positive/const-changed": [
        ("/properties/kind", "enum-changed", FOUND, OLD, {"id": "", "kind": "note"})],
    "enum-changed/positive/value-added": [
        ("/properties/status", "enum-changed", FOUND, NEW, {"id": "", "status": "archived"})],
    "enum-changed/positive/value-removed": [
        ("/properties/status", "enum-changed", FOUND, OLD, {"id": "", "status": "archived"})],
    # A document that now matches the widened alternative and another one too: oneOf rejects it.
    "exclusive-alternative-widened/positive/required-made-optional-in-overlapping-oneof": [
        ("/oneOf/0/properties/a", "exclusive-alternative-widened", FOUND, OLD, {"b": ""})],
    "exclusive-alternative-widened/positive/type-widened-in-overlapping-oneof": [
        ("/oneOf/0/properties/a", "exclusive-alternative-widened", FOUND, OLD, {"b": "", "a": 0})],
    # Old readers reject the added event type (new data, old readers): excused, since readers are upgraded
    # before writers use a new event type. Old data still reads.
    "event-type-added/positive/event-added-to-discriminated-envelope": [
        ("/properties/event/oneOf/transferred", "event-type-added", HELD, None, None)],
    "event-type-added/positive/event-added-to-kind-union": [
        ("/properties/event/oneOf/refunded", "event-type-added", HELD, None, None)],
    # The writer constant is what writers write, not what readers accept: no document shows its change.
    "format-version-changed/positive/writer-constant-raised": [
        ("", "format-version-changed", EXHAUSTED, None, None)],
    "format-version-changed/positive/writer-constant-raised-with-an-addition": [
        ("", "format-version-changed", EXHAUSTED, None, None)],
    "header-or-envelope-changed/positive/envelope-constraint-loosened": [
        ("/properties/id/maxLength", "header-or-envelope-changed", FOUND, NEW, {"id": "aaaaaaaaaaa"})],
    # Old data of the open envelope may hold `at` with any value; the new envelope types it.
    "header-or-envelope-changed/positive/envelope-field-beside-events": [
        ("/properties/at", "header-or-envelope-changed", FOUND, OLD,
         {"event": {"amount": 0, "type": "deposited"}, "seq": 0, "at": None})],
    # A new header root is a version-bump by its role: no direction to show a document for.
    "header-or-envelope-changed/positive/header-root-added": [
        ("", "header-or-envelope-changed", NO_DIRECTION, None, None)],
    # Old data of an open object may hold the name with any value; the new header types it.
    "header-or-envelope-changed/positive/optional-field-on-header": [
        ("/properties/note", "header-or-envelope-changed", FOUND, OLD, {"id": "", "note": None})],
    "optional-made-required/positive/added-to-required": [
        ("/properties/note", "optional-made-required", FOUND, OLD, {"id": ""})],
    "optional-property-added/positive/nested-object-of-guarded-operand": [
        ("Base#/properties/meta/properties/note", "optional-property-added", HELD, None, None)],
    "optional-property-added/positive/open-object": [
        ("/properties/note", "optional-property-added", HELD, None, None)],
    "optional-property-added/positive/subtree-in-referenced-definition": [
        ("Meta#/properties/review", "optional-property-added", HELD, None, None)],
    "optional-property-added-to-closed/positive/closed-object": [
        ("/properties/note", "optional-property-added-to-closed", FOUND, NEW, {"id": "", "note": ""})],
    "optional-property-added-to-closed/positive/operand-of-unevaluated-properties": [
        ("Base#/properties/note", "optional-property-added-to-closed", FOUND, NEW, {"id": "", "note": ""})],
    "optional-property-added-to-closed/positive/reserved-name-added": [
        ("/properties/legacy", "optional-property-added-to-closed", FOUND, OLD, {"id": "", "legacy": None})],
    "optional-property-added-to-closed/positive/typed-content-model": [
        ("/properties/count", "optional-property-added-to-closed", FOUND, OLD, {"id": "", "count": ""})],
    "optional-property-added-to-closed/positive/unevaluated-properties-beside-allof": [
        ("/properties/note", "optional-property-added-to-closed", FOUND, NEW, {"id": "", "note": ""})],
    # Preservation policy is a promise about readers, not about validation: no validator can show it.
    "policy-changed/positive/kind-qualification-changed": [
        ("/properties/source/oneOf/developer", "policy-changed", EXHAUSTED, None, None)],
    # Binding the slot also moves the source into the policy-bearing fingerprint domain.
    "policy-changed/positive/policy-bound": [
        ("", "policy-changed", EXHAUSTED, None, None),
        ("/properties/source", "policy-changed", EXHAUSTED, None, None)],
    # A role says which rules apply; it changes nothing a validator sees.
    "policy-changed/positive/role-changed-record-to-event": [("", "policy-changed", EXHAUSTED, None, None)],
    "property-removed/positive/made-reserved": [
        ("/properties/legacy", "property-removed", FOUND, OLD, {"id": "", "legacy": ""})],
    # New data of an open object may hold the removed name with any value; old readers typed it.
    "property-removed/positive/optional-removed": [
        ("/properties/note", "property-removed", FOUND, NEW, {"id": "", "note": None})],
    "property-removed/positive/renamed": [
        ("/properties/note", "property-removed", FOUND, NEW, {"id": "", "note": None})],
    "property-removed/positive/required-removed": [
        ("/properties/note", "property-removed", FOUND, NEW, {"id": ""})],
    "qualified-kind-added/positive/same-policy": [
        ("/properties/source/oneOf/tool", "qualified-kind-added", HELD, None, None)],
    "required-made-optional/positive/dropped-from-required": [
        ("/properties/note", "required-made-optional", HELD, None, None)],
    "required-property-added/positive/required-added": [
        ("/properties/note", "required-property-added", FOUND, OLD, {"id": ""})],
    "required-property-added/positive/required-added-to-closed": [
        ("/properties/note", "required-property-added", FOUND, OLD, {"id": ""})],
    "reserved-made-real/positive/reserved-given-a-type": [
        ("/properties/legacy", "reserved-made-real", FOUND, NEW, {"id": "", "legacy": ""})],
    # A compatibility mode is no structure: the classifier sees nothing to search.
    "mode-changed/positive/backward-to-persistence": [],
    "mode-changed/positive/full-to-backward": [],
    "mode-changed/positive/persistence-to-backward": [],
    "mode-changed/positive/transitive-dropped": [],
    "mode-strengthened/positive/backward-to-full": [],
    "mode-strengthened/positive/backward-to-full-with-a-loosening": [
        ("/properties/a/maxLength", "constraint-changed", FOUND, NEW, {"a": "aaaaaaaaaaa"})],
    "mode-strengthened/positive/full-to-full-transitive": [],
    "root-added/positive/event-root-added": [],
    "root-added/positive/record-root-added": [],
    # A removed root is read by nobody: the new side's schema for it is `false`.
    "root-removed/positive/event-root-removed": [("", "root-removed", FOUND, OLD, {})],
    "root-removed/positive/record-root-removed": [("", "root-removed", FOUND, OLD, {})],
    # A $ref beside an inline copy of its target changes the digest, not what validates.
    "structure-changed/positive/reference-beside-its-inline-copy": [
        ("", "structure-changed", EXHAUSTED, None, None)],
    "type-changed/positive/integer-to-number": [("/properties/n", "type-changed", FOUND, NEW, {"id": "", "n": 0.5})],
    "type-changed/positive/not-subschema-changed": [
        ("/properties/note/not", "type-changed", FOUND, OLD, {"id": "", "note": "y"})],
    "type-changed/positive/object-to-array": [("/properties/meta", "type-changed", FOUND, OLD, {"id": "", "meta": {}})],
    "type-changed/positive/string-to-integer": [
        ("/properties/note", "type-changed", FOUND, OLD, {"id": "", "note": ""})],
}

POSITIVE = [case for case in fixtures.fixture_cases() if case.polarity == "positive"]


def test_every_positive_fixture_has_an_expected_row():
    assert sorted(EXPECTED) == sorted(case.id for case in POSITIVE)


def test_every_version_bump_rule_shows_a_confirmed_witness_somewhere():
    witnessed = {row[1] for rows in EXPECTED.values() for row in rows if row[2] == FOUND}
    bump_rules = {rule.id for rule in RULES if rule.decision == "version-bump"}
    # policy-changed: preservation is invisible to validation; structure-changed: only what no other rule
    # can name reaches it, and the fixture's change does not alter what validates; format-version-changed:
    # the writer constant is not what readers validate; mode-changed: a compatibility mode is no structure.
    assert bump_rules - witnessed == {"policy-changed", "structure-changed", "format-version-changed",
                                      "mode-changed"}


@pytest.mark.parametrize("case", POSITIVE, ids=lambda case: case.id)
def test_fixture_witnesses(case):
    assert witness_rows(case) == EXPECTED[case.id]


def test_an_added_event_type_is_excused_only_for_old_readers(monkeypatch):
    """Without its entry in EXCUSED the promise of `event-type-added` is unsound by validation: old readers
    reject the new type. The entry excuses that direction alone; old data is still searched."""
    from govern.witness import search

    assert search.EXCUSED["event-type-added"] == (NEW,)
    case = next(case for case in POSITIVE if case.id == "event-type-added/positive/event-added-to-discriminated-envelope")
    monkeypatch.delitem(search.EXCUSED, "event-type-added")
    assert witness_rows(case) == [("/properties/event/oneOf/transferred", "event-type-added", "unsound", NEW,
                                   {"seq": 0, "event": {"amount": 0, "to": "", "type": "transferred"}})]


def test_the_same_witness_on_every_run():
    case = next(case for case in POSITIVE if case.id == "enum-changed/positive/value-removed")
    assert witness_rows(case) == witness_rows(case) == witness_rows(case, budget=5000)


@pytest.mark.parametrize("case", [case for case in fixtures.fixture_cases() if case.polarity == "negative"],
                         ids=lambda case: case.id)
def test_negative_fixtures_break_no_same_version_promise(case):
    assert all(row[2] != "unsound" for row in witness_rows(case))
