"""Property: for generated sources and generated changes, `govern record new` followed by `govern verify`
is clean, and `govern diff` then reports every root unchanged.

Sources mix roots with and without a preservation policy (two fingerprint domains), and changes cover
additions, removals, retyping, required-ness, content models, policies and whole roots. When `govern diff`
infers a version-bump, the format version is raised in the same change, as the rules demand.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.records.conftest import PROSE, Project, prose_yaml, write_small_project

TYPES = ("string", "integer", "boolean")
NAMES = ("a", "b", "c", "d")
ROOT_NAMES = ("Alpha", "Beta", "Gamma")
SOURCE_SLOT = {
    "x-persistence-source": {"policy": 1},
    "oneOf": [
        {"type": "object", "properties": {"kind": {"const": "user"}}, "required": ["kind"]},
        {"type": "object", "properties": {"kind": {"const": "developer"}}, "required": ["kind"]},
    ],
}

properties = st.dictionaries(st.sampled_from(NAMES), st.tuples(st.sampled_from(TYPES), st.booleans()), max_size=3)
root_model = st.fixed_dictionaries({"properties": properties, "policy": st.booleans(), "closed": st.booleans()})
source_model = st.dictionaries(st.sampled_from(ROOT_NAMES), root_model, min_size=1, max_size=3)

operation = st.one_of(
    st.tuples(st.just("add"), st.sampled_from(NAMES), st.sampled_from(TYPES), st.booleans()),
    st.tuples(st.just("remove"), st.sampled_from(NAMES)),
    st.tuples(st.just("retype"), st.sampled_from(NAMES), st.sampled_from(TYPES)),
    st.tuples(st.just("toggle-required"), st.sampled_from(NAMES)),
    st.tuples(st.just("toggle-policy")),
    st.tuples(st.just("toggle-closed")),
    st.tuples(st.just("drop-root")),
)
changes = st.lists(st.tuples(st.sampled_from(ROOT_NAMES), operation), min_size=1, max_size=3)


def apply(model: dict, root: str, op: tuple) -> None:
    if root not in model:
        if op[0] == "add":  # a new root
            model[root] = {"properties": {op[1]: (op[2], op[3])}, "policy": False, "closed": False}
        return
    entry = model[root]
    props = entry["properties"]
    kind = op[0]
    if kind == "add":
        props[op[1]] = (op[2], op[3])
    elif kind == "remove":
        props.pop(op[1], None)
    elif kind == "retype" and op[1] in props:
        props[op[1]] = (op[2], props[op[1]][1])
    elif kind == "toggle-required" and op[1] in props:
        props[op[1]] = (props[op[1]][0], not props[op[1]][1])
    elif kind == "toggle-policy":
        entry["policy"] = not entry["policy"]
    elif kind == "toggle-closed":
        entry["closed"] = not entry["closed"]
    elif kind == "drop-root" and len(model) > 1:
        del model[root]


def schema(model: dict, version: int) -> dict:
    defs = {}
    for name, entry in model.items():
        props = {prop: {"type": kind} for prop, (kind, _) in entry["properties"].items()}
        required = sorted(prop for prop, (_, needed) in entry["properties"].items() if needed)
        if entry["policy"]:
            props["source"] = SOURCE_SLOT  # a bound source slot needs a user or developer role beside it
            props["role"] = {"const": "user"}
            required = sorted({*required, "source"})
        node: dict = {"type": "object", "properties": props}
        if required:
            node["required"] = required
        if entry["closed"]:
            node["additionalProperties"] = False
        defs[name] = node
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "info": {"version": version}, "$defs": defs}


def write(root: Path, model: dict, version: int) -> None:
    write_small_project(root, {"s.schema.json": schema(model, version)}, [{
        "name": "s", "kind": "jsonschema", "path": "s.schema.json", "format-version": "/info/version",
        "roots": {name: {"at": f"#/$defs/{name}"} for name in sorted(model)}}])


def record(project: Project, slug: str, date: str) -> None:
    result = project.run("record", "new", slug, "--prose", str(project.path("p.yaml")), "--date", date)
    assert result.exit_code == 0, result.output


@settings(max_examples=12, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(model=source_model, edits=changes)
def test_record_new_then_verify_is_clean(model, edits):
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder) / "project"
        write(root, model, 1)
        project = Project(root, CliRunner())
        project.path("p.yaml").write_text(prose_yaml(PROSE), encoding="utf-8")
        record(project, "baseline", "2026-12-01")
        assert project.verify().exit_code == 0, project.verify().output

        changed = json.loads(json.dumps(model))
        for root_name, op in edits:
            apply(changed, root_name, op)
        write(root, changed, 1)
        diff = json.loads(project.run("diff", "--format", "json").stdout)["roots"]
        if all(entry["decision"] == "unchanged" for entry in diff):
            return
        if any(entry["minimum"] == "version-bump" for entry in diff):
            write(root, changed, 2)
        record(project, "change", "2026-12-01")
        result = project.verify()
        assert result.exit_code == 0, result.output
        after = json.loads(project.run("diff", "--format", "json").stdout)["roots"]
        assert {entry["decision"] for entry in after} == {"unchanged"}
