"""Shared helpers of the classifier tests: fixture cases, graph loading and schema mutations.

Fixture cases live in `rules/<rule-id>/{positive,negative}/<case>/` with `old.schema.json`,
`new.schema.json` and an optional `expect.json`:

- `decision`: the expected decision of the checked root (default: the rule's own decision);
- `minimum`: the expected minimum decision of that root, for new and removed roots;
- `root`: the checked root's name (default `Doc`, the title every fixture document carries);
- `rules`: rule ids that must appear among the changes besides (positive) or instead of (negative) the
  folder's rule; an empty list on a negative case means no change at all;
- `roots` (or `old_roots` / `new_roots`): explicit roots `{Name: [pointer, role]}`, read through
  `load_jsonschema` instead of the ad-hoc reading `govern diff OLD NEW` does;
- `old_mode` / `new_mode`: the compatibility mode the old side was recorded in and the one the new side is
  decided in (default persistence); the document is then the root `Doc`.

Without explicit roots, a case runs through the command line; both sides then carry the source name of
the new file (`new`), as `govern diff` gives them.
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, settings

from govern.classify.classify import classify
from govern.cli import cli
from govern.sources.jsonschema import load_jsonschema

# Registered, not loaded: the tests of this folder opt in, so other folders keep their own settings.
settings.register_profile("classify", max_examples=30, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                                 HealthCheck.filter_too_much])

HERE = Path(__file__).resolve().parent
RULES_DIR = HERE / "rules"
REPO_ROOT = HERE.parents[1]
SOURCE = "new"  # the source name `govern diff OLD NEW` gives both sides: the stem of NEW
POLARITIES = ("positive", "negative")
MODE_KEYS = ("old_mode", "new_mode")


@dataclass(frozen=True)
class Case:
    rule: str
    polarity: str
    name: str
    directory: Path
    expect: dict = field(default_factory=dict, compare=False)

    @property
    def id(self) -> str:
        return f"{self.rule}/{self.polarity}/{self.name}"

    @property
    def old(self) -> Path:
        return self.directory / "old.schema.json"

    @property
    def new(self) -> Path:
        return self.directory / "new.schema.json"

    @property
    def explicit_roots(self) -> bool:
        return any(key in self.expect for key in ("roots", "old_roots", "new_roots", "format_version", *MODE_KEYS))

    def roots(self, side: str) -> dict[str, tuple[str, str]]:
        table = self.expect.get(f"{side}_roots", self.expect.get("roots", {"Doc": ("#", "record")}))
        return {name: (at, role) for name, (at, role) in table.items()}

    @property
    def root_id(self) -> str:
        return f"{SOURCE}:{self.expect.get('root', 'Doc')}"


def fixture_cases() -> list[Case]:
    """Every fixture case on disk, in a stable order."""
    cases = []
    for rule_dir in sorted(p for p in RULES_DIR.iterdir() if p.is_dir()):
        for polarity in POLARITIES:
            for case_dir in sorted(p for p in (rule_dir / polarity).glob("*") if p.is_dir()):
                expect_file = case_dir / "expect.json"
                expect = json.loads(expect_file.read_text(encoding="utf-8")) if expect_file.exists() else {}
                cases.append(Case(rule_dir.name, polarity, case_dir.name, case_dir, expect))
    return cases


def diff_cli(old: Path, new: Path, output_format: str = "json", *options: str):
    """`govern diff OLD NEW --format F [OPTIONS]` through click's runner: (exit code, stdout, stderr)."""
    result = CliRunner().invoke(cli, ["diff", str(old), str(new), "--format", output_format, *options])
    return result.exit_code, result.stdout, result.stderr


def diff_roots(case: Case) -> dict[str, dict]:
    """The JSON contract's roots of a case, by root id, whichever way the case must be read."""
    if case.explicit_roots:
        # A case may point at its format version (the writer constant), like a configured source.
        pointer = case.expect.get("format_version")
        old = load_jsonschema(SOURCE, case.old, case.roots("old"), None, pointer)
        new = load_jsonschema(SOURCE, case.new, case.roots("new"), None, pointer)
        results = classify([old], [new])
        if any(key in case.expect for key in MODE_KEYS):
            from govern.classify.modes import PERSISTENCE, apply_modes

            results = apply_modes(results, {SOURCE: case.expect.get("new_mode", PERSISTENCE)},
                                  recorded={case.root_id: case.expect.get("old_mode", PERSISTENCE)})
        return {result.root: result.to_json() for result in results}
    code, out, err = diff_cli(case.old, case.new)
    assert code == 0, err
    return {entry["root"]: entry for entry in json.loads(out)["roots"]}


