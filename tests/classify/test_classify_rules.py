"""The rule table and its fixture folders: every rule documented, translated, and decided by example.

Each rule id of `govern.classify.rules.RULES` owns `rules/<rule-id>/{positive,negative}/<case>/`. A positive
case is a change the rule decides; a negative case is a similar change the rule must leave to another rule
(or to no rule at all, when nothing changed).
"""

from __future__ import annotations

import re

import pytest

from conftest import RULES_DIR, fixture_cases, diff_roots, rules_of  # noqa: E402 - the folder's helpers
from govern.classify.rules import DECISIONS, RULES, RULES_BY_ID

CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]")
KEBAB = re.compile(r"^[a-z][a-z0-9]*(-[a-z0-9]+)*$")
CASES = fixture_cases()
ROOT_DECISIONS = {"unchanged", "same-version", "version-bump", "new", "removed"}


def test_rule_ids_are_unique_and_kebab_case():
    ids = [entry.id for entry in RULES]
    assert len(ids) == len(set(ids)) == len(RULES_BY_ID)
    assert [entry.id for entry in RULES if not KEBAB.match(entry.id)] == []


def test_last_rule_is_the_version_bump_fallback():
    assert RULES[-1].decision == "version-bump"


@pytest.mark.parametrize("entry", RULES, ids=lambda entry: entry.id)
def test_every_rule_is_documented_translated_and_tested(entry):
    assert entry.decision in DECISIONS, f"{entry.id}: unknown decision {entry.decision!r}"
    assert entry.purpose_en.strip(), f"{entry.id}: no English purpose"
    assert not CJK.search(entry.purpose_en), f"{entry.id}: the English purpose is not English"
    assert entry.purpose_zh.strip() and CJK.search(entry.purpose_zh), f"{entry.id}: no Chinese purpose"
    assert callable(entry.matches)
    for polarity in ("positive", "negative"):
        folder = RULES_DIR / entry.id / polarity
        cases = [case for case in folder.glob("*") if case.is_dir()] if folder.is_dir() else []
        assert cases, f"{entry.id}: no {polarity} fixture in {folder}"
        for case in cases:
            assert (case / "old.schema.json").is_file() and (case / "new.schema.json").is_file(), \
                f"{case}: needs old.schema.json and new.schema.json"


def test_every_fixture_folder_names_a_registered_rule():
    unknown = sorted(path.name for path in RULES_DIR.iterdir() if path.is_dir() and path.name not in RULES_BY_ID)
    assert unknown == [], f"fixture folders name no registered rule: {unknown}"
    stray = sorted(str(path.relative_to(RULES_DIR)) for rule_dir in RULES_DIR.iterdir() if rule_dir.is_dir()
                   for path in rule_dir.iterdir() if path.name not in ("positive", "negative"))
    assert stray == [], f"a rule folder holds only positive/ and negative/: {stray}"


def _check_root(case, roots):
    assert case.root_id in roots, f"{case.id}: no root {case.root_id} in {sorted(roots)}"
    entry = roots[case.root_id]
    if "decision" in case.expect:
        assert case.expect["decision"] in ROOT_DECISIONS
        assert entry["decision"] == case.expect["decision"], entry
    if "minimum" in case.expect:
        assert entry["minimum"] == case.expect["minimum"], entry
    return entry


@pytest.mark.parametrize("case", [c for c in CASES if c.polarity == "positive"], ids=lambda case: case.id)
def test_positive_case_is_decided_by_its_rule(case):
    roots = diff_roots(case)
    entry = _check_root(case, roots)
    rule = RULES_BY_ID[case.rule]
    assert case.rule in {change["rule"] for change in entry["changes"]}, entry
    if "decision" not in case.expect:
        assert entry["decision"] == rule.decision, entry
    assert set(case.expect.get("rules", ())) <= rules_of(roots)
    for change in entry["changes"]:
        assert change["decision"] == RULES_BY_ID[change["rule"]].decision
    # The root decision is the maximum over its changes: an allowed change never hides a breaking one.
    decisions = {change["decision"] for change in entry["changes"]}
    assert entry["minimum"] == ("version-bump" if "version-bump" in decisions else "same-version")


@pytest.mark.parametrize("case", [c for c in CASES if c.polarity == "negative"], ids=lambda case: case.id)
def test_negative_case_is_not_decided_by_its_rule(case):
    roots = diff_roots(case)
    assert case.rule not in rules_of(roots), roots
    _check_root(case, roots)
    if "rules" in case.expect:
        assert rules_of(roots) == set(case.expect["rules"]), roots


def test_cases_cover_both_decisions():
    decided = {RULES_BY_ID[case.rule].decision for case in CASES if case.polarity == "positive"}
    assert decided == set(DECISIONS)
