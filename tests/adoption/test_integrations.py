"""The CI integrations shipped at the repository root, run for real where this machine can run them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from govern.records.format import load_yaml
from tests.adoption.conftest import App, english_prose, git_environment

REPO_ROOT = Path(__file__).resolve().parents[2]


def action() -> dict:
    return load_yaml((REPO_ROOT / "action.yml").read_text(encoding="utf-8"))


def run_verify_step(app: App, tmp_path: Path, base: str) -> tuple[subprocess.CompletedProcess, Path, Path]:
    """The action's verify step, as the runner would run it: its script in bash with the runner's files."""
    step = next(step for step in action()["runs"]["steps"] if step.get("id") == "verify")
    summary, outputs = tmp_path / "summary.md", tmp_path / "outputs.txt"
    environment = {**git_environment(), "GOVERN_BASE": base, "GOVERN_LANG": "en",
                   "GITHUB_STEP_SUMMARY": str(summary), "GITHUB_OUTPUT": str(outputs), "RUNNER_TEMP": str(tmp_path),
                   "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    result = subprocess.run(["bash", "-e", "-c", step["run"]], cwd=app.root, env=environment, capture_output=True,
                            text=True)
    return result, summary, outputs


def test_the_action_declares_its_inputs_and_runs_verify_in_three_formats() -> None:
    declared = action()
    assert declared["runs"]["using"] == "composite"
    assert set(declared["inputs"]) == {"python-version", "working-directory", "base", "language", "upload-sarif",
                                       "compile"}
    steps = declared["runs"]["steps"]
    assert steps[0]["uses"].startswith("actions/setup-python@")
    assert steps[0]["with"]["python-version"] == "${{ inputs.python-version }}"
    assert '"$GITHUB_ACTION_PATH"' in steps[1]["run"]  # installs govern from the action itself
    # ... keeping its Python source unless asked to compile (a minute more per run, see the README)
    assert declared["inputs"]["compile"]["default"] == "false"
    # (GitHub's `a && b || c` gives c whenever b is falsy, as '' is: '0' is a true string that means not set)
    assert steps[1]["env"]["GOVERN_NO_COMPILE"] == "${{ inputs.compile == 'true' && '0' || '1' }}"
    assert steps[2]["working-directory"] == "${{ inputs.working-directory }}"
    assert steps[3]["uses"].startswith("github/codeql-action/upload-sarif@") and "always()" in steps[3]["if"]


def test_the_action_script_gates_annotates_and_summarizes(repo_with_baseline: App, tmp_path: Path) -> None:
    app = repo_with_baseline
    app.git("checkout", "-q", "-b", "feature")
    events = app.path("shop/events.py")
    events.write_text(events.read_text().replace("    order_id: str\n", "    order_id: str\n    note: str | None = None\n", 1))
    result, summary, outputs = run_verify_step(app, tmp_path, "main")
    assert result.returncode == 1  # findings fail the job
    assert "::error file=shop/events.py,line=8,title=unacknowledged-change::" in result.stdout
    assert "#### Acknowledge the change to `events:OrderPlaced`" in summary.read_text()
    sarif = json.loads((tmp_path / "govern.sarif").read_text())
    assert sarif["version"] == "2.1.0"
    assert "unacknowledged-change" in {result["ruleId"] for result in sarif["runs"][0]["results"]}
    assert outputs.read_text() == f"sarif={tmp_path / 'govern.sarif'}\n"

    app.write("prose.yaml", english_prose(title="Note on placed orders"))
    assert app.run("record", "new", "order-note", "--prose", str(app.path("prose.yaml")),
                   "--date", "2026-12-01").exit_code == 0
    app.path("prose.yaml").unlink()
    summary.unlink()
    result, summary, _ = run_verify_step(app, tmp_path, "main")
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout == ""  # no annotations when clean
    text = summary.read_text()
    assert text.startswith("### govern verify: clean\n")
    assert "- `2026-12-01-order-note`: Note on placed orders" in text


def test_the_hooks_file_declares_the_two_hooks() -> None:
    hooks = {hook["id"]: hook for hook in load_yaml((REPO_ROOT / ".pre-commit-hooks.yaml").read_text())}
    assert {hook_id: hook["entry"] for hook_id, hook in hooks.items()} == {
        "govern-verify": "govern verify", "govern-extract": "govern extract"}
    assert all(hook["language"] == "python" and hook["pass_filenames"] is False for hook in hooks.values())
