"""An envelope of events (a pydantic discriminated union): the envelope's own structure is strict, its events
keep their own rules, and adding an ordinary event type is same-version."""

from __future__ import annotations

import json

import pytest

from tests.adoption.conftest import App, english_prose, make_app

EVENTS = '''\
"""The ledger's JSONL lines: one envelope per line, holding one event."""

from typing import Annotated, Literal, Union

from pydantic import BaseModel, Field


class MoneyDeposited(BaseModel):
    type: Literal["deposited"] = "deposited"
    amount: int


class MoneyWithdrawn(BaseModel):
    type: Literal["withdrawn"] = "withdrawn"
    amount: int
{extra_event}

class Envelope(BaseModel):
    seq: int
{envelope_field}    event: Annotated[Union[{events}], Field(discriminator="type")]
'''

TRANSFERRED = '''

class MoneyTransferred(BaseModel):
    type: Literal["transferred"] = "transferred"
    amount: int
    to: str
'''

CONFIGURATION = '''
[tool.govern]
languages = ["en"]

[[tool.govern.sources]]
name = "ledger"
kind = "pydantic"
path = "shop.events"
roots = {{ Envelope = {{ role = "envelope" }}, {events} }}
'''

ENVELOPES = ("ledger:Envelope", "ledger:Envelope~serialization")


def write_ledger(app: App, events=("MoneyDeposited", "MoneyWithdrawn"), envelope_field: str = "") -> None:
    app.write("shop/events.py", EVENTS.format(
        extra_event=TRANSFERRED if "MoneyTransferred" in events else "", envelope_field=envelope_field,
        events=", ".join(events)))
    roots = ", ".join(f'{name} = {{ role = "event" }}' for name in events)
    app.write("pyproject.toml", '[project]\nname = "shop"\nversion = "1.0.0"\n' + CONFIGURATION.format(events=roots))


@pytest.fixture
def ledger(tmp_path) -> App:
    app = make_app(tmp_path / "shop")
    write_ledger(app)
    app.write("prose.yaml", english_prose())
    result = app.run("record", "new", "baseline", "--prose", str(app.path("prose.yaml")), "--date", "2026-11-30")
    assert result.exit_code == 0, result.output
    assert app.run("verify").exit_code == 0
    return app


def diff(app: App) -> dict[str, dict]:
    result = app.run("diff", "--format", "json")
    assert result.exit_code == 0, result.output
    return {entry["root"]: entry for entry in json.loads(result.stdout)["roots"]}


def test_adding_an_event_type_to_the_envelope_is_same_version(ledger: App) -> None:
    write_ledger(ledger, ("MoneyDeposited", "MoneyWithdrawn", "MoneyTransferred"))
    roots = diff(ledger)
    for envelope in ENVELOPES:
        assert roots[envelope]["decision"] == "same-version", roots[envelope]
        assert [(change["path"], change["kind"], change["rule"], change["breaks"], change["args"])
                for change in roots[envelope]["changes"]] == [
            ("/properties/event/oneOf/transferred", "alternative-added", "event-type-added",
             ["new-data-old-readers"],
             {"alternative": "transferred", "event_type": "ledger:MoneyTransferred", "qualified": "false"})]
    assert roots["ledger:MoneyTransferred"]["decision"] == "new"
    assert roots["ledger:MoneyTransferred"]["minimum"] == "same-version"
    text = ledger.run("diff").stdout
    assert "ledger:Envelope: same-version [mode persistence]\n" in text and \
        "ledger:MoneyTransferred: new (minimum same-version) [mode persistence]" in text

    verify = ledger.run("verify")
    assert verify.exit_code == 1
    assert "ledger:Envelope changed since its latest record 2026-11-30-baseline (compatibility mode persistence): " \
           "alternative `transferred` added (event root `ledger:MoneyTransferred`) at /properties/event/oneOf/transferred " \
           "(same-version)" in verify.stdout

    ledger.write("prose.yaml", english_prose(
        title="Money transfers", summary="A transfer event joins the ledger.",
        compatibility="No stored line holds a transfer; readers are upgraded before any writer emits one."))
    result = ledger.run("record", "new", "money-transferred", "--prose", str(ledger.path("prose.yaml")),
                        "--date", "2026-12-01")
    assert result.exit_code == 0, result.output
    assert ledger.run("verify").exit_code == 0
    record = ledger.path("records/2026-12-01-money-transferred.md").read_text(encoding="utf-8")
    assert 'root: "ledger:Envelope"\n' in record and 'decision: "same-version"' in record
    assert 'decision: "version-bump"' not in record


