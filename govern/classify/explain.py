"""Readable sentences for changes, in English and Chinese: one small function per difference kind.

A change stays data (path, kind, rule, arguments); where it is shown (`govern diff`, verify's messages,
records, archives) this registry turns its kind and arguments into a sentence: "property `last4` added" /
"新增属性 `last4`", "maxLength raised from 10 to 12", "value 2 admitted". Concepts take their words from
the glossary (`govern.terms`); names (properties, patterns, discriminator values) are shown as code,
values as their canonical JSON.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Callable

from govern.classify.changes import APPLICATORS_BEYOND, INNER_PREFIX
from govern.terms import term, value_term

LANGUAGES = ("en", "zh")
VALUE_LIMIT = 60  # longer values (verbatim keywords) are cut in a sentence; the arguments keep them whole
CUT = "…"


@dataclass(frozen=True)
class Sentence:
    en: str
    zh: str

    def text(self, language: str) -> str:
        """The sentence in a language; English for a language govern has no sentences in."""
        return self.zh if language == "zh" else self.en

    def to_json(self) -> dict[str, str]:
        return {"en": self.en, "zh": self.zh}


Arguments = Mapping[str, str]
SENTENCES: dict[str, Callable[[Arguments], Sentence]] = {}


def sentence(kind: str):
    def register(function: Callable[[Arguments], Sentence]) -> Callable[[Arguments], Sentence]:
        SENTENCES[kind] = function
        return function

    return register


def explain(kind: str, args: Mapping[str, str] | Iterable[tuple[str, str]] = ()) -> Sentence:
    """The sentence of a change of this kind with these arguments, saying the union alternative and the
    event root it is in when the arguments name them."""
    values = dict(args.items() if isinstance(args, Mapping) else args)
    return _in_context(kind, values, SENTENCES[kind](values))


# Kinds whose own sentence names the alternative they concern (a wrapper: when its inner kind does).
_NAMING_ALTERNATIVE = frozenset({"alternative-added", "alternative-removed", "qualification-changed",
                                 "discriminator-changed"})


def _in_context(kind: str, args: Arguments, said: Sentence) -> Sentence:
    """A change inside a union alternative or an event root another root reaches says where it is."""
    alternative, event = args.get("alternative"), args.get("event")
    effective = args.get("inner", kind) if kind == "exclusive-alternative-widened" else kind
    alt_en, alt_zh = _both("alternative")
    event_en, event_zh = f"event {term('root', 'en')}", f"{value_term('event', 'zh')}{term('root', 'zh')}"
    event_type = args.get("event_type")
    if effective == "alternative-added" and event_type is not None:  # an event type added: it is that event root
        said = Sentence(f"{said.en} ({event_en} {code(event_type)})", f"{said.zh}（{event_zh} {code(event_type)}）")
    if effective in _NAMING_ALTERNATIVE or alternative is None:
        if event is None:
            return said
        return Sentence(f"in {event_en} {code(event)}: {said.en}", f"在{event_zh} {code(event)} 中：{said.zh}")
    where_en = f"{alt_en} {code(alternative)}" + (f" ({event_en} {code(event)})" if event is not None else "")
    where_zh = f"{alt_zh} {code(alternative)}" + (f"（{event_zh} {code(event)}）" if event is not None else "")
    return Sentence(f"{where_en} changed: {said.en}", f"{where_zh}{'' if event is not None else ' '}变更：{said.zh}")


def explain_change(change) -> Sentence:
    """The sentence of a classified change (anything with `kind` and `args`)."""
    return explain(change.kind, change.args)


# --- how names and values are shown ----------------------------------------------------------------


def code(text: str) -> str:
    """A Markdown code span that holds any text, backticks included."""
    run = longest = 0
    for character in text:
        run = run + 1 if character == "`" else 0
        longest = max(longest, run)
    fence = "`" * (longest + 1)
    padded = f" {text} " if text.startswith("`") or text.endswith("`") or not text.strip() else text
    return f"{fence}{padded}{fence}"


def _cut(text: str) -> str:
    return text if len(text) <= VALUE_LIMIT else text[:VALUE_LIMIT - 1] + CUT


def _value(text: str | None) -> str:
    """A value as its canonical JSON text (how arguments hold it), cut when long."""
    return "none" if text is None else _cut(text)


def _plain(text: str | None, language: str) -> str:
    """A JSON value where a string reads as a name: `0.2.1` rather than "0.2.1"."""
    if text is None:
        return "无" if language == "zh" else "none"
    try:
        value = json.loads(text)
    except ValueError:
        value = text
    return code(value if isinstance(value, str) else _cut(text))


def _values(text: str) -> tuple[int, str, str]:
    """How many values a `values` argument (canonical JSON texts joined by ", ") holds, and the list in
    each language."""
    try:
        items = [json.dumps(value, ensure_ascii=False, separators=(",", ":"))
                 for value in json.loads(f"[{text}]")]
    except ValueError:
        items = [text]
    items = [_cut(item) for item in items]
    return len(items), ", ".join(items), "、".join(items)


def _name(args: Arguments, key: str) -> str:
    return code(args.get(key, ""))


def _unwrapped(args: Arguments, *own: str) -> dict[str, str]:
    """The arguments of the difference a wrapper carries (see `govern.classify.changes.wrapped_args`)."""
    return {name.removeprefix(INNER_PREFIX) if name.startswith(INNER_PREFIX) else name: value
            for name, value in args.items() if name not in own}


def _both(concept: str) -> tuple[str, str]:
    return term(concept, "en"), term(concept, "zh")


# The kinds of nodes, as a type change names them (a primitive by its JSON type).
NODE_KINDS = {
    "literal": ("const", "常量"),
    "enum": ("enum", "枚举"),
    "object": ("object", "对象"),
    "map": ("map", "映射"),
    "array": ("array", "数组"),
    "tuple": ("tuple", "元组"),
    "union": ("union", "联合类型"),
    "intersection": ("allOf", "allOf"),
    "applicator": ("applicator", "应用关键字"),
    "opaque": ("unstructured schema", "无结构模式"),
    "never": ("nothing (false)", "不接受任何值（false）"),
}
CONTENT_MODELS = {"open": ("open", "开放"), "closed": ("closed", "封闭"), "schema": ("typed", "带类型")}


def _node_kind(args: Arguments, side: str) -> tuple[str, str]:
    primitive = args.get(f"{side}_type")
    if primitive:
        return primitive, primitive
    kind = args.get(side, "")
    return NODE_KINDS.get(kind, (kind, kind))


def _numbers(old: str | None, new: str | None) -> tuple[float, float] | None:
    try:
        before, after = json.loads(old), json.loads(new)
    except (TypeError, ValueError):
        return None
    if all(isinstance(value, (int, float)) and not isinstance(value, bool) for value in (before, after)):
        return before, after
    return None


# --- roots and framing ------------------------------------------------------------------------------


@sentence("root-added")
def _root_added(args: Arguments) -> Sentence:
    return Sentence(f"{term('root', 'en')} {_name(args, 'root')} added", f"新增{term('root', 'zh')} {_name(args, 'root')}")


@sentence("root-removed")
def _root_removed(args: Arguments) -> Sentence:
    return Sentence(f"{term('root', 'en')} {_name(args, 'root')} removed",
                    f"删除{term('root', 'zh')} {_name(args, 'root')}")


def _changed(subject_en: str, subject_zh: str, old_en, new_en, old_zh=None, new_zh=None) -> Sentence:
    """"<subject> changed from <old> to <new>" in both languages (the Chinese sides default to the English)."""
    old_zh = old_en if old_zh is None else old_zh
    new_zh = new_en if new_zh is None else new_zh
    return Sentence(f"{subject_en} changed from {old_en} to {new_en}", f"{subject_zh}从 {old_zh} 改为 {new_zh}")


@sentence("format-version-changed")
def _format_version_changed(args: Arguments) -> Sentence:
    en, zh = _both("format-version")
    return _changed(en, zh, _plain(args.get("old"), "en"), _plain(args.get("new"), "en"),
                    _plain(args.get("old"), "zh"), _plain(args.get("new"), "zh"))


@sentence("role-changed")
def _role_changed(args: Arguments) -> Sentence:
    old, new = args.get("old", ""), args.get("new", "")
    return Sentence(f"role changed from {old} to {new}",
                    f"角色从{value_term(old, 'zh')}改为{value_term(new, 'zh')}")


@sentence("inventory-format-changed")
def _inventory_format_changed(args: Arguments) -> Sentence:
    en, zh = _both("inventory")
    return _changed(f"{en} format", f"{zh}格式", args.get("old"), args.get("new"))


@sentence("mode-changed")
def _mode_changed(args: Arguments) -> Sentence:
    return _changed("compatibility mode", "兼容模式", args.get("old"), args.get("new"))


@sentence("structure-changed")
def _structure_changed(args: Arguments) -> Sentence:
    return Sentence("the structure changed in a way no finer change describes",
                    "结构发生了变化，但无法归入更具体的变更")


@sentence("comparison-limit-reached")
def _comparison_limit_reached(args: Arguments) -> Sentence:
    old, new, limit = args.get("old_type"), args.get("new_type"), args.get("limit", "")
    if old is not None and new is not None:
        en, zh = f"types {code(old)} and {code(new)}", f"类型 {code(old)} 与 {code(new)} "
    else:  # a type compared in place with a union's alternative: only the alternative's type has a name
        named = old if old is not None else new
        en, zh = (f"type {code(named)} and its counterpart", f"类型 {code(named)} 与其对应类型") if named is not None \
            else ("the types here", "此处的类型")
    if args.get("measure") == "comparisons":  # as much compared in all as the walk allows
        return Sentence(f"{en} differ and were not compared further: the comparison reached its limit of {limit} "
                        "parts of schemas compared", f"{zh}不同，但未再进一步比较：比较已达到 {limit} 个模式部分的比较上限")
    if args.get("nesting") == "true":  # a question asked inside as many others as the walk allows
        return Sentence(f"{en} differ and were not compared further: the comparison reached its limit of {limit} "
                        "comparisons nested one inside another",
                        f"{zh}不同，但未再进一步比较：比较已达到 {limit} 层嵌套比较的上限")
    return Sentence(f"{en} differ and were not compared further: the comparison reached its limit of {limit} "
                    "pairs of types", f"{zh}不同，但未再进一步比较：比较已达到 {limit} 对类型的上限")


# --- types and values -------------------------------------------------------------------------------


@sentence("type-changed")
def _type_changed(args: Arguments) -> Sentence:
    (old_en, old_zh), (new_en, new_zh) = _node_kind(args, "old"), _node_kind(args, "new")
    return _changed("type", "类型", old_en, new_en, old_zh, new_zh)


@sentence("type-widened-to-any")
def _type_widened_to_any(args: Arguments) -> Sentence:
    old_en, old_zh = _node_kind(args, "old")
    return Sentence(f"type widened from {old_en} to any value", f"类型从 {old_zh} 放宽为任意值")


@sentence("literal-changed")
def _literal_changed(args: Arguments) -> Sentence:
    old, new = _value(args.get("old")), _value(args.get("new"))
    return _changed("const", "常量值", old, new)


@sentence("enum-value-added")
def _enum_value_added(args: Arguments) -> Sentence:
    count, en, zh = _values(args.get("values", ""))
    return Sentence(f"{'value' if count == 1 else 'values'} {en} admitted", f"新增允许值 {zh}")


@sentence("enum-value-removed")
def _enum_value_removed(args: Arguments) -> Sentence:
    count, en, zh = _values(args.get("values", ""))
    return Sentence(f"{'value' if count == 1 else 'values'} {en} no longer admitted", f"不再允许值 {zh}")


# --- properties and content models ------------------------------------------------------------------


@sentence("property-removed")
def _property_removed(args: Arguments) -> Sentence:
    name, (en, zh) = _name(args, "property"), _both("property")
    if args.get("required") == "true":
        return Sentence(f"required {en} {name} removed", f"删除必填{zh} {name}")
    return Sentence(f"{en} {name} removed", f"删除{zh} {name}")


@sentence("optional-property-added")
def _optional_property_added(args: Arguments) -> Sentence:
    name, (en, zh) = _name(args, "property"), _both("property")
    reserved = args.get("reserved") == "true"
    added = Sentence(f"reserved {en} {name} added" if reserved else f"{en} {name} added",
                     f"新增保留{zh} {name}" if reserved else f"新增{zh} {name}")
    if args.get("admitted") == "false":
        model_en, model_zh = _both("content-model")
        return Sentence(f"{added.en} where the old {model_en} did not admit the name",
                        f"{added.zh}（旧{model_zh}不允许该名称）")
    return added


# Kinds that say what happened to one named property (or pattern property): English and Chinese templates,
# where {property} is the glossary's word and {name} the property's name (the argument given).
NAMED_PROPERTY_TEMPLATES = {
    "required-property-added": ("property", "required {property} {name} added", "新增必填{property} {name}"),
    "required-made-optional": ("property", "required {property} {name} made optional", "必填{property} {name} 改为可选"),
    "optional-made-required": ("property", "optional {property} {name} made required", "可选{property} {name} 改为必填"),
    "reserved-made-real": ("property", "reserved {property} {name} given a real type",
                           "保留{property} {name} 被赋予了实际类型"),
    "property-made-reserved": ("property", "{property} {name} made reserved", "{property} {name} 改为保留{property}"),
    "pattern-property-added": ("pattern", "pattern {property} {name} added", "新增模式{property} {name}"),
    "pattern-property-removed": ("pattern", "pattern {property} {name} removed", "删除模式{property} {name}"),
}


def _named_property(kind: str) -> Callable[[Arguments], Sentence]:
    argument, english, chinese = NAMED_PROPERTY_TEMPLATES[kind]

    def render(args: Arguments) -> Sentence:
        name, (en, zh) = _name(args, argument), _both("property")
        return Sentence(english.format(property=en, name=name), chinese.format(property=zh, name=name))

    return render


for _kind in NAMED_PROPERTY_TEMPLATES:
    sentence(_kind)(_named_property(_kind))


@sentence("content-model-changed")
def _content_model_changed(args: Arguments) -> Sentence:
    en, zh = _both("content-model")
    old, new = (CONTENT_MODELS.get(args.get(side, ""), (args.get(side, ""),) * 2) for side in ("old", "new"))
    return Sentence(f"{en} changed from {old[0]} to {new[0]}", f"{zh}从{old[1]}改为{new[1]}")


# --- arrays and composition -------------------------------------------------------------------------


@sentence("tuple-item-added")
def _tuple_item_added(args: Arguments) -> Sentence:
    return Sentence(f"tuple position {args.get('position')} added", f"新增元组位置 {args.get('position')}")


@sentence("tuple-item-removed")
def _tuple_item_removed(args: Arguments) -> Sentence:
    return Sentence(f"tuple position {args.get('position')} removed", f"删除元组位置 {args.get('position')}")


@sentence("operand-added")
def _operand_added(args: Arguments) -> Sentence:
    keywords = _operand_keywords(args)
    if keywords is None:
        return Sentence("allOf operand added", "新增 allOf 成员")
    return Sentence(f"{keywords[0]} added", f"新增{keywords[1]}")


@sentence("operand-removed")
def _operand_removed(args: Arguments) -> Sentence:
    keywords = _operand_keywords(args)
    if keywords is None:
        return Sentence("allOf operand removed", "删除 allOf 成员")
    return Sentence(f"{keywords[0]} removed", f"删除{keywords[1]}")


def _operand_keywords(args: Arguments) -> tuple[str, str] | None:
    """An operand written beside the schema's other keywords, named by the keywords that hold it (English,
    Chinese); None for an operand of `allOf`."""
    keyword = args.get("keyword")
    if keyword is None or keyword == "allOf":
        return None
    if not keyword:
        return "keywords", "关键字"
    names = ", ".join(code(name) for name in keyword.split(", "))
    return names, f" {names}"


APPLICATOR_NAMES = {"if-then-else": "if/then/else"}


@sentence("applicator-changed")
def _applicator_changed(args: Arguments) -> Sentence:
    keyword = APPLICATOR_NAMES.get(args.get("keyword", ""), args.get("keyword", ""))
    inner = args.get("inner", "")
    if inner in ("operand-added", "operand-removed") and "property" in args:
        entry = _name(args, "property")  # a dependentSchemas entry, named by the property it applies to
        if inner == "operand-added":
            return Sentence(f"{keyword} entry {entry} added", f"新增 {keyword} 条目 {entry}")
        return Sentence(f"{keyword} entry {entry} removed", f"删除 {keyword} 条目 {entry}")
    wrapped = SENTENCES[inner](_unwrapped(args, "keyword", "inner", APPLICATORS_BEYOND))
    beyond = args.get(APPLICATORS_BEYOND)
    if beyond is not None:  # the outermost applicators, counted, not named (see APPLICATORS_NAMED)
        more = "1 more applicator" if beyond == "1" else f"{beyond} more applicators"
        return Sentence(f"under {more}, then under {keyword}: {wrapped.en}",
                        f"在另外 {beyond} 层应用关键字之内，在 {keyword} 中：{wrapped.zh}")
    return Sentence(f"under {keyword}: {wrapped.en}", f"在 {keyword} 中：{wrapped.zh}")


# --- unions -----------------------------------------------------------------------------------------


def _alternative_name(args: Arguments) -> str:
    """How a reader knows an alternative: its discriminator value, else its type's name (as the walker says)."""
    name = args.get("alternative")
    return "" if name is None else code(name)


