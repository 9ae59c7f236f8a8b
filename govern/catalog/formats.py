"""Format references: per source and per format version its records reach, the complete schema of all the
source's roots as they stood at the last record of that format.

Built from the records' snapshots alone, so a format that never had a release tag still has a reference.
Roots a record did not touch keep the snapshot of their own latest record; when two snapshots hold
different structures under one type name, the older one is named after its record (`Thread~2026-12-01-x`),
since names never enter a digest. Normalizing a reference reproduces every root's recorded digest.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from govern.catalog.render import (
    FORMATS_FOLDER, TypeSection, page_languages, page_name, record_link, render_types, type_sections,
)
from govern.errors import GovernError
from govern.model.canonical import indented_json
from govern.model.fingerprint import DOMAINS, type_digests
from govern.model.graph import TypeGraph
from govern.model.nodes import NamedType, Root
from govern.records.format import Entry
from govern.records.history import History, Record
from govern.records.snapshot import DIALECT, INVENTORY_FORMAT, ROOTS, export_node, reachable_types
from govern.sources.jsonschema import _rename
from govern.sources.refs import escape_token

COMMAND = "govern formats"


@dataclass(frozen=True)
class RootState:
    """Where a root stood in a format: the record that last declared it and that declaration."""

    root: str
    record: str
    entry: Entry


@dataclass(frozen=True)
class FormatReference:
    source: str
    version: str | int
    last_record: str  # the last record declaring this format for the source
    records: tuple[tuple[str, Entry], ...]  # every (record id, entry) of the source declaring this format
    roots: tuple[RootState, ...]
    graph: TypeGraph

    @property
    def name(self) -> str:
        return f"{self.source}-{self.version}"


def source_of(root: str) -> str:
    return root.partition(":")[0]


def format_references(history: History) -> list[FormatReference]:
    """Every source's format references, ordered by source and then by first appearance in history.

    A record whose snapshot cannot be read contributes nothing here; `govern verify` reports it.
    """
    ordered = history.ordered()
    position = {record.id: index for index, record in enumerate(ordered)}
    declaring: dict[tuple[str, Any], list[tuple[str, Entry]]] = {}
    for record in ordered:
        for entry in record.declaration.entries:
            if entry.format_after is not None:
                declaring.setdefault((source_of(entry.root), _version_key(entry.format_after)), []).append(
                    (record.id, entry))
    references = []
    snapshots: dict[str, list[TypeGraph] | None] = {}
    for (source, _), declared in declaring.items():
        last = max(declared, key=lambda item: position[item[0]])[0]
        states = _states_at(ordered[: position[last] + 1], source)
        graph = _merged_graph(source, states, history.records, snapshots, position)
        if graph is None:
            continue
        version = declared[-1][1].format_after
        types, roots, domain = graph
        references.append(FormatReference(source, version, last, tuple(declared), tuple(states),
                                          TypeGraph(source, types, roots, version, f"{FORMATS_FOLDER}/{source}-{version}",
                                                    declared_format=domain)))
    first_seen = {(reference.source, reference.version): min(position[r] for r, _ in reference.records)
                  for reference in references}
    return sorted(references, key=lambda r: (r.source, first_seen[(r.source, r.version)]))


def _version_key(version: Any) -> str:
    # 1 and "1" name the same file, so they are one format.
    return str(version)


def _states_at(records: list[Record], source: str) -> list[RootState]:
    """Every root of the source still present after the given records, with the record it stands at."""
    state: dict[str, RootState] = {}
    for record in records:
        for entry in record.declaration.entries:
            if source_of(entry.root) != source:
                continue
            if entry.after is None:
                state.pop(entry.root, None)
            else:
                state[entry.root] = RootState(entry.root, record.id, entry)
    return [state[root] for root in sorted(state)]


def _merged_graph(source: str, states: list[RootState], records: dict[str, Record],
                  snapshots: dict[str, list[TypeGraph] | None],
                  position: dict[str, int]) -> tuple[dict[str, NamedType], dict[str, Root], int] | None:
    """One graph of all roots: the newest snapshot's names win, older structures are renamed apart."""
    by_record: dict[str, list[RootState]] = {}
    for state in states:
        by_record.setdefault(state.record, []).append(state)
    types: dict[str, NamedType] = {}
    digests: dict[str, str] = {}
    roots: dict[str, Root] = {}
    domain: int | None = None  # one source has one fingerprint domain: the newest snapshot's
    for record_id in sorted(by_record, key=lambda r: position[r], reverse=True):
        graphs = _snapshot(records[record_id], snapshots)
        graph = next((g for g in graphs or [] if g.source == source), None)
        if graph is None:
            return None
        wanted = [state for state in by_record[record_id] if state.root in graph.roots]
        if len(wanted) != len(by_record[record_id]):
            return None
        domain = graph.inventory_format if domain is None else domain
        keys = reachable_types(graph, [graph.roots[state.root].type_key for state in wanted])
        # Digests in one domain tell the structures apart across records; a domain-2 snapshot has them already
        # (the reachable types are closed under references, so their digests are those of the whole graph).
        own = graph.digests if graph.inventory_format == 2 else \
            type_digests({key: graph.types[key] for key in keys}, DOMAINS[2])
        names: dict[str, str] = {}
        for key in keys:
            name, number = key, 1
            while name in digests and digests[name] != own[key]:
                number += 1
                name = f"{key}~{record_id}" if number == 2 else f"{key}~{record_id}~{number}"
            names[key] = name
        for key in keys:
            if names[key] not in types:
                named = graph.types[key]
                types[names[key]] = NamedType(names[key], names[key], _rename(named.node, names), named.description)
                digests[names[key]] = own[key]
        for state in wanted:
            root = graph.roots[state.root]
            roots[state.root] = Root(state.root, names[root.type_key], root.role)
    return dict(sorted(types.items())), dict(sorted(roots.items())), domain or 1


