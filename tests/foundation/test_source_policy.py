"""The policy vocabulary keeps to its conditions: where `x-persistence-source` may bind, which policy versions
exist, what `x-persistence-attribution` may say, and that an unmarked optional never property is omitted.

A binding is accepted only on a source property declared by an object whose `role` property is a literal
qualifying role (`user` or `developer` unless the source configures others), with the union of kinds at
the same level, and only for a supported policy version (1 unless the source configures others). Anything
else is bad input: exit 2 naming the file, the location and the fix, and nothing is written.
"""

from __future__ import annotations

import json
import sys
import textwrap
import uuid

import pytest

from conftest import invoke, jsonschema_source, snapshot, write_project

DIALECT = "https://json-schema.org/draft/2020-12/schema"
KINDS = [
    {"type": "object", "properties": {"kind": {"const": "typed"}}, "required": ["kind"]},
    {"type": "object", "properties": {"kind": {"const": "pasted"}, "from": {"type": "string"}}, "required": ["kind"]},
]
QUALIFIED = {"x-persistence-attribution": True, "type": "object",
             "properties": {"kind": {"const": "tmux"}, "pane": {"type": "string"}}, "required": ["kind"]}


def slot(policy=1, alternatives=None, keyword="oneOf") -> dict:
    """A source slot: the union of kinds with its policy binding."""
    return {"x-persistence-source": {"policy": policy}, keyword: alternatives or [*KINDS, QUALIFIED]}


def message(role=None, source=None, **extra) -> dict:
    """A message object declaring a role and a source property."""
    properties = {"text": {"type": "string"}, **extra}
    if role is not None:
        properties["role"] = role
    if source is not None:
        properties["source"] = source
    return {"$schema": DIALECT, "title": "Message", "type": "object", "properties": properties,
            "required": ["text"]}


USER = {"const": "user"}

# name, schema, (reason, location, hint) fragments the message must hold.
REFUSED = [
    ("binding-on-a-definition", {"$schema": DIALECT, "$defs": {"Source": slot()},
                                 "type": "object", "properties": {"role": USER, "source": {"$ref": "#/$defs/Source"}}},
     ("x-persistence-source binds only", "at #/$defs/Source:", "source property")),
    ("binding-on-the-document", {"$schema": DIALECT, **slot()},
     ("x-persistence-source binds only", "at #:", "source property")),
    ("object-without-role", message(source=slot()),
     ("declares no role property", "at #/properties/source:", "role")),
    ("system-role", message(role={"const": "system"}, source=slot()),
     ("role is \"system\"", "at #/properties/source:", "user, developer")),
    ("role-not-a-literal", message(role={"type": "string"}, source=slot()),
     ("role is not a literal", "at #/properties/source:", "user, developer")),
    ("role-of-two-values", message(role={"enum": ["user", "developer"]}, source=slot()),
     ("role is not a literal", "at #/properties/source:", "user, developer")),
    ("binding-in-array-items", message(role=USER, source={"type": "array", "items": slot()}),
     ("x-persistence-source binds only", "at #/properties/source/items:", "source property")),
    ("binding-in-an-allof-operand", message(role=USER, source={"allOf": [slot()]}),
     ("x-persistence-source binds only", "at #/properties/source/allOf/0:", "source property")),
    ("binding-as-content-model", {**message(role=USER), "additionalProperties": slot()},
     ("x-persistence-source binds only", "at #/additionalProperties:", "source property")),
    ("binding-in-a-pattern-property", {**message(role=USER), "patternProperties": {"^src": slot()}},
     ("x-persistence-source binds only", "at #/patternProperties/^src:", "source property")),
    ("binding-on-a-nested-object", message(role=USER, meta={"type": "object", "properties": {"source": slot()}}),
     ("declares no role property", "at #/properties/meta/properties/source:", "role")),
    ("unsupported-policy", message(role=USER, source=slot(policy=2)),
     ("policy 2 is not supported", "at #/properties/source:", "persistence-source")),
    ("attribution-false", message(role=USER, source=slot(alternatives=[*KINDS, {**QUALIFIED,
                                                                                "x-persistence-attribution": False}])),
     ("x-persistence-attribution takes no argument other than true", "at #/properties/source/oneOf/2:",
      "remove it")),
    ("attribution-string", message(role=USER, source=slot(alternatives=[*KINDS, {**QUALIFIED,
                                                                                 "x-persistence-attribution": "yes"}])),
     ("x-persistence-attribution takes no argument other than true", "at #/properties/source/oneOf/2:",
      "remove it")),
    ("attribution-without-policy", message(role=USER, source={"oneOf": [*KINDS, QUALIFIED]}),
     ("has no bound x-persistence-source", "at #/properties/source/oneOf/2:", "x-persistence-source")),
    ("attribution-in-the-other-union", message(role=USER, source={
        "x-persistence-source": {"policy": 1}, "oneOf": KINDS, "anyOf": [*KINDS, QUALIFIED]}),
     ("has no bound x-persistence-source", "at #/properties/source/anyOf/2:", "x-persistence-source")),
    ("attribution-outside-a-union", message(role=USER, source=slot(alternatives=KINDS), extra=QUALIFIED),
     ("x-persistence-attribution belongs on an alternative", "at #/properties/extra:", "oneOf")),
    # The role's own `$id` is the base of its reference: role.json there is "tool", not the document's "user".
    ("role-by-reference-under-its-own-id", {**message(role={"$id": "r/", "$ref": "role.json"}, source=slot()),
                                            "$id": "https://example.com/s/messages.json",
                                            "$defs": {"Tool": {"$id": "r/role.json", "const": "tool"},
                                                      "User": {"$id": "role.json", "const": "user"}}},
     ("role is \"tool\"", "at #/properties/source:", "user, developer")),
]


