"""Every hint of the finding table that names a govern command leads somewhere: for each such finding a
scenario produces it, the test runs exactly the commands the hint names (after doing what the hint says
by hand, where it says so), and the finding is gone with `govern verify` clean.
"""

from __future__ import annotations

import datetime as dt
import re
import shlex

import pytest

from govern.verify.findings import templates
from tests.records.conftest import OPENAPI, PROSE, SIDECAR, prose_yaml

RECORD = "2026-12-01-label"
LANGUAGE_FILES = ("records/{id}.md", "records/{id}.zh.md")


def both(project, record_id: str, old: str, new: str) -> None:
    for pattern in LANGUAGE_FILES:
        project.replace(pattern.format(id=record_id), old, new)


def labelled(project) -> str:
    project.add_sidecar_thread_property("label")
    assert project.new_record("label", "2026-12-01").exit_code == 0
    return RECORD


def raise_sidecar(project, version: int = 2) -> None:
    project.edit_json(SIDECAR, lambda d: d["properties"]["schemaVersion"].__setitem__("x-persistence-version", version))


def breaking(project) -> str:
    """A version-bump record: Thread.status removed, the sidecar's format version raised to 2."""
    def drop_status(document):
        del document["$defs"]["Thread"]["properties"]["status"]
        document["$defs"]["Thread"]["required"].remove("status")

    project.edit_json(SIDECAR, drop_status)
    raise_sidecar(project)
    assert project.new_record("drop-status", "2026-12-01").exit_code == 0
    return "2026-12-01-drop-status"


def remove_claim(document: dict) -> None:
    del document["paths"]["/api/rooms/{slug}/actions/{action_id}/claim"]
    del document["components"]["schemas"]["ActionClaimRequest"]


def add_grp_body(document: dict) -> None:
    document["components"]["schemas"]["Ping"] = {"type": "object", "properties": {"at": {"type": "string"}}}
    document["paths"]["/api/ping"] = {"post": {"requestBody": {"content": {"application/json": {
        "schema": {"$ref": "#/components/schemas/Ping"}}}}, "responses": {"204": {"description": "ok"}}}}


def set_grp_version(version: str):
    return lambda document: document["info"].__setitem__("version", version)


# --- scenarios: each makes the finding appear and returns nothing; manual steps the hint asks for follow -------


def consistency_unreadable(project):
    labelled(project)
    project.path(f"records/{RECORD}.i18n.yaml").write_text("prose: [\n", encoding="utf-8")


def consistency_missing(project):
    labelled(project)
    project.path(f"records/{RECORD}.i18n.yaml").unlink()


def snapshot_missing(project):
    labelled(project)
    project.path(f"records/{RECORD}.schema.json").unlink()


def declaration_edited(project):
    labelled(project)
    both(project, RECORD, 'decision: "same-version"', 'decision: "version-bump"')


def prose_edited_everywhere(project):
    labelled(project)
    project.replace(f"records/{RECORD}.md", "A thread may carry", "Every thread may carry")
    project.replace(f"records/{RECORD}.zh.md", "讨论串可以带", "每个讨论串可以带")


def prose_edited_in_english(project):
    labelled(project)
    project.replace(f"records/{RECORD}.md", "A thread may carry", "Every thread may carry")


def update_the_translation(project):
    project.replace(f"records/{RECORD}.zh.md", "讨论串可以带", "每个讨论串可以带")


def generated_section_edited(project):
    labelled(project)
    both(project, RECORD, "optional-property-added", "nothing-to-see")


def baseline_claimed(project):
    labelled(project)
    both(project, RECORD, "baseline: false", "baseline: true")


def structure_changed(project):
    project.add_sidecar_thread_property("label")


def structure_broken(project):
    project.add_sidecar_thread_property("label", {"type": "string"})
    project.edit_json(SIDECAR, lambda d: d["$defs"]["Thread"]["required"].append("label"))


def format_version_changed(project):
    project.edit_json(OPENAPI, set_grp_version("0.3.0"))
    assert project.run("extract").exit_code == 0


def role_changed(project):
    project.replace("pyproject.toml", 'Artifact = { at = "#", role = "record" }', 'Artifact = { at = "#", role = "event" }')


