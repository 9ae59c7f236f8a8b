"""Creating, refreshing and syncing records. Every refusal happens before any file is written, and the
record's files are written together with the regenerated inventory and catalog pair (all or none).
"""

from __future__ import annotations

import datetime as _dt
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from govern.classify.classify import REMOVED, UNCHANGED, RootDiff, classify
from govern.classify.rules import SAME_VERSION, VERSION_BUMP
from govern.config import Config
from govern.errors import InputError, Problem, Refusal
from govern.fsio import (
    atomic_write_many, discard_staged, project_lock, read_text, rename_staged, stage_changed, write_file_set,
)
from govern.model.inventory import build_inventory
from govern.records.format import (
    LANGUAGES, PROSE_KEYS, SLUG_PATTERN, Declaration, Entry, Prose, consistency_yaml,
    declaration_yaml, is_calendar_date, parse_prose, record_suffix, split_front_matter, suggested_slug,
)
from govern.records.history import History, Record, build_history, load_history, recorded_graphs
from govern.records.integrity import check_baseline, check_format_versions, check_languages, check_snapshot
from govern.records.snapshot import snapshot_document, snapshot_text
from govern.terms import value_term
from govern.records.versions import raises_format_version, show_version, source_of

if TYPE_CHECKING:
    from govern.extract import GeneratedFile

CHANGE_LABELS = {
    "en": {"root": "Root", "decision": "decision", "rule": "rule", "none": "No structural change.",
           "new": "new root", "removed": "root removed (tombstone)", "breaks": "breaks",
           "comma": ", ", "separator": "; ", "stop": ". ", "colon": ": ", "list": ", ", "aside": " ({})"},
    "zh": {"root": "根类型", "decision": "决策", "rule": "规则", "none": "无结构变更。",
           "new": "新增根类型", "removed": "删除根类型（墓碑）", "breaks": "破坏方向",
           "comma": "，", "separator": "；", "stop": "。", "colon": "：", "list": "、", "aside": "（{}）"},
}


# With the date, a language tag and `.i18n.yaml`, a record's file names stay far below 255 bytes.
MAX_SLUG_LENGTH = 80
PROSE_HINT = "start from `govern record prose > prose.yaml`"


def read_prose_input(path: Path, languages: tuple[str, ...] = LANGUAGES) -> dict[str, dict[str, str]]:
    """The prose input: one mapping per configured language with title, summary, compatibility, verification."""
    from govern.reader import parse_yaml

    expected = " and ".join(f"{language}:" for language in languages)
    data = parse_yaml(read_text(path), str(path))
    problems = []
    if not isinstance(data, dict):
        raise InputError(Problem(str(path), f"must be a mapping with {expected}", hint=PROSE_HINT))
    prose: dict[str, dict[str, str]] = {}
    for language in languages:
        section = data.get(language)
        if not isinstance(section, dict):
            problems.append(Problem(str(path), f"{language}: must be a mapping with {', '.join(PROSE_KEYS)}",
                                    hint=PROSE_HINT))
            continue
        prose[language] = {}
        for key in PROSE_KEYS:
            value = section.get(key, "")
            if not isinstance(value, str):
                problems.append(Problem(str(path), f"{language}.{key} must be a string"))
                value = ""
            if key == "title" and not value.strip():
                problems.append(Problem(str(path), f"{language}.title must not be empty"))
            if key == "title" and "\n" in value.strip():
                problems.append(Problem(str(path), f"{language}.title must be one line"))
            # The record's own parser would read these differently from what was meant: refuse, write nothing.
            if "\r" in value:
                problems.append(Problem(str(path), f"{language}.{key} holds a carriage return",
                                        hint="use plain line breaks"))
            if any(line.startswith("## ") for line in value.split("\n")):
                problems.append(Problem(str(path), f"{language}.{key} has a line starting with `## `, which would "
                                        "start a new section of the record", hint="use `### ` or rephrase the line"))
            prose[language][key] = value.strip()
        for key in sorted(set(section) - set(PROSE_KEYS)):
            problems.append(Problem(str(path), f"{language}.{key} is not a prose key",
                                    hint=f"use {', '.join(PROSE_KEYS)}"))
    for key in sorted(set(data) - set(languages), key=str):
        problems.append(Problem(str(path), f"{key} is not a configured language",
                                hint=f"use {' and '.join(languages)} (tool.govern.languages)"))
    if problems:
        raise InputError(problems)
    return prose


