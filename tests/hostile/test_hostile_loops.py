"""Types that reach themselves through references and combinators alone, with no property, item or value in
between: no JSON value is ever decided by one (a validator recursing into it never returns), so every reader
refuses the source naming the file, the type and the cycle (exit 2), and no command hangs on any graph.

Each command runs in a forked process waited for with a time bound (and killed after it): a command that does
not end fails the test by not ending, not by being slow, and leaves nothing running.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner
from hostile_cases import PROSE_YAML
from hypothesis import given, settings
from hypothesis import strategies as st

from govern.cli import cli

DIALECT = "https://json-schema.org/draft/2020-12/schema"
# Far beyond what any of these small inputs needs, even on a loaded machine.
BOUND_SECONDS = 60


@dataclass(frozen=True)
class Outcome:
    exit_code: int
    output: str
    stdout: str
    stderr: str
    exception: str | None  # the exception's type other than SystemExit, with its message


def _invoke(args: tuple[str, ...], sending) -> None:
    _bound_memory()
    result = CliRunner().invoke(cli, list(args), catch_exceptions=True)
    unexpected = result.exception is not None and not isinstance(result.exception, SystemExit)
    sending.send(Outcome(result.exit_code, result.output, result.stdout, result.stderr,
                         repr(result.exception) if unexpected else None))


# Far beyond what any of these small inputs needs too: a command whose memory runs away fails with MemoryError,
# named in the test's failure, rather than taking the machine's memory from everything else running on it.
BOUND_BYTES = 4 << 30


def _bound_memory() -> None:
    """Limit the forked command's address space to what it has now plus BOUND_BYTES (where /proc tells its size:
    Linux; elsewhere the command runs unbounded, as before)."""
    import resource

    if not os.path.exists("/proc/self/statm"):
        return
    with open("/proc/self/statm", encoding="ascii") as handle:
        size = int(handle.read().split()[0]) * resource.getpagesize()
    hard = resource.getrlimit(resource.RLIMIT_AS)[1]
    wanted = size + BOUND_BYTES
    resource.setrlimit(resource.RLIMIT_AS, (wanted if hard == resource.RLIM_INFINITY else min(wanted, hard), hard))


def bounded(*args: str) -> Outcome:
    """`govern ARGS`, which must end within the bound."""
    context = multiprocessing.get_context("fork")
    receiving, sending = context.Pipe(duplex=False)
    child = context.Process(target=_invoke, args=(args, sending), daemon=True)
    child.start()
    sending.close()
    try:
        ended = receiving.poll(BOUND_SECONDS)
        outcome = receiving.recv() if ended else None
    finally:
        child.kill()
        child.join()
        receiving.close()
    assert outcome is not None, f"govern {' '.join(args)} did not end"
    return outcome


def clean(result: Outcome, codes=(0, 1, 2)) -> None:
    assert result.exit_code in codes, result.output
    assert result.exception is None, result.exception
    assert "Traceback" not in result.output


def document(defs: dict, top: str = "T0") -> dict:
    return {"$schema": DIALECT, "$ref": f"#/$defs/{top}", "$defs": defs}


def ref(name: str) -> dict:
    return {"$ref": f"#/$defs/{name}"}


def repro(last: dict) -> dict:
    return document({"T0": {"allOf": [{"oneOf": [ref("T1"), ref("T1")]}, last]}, "T1": ref("T0")})


def test_diff_of_a_type_reaching_itself_through_combinators_is_refused(tmp_path):
    old, new = tmp_path / "old.json", tmp_path / "new.json"
    old.write_text(json.dumps(repro({"type": "null"})), encoding="utf-8")
    new.write_text(json.dumps(repro({"type": "string"})), encoding="utf-8")
    for args in (("diff", str(old), str(new)), ("diff", "--format", "json", "--witness", str(old), str(new)),
                 ("digests", str(old))):
        result = bounded(*args)
        clean(result, (2,))
        if "json" in args:
            problem, = json.loads(result.stdout)["error"]["problems"]
            message = f"{problem['path']}: {problem['message']}"
        else:
            message = result.stderr
            assert result.stdout == ""
        assert any(f"{name}: type T0 reaches itself through references and combinators alone" in message
                   and f"{name}#/$defs/T0 -> {name}#/$defs/T1 -> {name}#/$defs/T0" in message
                   for name in ("old.json", "new.json")), message


OPENAPI_30_BODY = {"/t": {"post": {"requestBody": {"content": {"application/json": {"schema": {
    "$ref": "#/components/schemas/T0"}}}}, "responses": {"200": {"description": "ok"}}}}}

# name -> (document, the type named, the cycle's types in order): one row per way of applying a schema to the
# value itself.
REFUSED = {
    "anyOf-self": (document({"T0": {"anyOf": [ref("T0"), {"type": "integer"}]}}), "T0", ["T0", "T0"]),
    "allOf-pair": (document({"T0": {"allOf": [ref("T1"), {"type": "object"}]},
                             "T1": {"allOf": [{"required": ["a"]}, ref("T0")]}}), "T0", ["T0", "T1", "T0"]),
    "oneOf-through-ref": (repro({"type": "null"}), "T0", ["T0", "T1", "T0"]),
    "not": (document({"T0": {"not": ref("T0")}}), "T0", ["T0", "T0"]),
    "not-not": (document({"T0": {"not": {"not": ref("T1")}}, "T1": {"anyOf": [ref("T0"), {"type": "null"}]}}),
                "T0", ["T0", "T1", "T0"]),
    "if": (document({"T0": {"type": "object", "if": ref("T0")}}), "T0", ["T0", "T0"]),
    "else": (document({"T0": {"if": {"type": "string"}, "else": ref("T1")}, "T1": ref("T0")}), "T0",
             ["T0", "T1", "T0"]),
    "dependentSchemas": (document({"T0": {"type": "object", "dependentSchemas": {"a": ref("T0")}}}), "T0",
                         ["T0", "T0"]),
    "discriminated": (document({"T0": {"oneOf": [ref("T1"), ref("T2")],
                                       "discriminator": {"propertyName": "kind",
                                                         "mapping": {"a": "#/$defs/T1", "b": "#/$defs/T2"}}},
                                "T1": {"type": "object", "properties": {"kind": {"const": "a"}}},
                                "T2": {"allOf": [ref("T0"), {"properties": {"kind": {"const": "b"}}}]}}),
                      "T0", ["T0", "T2", "T0"]),
    "openapi-3.0-nullable": ({"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": OPENAPI_30_BODY,
                              "components": {"schemas": {"T0": {"nullable": True, "anyOf": [
                                  {"$ref": "#/components/schemas/T1"}, {"type": "string"}]},
                                  "T1": {"allOf": [{"$ref": "#/components/schemas/T0"}]}}}}, "T0",
                             ["T0", "T1", "T0"]),
}


@pytest.mark.parametrize("content, name, cycle", REFUSED.values(), ids=REFUSED)
def test_each_way_of_reaching_itself_in_place_is_refused(tmp_path, content, name, cycle):
    path = tmp_path / "doc.json"
    path.write_text(json.dumps(content), encoding="utf-8")
    prefix = "doc.json#/components/schemas/" if "openapi" in content else "doc.json#/$defs/"
    for args in (("digests", str(path)), ("diff", str(path), str(path))):
        result = bounded(*args)
        clean(result, (2,))
        assert f"doc.json: type {name} reaches itself through references and combinators alone" in result.stderr
        assert " -> ".join(prefix + step for step in cycle) in result.stderr, result.stderr
        assert "put the recursion under a property, an array item or a map value" in result.stderr


# Recursion with something in between: a property, an item, a map value, an item contained, a property name.
ACCEPTED = {
    "property": {"type": "object", "properties": {"next": {"anyOf": [ref("T0"), {"type": "null"}]}}},
    "item": {"anyOf": [{"type": "array", "items": ref("T0")}, {"type": "string"}]},
    "map-value": {"allOf": [{"type": "object", "additionalProperties": ref("T0")}]},
    "contains": {"oneOf": [{"type": "array", "contains": ref("T0")}, {"type": "integer"}]},
    "property-names": {"anyOf": [{"type": "object", "propertyNames": {"allOf": [ref("T0")]}}, {"type": "string"}]},
    "pattern-property": {"not": {"type": "object", "patternProperties": {"^a": ref("T0")}}},
}


@pytest.mark.parametrize("schema", ACCEPTED.values(), ids=ACCEPTED)
def test_recursion_with_structure_in_between_is_read(tmp_path, schema):
    old, new = tmp_path / "old.json", tmp_path / "new.json"
    old.write_text(json.dumps(document({"T0": schema})), encoding="utf-8")
    new.write_text(json.dumps(document({"T0": {"anyOf": [schema, {"type": "boolean"}]}})), encoding="utf-8")
    clean(bounded("digests", str(old)), (0,))
    result = bounded("diff", "--format", "json", "--witness", str(old), str(new))
    clean(result, (0,))
    # Admitting booleans too is a widening: in the persistence mode a version-bump, found by the walk.
    roots = json.loads(result.stdout)["roots"]
    assert {root["decision"] for root in roots} == {"version-bump"}
    assert all(root["changes"] for root in roots)


def test_pydantic_model_reaching_itself_through_a_union_is_refused(tmp_path):
    (tmp_path / "models.py").write_text(
        "from typing import Union\nfrom pydantic import RootModel\n\n\n"
        "class Loop(RootModel[Union['Loop', int]]):\n    pass\n", encoding="utf-8")
    (tmp_path / "pyproject.toml").write_text(
        '[project]\nname = "p"\nversion = "0"\n\n[tool.govern]\n\n[[tool.govern.sources]]\n'
        'name = "models"\nkind = "pydantic"\npath = "models"\nroots = { Loop = { role = "record" } }\n', encoding="utf-8")
    for command in ("extract", "diff", "digests"):
        result = bounded(command, "--project", str(tmp_path))
        clean(result, (2,))
        assert "models.py" in result.stderr and "reaches itself through references and combinators alone" \
            in result.stderr, result.stderr
    assert not (tmp_path / "schemas").exists()


def test_hand_edited_snapshot_reaching_itself_in_place_is_a_finding(tmp_path):
    (tmp_path / "schemas").mkdir()
    (tmp_path / "pyproject.toml").write_text(PYPROJECT, encoding="utf-8")
    (tmp_path / "prose.yaml").write_text(PROSE_YAML, encoding="utf-8")
    (tmp_path / "schemas" / "s.schema.json").write_text(json.dumps(document({
        "T0": {"type": "object", "properties": {"a": ref("T1")}}, "T1": {"anyOf": [ref("T0"), {"type": "null"}]}})),
        encoding="utf-8")
    project = ("--project", str(tmp_path))
    clean(bounded("record", "new", "baseline", "--prose", str(tmp_path / "prose.yaml"), *project), (0,))
    clean(bounded("verify", *project), (0,))
    snapshot = _snapshot_path(tmp_path)
    edited = json.loads(snapshot.read_text(encoding="utf-8"))
    edited["$defs"]["s"]["$defs"]["T0"] = {"allOf": [ref("T1"), {"type": "object"}]}
    snapshot.write_text(json.dumps(edited), encoding="utf-8")
    result = bounded("verify", *project)
    clean(result, (1,))
    assert "snapshot-mismatch" in result.output
    assert "type T0 reaches itself through references and combinators alone" in result.output
    assert "s#/$defs/T0 -> " in result.output and "s#/$defs/T1 -> " in result.output
    result = bounded("diff", *project)
    clean(result, (2,))
    assert "reaches itself through references and combinators alone" in result.stderr
    clean(bounded("formats", *project))  # no format version declared: nothing to write


@pytest.mark.parametrize("combinator", ["oneOf", "allOf", "anyOf"])
def test_witness_search_ends_where_validating_its_documents_grows_exponentially(tmp_path, combinator):
    # No finite document has the required recursion, so the candidates nest as deep as the search builds them,
    # and each level applies the type to the same value twice: validating one whole would take 2^depth steps.
    twice = {combinator: [ref("T0"), ref("T0")]}
    old = document({"T0": {"type": "object", "properties": {"p": twice, "q": {"type": "string"}}, "required": ["p"]}})
    new = json.loads(json.dumps(old))
    new["$defs"]["T0"]["properties"]["q"] = {"type": "integer"}
    old_path, new_path = tmp_path / "old.json", tmp_path / "new.json"
    old_path.write_text(json.dumps(old), encoding="utf-8")
    new_path.write_text(json.dumps(new), encoding="utf-8")
    # A small budget keeps the test quick: without the steps counted, even one candidate would not end.
    result = bounded("diff", "--format", "json", "--witness", "--witness-budget", "20", str(old_path), str(new_path))
    clean(result, (0,))
    changes = [change for root in json.loads(result.stdout)["roots"] for change in root["changes"]]
    assert changes and all(change["witness"] is None and change["witness_search"] == "exhausted"
                           for change in changes if change["path"].endswith("/q")), changes


# --- the family: small graphs of named types built from references and combinators ---------------------

NAMES = ("T0", "T1", "T2")
OPENAPI_PREFIX = "#/components/schemas/"
DEFS_PREFIX = "#/$defs/"
LEAVES = [{"type": "string"}, {"type": "null"}, {"type": "integer", "minimum": 0}, {"const": "a"},
          {"enum": ["a", 1]}, {}, {"not": {}}, {"type": "object"}]


def _ref(name: str) -> dict:
    return {"$ref": f"{DEFS_PREFIX}{name}"}


def _schemas(children: st.SearchStrategy) -> st.SearchStrategy:
    several = st.lists(children, min_size=1, max_size=3)
    return st.one_of(
        # References and combinators: each applies its schemas to the value itself.
        several.map(lambda items: {"allOf": items}),
        several.map(lambda items: {"anyOf": items}),
        several.map(lambda items: {"oneOf": items}),
        children.map(lambda child: {"not": child}),
        st.tuples(children, children, children).map(lambda b: {"if": b[0], "then": b[1], "else": b[2]}),
        children.map(lambda child: {"if": child}),
        children.map(lambda child: {"dependentSchemas": {"p": child}}),
        st.tuples(st.sampled_from(NAMES), st.sampled_from(NAMES)).map(lambda pair: {
            "oneOf": [_ref(pair[0]), _ref(pair[1])],
            "discriminator": {"propertyName": "kind", "mapping": {"a": f"{DEFS_PREFIX}{pair[0]}"}}}),
        children.filter(lambda child: "$ref" not in child).map(lambda child: {**child, "nullable": True}),
        st.tuples(children, children).map(lambda pair: {"allOf": [pair[0]], "anyOf": [pair[1]]}),
        # Structure in between: a property, an item, a map value, an item contained, a property name.
        children.map(lambda child: {"type": "object", "properties": {"p": child}}),
        children.map(lambda child: {"type": "object", "properties": {"p": child}, "required": ["p"]}),
        children.map(lambda child: {"type": "array", "items": child}),
        children.map(lambda child: {"type": "object", "additionalProperties": child}),
        children.map(lambda child: {"type": "array", "contains": child}),
        children.map(lambda child: {"propertyNames": child}),
    )


SCHEMAS = st.recursive(st.sampled_from(LEAVES) | st.sampled_from(NAMES).map(_ref), _schemas, max_leaves=5)


def _openapi(value):
    """References and discriminator mappings written for OpenAPI's components."""
    if isinstance(value, dict):
        return {key: (item.replace(DEFS_PREFIX, OPENAPI_PREFIX) if isinstance(item, str) and key in ("$ref", "a")
                      else _openapi(item)) for key, item in value.items()}
    if isinstance(value, list):
        return [_openapi(item) for item in value]
    return value