def rules_of(roots: dict[str, dict]) -> set[str]:
    return {change["rule"] for entry in roots.values() for change in entry["changes"]}


# --- schema helpers used by the property and soundness tests ---------------------------------------


def subschemas(schema: Any, path: tuple = ()):
    """Every (path, subschema) of a JSON Schema document, the document first, in a stable order."""
    if not isinstance(schema, dict):
        return
    yield path, schema
    for keyword in ("properties", "$defs", "patternProperties"):
        for name in sorted(schema.get(keyword, {})):
            yield from subschemas(schema[keyword][name], path + (keyword, name))
    for keyword in ("items", "additionalProperties"):
        if isinstance(schema.get(keyword), dict):
            yield from subschemas(schema[keyword], path + (keyword,))
    for keyword in ("anyOf", "oneOf", "allOf", "prefixItems"):
        for position, item in enumerate(schema.get(keyword, [])):
            yield from subschemas(item, path + (keyword, position))


def at(schema: dict, path: tuple) -> dict:
    for token in path:
        schema = schema[token]
    return schema


def close_objects(schema: Any) -> Any:
    """A copy that admits declared properties only: additionalProperties false on every open object."""
    schema = copy.deepcopy(schema)
    for _, sub in list(subschemas(schema)):
        is_object = sub.get("type") == "object" or "properties" in sub
        if is_object and sub.get("additionalProperties", True) in (True, {}):
            sub["additionalProperties"] = False
    return schema


def write_pair(directory: Path, old: dict, new: dict, name: str = "doc") -> tuple[Path, Path]:
    (directory / "old").mkdir(parents=True, exist_ok=True)
    (directory / "new").mkdir(parents=True, exist_ok=True)
    old_path, new_path = directory / "old" / f"{name}.schema.json", directory / "new" / f"{name}.schema.json"
    old_path.write_text(json.dumps(old, indent=2), encoding="utf-8")
    new_path.write_text(json.dumps(new, indent=2), encoding="utf-8")
    return old_path, new_path


@pytest.fixture(scope="session")
def helpers() -> SimpleNamespace:
    return SimpleNamespace(diff_cli=diff_cli, diff_roots=diff_roots, rules_of=rules_of, subschemas=subschemas,
                           at=at, close_objects=close_objects, write_pair=write_pair, repo_root=REPO_ROOT)


# --- base schemas and mutations ----------------------------------------------------------------------

DRAFT = "https://json-schema.org/draft/2020-12/schema"

# No $ref anywhere: hypothesis-jsonschema samples instances from it directly.
BASE_INLINE: dict = {
    "$schema": DRAFT,
    "title": "Doc",
    "type": "object",
    "properties": {
        "id": {"type": "string", "minLength": 1, "maxLength": 12},
        "count": {"type": "integer", "minimum": 0, "maximum": 100},
        "ratio": {"type": "number"},
        "flag": {"type": "boolean"},
        "status": {"type": "string", "enum": ["open", "closed", "held"]},
        "kind": {"const": "note"},
        "tags": {"type": "array", "items": {"type": "string", "maxLength": 5}, "maxItems": 3},
        "meta": {
            "type": "object",
            "properties": {"owner": {"type": "string"}, "score": {"type": "integer"}, "level": {"enum": [1, 2, 3]}},
            "required": ["owner"],
        },
        "lock": {
            "type": "object",
            "properties": {"a": {"type": "boolean"}, "b": {"type": "string", "maxLength": 4}},
            "required": ["a"],
            "additionalProperties": False,
        },
        "value": {"anyOf": [{"type": "string"}, {"type": "integer"}, {"type": "null"}]},
    },
    "required": ["id", "status", "kind", "meta"],
}

