"""Every change reads as a sentence in English and Chinese (`govern.classify.explain`).

The kinds come from the code, not from a list kept here: the walker's registry (`KINDS`, which refuses a
difference of any other kind), the kind literals of every `Difference(...)` the package builds and every
kind the rule table matches, and the kinds the rule fixtures and the direction table actually produce.
"""

from __future__ import annotations

import ast
import json
import re

import pytest

from conftest import REPO_ROOT, SOURCE, diff_cli, diff_roots, fixture_cases, write_pair  # noqa: E402
from direction_cases import CASES as DIRECTION_CASES  # noqa: E402
from govern.classify.changes import KINDS, Difference
from govern.classify.explain import SENTENCES, code, explain

CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]")
PACKAGE = REPO_ROOT / "govern"


def _constants(node: ast.AST) -> set[str]:
    return {sub.value for sub in ast.walk(node) if isinstance(sub, ast.Constant) and isinstance(sub.value, str)}


def kinds_built_in_code() -> set[str]:
    """The kind literals of every `Difference(path, kind, ...)` in the package (both branches of a
    conditional kind included), and of every kind the rules compare `difference.kind` with."""
    found: set[str] = set()
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Difference" and len(node.args) > 1:
                found |= _constants(node.args[1])
            if isinstance(node, ast.Compare) and isinstance(node.left, ast.Attribute) and node.left.attr == "kind" \
                    and getattr(node.left.value, "id", None) == "difference":
                for comparator in node.comparators:
                    found |= _constants(comparator)
    return found


def _walk_changes(roots: dict) -> list[dict]:
    return [change for entry in roots.values() for change in entry["changes"]]


def _inner_kinds(args: dict) -> set[str]:
    """Kinds a wrapping change carries inside it (`inner`, `inner_inner`, ...)."""
    return {value for name, value in args.items() if re.fullmatch(r"(inner_)*inner", name)}


@pytest.fixture(scope="module")
def produced_changes(tmp_path_factory) -> list[dict]:
    """Every change the rule fixtures and the direction table produce, as the JSON contract gives it."""
    changes = []
    for case in fixture_cases():
        changes += _walk_changes(diff_roots(case))
    folder = tmp_path_factory.mktemp("directions")
    for case_id, old, new, _ in DIRECTION_CASES:
        old_path, new_path = write_pair(folder / case_id, old, new, name=SOURCE)
        exit_code, out, err = diff_cli(old_path, new_path)
        assert exit_code == 0, err
        changes += _walk_changes({entry["root"]: entry for entry in json.loads(out)["roots"]})
    return changes


def test_every_registered_kind_has_a_sentence_and_nothing_else_has_one():
    assert sorted(KINDS - SENTENCES.keys()) == [], "kinds without a sentence"
    assert sorted(SENTENCES.keys() - KINDS) == [], "sentences for kinds the walker never emits"


def test_every_kind_the_code_builds_or_matches_is_registered():
    built = kinds_built_in_code()
    assert len(built) > 20  # the scan sees the walker
    assert sorted(built - KINDS) == [], "kinds built or matched in code but not in KINDS"


def test_a_difference_of_an_unregistered_kind_is_refused():
    with pytest.raises(ValueError, match="unknown difference kind 'property-teleported'"):
        Difference("/p", "property-teleported")


def test_every_produced_change_has_its_sentence_in_both_languages(produced_changes):
    seen = {change["kind"] for change in produced_changes}
    for change in produced_changes:
        seen |= _inner_kinds(change["args"])
    assert sorted(seen - KINDS) == []
    # The fixtures and the direction table exercise nearly every kind; the rest are covered by the table below.
    assert len(seen) >= len(KINDS) - 6, sorted(KINDS - seen)
    for change in produced_changes:
        text = change["text"]
        assert text == explain(change["kind"], change["args"]).to_json()
        assert text["en"].strip() and not CJK.search(text["en"]), change
        assert CJK.search(text["zh"]), change
        assert "\n" not in text["en"] + text["zh"]


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_every_kind_reads_in_both_languages_even_without_its_arguments(kind):
    sentence = explain(kind, {"inner": "structure-changed"} if kind in (
        "applicator-changed", "exclusive-alternative-widened") else {})
    assert sentence.en.strip() and not CJK.search(sentence.en)
    assert CJK.search(sentence.zh)