def _file(types: dict, kind: str) -> dict:
    if kind == "jsonschema":
        return {"$schema": DIALECT, "$ref": f"{DEFS_PREFIX}T0", "$defs": types}
    body = {"content": {"application/json": {"schema": {"$ref": f"{OPENAPI_PREFIX}T0"}}}}
    return {"openapi": "3.0.3" if kind == "openapi-3.0" else "3.1.0", "info": {"title": "t", "version": "1"},
            "paths": {"/t": {"post": {"requestBody": body, "responses": {"200": {"description": "ok"}}}}},
            "components": {"schemas": _openapi(types)}}


@st.composite
def graph_pairs(draw) -> tuple[dict, dict]:
    old = {name: draw(SCHEMAS) for name in NAMES}
    new = {name: old[name] if draw(st.booleans()) else draw(SCHEMAS) for name in NAMES}
    return old, new


def _applied_in_place(schema, found: set) -> set:
    """Names a schema applies to the value itself, read from the JSON as written (an over-approximation of
    what the readers keep: whatever they drop as implied can only remove such a route)."""
    if not isinstance(schema, dict):
        return found
    target = schema.get("$ref")
    if isinstance(target, str):
        found.add(target.rsplit("/", 1)[-1])
    for keyword in ("allOf", "anyOf", "oneOf"):
        for item in schema.get(keyword, []):
            _applied_in_place(item, found)
    for keyword in ("not", "if", "then", "else"):
        _applied_in_place(schema.get(keyword), found)
    for item in schema.get("dependentSchemas", {}).values():
        _applied_in_place(item, found)
    return found


