"""The project's vocabulary: one term per concept in every language, used by all generated text.

The catalog, format references, archive, records and verifier messages take their words from here, and
docs/glossary.md and docs/glossary.zh.md list exactly these entries (a test keeps them equal), so a
reader meets one word for one concept everywhere. Machine values (`version-bump`, `new-data-old-readers`)
stay as they are in declarations, JSON output and commands; prose shows their translation.
"""

from __future__ import annotations

# concept -> language -> term. Machine values (decisions, break directions, roles) are keyed by the value.
TERMS: dict[str, dict[str, str]] = {
    "digest": {"en": "digest", "zh": "指纹"},
    "root": {"en": "root", "zh": "根类型"},
    "named-type": {"en": "named type", "zh": "命名类型"},
    "source": {"en": "source", "zh": "来源"},
    "inventory": {"en": "inventory", "zh": "清单"},
    "catalog": {"en": "catalog", "zh": "目录"},
    "change-record": {"en": "change record", "zh": "变更记录"},
    "baseline": {"en": "baseline", "zh": "基线"},
    "predecessor": {"en": "predecessor", "zh": "前驱记录"},
    "snapshot": {"en": "snapshot", "zh": "快照"},
    "tombstone": {"en": "tombstone", "zh": "墓碑"},
    "decision": {"en": "decision", "zh": "决策"},
    "break-direction": {"en": "break direction", "zh": "破坏方向"},
    "compatibility-mode": {"en": "compatibility mode", "zh": "兼容模式"},
    "summary": {"en": "summary", "zh": "摘要"},
    "format-version": {"en": "format version", "zh": "格式版本"},
    "format-reference": {"en": "format reference", "zh": "格式参考"},
    "prerelease-archive": {"en": "prerelease archive", "zh": "预发布归档"},
    "reader": {"en": "reader", "zh": "读取方"},
    "writer": {"en": "writer", "zh": "写入方"},
    "property": {"en": "property", "zh": "属性"},
    "alternative": {"en": "alternative", "zh": "分支"},
    "content-model": {"en": "content model", "zh": "内容模型"},
    "constraint": {"en": "constraint", "zh": "约束"},
    "same-version": {"en": "same-version", "zh": "同版本"},
    "version-bump": {"en": "version-bump", "zh": "版本升级"},
    "old-data-new-readers": {"en": "old data, new readers", "zh": "新读取方读旧数据"},
    "new-data-old-readers": {"en": "new data, old readers", "zh": "旧读取方读新数据"},
    "record": {"en": "record", "zh": "记录型"},  # the role; 记录 alone is a change record
    "event": {"en": "event", "zh": "事件"},
    "header": {"en": "header", "zh": "头部"},
    "envelope": {"en": "envelope", "zh": "信封"},
}

# Words that must not stand for a concept in that language because they name another one (摘要 is the
# Summary of a record, never a digest) or are an unchosen synonym. Tests scan the generated Chinese text.
AVOIDED: dict[str, dict[str, str]] = {
    "zh": {"摘要": "digest", "具名类型": "named-type"},
}

# Which glossary entries are machine values, shown with the value itself so readers can search for it.
MACHINE_VALUES = ("same-version", "version-bump", "old-data-new-readers", "new-data-old-readers",
                  "record", "event", "header", "envelope")


def term(concept: str, language: str) -> str:
    """The word for a concept (or a machine value) in a language; English where no translation exists."""
    entry = TERMS[concept]
    return entry.get(language, entry["en"])


def value_term(value: str, language: str) -> str:
    """A machine value in prose: English prose keeps the value, other languages translate it."""
    if language == "en" or value not in TERMS:
        return value
    return term(value, language)