def render_changes(results: list[RootDiff], language: str, witnesses=None) -> str:
    """The detected changes as a list; with `witnesses` (a witness report), each breaking change that has a
    witness document carries it in a collapsed block."""
    from govern.classify.explain import explain_change
    from govern.classify.rules import RULES_BY_ID

    labels = CHANGE_LABELS.get(language, CHANGE_LABELS["en"])
    lines = []
    for result in results:
        head = f"- `{result.root}`: {value_term(result.minimum, language)}"
        if result.decision == "new":
            head += labels["aside"].format(labels["new"])
        elif result.decision == REMOVED:
            head += labels["aside"].format(labels["removed"])
        lines.append(head)
        for index, change in enumerate(result.changes):
            if change.kind in ("root-added", "root-removed"):
                continue
            rule = RULES_BY_ID[change.rule]
            purpose = rule.purpose_zh if language == "zh" else rule.purpose_en
            broken = labels["list"].join(value_term(direction, language) for direction in change.breaks)
            breaks = f"{labels['separator']}{labels['breaks']}{labels['colon']}{broken}" if change.breaks else ""
            lines.append(f"  - `{change.location}` {explain_change(change).text(language)}{labels['colon']}"
                         f"{value_term(change.decision, language)}{labels['comma']}{labels['rule']} `{change.rule}`"
                         f"{breaks}{labels['stop']}{purpose}")
            entry = witnesses.of(result.root, index) if witnesses is not None else None
            if entry is not None and entry.status == "found":
                from govern.witness.render import markdown_block

                block = markdown_block(entry.witness, language)
                lines += ["", *(f"    {line}" if line else "" for line in block.split("\n")), ""]
    return "\n".join(lines) if lines else labels["none"]


def render_record(config: Config, declaration: Declaration, prose: dict[str, dict[str, str]],
                  results: list[RootDiff], language: str, witnesses=None) -> str:
    from govern.records.templates import load_template, record_template_name

    template = load_template(config, record_template_name(language))
    values = {"declaration": declaration_yaml(declaration), "changes": render_changes(results, language, witnesses)}
    for key in PROSE_KEYS:
        values[key] = prose[language][key] or "-"
    missing = [name for name in values if "{{" + name + "}}" not in template.text]
    if missing:
        raise InputError(Problem(template.label, "lacks the placeholders " + ", ".join(missing)))
    return re.sub(r"\{\{(\w+)\}\}", lambda match: values.get(match.group(1), match.group(0)), template.text)


@dataclass(frozen=True)
class Plan:
    """Everything a record operation will write, computed and checked before anything is written: the
    record's files, and the generated views that include it (each produced a chunk at a time as it is
    written, as `govern extract` writes them)."""

    record_id: str
    declaration: Declaration
    files: dict[Path, str]
    results: tuple[RootDiff, ...]
    generated: tuple["GeneratedFile", ...] = ()


def _prose_from_record(prose: dict[str, Prose], languages: tuple[str, ...]) -> dict[str, dict[str, str]]:
    return {language: {key: prose[language].get(key) for key in PROSE_KEYS} for language in languages}


