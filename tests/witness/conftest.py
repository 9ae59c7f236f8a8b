"""Helpers of the witness tests: the classifier's rule fixtures, read the way `govern diff` reads them."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

from govern.classify.classify import classify
from govern.sources.jsonschema import load_jsonschema
from govern.sources.load import document_root_name, load_spec
from govern.witness.search import DEFAULT_BUDGET, find_witnesses

HERE = Path(__file__).resolve().parent
REPO_ROOT = HERE.parents[1]


def _helpers(folder: str):
    """Another test folder's helpers (fixture readers, schema mutations, project copies), loaded under a name
    of their own so they do not shadow this folder's conftest."""
    spec = importlib.util.spec_from_file_location(f"{folder}_test_helpers", HERE.parent / folder / "conftest.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the class is built
    spec.loader.exec_module(module)
    return module


fixtures = _helpers("classify")
projects = _helpers("records")


def case_graphs(case):
    """Old and new graphs of a rule fixture, with the roots its expect.json names or as `diff OLD NEW` reads them."""
    if case.explicit_roots:
        pointer = case.expect.get("format_version")
        return (load_jsonschema(fixtures.SOURCE, case.old, case.roots("old"), None, pointer),
                load_jsonschema(fixtures.SOURCE, case.new, case.roots("new"), None, pointer))
    new = load_spec(str(case.new), REPO_ROOT)
    old = load_spec(str(case.old), REPO_ROOT, source=new.source, document_root=document_root_name(new))
    return old, new


def witness_rows(case, budget: int = DEFAULT_BUDGET) -> list[tuple]:
    """(location, rule, search outcome, direction, document) of every searched change of a fixture, searched
    with the commands' default budget unless told otherwise; the location is the pointer in the root's own
    structure, or `Type#/pointer` inside a named type."""
    old, new = case_graphs(case)
    results = classify([old], [new])
    report = find_witnesses(results, [old], [new], budget=budget)
    rows = []
    for (_, _), entry in sorted(report.by_change.items()):
        witness = entry.witness
        change = entry.change
        rows.append((f"{change.type}#{change.path}" if change.type else change.path, change.rule, entry.status,
                     witness.direction if witness else None, witness.document if witness else None))
    return rows


def dumps(value) -> str:
    return json.dumps(value, sort_keys=True)


def schema_graphs(folder: Path, old: dict, new: dict, roots: dict | None = None):
    """Old and new graphs of two JSON Schemas written into the folder, with one root `Doc` at `#` unless told."""
    graphs = []
    for name, schema in (("old", old), ("new", new)):
        path = folder / f"{name}.schema.json"
        path.write_text(json.dumps(schema), encoding="utf-8")
        graphs.append(load_jsonschema(fixtures.SOURCE, path, roots or {"Doc": ("#", "record")}, None))
    return graphs
