"""Generated readers: every format reference becomes an importable pydantic module that loads the
canonical examples of its own format (and, across a version-bump, not those of another)."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

from history_project import EXAMPLES, Project

pytest.importorskip("datamodel_code_generator")


def generate(project: Project, folder: Path) -> dict:
    result = project.run("formats", "--models", str(folder))
    assert result.exit_code == 0, result.output
    package = f"readers_{abs(hash(folder))}"
    spec = importlib.util.spec_from_file_location(package, folder / "__init__.py",
                                                  submodule_search_locations=[str(folder)])
    module = importlib.util.module_from_spec(spec)
    sys.modules[package] = module
    spec.loader.exec_module(module)
    return {name: importlib.import_module(f"{package}.{name}") for name in module.READERS}


# The coordination formats this repository's own records reach, oldest first.
REPOSITORY_GRP_FORMATS = ["0.2.0", "0.2.1"]
GRP_READERS = ["grp_" + version.replace(".", "_") for version in REPOSITORY_GRP_FORMATS]


def examples(folder: Path) -> list[dict]:
    return [json.loads(path.read_text(encoding="utf-8")) for path in sorted(folder.glob("*.json"))]


def test_each_format_of_this_repository_reads_its_canonical_examples(project: Project, tmp_path: Path) -> None:
    readers = generate(project, tmp_path / "readers")
    assert sorted(readers) == [*GRP_READERS, "sidecar_1"]
    sidecar = examples(EXAMPLES / "sidecar" / "valid")
    assert sidecar
    for example in sidecar:
        loaded = readers["sidecar_1"].SidecarFormat1.model_validate(example)
        assert loaded.model_dump(mode="json", exclude_unset=True) == example
    # The current examples are the latest format's; the additions since 0.2.0 are open fields, so the
    # older reader reads them too.
    for version, reader in zip(REPOSITORY_GRP_FORMATS, GRP_READERS):
        roots = project.load_json(f"schemas/formats/grp-{version}.schema.json")["x-govern-roots"]
        checked = 0
        for root, entry in roots.items():
            model = getattr(readers[reader], entry["type"])
            for example in examples(EXAMPLES / "coordination" / root.partition(":")[2] / "valid"):
                model.model_validate(example)
                checked += 1
        assert checked >= len(roots)


def test_across_version_bumps_each_reader_reads_its_own_format(three_formats: Project, tmp_path: Path) -> None:
    readers = generate(three_formats, tmp_path / "readers")
    assert sorted(readers) == [*GRP_READERS, "sidecar_1", "sidecar_2", "sidecar_3"]
    first = examples(EXAMPLES / "sidecar" / "valid")
    second = [{**example, "schemaVersion": 2, "origin": "import"} for example in first]
    third = [{**example, "schemaVersion": 3, "owner": "team"} for example in second]
    for name, model, own, other in (("sidecar_1", "SidecarFormat1", first, None),
                                    ("sidecar_2", "SidecarFormat2", second, first),
                                    ("sidecar_3", "SidecarFormat3", third, second)):
        reader = getattr(readers[name], model)
        for example in own:
            reader.model_validate(example)
        for example in other or ():
            with pytest.raises(ValueError):  # pydantic's ValidationError: the older format lacks a required name
                reader.model_validate(example)
    # Format 1 ends with the same-version label: its reader knows the field.
    assert "label" in readers["sidecar_1"].Thread.model_fields


def test_a_missing_generator_is_a_clear_input_error(project: Project, tmp_path: Path, monkeypatch) -> None:
    from govern.catalog import readers

    monkeypatch.setattr(readers, "generator_installed", lambda: False)
    result = project.run("formats", "--models", str(tmp_path / "out"))
    assert result.exit_code == 2
    assert "datamodel-code-generator: is not installed" in result.stderr and "codegen" in result.stderr
    assert not (tmp_path / "out").exists()