def plan_record(config: Config, slug: str, prose: dict[str, dict[str, str]] | None, decision: str | None = None,
                date: str | None = None, *, replacing: str | None = None, today: _dt.date | None = None,
                witness_budget: int | None = None) -> Plan:
    """`witness_budget` (candidate documents checked per change and direction): embed a witness document under
    each breaking detected change."""
    from govern.extract import generated_files
    from govern.sources.load import load_configured

    if not SLUG_PATTERN.match(slug):
        raise Refusal(Problem(slug, "is not a valid slug", hint="use lowercase letters, digits and hyphens, e.g. add-thread-label"))
    if len(slug) > MAX_SLUG_LENGTH:
        raise Refusal(Problem(slug[:40] + "...", f"is longer than {MAX_SLUG_LENGTH} characters",
                              hint="a record's file names must fit every file system: shorten the slug"))
    day = record_day(date, today or _dt.datetime.now(_dt.timezone.utc).date())
    record_id = f"{day}-{slug}"
    history = load_history(config)
    # The record being refreshed is regenerated whole, so its own damage does not block the refresh.
    broken = [finding for record in history.records.values() if record.id != replacing for finding in record.findings]
    if broken:
        raise Refusal([Problem(f.path, f.message(), line=f.line, hint=f.hint()) for f in broken])
    if replacing is None and record_id in history.records:
        raise Refusal(Problem(_record_path(config, record_id), "already exists",
                              hint="records are never overwritten: choose another slug or date"))
    if replacing is not None:
        history = _without(history, replacing)
    current = load_configured(config)
    old = recorded_graphs(config, history) if history.records else []
    # (routes: only witness documents follow them)
    results = [result for result in classified(config, history, old, current, routes=witness_budget is not None)
               if result.decision != UNCHANGED]
    if not results:
        raise Refusal(Problem(f"{config.records_dir}/", "nothing to record: every root agrees "
                              "with its latest record", hint="`govern diff` shows the current changes"))
    for result in results:
        latest = history.latest(result.root)
        if latest is not None and latest[:10] > day:
            raise Refusal(Problem(record_id, f"is dated before {latest}, the latest record of {result.root}",
                                  hint=f"date the record {latest[:10]} or later"))
    inferred = VERSION_BUMP if any(r.minimum == VERSION_BUMP for r in results) else SAME_VERSION
    if decision is not None and decision == SAME_VERSION and inferred == VERSION_BUMP:
        bumps = ", ".join(r.root for r in results if r.minimum == VERSION_BUMP)
        raise Refusal(Problem(record_id, f"--decision same-version is weaker than the inferred version-bump ({bumps})",
                              hint="run `govern diff` to see the breaking changes, or declare version-bump"))
    chosen = decision or inferred
    if prose is None:
        raise Refusal(Problem(record_id, "needs prose", hint=f"pass --prose FILE ({PROSE_HINT})"))
    if chosen == SAME_VERSION and not all(prose[language]["compatibility"] for language in config.languages):
        raise Refusal(Problem(record_id, "a same-version record needs compatibility prose in every language",
                              hint="explain why old data may omit the change and why older readers ignore it"))

    inventory = build_inventory(current)
    graphs_by_source = {graph.source: graph for graph in current}
    entries = []
    problems = []
    for result in results:
        predecessor = history.latest(result.root)
        previous = history.records[predecessor].declaration.entry(result.root) if predecessor else None
        # A tombstone declares the version its source writes from now on; a source that is gone writes none.
        graph = graphs_by_source.get(source_of(result.root))
        entry = Entry(root=result.root, decision=chosen if chosen == VERSION_BUMP else result.minimum,
                      predecessor=predecessor, predecessor_link=history.records[predecessor].link if predecessor else None,
                      after=inventory.roots[result.root].digest if result.decision != REMOVED else None,
                      format_before=previous.format_after if previous else None,
                      format_after=graph.format_version if graph is not None else None, mode=result.mode)
        # A source that has never declared a format version has none to raise (configure format-version
        # to have the gate hold the version too); one that has must raise it.
        declares_versions = entry.format_before is not None or entry.format_after is not None
        if entry.decision == VERSION_BUMP and previous is not None and graph is not None and declares_versions and \
                not raises_format_version(entry.format_before, entry.format_after):
            problems.append(_not_raised(config, result.root, entry))
        entries.append(entry)
    if problems:
        raise Refusal(problems)
    declaration = Declaration(record_id, day, not history.records, tuple(entries))
    present = {entry.root for entry in entries if entry.after is not None}
    snapshot = snapshot_document(record_id, current, present, {r: e.digest for r, e in inventory.roots.items()},
                                 {source_of(entry.root) for entry in entries})
    folder = config.path(config.records_dir)
    languages = config.languages
    witnesses = None
    if witness_budget is not None:
        from govern.witness.search import find_witnesses

        witnesses = find_witnesses(results, old, current, witness_budget)
    texts = {language: render_record(config, declaration, prose, results, language, witnesses)
             for language in languages}
    parsed = {language: parse_prose(split_front_matter(texts[language])[1]) for language in languages}
    files = {folder / f"{record_id}{record_suffix(language, languages)}": texts[language] for language in languages}
    files[folder / f"{record_id}{record_suffix('i18n')}"] = consistency_yaml(declaration, parsed, languages)
    files[folder / f"{record_id}{record_suffix('schema')}"] = snapshot_text(snapshot)
    # The generated views (catalog history, format references) include the record about to be written.
    planned = Record(record_id, folder, config.project_root, declarations={language: declaration for language in languages},
                     languages=languages)
    planned.snapshot_bytes = files[folder / f"{record_id}{record_suffix('schema')}"].encode("utf-8")
    generated = generated_files(config, inventory, build_history({**history.records, record_id: planned}))
    return Plan(record_id, declaration, files, tuple(results), tuple(generated))


