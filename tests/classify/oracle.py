"""The sampling oracle's instruments: instances drawn from a schema (hypothesis-jsonschema) and checked by a
real validator against another.

A rejected instance drawn from OLD proves `old-data-new-readers`; one drawn from NEW proves
`new-data-old-readers`. Shared by the direction oracle and the equivalence tests.
"""

from __future__ import annotations

import functools
import json
from typing import Any

from hypothesis_jsonschema import from_schema
from jsonschema.validators import validator_for

from direction_cases import NEW, OLD  # noqa: E402 - the folder's helpers

DRAWS = 2


@functools.lru_cache(maxsize=None)
def _strategy(schema_text: str):
    return from_schema(_draft_07(json.loads(schema_text)))


def _draft_07(schema):
    """hypothesis-jsonschema samples draft-07: spell 2020-12's tuple and dependency keywords its way (the
    instances are still checked against the original schemas)."""
    if isinstance(schema, list):
        return [_draft_07(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    result = {key: _draft_07(value) for key, value in schema.items()
              if key not in ("$schema", "prefixItems", "dependentSchemas")}
    if "prefixItems" in schema:
        result["items"] = _draft_07(schema["prefixItems"])
        if "items" in schema:
            result["additionalItems"] = _draft_07(schema["items"])
    if "dependentSchemas" in schema:
        result["dependencies"] = _draft_07(schema["dependentSchemas"])
    return result


@functools.lru_cache(maxsize=None)
def _validator(schema_text: str):
    schema = json.loads(schema_text)
    return validator_for(schema)(schema, format_checker=None)


def is_valid(schema: Any, instance: Any) -> bool:
    """The verdict of the validator of the schema's own dialect (formats are annotations)."""
    return _validator(json.dumps(schema, sort_keys=True)).is_valid(instance)


def counterexamples(data, old: dict, new: dict) -> set[str]:
    """The directions some drawn instance proves broken."""
    old_text, new_text = json.dumps(old, sort_keys=True), json.dumps(new, sort_keys=True)
    found = set()
    for source, target, direction in ((old_text, new_text, OLD), (new_text, old_text, NEW)):
        for _ in range(DRAWS):
            instance = data.draw(_strategy(source), label=f"instance for {direction}")
            assert _validator(source).is_valid(instance), "the sampler drew an invalid instance"
            if not _validator(target).is_valid(instance):
                found.add(direction)
    return found


def disagreements(data, one: Any, other: Any) -> list:
    """Instances drawn from either schema (valid under it) that the other judges differently. The sampler
    reads draft-07, so an instance it draws may break a 2020-12 keyword; such draws are discarded."""
    from hypothesis import assume

    found = []
    for source, target in ((one, other), (other, one)):
        for _ in range(DRAWS):
            instance = data.draw(_strategy(json.dumps(source, sort_keys=True)))
            assume(is_valid(source, instance))
            if not is_valid(target, instance):
                found.append(instance)
    return found