def mode_weakened(project):
    project.replace("pyproject.toml", 'name = "sidecar"\n', 'name = "sidecar"\nmode = "backward"\n')


def root_restored(project):
    original = project.load_json(OPENAPI)
    project.edit_json(OPENAPI, lambda d: (remove_claim(d), set_grp_version("0.3.0")(d)))
    # Dated today: the hint's `govern record new` takes today's date, which may not precede it.
    assert project.new_record("retire-claim", dt.datetime.now(dt.timezone.utc).date().isoformat()).exit_code == 0
    project.dump_json(OPENAPI, original)
    project.edit_json(OPENAPI, set_grp_version("0.3.0"))


def root_added(project):
    project.edit_json(OPENAPI, add_grp_body)


def root_removed(project):
    project.edit_json(OPENAPI, remove_claim)


def raise_grp(project):
    project.edit_json(OPENAPI, set_grp_version("0.3.0"))


def raise_sidecar_by_hand(project):
    raise_sidecar(project)


def decision_weakened(project):
    record_id = breaking(project)
    both(project, record_id, 'decision: "version-bump"', 'decision: "same-version"')


def after_version_edited(project):
    record_id = breaking(project)
    both(project, record_id, "      after: 2\n", "      after: 3\n")


def before_version_edited(project):
    record_id = breaking(project)
    both(project, record_id, "      before: 1\n", "      before: 0\n")


def new_root_with_before(project):
    project.edit_json(OPENAPI, add_grp_body)
    assert project.new_record("ping", "2026-12-01").exit_code == 0
    both(project, "2026-12-01-ping", '      before: null\n      after: "0.2.1"', '      before: "0.1.0"\n      after: "0.2.1"')


def version_not_raised(project):
    """A version-bump whose source was lowered back after the record: the record no longer raises anything."""
    record_id = breaking(project)
    both(project, record_id, "      after: 2\n", "      after: 1\n")


def inventory_stale(project):
    project.replace(SIDECAR, '"description": "The document this sidecar describes."',
                    '"description": "The document that this sidecar describes."')


def catalog_made_a_folder(project):
    project.path("schemas/catalog.md").unlink()
    project.path("schemas/catalog.md").mkdir()


def catalog_made_a_file_again(project):
    project.path("schemas/catalog.md").rmdir()


# (finding id, variant) -> (scenario, manual step the hint asks for before its commands, or None)
SCENARIOS = {
    ("record-syntax", "consistency"): (consistency_unreadable, None),
    ("record-files-missing", "consistency"): (consistency_missing, None),
    ("record-files-missing", "content"): (snapshot_missing, None),
    ("consistency-stale", "declaration"): (declaration_edited, None),
    ("consistency-stale", "prose"): (prose_edited_everywhere, None),
    ("translation-stale", ""): (prose_edited_in_english, update_the_translation),
    ("generated-section-edited", ""): (generated_section_edited, None),
    ("baseline-misplaced", ""): (baseline_claimed, None),
    ("unacknowledged-change", "recorded"): (structure_changed, None),
    ("unacknowledged-change", "recorded-bump"): (structure_broken, raise_sidecar_by_hand),
    ("unacknowledged-change", "changed"): (structure_changed, None),
    ("unacknowledged-change", "changed-bump"): (structure_broken, raise_sidecar_by_hand),
    ("unacknowledged-change", "format-version"): (format_version_changed, None),
    ("unacknowledged-change", "role"): (role_changed, raise_sidecar_by_hand),
    ("unacknowledged-change", "mode"): (mode_weakened, raise_sidecar_by_hand),
    ("unacknowledged-change", "removed"): (root_restored, None),
    ("unacknowledged-root", ""): (root_added, None),
    ("unacknowledged-removal", ""): (root_removed, raise_grp),
    ("decision-too-weak", ""): (decision_weakened, None),
    ("format-version-mismatch", "snapshot"): (after_version_edited, None),
    ("format-version-mismatch", "predecessor"): (before_version_edited, None),
    ("format-version-mismatch", "new-root"): (new_root_with_before, None),
    ("format-version-not-raised", ""): (version_not_raised, None),
    ("generated-stale", ""): (inventory_stale, None),
    ("generated-stale", "unreadable"): (catalog_made_a_folder, catalog_made_a_file_again),
}
# Hints whose commands are proven by tests elsewhere, named here so none is forgotten.
COVERED_ELSEWHERE = {
    ("history-fork", ""): "tests/records/test_record_fork.py::test_a_fork_is_resolved_by_refreshing_the_later_record",
    ("generated-stale", "obsolete"): "tests/history/test_formats.py::test_verify_reports_a_stale_or_obsolete_reference_and_formats_repairs_it",
    ("unacknowledged-root", "baseline"): "tests/records/test_hints_resolve.py::test_the_baseline_hint_resolves_an_empty_history",
}
# Hints without a scenario here yet, named so the gap is visible: an archive needs tagged git history.
WITHOUT_SCENARIO = {("archive-malformed", "")}
COMMAND = re.compile(r"`(govern [^`]+)`|: (govern record new \S+ --prose prose\.yaml(?: --decision version-bump)?)")


