"""Acceptance on copies of this repository's own contracts: `govern diff OLD NEW` on mutated copies.

With two files, govern reads them ad hoc: the source is the stem of NEW, the document is a root named
after the file (the sidecar's title is no plain name), and every definition or component is a root too.
The configured root `sidecar:Artifact` is the same document read with an explicit root.
"""

from __future__ import annotations

import copy
import json
import shutil
from pathlib import Path

import pytest

from conftest import RULES_DIR, diff_cli  # noqa: E402 - the folder's helpers
from govern.classify.classify import classify
from govern.sources.jsonschema import load_jsonschema
from govern.sources.load import load_spec

REPO = Path(__file__).resolve().parents[2]
SIDECAR = REPO / "schemas" / "coauthoring-sidecar.schema.json"
COORDINATION = REPO / "schemas" / "grp-coordination.openapi.json"
SIDECAR_ROOT = "coauthoring-sidecar:coauthoring-sidecar"  # the ad-hoc name of the sidecar document (Artifact)


def _copies(tmp_path: Path, original: Path, mutation) -> tuple[Path, Path]:
    old = tmp_path / "old" / original.name
    new = tmp_path / "new" / original.name
    old.parent.mkdir(parents=True)
    new.parent.mkdir(parents=True)
    shutil.copyfile(original, old)
    document = json.loads(original.read_text(encoding="utf-8"))
    mutated = mutation(copy.deepcopy(document))
    assert mutated != document
    new.write_text(json.dumps(mutated, indent=2, ensure_ascii=False), encoding="utf-8")
    return old, new


def _diff(old: Path, new: Path) -> dict[str, dict]:
    code, out, err = diff_cli(old, new)
    assert code == 0, err
    return {entry["root"]: entry for entry in json.loads(out)["roots"]}


def _set(document: dict, path: str, value) -> dict:
    *parents, last = path.split("/")
    target = document
    for token in parents:
        target = target[token]
    target[last] = value
    return document


def _add_required(document: dict, definition: str, name: str, schema: dict) -> dict:
    document["$defs"][definition]["properties"][name] = schema
    document["$defs"][definition]["required"].append(name)
    return document


def _rename_definition(document: dict, old: str, new: str) -> dict:
    text = json.dumps(document).replace(f'"#/$defs/{old}"', f'"#/$defs/{new}"')
    document = json.loads(text)
    document["$defs"] = {new if key == old else key: value for key, value in document["$defs"].items()}
    return document


def _drop(document: dict, definition: str, name: str) -> dict:
    del document["$defs"][definition]["properties"][name]
    document["$defs"][definition]["required"] = [n for n in document["$defs"][definition]["required"] if n != name]
    return document


SAME_VERSION = {
    "optional-field-on-thread": lambda d: _set(d, "$defs/Thread/properties/pinned", {"type": "boolean"}),
    "optional-subtree-on-message": lambda d: _set(d, "$defs/Message/properties/reactions", {
        "type": "array", "items": {"type": "object", "properties": {"emoji": {"type": "string"},
                                                                   "by": {"$ref": "#/$defs/Provenance"}},
                                   "required": ["emoji"]}}),
}

VERSION_BUMP = {
    "field-removed": lambda d: _drop(d, "Message", "body"),
    "required-field-added": lambda d: _add_required(d, "Thread", "priority", {"type": "integer"}),
    "optional-made-required": lambda d: _set(d, "$defs/Provenance/required", ["kind", "id", "email"]),
    "type-changed": lambda d: _set(d, "$defs/Thread/properties/id", {"type": "integer"}),
    "enum-value-added": lambda d: _set(d, "$defs/Thread/properties/status/enum", ["open", "resolved", "archived"]),
}


@pytest.mark.parametrize("name", sorted(SAME_VERSION))
def test_optional_field_on_an_open_sidecar_object_is_same_version(tmp_path, name):
    roots = _diff(*_copies(tmp_path, SIDECAR, SAME_VERSION[name]))
    assert roots[SIDECAR_ROOT]["decision"] == "same-version", roots[SIDECAR_ROOT]
    assert {change["rule"] for change in roots[SIDECAR_ROOT]["changes"]} == {"optional-property-added"}
    # The document has structure of its own: it is the one root, its definitions are its parts.
    assert set(roots) == {SIDECAR_ROOT}


