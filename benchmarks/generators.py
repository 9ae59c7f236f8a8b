"""Realistic sources for the benchmarks, deterministic for a seed.

- `named_types`: a JSON Schema with N named types: objects with a handful of typed properties, open and
  closed, enums, arrays, maps, nullable references, discriminated and plain unions, intersections; each
  type refers to earlier ones (an acyclic web) or, with `recursive`, to any type, with a ring through all
  of them so they form one strongly connected component.
- `changed`: the next release of such a document: about one type in fifty gains an optional property,
  loses a property, or gets another enum value, so a diff has work at every level.
- `release_project`: a project whose one root is such a document, with a baseline record of one release
  and the next release as its current source: what `govern diff` and `govern extract` see in CI.
- `history_project`: a project of R roots with a history of N change records (a baseline, then records
  that each add one optional property to one root), written with the library's own record planner.
"""

from __future__ import annotations

import copy
import json
import random
import shutil
from pathlib import Path

DIALECT = "https://json-schema.org/draft/2020-12/schema"


def _ref(index: int) -> dict:
    return {"$ref": f"#/$defs/T{index}"}


def _type(index: int, rng: random.Random, count: int, recursive: bool) -> dict:
    def target() -> int:
        if recursive:
            return rng.randrange(count)
        return rng.randrange(index) if index else -1

    properties: dict = {
        "id": {"type": "string", "minLength": 1, "maxLength": 64},
        "created": {"type": "string", "format": "date-time"},
        "count": {"type": "integer", "minimum": 0, "maximum": rng.randint(10, 10_000)},
        "state": {"enum": ["open", "closed", f"state-{index % 23}"]},
        "labels": {"type": "array", "items": {"type": "string"}, "maxItems": 20},
        "attributes": {"type": "object", "additionalProperties": {"type": "string"}},
    }
    shape = index % 5
    references = [target() for _ in range(rng.randint(1, 3))]
    references = [ref for ref in references if ref >= 0]
    for position, ref in enumerate(references):
        style = rng.randrange(4)
        if style == 0:
            properties[f"link{position}"] = _ref(ref)
        elif style == 1:
            properties[f"items{position}"] = {"type": "array", "items": _ref(ref)}
        elif style == 2:
            properties[f"maybe{position}"] = {"anyOf": [_ref(ref), {"type": "null"}]}
        else:
            properties[f"byName{position}"] = {"type": "object", "additionalProperties": _ref(ref)}
    if recursive:
        properties["next"] = _ref((index + 1) % count)  # the ring that makes every type reach every other
    schema: dict = {"type": "object", "properties": properties, "required": ["id", "state"],
                    "additionalProperties": shape != 0}
    if shape == 3 and len(references) >= 2:
        # A discriminated union of two object kinds, each with its literal kind.
        schema["properties"]["payload"] = {"oneOf": [
            {"type": "object", "properties": {"kind": {"const": "a"}, "value": _ref(references[0])}, "required": ["kind"]},
            {"type": "object", "properties": {"kind": {"const": "b"}, "value": _ref(references[1])}, "required": ["kind"]},
        ]}
    if shape == 4 and references:
        return {"allOf": [_ref(references[0]), schema]} if references[0] != index else schema
    return schema


def named_types(count: int, seed: int = 7, recursive: bool = False) -> dict:
    rng = random.Random(seed)
    defs = {f"T{index}": _type(index, rng, count, recursive) for index in range(count)}
    return {"$schema": DIALECT, "title": "Bench", "$ref": f"#/$defs/T{count - 1}", "$defs": defs}