# The same kind of structure through named definitions, for renames and reference-insensitive checks.
BASE_WITH_DEFS: dict = {
    "$schema": DRAFT,
    "title": "Doc",
    "type": "object",
    "properties": {
        "id": {"$ref": "#/$defs/Ident"},
        "status": {"$ref": "#/$defs/Status"},
        "meta": {"$ref": "#/$defs/Meta"},
        "lock": {"$ref": "#/$defs/Lock"},
        "tags": {"type": "array", "items": {"$ref": "#/$defs/Tag"}},
        "value": {"anyOf": [{"$ref": "#/$defs/Tag"}, {"type": "integer"}, {"$ref": "#/$defs/Meta"}]},
        "next": {"$ref": "#/$defs/Node"},
        "kind": {"$ref": "#/$defs/Kind"},
        "count": {"type": "integer", "minimum": 0},
    },
    "required": ["id", "status", "meta", "kind"],
    "$defs": {
        "Ident": {"type": "string", "minLength": 1},
        "Kind": {"const": "note"},
        "Status": {"enum": ["open", "closed", "held"]},
        "Tag": {"type": "string", "maxLength": 5},
        "Meta": {"type": "object", "properties": {"owner": {"$ref": "#/$defs/Ident"}, "score": {"type": "integer"}},
                 "required": ["owner"]},
        "Lock": {"type": "object", "properties": {"a": {"type": "boolean"}}, "required": ["a"],
                 "additionalProperties": False},
        "Node": {"type": "object", "properties": {"label": {"$ref": "#/$defs/Tag"}, "next": {"$ref": "#/$defs/Node"}}},
    },
}

ADDED_SCHEMAS = (
    {"type": "string"},
    {"type": "integer", "minimum": 0},
    {"enum": ["x", "y"]},
    {"type": "array", "items": {"type": "boolean"}, "maxItems": 2},
    {"type": "object", "properties": {"deep": {"type": "string"}}, "required": ["deep"]},
)


def _original(path: tuple) -> bool:
    """Breaking mutations leave added properties alone, so they never turn an addition into another addition."""
    return not any(isinstance(token, str) and token.startswith("added_") for token in path)


def _objects(schema: dict) -> list[tuple[tuple, dict]]:
    return [(path, sub) for path, sub in subschemas(schema) if isinstance(sub.get("properties"), dict)
            and _original(path)]


def _open(sub: dict) -> bool:
    return (sub.get("additionalProperties", True) in (True, {}) and not sub.get("patternProperties")
            and "propertyNames" not in sub and "unevaluatedProperties" not in sub)


def _primitives(schema: dict) -> list[tuple[tuple, dict]]:
    return [(path, sub) for path, sub in subschemas(schema)
            if sub.get("type") in ("string", "integer", "number", "boolean") and "enum" not in sub and path
            and _original(path)]


def _choose(draw, options):
    from hypothesis import strategies as st

    return draw(st.sampled_from(options)) if options else None


def _fresh_name(sub: dict, stem: str) -> str:
    name, number = stem, 2
    while name in sub["properties"]:
        name, number = f"{stem}{number}", number + 1
    return name


def remove_property(schema, draw):
    target = _choose(draw, [(p, s, n) for p, s in _objects(schema) for n in sorted(s["properties"])
                            if _original((n,))])
    if target is None:
        return False
    _, sub, name = target
    del sub["properties"][name]
    if name in sub.get("required", []):
        sub["required"].remove(name)
    return True


def add_required_property(schema, draw):
    target = _choose(draw, _objects(schema))
    if target is None:
        return False
    sub = target[1]
    name = _fresh_name(sub, "added_required")
    sub["properties"][name] = {"type": "string"}
    sub.setdefault("required", []).append(name)
    return True


def change_type(schema, draw):
    target = _choose(draw, _primitives(schema))
    if target is None:
        return False
    sub = target[1]
    other = _choose(draw, [t for t in ("string", "integer", "boolean", "null") if t != sub["type"]])
    sub.clear()
    sub["type"] = other
    return True


def add_enum_value(schema, draw):
    target = _choose(draw, [(p, s) for p, s in subschemas(schema) if isinstance(s.get("enum"), list) and _original(p)])
    if target is None:
        return False
    values = target[1]["enum"]
    values.append(max(v for v in values if isinstance(v, int)) + 10 if all(isinstance(v, int) for v in values)
                  else "added-" + "-".join(str(v) for v in values))
    return True


_BOUNDS = ("minLength", "maxLength", "minimum", "maximum", "maxItems", "minItems")


def change_bound(schema, draw):
    from hypothesis import strategies as st

    target = _choose(draw, [(p, s, k) for p, s in subschemas(schema) for k in _BOUNDS if k in s and _original(p)])
    if target is None:
        return False
    _, sub, keyword = target
    step = draw(st.sampled_from([-1, 1]))
    value = sub[keyword] + step
    if value < 0 and keyword not in ("minimum", "maximum"):
        value = sub[keyword] + 1
    sub[keyword] = value
    return True


def close_object(schema, draw):
    target = _choose(draw, [(p, s) for p, s in _objects(schema) if _open(s)])
    if target is None:
        return False
    target[1]["additionalProperties"] = False
    return True


