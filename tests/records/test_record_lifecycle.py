"""The everyday path: a clean copy verifies, a source change is caught, a record acknowledges it."""

from __future__ import annotations

BASELINE = "2026-11-30-baseline"
RECORD = "2026-12-01-add-thread-label"


def test_verify_is_clean_on_a_fresh_copy(project) -> None:
    result = project.verify()
    assert result.exit_code == 0, result.output
    assert result.stdout == "verify: clean\n"


def test_an_optional_property_needs_a_record_and_a_record_acknowledges_it(project) -> None:
    project.add_sidecar_thread_property("label")

    result = project.verify()
    assert result.exit_code == 1
    # The finding points at the changed type and says what changed there.
    assert ("schemas/coauthoring-sidecar.schema.json:1: unacknowledged-change: sidecar:Artifact changed since its "
            f"latest record {BASELINE} (compatibility mode persistence): property `label` added at "
            "Thread#/properties/label "
            "(same-version)") in result.stdout
    assert "govern record new change-sidecar-artifact --prose prose.yaml" in result.stdout
    assert sorted(project.finding_ids()) == ["generated-stale", "generated-stale", "generated-stale",
                                             "unacknowledged-change"]

    created = project.new_record("add-thread-label")
    assert created.exit_code == 0, created.output
    assert created.stdout.endswith(f"wrote records for {RECORD}\n")
    assert created.stdout.startswith(f"sidecar:Artifact: same-version ({BASELINE} -> sha256:")
    for part in ("en", "zh", "i18n", "schema"):
        assert project.record(RECORD, part).is_file(), part

    english = project.record(RECORD).read_text(encoding="utf-8")
    assert f'predecessor: "{BASELINE}"' in english
    assert 'decision: "same-version"' in english
    assert "# Add a label to threads" in english
    assert "`Thread#/properties/label` property `label` added: same-version" in english
    chinese = project.record(RECORD, "zh").read_text(encoding="utf-8")
    assert chinese.split("---\n")[1] == english.split("---\n")[1]
    assert "# 为讨论串添加标签" in chinese

    result = project.verify()
    assert result.exit_code == 0, result.output
    assert result.stdout == "verify: clean\n"


def test_diff_shows_the_change_before_it_is_recorded(project) -> None:
    project.add_sidecar_thread_property("label")
    result = project.run("diff", "--format", "json")
    assert result.exit_code == 0, result.output
    assert '"root": "sidecar:Artifact"' in result.stdout
    assert '"rule": "optional-property-added"' in result.stdout


def test_the_installed_module_runs_in_the_project_directory(project) -> None:
    """As a user runs it: `python -m govern` from inside the copy, no --project, two hash seeds and locales."""
    import os
    import subprocess
    import sys

    project.add_sidecar_thread_property("label")
    outputs = []
    for seed, locale in (("0", "C"), ("12345", "C.UTF-8")):
        env = {**os.environ, "PYTHONHASHSEED": seed, "LC_ALL": locale, "TZ": "Pacific/Kiritimati"}
        result = subprocess.run([sys.executable, "-m", "govern", "verify", "--format", "sarif"], cwd=project.root,
                                env=env, capture_output=True)
        assert result.returncode == 1, result.stderr
        outputs.append(result.stdout)
    assert outputs[0] == outputs[1]
    assert b'"ruleId": "unacknowledged-change"' in outputs[0]