def _project(tmp_path, schema, settings: str = "", name: str = "p"):
    source = jsonschema_source("messages", "contracts/messages.schema.json") + settings
    return write_project(tmp_path / name, source, {"contracts/messages.schema.json": schema})


@pytest.mark.parametrize("schema, fragments", [case[1:] for case in REFUSED], ids=[case[0] for case in REFUSED])
def test_a_binding_or_marker_outside_its_conditions_is_exit_2(tmp_path, schema, fragments):
    project = _project(tmp_path, schema)
    (project / "schemas").mkdir()
    before = snapshot(project)
    result = invoke("extract", "--project", str(project))
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output and result.stdout == ""
    assert "messages.schema.json" in result.stderr
    for fragment in fragments:
        assert fragment in result.stderr, result.stderr
    assert snapshot(project) == before
    # The same file named on the command line is refused the same way.
    direct = invoke("digests", str(project / "contracts" / "messages.schema.json"))
    assert direct.exit_code == 2 and fragments[0] in direct.stderr


ACCEPTED = [
    ("user-const", message(role=USER, source=slot())),
    ("developer-const-typed", message(role={"const": "developer", "type": "string"}, source=slot())),
    ("single-value-enum", message(role={"enum": ["user"]}, source=slot())),
    ("role-by-reference", {**message(role={"$ref": "#/$defs/UserRole"}, source=slot()),
                           "$defs": {"UserRole": {"enum": ["user"], "type": "string"}}}),
    ("anyof-slot", message(role=USER, source=slot(keyword="anyOf"))),
    ("role-by-reference-under-its-own-id", {**message(role={"$id": "r/", "$ref": "role.json"}, source=slot()),
                                            "$id": "https://example.com/s/messages.json",
                                            "$defs": {"User": {"$id": "r/role.json", "const": "user"},
                                                      "Tool": {"$id": "role.json", "const": "tool"}}}),
    ("message-as-definition", {"$schema": DIALECT, "$defs": {"UserMessage": message(role=USER, source=slot())},
                               "type": "array", "items": {"$ref": "#/$defs/UserMessage"}}),
]


@pytest.mark.parametrize("schema", [case[1] for case in ACCEPTED], ids=[case[0] for case in ACCEPTED])
def test_a_binding_within_its_conditions_makes_inventory_format_2(tmp_path, schema):
    project = _project(tmp_path, schema)
    result = invoke("extract", "--project", str(project))
    assert result.exit_code == 0, result.output
    assert json.loads((project / "schemas" / "inventory.json").read_text(encoding="utf-8"))["format"] == 2