def test_a_snapshot_names_the_event_roots_its_types_are(ledger: App) -> None:
    """A later record of the envelope alone must still know which of its types are event roots."""
    snapshot_path = ledger.path("records/2026-11-30-baseline.schema.json")
    snapshot = json.loads(snapshot_path.read_text(encoding="utf-8"))
    assert snapshot["$defs"]["ledger"]["x-govern-event-roots"] == {
        "ledger:MoneyDeposited": "MoneyDeposited", "ledger:MoneyWithdrawn": "MoneyWithdrawn"}
    snapshot["$defs"]["ledger"]["x-govern-event-roots"]["ledger:Gone"] = "Gone"
    snapshot_path.write_text(json.dumps(snapshot), encoding="utf-8")
    result = ledger.run("verify")
    # A damaged snapshot is a finding of its record (verify reports every problem together), naming why.
    assert result.exit_code == 1
    assert "records/2026-11-30-baseline.schema.json: snapshot-mismatch: cannot be normalized: " \
           "records/2026-11-30-baseline.schema.json: snapshot of source ledger names event roots it does not " \
           "hold" in result.stdout


def test_a_change_inside_an_event_is_judged_by_the_event_rules(ledger: App) -> None:
    events = ledger.path("shop/events.py").read_text(encoding="utf-8")
    ledger.write("shop/events.py", events.replace('    type: Literal["withdrawn"] = "withdrawn"\n',
                                                  '    type: Literal["withdrawn"] = "withdrawn"\n    note: str = ""\n'))
    roots = diff(ledger)
    for envelope in ENVELOPES:
        (change,) = roots[envelope]["changes"]
        # located in the event's type; the arguments still say through which alternative and event root
        assert (change["type"], change["path"], change["rule"], change["args"]["alternative"],
                change["args"]["event"]) == (
            "MoneyWithdrawn", "/properties/note", "optional-property-added", "withdrawn", "ledger:MoneyWithdrawn")
        assert change["text"] == {
            "en": "alternative `withdrawn` (event root `ledger:MoneyWithdrawn`) changed: property `note` added",
            "zh": "分支 `withdrawn`（事件根类型 `ledger:MoneyWithdrawn`）变更：新增属性 `note`"}
        assert roots[envelope]["decision"] == "same-version"
    assert roots["ledger:MoneyWithdrawn"]["decision"] == "same-version"


def test_removing_an_event_type_stays_a_version_bump(ledger: App) -> None:
    write_ledger(ledger, ("MoneyDeposited",))
    roots = diff(ledger)
    for envelope in ENVELOPES:
        assert roots[envelope]["decision"] == "version-bump"
        assert [(change["kind"], change["rule"], change["args"], change["breaks"])
                for change in roots[envelope]["changes"]] == [
            ("alternative-removed", "header-or-envelope-changed", {"alternative": "withdrawn"},
             ["old-data-new-readers"])]


def test_the_envelope_own_fields_stay_strict(ledger: App) -> None:
    write_ledger(ledger, envelope_field='    at: str = ""\n')
    roots = diff(ledger)
    for envelope in ENVELOPES:
        assert roots[envelope]["decision"] == "version-bump"
        assert [(change["path"], change["rule"]) for change in roots[envelope]["changes"]] == [
            ("/properties/at", "header-or-envelope-changed")]


def test_renaming_an_event_class_changes_no_digest(ledger: App) -> None:
    events = ledger.path("shop/events.py").read_text(encoding="utf-8")
    ledger.write("shop/events.py", events.replace("MoneyWithdrawn", "Withdrawal"))
    configuration = ledger.path("pyproject.toml").read_text(encoding="utf-8")
    ledger.write("pyproject.toml", configuration.replace('MoneyWithdrawn = { role = "event" }',
                                                         'MoneyWithdrawn = { at = "Withdrawal", role = "event" }'))
    roots = diff(ledger)
    configured = (*ENVELOPES, "ledger:MoneyDeposited", "ledger:MoneyDeposited~serialization", "ledger:MoneyWithdrawn",
                  "ledger:MoneyWithdrawn~serialization")
    assert {root: roots[root]["decision"] for root in configured} == {root: "unchanged" for root in configured}


def test_a_union_widened_inside_an_event_is_not_an_added_event_type(ledger: App) -> None:
    """Only an event root added to the envelope's union is an added event type; an alternative added inside
    an event root is judged by that event root's rules, and the envelope says the same."""
    events = ledger.path("shop/events.py").read_text(encoding="utf-8")
    ledger.write("shop/events.py", events.replace(
        '    type: Literal["withdrawn"] = "withdrawn"\n    amount: int\n',
        '    type: Literal["withdrawn"] = "withdrawn"\n    amount: Union[int, str]\n'))
    roots = diff(ledger)
    assert roots["ledger:MoneyWithdrawn"]["decision"] == "version-bump"
    event_rules = {change["rule"] for change in roots["ledger:MoneyWithdrawn"]["changes"]}
    assert "event-type-added" not in event_rules
    for envelope in ENVELOPES:
        assert roots[envelope]["decision"] == "version-bump", roots[envelope]
        assert {change["rule"] for change in roots[envelope]["changes"]} == event_rules
        for change in roots[envelope]["changes"]:
            assert change["args"]["event"] == "ledger:MoneyWithdrawn"
            assert "event_type" not in change["args"]
        texts = [change["text"]["en"] for change in roots[envelope]["changes"]]
        assert "in event root `ledger:MoneyWithdrawn`: alternative `string` added" in texts, texts