def _snapshot(record: Record, cache: dict[str, list[TypeGraph] | None]) -> list[TypeGraph] | None:
    if record.id not in cache:
        try:
            cache[record.id] = record.snapshot_graphs()
        except (GovernError, ValueError):  # a damaged snapshot: `govern verify` reports it
            cache[record.id] = None
    return cache[record.id]


# --- the schema document -------------------------------------------------------------------------------


def reference_document(reference: FormatReference) -> dict:
    """The reference as one JSON Schema 2020-12 document validating an instance of any of its roots."""
    graph = reference.graph
    refs = [{"$ref": f"#/$defs/{escape_token(graph.roots[state.root].type_key)}"} for state in reference.roots]
    document: dict[str, Any] = {
        "$schema": DIALECT,
        "$id": f"urn:govern:format:{reference.source}:{reference.version}",
        "$comment": f"Generated by `{COMMAND}` from the records' snapshots; do not edit.",
        "title": f"{reference.source} format {reference.version}",
        "x-govern-source": reference.source,
        "x-govern-format-version": reference.version,
        "x-govern-record": reference.last_record,
        INVENTORY_FORMAT: graph.inventory_format,
        ROOTS: {state.root: {"type": graph.roots[state.root].type_key, "role": graph.roots[state.root].role,
                             "digest": state.entry.after, "record": state.record}
                for state in reference.roots},
    }
    document.update(refs[0] if len(refs) == 1 else {"anyOf": refs})
    document["$defs"] = {key: export_node(named.node) for key, named in graph.types.items()}
    return document


def reference_text(reference: FormatReference) -> str:
    return indented_json(reference_document(reference)) + "\n"


# --- the pages -------------------------------------------------------------------------------------------

LABELS = {
    "en": {
        "generated": f"<!-- Generated by `{COMMAND}`; do not edit. -->",
        "index_title": "Format references",
        "index_intro": "For every source and every format version its records reach, the complete schema of all "
                       "the source's roots as they stood at the last record of that format, built from the records' "
                       "snapshots. Intermediate formats without a release tag are included.",
        "source": "Source", "version": "Format version", "last": "Last record", "date": "Date",
        "schema": "Schema", "page": "Page",
        "title": "Format reference: `{source}` {version}",
        "intro": "The complete schema of source `{source}` at format version `{version}`, as at record {record} "
                 "(the last record of this format). Schema: [{schema}]({schema}).",
        "roots": "Roots", "root": "Root", "role": "Role", "type": "Type", "digest": "Digest",
        "record": "Record",
        "records": "Records of this format",
        "decision": "Decision",
        "types": "Named types",
        "readers": "Read data of this format with `govern formats --models DIR`, which generates a pydantic reader "
                   "per format reference.",
    },
    "zh": {
        "generated": f"<!-- 由 `{COMMAND}` 生成；请勿手工编辑。 -->",
        "index_title": "格式参考",
        "index_intro": "对每个来源及其记录所达到的每个格式版本，列出该来源全部根类型在该格式最后一条记录时的完整模式，"
                       "由各记录的快照构建。没有发布标签的中间格式也包括在内。",
        "source": "来源", "version": "格式版本", "last": "最后一条记录", "date": "日期",
        "schema": "模式", "page": "页面",
        "title": "格式参考：`{source}` {version}",
        "intro": "来源 `{source}` 在格式版本 `{version}` 下的完整模式，截至记录 {record}（该格式的最后一条记录）。"
                 "模式文件：[{schema}]({schema})。",
        "roots": "根类型", "root": "根类型", "role": "角色", "type": "类型", "digest": "指纹",
        "record": "记录",
        "records": "该格式的记录",
        "decision": "决策",
        "types": "命名类型",
        "readers": "用 `govern formats --models DIR` 读取该格式的数据：它为每个格式参考生成一个 pydantic 读取方。",
    },
}


