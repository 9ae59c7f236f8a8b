"""`govern diff --witness` on the command line: ad hoc and configured, every output, the over-caution
report, unsound verdicts, and this repository's own contracts changed the ways that break."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from conftest import REPO_ROOT, fixtures, projects  # noqa: E402 - the folder's helpers
from govern.cli import cli
from govern.witness.render import TRUNCATED, document_text

RULES_DIR = fixtures.RULES_DIR


def run(*args: str):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def pair(case: str) -> list[str]:
    return [str(RULES_DIR / case / "old.schema.json"), str(RULES_DIR / case / "new.schema.json")]


def test_text_shows_the_witness_under_its_change_and_the_over_caution_report():
    result = run("diff", *pair("constraint-changed/positive/max-length-tightened"), "--witness")
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == [
        "new:Doc: version-bump [mode persistence]",
        "  version-bump  /properties/note/maxLength  constraint-changed (constraint-changed): maxLength lowered "
        "from 10 to 5 [breaks old-data-new-readers]",
        '      witness (old-data-new-readers): {"id":"","note":"aaaaaa"}',
        "        old accepts it; new rejects it at /note: 'aaaaaa' is too long",
        "1 roots: 1 changed, 0 unchanged",
        "witnesses: 1 of 1 breaking changes have one",
    ]


def test_json_carries_the_witness_of_every_change():
    result = run("diff", *pair("enum-changed/positive/value-removed"), "--witness", "--format", "json")
    document = json.loads(result.stdout)
    change = document["roots"][0]["changes"][0]
    assert change["witness"] == {"document": {"id": "", "status": "archived"}, "direction": "old-data-new-readers",
                                 "accepted_by": "old", "rejected_by": "new",
                                 "reason": "'archived' is not one of ['closed', 'open']", "at": "/status"}
    assert change["witness_search"] == "found"
    assert document["witnesses"] == {"breaking": 1, "witnessed": 1, "without_witness": [], "unsound": []}
    assert document["findings"] == []


def test_a_change_without_witness_is_null_and_listed_as_a_candidate_for_a_more_precise_rule():
    # A keyword no validator knows constrains nothing a validator can show.
    case = "constraint-changed/positive/unknown-keyword-added"
    result = run("diff", *pair(case), "--witness", "--format", "json")
    document = json.loads(result.stdout)
    change = document["roots"][0]["changes"][0]
    assert (change["witness"], change["witness_search"]) == (None, "exhausted")
    assert document["witnesses"]["without_witness"] == [{
        "root": "new:Doc", "path": "/properties/note/x-maxUtf8Bytes", "kind": "constraint-added",
        "rule": "constraint-changed", "breaks": ["old-data-new-readers"], "witness_search": "exhausted"}]
    text = run("diff", *pair(case), "--witness").stdout
    assert "      no witness found (exhausted)" in text
    assert text.endswith("witnesses: 0 of 1 breaking changes have one\n"
                         "without a witness (candidates for a more precise rule):\n"
                         "  new:Doc /properties/note/x-maxUtf8Bytes  constraint-added (constraint-changed): "
                         "exhausted old-data-new-readers\n")


def test_without_the_flag_the_output_is_unchanged():
    plain = run("diff", *pair("constraint-changed/positive/max-length-tightened"), "--format", "json").stdout
    assert "witness" not in plain


def test_a_long_document_is_cut_on_one_line_with_a_marker(tmp_path):
    old = {"$schema": fixtures.DRAFT, "title": "Doc", "type": "object",
           "properties": {"id": {"type": "string", "minLength": 300}, "n": {"type": "integer"}}, "required": ["id", "n"]}
    new = json.loads(json.dumps(old))
    new["properties"]["n"]["maximum"] = 5
    old_path, new_path = fixtures.write_pair(tmp_path, old, new)
    lines = run("diff", str(old_path), str(new_path), "--witness").stdout.splitlines()
    witness = next(line for line in lines if "witness (" in line)
    assert witness.endswith(TRUNCATED) and len(witness.split(": ", 1)[1]) == 200 + len(TRUNCATED)
    assert document_text({"a": "b" * 10}) == '{"a":"bbbbbbbbbb"}'


def test_the_budget_must_be_positive():
    result = CliRunner().invoke(cli, ["diff", *pair("enum-changed/positive/value-removed"), "--witness",
                                      "--witness-budget", "0"])
    assert result.exit_code == 2 and "witness-budget" in result.output


def test_a_same_version_verdict_a_document_breaks_is_an_unsound_verdict(monkeypatch):
    from govern.classify import rules

    # A rule table that (wrongly) calls every constraint change same-version.
    monkeypatch.setattr(rules, "RULES", [dataclasses.replace(rule, decision="same-version")
                                         if rule.id == "constraint-changed" else rule for rule in rules.RULES])
    args = pair("constraint-changed/positive/max-length-tightened")
    result = run("diff", *args, "--witness", "--format", "json")
    assert result.exit_code == 1
    document = json.loads(result.stdout)
    assert document["roots"][0]["decision"] == "same-version"
    assert document["roots"][0]["changes"][0]["witness_search"] == "unsound"
    [finding] = document["findings"]
    assert finding["id"] == "unsound-verdict" and finding["path"] == args[1]
    assert finding["message"] == (
        "new:Doc: the same-version change at /properties/note/maxLength (constraint-changed) breaks "
        "old-data-new-readers: the old schema accepts {\"id\":\"\",\"note\":\"aaaaaa\"} and the new schema rejects "
        "it ('aaaaaa' is too long)")
    text = run("diff", *args, "--witness")
    assert text.exit_code == 1 and "unsound-verdict: new:Doc: the same-version change" in text.stdout


# --- this repository's contracts, changed the ways that break --------------------------------------------

SIDECAR = "schemas/coauthoring-sidecar.schema.json"
OPENAPI = "schemas/grp-coordination.openapi.json"


@pytest.fixture(scope="module")
def changed_contracts(tmp_path_factory) -> dict:
    root = projects.copy_project(REPO_ROOT, tmp_path_factory.mktemp("contracts") / "project")

    def edit(relative: str, change) -> None:
        path = root / relative
        data = json.loads(path.read_text(encoding="utf-8"))
        change(data)
        path.write_text(json.dumps(data, indent=2), encoding="utf-8")

    def sidecar(schema: dict) -> None:
        thread = schema["$defs"]["Thread"]
        del thread["properties"]["status"]  # a removed required property
        thread["required"].remove("status")
        schema["$defs"]["Fingerprint"]["properties"]["lineHint"]["minimum"] = 1  # a tightened bound

    def coordination(document: dict) -> None:
        schemas = document["components"]["schemas"]
        schemas["Disposition"]["enum"].remove("request_changes")  # a removed enum value
        schemas["ExactArtifactReference"]["properties"]["note"] = {"type": "string"}  # a closed object gains one

    edit(SIDECAR, sidecar)
    edit(OPENAPI, coordination)
    result = CliRunner().invoke(cli, ["diff", "--witness", "--format", "json", "--project", str(root)],
                                catch_exceptions=False)
    assert result.exit_code == 0, result.output
    # keyed by the location as text reads it: `Type#/pointer` inside a named type
    return {(entry["root"], f"{change['type']}#{change['path'] or '/'}" if "type" in change else change["path"]): change
            for entry in json.loads(result.stdout)["roots"] for change in entry["changes"]}


@pytest.mark.parametrize(("root", "path", "kind", "direction", "value_at", "value"), [
    ("sidecar:Artifact", "Thread#/properties/status", "property-removed", "new-data-old-readers", None, None),
    ("sidecar:Artifact", "Fingerprint#/properties/lineHint/minimum", "constraint-changed", "old-data-new-readers",
     "/anchors/key/fingerprint/lineHint", 0),
    ("grp:ActionReviewRequest", "Disposition#/", "enum-value-removed", "old-data-new-readers", "/disposition",
     "request_changes"),
    ("grp:ActionReviewRequest", "ExactArtifactReference#/properties/note", "optional-property-added",
     "new-data-old-readers", "/target/note", ""),
], ids=["removed-required-property", "tightened-bound", "removed-enum-value", "closed-object-gains-property"])
def test_contract_changes_show_a_witness(changed_contracts, root, path, kind, direction, value_at, value):
    change = changed_contracts[(root, path)]
    assert change["kind"] == kind and change["witness_search"] == "found", change
    witness = change["witness"]
    assert witness["direction"] == direction
    if value_at is not None:
        target = witness["document"]
        for token in value_at.split("/")[1:]:
            target = target[token] if isinstance(target, dict) else target[int(token)]
        assert target == value


def test_the_readme_example_is_what_govern_prints():
    import shlex

    readme = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
    block = readme.split("## Example", 1)[1].split("```console\n", 1)[1].split("```", 1)[0]
    command, *expected = block.splitlines()
    args = shlex.split(command.removeprefix("$ govern "))
    args = [str(REPO_ROOT / arg) if arg.endswith(".json") else arg for arg in args]
    result = run(*args)
    assert result.exit_code == 0
    assert result.stdout.splitlines() == expected
    assert readme.index("## Example") < readme.index("```console")  # the first console example of the README


def test_jsonschema_is_imported_only_when_witnesses_are_asked_for():
    import subprocess
    import sys

    args = pair("constraint-changed/positive/max-length-tightened")
    probe = ("import sys\nfrom click.testing import CliRunner\nfrom govern.cli import cli\n"
             f"CliRunner().invoke(cli, ['diff', {args[0]!r}, {args[1]!r}] + sys.argv[1:])\n"
             "print(sorted(m for m in sys.modules if m == 'jsonschema' or m.startswith('govern.witness')))\n")
    plain = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    witnessed = subprocess.run([sys.executable, "-c", probe, "--witness"], capture_output=True, text=True,
                               check=True).stdout
    assert plain == "[]\n"
    assert "'jsonschema'" in witnessed and "'govern.witness.search'" in witnessed


def _tightened_and_unknown(tmp_path) -> list[str]:
    """A bound tightened (a witness after a few candidates) next to an unknown keyword added (no document can
    show it, so its search runs to the end of its budget)."""
    old = {"$schema": fixtures.DRAFT, "title": "Doc", "type": "object", "required": ["id"],
           "properties": {"id": {"type": "string"}, "note": {"type": "string", "maxLength": 10},
                          "memo": {"type": "string"}}}
    new = json.loads(json.dumps(old))
    new["properties"]["note"]["maxLength"] = 5
    new["properties"]["memo"]["x-maxUtf8Bytes"] = 64
    return [str(path) for path in fixtures.write_pair(tmp_path, old, new)]


def test_the_outcome_does_not_depend_on_the_clock(tmp_path, monkeypatch):
    """The budget counts work: a machine a million times slower (every clock reading ten seconds later than
    the last) gives the same witnesses and the same exhausted searches, byte for byte."""
    import itertools
    import time

    files = _tightened_and_unknown(tmp_path)
    steady = run("diff", *files, "--witness", "--format", "json")
    ticks = itertools.count()
    for clock in ("perf_counter", "monotonic", "process_time", "time"):
        monkeypatch.setattr(time, clock, lambda: 10.0 * next(ticks))
    slow = run("diff", *files, "--witness", "--format", "json")
    monkeypatch.undo()
    assert slow.stdout == steady.stdout
    outcomes = {change["path"]: change["witness_search"] for change in json.loads(steady.stdout)["roots"][0]["changes"]}
    assert outcomes == {"/properties/note/maxLength": "found", "/properties/memo/x-maxUtf8Bytes": "exhausted"}


def test_the_budget_is_a_number_of_candidates_whatever_the_machine(tmp_path):
    """The tightened bound's witness is the n-th candidate its search checks: a budget of n finds it, n - 1 does
    not (every time), and any larger budget finds the same document."""
    files = _tightened_and_unknown(tmp_path)

    def note(budget: int) -> dict:
        result = run("diff", *files, "--witness", "--format", "json", "--witness-budget", str(budget))
        return next(change for change in json.loads(result.stdout)["roots"][0]["changes"]
                    if change["path"] == "/properties/note/maxLength")

    needed = next(budget for budget in range(1, 50) if note(budget)["witness_search"] == "found")
    assert needed > 1
    assert note(needed - 1) == note(needed - 1) and note(needed - 1)["witness_search"] == "exhausted"
    assert note(needed)["witness"] == note(200)["witness"] == note(5000)["witness"]


def test_a_budget_in_milliseconds_is_refused_with_what_it_counts_now():
    # "+-5" and "²" pass str.isdigit after stripping signs, yet int() refuses them: a message, not a traceback
    for value in ("200ms", "2.5", "0", "-3", "+-5", "\u00b2", "1\u0660", " "):
        result = CliRunner().invoke(cli, ["diff", *pair("enum-changed/positive/value-removed"), "--witness",
                                          "--witness-budget", value])
        assert result.exit_code == 2 and "--witness-budget" in result.output, value
        assert result.exception is None or isinstance(result.exception, SystemExit), value
    assert "not milliseconds" in CliRunner().invoke(cli, ["diff", *pair("enum-changed/positive/value-removed"),
                                                          "--witness", "--witness-budget", "200ms"]).output


def test_the_commands_default_budget_is_the_searchs():
    from govern.cli._common import WITNESS_BUDGET
    from govern.witness.search import DEFAULT_BUDGET

    assert WITNESS_BUDGET == DEFAULT_BUDGET


def test_a_pattern_left_to_re_that_backtracks_without_end_is_cut_short_in_the_worker_thread(tmp_path, monkeypatch):
    # The walk and the witness search run in a thread with a deep stack, where no signal can end a search: the
    # main thread, which only waits for it, runs such `re` searches under its timer. (Unbounded, the search of
    # this enum value took `re` 13 s per validator, twice as long per `a` more.)
    import signal
    import time

    from govern import patterns

    monkeypatch.setattr(patterns, "_slow", set())
    monkeypatch.setattr(patterns, "_spent", [0.0])
    monkeypatch.setattr(patterns, "SECONDS_PER_SEARCH", 0.05)
    long_value = "a" * 38 + "!"
    old = {"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object", "required": ["s"],
           "properties": {"s": {"enum": [long_value, "b"]}}}
    new = json.loads(json.dumps(old))
    new["properties"]["s"]["pattern"] = "(?i)(a|aa)+$"
    old_path, new_path = fixtures.write_pair(tmp_path, old, new)
    started = time.monotonic()
    result = run("diff", str(old_path), str(new_path), "--witness", "--format", "json")
    assert time.monotonic() - started < 5.0
    assert result.exit_code == 0, result.output
    change = json.loads(result.stdout)["roots"][0]["changes"][0]
    assert change["witness_search"] == "exhausted" and "(?i)(a|aa)+$" in patterns._slow
    assert signal.getsignal(signal.SIGALRM) == signal.SIG_DFL and signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
    assert patterns._serving == [None]


def test_ctrl_c_during_a_search_ends_the_command_at_once(tmp_path):
    # Ctrl-C while the main thread runs the worker's search: the command ends, and the worker, whose searches are
    # not known from then on, keeps nothing waiting (unbounded, this search would take hours).
    import signal
    import subprocess
    import sys
    import time

    old = {"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object", "required": ["s"],
           "properties": {"s": {"enum": ["a" * 60 + "!", "b"]}}}
    new = json.loads(json.dumps(old))
    new["properties"]["s"]["pattern"] = "(?i)(a|aa)+$"
    old_path, new_path = fixtures.write_pair(tmp_path, old, new)
    # (Ctrl-C as Python handles it, also where this process was started with SIGINT ignored, as a background job is)
    command = subprocess.Popen([sys.executable, "-c", "import signal; signal.signal(signal.SIGINT, "
                                "signal.default_int_handler); from govern.cli import main; main()", "diff",
                                str(old_path), str(new_path), "--witness"], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE)
    time.sleep(0.8)  # (about when the first search of the long value begins)
    command.send_signal(signal.SIGINT)
    try:
        command.communicate(timeout=10)
    except subprocess.TimeoutExpired:
        command.kill()
        command.communicate()
        pytest.fail("the command did not end after Ctrl-C")
    assert command.returncode != 0
