"""Fixtures of the history views' tests (helpers in history_project.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from history_project import Project, add_thread_label, bump, fresh_project


@pytest.fixture
def project(tmp_path: Path) -> Project:
    return fresh_project(tmp_path / "project")


@pytest.fixture
def three_formats(project: Project) -> Project:
    """baseline (format 1) -> same-version label (1) -> bump to 2 (origin) -> bump to 3 (owner), no tags."""
    add_thread_label(project, "thread-label", "2026-12-01")
    bump(project, 2, "origin", "sidecar-format-2", "2026-12-01")
    bump(project, 3, "owner", "sidecar-format-3", "2026-12-01")
    return project