def changed(document: dict, seed: int = 11) -> dict:
    rng = random.Random(seed)
    result = copy.deepcopy(document)
    names = sorted(result["$defs"])
    for name in rng.sample(names, max(1, len(names) // 50)):
        schema = result["$defs"][name]
        target = schema["allOf"][1] if "allOf" in schema else schema
        action = rng.randrange(3)
        if action == 0:
            target["properties"]["note"] = {"type": "string"}
        elif action == 1:
            target["properties"].pop("created", None)
        else:
            target["properties"]["state"]["enum"].append("archived")
    return result


def one_changed(document: dict, seed: int = 17) -> dict:
    """One type gains an optional property: in a recursive component, every member's digest changes."""
    rng = random.Random(seed)
    result = copy.deepcopy(document)
    schema = result["$defs"][rng.choice(sorted(result["$defs"]))]
    (schema["allOf"][1] if "allOf" in schema else schema)["properties"]["note"] = {"type": "string"}
    return result


def retargeted(document: dict, seed: int = 13) -> dict:
    """One reference of a recursive component pointed at another member (a `next` of the ring), and one
    optional property added: the pairs of types the comparison meets are no longer of the same name, and
    their references are misaligned in turn (without a limit, the product of the two graphs)."""
    rng = random.Random(seed)
    result = copy.deepcopy(document)
    names = sorted(result["$defs"])
    changed, target = rng.sample(names, 2)
    schema = result["$defs"][changed]
    (schema["allOf"][1] if "allOf" in schema else schema)["properties"]["next"] = {"$ref": f"#/$defs/{target}"}
    schema = result["$defs"][rng.choice(names)]
    (schema["allOf"][1] if "allOf" in schema else schema)["properties"]["note"] = {"type": "string"}
    return result


def ring_of_content_models(count: int, step: int = 7, extra: bool = False) -> dict:
    """A ring through `next` whose every type admits undeclared names holding the type itself; with `extra`,
    each type gains a property `extra` referring to the member `step` further on. Telling which ways each
    added property breaks compares the content model (T_i) with T_(i+step), which gained `extra` as well: a
    question inside a question, one per pair of members (the product of the graph with itself)."""
    defs = {}
    for index in range(count):
        properties: dict = {"next": _ref((index + 1) % count), "v": {"type": "string"}}
        if extra:
            properties["extra"] = _ref((index + step) % count)
        defs[f"T{index}"] = {"type": "object", "properties": properties, "additionalProperties": _ref(index)}
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "$ref": "#/$defs/T0", "$defs": defs}


def ring_of_equals(count: int, changed: str = "x") -> dict:
    """A ring through `next` of `count` equal types but one, which holds one property more (`changed`, an
    integer): members are told apart only by how far they stand from that one, one more of them per refinement
    round, so hashing every member in every round would take the square of the ring."""
    defs = {f"T{index}": {"type": "object", "required": ["v"], "properties": {
        "next": _ref((index + 1) % count), "v": {"type": "string"}}} for index in range(count)}
    defs["T0"]["properties"][changed] = {"type": "integer"}
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "$ref": "#/$defs/T1", "$defs": defs}


def ring_with_wide_union(count: int, changed: str = "x") -> dict:
    """`ring_of_equals`, where one more member holds a union of every member (`anyOf`): one node that reads the
    whole ring, whose children change class one after another as the members are told apart."""
    document = ring_of_equals(count, changed)
    document["$defs"][f"T{count // 2}"]["properties"]["any"] = {"anyOf": [_ref(index) for index in range(count)]}
    return document


def patterns_and_names(count: int, added: bool = False) -> dict:
    """Two objects: one of `count` patterns (`patternProperties`), one of `count` declared names; with `added`,
    each gains what the other holds, so every added name is asked of every pattern beside it and every added
    pattern of every name beside it (the product, one search each), while no pattern claims any name."""
    patterns = {f"^x{index}_": {"type": "integer"} for index in range(count)}
    names = {f"p{index}": {"type": "string"} for index in range(count)}
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object", "properties": {
        "patterned": {"type": "object", "patternProperties": patterns, **({"properties": names} if added else {})},
        "named": {"type": "object", "properties": names, **({"patternProperties": patterns} if added else {})}}}


def alias_chain(count: int, extended: bool = False) -> dict:
    """A root that reaches its one object through `count` aliases, each only a reference to the next (T0 -> T1 ->
    ... -> the object); with `extended`, the object has one more optional property. Every reader follows the
    chain: checking that it ends in structure, finding what each alias stands for, and comparing the root."""
    defs: dict = {f"T{index}": _ref(index + 1) for index in range(count)}
    properties: dict = {"id": {"type": "string"}, **({"note": {"type": "string"}} if extended else {})}
    defs[f"T{count}"] = {"type": "object", "properties": properties, "required": ["id"]}
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "$ref": "#/$defs/T0", "$defs": defs}


def write_json(path: Path, value) -> int:
    text = json.dumps(value, indent=2) + "\n"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return len(text.encode("utf-8"))


def _write(plan) -> None:
    """A planned record's files and the generated views that include it (without `govern record new`'s
    project lock and exclusive creation, which the generated projects do not need)."""
    from govern.fsio import atomic_write_changed, atomic_write_many

    atomic_write_many(plan.files)
    atomic_write_changed((generated.path, generated.render) for generated in plan.generated)


