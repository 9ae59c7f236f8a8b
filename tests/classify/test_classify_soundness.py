"""Soundness with instances: whatever the classifier calls same-version keeps data flowing both ways.

For a pair OLD/NEW classified same-version, instances restricted to the declared properties are drawn
(hypothesis-jsonschema, from the schema with additionalProperties false added at every object level):

- every instance of OLD validates against NEW (new readers read old data);
- every instance of NEW validates against OLD (old readers read new data). Three same-version changes rest
  on a promise other than validation: a required property made optional (new readers handle its absence), a
  qualified kind added to a source slot (readers preserve unknown kinds) and an event type added to a union
  of events (readers are upgraded before writers emit it). NEW's instances are then drawn with those
  properties required again and without those kinds or event types, and must still validate against OLD.

hypothesis-jsonschema resolves local references only, and closing every object level cannot express
composed objects, so the random pairs come from a base schema without any $ref, and fixture pairs that
compose (allOf, unevaluatedProperties) are left to the rule tests.
"""

from __future__ import annotations

import functools
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis_jsonschema import from_schema
from jsonschema import Draft202012Validator

from conftest import (  # noqa: E402 - the folder's helpers
    BASE_INLINE, BREAKING_MUTATIONS, SAME_VERSION_MUTATIONS, SOURCE, close_objects, diff_roots, fixture_cases, mutate,
)

PROFILE = settings.get_profile("classify")
INSTANCES = 2


@functools.lru_cache(maxsize=None)
def _instances(schema_text: str):
    """Instances with declared properties only; cached, since building the strategy is the slow part."""
    return from_schema(close_objects(json.loads(schema_text)))


def _same_version_fixtures():
    pairs = []
    for case in fixture_cases():
        text = case.old.read_text(encoding="utf-8") + case.new.read_text(encoding="utf-8")
        if "allOf" in text or "unevaluatedProperties" in text:
            continue
        entry = diff_roots(case).get(f"{SOURCE}:Doc")
        if entry is not None and entry["decision"] == "same-version":
            pairs.append(pytest.param(case, entry, id=case.id))
    return pairs


def _strip_extensions(schema):
    """hypothesis-jsonschema knows no x- keywords; they carry policy, not validation, so drop them."""
    if isinstance(schema, list):
        return [_strip_extensions(item) for item in schema]
    if isinstance(schema, dict):
        return {key: _strip_extensions(value) for key, value in schema.items()
                if not (key.startswith("x-persistence-") and key != "x-persistence-reserved")}
    return schema


def _resolve(document: dict, schema: dict) -> dict:
    while isinstance(schema.get("$ref"), str) and schema["$ref"].startswith("#/"):
        target = document
        for part in schema["$ref"][2:].split("/"):
            target = target[part.replace("~1", "/").replace("~0", "~")]
        schema = target
    return schema


def _walk(document: dict, pointer: str) -> dict:
    schema = document
    for token in [t.replace("~1", "/").replace("~0", "~") for t in pointer.split("/")[1:]]:
        schema = _resolve(document, schema) if isinstance(schema, dict) else schema
        if isinstance(schema, list):  # a union's alternatives, addressed by position or by their `kind` const
            schema = schema[int(token)] if token.isdigit() else next(
                alternative for alternative in schema
                if _resolve(document, alternative).get("properties", {}).get("kind", {}).get("const") == token)
        else:
            schema = schema[token]
    return _resolve(document, schema)


def as_old_readers_see(new: dict, changes: list[dict]) -> dict:
    """NEW without what is same-version by promise rather than by validation (see the module docstring)."""
    new = json.loads(json.dumps(new))
    for change in changes:
        if change["rule"] == "required-made-optional":
            parent, _, name = change["path"].rpartition("/properties/")
            holder = _walk(new, parent)
            holder["required"] = sorted(set(holder.get("required", [])) | {name.replace("~1", "/").replace("~0", "~")})
        elif change["rule"] in ("qualified-kind-added", "event-type-added"):
            union, _, _ = change["path"].rpartition("/")
            union, _, keyword = union.rpartition("/")
            slot = _walk(new, union)
            kind = change["args"]["alternative"]
            tag = slot.get("discriminator", {}).get("propertyName", "kind")
            slot[keyword] = [alt for alt in slot[keyword]
                             if _resolve(new, alt).get("properties", {}).get(tag, {}).get("const") != kind]
    return new


def check_instances(data, old: dict, new: dict, changes: list[dict]) -> None:
    readable = _strip_extensions(as_old_readers_see(new, changes))
    old, new = _strip_extensions(old), _strip_extensions(new)
    old_validator, new_validator = Draft202012Validator(old), Draft202012Validator(new)
    for _ in range(INSTANCES):
        instance = data.draw(_instances(json.dumps(old, sort_keys=True)), label="instance of OLD")
        assert old_validator.is_valid(instance)
        errors = [error.message for error in new_validator.iter_errors(instance)]
        assert errors == [], f"old data rejected by NEW: {json.dumps(instance)}"
    for _ in range(INSTANCES):
        instance = data.draw(_instances(json.dumps(readable, sort_keys=True)), label="instance of NEW")
        assert new_validator.is_valid(instance)
        errors = [error.message for error in old_validator.iter_errors(instance)]
        assert errors == [], f"new data rejected by OLD: {json.dumps(instance)}"


@pytest.mark.parametrize("case, entry", _same_version_fixtures())
@settings(PROFILE, max_examples=8)
@given(data=st.data())
def test_same_version_fixture_keeps_instances_valid(case, entry, data):
    old = json.loads(case.old.read_text(encoding="utf-8"))
    new = json.loads(case.new.read_text(encoding="utf-8"))
    check_instances(data, old, new, entry["changes"])


@settings(PROFILE, max_examples=25)
@given(data=st.data(), steps=st.integers(1, 3), breaking_share=st.sampled_from([0, 0, 0, 1]))
def test_random_same_version_pairs_keep_instances_valid(pair_classifier, data, steps, breaking_share):
    mutations = SAME_VERSION_MUTATIONS + (BREAKING_MUTATIONS if breaking_share else ())
    new = BASE_INLINE
    for _ in range(steps):
        new, _ = mutate(new, data.draw, mutations)
    entry = pair_classifier.classify(BASE_INLINE, new)[f"{SOURCE}:Doc"]
    if entry["decision"] != "same-version":
        assert breaking_share, entry  # only the allowed mutations may come out same-version
        return
    check_instances(data, BASE_INLINE, new, entry["changes"])


def test_the_base_schema_has_no_references():
    assert "$ref" not in json.dumps(BASE_INLINE)