def _loops_in_place(types: dict) -> bool:
    edges = {name: _applied_in_place(schema, set()) for name, schema in types.items()}

    def reaches(start: str) -> bool:
        seen, stack = set(), list(edges[start])
        while stack:
            name = stack.pop()
            if name == start:
                return True
            if name not in seen and name in edges:
                seen.add(name)
                stack.extend(edges[name])
        return False

    return any(reaches(name) for name in edges)


LOOP_MESSAGES = ("reaches itself through references and combinators alone", "$ref loop with no structure in between")


def ended(result, loops: bool, codes=(0, 1, 2)) -> None:
    """Output or a clear refusal; a refusal for a loop only where the input holds one."""
    clean(result, codes)
    text = result.output
    if any(message in text for message in LOOP_MESSAGES):
        assert loops, text
        assert result.exit_code in (1, 2), text


def refused_for_a_loop(result) -> None:
    clean(result, (2,))
    assert any(message in result.output for message in LOOP_MESSAGES), result.output


@settings(settings.get_profile("hostile"), max_examples=20)
@given(graph_pairs(), st.sampled_from(["jsonschema", "openapi-3.0", "openapi-3.1"]))
def test_every_file_command_ends_on_any_graph(pair, kind):
    old, new = pair
    loops = _loops_in_place(old) or _loops_in_place(new)
    with tempfile.TemporaryDirectory() as directory:
        old_path, new_path = Path(directory) / "old.json", Path(directory) / "new.json"
        old_path.write_text(json.dumps(_file(old, kind)), encoding="utf-8")
        new_path.write_text(json.dumps(_file(new, kind)), encoding="utf-8")
        commands = (("digests", str(old_path)), ("diff", str(old_path), str(new_path)),
                    ("diff", "--format", "json", "--witness", "--witness-budget", "20", str(old_path), str(new_path)))
        for command in commands:
            result = bounded(*command)
            ended(result, loops)
            # What the readers drop as implied never removed a route in these graphs: every loop is refused.
            if _loops_in_place(old) or (loops and command[0] == "diff"):
                refused_for_a_loop(result)


