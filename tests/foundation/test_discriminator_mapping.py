"""A discriminator mapping is structure by its targets: names of the mapped types never count, values do.

pydantic writes `discriminator: {propertyName, mapping: {value: "#/$defs/ClassName"}}` beside the `oneOf` of
a discriminated union into plain JSON Schema; OpenAPI has the same keyword (its mapping may also name a
component bare). Each mapping value is bound to the alternative it selects.
"""

from __future__ import annotations

import json
import sys
import textwrap
import uuid

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import digests_of_graph, document_digest, load_file, load_schema
from govern.model.render import structure
from govern.records.snapshot import load_snapshot, snapshot_document
from govern.sources.pydantic import load_pydantic

D2020 = "https://json-schema.org/draft/2020-12/schema"

ENVELOPE = """
from typing import Annotated, Literal, Union
from pydantic import BaseModel, Field


class {deposited}(BaseModel):
    type: Literal["{deposited_value}"] = "{deposited_value}"
    amount: int


class {withdrawn}(BaseModel):
    type: Literal["withdrawn"] = "withdrawn"
    amount: int


class Envelope(BaseModel):
    seq: int
    event: Annotated[Union[{deposited}, {withdrawn}], Field(discriminator="type")]
"""


@pytest.fixture
def envelope_module(tmp_path, monkeypatch):
    """Writes a module of the envelope with the given class names and values; returns its Envelope digest."""
    monkeypatch.syspath_prepend(str(tmp_path))
    written = []

    def digest(deposited="MoneyDeposited", withdrawn="MoneyWithdrawn", deposited_value="deposited") -> str:
        name = f"envelope_{uuid.uuid4().hex[:10]}"
        (tmp_path / f"{name}.py").write_text(textwrap.dedent(ENVELOPE.format(
            deposited=deposited, withdrawn=withdrawn, deposited_value=deposited_value)), encoding="utf-8")
        written.append(name)
        graph = load_pydantic("events", f"{name}:Envelope", {}, tmp_path)
        return digests_of_graph(graph)["events:Envelope"]

    yield digest
    for name in written:
        sys.modules.pop(name, None)


@pytest.mark.parametrize("renamed", [
    pytest.param({"deposited": "Deposit"}, id="one-class"),
    pytest.param({"deposited": "MoneyWithdrawnX", "withdrawn": "AMoneyDeposited"}, id="both-classes-reordered"),
    pytest.param({"deposited": "Zeta", "withdrawn": "Alpha"}, id="both-classes"),
])
def test_renaming_an_event_class_of_a_pydantic_discriminated_union_keeps_the_digest(envelope_module, renamed):
    assert envelope_module(**renamed) == envelope_module()


def test_changing_a_discriminator_value_of_a_pydantic_union_changes_the_digest(envelope_module):
    assert envelope_module(deposited_value="credited") != envelope_module()


def envelope_schema(names: dict[str, str], values: dict[str, str] | None = None, *,
                    mapping_targets: dict[str, str] | None = None) -> dict:
    """What pydantic writes for the envelope: `names` gives each model's definition name, `values` each
    model's discriminator value, `mapping_targets` (value -> model) overrides where a value points."""
    values = values or {"deposited": "deposited", "withdrawn": "withdrawn"}
    models = {model: {"type": "object", "title": names[model],
                      "properties": {"type": {"const": values[model], "type": "string"}, "amount": {"type": "integer"}},
                      "required": ["amount"]} for model in ("deposited", "withdrawn")}
    targets = mapping_targets or {values[model]: model for model in models}
    return {
        "$schema": D2020, "title": "Envelope", "type": "object",
        "properties": {"seq": {"type": "integer"}, "event": {
            "oneOf": [{"$ref": f"#/$defs/{names[model]}"} for model in models],
            "discriminator": {"propertyName": "type",
                              "mapping": {value: f"#/$defs/{names[model]}" for value, model in targets.items()}}}},
        "required": ["seq", "event"],
        "$defs": {names[model]: schema for model, schema in models.items()},
    }


NAMES = st.text(alphabet=st.characters(min_codepoint=ord("A"), max_codepoint=ord("z"),
                                       exclude_characters="[\\]^`"), min_size=1, max_size=8)


@settings(max_examples=25, deadline=None)
@given(st.lists(NAMES, min_size=2, max_size=2, unique=True))
def test_definition_names_in_a_mapping_never_change_the_digest(names):
    renamed = dict(zip(("deposited", "withdrawn"), names))
    assert document_digest(envelope_schema(renamed)) == \
        document_digest(envelope_schema({"deposited": "MoneyDeposited", "withdrawn": "MoneyWithdrawn"}))


