"""The issue's acceptance on a copy of this repository's two owned contracts, plus hash-seed determinism.

Renaming a named type or reordering properties, union members or enum values leaves `govern digests --json`
unchanged; changing a constraint, a required set or an enum value changes it. Mutations are made by
walking the JSON, over several targets in each contract.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from conftest import (
    CONTRACTS, copy_contracts, get_at, invoke, jsonschema_source, rename_definitions, reverse_named, run_govern,
    walk, write_project,
)

SIDECAR, GRP = CONTRACTS


@pytest.fixture(scope="module")
def contracts(tmp_path_factory) -> Path:
    return copy_contracts(tmp_path_factory.mktemp("contracts"))


@pytest.fixture(scope="module")
def baseline(contracts) -> str:
    result = invoke("digests", "--json", "--project", str(contracts))
    assert result.exit_code == 0, result.output
    return result.stdout


def _digests_after(contracts: Path, tmp_path: Path, name: str, mutate) -> str:
    project = tmp_path / "mutated"
    copy_contracts(project)
    path = project / "schemas" / name
    document = json.loads((contracts / "schemas" / name).read_text(encoding="utf-8"))
    changed = mutate(copy.deepcopy(document))
    if json.dumps(changed) == json.dumps(document):
        pytest.skip(f"{name} has nothing this mutation changes")
    path.write_text(json.dumps(changed, indent=2), encoding="utf-8")
    result = invoke("digests", "--json", "--project", str(project))
    assert result.exit_code == 0, result.output
    return result.stdout


def _table(name: str) -> tuple[str, ...]:
    return ("$defs",) if name == SIDECAR else ("components", "schemas")


def _definitions(document: dict, name: str) -> dict:
    holder = document
    for key in _table(name):
        holder = holder[key]
    return holder


def _non_root_names(document: dict, name: str) -> list[str]:
    """Named types whose names are not root ids (OpenAPI body components are roots named by component)."""
    from govern.sources.openapi import body_components

    roots = set(body_components(document, name)) if name == GRP else set()
    return sorted(set(_definitions(document, name)) - roots)


def rename_all(name: str):
    def mutate(document):
        renames = {old: f"Renamed{old}" for old in _non_root_names(document, name)}
        return rename_definitions(document, renames, _table(name))

    return mutate


def rename_one(name: str, position: int):
    def mutate(document):
        candidates = _non_root_names(document, name)
        old = candidates[position % len(candidates)]
        return rename_definitions(document, {old: "Zz" + old}, _table(name))

    return mutate


def reverse(keys: frozenset):
    return lambda document: reverse_named(document, keys)


def reverse_definitions_order(name: str):
    def mutate(document):
        table = _definitions(document, name)
        items = list(table.items())
        table.clear()
        table.update(reversed(items))
        return document

    return mutate


UNCHANGED = [
    (contract, label, mutation)
    for contract in CONTRACTS
    for label, mutation in [
        ("rename-every-type", rename_all(contract)),
        ("rename-first-type", rename_one(contract, 0)),
        ("rename-last-type", rename_one(contract, -1)),
        ("reorder-properties", reverse(frozenset({"properties"}))),
        ("reorder-unions", reverse(frozenset({"anyOf", "oneOf"}))),
        ("reorder-enums", reverse(frozenset({"enum"}))),
        ("reorder-required", reverse(frozenset({"required"}))),
        ("reorder-type-table", reverse_definitions_order(contract)),
        ("reorder-everything", reverse(frozenset({"properties", "anyOf", "oneOf", "allOf", "enum", "required",
                                                  "$defs", "schemas", "patternProperties"}))),
    ]
]


@pytest.mark.parametrize("contract, mutation", [(c, m) for c, _, m in UNCHANGED],
                         ids=[f"{c.split('.')[0]}-{label}" for c, label, _ in UNCHANGED])
def test_renaming_and_reordering_leave_digests_unchanged(contracts, baseline, tmp_path, contract, mutation):
    assert _digests_after(contracts, tmp_path, contract, mutation) == baseline


# --- changes: only where a root reaches ---------------------------------------------------------------


def _reachable_prefixes(contracts: Path, name: str) -> list[str]:
    """JSON pointers of the type definitions that some root reaches (changes there must show)."""
    from govern.sources.load import load_configured
    from govern.config import load_config
    from govern.model.nodes import references

    graphs = {graph.source: graph for graph in load_configured(load_config(contracts))}
    graph = graphs["sidecar" if name == SIDECAR else "grp"]
    seen: set[str] = set()
    stack = [root.type_key for root in graph.roots.values()]
    while stack:
        key = stack.pop()
        if key not in seen:
            seen.add(key)
            stack.extend(references(graph.types[key].node))
    return sorted(graph.locations[key].split("#", 1)[1] for key in seen)


def _sites(contracts: Path, name: str, predicate) -> list[str]:
    document = json.loads((contracts / "schemas" / name).read_text(encoding="utf-8"))
    prefixes = _reachable_prefixes(contracts, name)
    found = []
    for pointer, value in walk(document):
        inside_data = any(f"/{key}" in pointer for key in ("/enum", "/const", "/examples", "/default", "/example"))
        if not inside_data and not pointer.startswith("/paths") and predicate(pointer, value) \
                and any(pointer == prefix or pointer.startswith(prefix + "/") for prefix in prefixes):
            found.append(pointer)
    return found


def _pick(sites: list[str]) -> list[str]:
    return sorted({sites[0], sites[len(sites) // 2], sites[-1]}) if sites else []


CONSTRAINT_KEYS = ("maxLength", "minLength", "minimum", "maximum", "maxItems", "minItems", "pattern")


def _change_constraint(document, pointer):
    schema = get_at(document, pointer)
    key = next(key for key in CONSTRAINT_KEYS if key in schema)
    schema[key] = schema[key] + "x" if isinstance(schema[key], str) else schema[key] + 1
    return document


def _drop_required(document, pointer):
    get_at(document, pointer)["required"].pop()
    if not get_at(document, pointer)["required"]:
        del get_at(document, pointer)["required"]
    return document


def _add_required(document, pointer):
    schema = get_at(document, pointer)
    missing = sorted(set(schema["properties"]) - set(schema.get("required", [])))
    schema.setdefault("required", []).append(missing[0])
    return document


def _change_enum(document, pointer):
    get_at(document, pointer)["enum"][0] = "changed-value"
    return document


def _add_enum(document, pointer):
    get_at(document, pointer)["enum"].append("added-value")
    return document


CHANGES = {
    "constraint": (lambda pointer, value: isinstance(value, dict) and any(
        key in value and not isinstance(value[key], (dict, list, bool)) for key in CONSTRAINT_KEYS)
        and not pointer.endswith("/properties"), _change_constraint),
    "required-dropped": (lambda pointer, value: isinstance(value, dict) and isinstance(value.get("required"), list)
                         and value["required"] and not pointer.endswith("/properties"), _drop_required),
    "required-added": (lambda pointer, value: isinstance(value, dict) and isinstance(value.get("properties"), dict)
                       and not pointer.endswith("/properties")
                       and set(value["properties"]) - set(value.get("required", [])), _add_required),
    "enum-value-changed": (lambda pointer, value: isinstance(value, dict) and isinstance(value.get("enum"), list)
                           and not pointer.endswith("/properties"), _change_enum),
    "enum-value-added": (lambda pointer, value: isinstance(value, dict) and isinstance(value.get("enum"), list)
                         and not pointer.endswith("/properties"), _add_enum),
}


def _change_cases():
    # Sites are computed from the checked-in contracts at collection time; positions are resolved in the test.
    return [(contract, kind, position) for contract in CONTRACTS for kind in CHANGES for position in (0, 1, 2)]


@pytest.mark.parametrize("contract, kind, position", _change_cases(),
                         ids=[f"{c.split('.')[0]}-{k}-{p}" for c, k, p in _change_cases()])
def test_structural_changes_change_digests(contracts, baseline, tmp_path, contract, kind, position):
    predicate, change = CHANGES[kind]
    sites = _pick(_sites(contracts, contract, predicate))
    if not sites:
        pytest.skip(f"{contract} has no {kind} site a root reaches")
    pointer = sites[position % len(sites)]
    assert _digests_after(contracts, tmp_path, contract, lambda document: change(document, pointer)) != baseline, pointer


# --- determinism across hash seeds ----------------------------------------------------------------------


def test_digests_json_is_byte_identical_across_hash_seeds(contracts, tmp_path):
    recursive = {"$defs": {
        "Tree": {"type": "object", "properties": {"kids": {"type": "array", "items": {"$ref": "#/$defs/Tree"}},
                                                  "tag": {"$ref": "#/$defs/Tag"}, "mate": {"$ref": "#/$defs/Mate"}}},
        "Mate": {"anyOf": [{"$ref": "#/$defs/Tree"}, {"type": "null"}, {"enum": ["x", "y", 3]}]},
        "Tag": {"type": "string", "enum": ["b", "a"]}}, "$ref": "#/$defs/Tree"}
    other = write_project(tmp_path / "other", jsonschema_source("tree", "schemas/tree.json"),
                          {"schemas/tree.json": recursive})
    for project in (contracts, other):
        outputs = {seed: run_govern(["digests", "--json", "--project", str(project)], seed=seed)
                   for seed in ("0", "1", "123")}
        for seed, result in outputs.items():
            assert result.returncode == 0, (seed, result.stderr)
            assert result.stderr == ""
        assert len({result.stdout for result in outputs.values()}) == 1
        assert json.loads(outputs["0"].stdout)["roots"]
