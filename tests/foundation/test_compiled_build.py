"""setup.py builds each listed module it can and records exactly what it built: run on a small package of its own
(govern/compiled.py with two small modules listed), with a real Cython and C compiler."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from govern.compiled import COMPILED, SOURCE_CHANGED, SourceUnlessCurrent, manifest_name, source_digest

REPO_ROOT = Path(__file__).resolve().parents[2]
MODULES = ("govern.alpha", "govern.inner.beta")
EXTENSION_SUFFIX = sysconfig.get_config_var("EXT_SUFFIX")


def _compiler() -> str | None:
    command = (os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc").split()[0]
    return shutil.which(command)


pytestmark = pytest.mark.skipif(_compiler() is None and not os.environ.get("GOVERN_EXPECT_COMPILED"),
                                reason="no C compiler on this machine")


@pytest.fixture(autouse=True)
def _finder_decides(monkeypatch):
    # (the suite also runs with every module asked to run its source: these finders are asked about their own)
    monkeypatch.delenv("GOVERN_PURE_PYTHON", raising=False)


@pytest.fixture()
def project(tmp_path: Path) -> Path:
    """setup.py and govern/compiled.py as they are, listing two small modules of an otherwise empty package."""
    root = tmp_path / "project"
    (root / "govern" / "inner").mkdir(parents=True)
    shutil.copy(REPO_ROOT / "setup.py", root / "setup.py")
    listing = (REPO_ROOT / "govern" / "compiled.py").read_text(encoding="utf-8")
    start = listing.index("COMPILED_MODULES = (")
    end = listing.index(")\n", start) + 2
    (root / "govern" / "compiled.py").write_text(
        listing[:start] + f"COMPILED_MODULES = {MODULES!r}\n" + listing[end:], encoding="utf-8")
    (root / "govern" / "__init__.py").write_text("", encoding="utf-8")
    (root / "govern" / "inner" / "__init__.py").write_text("", encoding="utf-8")
    (root / "govern" / "alpha.py").write_text("def form():\n    return 'alpha'\n", encoding="utf-8")
    (root / "govern" / "inner" / "beta.py").write_text("def form():\n    return 'beta'\n", encoding="utf-8")
    return root


def build(root: Path, **environment: str) -> tuple[subprocess.CompletedProcess, dict]:
    env = {name: value for name, value in os.environ.items() if name != "GOVERN_NO_COMPILE"}
    env.update(environment)
    result = subprocess.run([sys.executable, "setup.py", "-q", "build_ext", "--inplace"], cwd=root, env=env,
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    manifest = json.loads((root / "govern" / manifest_name()).read_text(encoding="utf-8"))
    return result, manifest["modules"]


def extension_of(root: Path, module: str) -> Path:
    return root.joinpath(*module.split(".")[:-1]) / (module.split(".")[-1] + EXTENSION_SUFFIX)


def test_every_module_built_is_recorded_with_its_source_its_file_and_its_size(project):
    result, recorded = build(project)
    assert set(recorded) == set(MODULES)
    for module in MODULES:
        extension = extension_of(project, module)
        source = project.joinpath(*module.split(".")).with_suffix(".py")
        assert recorded[module] == {"source": source_digest(str(source)), "extension": extension.name,
                                    "size": extension.stat().st_size}
    assert "compiled 2 of 2 modules" in result.stderr
    # And the finder takes them: the extensions, built from the sources as they are.
    finder = SourceUnlessCurrent(str(project / "govern"), modules=MODULES)
    for module in MODULES:
        parent = project.joinpath(*module.split(".")[:-1])
        assert finder.find_spec(module, [str(parent)]) is None and finder.chosen[module] == COMPILED


def test_a_module_that_does_not_compile_leaves_its_source_and_the_others_compiled(project, tmp_path):
    failing = tmp_path / "cc"
    failing.write_text('#!/bin/sh\nfor a in "$@"; do case "$a" in *beta.c) exit 1;; esac; done\n'
                       f'exec {_compiler()} "$@"\n', encoding="utf-8")
    failing.chmod(0o755)
    result, recorded = build(project, CC=str(failing))
    assert set(recorded) == {"govern.alpha"}
    assert not extension_of(project, "govern.inner.beta").exists()
    assert "govern.inner.beta not compiled" in result.stderr and "compiled 1 of 2 modules" in result.stderr


def test_asked_not_to_compile_the_build_records_nothing_and_earlier_extensions_no_longer_run(project):
    build(project)
    result, recorded = build(project, GOVERN_NO_COMPILE="1")
    assert recorded == {}
    assert "GOVERN_NO_COMPILE is set" in result.stderr
    finder = SourceUnlessCurrent(str(project / "govern"), modules=MODULES)
    spec = finder.find_spec("govern.alpha", [str(project / "govern")])
    assert spec is not None and spec.origin == str(project / "govern" / "alpha.py")


def test_a_source_edited_after_its_build_runs_instead_of_its_extension(project):
    build(project)
    (project / "govern" / "alpha.py").write_text("def form():\n    return 'edited'\n", encoding="utf-8")
    finder = SourceUnlessCurrent(str(project / "govern"), modules=MODULES)
    spec = finder.find_spec("govern.alpha", [str(project / "govern")])
    assert spec is not None and spec.origin.endswith("alpha.py") and finder.chosen["govern.alpha"] == SOURCE_CHANGED
