"""Removing a root: verify asks for a tombstone, and a version-bump record provides it."""

from __future__ import annotations

BASELINE = "2026-11-30-coordination-0-2-1-writer-constant"  # the latest record of grp:ActionClaimRequest
OPENAPI = "schemas/grp-coordination.openapi.json"
RECORD = "2026-12-01-retire-action-claim"


def remove_action_claim(document: dict) -> None:
    del document["paths"]["/api/rooms/{slug}/actions/{action_id}/claim"]
    del document["components"]["schemas"]["ActionClaimRequest"]


def retire_action_claim(document: dict) -> None:
    """The removal as a version-bump must make it: with the format version raised in the same change."""
    remove_action_claim(document)
    document["info"]["version"] = "0.3.0"


def test_a_removed_root_needs_a_tombstone(project) -> None:
    project.edit_json(OPENAPI, remove_action_claim)
    result = project.verify()
    assert result.exit_code == 1
    assert result.stdout.startswith(
        f"records/{BASELINE}.md: unacknowledged-removal: grp:ActionClaimRequest is recorded by {BASELINE} but no "
        "longer in the sources\n"
        "  fix: record a tombstone, raising the source's format version in the same change: govern record new "
        "retire-action-claim-request --prose prose.yaml "
        "--decision version-bump\n")
    assert [f["id"] for f in project.findings()] == [
        "unacknowledged-removal", "generated-stale", "generated-stale", "generated-stale"]


def test_a_tombstone_must_raise_the_format_version(project) -> None:
    project.edit_json(OPENAPI, remove_action_claim)
    project.write_prose()
    before = project.state()
    result = project.new_record("retire-action-claim", "2026-12-01", "--decision", "version-bump")
    assert result.exit_code == 1
    assert result.stderr == (
        'error: grp:ActionClaimRequest: a version-bump must raise the format version, which stays "0.2.1" -> '
        '"0.2.1" (raise the format version of source grp (at /info/version) in the same change)\n')
    assert project.state() == before


def test_a_tombstone_record_acknowledges_the_removal(project) -> None:
    project.edit_json(OPENAPI, retire_action_claim)
    result = project.new_record("retire-action-claim", "2026-12-01", "--decision", "version-bump")
    assert result.exit_code == 0, result.output
    assert f"grp:ActionClaimRequest: version-bump ({BASELINE} -> tombstone)\n" in result.stdout
    assert result.stdout.endswith(f"wrote records for {RECORD}\n")
    english = project.record(RECORD).read_text(encoding="utf-8")
    assert (f'  - root: "grp:ActionClaimRequest"\n    predecessor: "{BASELINE}"\n') in english
    assert ('    after: null\n    decision: "version-bump"\n    format-version:\n      before: "0.2.1"\n'
            '      after: "0.3.0"\n') in english
    assert "- `grp:ActionClaimRequest`: version-bump (root removed (tombstone))" in english
    assert "- `grp:ActionClaimRequest`: 版本升级（删除根类型（墓碑））" in \
        project.record(RECORD, "zh").read_text(encoding="utf-8")
    assert "grp:ActionClaimRequest" not in project.load_json(f"records/{RECORD}.schema.json")["x-govern-roots"]
    verified = project.verify()
    assert verified.exit_code == 0, verified.output


def test_a_tombstone_cannot_be_declared_same_version(project) -> None:
    project.edit_json(OPENAPI, remove_action_claim)
    project.write_prose()
    before = project.state()
    result = project.new_record("retire-action-claim", "2026-12-01", "--decision", "same-version")
    assert result.exit_code == 1
    assert "weaker than the inferred version-bump (grp:ActionClaimRequest)" in result.stderr
    assert project.state() == before


def test_a_root_restored_after_its_tombstone_is_recorded_as_new_again(project) -> None:
    original = project.load_json(OPENAPI)
    project.edit_json(OPENAPI, retire_action_claim)
    assert project.new_record("retire-action-claim", "2026-12-01", "--decision", "version-bump").exit_code == 0
    project.dump_json(OPENAPI, original)
    project.edit_json(OPENAPI, lambda document: document["info"].__setitem__("version", "0.3.0"))
    findings = project.findings()
    assert findings[0]["id"] == "unacknowledged-change"
    assert findings[0]["message"].endswith(f"but was removed by its latest record {RECORD}")
    result = project.new_record("restore-action-claim", "2026-12-01")
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith(f"grp:ActionClaimRequest: same-version ({RECORD} -> sha256:")
    assert project.verify().exit_code == 0
