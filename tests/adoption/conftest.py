"""A fresh application repository per test, as another team would have it before adopting govern.

The application persists pydantic event models as JSONL and keeps one JSON Schema configuration file.
Nothing of this repository is copied: record templates come with the installed package.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from govern.cli import cli

CONFIG_SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "AppConfig",
    "type": "object",
    "properties": {"retention": {"type": "integer", "minimum": 1}, "region": {"type": "string"}},
    "required": ["retention"],
}

EVENTS_MODULE = '''\
"""Events the application appends to its JSONL log."""

from typing import Literal

from pydantic import BaseModel


class OrderPlaced(BaseModel):
    kind: Literal["order-placed"] = "order-placed"
    order_id: str
    amount: int


class OrderShipped(BaseModel):
    kind: Literal["order-shipped"] = "order-shipped"
    order_id: str
'''

ENGLISH_PROSE = {
    "title": "Baseline",
    "summary": "The persisted types as they are today.",
    "compatibility": "Nothing was persisted under govern before; every root is new.",
    "verification": "govern verify is clean.",
}


def english_prose(**changes: str) -> str:
    section = {**ENGLISH_PROSE, **changes}
    return "en:\n" + "".join(f"  {key}: {json.dumps(value)}\n" for key, value in section.items())


@dataclass
class App:
    root: Path
    runner: CliRunner

    def run(self, *args: str) -> Result:
        # Every command is a new process for a user: it imports the application as it is on disk now.
        forget_application_modules()
        return self.runner.invoke(cli, [*args, "--project", str(self.root)], catch_exceptions=False)

    def path(self, relative: str) -> Path:
        return self.root / relative

    def write(self, relative: str, text: str) -> Path:
        path = self.root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return path

    def git(self, *args: str, check: bool = True) -> subprocess.CompletedProcess:
        return git(self.root, *args, check=check)


def git_environment() -> dict[str, str]:
    """A git that reads no user or system configuration, so the test sees the same git everywhere."""
    environment = {key: value for key, value in os.environ.items() if not key.startswith("GIT_")}
    environment.update({"GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull, "GIT_AUTHOR_NAME": "Test",
                        "GIT_AUTHOR_EMAIL": "test@example.org", "GIT_COMMITTER_NAME": "Test",
                        "GIT_COMMITTER_EMAIL": "test@example.org", "GIT_AUTHOR_DATE": "2026-12-01T00:00:00Z",
                        "GIT_COMMITTER_DATE": "2026-12-01T00:00:00Z"})
    return environment


def git(root: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess:
    return subprocess.run(["git", "-c", "init.defaultBranch=main", *args], cwd=root, env=git_environment(),
                          capture_output=True, text=True, check=check)


def make_app(root: Path, *, pyproject: bool = True) -> App:
    root.mkdir(parents=True)
    app = App(root, CliRunner())
    if pyproject:
        app.write("pyproject.toml", textwrap.dedent('''\
            [project]
            name = "shop"
            version = "1.0.0"
            '''))
    app.write("schemas/config.schema.json", json.dumps(CONFIG_SCHEMA, indent=2) + "\n")
    app.write("shop/__init__.py", "")
    app.write("shop/events.py", EVENTS_MODULE)
    return app


@pytest.fixture
def app(tmp_path: Path) -> App:
    return make_app(tmp_path / "shop")


def forget_application_modules() -> None:
    for name in [name for name in sys.modules if name == "shop" or name.startswith("shop.")]:
        del sys.modules[name]


@pytest.fixture(autouse=True)
def _forget_application_modules():
    """Each test imports its own copy of the application's `shop` package, never a previous test's."""
    yield
    forget_application_modules()




def set_up_govern(app: App, *sources: str) -> None:
    """`govern init` as a user runs it: in the project folder, English only."""
    previous = os.getcwd()
    os.chdir(app.root)
    try:
        result = app.run("init", *sources, "--languages", "en")
    finally:
        os.chdir(previous)
    assert result.exit_code == 0, result.output


@pytest.fixture
def repo_with_baseline(app: App) -> App:
    """The application with govern set up, its baseline recorded and committed on main."""
    set_up_govern(app, "schemas/config.schema.json", "shop.events")
    app.write("prose.yaml", english_prose())
    assert app.run("record", "new", "baseline", "--prose", str(app.path("prose.yaml")),
                   "--date", "2026-12-01").exit_code == 0
    app.path("prose.yaml").unlink()
    app.git("init", "-q")
    app.git("add", "-A")
    app.git("commit", "-q", "-m", "baseline")
    return app
