"""Helpers for the history views' tests: temporary copies of this repository with several sidecar formats.

The project helpers of the record tests are reused (loaded under their own module name, so the two
conftest files do not shadow each other); these add records the way a maintainer would.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

from click.testing import CliRunner

_spec = importlib.util.spec_from_file_location("records_conftest", Path(__file__).parents[1] / "records" / "conftest.py")
records_conftest = sys.modules.setdefault("records_conftest", importlib.util.module_from_spec(_spec))
if not hasattr(records_conftest, "Project"):
    _spec.loader.exec_module(records_conftest)

Project = records_conftest.Project
REPO_ROOT = records_conftest.REPO_ROOT
SIDECAR = records_conftest.SIDECAR
BASELINE = records_conftest.BASELINE
EXAMPLES = REPO_ROOT / "schemas" / "examples"


def set_sidecar_format(project: Project, version: int) -> None:
    project.edit_json(SIDECAR, lambda d: d["properties"]["schemaVersion"].__setitem__("x-persistence-version", version))


def require_top_level(project: Project, name: str) -> None:
    """A breaking change: a new required property of the sidecar document."""
    def change(document: dict) -> None:
        document["properties"][name] = {"type": "string", "description": f"The {name} of the sidecar."}
        document["required"].append(name)
    project.edit_json(SIDECAR, change)


def bump(project: Project, version: int, required: str, slug: str, date: str):
    set_sidecar_format(project, version)
    require_top_level(project, required)
    result = project.new_record(slug, date, "--decision", "version-bump")
    assert result.exit_code == 0, result.output
    return result


def add_thread_label(project: Project, slug: str = "thread-label", date: str = "2026-12-01"):
    project.add_sidecar_thread_property("label", {"type": "string", "description": "A short label."})
    result = project.new_record(slug, date)
    assert result.exit_code == 0, result.output
    return result


def fresh_project(folder: Path) -> Project:
    return Project(records_conftest.copy_project(REPO_ROOT, folder), CliRunner())
