"""Findings point at the changed type's file and line and say what changed; markdown shortens digests."""

from __future__ import annotations

import json

from tests.adoption.conftest import App


def bound_region(app: App) -> None:
    schema = json.loads(app.path("schemas/config.schema.json").read_text())
    schema["properties"]["region"]["maxLength"] = 32
    app.write("schemas/config.schema.json", json.dumps(schema, indent=2) + "\n")


def test_the_inventory_records_where_each_root_is_written_and_no_digest_covers_it(repo_with_baseline: App) -> None:
    roots = json.loads(repo_with_baseline.path("schemas/inventory.json").read_text())["roots"]
    assert roots["config:AppConfig"]["location"] == "schemas/config.schema.json:1"
    assert roots["events:OrderPlaced"]["location"] == "shop/events.py:8"
    assert roots["events:OrderShipped~serialization"]["location"] == "shop/events.py:14"
    # Moving the model down the file moves its location, never its digest.
    events = repo_with_baseline.path("shop/events.py")
    events.write_text(events.read_text().replace("from typing import Literal\n", "from typing import Literal\n\n\n"))
    assert repo_with_baseline.run("extract").exit_code == 0
    moved = json.loads(repo_with_baseline.path("schemas/inventory.json").read_text())["roots"]
    assert moved["events:OrderPlaced"]["location"] == "shop/events.py:10"
    assert {root: entry["digest"] for root, entry in moved.items()} == \
        {root: entry["digest"] for root, entry in roots.items()}


def test_an_unacknowledged_change_points_at_the_type_and_says_what_changed(repo_with_baseline: App) -> None:
    app = repo_with_baseline
    bound_region(app)
    events = app.path("shop/events.py")
    events.write_text(events.read_text().replace("    amount: int\n", "    amount: str\n"))
    findings = [f for f in json.loads(app.run("verify", "--format", "json").stdout)["findings"]
                if f["id"] == "unacknowledged-change"]
    assert [(f["root"], f["path"], f["line"]) for f in findings] == [
        ("config:AppConfig", "schemas/config.schema.json", 1), ("events:OrderPlaced", "shop/events.py", 8),
        ("events:OrderPlaced~serialization", "shop/events.py", 8)]
    assert findings[0]["message"] == ("config:AppConfig changed since its latest record 2026-12-01-baseline "
                                      "(compatibility mode persistence): constraint maxLength 32 added at "
                                      "/properties/region/maxLength (version-bump)")
    assert findings[1]["message"].endswith(": type changed from integer to string at /properties/amount (version-bump)")
    github = app.run("verify", "--format", "github").stdout
    assert "::error file=schemas/config.schema.json,line=1,title=unacknowledged-change::" in github


def test_markdown_tables_print_short_digests_and_json_keeps_them_whole(repo_with_baseline: App) -> None:
    app = repo_with_baseline
    snapshot = app.path("records/2026-12-01-baseline.schema.json")
    snapshot.write_text(snapshot.read_text().replace('"minimum": 1', '"minimum": 2'))
    markdown = app.run("verify", "--format", "markdown").stdout
    json_report = app.run("verify", "--format", "json").stdout
    mismatch = next(f for f in json.loads(json_report)["findings"] if f["id"] == "snapshot-mismatch")
    digests = [word.rstrip(",") for word in mismatch["message"].split() if word.startswith("sha256:")]
    assert digests and all(len(digest) == len("sha256:") + 64 for digest in digests)
    for digest in digests:
        assert digest not in markdown
        assert digest[:len("sha256:") + 12] + "…" in markdown