def labels(language: str) -> dict:
    return LABELS.get(language, LABELS["en"])


def render_reference_page(reference: FormatReference, records: dict[str, Record], folder: Path,
                          records_folder: Path, language: str, languages: tuple[str, ...],
                          sections: list[TypeSection] | None = None) -> str:
    """A reference's page in one language; `sections`, when given, are its named types' sections (see
    `type_sections`), shared by the pages of every language."""
    from govern.terms import value_term

    text = labels(language)
    link = lambda record_id: record_link(record_id, folder, records_folder, language, languages)  # noqa: E731
    lines = [text["generated"], "", "# " + text["title"].format(source=reference.source, version=reference.version),
             "", text["intro"].format(source=reference.source, version=reference.version,
                                      record=link(reference.last_record), schema=f"{reference.name}.schema.json"),
             "", text["readers"], "", f"## {text['roots']}", "",
             f"| {text['root']} | {text['role']} | {text['type']} | {text['digest']} | {text['record']} |",
             "|---|---|---|---|---|"]
    graph = reference.graph
    for state in reference.roots:
        root = graph.roots[state.root]
        lines.append(f"| `{state.root}` | {value_term(root.role, language)} | `{root.type_key}` | `{state.entry.after}` "
                     f"| {link(state.record)} |")
    lines += ["", f"## {text['records']}", "", f"| {text['record']} | {text['date']} | {text['root']} | "
              f"{text['decision']} |", "|---|---|---|---|"]
    for record_id, entry in reference.records:
        date = records[record_id].declaration.date
        lines.append(f"| {link(record_id)} | {date} | `{entry.root}` | {value_term(entry.decision, language)} |")
    lines += ["", f"## {text['types']}", ""]
    lines += render_types(graph, graph.digests, language, sections)
    return "\n".join(lines).rstrip("\n") + "\n"


def render_index(references: list[FormatReference], records: dict[str, Record], folder: Path,
                 records_folder: Path, language: str, languages: tuple[str, ...]) -> str:
    text = labels(language)
    lines = [text["generated"], "", f"# {text['index_title']}", "", text["index_intro"], ""]
    lines += [f"| {text['source']} | {text['version']} | {text['last']} | {text['date']} | {text['schema']} | "
              f"{text['page']} |", "|---|---|---|---|---|---|"]
    for reference in references:
        page = page_name(reference.name, language)
        date = records[reference.last_record].declaration.date
        last = record_link(reference.last_record, folder, records_folder, language, languages)
        lines.append(f"| `{reference.source}` | `{reference.version}` | {last} | {date} | "
                     f"[{reference.name}.schema.json]({reference.name}.schema.json) | [{page}]({page}) |")
    return "\n".join(lines) + "\n"


def format_files(folder: Path, records_folder: Path, history: History,
                 languages: tuple[str, ...]) -> dict[Path, str]:
    """Every file of the format references: a schema and a page per language for each, and the index."""
    references = format_references(history)
    files: dict[Path, str] = {}
    for reference in references:
        files[folder / f"{reference.name}.schema.json"] = reference_text(reference)
        sections = type_sections(reference.graph, reference.graph.digests)
        for language in page_languages(languages):
            files[folder / page_name(reference.name, language)] = render_reference_page(
                reference, history.records, folder, records_folder, language, languages, sections)
    for language in page_languages(languages) if references else ():
        files[folder / page_name("index", language)] = render_index(
            references, history.records, folder, records_folder, language, languages)
    return files
