"""Shared helpers and hypothesis strategies for the foundation tests.

Schemas are loaded through the same entry points the CLI uses (files on disk, adapters, inventory), so a
test proves the whole path from a source file to a digest. Helpers that hypothesis calls many times use
their own temporary directories instead of function-scoped fixtures.
"""

from __future__ import annotations

import copy
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, assume, settings
from hypothesis import strategies as st

from govern.cli import cli
from govern.model.graph import TypeGraph
from govern.model.inventory import build_inventory
from govern.model.render import structure

# Opt-in profile (tests use @settings(settings.get_profile("foundation"))), so other folders keep theirs.
settings.register_profile("foundation", max_examples=30, deadline=None, database=None,
                          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                                 HealthCheck.filter_too_much])

REPO_ROOT = Path(__file__).resolve().parents[2]
FIXTURES = Path(__file__).resolve().parent / "fixtures"
CONTRACTS = ("coauthoring-sidecar.schema.json", "grp-coordination.openapi.json")


# --- loading -------------------------------------------------------------------------------------------


def load_file(path: Path, project_root: Path | None = None) -> TypeGraph:
    """A file as `govern digests FILE` reads it: every definition (and a structural document) is a root."""
    from govern.sources.load import load_spec

    return load_spec(str(path), project_root or path.parent)


def load_schema(schema: Any, directory: Path, filename: str = "doc.json") -> TypeGraph:
    path = directory / filename
    path.write_text(json.dumps(schema), encoding="utf-8")
    return load_file(path, directory)


def digests_of_graph(graph: TypeGraph) -> dict[str, str]:
    return {root_id: entry.digest for root_id, entry in build_inventory([graph]).roots.items()}


def root_digests(schema: Any, filename: str = "doc.json") -> dict[str, str]:
    """Digest of every root of a JSON Schema document (roots `doc:<Name>`, the document as `doc:doc`)."""
    with tempfile.TemporaryDirectory() as directory:
        return digests_of_graph(load_schema(schema, Path(directory), filename))


def type_digests_of(schema: Any) -> dict[str, str]:
    """Digest of every named type of a document, by type name."""
    with tempfile.TemporaryDirectory() as directory:
        inventory = build_inventory([load_schema(schema, Path(directory))])
        return {entry.name: entry.digest for entry in inventory.types.values()}


def _document_root(graph: TypeGraph, filename: str = "doc.json") -> str:
    """The root whose type is the document itself (its name may come from a title)."""
    for root_id, root in graph.roots.items():
        if graph.locations.get(root.type_key) == f"{filename}#":
            return root_id
    for root_id, root in graph.roots.items():  # the document is an alias of one of its definitions
        if root_id.endswith(":doc"):
            return root_id
    raise AssertionError(f"no document root among {sorted(graph.roots)}")


def document_digest(schema: Any) -> str:
    with tempfile.TemporaryDirectory() as directory:
        graph = load_schema(schema, Path(directory))
        return digests_of_graph(graph)[_document_root(graph)]


def document_structure(schema: Any) -> dict:
    with tempfile.TemporaryDirectory() as directory:
        graph = load_schema(schema, Path(directory))
        return structure(graph.types[graph.roots[_document_root(graph)].type_key].node)


# --- projects and the command line --------------------------------------------------------------------


def write_project(root: Path, sources_toml: str, files: dict[str, Any] | None = None) -> Path:
    """A project with a [tool.govern] table and the given files (dicts are written as JSON)."""
    root.mkdir(parents=True, exist_ok=True)
    (root / "pyproject.toml").write_text(
        '[project]\nname = "demo"\nversion = "0"\n\n[tool.govern]\nschemas = "schemas"\n\n' + sources_toml,
        encoding="utf-8")
    for relative, content in (files or {}).items():
        target = root / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            target.write_bytes(content)
        elif isinstance(content, str):
            target.write_text(content, encoding="utf-8")
        else:
            target.write_text(json.dumps(content, indent=2), encoding="utf-8")
    return root


def jsonschema_source(name: str, path: str, roots: str | None = None) -> str:
    text = f'[[tool.govern.sources]]\nname = "{name}"\nkind = "jsonschema"\npath = "{path}"\n'
    if roots:
        text += f"roots = {roots}\n"
    return text + "\n"


def copy_contracts(target: Path) -> Path:
    """This repository's owned contracts and configuration, copied so concurrent edits cannot race a test."""
    (target / "schemas").mkdir(parents=True, exist_ok=True)
    for name in CONTRACTS:
        shutil.copyfile(REPO_ROOT / "schemas" / name, target / "schemas" / name)
    shutil.copyfile(REPO_ROOT / "pyproject.toml", target / "pyproject.toml")
    return target


def invoke(*args: str):
    """Run `govern ARGS` in process; the result separates stdout and stderr."""
    return CliRunner().invoke(cli, list(args), catch_exceptions=True)