def make_optional_required(schema, draw):
    target = _choose(draw, [(p, s, n) for p, s in _objects(schema) for n in sorted(s["properties"])
                            if n not in s.get("required", []) and _original((n,))])
    if target is None:
        return False
    _, sub, name = target
    sub.setdefault("required", []).append(name)
    return True


def change_const(schema, draw):
    target = _choose(draw, [(p, s) for p, s in subschemas(schema) if "const" in s])
    if target is None:
        return False
    target[1]["const"] = f"{target[1]['const']}-changed"
    return True


def add_optional_property(schema, draw):
    target = _choose(draw, [(p, s) for p, s in _objects(schema) if _open(s)])
    if target is None:
        return False
    sub = target[1]
    sub["properties"][_fresh_name(sub, "added_optional")] = copy.deepcopy(_choose(draw, list(ADDED_SCHEMAS)))
    return True


def make_required_optional(schema, draw):
    target = _choose(draw, [(p, s, n) for p, s in _objects(schema) for n in s.get("required", [])])
    if target is None:
        return False
    _, sub, name = target
    sub["required"].remove(name)
    if not sub["required"]:
        del sub["required"]
    return True


BREAKING_MUTATIONS = (remove_property, add_required_property, change_type, add_enum_value, change_bound,
                      close_object, make_optional_required, change_const)
SAME_VERSION_MUTATIONS = (add_optional_property, make_required_optional)


def mutate(schema: dict, draw, mutations) -> tuple[dict, list[str]]:
    """A copy of the schema with one of the mutations applied (drawn among those that apply)."""
    from hypothesis import strategies as st

    order = draw(st.permutations(list(mutations)))
    for mutation in order:
        candidate = copy.deepcopy(schema)
        if mutation(candidate, draw):
            return candidate, [mutation.__name__]
    raise AssertionError("no mutation applies")  # pragma: no cover - every base admits each kind


def reorder(schema: Any, rnd) -> Any:
    """A copy with properties, $defs, enum values, anyOf alternatives and required names shuffled."""
    if isinstance(schema, list):
        return [reorder(item, rnd) for item in schema]
    if not isinstance(schema, dict):
        return schema
    result = {}
    keys = list(schema)
    rnd.shuffle(keys)
    for key in keys:
        value = schema[key]
        if key in ("properties", "$defs", "patternProperties") and isinstance(value, dict):
            names = list(value)
            rnd.shuffle(names)
            result[key] = {name: reorder(value[name], rnd) for name in names}
        elif key in ("enum", "anyOf", "required", "allOf") and isinstance(value, list):
            items = [reorder(item, rnd) for item in value]
            rnd.shuffle(items)
            result[key] = items
        else:
            result[key] = reorder(value, rnd)
    return result


def rename_definitions(schema: dict, names: dict[str, str]) -> dict:
    """A copy with $defs keys renamed and every reference to them rewritten."""
    def walk(node):
        if isinstance(node, list):
            return [walk(item) for item in node]
        if not isinstance(node, dict):
            return node
        out = {}
        for key, value in node.items():
            if key == "$ref" and isinstance(value, str) and value.startswith("#/$defs/"):
                out[key] = "#/$defs/" + names.get(value[len("#/$defs/"):], value[len("#/$defs/"):])
            elif key == "$defs":
                out[key] = {names.get(name, name): walk(sub) for name, sub in value.items()}
            else:
                out[key] = walk(value)
        return out

    return walk(schema)


class PairClassifier:
    """Writes OLD/NEW into a scratch folder and classifies them with the document as root `Doc`."""

    def __init__(self, directory: Path):
        self.directory = directory
        directory.mkdir(parents=True, exist_ok=True)

    def classify(self, old: dict, new: dict, roots=None) -> dict[str, dict]:
        roots = roots or {"Doc": ("#", "record")}
        old_path, new_path = self.directory / "old.schema.json", self.directory / "new.schema.json"
        old_path.write_text(json.dumps(old), encoding="utf-8")
        new_path.write_text(json.dumps(new), encoding="utf-8")
        results = classify([load_jsonschema(SOURCE, old_path, roots, None)],
                           [load_jsonschema(SOURCE, new_path, roots, None)])
        return {result.root: result.to_json() for result in results}


@pytest.fixture(scope="session")
def pair_classifier(tmp_path_factory) -> PairClassifier:
    return PairClassifier(tmp_path_factory.mktemp("classify-pairs"))