SENTENCE_TABLE = [
    # (kind, args, English, Chinese)
    ("optional-property-added", {"property": "last4", "admitted": "true"}, "property `last4` added", "新增属性 `last4`"),
    ("optional-property-added", {"property": "note", "admitted": "false"},
     "property `note` added where the old content model did not admit the name", "新增属性 `note`（旧内容模型不允许该名称）"),
    ("optional-property-added", {"property": "old", "admitted": "true", "reserved": "true"},
     "reserved property `old` added", "新增保留属性 `old`"),
    ("required-property-added", {"property": "id"}, "required property `id` added", "新增必填属性 `id`"),
    ("property-removed", {"property": "a", "required": "false"}, "property `a` removed", "删除属性 `a`"),
    ("property-removed", {"property": "a", "required": "true"}, "required property `a` removed", "删除必填属性 `a`"),
    ("required-made-optional", {"property": "a"}, "required property `a` made optional", "必填属性 `a` 改为可选"),
    ("optional-made-required", {"property": "a"}, "optional property `a` made required", "可选属性 `a` 改为必填"),
    ("reserved-made-real", {"property": "x"}, "reserved property `x` given a real type", "保留属性 `x` 被赋予了实际类型"),
    ("property-made-reserved", {"property": "x"}, "property `x` made reserved", "属性 `x` 改为保留属性"),
    ("constraint-changed", {"keyword": "maxLength", "old": "10", "new": "12"},
     "maxLength raised from 10 to 12", "maxLength 从 10 提高到 12"),
    ("constraint-changed", {"keyword": "minimum", "old": "11", "new": "10"},
     "minimum lowered from 11 to 10", "minimum 从 11 降低到 10"),
    ("constraint-changed", {"keyword": "pattern", "old": '"^a"', "new": '"^b"'},
     'pattern changed from "^a" to "^b"', 'pattern 从 "^a" 改为 "^b"'),
    ("constraint-changed", {"keyword": "x-rules", "old": '{"a":1}', "new": '{"a":2}',
                            "detail": "Value of root['a'] changed from 1 to 2."},
     "x-rules changed: Value of root['a'] changed from 1 to 2.", "x-rules 发生了变化：Value of root['a'] changed from 1 to 2."),
    ("constraint-added", {"keyword": "maxLength", "new": "32"}, "constraint maxLength 32 added", "新增约束 maxLength 32"),
    ("constraint-removed", {"keyword": "pattern", "old": '"^a"'}, 'constraint pattern "^a" removed', '删除约束 pattern "^a"'),
    # const 1 -> enum [1, 2], and back
    ("enum-value-added", {"values": "2"}, "value 2 admitted", "新增允许值 2"),
    ("enum-value-removed", {"values": "3"}, "value 3 no longer admitted", "不再允许值 3"),
    ("enum-value-added", {"values": '"card", "cash, exact"'}, 'values "card", "cash, exact" admitted',
     '新增允许值 "card"、"cash, exact"'),
    ("literal-changed", {"old": "1", "new": "2"}, "const changed from 1 to 2", "常量值从 1 改为 2"),
    ("type-changed", {"old": "primitive", "new": "primitive", "old_type": "string", "new_type": "integer"},
     "type changed from string to integer", "类型从 string 改为 integer"),
    ("type-changed", {"old": "primitive", "new": "object", "old_type": "string"},
     "type changed from string to object", "类型从 string 改为 对象"),
    ("type-changed", {"old": "literal", "new": "array"}, "type changed from const to array", "类型从 常量 改为 数组"),
    ("type-widened-to-any", {"old": "object"}, "type widened from object to any value", "类型从 对象 放宽为任意值"),
    ("content-model-changed", {"old": "open", "new": "closed"}, "content model changed from open to closed",
     "内容模型从开放改为封闭"),
    ("content-model-changed", {"old": "closed", "new": "schema"}, "content model changed from closed to typed",
     "内容模型从封闭改为带类型"),
    ("pattern-property-added", {"pattern": "^x-"}, "pattern property `^x-` added", "新增模式属性 `^x-`"),
    ("pattern-property-removed", {"pattern": "^x-"}, "pattern property `^x-` removed", "删除模式属性 `^x-`"),
    ("tuple-item-added", {"position": "2"}, "tuple position 2 added", "新增元组位置 2"),
    ("tuple-item-removed", {"position": "0"}, "tuple position 0 removed", "删除元组位置 0"),
    ("operand-added", {}, "allOf operand added", "新增 allOf 成员"),
    ("operand-removed", {}, "allOf operand removed", "删除 allOf 成员"),
    ("alternative-added", {"alternative": "MoneyWithdrawn", "qualified": "false"}, "alternative `MoneyWithdrawn` added",
     "新增分支 `MoneyWithdrawn`"),
    ("alternative-removed", {"alternative": "card"}, "alternative `card` removed", "删除分支 `card`"),
    ("alternative-added", {"alternative": "MoneyWithdrawn", "event_type": "ledger:MoneyWithdrawn", "qualified": "false"},
     "alternative `MoneyWithdrawn` added (event root `ledger:MoneyWithdrawn`)",
     "新增分支 `MoneyWithdrawn`（事件根类型 `ledger:MoneyWithdrawn`）"),
    # a change inside an alternative names it, and the event root it is in
    ("optional-property-added", {"alternative": "card", "property": "last4", "admitted": "true"},
     "alternative `card` changed: property `last4` added", "分支 `card` 变更：新增属性 `last4`"),
    ("optional-property-added", {"event": "ledger:Paid", "property": "note", "admitted": "true"},
     "in event root `ledger:Paid`: property `note` added", "在事件根类型 `ledger:Paid` 中：新增属性 `note`"),
    ("required-property-added", {"alternative": "Paid", "event": "ledger:Paid", "property": "at"},
     "alternative `Paid` (event root `ledger:Paid`) changed: required property `at` added",
     "分支 `Paid`（事件根类型 `ledger:Paid`）变更：新增必填属性 `at`"),
    ("exclusive-alternative-widened", {"alternative": "card", "inner": "alternative-added", "qualified": "false"},
     "alternative `card` added, in a oneOf alternative that may overlap another",
     "新增分支 `card`（所在的 oneOf 分支可能与其他分支重叠）"),
    ("applicator-changed", {"alternative": "card", "keyword": "not", "inner": "enum-value-removed", "values": "1"},
     "alternative `card` changed: under not: value 1 no longer admitted", "分支 `card` 变更：在 not 中：不再允许值 1"),
    ("discriminator-changed", {"alternative": "Card", "old": '"card"', "new": '"card", "debit"'},
     'discriminator values of alternative `Card` changed from "card" to "card", "debit"',
     '分支 `Card` 的鉴别值从 "card" 改为 "card"、"debit"'),
    ("qualification-changed", {"alternative": "note", "old": "false", "new": "true"},
     "alternative `note` made qualified", "分支 `note` 改为带资格声明"),
    ("alternative-added", {}, "an alternative added", "新增一个分支"),
    ("alternative-removed", {}, "an alternative removed", "删除一个分支"),
    ("alternative-added", {"alternative": "note", "qualified": "true", "policy": "1", "old_policy": "1"},
     "qualified alternative `note` added", "新增带资格声明的分支 `note`"),
    ("exclusive-alternative-widened", {"inner": "required-made-optional", "property": "a"},
     "required property `a` made optional, in a oneOf alternative that may overlap another",
     "必填属性 `a` 改为可选（所在的 oneOf 分支可能与其他分支重叠）"),
    ("qualification-changed", {"old": "false", "new": "true"}, "alternative made qualified", "分支改为带资格声明"),
    ("qualification-changed", {"old": "true", "new": "false"}, "alternative no longer qualified", "分支不再带资格声明"),
    ("union-mode-changed", {"old": "anyOf", "new": "oneOf"}, "union changed from anyOf to oneOf",
     "联合类型从 anyOf 改为 oneOf"),
    ("discriminator-changed", {"new": '{"propertyName":"kind"}'},
     "discriminator changed from none to property `kind`", "鉴别器从无改为属性 `kind`"),
    ("discriminator-changed", {"old": '{"propertyName":"kind","values":["a"]}',
                               "new": '{"propertyName":"kind","values":["a","b"]}'},
     "mapping of discriminator `kind` changed", "鉴别器 `kind` 的映射发生了变化"),
    ("policy-changed", {"old": "1", "new": "2"}, "preservation policy changed from 1 to 2", "保留策略从 1 改为 2"),
    ("applicator-changed", {"keyword": "not", "inner": "constraint-changed", "inner_keyword": "maxLength",
                            "old": "3", "new": "5"},
     "under not: maxLength raised from 3 to 5", "在 not 中：maxLength 从 3 提高到 5"),
    ("applicator-changed", {"keyword": "not", "inner": "applicator-changed", "inner_keyword": "not",
                            "inner_inner": "enum-value-added", "values": "2"},
     "under not: under not: value 2 admitted", "在 not 中：在 not 中：新增允许值 2"),
    ("applicator-changed", {"keyword": "dependentSchemas", "inner": "operand-added", "property": "card"},
     "dependentSchemas entry `card` added", "新增 dependentSchemas 条目 `card`"),
    ("applicator-changed", {"keyword": "if-then-else", "inner": "required-property-added", "property": "b"},
     "under if/then/else: required property `b` added", "在 if/then/else 中：新增必填属性 `b`"),
    ("root-added", {"root": "sidecar:Artifact"}, "root `sidecar:Artifact` added", "新增根类型 `sidecar:Artifact`"),
    ("root-removed", {"root": "grp:Old"}, "root `grp:Old` removed", "删除根类型 `grp:Old`"),
    ("format-version-changed", {"old": '"0.2.0"', "new": '"0.2.1"'},
     "format version changed from `0.2.0` to `0.2.1`", "格式版本从 `0.2.0` 改为 `0.2.1`"),
    ("format-version-changed", {"old": "null", "new": "1"}, "format version changed from `null` to `1`",
     "格式版本从 `null` 改为 `1`"),
    ("role-changed", {"old": "record", "new": "event"}, "role changed from record to event", "角色从记录型改为事件"),
    ("mode-changed", {"old": "persistence", "new": "backward"}, "compatibility mode changed from persistence to backward",
     "兼容模式从 persistence 改为 backward"),
    ("inventory-format-changed", {"old": "1", "new": "2"}, "inventory format changed from 1 to 2", "清单格式从 1 改为 2"),
    ("structure-changed", {}, "the structure changed in a way no finer change describes",
     "结构发生了变化，但无法归入更具体的变更"),
    ("comparison-limit-reached", {"old_type": "T66", "new_type": "T643", "limit": "9008"},
     "types `T66` and `T643` differ and were not compared further: the comparison reached its limit of 9008 pairs "
     "of types", "类型 `T66` 与 `T643` 不同，但未再进一步比较：比较已达到 9008 对类型的上限"),
    ("comparison-limit-reached", {"old_type": "T0", "new_type": "T0", "limit": "100", "nesting": "true"},
     "types `T0` and `T0` differ and were not compared further: the comparison reached its limit of 100 comparisons "
     "nested one inside another", "类型 `T0` 与 `T0` 不同，但未再进一步比较：比较已达到 100 层嵌套比较的上限"),
    ("comparison-limit-reached", {"old_type": "T", "new_type": "T", "limit": "536008", "measure": "comparisons"},
     "types `T` and `T` differ and were not compared further: the comparison reached its limit of 536008 parts of "
     "schemas compared", "类型 `T` 与 `T` 不同，但未再进一步比较：比较已达到 536008 个模式部分的比较上限"),
]


