"""Importing a project's pydantic models is isolated: an exit, any exception and anything printed stay out of
govern's output, and a failed import is exit 2 in every output format."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

MODULES = {
    "exits_clean": "import sys\nsys.exit(0)\n",
    "exits_dirty": "raise SystemExit('bye')\n",
    "generator_exit": "raise GeneratorExit('odd')\n",
    "base_exception": "class Odd(BaseException):\n    pass\nraise Odd('very odd')\n",
    "fails": "raise RuntimeError('broken import')\n",
}
NOISY = (
    "import os, sys\n"
    "print('{\"not\": \"govern output\"}')\n"
    "sys.stderr.write('noise on stderr\\n')\n"
    "os.write(1, b'raw bytes on fd 1\\n')\n"
    "from pydantic import BaseModel\n"
    "class Thing(BaseModel):\n"
    "    a: int\n"
)


def _project(root: Path, module: str, text: str) -> Path:
    root.mkdir(parents=True)
    (root / f"{module}.py").write_text(text, encoding="utf-8")
    (root / "pyproject.toml").write_text(
        '[project]\nname = "p"\nversion = "0"\n\n[tool.govern]\n\n[[tool.govern.sources]]\n'
        f'name = "models"\nkind = "pydantic"\npath = "{module}"\n', encoding="utf-8")
    return root


def _govern(root: Path, *arguments: str) -> subprocess.CompletedProcess:
    environment = {**os.environ, "PYTHONHASHSEED": "0"}
    return subprocess.run([sys.executable, "-m", "govern", *arguments, "--project", str(root)], cwd=root,
                          capture_output=True, text=True, env=environment, timeout=120)


@pytest.mark.parametrize("module", sorted(MODULES))
def test_a_module_that_exits_or_raises_on_import_is_exit_2(tmp_path, module):
    root = _project(tmp_path / "p", module, MODULES[module])
    for command in (("digests",), ("verify",), ("verify", "--format", "json")):
        result = _govern(root, *command)
        assert result.returncode == 2, (command, result.stdout, result.stderr)
        assert f"{module}: cannot be imported" in result.stderr
        assert "Traceback" not in result.stderr


def test_what_a_module_prints_never_reaches_govern_output(tmp_path):
    root = _project(tmp_path / "p", "noisy", NOISY)
    result = _govern(root, "digests", "--json")
    assert result.returncode == 0, result.stderr
    assert "models:Thing" in json.loads(result.stdout)["roots"]
    assert "noise" not in result.stderr and "raw bytes" not in result.stdout
