"""Around a verify report: which file each pydantic source was imported from, and, for a pull request,
the change records added since its base ref with the changes they acknowledge."""

from __future__ import annotations

import json

LABELS = {
    "en": {
        "imported": "{source}: models imported from {file} ({module})",
        "md-imported": "{source}: models imported from `{file}` (`{module}`)",
        "md-added": "#### Change records added since `{base}`",
        "md-none": "No change record was added since `{base}`.",
        "format": "format version {before} -> {after}",
    },
    "zh": {
        "imported": "{source}：模型导入自 {file}（{module}）",
        "md-imported": "{source}：模型导入自 `{file}`（`{module}`）",
        "md-added": "#### 自 `{base}` 以来新增的变更记录",
        "md-none": "自 `{base}` 以来没有新增变更记录。",
        "format": "格式版本 {before} -> {after}",
    },
}


def with_review(text: str, output_format: str, imports: dict[str, tuple[str, str]], review=None,
                language: str = "en") -> str:
    """`imports`: source -> (module, file); `review`: the records a pull request adds (markdown and json)."""
    labels = LABELS[language]
    if output_format == "text" and imports:
        lines = [labels["imported"].format(source=source, module=module, file=file)
                 for source, (module, file) in sorted(imports.items())]
        return "\n".join(lines) + "\n" + text
    if output_format == "json" and (imports or review is not None):
        document = json.loads(text)
        if imports:
            document["imported"] = {source: file for source, (_, file) in sorted(imports.items())}
        if review is not None:
            document["review"] = {"base": review.base, "added": [_record_json(record) for record in review.added]}
        return json.dumps(document, indent=2, ensure_ascii=False) + "\n"
    if output_format != "markdown":
        return text
    head, _, rest = text.partition("\n")
    if imports:
        notes = [labels["md-imported"].format(source=source, module=module, file=file)
                 for source, (module, file) in sorted(imports.items())]
        head = head + "\n\n" + "  \n".join(notes)
    text = head + "\n" + rest
    if review is None:
        return text
    return text + "\n" + "\n".join(_markdown_review(review, language)) + "\n"


def _markdown_review(review, language: str) -> list[str]:
    from govern.records.create import render_changes

    labels = LABELS[language]
    if not review.added:
        return [labels["md-none"].format(base=review.base)]
    lines = [labels["md-added"].format(base=review.base), ""]
    for record in review.added:
        title = record.title.get(language) or next(iter(record.title.values()), "")
        lines.append(f"- `{record.id}`: {title}")
        for root, decision, before, after in record.decisions:
            version = labels["format"].format(before=_version(before), after=_version(after))
            lines.append(f"  - `{root}`: {decision}, {version}")
        changes = render_changes(list(record.results), language)
        lines += [f"    {line}" for line in changes.split("\n")] if record.results else []
    return lines


def _version(value) -> str:
    return "-" if value is None else str(value)


def _record_json(record) -> dict:
    return {"record": record.id, "title": record.title,
            "roots": [{"root": root, "decision": decision, "format-version": {"before": before, "after": after}}
                      for root, decision, before, after in record.decisions],
            "changes": [result.to_json() for result in record.results]}
