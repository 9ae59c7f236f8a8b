"""`govern init` on a repository that has never used govern, and the first verify after it."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from tests.adoption.conftest import App, english_prose, make_app

OPENAPI = {"openapi": "3.1.0", "info": {"title": "Shop", "version": "1.0"},
           "paths": {"/orders": {"post": {"requestBody": {"content": {"application/json": {
               "schema": {"$ref": "#/components/schemas/OrderRequest"}}}}, "responses": {"200": {
                   "description": "ok"}}}}},
           "components": {"schemas": {"OrderRequest": {"type": "object", "properties": {"id": {"type": "string"}}}}}}


def init(app: App, *args: str):
    # Patterns are resolved against the current directory, as a shell would.
    previous = os.getcwd()
    os.chdir(app.root)
    try:
        return app.run("init", *args)
    finally:
        os.chdir(previous)


def test_init_adds_tool_govern_to_pyproject_and_proposes_roots_and_roles(app: App) -> None:
    result = init(app, "schemas/*.json", "shop.events", "--languages", "en")
    assert result.exit_code == 0, result.output
    assert result.stdout == (
        "wrote [tool.govern] to pyproject.toml\n"
        "  config: jsonschema schemas/config.schema.json: config:AppConfig (record)\n"
        "  events: pydantic shop.events: events:OrderPlaced (event), events:OrderPlaced~serialization (event), "
        "events:OrderShipped (event), events:OrderShipped~serialization (event)\n"
        "created records/\n"
        "wrote .gitattributes: the generated files merge by regenerating them; enable the driver with\n"
        '  git config merge.govern-generated.driver "govern merge-generated %O %A %B %P"\n'
        "next: draft the baseline's prose, fill in the compatibility and verification, then record it:\n"
        "  govern record prose > prose.yaml\n"
        "  govern record new baseline --prose prose.yaml\n")
    assert app.path("pyproject.toml").read_text() == (
        '[project]\nname = "shop"\nversion = "1.0.0"\n\n'
        '[tool.govern]\nlanguages = ["en"]\n\n'
        '[[tool.govern.sources]]\nname = "config"\nkind = "jsonschema"\npath = "schemas/config.schema.json"\n'
        'roots = { AppConfig = { role = "record", at = "#" } }\n\n'
        '[[tool.govern.sources]]\nname = "events"\nkind = "pydantic"\npath = "shop.events"\n'
        'roots = { OrderPlaced = { role = "event" }, OrderShipped = { role = "event" } }\n')
    assert app.path("records").is_dir()
    assert app.path(".gitattributes").read_text() == (
        "schemas/inventory.json merge=govern-generated\nschemas/catalog*.md merge=govern-generated\n"
        "schemas/formats/** merge=govern-generated\n")


def test_verify_on_an_empty_history_suggests_exactly_one_baseline_command(app: App) -> None:
    init(app, "schemas/config.schema.json", "shop.events", "--languages", "en")
    result = app.run("verify")
    assert result.exit_code == 1
    assert result.stdout == (
        "events: models imported from shop/events.py (shop.events)\n"
        "records/: unacknowledged-root: no change record yet: 5 roots have none (config:AppConfig, "
        "events:OrderPlaced, events:OrderPlaced~serialization, events:OrderShipped, events:OrderShipped~serialization)\n"
        "  fix: record the baseline: `govern record prose > prose.yaml`, fill it in, then "
        "`govern record new baseline --prose prose.yaml`\n"
        "verify: 1 finding\n")
    markdown = app.run("verify", "--format", "markdown").stdout
    assert markdown.count("govern record new ") == 3  # the table's fix, the prose comment, the command block
    assert "govern record new baseline --prose prose.yaml\n```\n" in markdown
    drafted = app.run("record", "prose").stdout
    assert "govern record new baseline --prose prose.yaml" in drafted
    app.write("prose.yaml", english_prose())
    assert app.run("record", "new", "baseline", "--prose", str(app.path("prose.yaml"))).exit_code == 0
    assert app.run("verify").stdout == "events: models imported from shop/events.py (shop.events)\nverify: clean\n"


def test_without_pyproject_init_writes_govern_toml_which_every_command_reads(tmp_path: Path) -> None:
    app = make_app(tmp_path / "shop", pyproject=False)
    app.write("api/shop.openapi.json", json.dumps(OPENAPI))
    result = init(app, "api/shop.openapi.json", "schemas/config.schema.json", "--languages", "en,zh")
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("wrote govern.toml\n  shop: openapi api/shop.openapi.json: shop:OrderRequest "
                                    "(record)\n  config: jsonschema")
    assert app.path("govern.toml").read_text().startswith(
        'languages = ["en", "zh"]\n\n[[sources]]\nname = "shop"\nkind = "openapi"\npath = "api/shop.openapi.json"\n')
    assert not app.path("pyproject.toml").exists()
    digests = app.run("digests")
    assert digests.exit_code == 0, digests.output
    assert "shop:OrderRequest" in digests.stdout and "config:AppConfig" in digests.stdout


def test_a_configured_project_is_refused_and_nothing_is_written(app: App) -> None:
    init(app, "schemas/config.schema.json")
    before = app.path("pyproject.toml").read_bytes()
    again = init(app, "shop.events")
    assert again.exit_code == 1
    assert again.stderr == (f"error: {app.root.resolve() / 'pyproject.toml'}: already configures govern "
                            "(edit the configuration, or run `govern verify`)\n")
    assert app.path("pyproject.toml").read_bytes() == before


@pytest.mark.parametrize(("specs", "message"), [
    (("schemas/*.yaml",), "error: schemas/*.yaml: matches no file (check the pattern)\n"),
    (("shop.missing",), "error: shop.missing: cannot be imported: ModuleNotFoundError: No module named "
                        "'shop.missing' (check the module name and that it imports without side effects)\n"),
    ((), "no sources named"),
])
def test_bad_sources_are_refused_before_anything_is_written(app: App, specs: tuple[str, ...], message: str) -> None:
    before = app.path("pyproject.toml").read_bytes()
    result = init(app, *specs)
    assert result.exit_code in (1, 2)
    assert message in result.stderr
    assert app.path("pyproject.toml").read_bytes() == before
    assert not app.path("records").exists()


def test_govern_toml_and_tool_govern_together_are_a_configuration_error(app: App) -> None:
    init(app, "schemas/config.schema.json")
    app.write("govern.toml", app.path("pyproject.toml").read_text().split("[tool.govern]\n")[1]
              .replace("[[tool.govern.sources]]", "[[sources]]"))
    result = app.run("verify")
    assert result.exit_code == 2
    assert "govern.toml: and [tool.govern] in pyproject.toml both configure govern (keep one of them)" in result.stderr
