"""Real-world schema sets read as they are published: flat folders under web `$id`s, dialects of their
own, and many files at once."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import invoke, jsonschema_source, write_project  # noqa: E402 - the folder's helpers
from govern.errors import InputError
from govern.sources.jsonschema import load_jsonschema

D2020 = "https://json-schema.org/draft/2020-12/schema"

# The layout kubernetes-validate ships: every file flat in one folder, `$id`s under /api/<kind>/<group>/<v>,
# references to /api/_definitions.json, which sits next to them rather than two folders up.
DEPLOYMENT = {"$schema": D2020, "$id": "https://kubernetes.io/api/deployment/apps/v1", "title": "Deployment",
              "type": "object", "properties": {"spec": {"$ref": "/api/_definitions.json#/$defs/DeploymentSpec"}}}
DEFINITIONS = {"$schema": D2020, "$id": "https://kubernetes.io/api/_definitions.json",
               "$defs": {"DeploymentSpec": {"type": "object", "properties": {"replicas": {"type": "integer"}}}}}


def _write(folder: Path, files: dict[str, dict]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for name, content in files.items():
        (folder / name).write_text(json.dumps(content), encoding="utf-8")


def _replicas(graph) -> str:
    spec = graph.types["DeploymentSpec"].node
    return spec.property("replicas").node.type


def test_a_flat_folder_resolves_references_by_the_ids_of_its_files(tmp_path):
    _write(tmp_path / "k8s", {"deployment-apps-v1.json": DEPLOYMENT, "definitions-all.json": DEFINITIONS})
    graph = load_jsonschema("k8s", tmp_path / "k8s" / "deployment-apps-v1.json", {"Deployment": ("#", "record")},
                            tmp_path)
    assert _replicas(graph) == "integer"


def test_a_file_of_the_same_name_next_to_the_referrer_is_the_last_resort(tmp_path):
    anonymous = {key: value for key, value in DEFINITIONS.items() if key != "$id"}
    _write(tmp_path / "k8s", {"deployment-apps-v1.json": DEPLOYMENT, "_definitions.json": anonymous})
    graph = load_jsonschema("k8s", tmp_path / "k8s" / "deployment-apps-v1.json", {"Deployment": ("#", "record")},
                            tmp_path)
    assert _replicas(graph) == "integer"


def test_an_unresolvable_reference_names_every_place_looked(tmp_path):
    _write(tmp_path / "k8s", {"deployment-apps-v1.json": DEPLOYMENT})
    with pytest.raises(InputError) as caught:
        load_jsonschema("k8s", tmp_path / "k8s" / "deployment-apps-v1.json", {"Deployment": ("#", "record")},
                        tmp_path)
    message = caught.value.problems[0].render()
    assert "https://kubernetes.io/api/_definitions.json is not loaded" in message
    assert "_definitions.json (the path the address implies)" in message
    assert "the $id of every JSON file in k8s/" in message
    assert "k8s/_definitions.json (the same name next to k8s/deployment-apps-v1.json)" in message


CLOUDFORMATION = {"$schema": "https://schema.cloudformation.us-east-1.amazonaws.com/provider.definition.schema.v1.json",
                  "typeName": "AWS::Demo::Thing", "type": "object",
                  "properties": {"Name": {"$ref": "#/definitions/Name", "maxLength": 3}},
                  "definitions": {"Name": {"type": "string"}}}


def test_an_unknown_dialect_is_refused_with_the_ways_to_read_it(tmp_path):
    project = write_project(tmp_path / "p", jsonschema_source("cfn", "thing.json", '{ Thing = "record" }'),
                            {"thing.json": CLOUDFORMATION})
    result = invoke("digests", "--project", str(project))
    assert result.exit_code == 2
    assert "unknown JSON Schema dialect" in result.stderr
    assert 'dialect = "draft-07"' in result.stderr and "--dialect draft-07" in result.stderr


def test_a_source_read_in_a_configured_dialect(tmp_path):
    source = jsonschema_source("cfn", "thing.json", '{ Thing = { at = "#" } }').replace(
        'path = "thing.json"\n', 'path = "thing.json"\ndialect = "draft-07"\n')
    project = write_project(tmp_path / "p", source, {"thing.json": CLOUDFORMATION})
    configured = invoke("digests", "--json", "--project", str(project))
    assert configured.exit_code == 0, configured.stderr
    adhoc = invoke("digests", "--json", "--dialect", "draft-07", str(project / "thing.json"))
    assert adhoc.exit_code == 0, adhoc.stderr
    # Read as draft-07, the maxLength beside $ref is ignored: the same digest as without it.
    plain = dict(CLOUDFORMATION, properties={"Name": {"$ref": "#/definitions/Name"}})
    (project / "plain.json").write_text(json.dumps(plain), encoding="utf-8")
    both = json.loads(invoke("digests", "--json", "--dialect", "draft-07", str(project / "thing.json"),
                             str(project / "plain.json")).stdout)["roots"]
    assert both["thing:thing"]["digest"] == both["plain:plain"]["digest"]
    assert json.loads(configured.stdout)["roots"]["cfn:Thing"]["digest"] == both["thing:thing"]["digest"]


def test_a_bad_configured_dialect_names_the_choices(tmp_path):
    source = jsonschema_source("cfn", "thing.json").replace('path = "thing.json"\n',
                                                            'path = "thing.json"\ndialect = "draft-99"\n')
    project = write_project(tmp_path / "p", source, {"thing.json": CLOUDFORMATION})
    result = invoke("digests", "--project", str(project))
    assert result.exit_code == 2
    assert "sources[0].dialect: must be one of 2020-12, 2019-09, draft-07, draft-06, draft-04" in result.stderr


def test_digests_of_many_files_prints_every_readable_one_and_an_error_for_each_other(tmp_path):
    good = {"$schema": D2020, "title": "Good", "type": "object", "properties": {"a": {"type": "string"}}}
    _write(tmp_path, {"a.json": good, "c.json": dict(good, title="Other")})
    (tmp_path / "b.json").write_text("{not json", encoding="utf-8")
    (tmp_path / "d.json").write_text(json.dumps(CLOUDFORMATION), encoding="utf-8")
    result = invoke("digests", *(str(tmp_path / name) for name in ("a.json", "b.json", "c.json", "d.json")))
    assert result.exit_code == 2
    assert [line.split()[0] for line in result.stdout.splitlines()] == ["a:Good", "c:Other"]
    errors = [line for line in result.stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 2
    assert "b.json" in errors[0] and "d.json" in errors[1]


def test_declared_annotation_keywords_carry_no_structure(tmp_path):
    plain = {"$schema": D2020, "type": "object", "properties": {"spec": {"type": "object"}}}
    marked = {"$schema": D2020, "type": "object", "handlers": {"create": ["x"]},
              "properties": {"spec": {"type": "object", "x-kubernetes-preserve-unknown-fields": True}}}
    files = {"plain.json": plain, "marked.json": marked}
    sources = "".join(jsonschema_source(name, f"{name}.json", '{ Doc = { at = "#" } }') for name in ("plain", "marked"))
    declared = sources.replace('path = "marked.json"\n',
                               'path = "marked.json"\nannotations = ["x-kubernetes-*", "handlers"]\n')
    for text, equal in ((sources, False), (declared, True)):
        project = write_project(tmp_path / str(equal), text, files)
        result = invoke("digests", "--json", "--project", str(project))
        assert result.exit_code == 0, result.stderr
        roots = json.loads(result.stdout)["roots"]
        assert (roots["plain:Doc"]["digest"] == roots["marked:Doc"]["digest"]) is equal