@pytest.mark.parametrize("kind, args, english, chinese", SENTENCE_TABLE, ids=lambda v: v if isinstance(v, str) else "")
def test_sentence(kind, args, english, chinese):
    assert explain(kind, args).to_json() == {"en": english, "zh": chinese}
    assert explain(kind, sorted(args.items())) == explain(kind, args)  # pairs read like a mapping


def test_the_table_reads_every_kind():
    assert {kind for kind, *_ in SENTENCE_TABLE} == KINDS


def test_a_long_value_is_cut_in_the_sentence_only():
    value = json.dumps("x" * 200)
    sentence = explain("constraint-added", {"keyword": "x-long", "new": value})
    assert sentence.en.endswith("…" + " added") and len(sentence.en) < 100


@pytest.mark.parametrize("text, shown", [("last4", "`last4`"), ("a`b", "``a`b``"), ("`x", "`` `x ``"), ("", "`  `")])
def test_names_are_code_spans_whatever_they_hold(text, shown):
    assert code(text) == shown


def test_const_to_enum_reads_as_an_admitted_value(tmp_path):
    """`const 1` -> `enum [1, 2]` is one value admitted; the reverse one value no longer admitted."""
    one, two = ({"$schema": "https://json-schema.org/draft/2020-12/schema", "title": "Doc", "type": "object",
                 "properties": {"n": schema}} for schema in ({"const": 1}, {"enum": [1, 2]}))
    for old, new, english, chinese in ((one, two, "value 2 admitted", "新增允许值 2"),
                                       (two, one, "value 2 no longer admitted", "不再允许值 2")):
        old_path, new_path = write_pair(tmp_path / english.replace(" ", "-"), old, new, name=SOURCE)
        (change,) = json.loads(diff_cli(old_path, new_path)[1])["roots"][0]["changes"]
        assert change["text"] == {"en": english, "zh": chinese}
        text = diff_cli(old_path, new_path, "text")[1]
        assert f"/properties/n  {change['kind']} (enum-changed): {english} [breaks" in text


def test_an_applicator_keeps_the_inner_keyword_beside_its_own(tmp_path):
    """Under `not`, the inner constraint's keyword is kept (as inner_keyword) beside the applicator's. (A
    length bound under `not` applies to strings only: the operand is read as alternatives by type, which
    are no alternatives the source wrote, so the sentence and the path name none.)"""
    schemas = [{"$schema": "https://json-schema.org/draft/2020-12/schema", "title": "Doc", "type": "object",
                "properties": {"p": {"type": "string", "not": {"maxLength": length}}}} for length in (3, 5)]
    old_path, new_path = write_pair(tmp_path, *schemas, name=SOURCE)
    changes = json.loads(diff_cli(old_path, new_path)[1])["roots"][0]["changes"]
    [change] = [change for change in changes if change["kind"] == "applicator-changed"]
    assert change["args"]["keyword"] == "not" and change["args"]["inner_keyword"] == "maxLength"
    assert change["text"]["en"] == "under not: maxLength raised from 3 to 5"
    assert change["path"] == "/properties/p/not/maxLength"