def record_day(date: str | None, today: _dt.date) -> str:
    """The record's date: `today` (in UTC) by default; given, a real YYYY-MM-DD day no later than tomorrow
    (a record is dated when it is written; tomorrow allows for time zones ahead of UTC)."""
    if date is None:
        return today.isoformat()
    if not is_calendar_date(date):
        raise Refusal(Problem(date, "is not a date", hint="use YYYY-MM-DD"))
    if _dt.date.fromisoformat(date) > today + _dt.timedelta(days=1):
        raise Refusal(Problem(date, "is after tomorrow (UTC)", hint="a record is dated the day it is written"))
    return date


def _not_raised(config: Config, root: str, entry: Entry) -> Problem:
    source = config.source(source_of(root))
    if entry.format_after is None:
        return Problem(root, f"a version-bump must raise the format version, but source {source.name} declares none",
                       hint=f"set format-version in the [[tool.govern.sources]] entry of {source.name} (a JSON pointer to "
                            "the writer constant) and raise it in the same change")
    where = f"at {source.format_version}" if source.format_version else "its x-persistence-version marker"
    return Problem(root, f"a version-bump must raise the format version, which stays {show_version(entry.format_before)}"
                   f" -> {show_version(entry.format_after)}",
                   hint=f"raise the format version of source {source.name} ({where}) in the same change")


def _record_path(config: Config, record_id: str) -> str:
    """The English file of a record as the user sees it: relative to the project, like every finding."""
    return f"{config.records_dir}/{record_id}{record_suffix(config.languages[0], config.languages)}"


def _without(history: History, record_id: str) -> History:
    records = {key: value for key, value in history.records.items() if key != record_id}
    successors = {key: [s for s in value if s != record_id] for key, value in history.successors.items()}
    by_root = {root: [r for r in ids if r != record_id] for root, ids in history.by_root.items()}
    return History(records, successors, {root: ids for root, ids in by_root.items() if ids})


def create_record(config: Config, slug: str, prose_path: Path, decision: str | None = None,
                  date: str | None = None, witness_budget: int | None = None) -> Plan:
    prose = read_prose_input(prose_path, config.languages)
    from govern.extract import clean_interrupted_writes

    with project_lock(config.project_root):
        # Under the lock a concurrent `record new` has finished: its record is part of the history planned here.
        clean_interrupted_writes(config)
        plan = plan_record(config, slug, prose, decision, date, witness_budget=witness_budget)
        _write_plan(config, plan, replace=False)
    return plan


