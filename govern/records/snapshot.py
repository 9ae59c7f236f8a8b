"""Snapshots: the complete after-schemas of a record's roots, as one JSON Schema 2020-12 document.

Each source is an embedded resource with its own `$id` under `$defs`, holding one `$defs` entry per named
type the recorded roots reach. The export is exact both ways: reading a snapshot back through the JSON
Schema adapter reproduces every node, so normalization reproduces the declared digests, and a JSON Schema
2020-12 validator accepts exactly the documents the source accepts. For that, two forms of the model are
written the way sources write them: keywords without `type` (the model's alternative `{"not-type": T}`),
and `unevaluatedProperties`/`unevaluatedItems` beside a composition, where they see what every operand
evaluates. An open content model or tail (`additionalProperties: true`, `items: true`) is left out, since it
would count as evaluating every name or item; where a source wrote one that an unevaluated* sees, the model
holds it as that very constraint and it is written back as such. A required name the object does not
declare is written in `required` alone, without a `properties` entry that would evaluate it.
"""

from __future__ import annotations

import json
from typing import Any

from dataclasses import replace

from govern.errors import InputError, Problem
from govern.model.canonical import indented_json
from govern.model.fingerprint import DOMAINS
from govern.model.graph import TypeGraph
from govern.model.nodes import (
    OPEN, Applicator, Array, Enum, Intersection, Literal, Map, Never, Node, Object, Opaque, Primitive, Ref, Tuple,
    Union, references,
)
from govern.sources.jsonschema import (
    ATTRIBUTION, DISCRIMINATOR, NOT_TYPE, RESERVED, SOURCE_POLICY, Converter, finish_graph,
)
from govern.sources.refs import SchemaSet, escape_token, unescape_token

DIALECT = "https://json-schema.org/draft/2020-12/schema"
ROOTS = "x-govern-roots"
FORMAT_VERSION = "x-govern-format-version"
INVENTORY_FORMAT = "x-govern-inventory-format"
FORMAT_VERSIONS = "x-govern-format-versions"
EVENT_ROOTS = "x-govern-event-roots"
# Each exported type's digest, by name: a later comparison with this snapshot takes them instead of hashing
# the snapshot again, and `govern verify` hashes it to check them.
TYPE_DIGESTS = "x-govern-digests"
UNEVALUATED = ("unevaluatedProperties", "unevaluatedItems")
COMPOSITION_KEYWORDS = ("allOf", "anyOf", "oneOf", "$ref", "$dynamicRef", "$recursiveRef")


def export_node(node: Node) -> Any:
    if isinstance(node, Ref):
        return {"$ref": f"#/$defs/{escape_token(node.target)}"}
    if isinstance(node, Opaque):
        return _with_constraints({}, node.constraints) if node.constraints else True
    if isinstance(node, Never):
        return False
    if isinstance(node, Primitive):
        return _with_constraints({"type": node.type}, node.constraints)
    if isinstance(node, Literal):
        return {"const": json.loads(node.value)}
    if isinstance(node, Enum):
        return {"enum": [json.loads(value) for value in node.values]}
    if isinstance(node, Object):
        schema: dict[str, Any] = {"type": "object", "properties": {}}
        for prop in node.properties:
            schema["properties"][prop.name] = {"not": {}, RESERVED: True} if prop.reserved else export_node(prop.node)
        required = [prop.name for prop in node.properties if prop.required]
        constraints = node.constraints
        undeclared = dict(constraints).get("required")
        if undeclared is not None:  # required names the object does not declare (see the adapter)
            required = sorted(set(required) | set(json.loads(undeclared)))
            constraints = tuple(pair for pair in constraints if pair[0] != "required")
        if required:
            schema["required"] = required
        if node.pattern_properties:
            schema["patternProperties"] = {pattern: export_node(child) for pattern, child in node.pattern_properties}
        if not (isinstance(node.additional, Opaque) and not node.additional.constraints):
            schema["additionalProperties"] = export_node(node.additional)
        return _with_constraints(schema, constraints)
    if isinstance(node, Map):
        return _with_constraints({"type": "object", "additionalProperties": export_node(node.values)}, node.constraints)
    if isinstance(node, Array):
        return _with_constraints(_with_tail({"type": "array"}, node.items), node.constraints)
    if isinstance(node, Tuple):
        positions = [export_node(item) for item in node.items]
        return _with_constraints(_with_tail({"type": "array", "prefixItems": positions}, node.rest), node.constraints)
    if isinstance(node, Union):
        typeless = _typeless(node)
        if typeless is not None:
            return typeless
        alternatives = []
        for alternative in node.alternatives:
            exported = export_node(alternative.node)
            if alternative.qualified:
                exported = {"allOf": [exported], ATTRIBUTION: True} if not isinstance(exported, dict) or ATTRIBUTION in exported \
                    else {**exported, ATTRIBUTION: True}
            alternatives.append(exported)
        schema = {"oneOf" if node.exclusive else "anyOf": alternatives}
        if node.policy is not None:
            schema[SOURCE_POLICY] = {"policy": node.policy}
        if node.discriminator is not None:
            discriminator = json.loads(node.discriminator)
            mapping = {json.loads(tag): export_node(alternative.node)["$ref"]
                       for alternative in node.alternatives for tag in alternative.tags}
            if mapping:
                discriminator["mapping"] = dict(sorted(mapping.items()))
            schema[DISCRIMINATOR] = discriminator
        return schema
    if isinstance(node, Intersection):
        return _composition(node)
    if isinstance(node, Applicator):
        if node.keyword == "if-then-else":
            return {keyword: export_node(operand) for keyword, operand in zip(("if", "then", "else"), node.operands)}
        if node.keyword == "dependentSchemas":
            return {"dependentSchemas": {name: export_node(op) for name, op in zip(node.names, node.operands)}}
        return {node.keyword: export_node(node.operands[0])}
    raise TypeError(node)  # pragma: no cover


