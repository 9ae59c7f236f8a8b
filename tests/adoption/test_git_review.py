"""Git-aware review: diff against a ref, a root's log and heads, and the merge driver of generated files."""

from __future__ import annotations

import json
import sys

import pytest
from tests.adoption.conftest import App, english_prose

DRIVER = f'"{sys.executable}" -m govern merge-generated %O %A %B %P'


@pytest.fixture
def repo(repo_with_baseline: App) -> App:
    return repo_with_baseline


def add_field(app: App, model: str, line: str) -> None:
    path = app.path("shop/events.py")
    text = path.read_text()
    marker = f"class {model}(BaseModel):\n"
    assert marker in text
    path.write_text(text.replace(marker, marker + f"    {line}\n"))


def add_config_property(app: App, name: str) -> None:
    path = app.path("schemas/config.schema.json")
    schema = json.loads(path.read_text())
    schema["properties"][name] = {"type": "string"}
    path.write_text(json.dumps(schema, indent=2) + "\n")


def test_diff_against_a_ref_compares_with_the_sources_of_that_commit(repo: App) -> None:
    add_field(repo, "OrderShipped", "carrier: str | None = None")
    repo.git("commit", "-q", "-am", "carrier")
    add_config_property(repo, "region2")
    # The working copy's module is imported first, so the copy at the ref must be imported apart from it.
    assert repo.run("digests").exit_code == 0
    against_head = json.loads(repo.run("diff", "--against", "HEAD", "--format", "json").stdout)
    changed = {root["root"]: root["decision"] for root in against_head["roots"] if root["decision"] != "unchanged"}
    assert changed == {"config:AppConfig": "same-version"}
    against_parent = repo.run("diff", "--against", "HEAD~1")
    assert against_parent.exit_code == 0
    assert "config:AppConfig: same-version" in against_parent.stdout
    assert "events:OrderShipped: same-version" in against_parent.stdout
    assert "/properties/carrier  optional-property-added" in against_parent.stdout
    assert "5 roots: 3 changed, 2 unchanged" in against_parent.stdout


def test_diff_against_a_ref_decides_in_the_configured_mode(repo: App) -> None:
    add_config_property(repo, "region2")
    pyproject = repo.path("pyproject.toml")
    pyproject.write_text(pyproject.read_text().replace('name = "config"\n', 'name = "config"\nmode = "backward"\n'))
    roots = {root["root"]: root for root in json.loads(repo.run("diff", "--against", "HEAD", "--format", "json").stdout)["roots"]}
    # In backward mode an optional property added to an open object breaks old data, which may hold any `region2`.
    assert (roots["config:AppConfig"]["decision"], roots["config:AppConfig"]["mode"]) == ("version-bump", "backward")
    assert roots["events:OrderPlaced"]["mode"] == "persistence"


def test_diff_against_a_ref_before_adoption_sees_every_root_as_new(repo: App) -> None:
    repo.git("checkout", "-q", "--orphan", "empty")
    repo.git("rm", "-rq", "--cached", ".")
    repo.git("commit", "-q", "--allow-empty", "-m", "nothing yet")
    result = repo.run("diff", "--against", "empty")
    assert result.exit_code == 0, result.output
    assert "5 roots: 5 changed, 0 unchanged" in result.stdout


@pytest.mark.parametrize("ref", ["no-such-branch", "HEAD~5", "-x"])
def test_an_unknown_ref_is_an_input_error(repo: App, ref: str) -> None:
    result = repo.run("diff", "--against", ref)
    assert result.exit_code == 2
    assert result.stderr == (f"error: {ref}: is not a commit or tree of this repository (use a branch, tag or "
                             "commit such as main, HEAD~1 or origin/main)\n")


def test_diff_against_outside_git_is_an_input_error(app: App) -> None:
    app.write("pyproject.toml", app.path("pyproject.toml").read_text() + '\n[tool.govern]\nlanguages = ["en"]\n'
              '[[tool.govern.sources]]\nname = "config"\nkind = "jsonschema"\npath = "schemas/config.schema.json"\n')
    result = app.run("diff", "--against", "HEAD")
    assert result.exit_code == 2
    assert "is not inside a git work tree" in result.stderr


def test_log_and_heads_show_each_roots_records(repo: App) -> None:
    add_field(repo, "OrderShipped", "carrier: str | None = None")
    repo.write("prose.yaml", english_prose(title="Carrier"))
    assert repo.run("record", "new", "add-carrier", "--prose", str(repo.path("prose.yaml")),
                    "--date", "2026-12-01").exit_code == 0
    digest = json.loads(repo.path("schemas/inventory.json").read_text())["roots"]["events:OrderShipped"]["digest"]
    baseline = json.loads(repo.path("records/2026-12-01-baseline.schema.json").read_text())
    assert baseline  # the chain below starts at this baseline
    log = repo.run("log", "events:OrderShipped")
    assert log.exit_code == 0
    lines = log.stdout.splitlines()
    assert lines[0] == "events:OrderShipped"
    assert lines[1] == f"  2026-12-01-add-carrier  same-version  mode persistence  format - -> -  {digest}"
    assert lines[2].startswith("  2026-12-01-baseline  same-version (baseline)  mode persistence  format - -> -  "
                               "sha256:")
    heads = repo.run("heads").stdout.splitlines()
    inventory = json.loads(repo.path("schemas/inventory.json").read_text())["roots"]
    expected = {"config:AppConfig": "2026-12-01-baseline", "events:OrderPlaced": "2026-12-01-baseline",
                "events:OrderPlaced~serialization": "2026-12-01-baseline",
                "events:OrderShipped": "2026-12-01-add-carrier",
                "events:OrderShipped~serialization": "2026-12-01-add-carrier"}
    assert [line.split()[:2] for line in heads] == [[root, record] for root, record in expected.items()]
    for line in heads:  # aligned columns, and the digest shortened to a prefix of the current one
        root = line.split()[0]
        assert line.startswith(root.ljust(len("events:OrderShipped~serialization")) + "  ")
        assert line.endswith("  " + inventory[root]["digest"][:19])
    as_json = json.loads(repo.run("log", "--format", "json").stdout)
    assert [entry["root"] for entry in as_json["roots"]] == list(expected)
    assert [record["record"] for record in as_json["roots"][3]["records"]] == ["2026-12-01-add-carrier",
                                                                               "2026-12-01-baseline"]
    unknown = repo.run("log", "events:Nope")
    assert unknown.exit_code == 2 and "events:Nope: is not a recorded root" in unknown.stderr


