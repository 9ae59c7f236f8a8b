"""Where a change is located: every path names a place the source wrote (read through `$ref`), never a
construct the normalization made.

Keywords side by side (a `type` beside `anyOf`, `not`, `$ref` or keywords no validator knows) are one
intersection in the model, and keywords without a `type` or a list of types are a union by type; neither
is an `allOf` or `anyOf` the source wrote, so their parts are located at the schema itself (or at the
keyword that holds them), and only the operands of a written `allOf` at `/allOf/<position>`.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import SOURCE, diff_cli  # noqa: E402 - the folder's helpers
from direction_cases import p, whole  # noqa: E402

HERE = Path(__file__).resolve().parent
CLOUDFORMATION = HERE / "locations" / "cloudformation-resource"

STRING, INTEGER = {"type": "string"}, {"type": "integer"}
NAMED = {"type": "object", "properties": {"a": STRING}, "required": ["a"]}


def resolves(document: dict, path: str) -> bool:
    """Whether a change path names a place in the document, following a local `$ref` where the schema
    holding it does not have the next key itself."""
    node = document
    for token in [token.replace("~1", "/").replace("~0", "~") for token in path.split("/")[1:]]:
        seen = 0
        while isinstance(node, dict) and token not in node and isinstance(node.get("$ref"), str) and seen < 20:
            node, seen = _target(document, node["$ref"]), seen + 1
        if isinstance(node, dict) and token in node:
            node = node[token]
        elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
            node = node[int(token)]
        else:
            return False
    return True


def _target(document: dict, reference: str):
    node = document
    for token in reference.removeprefix("#/").split("/"):
        node = node[token.replace("~1", "/").replace("~0", "~")]
    return node


# (id, old, new, [(path, kind)] in the order the classifier reports them)
LOCATIONS = [
    ("not-beside-type", p({"type": "string", "not": {"const": "x"}}), p({"type": "string", "not": {"const": "y"}}),
     [("/properties/p/not", "applicator-changed")]),
    ("anyof-added-beside-type", p(STRING), p({"type": "string", "anyOf": [{"maxLength": 3}, {"pattern": "^a"}]}),
     [("/properties/p/anyOf", "operand-added")]),
    ("anyof-removed-beside-type", p({"type": "string", "anyOf": [{"maxLength": 3}, {"pattern": "^a"}]}), p(STRING),
     [("/properties/p/anyOf", "operand-removed")]),
    ("own-keywords-and-not-both-changed", p({"type": "string", "maxLength": 3, "not": {"const": "x"}}),
     p({"type": "string", "maxLength": 5, "not": {"const": "y"}}),
     [("/properties/p/maxLength", "constraint-changed"), ("/properties/p/not", "applicator-changed")]),
    ("properties-beside-oneof",
     p({"type": "object", "properties": {"a": STRING}, "oneOf": [{"required": ["a"]}, {"required": ["b"]}]}),
     p({"type": "object", "properties": {"a": STRING, "c": INTEGER}, "oneOf": [{"required": ["a"]}, {"required": ["b"]}]}),
     [("/properties/p/properties/c", "optional-property-added")]),
    ("allof-operand-changed", p({"allOf": [NAMED, {"properties": {"c": STRING}}]}),
     p({"allOf": [NAMED, {"properties": {"c": INTEGER}}]}),
     [("/properties/p/allOf/1/properties/c", "type-changed")]),
    ("allof-and-own-keywords-both-changed",
     p({"type": "object", "properties": {"z": STRING}, "allOf": [NAMED, {"properties": {"c": STRING}}]}),
     p({"type": "object", "properties": {"z": INTEGER}, "allOf": [NAMED, {"properties": {"c": INTEGER}}]}),
     [("/properties/p/allOf/1/properties/c", "type-changed"), ("/properties/p/properties/z", "type-changed")]),
    ("keywords-without-type", p({"properties": {"a": STRING}}), p({"properties": {"a": STRING, "b": STRING}}),
     [("/properties/p/properties/b", "optional-property-added")]),
    ("keywords-of-two-types-without-type", p({"minLength": 1, "minimum": 3}), p({"minLength": 2, "minimum": 4}),
     [("/properties/p/minLength", "constraint-changed"), ("/properties/p/minimum", "constraint-changed")]),
    ("type-list-constraint", p({"type": ["string", "null"], "maxLength": 3}),
     p({"type": ["string", "null"], "maxLength": 5}), [("/properties/p/maxLength", "constraint-changed")]),
    ("reference-beside-its-siblings",
     whole({"$defs": {"S": STRING}, "type": "object", "properties": {"p": {"$ref": "#/$defs/S", "maxLength": 3}}}),
     whole({"$defs": {"S": STRING}, "type": "object", "properties": {"p": {"$ref": "#/$defs/S", "maxLength": 5}}}),
     [("/properties/p/maxLength", "constraint-changed")]),
    ("unknown-keyword-beside-keywords-without-type",
     whole({"properties": {"a": STRING}, "x-handlers": {"create": 1}}),
     whole({"properties": {"a": STRING, "b": STRING}, "x-handlers": {"create": 2}}),
     [("/properties/b", "optional-property-added"), ("/x-handlers", "constraint-changed")]),
]


@pytest.mark.parametrize("old, new, expected", [pytest.param(old, new, expected, id=name)
                                                for name, old, new, expected in LOCATIONS])
def test_changes_are_located_where_the_source_wrote_them(pair_classifier, old, new, expected):
    changes = pair_classifier.classify(old, new)[f"{SOURCE}:Doc"]["changes"]
    assert [(change["path"], change["kind"]) for change in changes] == expected
    for change in changes:
        assert resolves(new if change["kind"] != "operand-removed" else old, change["path"]), change


def test_a_cloudformation_resource_is_compared_keyword_by_keyword_without_an_allof():
    """A published resource schema has no `type` at the top and keeps CloudFormation's own keywords
    (handlers, tagging) beside its properties: a changed property and a changed handler are two changes at
    their own places, not the whole resource replaced as an allOf operand."""
    old, new = CLOUDFORMATION / "old" / "resource.json", CLOUDFORMATION / "new" / "resource.json"
    code, out, err = diff_cli(old, new, "json", "--dialect", "draft-07")
    assert (code, err) == (0, "")
    [root] = json.loads(out)["roots"]
    # The resource's own structure first; then the changes inside the named type MaintenanceWindow (a
    # definition the resource refers to), located in it.
    window = "/properties/DayOfWeek"
    assert [(change.get("type"), change["path"], change["kind"], change["rule"]) for change in root["changes"]] == [
        (None, "/handlers", "constraint-added", "constraint-changed"),
        (None, "/properties/SamplingRateBoost", "optional-property-added", "optional-property-added-to-closed"),
        (None, "/tagging", "constraint-changed", "constraint-changed"),
        ("MaintenanceWindow", f"{window}/anyOf", "operand-added", "alternatives-changed"),
        ("MaintenanceWindow", f"{window}/enumCaseInsensitive", "constraint-added", "constraint-changed"),
    ]
    assert root["changes"][3]["text"] == {"en": "`anyOf` added", "zh": "新增 `anyOf`"}
    assert root["changes"][1]["text"]["en"].startswith("property `SamplingRateBoost` added")
    assert all(change["type_location"].endswith("new/resource.json#/definitions/MaintenanceWindow")
               for change in root["changes"][3:])
    document = json.loads(new.read_text(encoding="utf-8"))
    assert all(resolves(document, change["type_location"].partition("#")[2] + change["path"] if "type" in change
                        else change["path"]) for change in root["changes"])
    text = diff_cli(old, new, "text", "--dialect", "draft-07")[1]
    assert "allOf" not in text and "anyOf/0" not in text