def _with_tail(schema: dict, items: Node) -> dict:
    if items != OPEN:
        schema["items"] = export_node(items)
    return schema


def _typeless(union: Union) -> dict | None:
    """Keywords written without `type` constrain only values of their type; the adapter reads them as a union
    of the typed node and `{"not-type": T}` (any value not of type T). Written back without `type` they
    validate as the source did, and read back to the same union."""
    if union.exclusive or union.policy is not None or union.discriminator is not None \
            or len(union.alternatives) != 2 or any(alternative.qualified for alternative in union.alternatives):
        return None
    markers = [a.node for a in union.alternatives if isinstance(a.node, Opaque) and len(a.node.constraints) == 1
               and a.node.constraints[0][0] == NOT_TYPE]
    if len(markers) != 1:
        return None
    exported = export_node(next(a.node for a in union.alternatives if a.node is not markers[0]))
    if not isinstance(exported, dict) or exported.get("type") != json.loads(markers[0].constraints[0][1]):
        return None
    return {key: value for key, value in exported.items() if key != "type"}


def _composition(node: Intersection) -> dict:
    """The operands under `allOf`. An operand holding `unevaluatedProperties` (or `unevaluatedItems`) is the
    schema's own keywords, which stood beside the composition and saw what every operand evaluates: they go
    back beside it, where they read back to the same operand and validate as in the source."""
    operands = [export_node(operand) for operand in node.operands]
    # An operand that composes others keeps its own unevaluated* beside its own composition; any other
    # operand holding one is the schema's own keywords (the adapter reads an unevaluated* without
    # composition as the content model it is).
    owners = [position for position, schema in enumerate(operands)
              if isinstance(schema, dict) and any(keyword in schema for keyword in UNEVALUATED)
              and not any(keyword in schema for keyword in COMPOSITION_KEYWORDS)]
    # Keywords without `type` of several types are one operand per type, each possibly holding its own.
    own: dict = {}
    for position in owners:
        if not own.keys().isdisjoint(operands[position]):
            return {"allOf": operands}
        own.update(operands[position])
    composed = [schema for position, schema in enumerate(operands) if position not in owners]
    if not owners or not composed:
        return {"allOf": operands}
    return {**own, "allOf": composed}


def _with_constraints(schema: dict, constraints) -> dict:
    for key, text in constraints:
        schema[key] = json.loads(text)
    return schema


def reachable_types(graph: TypeGraph, keys: list[str]) -> list[str]:
    seen: set[str] = set()
    stack = list(keys)
    while stack:
        key = stack.pop()
        if key in seen:
            continue
        seen.add(key)
        stack.extend(references(graph.types[key].node))
    return sorted(seen)


def snapshot_document(record_id: str, graphs: list[TypeGraph], root_ids: set[str], digests: dict[str, str],
                      sources: set[str] = frozenset()) -> dict:
    """The snapshot of the given roots (those still present), one embedded resource per source.

    `sources` are the sources of every root the record declares, tombstones included: the snapshot says
    which format version each of them writes after the record (a source no longer configured has none).
    """
    document: dict[str, Any] = {
        "$schema": DIALECT,
        "$id": f"urn:govern:record:{record_id}",
        "$comment": "Generated by `govern record`; do not edit. The after-schemas of this record's roots.",
        ROOTS: {},
        FORMAT_VERSIONS: {graph.source: graph.format_version for graph in sorted(graphs, key=lambda g: g.source)
                          if graph.source in sources},
        "$defs": {},
    }
    for graph in sorted(graphs, key=lambda g: g.source):
        roots = [root for root in graph.roots.values() if root.id in root_ids]
        if not roots:
            continue
        keys = reachable_types(graph, [root.type_key for root in roots])
        resource = {"$schema": DIALECT, "$id": f"urn:govern:record:{record_id}:{graph.source}",
                    "$defs": {key: export_node(graph.types[key].node) for key in keys}}
        if graph.format_version is not None:
            resource[FORMAT_VERSION] = graph.format_version
        # The exported types may be a policy-free part of a policy-bearing source: keep the source's domain.
        resource[INVENTORY_FORMAT] = graph.inventory_format
        # Which exported types are event roots, recorded here or not: their changes keep the event's rules.
        events = {root_id: key for key, root_id in sorted(graph.event_roots.items()) if key in keys}
        if events:
            resource[EVENT_ROOTS] = dict(sorted(events.items()))
        digests_of_types = graph.root_digests
        resource[TYPE_DIGESTS] = {key: digests_of_types[key] for key in keys}
        document["$defs"][graph.source] = resource
        for root in sorted(roots, key=lambda r: r.id):
            document[ROOTS][root.id] = {"source": graph.source, "type": root.type_key, "role": root.role,
                                        "digest": digests[root.id]}
    return document