def commands_in(hint: str) -> list[str]:
    return [found[0] or found[1] for found in COMMAND.findall(hint)]


def test_every_hint_naming_a_command_has_a_scenario():
    named = {(finding_id, variant) for finding_id, variant, texts in templates()
             if "govern " in (texts.get("hint_en") or "") or "{command}" in (texts.get("hint_en") or "")}
    assert named - set(SCENARIOS) - set(COVERED_ELSEWHERE) - WITHOUT_SCENARIO == set()


def matching(findings: list[dict], finding_id: str, variant: str) -> list[dict]:
    """The findings of one id whose hint is the rendering of this variant's template."""
    texts = dict((v, t) for i, v, t in templates() if i == finding_id)[variant]
    pattern = re.escape(texts["hint_en"])
    pattern = re.sub(r"\\\{\w+\\\}", ".*", pattern)
    return [f for f in findings if f["id"] == finding_id and re.fullmatch(pattern, f["hint"] or "", re.S)]


def run_hint(project, hint: str) -> None:
    prose = project.path("prose.yaml")
    prose.write_text(prose_yaml(PROSE), encoding="utf-8")
    commands = commands_in(hint)
    assert commands, hint
    for command in commands:
        words = shlex.split(command)[1:]
        if words == ["diff"]:
            shown = project.run("diff")
            assert shown.exit_code == 0 and "changed" in shown.stdout and shown.stdout.strip(), shown.output
            continue
        words = [str(prose) if word == "prose.yaml" else word for word in words]
        result = project.run(*words)
        assert result.exit_code == 0, (command, result.output)


@pytest.mark.parametrize("key", sorted(SCENARIOS), ids=lambda key: f"{key[0]}/{key[1] or '-'}")
def test_following_the_hint_resolves_the_finding(project, key):
    finding_id, variant = key
    scenario, manual = SCENARIOS[key]
    scenario(project)
    found = matching(project.findings(), finding_id, variant)
    assert found, project.verify().output
    if manual is not None:
        manual(project)
    run_hint(project, found[0]["hint"])
    assert not matching(project.findings(), finding_id, variant)
    result = project.verify()
    assert result.exit_code == 0, result.output


def test_the_baseline_hint_resolves_an_empty_history(small):
    schema = {"$schema": "https://json-schema.org/draft/2020-12/schema",
              "$defs": {"Doc": {"type": "object", "properties": {"id": {"type": "string"}}}}}
    project = small({"s.json": schema}, [{"name": "s", "kind": "jsonschema", "path": "s.json",
                                          "roots": {"Doc": {"at": "#/$defs/Doc"}}}])
    found = matching(project.findings(), "unacknowledged-root", "baseline")
    assert found
    hint = found[0]["hint"]
    drafted = project.run("record", "prose")
    assert drafted.exit_code == 0
    # Fill it in, as the hint says.
    project.path("prose.yaml").write_text(prose_yaml(PROSE), encoding="utf-8")
    assert "govern record prose > prose.yaml" in hint
    run_hint(project, "`" + commands_in(hint)[-1] + "`")
    assert project.verify().exit_code == 0, project.verify().output