def refresh_record(config: Config, record_id: str, prose_path: Path | None = None,
                   decision: str | None = None, witness_budget: int | None = None) -> Plan:
    history = load_history(config)
    record = history.records.get(record_id)
    if record is None:
        raise InputError(Problem(_record_path(config, record_id), "does not exist"))
    if record.declaration is None:
        raise Refusal(Problem(record.source_file, "cannot be read, so it cannot be refreshed",
                              hint="fix its front matter first"))
    # A later record that only claims to be the baseline is refreshed like any other (which corrects it).
    if record.declaration.baseline and not check_baseline(history, only=record_id):
        raise Refusal(Problem(record.source_file, "is the baseline, which is never refreshed",
                              hint="record the change in a new record: govern record new SLUG --prose FILE"))
    base = accepted_on_base(config, record.path(config.languages[0]))
    if base is not None:
        raise Refusal(Problem(record.source_file, f"is already on the base branch {base}, so it is accepted history",
                              hint="record the change in a new record: govern record new SLUG --prose FILE"))
    dependants = history.dependants(record_id)
    if dependants:
        raise Refusal(Problem(record.source_file, f"has dependants ({', '.join(dependants)}), so it is accepted "
                              "history", hint="record the change in a new record instead"))
    unreadable = [language for language in config.languages if language not in record.prose]
    if prose_path is None and unreadable:
        raise Refusal(Problem(record.relative(unreadable[0]), "its prose cannot be read, so it cannot be kept",
                              hint=f"pass the prose again: govern record refresh {record_id} --prose FILE"))
    prose = read_prose_input(prose_path, config.languages) if prose_path else \
        _prose_from_record(record.prose, config.languages)
    # The id keeps its date and slug: a refresh regenerates the same record, it never renames it.
    from govern.extract import clean_interrupted_writes

    with project_lock(config.project_root):
        clean_interrupted_writes(config)
        plan = plan_record(config, record_id[11:], prose, decision, record_id[:10], replacing=record_id,
                           witness_budget=witness_budget)
        _write_plan(config, plan, replace=True)
    return plan


def _write_plan(config: Config, plan: Plan, replace: bool) -> None:
    """The regenerated inventory, catalogs and format references are staged first (produced and written
    beside their files as they come, never held whole); then the record's files appear together (staged,
    then moved with the source-language file last, so a reader never sees that file without its
    siblings); then the staged views replace their files. A failure before that writes nothing; a rename
    of a view the system refuses leaves the record and the views moved before it, no temporary, and the
    next `govern extract` brings every view in line."""
    folder = config.path(config.records_dir)
    languages = config.languages
    parts = ["schema", "i18n", *reversed(languages)]
    names = [f"{plan.record_id}{record_suffix(part, languages)}" for part in parts]
    staged = stage_changed((generated.path, generated.render) for generated in plan.generated)
    try:
        write_file_set(folder, {name: plan.files[folder / name] for name in names}, replace=replace)
    except FileExistsError as error:
        discard_staged(staged)
        raise Refusal(Problem(str(error), "already exists", hint="records are never overwritten: choose another "
                                                                 "slug or date")) from None
    except BaseException:
        discard_staged(staged)
        raise
    rename_staged(staged)


def accepted_on_base(config: Config, path: Path) -> str | None:
    """The base branch that already holds this record file, when the project is a git checkout.

    The base is `[tool.govern] base`, or else `origin/main` when present, or else `main`. Outside a checkout,
    or when the base does not exist, nothing is known to be accepted and None is returned.
    """
    import subprocess

    def git(*args: str) -> subprocess.CompletedProcess | None:
        try:
            return subprocess.run(["git", "-C", str(config.project_root), *args], capture_output=True, text=True,
                                  timeout=30, check=False)
        except (OSError, subprocess.SubprocessError):  # no git on this machine: nothing is known
            return None

    top = git("rev-parse", "--show-toplevel")
    if top is None or top.returncode != 0:
        return None
    for base in ([config.base] if config.base else ["origin/main", "main"]):
        found = git("rev-parse", "--verify", "--quiet", f"{base}^{{commit}}")
        if found is None or found.returncode != 0:
            continue
        try:
            relative = path.resolve().relative_to(Path(top.stdout.strip()).resolve()).as_posix()
        except ValueError:
            return None
        present = git("cat-file", "-e", f"{base}:{relative}")
        return base if present is not None and present.returncode == 0 else None
    return None