def snapshot_text(document: dict) -> str:
    return indented_json(document, end="\n")


def format_versions(document: Any) -> dict[str, Any]:
    """Source -> the format version it writes after the record; a source absent here was not configured.

    Snapshots written before tombstones recorded their source's version carry it per exported source only.
    """
    if not isinstance(document, dict):
        return {}
    declared = document.get(FORMAT_VERSIONS)
    if isinstance(declared, dict):
        return dict(declared)
    resources = document.get("$defs") if isinstance(document.get("$defs"), dict) else {}
    return {source: resource.get(FORMAT_VERSION) for source, resource in resources.items()
            if isinstance(resource, dict)}


def load_snapshot(document: Any, origin: str) -> list[TypeGraph]:
    """Read a snapshot back into one graph per source, with exactly the recorded roots.

    A snapshot in the layout govern writes is read directly (see written_snapshot.py), any other through
    the JSON Schema adapter; both give the same graphs."""
    from govern.records.written_snapshot import read_written_snapshot

    written = read_written_snapshot(document, origin)
    if written is not None:
        return written
    return read_snapshot_with_adapter(document, origin)


def read_snapshot_with_adapter(document: Any, origin: str) -> list[TypeGraph]:
    """A snapshot of any layout, read through the general JSON Schema adapter."""
    if not isinstance(document, dict) or not isinstance(document.get(ROOTS), dict) or \
            not isinstance(document.get("$defs"), dict):
        raise InputError(Problem(origin, "is not a govern snapshot (no x-govern-roots or $defs)",
                                 hint="regenerate it with `govern record refresh`"))
    by_source: dict[str, dict[str, tuple[str, str]]] = {}
    for root_id, entry in document[ROOTS].items():
        if not isinstance(entry, dict) or not all(isinstance(entry.get(k), str) for k in ("source", "type", "role")):
            raise InputError(Problem(origin, f"snapshot root {root_id} is malformed"))
        by_source.setdefault(entry["source"], {})[root_id] = (entry["type"], entry["role"])
    graphs = []
    for source, roots in sorted(by_source.items()):
        resource = document["$defs"].get(source)
        if not isinstance(resource, dict) or not isinstance(resource.get("$defs"), dict):
            raise InputError(Problem(origin, f"snapshot has no schema for source {source}"))
        schemas = SchemaSet()
        label = f"{origin}#/$defs/{source}"
        # (read from a name of its own: the resource's `$id`, if any, is joined to it once, by add_document)
        snapshot_doc = schemas.add_document(resource, label, None, f"urn:govern:snapshot:{source}", dialect="2020-12")
        converter = Converter(schemas, source_policy=None)  # recorded history is read as it was recorded
        converter.register_definitions(snapshot_doc)
        declared = {}
        for root_id, (type_name, role) in roots.items():
            if type_name not in resource["$defs"]:
                raise InputError(Problem(origin, f"snapshot root {root_id} names a missing type {type_name}"))
            location = converter.named_at(snapshot_doc, f"/$defs/{escape_token(type_name)}")
            declared[root_id.partition(":")[2]] = (location, role)
        prefix = f"{snapshot_doc.label}#/$defs/"
        for location in list(converter.types):  # (registered so far: see Converter.named)
            if location.startswith(prefix):  # the recorded type name, not the resource's own place
                converter.preferred_names.setdefault(location, unescape_token(location[len(prefix):]))
        domain = resource.get(INVENTORY_FORMAT)
        if domain is not None and (isinstance(domain, bool) or domain not in DOMAINS):
            raise InputError(Problem(origin, f"snapshot of source {source} declares an unknown inventory format "
                                             f"{domain!r}", hint="regenerate it with `govern record refresh`"))
        graph = finish_graph(converter, source, declared, label, format_version=resource.get(FORMAT_VERSION))
        events = resource.get(EVENT_ROOTS, {})
        if not isinstance(events, dict) or not all(isinstance(key, str) and key in graph.types
                                                   for key in events.values()):
            raise InputError(Problem(origin, f"snapshot of source {source} names event roots it does not hold",
                                     hint="regenerate it with `govern record refresh`"))
        event_roots = {key: root_id for root_id, key in sorted(events.items(), reverse=True)}
        graphs.append(replace(graph, declared_format=domain, event_roots={**event_roots, **graph.event_roots}))
    return graphs


__all__ = ["export_node", "snapshot_document", "snapshot_text", "load_snapshot", "read_snapshot_with_adapter",
           "format_versions"]
