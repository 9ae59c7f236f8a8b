"""Findings: what verification reports, as data with a stable id, a place and a fix."""

from __future__ import annotations

from dataclasses import dataclass

# id -> (English title, Chinese title); every check's findings use one of these ids.
FINDING_KINDS = {
    "record-syntax": ("Record file is malformed", "记录文件格式错误"),
    "record-files-missing": ("A record lacks one of its four files", "记录缺少四个文件之一"),
    "declaration-mismatch": ("English and Chinese declarations differ", "英文与中文声明不一致"),
    "consistency-stale": ("Consistency record is not current", "一致性记录已过期"),
    "translation-stale": ("Prose changed in one language only", "仅有一种语言的正文被修改"),
    "snapshot-mismatch": ("Snapshot does not reproduce the declared digest", "快照无法复现声明的摘要"),
    "predecessor-missing": ("Predecessor record does not exist", "前驱记录不存在"),
    "predecessor-edited": ("A depended-upon record was edited", "被依赖的记录遭到修改"),
    "history-cycle": ("Predecessor chain has a cycle", "前驱链存在循环"),
    "history-order": ("A record is dated before its predecessor", "记录的日期早于其前驱记录"),
    "history-fork": ("Two records succeed one record for one root", "同一根类型的同一记录有两个后继"),
    "unacknowledged-change": ("Current source differs from the latest record", "当前源与最新记录不一致"),
    "unacknowledged-root": ("A current root has no record", "当前根类型没有任何记录"),
    "unacknowledged-removal": ("A recorded root is gone without a tombstone", "已记录的根类型被删除但没有墓碑记录"),
    "decision-too-weak": ("Declared decision is weaker than the inferred one", "声明的决策弱于推断的决策"),
    "format-version-not-raised": ("A version-bump does not raise the format version", "版本升级未提高格式版本"),
    "generated-stale": ("A generated file is not current", "生成的文件已过期"),
    "source-unreadable": ("A source cannot be read", "无法读取源"),
}


@dataclass(frozen=True)
class Finding:
    id: str
    path: str  # relative to the project root
    message: str
    line: int | None = None
    hint: str | None = None
    root: str | None = None

    def __post_init__(self) -> None:
        if self.id not in FINDING_KINDS:  # pragma: no cover - a programming error
            raise ValueError(f"unknown finding id {self.id}")

    def sort_key(self) -> tuple:
        return (self.path, self.line or 0, self.id, self.root or "", self.message)

    def to_json(self) -> dict:
        data = {"id": self.id, "path": self.path, "line": self.line, "message": self.message, "hint": self.hint}
        if self.root:
            data["root"] = self.root
        return data
