"""Documents that the strict reader must refuse, each with the line and column the refusal must name; the
command-line tests feed every row to every command that reads JSON."""

from __future__ import annotations

from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]

# name -> (document text, line, column of the refusal, words the message must contain)
HOSTILE_JSON: dict[str, tuple[str, int, int, str]] = {
    "duplicate-key": ('{"type": "object",\n "type": "string"}', 2, 2, 'duplicate key "type"'),
    "number-overflow": ('{"type": "number",\n "maximum": 1e400}', 2, 13, "1e400"),
    "number-underflow": ('{"minimum": 1e-400}', 1, 13, "too small"),
    "integer-overflow": ('{"maximum": ' + "9" * 400 + "}", 1, 13, "too large"),
    "nan": ('{"maximum": NaN}', 1, 13, "NaN"),
    "infinity": ('{"maximum": -Infinity}', 1, 13, "NaN and Infinity"),
    "lone-surrogate": ('{"title": "a\\ud800b"}', 1, 13, "lone UTF-16 surrogate"),
    "lone-low-surrogate": ('{"title": "\\ud83d\\ude00\\udc00"}', 1, 24, "lone UTF-16 surrogate"),
    "surrogate-key": ('{"\\udfff": 1}', 1, 3, "lone UTF-16 surrogate"),
    "too-deep": ('{"a":' * 129 + "1" + "}" * 129, 1, 641, "nests deeper than 128"),
    "far-too-deep": ("[" * 5000 + "]" * 5000, 1, 129, "nests deeper than 128"),
    "truncated": ('{"type": "object", "properties": {"a": ', 1, 40, "not valid JSON"),
}


def copy_repository(target: Path) -> Path:
    """This repository's configuration, schemas and records in a fresh folder (the originals stay untouched)."""
    import shutil

    target.mkdir(parents=True, exist_ok=True)
    shutil.copy2(REPO_ROOT / "pyproject.toml", target / "pyproject.toml")
    for folder in ("schemas", "records"):
        shutil.copytree(REPO_ROOT / folder, target / folder)
    return target


PROSE_YAML = """en:
  title: "Add a label to threads"
  summary: "A thread may carry a short label."
  compatibility: "Old sidecars omit the optional label; version 1 readers ignore unknown thread fields."
  verification: "govern verify is clean."
zh:
  title: "为讨论串添加标签"
  summary: "讨论串可以带一个简短的标签。"
  compatibility: "旧的旁注文件不含可选的标签；版本 1 的读取方忽略未知的讨论串字段。"
  verification: "govern verify 通过。"
"""


def add_thread_label(root: Path) -> None:
    """A same-version change to the sidecar schema: an optional property on the open Thread object."""
    import json

    path = root / "schemas" / "coauthoring-sidecar.schema.json"
    document = json.loads(path.read_text(encoding="utf-8"))
    document["$defs"]["Thread"]["properties"]["label"] = {"type": "string"}
    path.write_text(json.dumps(document, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