def sync_record(config: Config, record_id: str) -> Path:
    """Rewrite the consistency record after the prose was updated in every language.

    Sync blesses prose edits, nothing else: it refuses while a language lags behind an edited one (a stale
    translation) and while the declaration disagrees with the record's snapshot.
    """
    history = load_history(config)
    record = history.records.get(record_id)
    if record is None:
        raise InputError(Problem(_record_path(config, record_id), "does not exist"))
    # A missing or unreadable consistency record is what sync regenerates; other damage must be fixed first.
    problems = [Problem(f.path, f.message(), line=f.line) for f in record.findings
                if f.id == "record-syntax" and not f.path.endswith(record_suffix("i18n"))]
    problems += [Problem(record.relative(part), "does not exist", hint="restore it from version control")
                 for part in config.languages if not record.path(part).is_file()]
    if problems or len(record.declarations) != len(config.languages):
        raise Refusal(problems or Problem(record.source_file, "every language file must be readable"))
    for language in config.languages[1:]:
        if record.declarations[language] != record.declaration:
            raise Refusal(Problem(record.relative(language), "its declaration differs from the English one"
                                  if config.languages[0] == "en" else "its declaration differs from the source "
                                  f"language's ({record.source_file})",
                                  hint=f"the declarations must be identical; fix {record.relative(language)} first"))
    refused = [finding for finding in check_languages(record) if finding.id == "translation-stale"]
    snapshot_findings: list = []
    check_snapshot(record, snapshot_findings)
    refused += snapshot_findings + check_format_versions(history, only=record.id) + \
        check_baseline(history, only=record.id)
    if refused:
        raise Refusal([Problem(f.path, f.message(), line=f.line, hint=f.hint()) for f in refused])
    # The generated sections' hashes are kept from creation: sync blesses prose, not generated text.
    kept = (record.consistency or {}).get("generated") if record.consistency is not None else None
    generated = {key: value for key, value in kept.items() if isinstance(value, str)} \
        if isinstance(kept, dict) else ({} if record.consistency is not None else None)
    path = record.path("i18n")
    with project_lock(config.project_root):
        atomic_write_many({path: consistency_yaml(record.declaration, record.prose, config.languages, generated)})
    return path


@dataclass(frozen=True)
class Suggestion:
    """What to run to acknowledge the current changes, and a prose file pre-filled from them."""

    command: str
    prose: str
    roots: tuple[str, ...] = ()  # the roots it acknowledges


PROSE_COMMENT = {
    "en": """# Prose for `govern record new SLUG --prose FILE`: every configured language, each with the same
# four keys. Compatibility reasoning is required for same-version records: why old data may omit the
# addition and why older readers ignore it (for a required property made optional: how readers handle
# its absence).""",
    "zh": """# `govern record new SLUG --prose FILE` 的正文：每种配置的语言各一份，键相同（共四个）。
# 同版本记录必须写兼容性说明：为什么旧数据可以不含新增内容，为什么较旧的读取方会忽略它
# （对于由必需改为可选的属性：读取方如何处理它的缺失）。""",
}
# The comments of a prose file pre-filled from detected changes, in the language the reader asked for.
SUGGESTION_COMMENTS = {
    "en": {
        "intro": ["# Pre-filled by govern from the detected changes. Edit every language, write the",
                  "# compatibility reasoning and the verification evidence, then run:"],
        "bump": "# A version-bump must raise the source's format version in the same change.",
        "rules": "# Rules that decided these changes (what the compatibility reasoning must answer):",
    },
    "zh": {
        "intro": ["# 由 govern 根据检测到的变更预先填写。请编辑每种语言，写出兼容性说明和验证依据，",
                  "# 然后运行："],
        "bump": "# 版本升级必须在同一变更中提高该来源的格式版本。",
        "rules": "# 决定这些变更的规则（兼容性说明需要回答的问题）：",
    },
}
CHANGE_TITLE = {"en": "Change {names}", "zh": "变更 {names}"}