PYPROJECT = """[project]
name = "demo"
version = "0"

[tool.govern]
schemas = "schemas"

[[tool.govern.sources]]
name = "s"
kind = "jsonschema"
path = "schemas/s.schema.json"
"""


def _snapshot_path(root: Path) -> Path | None:
    found = sorted((root / "records").glob("*.schema.json"))
    return found[-1] if found else None


@settings(settings.get_profile("hostile"), max_examples=6)
@given(graph_pairs(), graph_pairs())
def test_every_project_command_ends_on_any_graph(pair, edit):
    old, new = pair
    with tempfile.TemporaryDirectory() as directory:
        root = Path(directory)
        (root / "schemas").mkdir()
        (root / "pyproject.toml").write_text(PYPROJECT, encoding="utf-8")
        (root / "prose.yaml").write_text(PROSE_YAML, encoding="utf-8")
        source = root / "schemas" / "s.schema.json"
        project = ("--project", str(root))
        for types, slug in ((old, "first"), (new, "second")):
            loops = _loops_in_place(types)
            source.write_text(json.dumps(_file(types, "jsonschema")), encoding="utf-8")
            ended(bounded("extract", *project), loops)
            ended(bounded("diff", *project), loops)
            ended(bounded("diff", "--format", "json", "--witness", "--witness-budget", "20", *project), loops)
            ended(bounded("record", "new", slug, "--prose", str(root / "prose.yaml"), "--witness",
                          "--witness-budget", "20", *project), loops)
            ended(bounded("verify", *project), loops)
            ended(bounded("formats", *project), loops)
        snapshot = _snapshot_path(root)
        if snapshot is None:
            return
        # A hand edit of the record's snapshot: the direct reader, the adapter behind it and every command
        # reading records meet the graph there.
        document = json.loads(snapshot.read_text(encoding="utf-8"))
        written = edit[0]
        document["$defs"]["s"]["$defs"] = {**written, "s": _ref("T0")}
        snapshot.write_text(json.dumps(document), encoding="utf-8")
        loops = _loops_in_place(written) or _loops_in_place(new)
        for command in (("verify",), ("diff",), ("diff", "--witness", "--witness-budget", "20"), ("formats",),
                        ("heads",), ("extract",)):
            ended(bounded(*command, *project), loops)