@sentence("alternative-added")
def _alternative_added(args: Arguments) -> Sentence:
    name, (en, zh) = _alternative_name(args), _both("alternative")
    qualified = args.get("qualified") == "true"
    if not name:
        return Sentence(f"qualified {en} added" if qualified else f"an {en} added",
                        f"新增一个带资格声明的{zh}" if qualified else f"新增一个{zh}")
    return Sentence(f"qualified {en} {name} added" if qualified else f"{en} {name} added",
                    f"新增带资格声明的{zh} {name}" if qualified else f"新增{zh} {name}")


@sentence("alternative-removed")
def _alternative_removed(args: Arguments) -> Sentence:
    name, (en, zh) = _alternative_name(args), _both("alternative")
    if not name:
        return Sentence(f"an {en} removed", f"删除一个{zh}")
    return Sentence(f"{en} {name} removed", f"删除{zh} {name}")


@sentence("exclusive-alternative-widened")
def _exclusive_alternative_widened(args: Arguments) -> Sentence:
    wrapped = SENTENCES[args.get("inner", "")](_unwrapped(args, "inner"))
    en, zh = _both("alternative")
    return Sentence(f"{wrapped.en}, in a oneOf {en} that may overlap another",
                    f"{wrapped.zh}（所在的 oneOf {zh}可能与其他{zh}重叠）")