def prose_skeleton(languages: tuple[str, ...], results: list[RootDiff] = (), header: list[str] = ()) -> str:
    """A prose input for the configured languages; titles and summaries drafted from `results` when given."""
    names = ", ".join(result.root for result in results)
    lines = list(header) or PROSE_COMMENT.get(languages[0], PROSE_COMMENT["en"]).split("\n")
    for language in languages:
        title = CHANGE_TITLE.get(language, CHANGE_TITLE["en"]).format(names=names) if results else ""
        lines += [f"{language}:", f"  title: {json.dumps(title, ensure_ascii=False)}"]
        if results:
            lines.append("  summary: |")
            lines += [f"    {line}" for line in render_changes(results, language).split("\n")]
        else:
            lines.append('  summary: ""')
        lines += ['  compatibility: ""', '  verification: ""']
    return "\n".join(lines) + "\n"


def pending_changes(config: Config, history: History, current: list) -> list[RootDiff]:
    """Every root whose current structure differs from its latest record (all roots before a baseline)."""
    old = recorded_graphs(config, history) if history.records else []
    return [result for result in classified(config, history, old, current, routes=False)
            if result.decision != UNCHANGED]


def classified(config: Config, history: History, old: list, current: list, routes: bool = True) -> list[RootDiff]:
    """The current sources against the latest records, each root decided in its source's mode (`routes`: see
    `govern.classify.classify.classify`)."""
    from govern.classify.modes import against_each, apply_modes, source_modes
    from govern.records.history import chain_graphs, predecessor_of

    return apply_modes(classify(old, current, routes), source_modes(config), lambda root: against_each(
        root, chain_graphs(history, root, predecessor_of(history, history.latest(root), root)), current),
        history.recorded_modes())


def suggest_record(config: Config, history: History, current: list,
                   language: str | None = None) -> Suggestion | None:
    """Pre-fill the prose input for the changes `govern verify` found unacknowledged.

    Titles and summaries are drafted from the detected changes in every language; the compatibility
    reasoning and the verification evidence are the maintainer's to write, so they stay empty, with the
    rule purposes as comments (in `language`, by default the source language) saying what the reasoning
    must answer.
    """
    from govern.classify.rules import RULES_BY_ID

    results = pending_changes(config, history, current)
    if not results:
        return None
    roots = [result.root for result in results]
    bump = any(result.minimum == VERSION_BUMP for result in results)
    if not history.records:
        slug = "baseline"
    else:
        slug = "change-" + suggested_slug(roots[0]) if len(roots) == 1 else f"change-{len(roots)}-roots"
    command = f"govern record new {slug} --prose prose.yaml" + \
        (" --decision version-bump" if bump and history.records else "")
    purposes = sorted({(change.rule, change.decision) for result in results for change in result.changes})
    language = language or config.languages[0]
    comments = SUGGESTION_COMMENTS.get(language, SUGGESTION_COMMENTS["en"])
    lines = [*comments["intro"], f"#   {command}"]
    if bump and history.records:
        lines.append(comments["bump"])
    if purposes:
        lines.append(comments["rules"])
    for rule_id, decision in purposes:
        rule = RULES_BY_ID[rule_id]
        purpose = rule.purpose_zh if language == "zh" else rule.purpose_en
        lines.append(f"#   {rule_id} ({value_term(decision, language)}): {purpose}")
    return Suggestion(command, prose_skeleton(config.languages, results, lines), tuple(roots))
