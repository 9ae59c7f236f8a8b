"""Findings: what verification reports, as data with a stable id, a place and arguments.

Text is rendered late, in English or Chinese, from the one table below.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass

from govern.terms import value_term

LANGUAGES = ("en", "zh")
# Arguments holding machine values (decisions, break directions), shown in the message's language like every other word.
TRANSLATED_ARGUMENTS = frozenset({"decision", "minimum", "direction"})
# An argument `NAME@LANGUAGE` holds text already written in that language (sentences rendered from data,
# such as what changed in a root): in that language it stands for `NAME`, in the others it is left out.
LOCALIZED = "@"

# The only registry of finding kinds: id -> titles and, per variant, message and hint templates.
# A finding's `variant` argument selects the template when one id covers several situations; "" is the
# variant of an id that has only one. Placeholders name the finding's other arguments; a variant without
# a hint has no hint keys. Arguments named `reason` or `error` hold text from a parser or the operating
# system, which stays English inside the translated frame.
FINDING_TABLE: dict[str, dict] = {
    "record-syntax": {
        "title": ("Record file is malformed", "记录文件格式错误"),
        "texts": {
            "format": {
                "en": "{reason}",
                "zh": "记录格式错误：{reason}",
                "hint_en": "compare with templates/record.en.md and records/README.md",
                "hint_zh": "请对照 templates/record.en.md 和 records/README.md 修改",
            },
            "id-mismatch": {
                "en": "declares id {declared} but the file is named {record}",
                "zh": "声明的 id 是 {declared}，但文件名是 {record}",
                "hint_en": "compare with templates/record.en.md and records/README.md",
                "hint_zh": "请对照 templates/record.en.md 和 records/README.md 修改",
            },
            "unreadable": {
                "en": "cannot be read: {error}",
                "zh": "无法读取：{error}",
            },
            "consistency": {
                "en": "{reason}",
                "zh": "一致性记录格式错误：{reason}",
                "hint_en": "run `govern record sync {record}`",
                "hint_zh": "运行 `govern record sync {record}`",
            },
        },
    },
    "record-files-missing": {
        "title": ("A record lacks one of its four files", "记录缺少四个文件之一"),
        "texts": {
            # Only the consistency record can be rebuilt from the others; anything else is lost content.
            "consistency": {
                "en": "record {record} lacks {files}",
                "zh": "记录 {record} 缺少 {files}",
                "hint_en": "run `govern record sync {record}` to regenerate it",
                "hint_zh": "运行 `govern record sync {record}` 重新生成它",
            },
            "content": {
                "en": "record {record} lacks {files}",
                "zh": "记录 {record} 缺少 {files}",
                "hint_en": "restore it from version control, or `govern record refresh {record}` if no record "
                           "depends on it",
                "hint_zh": "从版本控制中恢复它；如果没有记录依赖它，也可以运行 `govern record refresh {record}`",
            },
        },
    },
    "declaration-mismatch": {
        "title": ("A translation's declaration differs from the source language's", "译文的声明与源语言记录的不一致"),
        "texts": {"": {
            # The source language is the first configured one, whichever it is.
            "en": "its machine declaration differs from the one in {source}, the source language's record",
            "zh": "其机器声明与源语言记录 {source} 中的不一致",
            "hint_en": "copy the declaration from {source} unchanged",
            "hint_zh": "从 {source} 原样复制声明",
        }},
    },
    "consistency-stale": {
        "title": ("Consistency record is not current", "一致性记录已过期"),
        "texts": {
            "declaration": {
                "en": "records a different declaration than the record has",
                "zh": "其中记载的声明与记录中的声明不同",
                "hint_en": "the declaration was edited; restore it from version control, or regenerate an "
                           "unaccepted record with `govern record refresh {record}`",
                "hint_zh": "声明遭到修改；请从版本控制中恢复，或用 `govern record refresh {record}` 重新生成未被接受的记录",
            },
            "prose": {
                "en": "the {key} changed in both languages since the consistency record was written",
                "zh": "自一致性记录写入以来，{key} 在两种语言中都被修改了",
                "hint_en": "run `govern record sync {record}`",
                "hint_zh": "运行 `govern record sync {record}`",
            },
        },
    },
    "translation-stale": {
        "title": ("Prose changed in one language only", "仅有一种语言的正文被修改"),
        "texts": {"": {
            "en": "the {key} was edited in {edited} but not here",
            "zh": "{key} 在 {edited} 中被修改，但本文件没有",
            "hint_en": "update the {key} in both languages, then run `govern record sync {record}`",
            "hint_zh": "在两种语言中都更新 {key}，然后运行 `govern record sync {record}`",
        }},
    },
    "generated-section-edited": {
        "title": ("A generated section was edited", "生成的小节遭到修改"),
        "texts": {"": {
            "en": "its detected changes are not the ones govern generated for {record}",
            "zh": "其中检测到的变更不是 govern 为 {record} 生成的内容",
            "hint_en": "restore the section from version control, or regenerate an unaccepted record with "
                       "`govern record refresh {record}`",
            "hint_zh": "从版本控制中恢复该小节，或用 `govern record refresh {record}` 重新生成未被接受的记录",
        }},
    },
    "baseline-misplaced": {
        "title": ("A later record claims to be the baseline", "后续记录自称基线"),
        "texts": {"": {
            "en": "declares baseline: true, but only the first record ({first}) of the history is the baseline "
                  "and a baseline has no predecessors",
            "zh": "声明了 baseline: true，但只有历史中的第一条记录（{first}）才是基线，且基线没有前驱",
            "hint_en": "restore the record from version control, or regenerate an unaccepted record with "
                       "`govern record refresh {record}`",
            "hint_zh": "从版本控制中恢复记录，或用 `govern record refresh {record}` 重新生成未被接受的记录",
        }},
    },
    "snapshot-mismatch": {
        "title": ("Snapshot does not reproduce the declared digest", "快照无法复现声明的指纹"),
        "texts": {
            "unnormalizable": {
                "en": "cannot be normalized: {error}",
                "zh": "无法规范化：{error}",
                "hint_en": "restore the snapshot from version control",
                "hint_zh": "从版本控制中恢复快照",
            },
            "removed": {
                "en": "holds {root}, which the declaration records as removed",
                "zh": "包含 {root}，但声明记载它已被删除",
            },
            "absent": {
                "en": "normalizes {root} to nothing, not the declared {declared}",
                "zh": "规范化后不包含 {root}，而声明的指纹是 {declared}",
                "hint_en": "the snapshot or the declaration was edited; restore it from version control",
                "hint_zh": "快照或声明遭到修改；请从版本控制中恢复",
            },
            "type-digests": {
                "en": "records digests for types of {source} that their schemas do not give: {types}",
                "zh": "为 {source} 的类型记载的指纹与其模式不符：{types}",
                "hint_en": "the snapshot was edited; restore it from version control",
                "hint_zh": "快照遭到修改；请从版本控制中恢复",
            },
            "digest": {
                "en": "normalizes {root} to {actual}, not the declared {declared}",
                "zh": "将 {root} 规范化为 {actual}，而不是声明的 {declared}",
                "hint_en": "the snapshot or the declaration was edited; restore it from version control",
                "hint_zh": "快照或声明遭到修改；请从版本控制中恢复",
            },
        },
    },
    "predecessor-missing": {
        "title": ("Predecessor record does not exist", "前驱记录不存在"),
        "texts": {"": {
            "en": "names {predecessor} as predecessor of {root}, which has no such record",
            "zh": "将 {predecessor} 指定为 {root} 的前驱，但不存在这样的记录",
            "hint_en": "restore the predecessor record, or fix the predecessor id",
            "hint_zh": "恢复前驱记录，或修正前驱 id",
        }},
    },
    "predecessor-edited": {
        "title": ("A depended-upon record was edited", "被依赖的记录遭到修改"),
        "texts": {"": {
            "en": "record {predecessor} was edited after {record} came to depend on it (its declaration or "
                  "snapshot no longer matches the link in {record})",
            "zh": "记录 {predecessor} 在 {record} 依赖它之后被修改（其声明或快照与 {record} 中的链接不再一致）",
            "hint_en": "restore {predecessor} from version control; accepted records are not edited",
            "hint_zh": "从版本控制中恢复 {predecessor}；已接受的记录不可修改",
        }},
    },
    "history-cycle": {
        "title": ("Predecessor chain has a cycle", "前驱链存在循环"),
        "texts": {"": {
            "en": "the chain of {root} loops: {cycle}",
            "zh": "{root} 的前驱链形成循环：{cycle}",
            "hint_en": "a predecessor must be an earlier record",
            "hint_zh": "前驱必须是更早的记录",
        }},
    },
    "history-order": {
        "title": ("A record is dated before its predecessor", "记录的日期早于其前驱记录"),
        "texts": {"": {
            "en": "is dated {date} but follows {predecessor} for {root}, which is dated later",
            "zh": "日期为 {date}，但它在 {root} 上接续的 {predecessor} 日期更晚",
            "hint_en": "a record cannot be older than its predecessor; fix the date",
            "hint_zh": "记录不能早于其前驱；请修正日期",
        }},
    },
    "history-fork": {
        "title": ("Two records succeed one record for one root", "同一根类型的同一记录有两个后继"),
        "texts": {"": {
            "en": "{successors} all succeed {predecessor} for {root}",
            "zh": "{successors} 都在 {root} 上接续 {predecessor}",
            "hint_en": "keep one history: run `govern record refresh {last}` so it follows {previous} (or delete "
                       "its four files and run `govern record new` again)",
            "hint_zh": "只保留一条历史：运行 `govern record refresh {last}` 使它接续 {previous}（或删除它的四个文件，"
                       "然后重新运行 `govern record new`）",
        }},
    },
    "unacknowledged-change": {
        "title": ("Current source differs from the latest record", "当前来源与最新记录不一致"),
        "texts": {
            "recorded": {
                "en": "{root} is now {digest} but is recorded as {recorded} by its latest record {record}",
                "zh": "{root} 现在是 {digest}，但其最新记录 {record} 记载的是 {recorded}",
                "hint_en": "review `govern diff`, then acknowledge it: {command}",
                "hint_zh": "先查看 `govern diff`，再确认这一变更：{command}",
            },
            "format-version": {
                "en": "{root} now writes format version {current} but its latest record {record} declares {recorded}",
                "zh": "{root} 现在写入的格式版本是 {current}，但其最新记录 {record} 声明的是 {recorded}",
                "hint_en": "a changed format version is a version-bump: review `govern diff`, then acknowledge it: "
                           "{command}",
                "hint_zh": "格式版本的变化属于版本升级：先查看 `govern diff`，再确认这一变更：{command}",
            },
            "recorded-bump": {
                "en": "{root} is now {digest} but is recorded as {recorded} by its latest record {record}",
                "zh": "{root} 现在是 {digest}，但其最新记录 {record} 记载的是 {recorded}",
                "hint_en": "review `govern diff`; a version-bump raises the source's format version in the same "
                           "change, then acknowledge it: {command}",
                "hint_zh": "先查看 `govern diff`；版本升级需在同一变更中提高来源的格式版本，然后确认这一变更：{command}",
            },
            "role": {
                "en": "{root} now has the role {current} but its latest record {record} recorded {recorded}",
                "zh": "{root} 现在的角色是 {current}，但其最新记录 {record} 记载的是 {recorded}",
                "hint_en": "a role change is a policy change, a version-bump: raise the source's format version in "
                           "the same change, then acknowledge it: {command}",
                "hint_zh": "角色变化属于策略变更，即版本升级：请在同一变更中提高来源的格式版本，然后确认这一变更：{command}",
            },
            "mode": {
                "en": "{root} is now decided in compatibility mode {current} but its latest record {record} was "
                      "decided in {recorded}",
                "zh": "{root} 现在按兼容模式 {current} 判定，但其最新记录 {record} 是按 {recorded} 判定的",
                "hint_en": "a mode that is not at least as strict as the recorded one is a version-bump (raise the "
                           "source's format version in the same change); review `govern diff`, then acknowledge "
                           "it: {command}",
                "hint_zh": "若新模式不比记录中的模式至少同样严格，则属于版本升级（请在同一变更中提高来源的格式版本）；"
                           "先查看 `govern diff`，再确认这一变更：{command}",
            },
            # Where the changed type is written, and what changed in it.
            "changed": {
                "en": "{root} changed since its latest record {record} (compatibility mode {mode}): {changes}",
                "zh": "{root} 自其最新记录 {record} 以来已变更（兼容模式 {mode}）：{changes}",
                "hint_en": "review `govern diff`, then acknowledge it: {command}",
                "hint_zh": "先查看 `govern diff`，再确认这一变更：{command}",
            },
            "changed-bump": {
                "en": "{root} changed since its latest record {record} (compatibility mode {mode}): {changes}",
                "zh": "{root} 自其最新记录 {record} 以来已变更（兼容模式 {mode}）：{changes}",
                "hint_en": "review `govern diff`; a version-bump raises the source's format version in the same "
                           "change, then acknowledge it: {command}",
                "hint_zh": "先查看 `govern diff`；版本升级需在同一变更中提高来源的格式版本，然后确认这一变更：{command}",
            },
            "removed": {
                "en": "{root} is now {digest} but was removed by its latest record {record}",
                "zh": "{root} 现在是 {digest}，但其最新记录 {record} 已将它删除",
                "hint_en": "review `govern diff`, then acknowledge it: {command}",
                "hint_zh": "先查看 `govern diff`，再确认这一变更：{command}",
            },
        },
    },
    "unacknowledged-root": {
        "title": ("A current root has no record", "当前根类型没有任何记录"),
        "texts": {
            "": {
                "en": "{root} has no record",
                "zh": "{root} 没有任何记录",
                "hint_en": "acknowledge it: {command}",
                "hint_zh": "为它写一条记录：{command}",
            },
            # Before the first record, one baseline acknowledges every root at once.
            "baseline": {
                "en": "no change record yet: {count} roots have none ({roots})",
                "zh": "尚无任何变更记录：{count} 个根类型都没有记录（{roots}）",
                "hint_en": "record the baseline: `govern record prose > prose.yaml`, fill it in, then `{command}`",
                "hint_zh": "写基线记录：运行 `govern record prose > prose.yaml` 并填写，然后运行 `{command}`",
            },
        },
    },
    "unacknowledged-removal": {
        "title": ("A recorded root is gone without a tombstone", "已记录的根类型被删除但没有墓碑记录"),
        "texts": {"": {
            "en": "{root} is recorded by {record} but no longer in the sources",
            "zh": "{root} 由 {record} 记录，但已不在来源中",
            "hint_en": "record a tombstone, raising the source's format version in the same change: {command}",
            "hint_zh": "写一条墓碑记录，并在同一变更中提高来源的格式版本：{command}",
        }},
    },
    "decision-too-weak": {
        "title": ("Declared decision is weaker than the inferred one", "声明的决策弱于推断的决策"),
        "texts": {"": {
            "en": "{root} declares {decision}, but the change needs {minimum} in compatibility mode {mode}",
            "zh": "{root} 声明为{decision}，但在兼容模式 {mode} 下该变更需要{minimum}",
            "hint_en": "its detected changes say why; `govern record refresh {record}` regenerates it with the "
                       "inferred decision (an accepted record is restored from version control instead)",
            "hint_zh": "其中检测到的变更说明了原因；`govern record refresh {record}` 会以推断出的决策重新生成它"
                       "（已被接受的记录则应从版本控制中恢复）",
        }},
    },
    "format-version-mismatch": {
        "title": ("A declared format version disagrees with the history", "声明的格式版本与历史不一致"),
        "texts": {
            "snapshot": {
                "en": "{root} declares format version {declared} after the change, but its snapshot {snapshot} "
                      "records {recorded}",
                "zh": "{root} 声明变更后的格式版本为 {declared}，但其快照 {snapshot} 记载的是 {recorded}",
                "hint_en": "the declaration was edited; restore it from version control, or regenerate an "
                           "unaccepted record with `govern record refresh {record}`",
                "hint_zh": "声明遭到修改；请从版本控制中恢复，或用 `govern record refresh {record}` 重新生成未被接受的记录",
            },
            "predecessor": {
                "en": "{root} declares format version {declared} before the change, but its predecessor "
                      "{predecessor} declares {recorded} after it",
                "zh": "{root} 声明变更前的格式版本为 {declared}，但其前驱 {predecessor} 声明的变更后版本是 {recorded}",
                "hint_en": "`before` is what the predecessor declared; restore the record from version control, or "
                           "regenerate an unaccepted record with `govern record refresh {record}`",
                "hint_zh": "`before` 必须是前驱声明的版本；请从版本控制中恢复记录，或用 `govern record refresh {record}` "
                           "重新生成未被接受的记录",
            },
            "new-root": {
                "en": "{root} has no predecessor, so it has no format version before the change, yet declares "
                      "{declared}",
                "zh": "{root} 没有前驱，因此变更前没有格式版本，但却声明为 {declared}",
                "hint_en": "restore the record from version control, or regenerate an unaccepted record with "
                           "`govern record refresh {record}`",
                "hint_zh": "请从版本控制中恢复记录，或用 `govern record refresh {record}` 重新生成未被接受的记录",
            },
        },
    },
    "format-version-not-raised": {
        "title": ("A version-bump does not raise the format version", "版本升级未提高格式版本"),
        "texts": {"": {
            "en": "{root} is a version-bump but its format version goes {before} -> {after}",
            "zh": "{root} 是版本升级，但其格式版本从 {before} 变为 {after}",
            "hint_en": "raise the format version in the source, then `govern record refresh {record}`",
            "hint_zh": "在来源中提高格式版本，然后运行 `govern record refresh {record}`",
        }},
    },
    "unsound-verdict": {
        "title": ("A same-version verdict is broken by a document", "同版本判定被一个文档推翻"),
        "texts": {"": {
            "en": "{root}: the same-version change at {at} ({rule}) breaks {direction}: the {accepted_by} schema "
                  "accepts {document} and the {rejected_by} schema rejects it ({reason})",
            "zh": "{root}：位于 {at} 的同版本变更（{rule}）破坏了 {direction}：{accepted_by}接受 {document}，"
                  "而{rejected_by}拒绝它（{reason}）",
            "hint_en": "treat the change as a version-bump (declare --decision version-bump) and report the rule "
                       "{rule} as unsound with this document",
            "hint_zh": "请把该变更按版本升级处理（声明 `--decision version-bump`），并附上此文档报告规则 {rule} 不可靠",
        }},
    },
    "generated-stale": {
        "title": ("A generated file is not current", "生成的文件已过期"),
        "texts": {
            "": {
                "en": "does not match the current sources",
                "zh": "与当前来源不一致",
                "hint_en": "run `govern extract`",
                "hint_zh": "运行 `govern extract`",
            },
            "unreadable": {
                "en": "cannot be read: {error}",
                "zh": "无法读取：{error}",
                "hint_en": "make it a readable file again, then run `govern extract`",
                "hint_zh": "先使其成为可读文件，再运行 `govern extract`",
            },
            "obsolete": {
                "en": "is a format reference no record reaches any more",
                "zh": "是一个已没有任何记录达到的格式参考",
                "hint_en": "run `govern extract`, which removes it",
                "hint_zh": "运行 `govern extract`，它会删除该文件",
            },
        },
    },
    "archive-malformed": {
        "title": ("A prerelease archive file is malformed", "预发布归档文件格式错误"),
        "texts": {"": {
            "en": "is not a prerelease archive file: {reason}",
            "zh": "不是预发布归档文件：{reason}",
            "hint_en": "regenerate the archive with `govern archive`",
            "hint_zh": "用 `govern archive` 重新生成归档",
        }},
    },
    "source-unreadable": {
        "title": ("A source cannot be read", "无法读取来源"),
        "texts": {"": {
            "en": "cannot be read: {reason}",
            "zh": "无法读取：{reason}",
        }},
    },
}

# id -> (English title, Chinese title); every check's findings use one of these ids.
FINDING_KINDS = {finding_id: kind["title"] for finding_id, kind in FINDING_TABLE.items()}


def title(finding_id: str, language: str = "en") -> str:
    return FINDING_KINDS[finding_id][LANGUAGES.index(language)]


def templates() -> Iterator[tuple[str, str, dict[str, str]]]:
    """Every (finding id, variant, templates) of the table."""
    for finding_id, kind in FINDING_TABLE.items():
        for variant, texts in kind["texts"].items():
            yield finding_id, variant, texts


Arguments = Mapping[str, object] | Iterable[tuple[str, object]]


@dataclass(frozen=True, init=False)
class Finding:
    id: str
    path: str  # relative to the project root
    args: tuple[tuple[str, str], ...] = ()
    line: int | None = None
    root: str | None = None

    def __init__(self, id: str, path: str, args: Arguments = (), line: int | None = None,
                 root: str | None = None) -> None:
        items = args.items() if isinstance(args, Mapping) else args
        object.__setattr__(self, "id", id)
        object.__setattr__(self, "path", path)
        object.__setattr__(self, "args", tuple(sorted((str(key), str(value)) for key, value in items)))
        object.__setattr__(self, "line", line)
        object.__setattr__(self, "root", root)
        if id not in FINDING_TABLE:  # pragma: no cover - a programming error
            raise ValueError(f"unknown finding id {id}")
        if self.variant not in FINDING_TABLE[id]["texts"]:  # pragma: no cover
            raise ValueError(f"finding {id} has no variant {self.variant!r}")

    @property
    def variant(self) -> str:
        return dict(self.args).get("variant", "")

    def message(self, language: str = "en") -> str:
        return self._render(language, "message")

    def hint(self, language: str = "en") -> str | None:
        return self._render(language, "hint")

    def _render(self, language: str, part: str) -> str | None:
        arguments = dict(self.args)
        arguments.pop("variant", None)
        for key in [key for key in arguments if LOCALIZED in key]:
            name, _, written_in = key.partition(LOCALIZED)
            value = arguments.pop(key)
            if written_in == language:
                arguments[name] = value
        for key in TRANSLATED_ARGUMENTS & arguments.keys():
            arguments[key] = value_term(arguments[key], language)
        texts = FINDING_TABLE[self.id]["texts"][self.variant]
        template = texts.get(language if part == "message" else f"hint_{language}")
        return None if template is None else template.format(**arguments)

    def sort_key(self) -> tuple:
        # English text orders findings, so every language lists them in the same order.
        return (self.path, self.line or 0, self.id, self.root or "", self.message("en"))

    def to_json(self, language: str = "en") -> dict:
        data = {"id": self.id, "path": self.path, "line": self.line, "message": self.message(language),
                "hint": self.hint(language)}
        if self.root:
            data["root"] = self.root
        mode = dict(self.args).get("mode")
        if mode is not None:  # a finding about a decision says which compatibility mode made it
            data["mode"] = mode
        return data