def release_project(target: Path, old: dict, new: dict) -> Path:
    """A project with the document `old` recorded as its baseline and `new` as its current source."""
    from govern.config import load_config
    from govern.records.create import plan_record

    if target.exists():
        shutil.rmtree(target)
    (target / "records").mkdir(parents=True)
    (target / "pyproject.toml").write_text(
        '[project]\nname = "bench"\nversion = "0"\n\n[tool.govern]\nschemas = "schemas"\nrecords = "records"\n\n'
        '[[tool.govern.sources]]\nname = "bench"\nkind = "jsonschema"\npath = "schemas/bench.schema.json"\n'
        'roots = { Bench = { at = "#", role = "record" } }\n', encoding="utf-8")
    write_json(target / "schemas" / "bench.schema.json", old)
    _write(plan_record(load_config(target), "baseline", PROSE, date="2026-01-01"))
    write_json(target / "schemas" / "bench.schema.json", new)
    return target


# --- histories of change records -------------------------------------------------------------------------

PROSE = {language: {"title": "Add a note", "summary": "An optional note.",
                    "compatibility": "Old data has no note; older readers ignore it.",
                    "verification": "Round-trip tests."} for language in ("en", "zh")}


def _roots_document(roots: int, versions: list[int]) -> dict:
    defs = {}
    for index in range(roots):
        properties = {"id": {"type": "string"}, "kind": {"enum": ["a", "b"]},
                      "shared": {"$ref": "#/$defs/Shared"}}
        for version in range(versions[index]):
            properties[f"note{version}"] = {"type": "string"}
        defs[f"R{index}"] = {"type": "object", "properties": properties, "required": ["id"]}
    defs["Shared"] = {"type": "object", "properties": {"at": {"type": "string"}, "by": {"type": "string"}}}
    return {"$schema": DIALECT, "$defs": defs}


def _pyproject(roots: int) -> str:
    table = ", ".join(f'R{index} = {{ at = "#/$defs/R{index}", role = "record" }}' for index in range(roots))
    return ('[project]\nname = "bench"\nversion = "0"\n\n[tool.govern]\nschemas = "schemas"\nrecords = "records"\n\n'
            '[[tool.govern.sources]]\nname = "bench"\nkind = "jsonschema"\npath = "schemas/bench.schema.json"\n'
            f"roots = {{ {table} }}\n")


def history_project(target: Path, roots: int, records: int) -> Path:
    """A project whose history holds a baseline and `records - 1` records, each adding a property to one root.

    Records are planned and written by `govern.records.create.plan_record`, as `govern record new` does; the
    history it reads is kept up to date here instead of being reread from disk for every record (which would
    make generating a long history quadratic, the thing measured later).
    """
    import govern.records.create as create
    from govern.config import load_config
    from govern.records.history import History, load_record

    if target.exists():
        shutil.rmtree(target)
    (target / "records").mkdir(parents=True)
    (target / "pyproject.toml").write_text(_pyproject(roots), encoding="utf-8")
    versions = [0] * roots
    write_json(target / "schemas" / "bench.schema.json", _roots_document(roots, versions))
    config = load_config(target)
    history = History({}, {}, {})
    snapshots: dict[str, list] = {}
    original_load_history = create.load_history

    def cached_history(_config):
        return history

    create.load_history = cached_history
    try:
        for number in range(records):
            if number:
                root = (number - 1) % roots
                versions[root] += 1
                write_json(target / "schemas" / "bench.schema.json", _roots_document(roots, versions))
            slug = "baseline" if number == 0 else f"change-{number:05d}"
            plan = create.plan_record(config, slug, PROSE, date=f"2026-01-01")
            _write(plan)
            record = load_record(config.path(config.records_dir), plan.record_id, config.project_root)
            # Reading a record's snapshot is what makes planning slow; the generator reuses each one.
            graphs = record.snapshot_graphs()
            snapshots[record.id] = graphs
            record.snapshot_graphs = lambda graphs=graphs: graphs  # type: ignore[method-assign]
            history.records[record.id] = record
            for entry in record.declaration.entries:
                history.by_root.setdefault(entry.root, []).append(record.id)
                if entry.predecessor is not None:
                    history.successors.setdefault((entry.predecessor, entry.root), []).append(record.id)
    finally:
        create.load_history = original_load_history
    return target


def pending_change(project: Path, roots: int, records: int) -> None:
    """One more optional property on the first root: what `record new` then records."""
    versions = [0] * roots
    for number in range(1, records):
        versions[(number - 1) % roots] += 1
    versions[0] += 1
    write_json(project / "schemas" / "bench.schema.json", _roots_document(roots, versions))
