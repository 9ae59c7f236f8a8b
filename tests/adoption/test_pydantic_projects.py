"""pydantic sources are imported from the project being checked, and both of their JSON schemas count."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

from tests.adoption.conftest import EVENTS_MODULE, App, english_prose, make_app

CONFIGURATION = '''
[tool.govern]
languages = ["en"]
{extra}
[[tool.govern.sources]]
name = "events"
kind = "pydantic"
path = "shop.events"
'''


def src_layout_app(tmp_path: Path, extra: str = "", folder: str = "src") -> App:
    app = make_app(tmp_path / "shop")
    app.path("shop/events.py").unlink()
    app.path("shop/__init__.py").unlink()
    app.path("shop").rmdir()
    app.write(f"{folder}/shop/__init__.py", "")
    app.write(f"{folder}/shop/events.py", EVENTS_MODULE.replace("    amount: int\n", "    amount: int\n    note: str\n"))
    app.write("pyproject.toml", app.path("pyproject.toml").read_text() + CONFIGURATION.format(extra=extra))
    return app


def install_other_copy(tmp_path: Path, monkeypatch) -> None:
    """An installed `shop` without the project's latest field, imported before govern runs."""
    site = tmp_path / "site-packages"
    (site / "shop").mkdir(parents=True)
    (site / "shop" / "__init__.py").write_text("")
    (site / "shop" / "events.py").write_text(EVENTS_MODULE)
    monkeypatch.syspath_prepend(str(site))
    import shop.events  # noqa: F401 - the stale copy a user's environment would hold


def order_placed_properties(app: App) -> list[str]:
    inventory = json.loads(app.path("schemas/inventory.json").read_text())
    key = inventory["roots"]["events:OrderPlaced"]["type"]
    return sorted(inventory["types"][key]["structure"]["properties"])


def test_a_src_layout_is_imported_from_the_project_not_from_an_installed_copy(tmp_path, monkeypatch) -> None:
    install_other_copy(tmp_path, monkeypatch)
    app = src_layout_app(tmp_path)
    result = app.runner.invoke(__import__("govern.cli", fromlist=["cli"]).cli,
                               ["extract", "--project", str(app.root)], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert "note" in order_placed_properties(app)
    inventory = json.loads(app.path("schemas/inventory.json").read_text())
    assert inventory["sources"]["events"]["origin"] == "shop.events (pydantic, src/shop/events.py)"


def test_pythonpath_names_the_folders_modules_come_from(tmp_path) -> None:
    app = src_layout_app(tmp_path, extra='pythonpath = ["lib"]\n', folder="lib")
    assert app.run("extract").exit_code == 0
    assert "note" in order_placed_properties(app)
    bad = src_layout_app(tmp_path / "other", extra='pythonpath = "lib"\n', folder="lib")
    result = bad.run("verify")
    assert result.exit_code == 2
    assert "tool.govern.pythonpath: must be a list of folders relative to the project root" in result.stderr


def test_verify_says_which_file_each_model_was_imported_from(tmp_path) -> None:
    app = src_layout_app(tmp_path)
    app.write("prose.yaml", english_prose())
    assert app.run("record", "new", "baseline", "--prose", str(app.path("prose.yaml"))).exit_code == 0
    assert app.run("verify").stdout == ("events: models imported from src/shop/events.py (shop.events)\n"
                                        "verify: clean\n")
    as_json = json.loads(app.run("verify", "--format", "json").stdout)
    assert as_json["imported"] == {"events": "src/shop/events.py"}
    assert "models imported from `src/shop/events.py`" in app.run("verify", "--format", "markdown").stdout


def test_a_serialization_alias_changes_what_writers_emit_and_is_a_version_bump(app: App) -> None:
    app.write("pyproject.toml", app.path("pyproject.toml").read_text() + CONFIGURATION.format(extra=""))
    app.write("prose.yaml", english_prose())
    assert app.run("record", "new", "baseline", "--prose", str(app.path("prose.yaml"))).exit_code == 0
    events = app.path("shop/events.py")
    events.write_text(events.read_text().replace("from pydantic import BaseModel", "from pydantic import BaseModel, Field")
                      .replace("    amount: int\n", "    amount: int = Field(serialization_alias='total')\n"))
    result = json.loads(app.run("diff", "--format", "json").stdout)
    decisions = {root["root"]: root["decision"] for root in result["roots"]}
    assert decisions["events:OrderPlaced"] == "unchanged"  # readers accept the same documents
    assert decisions["events:OrderPlaced~serialization"] == "version-bump"  # writers emit `total`, not `amount`
    verify = json.loads(app.run("verify", "--format", "json").stdout)
    assert sorted((f["id"], f.get("root", f["path"])) for f in verify["findings"]) == [
        ("generated-stale", "schemas/catalog.md"), ("generated-stale", "schemas/inventory.json"),
        ("unacknowledged-change", "events:OrderPlaced~serialization")]


def test_reading_the_models_leaves_no_bytecode_in_the_project_and_reads_each_edit(app: App, monkeypatch) -> None:
    # Python writes bytecode unless told otherwise; the suite may run either way, so this test says which.
    monkeypatch.setattr("sys.dont_write_bytecode", False)
    app.write("pyproject.toml", app.path("pyproject.toml").read_text() + CONFIGURATION.format(extra=""))
    assert app.run("digests").exit_code == 0
    assert list(app.root.rglob("__pycache__")) == []
    # An edit of the same size within the same second: nothing stale was left to be read instead of it.
    before = app.run("digests").output
    edited = EVENTS_MODULE.replace("amount: int", "amount: str")
    assert len(edited) == len(EVENTS_MODULE)
    stamp = app.path("shop/events.py").stat().st_mtime_ns
    app.write("shop/events.py", edited)
    os.utime(app.path("shop/events.py"), ns=(stamp, stamp))
    after = app.run("digests").output
    assert "events:OrderPlaced" in before and before != after
    assert sys.dont_write_bytecode is False  # restored after the import