@sentence("qualification-changed")
def _qualification_changed(args: Arguments) -> Sentence:
    en, zh = _both("alternative")
    name = _alternative_name(args)
    if name:
        en, zh = f"{en} {name}", f"{zh} {name} "
    if args.get("new") == "true":
        return Sentence(f"{en} made qualified", f"{zh}改为带资格声明")
    return Sentence(f"{en} no longer qualified", f"{zh}不再带资格声明")


@sentence("union-mode-changed")
def _union_mode_changed(args: Arguments) -> Sentence:
    return _changed("union", "联合类型", args.get("old"), args.get("new"))


def _discriminator(text: str | None) -> tuple[str | None, bool]:
    """The property a discriminator names and whether it maps values to alternatives."""
    if text is None:
        return None, False
    try:
        value = json.loads(text)
    except ValueError:
        return text, False
    if not isinstance(value, dict):
        return text, False
    return str(value.get("propertyName", "")), bool(value.get("mapping") or value.get("values"))


@sentence("discriminator-changed")
def _discriminator_changed(args: Arguments) -> Sentence:
    if "alternative" in args:  # the values a discriminator mapping binds to one alternative
        name, (en, zh) = _alternative_name(args), _both("alternative")
        (_, old_en, old_zh), (_, new_en, new_zh) = _values(args.get("old", "")), _values(args.get("new", ""))
        return _changed(f"discriminator values of {en} {name}", f"{zh} {name} 的鉴别值",
                        old_en or "none", new_en or "none", old_zh or "无", new_zh or "无")
    (old, old_mapping), (new, new_mapping) = _discriminator(args.get("old")), _discriminator(args.get("new"))
    if old is not None and old == new:
        return Sentence(f"mapping of discriminator {code(old)} changed", f"鉴别器 {code(old)} 的映射发生了变化")

    def side(name: str | None, mapping: bool, language: str) -> str:
        if name is None:
            return "无" if language == "zh" else "none"
        if language == "zh":
            return f"属性 {code(name)}" + ("（带映射）" if mapping else "")
        return f"property {code(name)}" + (" with a mapping" if mapping else "")

    return Sentence(f"discriminator changed from {side(old, old_mapping, 'en')} to {side(new, new_mapping, 'en')}",
                    f"鉴别器从{side(old, old_mapping, 'zh')}改为{side(new, new_mapping, 'zh')}")