def test_an_unbound_attribution_never_turns_an_inventory_into_format_2(tmp_path):
    project = _project(tmp_path, message(role=USER, source={"oneOf": KINDS}))
    assert invoke("extract", "--project", str(project)).exit_code == 0
    inventory = project / "schemas" / "inventory.json"
    assert json.loads(inventory.read_text(encoding="utf-8"))["format"] == 1
    before = inventory.read_bytes()
    (project / "contracts" / "messages.schema.json").write_text(
        json.dumps(message(role=USER, source={"oneOf": [*KINDS, QUALIFIED]})), encoding="utf-8")
    result = invoke("extract", "--project", str(project))
    assert result.exit_code == 2 and "has no bound x-persistence-source" in result.stderr
    assert inventory.read_bytes() == before


# --- configuration -------------------------------------------------------------------------------------

CONFIGURED = [
    # settings, schema, exit code, message fragment
    ('persistence-source = { roles = ["system"] }\n', message(role={"const": "system"}, source=slot()), 0, ""),
    ('persistence-source = { roles = ["system"] }\n', message(role=USER, source=slot()), 2,
     'role is "user"; qualifying roles: system'),
    ('persistence-source = { policies = [1, 2] }\n', message(role=USER, source=slot(policy=2)), 0, ""),
    ('persistence-source = { policies = [2] }\n', message(role=USER, source=slot(policy=1)), 2,
     "policy 1 is not supported (supported: 2)"),
    ('persistence-source = { roles = ["user"] }\n', message(role={"const": "developer"}, source=slot()), 2,
     'role is "developer"; qualifying roles: user'),
]


@pytest.mark.parametrize("settings, schema, code, fragment", CONFIGURED)
def test_the_qualifying_roles_and_supported_policies_are_configured_per_source(tmp_path, settings, schema, code,
                                                                                 fragment):
    result = invoke("extract", "--project", str(_project(tmp_path, schema, settings)))
    assert result.exit_code == code, result.output
    assert fragment in result.stderr


BAD_SETTINGS = [
    ('persistence-source = ["user"]\n', "persistence-source: must be a table"),
    ('persistence-source = { roles = [] }\n', "persistence-source.roles: must be a non-empty array of distinct"),
    ('persistence-source = { roles = "user" }\n', "persistence-source.roles: must be a non-empty array of distinct"),
    ('persistence-source = { roles = ["user", "user"] }\n', "persistence-source.roles: must be a non-empty array"),
    ('persistence-source = { roles = [""] }\n', "persistence-source.roles: must be a non-empty array"),
    ('persistence-source = { policies = [0] }\n', "persistence-source.policies: must be a non-empty array of distinct"),
    ('persistence-source = { policies = [true] }\n', "persistence-source.policies: must be a non-empty array"),
    ('persistence-source = { policies = ["1"] }\n', "persistence-source.policies: must be a non-empty array"),
    ('persistence-source = { policies = [] }\n', "persistence-source.policies: must be a non-empty array"),
    ('persistence-source = { role = ["user"] }\n', "persistence-source.role: unknown key"),
]


@pytest.mark.parametrize("settings, fragment", BAD_SETTINGS)
def test_bad_policy_settings_are_exit_2_naming_the_key(tmp_path, settings, fragment):
    result = invoke("extract", "--project", str(_project(tmp_path, message(role=USER, source=slot()), settings)))
    assert result.exit_code == 2, result.output
    assert f"tool.govern.sources[0].{fragment}" in result.stderr
    assert "pyproject.toml" in result.stderr and "Traceback" not in result.output


# --- unmarked optional never ----------------------------------------------------------------------------

NEVER_FORMS = [False, {"not": {}}, {"not": True}, {"allOf": [False]}, {"enum": []},
               {"not": {}, "description": "no longer written"}]


def _digests(tmp_path, schema, name):
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps({"$schema": DIALECT, **schema}), encoding="utf-8")
    result = invoke("digests", "--json", str(path))
    assert result.exit_code == 0, result.output
    return [entry["digest"] for entry in json.loads(result.stdout)["roots"].values()]


