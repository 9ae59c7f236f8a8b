"""The record file format: declaration (YAML front matter), prose sections, consistency record.

Declarations and consistency records are emitted by this module in one fixed layout (keys in a fixed
order, strings JSON-quoted, which YAML reads as double-quoted scalars), so files are byte-deterministic.
They are read back directly while they keep that layout, otherwise (edited by hand) with the strict YAML
reader; both readings agree wherever the direct one applies.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field
from typing import Any

from govern.config import MODES
from govern.model.canonical import canonical_json, sha256_digest

RECORD_KIND = "persistence-change"
ID_PATTERN = re.compile(r"^(\d{4}-\d{2}-\d{2})-([a-z0-9]+(?:-[a-z0-9]+)*)$")
SLUG_PATTERN = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
PROSE_KEYS = ("title", "summary", "compatibility", "verification")
SECTION_KEYS = ("summary", "compatibility", "verification", "changes")
LANGUAGES = ("en", "zh")  # the default: English is the source language, Chinese its translation
SUFFIXES = {"en": ".md", "zh": ".zh.md", "i18n": ".i18n.yaml", "schema": ".schema.json"}
GENERATED_PARTS = ("i18n", "schema")
DEFAULT_MODE = MODES[0]  # persistence: the rule table
# A record file's name: the id, then `.<language>` for every language but the source language, then `.md`.
RECORD_FILE = re.compile(r"^(?P<id>\d{4}-\d{2}-\d{2}-[a-z0-9]+(?:-[a-z0-9]+)*)"
                         r"(?:\.(?P<language>[a-z]{2,3}(?:-[a-z0-9]+)*))?\.(?:md|i18n\.yaml|schema\.json)$")


def record_suffix(part: str, languages: tuple[str, ...] = LANGUAGES) -> str:
    """The file suffix of one part of a record: a language's prose, or a generated file (i18n, schema)."""
    if part in GENERATED_PARTS:
        return SUFFIXES[part]
    return ".md" if part == languages[0] else f".{part}.md"


@dataclass(frozen=True)
class Entry:
    root: str
    decision: str
    predecessor: str | None = None
    predecessor_link: str | None = None
    after: str | None = None  # None: a tombstone (the root was removed)
    format_before: str | int | None = None
    format_after: str | int | None = None
    # The compatibility mode the decision was made in. The default is not written, so every declaration
    # from before modes existed reads, hashes and links exactly as it always did.
    mode: str = DEFAULT_MODE

    def data(self) -> dict:
        data = {"root": self.root, "predecessor": self.predecessor, "predecessor-link": self.predecessor_link,
                "after": self.after, "decision": self.decision}
        if self.mode != DEFAULT_MODE:
            data["mode"] = self.mode
        data["format-version"] = {"before": self.format_before, "after": self.format_after}
        return data


@dataclass(frozen=True)
class Declaration:
    id: str
    date: str
    baseline: bool
    entries: tuple[Entry, ...]

    def data(self) -> dict:
        return {"kind": RECORD_KIND, "id": self.id, "date": self.date, "baseline": self.baseline,
                "roots": [entry.data() for entry in self.entries]}

    def entry(self, root: str) -> Entry | None:
        for candidate in self.entries:
            if candidate.root == root:
                return candidate
        return None

    @property
    def hash(self) -> str:
        return sha256_digest("govern/declaration", canonical_json(self.data()))