@sentence("policy-changed")
def _policy_changed(args: Arguments) -> Sentence:
    old, new = args.get("old"), args.get("new")
    return _changed("preservation policy", "保留策略", old or "none", new or "none", old or "无", new or "无")


# --- constraints ------------------------------------------------------------------------------------


@sentence("constraint-added")
def _constraint_added(args: Arguments) -> Sentence:
    keyword, value, (en, zh) = args.get("keyword", ""), _value(args.get("new")), _both("constraint")
    return Sentence(f"{en} {keyword} {value} added", f"新增{zh} {keyword} {value}")


@sentence("constraint-removed")
def _constraint_removed(args: Arguments) -> Sentence:
    keyword, value, (en, zh) = args.get("keyword", ""), _value(args.get("old")), _both("constraint")
    return Sentence(f"{en} {keyword} {value} removed", f"删除{zh} {keyword} {value}")


@sentence("constraint-changed")
def _constraint_changed(args: Arguments) -> Sentence:
    keyword, old, new = args.get("keyword", ""), args.get("old"), args.get("new")
    numbers = _numbers(old, new)
    if numbers is not None:
        raised = numbers[1] > numbers[0]
        return Sentence(f"{keyword} {'raised' if raised else 'lowered'} from {old} to {new}",
                        f"{keyword} 从 {old} {'提高' if raised else '降低'}到 {new}")
    detail = args.get("detail")
    if detail is not None:  # a structured value: what inside it changed says more than both whole values
        return Sentence(f"{keyword} changed: {detail}", f"{keyword} 发生了变化：{detail}")
    return _changed(keyword, f"{keyword} ", _value(old), _value(new))