@pytest.mark.parametrize("never", NEVER_FORMS, ids=lambda form: json.dumps(form))
def test_an_unmarked_optional_never_property_is_omitted(tmp_path, never):
    plain = {"type": "object", "properties": {"a": {"type": "string"}}}
    with_never = {"type": "object", "properties": {"a": {"type": "string"}, "gone": never}}
    assert _digests(tmp_path, with_never, "with") == _digests(tmp_path, plain, "plain")
    (tmp_path / "old.json").write_text(json.dumps(plain), encoding="utf-8")
    (tmp_path / "new.json").write_text(json.dumps(with_never), encoding="utf-8")
    diff = invoke("diff", "--format", "json", str(tmp_path / "old.json"), str(tmp_path / "new.json"))
    assert diff.exit_code == 0, diff.output
    assert [root["decision"] for root in json.loads(diff.stdout)["roots"]] == ["unchanged"]


@pytest.mark.parametrize("other", [
    {"required": ["gone"], "properties": {"a": {"type": "string"}, "gone": False}},
    {"properties": {"a": {"type": "string"}, "gone": {"not": {}, "x-persistence-reserved": True}}},
], ids=["required-never", "reserved-never"])
def test_a_required_or_reserved_never_property_still_counts(tmp_path, other):
    plain = {"type": "object", "properties": {"a": {"type": "string"}}}
    assert _digests(tmp_path, {"type": "object", **other}, "other") != _digests(tmp_path, plain, "plain")


# --- pydantic ---------------------------------------------------------------------------------------

PYDANTIC = """
from typing import Annotated, Literal, Union
from pydantic import BaseModel, Field


class Typed(BaseModel):
    kind: Literal["typed"]


class Tmux(BaseModel):
    kind: Literal["tmux"]
    pane: str = ""


QualifiedTmux = Annotated[Tmux, Field(json_schema_extra={"x-persistence-attribution": True})]


class Message(BaseModel):
    role: Literal[ROLE]
    text: str
    source: Union[Typed, QualifiedTmux] = Field(json_schema_extra={"x-persistence-source": {"policy": 1}})
"""


@pytest.mark.parametrize("role, code", [("user", 0), ("developer", 0), ("system", 2)])
def test_pydantic_models_follow_the_same_binding_rules(tmp_path, role, code):
    module = f"messages_{uuid.uuid4().hex[:8]}"
    files = {f"{module}.py": textwrap.dedent(PYDANTIC).replace("ROLE", repr(role))}
    project = write_project(tmp_path / "p", f'[[tool.govern.sources]]\nname = "messages"\nkind = "pydantic"\n'
                                            f'path = "{module}:Message"\n', files)
    try:
        result = invoke("extract", "--project", str(project))
    finally:
        sys.modules.pop(module, None)
    assert result.exit_code == code, result.output
    if code == 0:
        inventory = json.loads((project / "schemas" / "inventory.json").read_text(encoding="utf-8"))
        assert inventory["format"] == 2
    else:
        assert module in result.stderr and "/properties/source" in result.stderr
        assert 'role is "system"' in result.stderr and not (project / "schemas").exists()


# --- OpenAPI ----------------------------------------------------------------------------------------


def openapi(role: str) -> dict:
    kind = {"type": "object", "required": ["kind"]}
    return {"openapi": "3.0.3", "info": {"title": "messages", "version": "1"}, "paths": {}, "components": {"schemas": {
        "Message": {"type": "object", "required": ["role"], "properties": {
            "role": {"type": "string", "enum": [role]},
            "source": {"x-persistence-source": {"policy": 1}, "discriminator": {"propertyName": "kind"}, "oneOf": [
                {"$ref": "#/components/schemas/Typed"},
                {"$ref": "#/components/schemas/Tmux", "x-persistence-attribution": True}]}}},
        "Typed": {**kind, "properties": {"kind": {"type": "string", "enum": ["typed"]}}},
        "Tmux": {**kind, "properties": {"kind": {"type": "string", "enum": ["tmux"]}}}}}}


@pytest.mark.parametrize("role, code", [("user", 0), ("system", 2)])
def test_openapi_components_follow_the_same_binding_rules(tmp_path, role, code):
    path = tmp_path / "messages.openapi.json"
    path.write_text(json.dumps(openapi(role)), encoding="utf-8")
    result = invoke("digests", "--json", str(path))
    assert result.exit_code == code, result.output
    if code == 0:
        assert json.loads(result.stdout)["format"] == 2
    else:
        assert "messages.openapi.json" in result.stderr
        assert 'at #/components/schemas/Message/properties/source: x-persistence-source binds only' in result.stderr