def _scalar(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    return json.dumps(value, ensure_ascii=False)


def declaration_yaml(declaration: Declaration) -> str:
    lines = [f"kind: {RECORD_KIND}", f"id: {_scalar(declaration.id)}", f"date: {_scalar(declaration.date)}",
             f"baseline: {_scalar(declaration.baseline)}", "roots:"]
    for entry in declaration.entries:
        lines += [f"  - root: {_scalar(entry.root)}",
                  f"    predecessor: {_scalar(entry.predecessor)}",
                  f"    predecessor-link: {_scalar(entry.predecessor_link)}",
                  f"    after: {_scalar(entry.after)}",
                  f"    decision: {_scalar(entry.decision)}",
                  *([f"    mode: {_scalar(entry.mode)}"] if entry.mode != DEFAULT_MODE else []),
                  "    format-version:",
                  f"      before: {_scalar(entry.format_before)}",
                  f"      after: {_scalar(entry.format_after)}"]
    return "\n".join(lines) + "\n"


class FormatError(ValueError):
    def __init__(self, reason: str, line: int | None = None):
        super().__init__(reason)
        self.reason = reason
        self.line = line


def load_yaml(text: str) -> Any:
    """YAML through the strict reader; a refusal becomes a FormatError with the line.

    Text in the layout this module writes is read without the YAML parser (see `read_written_layout`), with
    the same result: what a file means never depends on which path read it.
    """
    from govern.errors import InputError
    from govern.reader import parse_yaml

    written = read_written_layout(text)
    if written is not None:
        return written
    try:
        return parse_yaml(text, "")
    except InputError as error:
        problem = error.problems[0]
        reason = problem.reason if problem.reason.startswith("is not valid YAML") else f"YAML {problem.reason}"
        raise FormatError(reason.replace("is not valid YAML: ", "invalid YAML: "), problem.line) from None


# The layout `declaration_yaml` and `consistency_yaml` write: full-line comments at the margin, then lines
# `<indent>[- ]key: value` or `<indent>[- ]key:` opening a nested block. Reading every record through the
# YAML parser cost most of `govern verify`; this subset is read directly. Only values whose YAML meaning is
# certain are accepted: null, true, false, short integers, a plain word that no YAML version reads as
# anything but a string, and double-quoted printable ASCII without escapes. Anything else (a hand edit,
# another layout, an escape, non-ASCII text) is left to the YAML reader.
_LAYOUT_LINE = re.compile(r"( *)(- )?([a-z][a-z0-9-]*):(?: (.+))?")
_LAYOUT_COMMENT = re.compile(r"#[ -~]*")
_LAYOUT_STRING = re.compile(r'"([ !#-\[\]-~]*)"')
_LAYOUT_INTEGER = re.compile(r"-?(?:0|[1-9][0-9]{0,14})")
_LAYOUT_WORD = re.compile(r"[a-z]+(?:-[a-z0-9]+)*")
# Words some YAML version reads as null or a boolean: never plain strings or keys of this layout.
_YAML_WORDS = frozenset({"null", "true", "false", "y", "n", "yes", "no", "on", "off"})
_LAYOUT_CONSTANTS = {"null": None, "true": True, "false": False}


class _NotWrittenLayout(Exception):
    """The text is not in the written layout: the YAML reader reads it."""


def read_written_layout(text: str) -> dict | None:
    """The mapping a text in the layout govern writes holds, or None when the text is not in that layout."""
    if not text.endswith("\n"):
        return None
    lines = []
    for line in text[:-1].split("\n"):
        if _LAYOUT_COMMENT.fullmatch(line):
            continue
        match = _LAYOUT_LINE.fullmatch(line)
        if match is None or match.group(3) in _YAML_WORDS:
            return None
        lines.append((len(match.group(1)), match.group(2) is not None, match.group(3), match.group(4)))
    try:
        mapping, end = _layout_mapping(lines, 0, 0, False)
    except _NotWrittenLayout:
        return None
    return mapping if end == len(lines) and mapping else None


def _layout_mapping(lines: list, start: int, column: int, in_item: bool) -> tuple[dict, int]:
    """The keys at `column` from `start` (in a list item, the first one on the `- ` line before it)."""
    mapping: dict[str, Any] = {}
    index = start
    while index < len(lines):
        indent, dash, key, value = lines[index]
        # A list item's first key sits on its `- ` line, two columns left of the keys after it.
        expected = (column - 2, True) if in_item and index == start else (column, False)
        if (indent, dash) != expected:
            break
        if key in mapping:
            raise _NotWrittenLayout
        index += 1
        if value is not None:
            mapping[key] = _layout_scalar(value)
            continue
        if index == len(lines) or lines[index][0] <= column:
            raise _NotWrittenLayout  # an empty value, or a block at the same column: not this layout
        nested, dashed = lines[index][0], lines[index][1]
        if dashed:
            mapping[key], index = _layout_list(lines, index, nested)
        else:
            mapping[key], index = _layout_mapping(lines, index, nested, False)
    return mapping, index


def _layout_list(lines: list, start: int, indent: int) -> tuple[list, int]:
    items = []
    index = start
    while index < len(lines) and lines[index][:2] == (indent, True):
        item, index = _layout_mapping(lines, index, indent + 2, True)
        items.append(item)
    return items, index


def _layout_scalar(text: str) -> Any:
    if text in _LAYOUT_CONSTANTS:
        return _LAYOUT_CONSTANTS[text]
    quoted = _LAYOUT_STRING.fullmatch(text)
    if quoted is not None:
        return quoted.group(1)
    if _LAYOUT_INTEGER.fullmatch(text):
        return int(text)
    if _LAYOUT_WORD.fullmatch(text) and text not in _YAML_WORDS:
        return text
    raise _NotWrittenLayout


def split_front_matter(text: str) -> tuple[str, str, int]:
    """(front matter, body, line number where the body starts)."""
    lines = text.split("\n")
    if not lines or lines[0] != "---":
        raise FormatError("does not start with a YAML front matter block (a line `---`)", 1)
    for number, line in enumerate(lines[1:], start=1):
        if line == "---":
            return "\n".join(lines[1:number]) + "\n", "\n".join(lines[number + 1:]), number + 2
    raise FormatError("front matter is not closed by a line `---`", 1)


DECLARATION_KEYS = ("kind", "id", "date", "baseline", "roots")
ENTRY_KEYS = ("root", "predecessor", "predecessor-link", "after", "decision", "mode", "format-version")
_ISO_DAY = re.compile(r"^\d{4}-\d{2}-\d{2}$")


def is_calendar_date(text: str) -> bool:
    """YYYY-MM-DD naming a real day (not `20261201`, not `2026-W49-2`, not `2026-02-30`)."""
    import datetime

    if not _ISO_DAY.match(text):
        return False
    try:
        datetime.date.fromisoformat(text)
    except ValueError:
        return False
    return True


def _only_known_keys(data: dict, known: tuple[str, ...], where: str) -> None:
    # govern writes the declaration whole; a key it does not write was added by hand and means nothing.
    extra = sorted(str(key) for key in data if key not in known)
    if extra:
        raise FormatError(f"{where} has keys govern does not write: {', '.join(extra)} (known: {', '.join(known)})")


def parse_declaration(front: str) -> Declaration:
    try:
        data = load_yaml(front)
    except FormatError as error:
        # The front matter starts on the file's second line (after `---`); report lines of the file.
        raise FormatError(error.reason, None if error.line is None else error.line + 1) from None
    if not isinstance(data, dict):
        raise FormatError("front matter is not a mapping", 2)
    if data.get("kind") != RECORD_KIND:
        raise FormatError(f"front matter kind must be {RECORD_KIND}", 2)
    record_id, date = data.get("id"), data.get("date")
    if not isinstance(record_id, str) or not ID_PATTERN.match(record_id):
        raise FormatError("id must be YYYY-MM-DD-slug (slug: lowercase letters, digits, hyphens)")
    if not isinstance(date, str) or ID_PATTERN.match(record_id).group(1) != date:
        raise FormatError("date must be the date the id starts with")
    if not is_calendar_date(date):
        raise FormatError(f"{date} is not a date (no such day in the calendar)")
    _only_known_keys(data, DECLARATION_KEYS, "the front matter")
    if not isinstance(data.get("baseline"), bool):
        raise FormatError("baseline must be true or false")
    roots = data.get("roots")
    if not isinstance(roots, list) or not roots:
        raise FormatError("roots must be a non-empty list")
    entries = []
    for position, raw in enumerate(roots):
        if not isinstance(raw, dict) or not isinstance(raw.get("root"), str):
            raise FormatError(f"roots[{position}] must name a root")
        if raw.get("decision") not in ("same-version", "version-bump"):
            raise FormatError(f"roots[{position}].decision must be same-version or version-bump")
        _only_known_keys(raw, ENTRY_KEYS, f"roots[{position}]")
        mode = raw.get("mode", DEFAULT_MODE)
        if mode not in MODES:
            raise FormatError(f"roots[{position}].mode must be one of {', '.join(MODES)}")
        versions = raw.get("format-version") or {}
        if not isinstance(versions, dict):
            raise FormatError(f"roots[{position}].format-version must be a mapping with before and after")
        _only_known_keys(versions, ("before", "after"), f"roots[{position}].format-version")
        for key in ("predecessor", "predecessor-link", "after"):
            if raw.get(key) is not None and not isinstance(raw.get(key), str):
                raise FormatError(f"roots[{position}].{key} must be a string or null")
        entries.append(Entry(root=raw["root"], decision=raw["decision"], predecessor=raw.get("predecessor"),
                             predecessor_link=raw.get("predecessor-link"), after=raw.get("after"),
                             format_before=versions.get("before"), format_after=versions.get("after"), mode=mode))
    if len({entry.root for entry in entries}) != len(entries):
        raise FormatError("a root is declared twice")
    return Declaration(record_id, date, data["baseline"], tuple(entries))


@dataclass(frozen=True)
class Prose:
    title: str
    sections: dict[str, str] = field(default_factory=dict)  # summary, compatibility, verification, changes

    def get(self, key: str) -> str:
        return self.title if key == "title" else self.sections.get(key, "")


def parse_prose(body: str) -> Prose:
    title = ""
    sections: list[list[str]] = []
    for line in body.split("\n"):
        if line.startswith("# ") and not title and not sections:
            title = line[2:].strip()
        elif line.startswith("## "):
            sections.append([])
        elif sections:
            sections[-1].append(line)
    if not title:
        raise FormatError("has no title (a line starting with `# `)")
    if len(sections) != len(SECTION_KEYS):
        raise FormatError(f"must have exactly {len(SECTION_KEYS)} sections (`## ` headings): summary, "
                          "compatibility, verification, detected changes")
    texts = {key: "\n".join(lines).strip() for key, lines in zip(SECTION_KEYS, sections)}
    return Prose(title, texts)


def text_hash(text: str) -> str:
    return "sha256:" + hashlib.sha256(text.strip().encode("utf-8")).hexdigest()


def consistency_yaml(declaration: Declaration, prose: dict[str, Prose],
                     languages: tuple[str, ...] = LANGUAGES, generated: dict[str, str] | None = None) -> str:
    """The consistency record. `generated` holds the hashes of the generated "detected changes" sections
    as written when the record was created; they are carried over unchanged by `govern record sync`, so a
    hand-edited section stays evident (None: hash the sections of `prose`, at creation)."""
    updated = "both languages" if len(languages) == 2 else "the prose" if len(languages) == 1 else "every language"
    lines = [f"# Generated by `govern record`. After updating {updated}, `govern record sync ID` rewrites it.",
             f"source-language: {languages[0]}", f"declaration: {_scalar(declaration.hash)}", "prose:"]
    for language in languages:
        lines.append(f"  {language}:")
        for key in PROSE_KEYS:
            lines.append(f"    {key}: {_scalar(text_hash(prose[language].get(key)))}")
    if generated is None:
        generated = {language: text_hash(prose[language].get("changes")) for language in languages}
    if generated:
        lines.append("generated:")
        lines += [f"  {language}: {_scalar(generated[language])}" for language in languages if language in generated]
    return "\n".join(lines) + "\n"


def parse_consistency(text: str) -> dict:
    data = load_yaml(text)
    if not isinstance(data, dict) or not isinstance(data.get("prose"), dict):
        raise FormatError("is not a consistency record (source-language, declaration, prose)")
    for language, hashes in data["prose"].items():
        if not isinstance(hashes, dict) or not all(isinstance(value, str) for value in hashes.values()):
            raise FormatError(f"prose.{language} must map each prose key to its hash")
    return data


def suggested_slug(name: str) -> str:
    """A record slug suggested from a root name: `grp:ActionClaimRequest` -> `grp-action-claim-request`."""
    words = re.sub(r"([a-z0-9])([A-Z])", r"\1-\2", name)
    return re.sub(r"[^a-z0-9]+", "-", words.lower()).strip("-") or "root"
