"""A fresh application repository adopts govern with only the installed package, as the README shows.

init, the baseline, a change, diff against the previous commit, record new, verify in every format, the
pre-commit hooks (through `pre-commit try-repo` on this repository) and the merge driver in a real merge.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.adoption.conftest import App, english_prose, git_environment, set_up_govern

REPO_ROOT = Path(__file__).resolve().parents[2]
DRIVER = f'"{sys.executable}" -m govern merge-generated %O %A %B %P'


def pre_commit_hooks(app: App, home: Path) -> subprocess.CompletedProcess:
    """Every hook of this repository, installed by pre-commit from the local checkout (one install). That
    installation keeps the Python source (GOVERN_NO_COMPILE): compiling would add a minute to this test and prove
    nothing the rest of the suite does not."""
    environment = {**git_environment(), "PRE_COMMIT_HOME": str(home), "GOVERN_NO_COMPILE": "1",
                   "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    return subprocess.run([sys.executable, "-m", "pre_commit", "try-repo", str(REPO_ROOT), "--all-files"],
                          cwd=app.root, env=environment, capture_output=True, text=True)


def test_a_new_repository_adopts_govern_from_init_to_a_gated_merge(app: App, tmp_path: Path) -> None:
    # 1. init, then exactly one suggested baseline, recorded in English only.
    set_up_govern(app, "schemas/*.json", "shop.events")
    assert "govern record new baseline --prose prose.yaml" in app.run("verify").stdout
    prose = app.run("record", "prose").stdout
    app.write("prose.yaml", prose.replace('compatibility: ""', 'compatibility: "Every root is new."')
              .replace('verification: ""', 'verification: "govern verify is clean."'))
    assert app.run("record", "new", "baseline", "--prose", str(app.path("prose.yaml")),
                   "--date", "2026-12-01").exit_code == 0
    assert app.run("verify").exit_code == 0
    app.git("init", "-q")
    app.git("config", "merge.govern-generated.driver", DRIVER)
    app.git("add", "-A")
    app.git("commit", "-q", "-m", "adopt govern")

    # 2. a change, committed, seen by diff against the previous commit, and gated until recorded.
    config = json.loads(app.path("schemas/config.schema.json").read_text())
    config["properties"]["region"]["maxLength"] = 32
    app.write("schemas/config.schema.json", json.dumps(config, indent=2) + "\n")
    app.git("commit", "-q", "-am", "bound region")
    diff = app.run("diff", "--against", "HEAD~1")
    assert "config:AppConfig: version-bump" in diff.stdout
    assert "/properties/region" in diff.stdout
    for output_format in ("text", "json", "github", "sarif", "markdown"):
        gated = app.run("verify", "--format", output_format)
        assert gated.exit_code == 1, output_format
        assert "unacknowledged-change" in gated.stdout, output_format

    app.write("prose.yaml", english_prose(title="Bound the region", compatibility="Longer regions were never "
                                          "written.", verification="govern diff reports the bound only."))
    recorded = app.run("record", "new", "bound-region", "--prose", str(app.path("prose.yaml")),
                       "--decision", "version-bump", "--date", "2026-12-01")
    assert recorded.exit_code == 0, recorded.output
    app.path("prose.yaml").unlink()
    for output_format in ("text", "json", "github", "sarif", "markdown"):
        assert app.run("verify", "--format", output_format).exit_code == 0, output_format
    assert app.run("log", "config:AppConfig").stdout.splitlines()[1].startswith("  2026-12-01-bound-region  "
                                                                                "version-bump")
    # The hooks as pre-commit runs them: a stale generated file is regenerated (and the commit stops).
    app.path("schemas/catalog.md").write_text("edited by hand\n")
    hooks = pre_commit_hooks(app, tmp_path / "pre-commit")
    assert hooks.returncode == 1, hooks.stdout + hooks.stderr
    assert "govern verify" in hooks.stdout and "govern extract" in hooks.stdout
    assert "files were modified by this hook" in hooks.stdout
    assert app.run("extract", "--check").exit_code == 0
    app.git("add", "-A")
    app.git("commit", "-q", "-m", "record the bound")

    # 3. two branches change different sources; the merge regenerates the generated files.
    app.git("checkout", "-q", "-b", "shipping")
    events = app.path("shop/events.py")
    events.write_text(events.read_text().replace("class OrderShipped(BaseModel):\n",
                                                 "class OrderShipped(BaseModel):\n    carrier: str | None = None\n"))
    assert app.run("extract").exit_code == 0
    app.git("commit", "-q", "-am", "carrier")
    app.git("checkout", "-q", "main")
    events.write_text(events.read_text().replace("    amount: int\n", "    amount: int\n    note: str | None = None\n"))
    assert app.run("extract").exit_code == 0
    app.git("commit", "-q", "-am", "note")
    merged = app.git("merge", "-q", "shipping", "-m", "merge shipping", check=False)
    assert merged.returncode == 0, merged.stdout + merged.stderr
    assert app.run("extract", "--check").exit_code == 0
    assert {finding["root"] for finding in json.loads(app.run("verify", "--format", "json").stdout)["findings"]} == {
        "events:OrderPlaced", "events:OrderPlaced~serialization", "events:OrderShipped",
        "events:OrderShipped~serialization"}
    # Nothing of this repository was copied: the records came from the templates inside the package.
    assert not app.path("templates").exists()


def test_the_readme_first_screen_shows_adoption_in_five_commands() -> None:
    readme = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
    first_block = readme.split("```sh\n", 1)[1].split("```", 1)[0]
    commands = [line.split(" #", 1)[0].strip() for line in first_block.splitlines()]
    assert readme.index("```sh") < 400  # on the first screen
    assert commands == ["pip install govern-schemas", "govern init 'schemas/*.json' app.models",
                        "govern record prose > prose.yaml", "govern record new baseline --prose prose.yaml",
                        "govern verify"]
