"""Union changes are reported per alternative: keyed by discriminator value where there is one, otherwise
by the alternative's type name, with the directions each breaks in."""

from __future__ import annotations

import copy

import pytest

OLD, NEW = "old-data-new-readers", "new-data-old-readers"
D2020 = "https://json-schema.org/draft/2020-12/schema"


def payment(kind: str, **properties) -> dict:
    return {"type": "object", "properties": {"kind": {"const": kind}, **properties}, "required": ["kind"]}


def document(union: dict, defs: dict | None = None) -> dict:
    schema = {"$schema": D2020, "title": "Doc", "type": "object", "properties": {"payment": union},
              "required": ["payment"]}
    if defs:
        schema["$defs"] = defs
    return schema


STRING = {"type": "string"}
CARD, CASH, CHEQUE = payment("card", number=STRING), payment("cash"), payment("cheque", bank=STRING)
NAMED = {"Card": {"type": "object", "properties": {"number": STRING}, "required": ["number"]},
         "Cash": {"type": "object", "properties": {"coins": {"type": "integer"}}, "required": ["coins"]},
         "Cheque": {"type": "object", "properties": {"bank": STRING}, "required": ["bank"]}}


def refs(*names: str) -> list[dict]:
    return [{"$ref": f"#/$defs/{name}"} for name in names]


def mapped(*names: str) -> dict:
    """A union as pydantic writes a discriminated one: oneOf of references plus the discriminator mapping."""
    return {"oneOf": refs(*names), "discriminator": {
        "propertyName": "kind", "mapping": {name.lower(): f"#/$defs/{name}" for name in names}}}


def tagged(name: str, **properties) -> dict:
    return {"type": "object", "properties": {"kind": {"const": name.lower(), "type": "string"}, **properties}}


MAPPED_DEFS = {name: tagged(name, amount={"type": "integer"}) for name in ("Card", "Cash", "Cheque")}
WITH_LAST4 = {**MAPPED_DEFS, "Card": tagged("Card", amount={"type": "integer"}, last4=STRING)}