@pytest.mark.parametrize("name", sorted(VERSION_BUMP))
def test_breaking_sidecar_changes_are_version_bumps(tmp_path, name):
    roots = _diff(*_copies(tmp_path, SIDECAR, VERSION_BUMP[name]))
    assert roots[SIDECAR_ROOT]["decision"] == "version-bump", roots[SIDECAR_ROOT]
    assert "same-version" not in {entry["decision"] for entry in roots.values()}


def test_the_configured_artifact_root_agrees(tmp_path):
    """Read as configured (source `sidecar`, root `Artifact` at `#`), the decisions are the same."""
    for mutation, expected in ((SAME_VERSION["optional-field-on-thread"], "same-version"),
                               (VERSION_BUMP["field-removed"], "version-bump")):
        old, new = _copies(tmp_path / expected, SIDECAR, mutation)
        roots = {"Artifact": ("#", "record")}
        result, = classify([load_jsonschema("sidecar", old, roots, None)], [load_jsonschema("sidecar", new, roots, None)])
        assert (result.root, result.decision) == ("sidecar:Artifact", expected)


def test_renaming_a_definition_is_unchanged(tmp_path):
    old, new = _copies(tmp_path, SIDECAR, lambda d: _rename_definition(d, "Thread", "DiscussionThread"))
    roots = _diff(old, new)
    assert roots == {SIDECAR_ROOT: roots[SIDECAR_ROOT]}
    assert (roots[SIDECAR_ROOT]["decision"], roots[SIDECAR_ROOT]["changes"]) == ("unchanged", [])
    # With every definition a root, the renamed one is one root under its new name, unchanged.
    code, out, err = diff_cli(old, new, "json", "--roots", "all")
    assert code == 0, err
    every = {entry["root"]: entry for entry in json.loads(out)["roots"]}
    assert "coauthoring-sidecar:Thread" not in every
    renamed = every["coauthoring-sidecar:DiscussionThread"]
    assert (renamed["decision"], renamed["renamed_from"]) == ("unchanged", "coauthoring-sidecar:Thread")
    assert renamed["before"] == renamed["after"]
    assert {entry["decision"] for entry in every.values()} == {"unchanged"}


def _reaching(graph, type_key: str) -> set[str]:
    from govern.records.snapshot import reachable_types

    return {root.id for root in graph.roots.values() if type_key in reachable_types(graph, [root.type_key])}


def test_optional_field_on_the_exact_artifact_reference_is_a_version_bump(tmp_path):
    def mutation(document):
        reference = document["components"]["schemas"]["ExactArtifactReference"]
        assert reference["additionalProperties"] is False  # the exact (closed) shape
        reference["properties"]["note"] = {"type": "string"}
        return document

    old, new = _copies(tmp_path, COORDINATION, mutation)
    roots = _diff(old, new)
    reaching = _reaching(load_spec(str(old)), "ExactArtifactReference")
    assert reaching, "some root must reach the exact artifact reference"
    for root, entry in roots.items():
        assert entry["decision"] == ("version-bump" if root in reaching else "unchanged"), (root, entry)
    rules = {change["rule"] for root in reaching for change in roots[root]["changes"]}
    assert "optional-property-added-to-closed" in rules
    assert "optional-property-added" not in rules


def test_optional_field_on_an_open_coordination_component_is_same_version(tmp_path):
    def mutation(document):
        schemas = document["components"]["schemas"]
        name = next(key for key in sorted(schemas) if schemas[key].get("type") == "object"
                    and "additionalProperties" not in schemas[key] and schemas[key].get("properties")
                    and not any(k in schemas[key] for k in ("allOf", "oneOf", "anyOf", "patternProperties")))
        schemas[name]["properties"]["x_note"] = {"type": "string"}
        return document

    roots = _diff(*_copies(tmp_path, COORDINATION, mutation))
    assert {entry["decision"] for entry in roots.values()} <= {"same-version", "unchanged"}
    assert "same-version" in {entry["decision"] for entry in roots.values()}


