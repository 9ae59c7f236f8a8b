"""A fresh copy of this repository per test, and helpers that drive the `govern` command line on it.

Each test works as a new user would: it copies the project files (pyproject.toml, schemas/, records/)
into a temporary directory (record templates come with the installed package) and runs the CLI there with `--project`. The repository's own
records and schemas are never touched.
"""

from __future__ import annotations

import copy
import hashlib
import json
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import pytest
from click.testing import CliRunner, Result

from govern.cli import cli

REPO_ROOT = Path(__file__).resolve().parents[2]
BASELINE = "2026-11-30-baseline"
SIDECAR = "schemas/coauthoring-sidecar.schema.json"
OPENAPI = "schemas/grp-coordination.openapi.json"

PROSE = {
    "en": {
        "title": "Add a label to threads",
        "summary": "A thread may carry a short free-text label.",
        "compatibility": "Old sidecars omit the label, which is optional. Readers of version 1 ignore "
                         "unknown thread fields because the thread object is open.",
        "verification": "govern verify is clean after the record was written.",
    },
    "zh": {
        "title": "为讨论串添加标签",
        "summary": "讨论串可以带一个简短的自由文本标签。",
        "compatibility": "旧的旁注文件不含标签，因为它是可选的。版本 1 的读取方忽略未知的讨论串字段，因为该对象是开放的。",
        "verification": "写入记录后 govern verify 通过。",
    },
}


def prose_yaml(prose: dict[str, dict[str, str]]) -> str:
    lines = []
    for language in ("en", "zh"):
        lines.append(f"{language}:")
        for key, value in prose[language].items():
            lines.append(f"  {key}: {json.dumps(value, ensure_ascii=False)}")
    return "\n".join(lines) + "\n"


def tree_digest(*folders: Path) -> dict[str, str]:
    """Every file under the folders with its content hash: equal before and after means nothing was written."""
    found = {}
    for folder in folders:
        for path in sorted(folder.rglob("*")):
            if path.is_file():
                found[path.as_posix()] = hashlib.sha256(path.read_bytes()).hexdigest()
    return found


@dataclass
class Project:
    root: Path
    runner: CliRunner

    def run(self, *args: str) -> Result:
        return self.runner.invoke(cli, [*args, "--project", str(self.root)], catch_exceptions=False)

    def verify(self, *args: str) -> Result:
        return self.run("verify", *args)

    def finding_ids(self) -> list[str]:
        result = self.verify("--format", "json")
        return [finding["id"] for finding in json.loads(result.stdout)["findings"]]

    def findings(self) -> list[dict]:
        return json.loads(self.verify("--format", "json").stdout)["findings"]

    def path(self, relative: str) -> Path:
        return self.root / relative

    def record(self, record_id: str, part: str = "en") -> Path:
        suffix = {"en": ".md", "zh": ".zh.md", "i18n": ".i18n.yaml", "schema": ".schema.json"}[part]
        return self.root / "records" / f"{record_id}{suffix}"

    def load_json(self, relative: str) -> Any:
        return json.loads(self.path(relative).read_text(encoding="utf-8"))

    def dump_json(self, relative: str, data: Any) -> None:
        self.path(relative).write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")

    def edit_json(self, relative: str, change: Callable[[Any], None]) -> None:
        data = self.load_json(relative)
        change(data)
        self.dump_json(relative, data)

    def replace(self, relative: str, old: str, new: str, count: int = 1) -> None:
        path = self.path(relative)
        text = path.read_text(encoding="utf-8")
        assert old in text, f"{old!r} not in {relative}"
        path.write_text(text.replace(old, new, count), encoding="utf-8")

    def write_prose(self, prose: dict[str, dict[str, str]] | None = None, name: str = "p.yaml") -> Path:
        path = self.root / name
        path.write_text(prose_yaml(prose or PROSE), encoding="utf-8")
        return path

    def add_sidecar_thread_property(self, name: str, schema: dict | None = None) -> None:
        self.edit_json(SIDECAR, lambda d: d["$defs"]["Thread"]["properties"].__setitem__(
            name, schema or {"type": "string"}))

    def new_record(self, slug: str, date: str = "2026-12-01", *extra: str, prose: str = "p.yaml") -> Result:
        if not self.path(prose).exists():
            self.write_prose(name=prose)
        return self.run("record", "new", slug, "--prose", str(self.path(prose)), "--date", date, *extra)

    def state(self) -> dict[str, str]:
        return tree_digest(self.path("records"), self.path("schemas"))


def copy_project(source: Path, target: Path) -> Path:
    target.mkdir(parents=True, exist_ok=True)
    shutil.copy2(source / "pyproject.toml", target / "pyproject.toml")
    for folder in ("schemas", "records"):
        shutil.copytree(source / folder, target / folder)
    return target


@pytest.fixture
def project(tmp_path: Path) -> Project:
    return Project(copy_project(REPO_ROOT, tmp_path / "project"), CliRunner())


@pytest.fixture
def prose() -> dict[str, dict[str, str]]:
    """A complete bilingual prose input, as a fresh copy a test may change."""
    return copy.deepcopy(PROSE)


@pytest.fixture
def baseline() -> str:
    return BASELINE


def write_small_project(root: Path, documents: dict[str, Any], sources: list[dict[str, Any]]) -> Path:
    """A project of its own: the given schema documents and `[[tool.govern.sources]]` tables, no records
    yet (record templates come with the installed package)."""
    root.mkdir(parents=True, exist_ok=True)
    for relative, document in documents.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(document if isinstance(document, str) else json.dumps(document, indent=2) + "\n",
                        encoding="utf-8")
    lines = ['[project]', 'name = "small"', 'version = "0"', "", "[tool.govern]", ""]
    for source in sources:
        lines.append("[[tool.govern.sources]]")
        for key, value in source.items():
            if key == "roots":
                entries = ", ".join(f'{name} = {{ {", ".join(f"{k} = {json.dumps(v)}" for k, v in spec.items())} }}'
                                    for name, spec in value.items())
                lines.append(f"roots = {{ {entries} }}")
            else:
                lines.append(f"{key} = {json.dumps(value)}")
        lines.append("")
    (root / "pyproject.toml").write_text("\n".join(lines), encoding="utf-8")
    return root


@pytest.fixture
def small(tmp_path: Path) -> Callable[..., Project]:
    """Build a small project from documents and source tables: small({"s.json": {...}}, [{...}])."""
    def build(documents: dict[str, Any], sources: list[dict[str, Any]], name: str = "small") -> Project:
        return Project(write_small_project(tmp_path / name, documents, sources), CliRunner())

    return build