# (old, new) -> [(path, kind, alternative, breaks)] of the document root's changes
CASES = {
    "discriminated-alternative-added": (
        document({"oneOf": [CARD, CASH]}), document({"oneOf": [CARD, CASH, CHEQUE]}),
        [("/properties/payment/oneOf/cheque", "alternative-added", "cheque", [NEW])]),
    "discriminated-alternative-removed": (
        document({"oneOf": [CARD, CASH, CHEQUE]}), document({"oneOf": [CARD, CASH]}),
        [("/properties/payment/oneOf/cheque", "alternative-removed", "cheque", [OLD])]),
    "discriminated-alternative-changed": (
        document({"oneOf": [CARD, CASH]}),
        document({"oneOf": [payment("card", number=STRING, last4=STRING), CASH]}),
        [("/properties/payment/oneOf/card/properties/last4", "optional-property-added", "card", [OLD])]),
    "mapping-alternative-added": (
        document(mapped("Card", "Cash"), MAPPED_DEFS), document(mapped("Card", "Cash", "Cheque"), MAPPED_DEFS),
        [("/properties/payment/oneOf/cheque", "alternative-added", "cheque", [NEW])]),
    "mapping-alternative-removed": (
        document(mapped("Card", "Cash", "Cheque"), MAPPED_DEFS), document(mapped("Card", "Cash"), MAPPED_DEFS),
        [("/properties/payment/oneOf/cheque", "alternative-removed", "cheque", [OLD])]),
    "mapping-alternative-changed": (
        document(mapped("Card", "Cash"), MAPPED_DEFS), document(mapped("Card", "Cash"), WITH_LAST4),
        [("Card#/properties/last4", "optional-property-added", "card", [OLD])]),
    "named-alternative-added": (
        document({"anyOf": refs("Card", "Cash")}, NAMED), document({"anyOf": refs("Card", "Cash", "Cheque")}, NAMED),
        [("/properties/payment/anyOf/2", "alternative-added", "Cheque", [NEW])]),
    "named-alternative-removed": (
        document({"anyOf": refs("Card", "Cash", "Cheque")}, NAMED), document({"anyOf": refs("Card", "Cash")}, NAMED),
        [("/properties/payment/anyOf/2", "alternative-removed", "Cheque", [OLD])]),
    # Every alternative changed, all of one kind: each is paired with the type of its name, not reported removed
    # and added.
    "named-alternatives-all-changed": (
        document({"anyOf": refs("Card", "Cash")}, NAMED),
        document({"anyOf": refs("Card", "Cash")}, {
            **NAMED, "Card": {**NAMED["Card"], "properties": {**NAMED["Card"]["properties"], "last4": STRING}},
            "Cash": {**NAMED["Cash"], "properties": {**NAMED["Cash"]["properties"], "note": STRING}}}),
        [("Card#/properties/last4", "optional-property-added", "Card", [OLD]),
         ("Cash#/properties/note", "optional-property-added", "Cash", [OLD])]),
    # A name on one side only: the rest pair by name, and the two left, one object each, by kind.
    "named-alternative-replaced-beside-changed-ones": (
        document({"anyOf": refs("Card", "Cash")}, NAMED),
        document({"anyOf": refs("Cheque", "Cash")}, {
            **NAMED, "Cash": {**NAMED["Cash"], "properties": {**NAMED["Cash"]["properties"], "note": STRING}}}),
        [("Cash#/properties/note", "optional-property-added", "Cash", [OLD]),
         ("Cheque#/properties/bank", "required-property-added", "Cheque", [OLD]),
         ("Cheque#/properties/number", "property-removed", "Cheque", [NEW])]),
    "type-became-a-union": (
        document(STRING), document({"anyOf": [STRING, {"type": "integer"}]}),
        [("/properties/payment", "alternative-added", "integer", [NEW])]),
    "union-became-a-type": (
        document({"anyOf": [STRING, {"type": "integer"}]}), document(STRING),
        [("/properties/payment", "alternative-removed", "integer", [OLD])]),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_union_changes_name_their_alternative(pair_classifier, name):
    old, new, expected = CASES[name]
    entry = pair_classifier.classify(copy.deepcopy(old), copy.deepcopy(new))["new:Doc"]
    # A change inside a named alternative is located in that type (`Type#/pointer`).
    assert [(f"{change['type']}#{change['path']}" if "type" in change else change["path"], change["kind"],
             change["args"].get("alternative"), change["breaks"]) for change in entry["changes"]] == expected, entry
    assert not {change["kind"] for change in entry["changes"]} & {"operand-added", "operand-removed"}


@pytest.mark.parametrize("keyword", ["anyOf", "oneOf", "allOf"])
def test_alternatives_and_operands_inside_a_recursive_component_pair_by_name(pair_classifier, keyword):
    # Card and Cash each lead back to the document: adding an optional property to the document changes the digest
    # of every type of the cycle, so no alternative (or allOf operand) has its equal on the other side, and both are
    # objects.
    defs = {name: {**schema, "properties": {**schema["properties"], "back": {"$ref": "#"}}}
            for name, schema in NAMED.items()}
    if keyword == "oneOf":  # told apart by a required constant, so that they never overlap
        defs = {name: {**schema, "properties": {**schema["properties"], "kind": {"const": name}},
                       "required": [*schema["required"], "kind"]} for name, schema in defs.items()}
    old = document({keyword: refs("Card", "Cash")}, defs)
    new = copy.deepcopy(old)
    new["properties"]["note"] = STRING
    entry = pair_classifier.classify(old, new)["new:Doc"]
    assert entry["decision"] == "same-version", entry
    assert {change["kind"] for change in entry["changes"]} == {"optional-property-added"}, entry


@pytest.mark.parametrize("keyword", ["anyOf", "oneOf"])
def test_inline_alternatives_inside_a_recursive_component_pair_by_their_property_names(pair_classifier, keyword):
    # Two inline objects that each lead back to the document: adding an optional property to the document changes
    # both digests, and neither has a name; each pairs with the object that declares its property names.
    alternatives = [{"type": "object", "properties": {"card": STRING, "kind": {"const": "card"},
                                                      "back": {"$ref": "#"}}, "required": ["card", "kind"]},
                    {"type": "object", "properties": {"cash": {"type": "integer"}, "kind": {"const": "cash"},
                                                      "back": {"$ref": "#"}}, "required": ["cash", "kind"]}]
    old = document({keyword: alternatives})
    new = copy.deepcopy(old)
    new["properties"]["note"] = STRING
    entry = pair_classifier.classify(old, new)["new:Doc"]
    assert entry["decision"] == "same-version", entry
    assert {change["kind"] for change in entry["changes"]} == {"optional-property-added"}, entry


def test_objects_that_declare_other_names_are_still_removed_and_added(pair_classifier):
    # One object keeps its names and changes a property's type; the other is replaced by one of other names: the
    # first pair is compared, the replaced one is removed and its successor added.
    old = document({"anyOf": [{"type": "object", "properties": {"a": STRING}},
                              {"type": "object", "properties": {"b": STRING}}]})
    new = document({"anyOf": [{"type": "object", "properties": {"c": STRING}},
                              {"type": "object", "properties": {"b": {"type": "integer"}}}]})
    entry = pair_classifier.classify(old, new)["new:Doc"]
    assert sorted((change["path"], change["kind"]) for change in entry["changes"]) == [
        ("/properties/payment/anyOf/0", "alternative-added"), ("/properties/payment/anyOf/0", "alternative-removed"),
        ("/properties/payment/anyOf/1/properties/b", "type-changed")], entry


def test_a_oneof_pair_whose_old_alternatives_overlapped_breaks_both_ways(pair_classifier):
    # Both old alternatives admit {"kind": "a"}, which the old oneOf therefore rejects; each new one requires its own
    # constant, so the new oneOf reads it. Paired by name, each alternative's change moves instances out of the old
    # overlap: new data breaks old readers too, though the new alternatives overlap nowhere.
    old_defs = {"A": {"type": "object", "properties": {"a": STRING}},
                "B": {"type": "object", "properties": {"b": {"type": "integer"}}}}
    new_defs = {name: {**schema, "properties": {**schema["properties"], "kind": {"const": name.lower()}},
                       "required": ["kind"]} for name, schema in old_defs.items()}
    entry = pair_classifier.classify(document({"oneOf": refs("A", "B")}, old_defs),
                                     document({"oneOf": refs("A", "B")}, new_defs))["new:Doc"]
    assert [(change["type"], change["kind"], change["breaks"]) for change in entry["changes"]] == [
        ("A", "required-property-added", [OLD, NEW]), ("B", "required-property-added", [OLD, NEW])], entry


def test_a_changed_discriminator_value_is_one_alternative_removed_and_one_added(pair_classifier):
    renamed = {**MAPPED_DEFS, "Cash": tagged("Coins", amount={"type": "integer"})}
    old = document(mapped("Card", "Cash"), MAPPED_DEFS)
    new = document({"oneOf": refs("Card", "Cash"), "discriminator": {"propertyName": "kind", "mapping": {
        "card": "#/$defs/Card", "coins": "#/$defs/Cash"}}}, renamed)
    entry = pair_classifier.classify(old, new)["new:Doc"]
    assert entry["decision"] == "version-bump"
    assert [(change["kind"], change["args"].get("alternative")) for change in entry["changes"]] == [
        ("alternative-removed", "cash"), ("alternative-added", "coins")]


CONTAINERS = {
    "arrays": lambda held: {"type": "array", "items": held},
    "maps": lambda held: {"type": "object", "additionalProperties": held},
    "tuples": lambda held: {"type": "array", "prefixItems": [held, STRING], "items": False},
    "arrays of arrays": lambda held: {"type": "array", "items": {"type": "array", "items": held}},
}


@pytest.mark.parametrize("container", sorted(CONTAINERS))
def test_inline_containers_inside_a_recursive_component_pair_by_what_they_hold(pair_classifier, container):
    # Two inline containers of one kind: one holds the document itself, the other a type that leads back to it.
    # Adding an optional property to that type changes both digests, and neither container has a name; each pairs
    # with the container that holds the same, and the change is told once, in the type.
    wrap = CONTAINERS[container]
    defs = {"Card": {"type": "object", "properties": {"number": STRING, "back": {"$ref": "#"}}}}
    old = document({"anyOf": [wrap({"$ref": "#"}), wrap({"$ref": "#/$defs/Card"})]}, defs)
    new = copy.deepcopy(old)
    new["$defs"]["Card"]["properties"]["note"] = STRING
    entry = pair_classifier.classify(old, new)["new:Doc"]
    assert entry["decision"] == "same-version", entry
    assert [(change.get("type"), change["path"], change["kind"]) for change in entry["changes"]] == [
        ("Card", "/properties/note", "optional-property-added")], entry


def test_inline_containers_that_hold_otherwise_are_still_removed_and_added(pair_classifier):
    # Arrays of the document, of strings and of integers: the last became an array of objects. The first pairs by
    # what it holds, and is unchanged; the array of integers is removed and the array of objects added.
    def union(last: dict) -> dict:
        return {"anyOf": [{"type": "array", "items": {"$ref": "#"}}, {"type": "array", "items": STRING},
                          {"type": "array", "items": last}]}

    entry = pair_classifier.classify(document(union({"type": "integer"})),
                                     document(union({"type": "object", "properties": {"x": STRING}})))["new:Doc"]
    assert sorted((change["path"], change["kind"]) for change in entry["changes"]) == [
        ("/properties/payment/anyOf/2", "alternative-added"), ("/properties/payment/anyOf/2", "alternative-removed")], \
        entry


def test_inline_containers_of_one_kind_of_value_are_compared(pair_classifier):
    # As alternatives of one kind each are: an array of integers that became one of booleans, beside another array.
    def union(last: str) -> dict:
        return {"anyOf": [{"type": "array", "items": {"$ref": "#"}}, {"type": "array", "items": {"type": last}}]}

    entry = pair_classifier.classify(document(union("integer")), document(union("boolean")))["new:Doc"]
    assert [(change["path"], change["kind"]) for change in entry["changes"]] == [
        ("/properties/payment/anyOf/1/items", "type-changed")], entry
