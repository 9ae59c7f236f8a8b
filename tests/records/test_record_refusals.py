"""Refusals: every rule of `govern record new` and `refresh` exits 1 and writes nothing."""

from __future__ import annotations

import pytest

BASELINE = "2026-11-30-baseline"
SIDECAR = "schemas/coauthoring-sidecar.schema.json"


def remove_thread_status(document: dict) -> None:
    thread = document["$defs"]["Thread"]
    del thread["properties"]["status"]
    thread["required"].remove("status")


def raise_sidecar_version(document: dict) -> None:
    document["properties"]["schemaVersion"]["x-persistence-version"] = 2


def test_same_version_for_a_removed_field_is_refused_and_writes_nothing(project) -> None:
    project.edit_json(SIDECAR, remove_thread_status)
    project.write_prose()
    before = project.state()
    result = project.new_record("drop-thread-status", "2026-12-01", "--decision", "same-version")
    assert result.exit_code == 1
    assert result.stdout == ""
    assert result.stderr == (
        "error: 2026-12-01-drop-thread-status: --decision same-version is weaker than the inferred version-bump "
        "(sidecar:Artifact) (run `govern diff` to see the breaking changes, or declare version-bump)\n")
    assert project.state() == before


@pytest.mark.parametrize("decision", [(), ("--decision", "version-bump")])
def test_a_version_bump_without_raising_the_format_version_is_refused(project, decision) -> None:
    project.edit_json(SIDECAR, remove_thread_status)
    project.write_prose()
    before = project.state()
    result = project.new_record("drop-thread-status", "2026-12-01", *decision)
    assert result.exit_code == 1
    assert result.stderr == (
        "error: sidecar:Artifact: a version-bump must raise the format version, which stays 1 -> 1 (raise the "
        "format version of source sidecar (at /properties/schemaVersion) in the same change)\n")
    assert project.state() == before


def test_a_version_bump_that_raises_the_format_version_is_accepted(project) -> None:
    project.edit_json(SIDECAR, remove_thread_status)
    project.edit_json(SIDECAR, raise_sidecar_version)
    result = project.new_record("drop-thread-status", "2026-12-01", "--decision", "version-bump")
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith(f"sidecar:Artifact: version-bump ({BASELINE} -> sha256:")
    english = project.record("2026-12-01-drop-thread-status").read_text(encoding="utf-8")
    assert 'decision: "version-bump"' in english
    assert "    format-version:\n      before: 1\n      after: 2\n" in english
    verified = project.verify()
    assert verified.exit_code == 0, verified.output


def test_same_version_without_compatibility_prose_is_refused(project, prose) -> None:
    project.add_sidecar_thread_property("label")
    prose["zh"]["compatibility"] = ""
    project.write_prose(prose)
    before = project.state()
    result = project.new_record("add-thread-label")
    assert result.exit_code == 1
    assert result.stderr == (
        "error: 2026-12-01-add-thread-label: a same-version record needs compatibility prose in every language "
        "(explain why old data may omit the change and why older readers ignore it)\n")
    assert project.state() == before


def test_an_existing_id_is_refused(project) -> None:
    project.add_sidecar_thread_property("label")
    assert project.new_record("add-thread-label").exit_code == 0
    project.add_sidecar_thread_property("colour")
    before = project.state()
    result = project.new_record("add-thread-label")
    assert result.exit_code == 1
    assert result.stderr == ("error: records/2026-12-01-add-thread-label.md: already exists (records are never "
                             "overwritten: choose another slug or date)\n")
    assert project.state() == before


def test_nothing_to_record_is_refused(project) -> None:
    project.write_prose()
    before = project.state()
    result = project.new_record("no-change")
    assert result.exit_code == 1
    assert result.stderr == ("error: records/: nothing to record: every root agrees with its latest record "
                             "(`govern diff` shows the current changes)\n")
    assert project.state() == before


@pytest.mark.parametrize("slug", ["Add-Label", "add_label", "label--x", "label-"])
def test_a_bad_slug_is_refused(project, slug: str) -> None:
    project.add_sidecar_thread_property("label")
    project.write_prose()
    before = project.state()
    result = project.new_record(slug)
    assert result.exit_code == 1
    assert f"error: {slug}: is not a valid slug" in result.stderr
    assert project.state() == before


def test_refreshing_the_baseline_is_refused(project) -> None:
    project.add_sidecar_thread_property("label")
    before = project.state()
    result = project.run("record", "refresh", BASELINE)
    assert result.exit_code == 1
    assert result.stderr == (
        f"error: records/{BASELINE}.md: is the baseline, which is never refreshed (record the change in a new "
        "record: govern record new SLUG --prose FILE)\n")
    assert project.state() == before


def test_refreshing_an_unknown_record_is_an_input_error(project) -> None:
    result = project.run("record", "refresh", "2026-12-09-nothing")
    assert result.exit_code == 2
    assert result.stderr == "error: records/2026-12-09-nothing.md: does not exist\n"


def test_refreshing_a_terminal_record_takes_in_a_further_change(project) -> None:
    project.add_sidecar_thread_property("label")
    assert project.new_record("add-thread-label").exit_code == 0
    project.add_sidecar_thread_property("colour")
    assert project.finding_ids().count("unacknowledged-change") == 1

    result = project.run("record", "refresh", "2026-12-01-add-thread-label")
    assert result.exit_code == 0, result.output
    assert result.stdout == "refreshed 2026-12-01-add-thread-label\n"
    english = project.record("2026-12-01-add-thread-label").read_text(encoding="utf-8")
    assert "property `colour` added" in english and "property `label` added" in english
    assert f'predecessor: "{BASELINE}"' in english
    assert project.verify().exit_code == 0


def test_refreshing_a_record_with_dependants_is_refused(project) -> None:
    project.add_sidecar_thread_property("label")
    assert project.new_record("add-thread-label", "2026-12-01").exit_code == 0
    project.add_sidecar_thread_property("colour")
    assert project.new_record("add-thread-colour", "2026-12-01").exit_code == 0
    project.add_sidecar_thread_property("size", {"type": "integer"})
    before = project.state()
    result = project.run("record", "refresh", "2026-12-01-add-thread-label")
    assert result.exit_code == 1
    assert result.stderr == (
        "error: records/2026-12-01-add-thread-label.md: has dependants (2026-12-01-add-thread-colour), so it is "
        "accepted history (record the change in a new record instead)\n")
    assert project.state() == before