def branches_changing_different_sources(repo: App) -> None:
    repo.git("checkout", "-q", "-b", "carrier")
    add_field(repo, "OrderShipped", "carrier: str | None = None")
    assert repo.run("extract").exit_code == 0
    repo.git("commit", "-q", "-am", "carrier")
    repo.git("checkout", "-q", "main")
    add_config_property(repo, "timezone")
    add_field(repo, "OrderPlaced", "note: str | None = None")
    assert repo.run("extract").exit_code == 0
    repo.git("commit", "-q", "-am", "timezone")


def test_without_the_driver_the_generated_files_conflict(repo: App) -> None:
    branches_changing_different_sources(repo)
    merged = repo.git("merge", "-q", "carrier", "-m", "merge", check=False)
    assert merged.returncode == 1
    assert "CONFLICT (content): Merge conflict in schemas/catalog.md" in merged.stdout


def test_the_merge_driver_regenerates_the_generated_files_in_a_real_merge(repo: App) -> None:
    assert repo.path(".gitattributes").read_text() == (
        "schemas/inventory.json merge=govern-generated\nschemas/catalog*.md merge=govern-generated\n"
        "schemas/formats/** merge=govern-generated\n")
    repo.git("config", "merge.govern-generated.driver", DRIVER)
    branches_changing_different_sources(repo)
    merged = repo.git("merge", "-q", "carrier", "-m", "merge", check=False)
    assert merged.returncode == 0, merged.stdout + merged.stderr
    assert repo.git("status", "--porcelain").stdout == ""
    inventory = repo.path("schemas/inventory.json").read_text()
    assert "<<<<<<<" not in inventory
    assert repo.run("extract", "--check").exit_code == 0  # byte for byte what `govern extract` writes
    roots = json.loads(inventory)["roots"]
    structure = json.dumps(json.loads(inventory)["types"])
    assert "carrier" in structure and "timezone" in structure and '"note"' in structure and len(roots) == 5


def test_the_driver_leaves_a_conflict_when_the_sources_conflict(repo: App) -> None:
    repo.git("config", "merge.govern-generated.driver", DRIVER)
    repo.git("checkout", "-q", "-b", "other")
    add_config_property(repo, "zone")
    assert repo.run("extract").exit_code == 0
    repo.git("commit", "-q", "-am", "zone")
    repo.git("checkout", "-q", "main")
    add_config_property(repo, "zone-name")
    assert repo.run("extract").exit_code == 0
    repo.git("commit", "-q", "-am", "zone-name")
    merged = repo.git("merge", "-q", "other", "-m", "merge", check=False)
    assert merged.returncode == 1
    assert "govern merge-generated: schemas/inventory.json: the sources conflict (schemas/config.schema.json): " \
           "resolve them, then run `govern extract`" in merged.stderr


def test_the_markdown_report_summarizes_the_records_a_pull_request_adds(repo: App) -> None:
    repo.git("checkout", "-q", "-b", "carrier")
    add_field(repo, "OrderShipped", "carrier: str | None = None")
    repo.write("prose.yaml", english_prose(title="Ship with a carrier"))
    assert repo.run("record", "new", "add-carrier", "--prose", str(repo.path("prose.yaml")),
                    "--date", "2026-12-01").exit_code == 0
    repo.path("prose.yaml").unlink()
    result = repo.run("verify", "--format", "markdown", "--base", "main")
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("### govern verify: clean\n\nevents: models imported from `shop/events.py` "
                                    "(`shop.events`)\n")
    summary = result.stdout.split("#### Change records added since `main`\n\n")[1]
    assert summary.startswith("- `2026-12-01-add-carrier`: Ship with a carrier\n"
                              "  - `events:OrderShipped`: same-version, format version - -> -\n"
                              "  - `events:OrderShipped~serialization`: ")
    assert "`/properties/carrier` property `carrier` added: same-version" in summary
    as_json = json.loads(repo.run("verify", "--format", "json", "--base", "main").stdout)
    assert as_json["clean"] is True
    assert [record["record"] for record in as_json["review"]["added"]] == ["2026-12-01-add-carrier"]
    repo.git("add", "-A")
    repo.git("commit", "-q", "-m", "carrier")
    nothing = repo.run("verify", "--format", "markdown", "--base", "HEAD").stdout
    assert nothing.endswith("No change record was added since `HEAD`.\n")
    chinese = repo.run("verify", "--format", "markdown", "--base", "main", "--lang", "zh").stdout
    assert "#### 自 `main` 以来新增的变更记录" in chinese