def run_govern(args: list[str], cwd: Path | None = None, seed: str | None = None) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    if seed is not None:
        env["PYTHONHASHSEED"] = seed
    return subprocess.run([sys.executable, "-m", "govern", *args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=120)


def snapshot(folder: Path) -> dict[str, bytes]:
    """Every file under a folder with its bytes (to prove that nothing was written)."""
    return {path.relative_to(folder).as_posix(): path.read_bytes()
            for path in sorted(folder.rglob("*")) if path.is_file()}


@pytest.fixture
def project_factory(tmp_path: Path) -> Callable[..., Path]:
    def make(sources_toml: str, files: dict[str, Any] | None = None, name: str = "project") -> Path:
        return write_project(tmp_path / name, sources_toml, files)

    return make


# --- walking JSON ------------------------------------------------------------------------------------


def walk(value: Any, pointer: str = "") -> Iterator[tuple[str, Any]]:
    """Every (pointer, value) of a JSON document, depth first, in document order."""
    yield pointer, value
    if isinstance(value, dict):
        for key, item in value.items():
            yield from walk(item, f"{pointer}/{key.replace('~', '~0').replace('/', '~1')}")
    elif isinstance(value, list):
        for position, item in enumerate(value):
            yield from walk(item, f"{pointer}/{position}")


def get_at(document: Any, pointer: str) -> Any:
    value = document
    for token in pointer.split("/")[1:] if pointer else []:
        token = token.replace("~1", "/").replace("~0", "~")
        value = value[int(token)] if isinstance(value, list) else value[token]
    return value


def rename_refs(value: Any, renames: dict[str, str], prefix: str) -> Any:
    """Rewrite every `$ref` to `prefix + old` into `prefix + new`."""
    if isinstance(value, dict):
        result = {}
        for key, item in value.items():
            if key == "$ref" and isinstance(item, str) and item.startswith(prefix) and item[len(prefix):] in renames:
                result[key] = prefix + renames[item[len(prefix):]]
            else:
                result[key] = rename_refs(item, renames, prefix)
        return result
    if isinstance(value, list):
        return [rename_refs(item, renames, prefix) for item in value]
    return value


def rename_definitions(document: dict, renames: dict[str, str], table: tuple[str, ...] = ("$defs",)) -> dict:
    """Rename entries of a definitions table (given as a key path) and every reference to them."""
    prefix = "#/" + "/".join(table) + "/"
    result = rename_refs(copy.deepcopy(document), renames, prefix)
    holder = result
    for key in table[:-1]:
        holder = holder[key]
    holder[table[-1]] = {renames.get(name, name): schema for name, schema in holder[table[-1]].items()}
    return result


REORDERED_LISTS = frozenset({"anyOf", "oneOf", "allOf", "enum", "required"})


def reorder(value: Any, rng: random.Random, lists: frozenset = REORDERED_LISTS, parent_key: str | None = None) -> Any:
    """Shuffle every order that carries no meaning: object keys everywhere, unions, enums, required lists."""
    if isinstance(value, dict):
        keys = list(value)
        rng.shuffle(keys)
        return {key: reorder(value[key], rng, lists, key) for key in keys}
    if isinstance(value, list):
        items = [reorder(item, rng, lists, None) for item in value]
        if parent_key in lists:
            rng.shuffle(items)
        return items
    return value


DATA_KEYWORDS = frozenset({"enum", "const", "examples", "example", "default"})
# Keywords whose entries are not reordered: the legacy draft-07 `dependencies` (its lists of names become
# `dependentRequired`, kept as written) and `contentSchema` (describes decoded content, not the value).
VERBATIM_KEYWORDS = frozenset({"dependencies", "contentSchema"})


def reverse_named(value: Any, keys: frozenset, parent_key: str | None = None) -> Any:
    """Reverse the order of every list or object stored under one of `keys`; data values are not entered."""
    if isinstance(value, dict):
        items = [(key, item if key in DATA_KEYWORDS or key in VERBATIM_KEYWORDS else reverse_named(item, keys, key))
                 for key, item in value.items()]
        items = [(key, list(reversed(item)) if key in keys and key in DATA_KEYWORDS and isinstance(item, list)
                  else item) for key, item in items]
        if parent_key in keys:
            items.reverse()
        return dict(items)
    if isinstance(value, list):
        items = [reverse_named(item, keys, None) for item in value]
        if parent_key in keys:
            items.reverse()
        return items
    return value


# --- strategies --------------------------------------------------------------------------------------

DEF_NAMES = ("Alpha", "Beta", "Gamma", "Delta", "Epsilon")
property_names = st.text(alphabet="abcdef", min_size=1, max_size=3)
scalars = st.none() | st.booleans() | st.integers(-3, 3) | st.text(alphabet="xyz", max_size=2)
enum_values = st.lists(scalars, min_size=2, max_size=4, unique_by=lambda value: json.dumps(value))

string_schemas = st.fixed_dictionaries(
    {"type": st.just("string")},
    optional={"minLength": st.integers(0, 4), "maxLength": st.integers(5, 30), "pattern": st.sampled_from(["^a", "b$"])})
number_schemas = st.fixed_dictionaries(
    {"type": st.sampled_from(["integer", "number"])},
    optional={"minimum": st.integers(-5, 5), "maximum": st.integers(6, 60), "multipleOf": st.integers(1, 4)})
primitive_schemas = string_schemas | number_schemas | st.sampled_from([{"type": "boolean"}, {"type": "null"}])


def schema_strategy(names: tuple[str, ...]) -> st.SearchStrategy:
    """Subschemas: primitives with constraints, enums, consts, references and compound schemas."""
    leaves = primitive_schemas | enum_values.map(lambda values: {"enum": values}) | scalars.map(
        lambda value: {"const": value})
    if names:
        leaves = leaves | st.sampled_from(names).map(lambda name: {"$ref": f"#/$defs/{name}"})
    return st.recursive(leaves, compound_strategy, max_leaves=5)


def compound_strategy(children: st.SearchStrategy) -> st.SearchStrategy:
    return objects(children) | arrays(children) | tuples(children) | unions(children)


@st.composite
def objects(draw, children):
    properties = draw(st.dictionaries(property_names, children, min_size=1, max_size=4))
    schema: dict[str, Any] = {"type": "object", "properties": properties}
    required = draw(st.lists(st.sampled_from(sorted(properties)), unique=True))
    if required:
        schema["required"] = required
    additional = draw(st.sampled_from(["absent", "closed", "schema"]))
    if additional == "closed":
        schema["additionalProperties"] = False
    elif additional == "schema":
        schema["additionalProperties"] = draw(children)
    if draw(st.booleans()):
        schema["minProperties"] = draw(st.integers(0, 2))
    return schema


@st.composite
def arrays(draw, children):
    schema = {"type": "array", "items": draw(children)}
    if draw(st.booleans()):
        schema["maxItems"] = draw(st.integers(1, 9))
    return schema


@st.composite
def tuples(draw, children):
    items = st.one_of(primitive_schemas, children)  # primitives often, so positions differ in type
    schema: dict[str, Any] = {"type": "array", "prefixItems": draw(st.lists(items, min_size=2, max_size=3))}
    if draw(st.booleans()):
        schema["items"] = False
    return schema


@st.composite
def unions(draw, children):
    return {draw(st.sampled_from(["anyOf", "oneOf"])): draw(st.lists(children, min_size=2, max_size=3))}


_BODIES: dict[int, st.SearchStrategy] = {}


def _bodies(count: int) -> st.SearchStrategy:
    # Built once per definition count: hypothesis caches strategies, and rebuilding them per draw is slow.
    if count not in _BODIES:
        _BODIES[count] = compound_strategy(schema_strategy(DEF_NAMES[:count]))
    return _BODIES[count]


@st.composite
def schema_documents(draw, max_definitions: int = 4):
    """A JSON Schema 2020-12 document whose `$defs` refer to each other, recursively or not.

    Definitions are never bare references, nor reach themselves through unions of references alone (that
    would be a loop with no structure, which is an error); the document itself is a compound schema too, so
    it is a root next to every definition.
    """
    count = draw(st.integers(1, max_definitions))
    bodies = _bodies(count)
    definitions = {name: draw(bodies) for name in DEF_NAMES[:count]}
    assume(not any(on_a_cycle(name, _union_references(definitions)) for name in definitions))
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", **draw(bodies), "$defs": definitions}


def reference_graph(document: dict) -> dict[str, set[str]]:
    """For each definition, the definitions it refers to directly."""
    edges: dict[str, set[str]] = {}
    for name, body in document.get("$defs", {}).items():
        edges[name] = {value[len("#/$defs/"):] for pointer, value in walk(body)
                       if pointer.endswith("/$ref") and isinstance(value, str)}
    return edges


def _union_references(definitions: dict) -> dict[str, set[str]]:
    """For each definition, the definitions it is a union of, directly or through nested unions."""
    def found(schema: Any) -> set[str]:
        if not isinstance(schema, dict):
            return set()
        if "$ref" in schema:
            return {schema["$ref"][len("#/$defs/"):]}
        return {name for keyword in ("anyOf", "oneOf") for item in schema.get(keyword, ()) for name in found(item)}

    return {name: found(body) for name, body in definitions.items()}


def on_a_cycle(name: str, edges: dict[str, set[str]]) -> bool:
    stack, seen = list(edges.get(name, ())), set()
    while stack:
        current = stack.pop()
        if current == name:
            return True
        if current not in seen:
            seen.add(current)
            stack.extend(edges.get(current, ()))
    return False


def containing_root(pointer: str) -> str:
    """The adhoc root of a location in a generated document: its definition, or the document."""
    tokens = pointer.split("/")
    if len(tokens) > 2 and tokens[1] == "$defs":
        return f"doc:{tokens[2]}"
    return "doc:doc"
