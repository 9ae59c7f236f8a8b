"""The rule table: the only registry of compatibility rules.

A rule is metadata (stable kebab-case id, purpose in English and Chinese, minimum decision) and one small
function that says whether it decides a difference. Rules are tried in table order and the first that
matches decides; the last rule matches everything, so a difference no rule can prove same-version is a
version-bump. The decision of a root is the maximum over its changes, so an allowed change never hides a
breaking one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from govern.classify.changes import Difference

SAME_VERSION = "same-version"
VERSION_BUMP = "version-bump"
DECISIONS = (SAME_VERSION, VERSION_BUMP)
STRICT_ROLES = ("header", "envelope")


@dataclass(frozen=True)
class RuleContext:
    role: str  # the root's role (the stricter of old and new)


@dataclass(frozen=True)
class Rule:
    id: str
    decision: str
    purpose_en: str
    purpose_zh: str
    matches: Callable[[Difference, RuleContext], bool]


RULES: list[Rule] = []


def rule(rule_id: str, decision: str, purpose_en: str, purpose_zh: str):
    def register(function: Callable[[Difference, RuleContext], bool]) -> Callable[[Difference, RuleContext], bool]:
        RULES.append(Rule(rule_id, decision, purpose_en, purpose_zh, function))
        return function

    return register


@rule("format-version-changed", VERSION_BUMP,
      "The source's format version (its writer constant) changed: that is itself a version transition, "
      "recorded as a version-bump that raises the version.",
      "源的格式版本（写入方常量）发生了变化：这本身就是一次版本迁移，应记录为提高该版本的 version-bump。")
def _format_version_changed(difference: Difference, context: RuleContext) -> bool:
    return difference.kind == "format-version-changed"


# A root's compatibility mode is no structure: it lives in the configuration and each record stores the
# mode it was decided in. These rules precede the role rules, which would otherwise claim every change of
# a header or envelope root.
@rule("mode-strengthened", SAME_VERSION,
      "The source's compatibility mode became at least as strict (it checks every break direction the old "
      "mode checked, against at least as many records): no change it allows was refused before.",
      "来源的兼容模式变得至少同样严格（它检查旧模式检查的每个破坏方向，且对照至少同样多的记录）：它允许的变更以前也不会被拒绝。")
def _mode_strengthened(difference: Difference, context: RuleContext) -> bool:
    from govern.classify.modes import at_least_as_strict  # the modes build on this table

    return difference.kind == "mode-changed" and at_least_as_strict(difference.arg("new"), difference.arg("old"))


@rule("mode-changed", VERSION_BUMP,
      "The source's compatibility mode was weakened, or changed to or from persistence: changes it allows "
      "may break what the old mode protected, so the change of mode is itself a version transition.",
      "来源的兼容模式被放宽，或改为 persistence、由 persistence 改为其他模式：新模式允许的变更可能破坏旧模式所保护的内容，"
      "因此更改模式本身就是一次版本迁移。")
def _mode_changed(difference: Difference, context: RuleContext) -> bool:
    return difference.kind == "mode-changed"


@rule("event-type-added", SAME_VERSION,
      "An ordinary event type (an event root) was added to a union of events, such as an envelope's: no "
      "stored data holds it. Readers not yet upgraded reject it (new data, old readers), so readers are "
      "upgraded before writers emit it.",
      "向事件联合类型（例如信封中的事件联合）新增了普通事件类型（一个事件根类型）：已存储的数据中没有它。"
      "尚未升级的读取方会拒绝它（新数据、旧读取方），因此读取方应在写入方写出它之前升级。")
def _event_type_added(difference: Difference, context: RuleContext) -> bool:
    # `event_type`: the added alternative is itself an event root (not a change inside one, which says `event`).
    return (difference.kind == "alternative-added" and difference.arg("event_type") is not None
            and difference.arg("policy") is None and difference.arg("qualified") != "true")


@rule("header-or-envelope-changed", VERSION_BUMP,
      "Any structural change to a header or envelope root's own structure changes how every record is framed. "
      "A change inside an event root the envelope reaches is judged by that event root's rules.",
      "头部或信封类根类型自身结构的任何变更都会改变所有记录的外层格式。信封所引用的事件根类型内部的变更按该事件根类型的规则判定。")
def _header_or_envelope(difference: Difference, context: RuleContext) -> bool:
    return context.role in STRICT_ROLES and difference.arg("event") is None


@rule("root-removed", VERSION_BUMP,
      "A root type was removed: stored data of that type can no longer be read.",
      "删除了根类型：该类型已存储的数据将无法再被读取。")
def _root_removed(difference: Difference, context: RuleContext) -> bool:
    return difference.kind == "root-removed"


@rule("root-added", SAME_VERSION,
      "A new record or event root: no existing data has that type, and old readers never meet it.",
      "新增记录或事件根类型：现有数据中没有该类型，旧读取方也不会遇到它。")
def _root_added(difference: Difference, context: RuleContext) -> bool:
    return difference.kind == "root-added"


@rule("exclusive-alternative-widened", VERSION_BUMP,
      "An alternative of a oneOf was widened (or added) while it may overlap another alternative: an "
      "instance that now matches two alternatives is rejected, so old data can fail. Only alternatives "
      "proven disjoint (different JSON types, or different values of a required const or enum property) "
      "allow the change at the same version.",
      "oneOf 的某个分支被放宽（或新增），而它可能与其他分支重叠：同时匹配两个分支的实例会被拒绝，旧数据因此可能失效。"
      "只有可证明互不相交的分支（JSON 类型不同，或某个必填 const/enum 属性的取值不同）才允许在同一版本内做此变更。")
def _exclusive_alternative_widened(difference: Difference, context: RuleContext) -> bool:
    return difference.kind == "exclusive-alternative-widened"


@rule("optional-property-added", SAME_VERSION,
      "An optional property (with its whole subtree) was added where the old content model admitted the "
      "name: old data may omit it, and old readers ignore it.",
      "在旧内容模型已允许该名称的位置新增了可选属性（含其整个子树）：旧数据可以省略它，旧读取方会忽略它。")
def _optional_property_added(difference: Difference, context: RuleContext) -> bool:
    return (difference.kind == "optional-property-added" and difference.arg("admitted") == "true"
            and difference.arg("reserved") is None)


@rule("optional-property-added-to-closed", VERSION_BUMP,
      "An optional property was added where the old content model did not admit the name (a closed object, "
      "a pattern or a typed content model): old readers reject data that carries it.",
      "在旧内容模型不允许该名称的位置（封闭对象、模式属性或带类型的内容模型）新增了可选属性：旧读取方会拒绝带有它的数据。")
def _optional_property_added_closed(difference: Difference, context: RuleContext) -> bool:
    return difference.kind == "optional-property-added"


@rule("required-made-optional", SAME_VERSION,
      "A required property became optional: old data still has it; readers must handle its absence.",
      "必填属性改为可选：旧数据仍然包含它；读取方必须处理其缺失的情况。")
def _required_made_optional(difference: Difference, context: RuleContext) -> bool:
    return difference.kind == "required-made-optional"


@rule("qualified-kind-added", SAME_VERSION,
      "A qualified attribution kind was added to a source slot whose policy is the same before and after: "
      "readers preserve unknown kinds and their metadata.",
      "向前后策略相同的来源槽位新增了带资格声明的归属种类：读取方会保留未知种类及其元数据。")
def _qualified_kind_added(difference: Difference, context: RuleContext) -> bool:
    return (difference.kind == "alternative-added" and difference.arg("qualified") == "true"
            and difference.arg("policy") is not None and difference.arg("policy") == difference.arg("old_policy"))


@rule("reserved-made-real", VERSION_BUMP,
      "A reserved property was given a real type: readers that reject the name reject new data.",
      "为保留属性赋予了实际类型：拒绝该名称的读取方会拒绝新数据。")
def _reserved_made_real(difference: Difference, context: RuleContext) -> bool:
    return difference.kind == "reserved-made-real"


@rule("property-removed", VERSION_BUMP,
      "A property was removed or renamed: readers that need it fail on new data, and old data may be rejected.",
      "删除或重命名了属性：需要它的读取方无法处理新数据，旧数据也可能被拒绝。")
def _property_removed(difference: Difference, context: RuleContext) -> bool:
    return difference.kind in ("property-removed", "property-made-reserved")


@rule("required-property-added", VERSION_BUMP,
      "A required property was added: old data does not have it.",
      "新增了必填属性：旧数据中没有它。")
def _required_property_added(difference: Difference, context: RuleContext) -> bool:
    return difference.kind == "required-property-added"


@rule("optional-made-required", VERSION_BUMP,
      "An optional property became required: old data may omit it.",
      "可选属性改为必填：旧数据可能省略了它。")
def _optional_made_required(difference: Difference, context: RuleContext) -> bool:
    return difference.kind == "optional-made-required"


@rule("type-changed", VERSION_BUMP,
      "The type of an existing value changed.",
      "已有值的类型发生了变化。")
def _type_changed(difference: Difference, context: RuleContext) -> bool:
    return difference.kind in ("type-changed", "type-widened-to-any", "tuple-item-added", "tuple-item-removed",
                               "applicator-changed")


@rule("enum-changed", VERSION_BUMP,
      "Allowed values changed: an added value is rejected by old readers, a removed one rejects old data.",
      "允许的取值发生了变化：新增的值会被旧读取方拒绝，删除的值会导致旧数据被拒绝。")
def _enum_changed(difference: Difference, context: RuleContext) -> bool:
    return difference.kind in ("enum-value-added", "enum-value-removed", "literal-changed")


@rule("constraint-changed", VERSION_BUMP,
      "A constraint was added, removed or changed (bounds, lengths, patterns, formats, unknown keywords).",
      "新增、删除或修改了约束（边界、长度、模式、格式或未识别的关键字）。")
def _constraint_changed(difference: Difference, context: RuleContext) -> bool:
    return difference.kind in ("constraint-added", "constraint-removed", "constraint-changed")


@rule("content-model-changed", VERSION_BUMP,
      "What an object admits beyond its declared properties changed (open, closed, typed or patterns).",
      "对象在已声明属性之外允许的内容发生了变化（开放、封闭、带类型或模式属性）。")
def _content_model_changed(difference: Difference, context: RuleContext) -> bool:
    return difference.kind in ("content-model-changed", "pattern-property-added", "pattern-property-removed")


@rule("alternatives-changed", VERSION_BUMP,
      "A union gained or lost an alternative outside a qualified source slot, or its combination changed.",
      "联合类型在带资格声明的来源槽位之外增加或减少了分支，或其组合方式发生了变化。")
def _alternatives_changed(difference: Difference, context: RuleContext) -> bool:
    return difference.kind in ("alternative-added", "alternative-removed", "union-mode-changed",
                               "discriminator-changed", "operand-added", "operand-removed")


@rule("policy-changed", VERSION_BUMP,
      "A preservation policy, an alternative's qualification or a root's role (record, event, header, envelope) "
      "changed; policy state must stay compatible.",
      "保留策略、分支的资格声明或根类型的角色（record、event、header、envelope）发生了变化；策略状态必须保持兼容。")
def _policy_changed(difference: Difference, context: RuleContext) -> bool:
    return difference.kind in ("policy-changed", "qualification-changed", "inventory-format-changed", "role-changed")


@rule("structure-changed", VERSION_BUMP,
      "Any other structural change: what cannot be proven same-version is a version-bump.",
      "其他任何结构变更：凡无法证明可保持同一版本的，都需要升级版本。")
def _structure_changed(difference: Difference, context: RuleContext) -> bool:
    return True


RULES_BY_ID = {entry.id: entry for entry in RULES}


def decide(difference: Difference, context: RuleContext) -> Rule:
    for entry in RULES:
        if entry.matches(difference, context):
            return entry
    raise AssertionError("the last rule matches every difference")  # pragma: no cover


def max_decision(decisions) -> str:
    return VERSION_BUMP if VERSION_BUMP in decisions else SAME_VERSION