@pytest.mark.parametrize("changed", [
    pytest.param({"values": {"deposited": "credited", "withdrawn": "withdrawn"}}, id="value-renamed"),
    pytest.param({"mapping_targets": {"deposited": "withdrawn", "withdrawn": "deposited"}}, id="values-swapped"),
    pytest.param({"mapping_targets": {"deposited": "deposited", "withdrawn": "withdrawn", "debited": "withdrawn"}},
                 id="value-added"),
])
def test_a_changed_discriminator_value_changes_the_digest(changed):
    names = {"deposited": "MoneyDeposited", "withdrawn": "MoneyWithdrawn"}
    assert document_digest(envelope_schema(names, **changed)) != document_digest(envelope_schema(names))


def test_the_mapping_is_bound_to_alternatives_not_kept_as_a_keyword(tmp_path):
    graph = load_schema(envelope_schema({"deposited": "MoneyDeposited", "withdrawn": "MoneyWithdrawn"}), tmp_path)
    event = structure(graph.types[graph.roots["doc:Envelope"].type_key].node)["properties"]["event"]["type"]
    assert event["discriminator"] == {"propertyName": "type", "values": []}
    assert [alternative["discriminatorValues"] for alternative in event["alternatives"]] == [["deposited"],
                                                                                            ["withdrawn"]]
    assert "constraints" not in event


def test_a_discriminator_without_a_union_stays_a_keyword_in_plain_json_schema():
    plain = {"$schema": D2020, "type": "object", "discriminator": {"propertyName": "type"}}
    assert document_digest(plain) != document_digest({"$schema": D2020, "type": "object"})


def openapi_document(schema_names: dict[str, str], bare: bool, swapped: bool = False) -> dict:
    def target(model):
        if swapped:
            model = {"cat": "dog", "dog": "cat"}[model]
        return schema_names[model] if bare else f"#/components/schemas/{schema_names[model]}"

    cat = {"type": "object", "properties": {"kind": {"type": "string"}, "meow": {"type": "boolean"}}}
    dog = {"type": "object", "properties": {"kind": {"type": "string"}, "bark": {"type": "integer"}}}
    return {
        "openapi": "3.1.0", "info": {"title": "pets", "version": "1"},
        "paths": {"/pets": {"post": {"requestBody": {"content": {"application/json": {"schema": {
            "$ref": "#/components/schemas/Pet"}}}}, "responses": {"204": {"description": "stored"}}}}},
        "components": {"schemas": {
            "Pet": {"oneOf": [{"$ref": f"#/components/schemas/{schema_names[m]}"} for m in ("cat", "dog")],
                    "discriminator": {"propertyName": "kind",
                                      "mapping": {"cat": target("cat"), "dog": target("dog")}}},
            schema_names["cat"]: cat, schema_names["dog"]: dog}},
    }


@pytest.mark.parametrize("bare", [False, True], ids=["references", "bare-names"])
def test_openapi_mapping_targets_count_by_structure(tmp_path, bare):
    def pet_digest(names, folder, swapped=False):
        folder.mkdir()
        path = folder / "pets.openapi.json"
        path.write_text(json.dumps(openapi_document(names, bare, swapped)), encoding="utf-8")
        return digests_of_graph(load_file(path, folder))["pets:Pet"]

    original = pet_digest({"cat": "Cat", "dog": "Dog"}, tmp_path / "a")
    assert pet_digest({"cat": "Feline", "dog": "Canine"}, tmp_path / "b") == original
    # The value `cat` now selects the dog schema: a real change even though no name moved.
    assert pet_digest({"cat": "Cat", "dog": "Dog"}, tmp_path / "c", swapped=True) != original


def test_a_snapshot_keeps_the_mapping_and_reproduces_the_digest(tmp_path):
    graph = load_schema(envelope_schema({"deposited": "MoneyDeposited", "withdrawn": "MoneyWithdrawn"}), tmp_path)
    digests = digests_of_graph(graph)
    document = snapshot_document("2026-11-30-x", [graph], {"doc:Envelope"}, digests, {"doc"})
    (reread,) = load_snapshot(json.loads(json.dumps(document)), "snapshot.json")
    assert digests_of_graph(reread)["doc:Envelope"] == digests["doc:Envelope"]


@pytest.mark.parametrize("mapping", [True, False], ids=["with-mapping", "without-mapping"])
def test_an_openapi_discriminator_survives_its_snapshot(tmp_path, mapping):
    """Snapshots store a discriminator in govern's own keyword, which reading them back interprets."""
    document = openapi_document({"cat": "Cat", "dog": "Dog"}, bare=False)
    if not mapping:
        del document["components"]["schemas"]["Pet"]["discriminator"]["mapping"]
    path = tmp_path / "pets.openapi.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    graph = load_file(path, tmp_path)
    digests = digests_of_graph(graph)
    exported = snapshot_document("2026-11-30-x", [graph], {"pets:Pet"}, digests, {"pets"})
    (reread,) = load_snapshot(json.loads(json.dumps(exported)), "snapshot.json")
    assert digests_of_graph(reread)["pets:Pet"] == digests["pets:Pet"]