def test_text_output_is_exact(tmp_path):
    case = RULES_DIR / "optional-property-added" / "positive" / "open-object"
    code, out, _ = diff_cli(case / "old.schema.json", case / "new.schema.json", "text")
    assert code == 0
    assert out == (
        "new:Doc: same-version [mode persistence]\n"
        "  same-version  /properties/note  optional-property-added (optional-property-added):"
        " property `note` added [breaks old-data-new-readers]\n"
        "1 roots: 1 changed, 0 unchanged\n"
    )


def test_text_output_of_a_version_bump_is_exact(tmp_path):
    case = RULES_DIR / "optional-property-added" / "negative" / "closed-object"
    code, out, _ = diff_cli(case / "old.schema.json", case / "new.schema.json", "text")
    assert code == 0
    assert out == (
        "new:Doc: version-bump [mode persistence]\n"
        "  version-bump  /properties/note  optional-property-added (optional-property-added-to-closed):"
        " property `note` added where the old content model did not admit the name [breaks new-data-old-readers]\n"
        "1 roots: 1 changed, 0 unchanged\n"
    )


def test_a_version_bump_exits_zero(tmp_path):
    old, new = _copies(tmp_path, SIDECAR, VERSION_BUMP["type-changed"])
    code, out, _ = diff_cli(old, new)
    assert code == 0
    assert json.loads(out)["roots"]


def test_a_missing_file_exits_two_and_names_it(tmp_path):
    missing = tmp_path / "absent.schema.json"
    code, out, err = diff_cli(missing, SIDECAR)
    assert code == 2
    assert "absent.schema.json" in err
    # Asked for json, the error is a JSON document too, so whatever consumes stdout can still parse it.
    assert json.loads(out)["error"]["problems"][0]["path"] == str(missing)
    assert diff_cli(missing, SIDECAR, "text")[1] == ""


def test_json_output_is_stable_across_runs(tmp_path):
    old, new = _copies(tmp_path, SIDECAR, VERSION_BUMP["enum-value-added"])
    first, second = diff_cli(old, new)[1], diff_cli(old, new)[1]
    assert first == second
    document = json.loads(first)
    assert [entry["root"] for entry in document["roots"]] == sorted(entry["root"] for entry in document["roots"])
    for entry in document["roots"]:
        assert set(entry) == {"root", "decision", "minimum", "mode", "before", "after", "changes"}
        for change in entry["changes"]:
            # `type` and `type_location` say which named type the path is inside, for changes below one
            assert set(change) - {"type", "type_location"} == {"path", "kind", "rule", "decision", "breaks", "args",
                                                               "text"}
            assert "type" in change or "type_location" not in change
            assert set(change["text"]) == {"en", "zh"}


def test_files_with_different_names_pair_their_document_roots(tmp_path):
    # `govern diff v1.json v2.json`: the document is one root under the new file's name, not a removed
    # root and a new one.
    old, new = tmp_path / "v1.schema.json", tmp_path / "v2.schema.json"
    old.write_text(json.dumps({"title": "Old", "type": "object", "properties": {"a": {"type": "string"}}}))
    new.write_text(json.dumps({"title": "New", "type": "object",
                               "properties": {"a": {"type": "string"}, "b": {"type": "integer"}}}))
    roots = _diff(old, new)
    assert list(roots) == ["v2:New"]
    assert roots["v2:New"]["decision"] == "same-version"
    assert [change["kind"] for change in roots["v2:New"]["changes"]] == ["optional-property-added"]


def test_a_changed_structured_constraint_says_what_changed_inside(tmp_path):
    old, new = tmp_path / "old.json", tmp_path / "new.json"
    old.write_text(json.dumps({"type": "object", "x-rules": {"a": 1, "b": [1, 2]}}))
    new.write_text(json.dumps({"type": "object", "x-rules": {"a": 2, "b": [1, 2, 3]}}))
    (change,) = _diff(old, new)["new:new"]["changes"]
    assert change["rule"] == "constraint-changed"
    assert change["args"]["detail"] == ("Item root['b'][2] (3) added to iterable.; "
                                        "Value of root['a'] changed from 1 to 2.")
