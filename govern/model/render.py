"""Readable renderings of nodes: JSON structure for the inventory, declarations for the catalog."""

from __future__ import annotations

import json

from govern.model.canonical import Rendered

from govern.model.nodes import (
    Applicator, Array, Enum, Intersection, Literal, Map, Never, Node, Object, Opaque, Primitive, Ref, Tuple, Union,
)


_SCALARS: dict[str, object] = {}  # canonical JSON text -> its value, for texts of immutable values
_SPELLED: dict[str, object] = {}  # the same, with floats as the standard library writes them


def _spelled_float(text: str) -> Rendered:
    """A float as `json.dumps` spells it, for writers that spell some floats otherwise (1e-7 for 1e-07)."""
    return Rendered(float(text))


# One decoder for every text (json.loads with options builds a new one per call, and a schema's constraint
# values are thousands of distinct texts).
_SPELLING = json.JSONDecoder(parse_float=_spelled_float)


def _value(text: str, written: dict | None = None):
    """The value of a canonical JSON text; the few scalar texts a schema repeats everywhere are parsed once
    (objects and arrays are parsed each time, so no caller can change another's value). For writing (with
    `written`, see `structure`), floats come as `Rendered`."""
    known_values = _SCALARS if written is None else _SPELLED
    known = known_values.get(text, known_values)
    if known is not known_values:
        return known
    if text.isdigit() and text.isascii():  # most constraint values (lengths, counts, bounds): no decoder needed
        value = int(text)
    else:
        value = json.loads(text) if written is None else _SPELLING.decode(text)
    if not isinstance(value, (dict, list)) and len(known_values) < 10_000:
        known_values[text] = value
    return value


def _constraints(constraints, written: dict | None = None) -> dict:
    return {key: _value(text, written) for key, text in constraints}


_LEAVES = frozenset({Primitive, Literal, Enum, Opaque, Never})
_SMALL = frozenset({*_LEAVES, Ref})


def structure(node: Node, written: dict | None = None) -> dict:
    """The normalized structure as plain JSON, references shown by type name.

    With `written` (a dictionary the caller keeps while writing one document), each distinct leaf, and
    array or map of leaves or references, is built once and the same dictionary placed wherever it recurs
    (the normalizer shares them throughout a large source), and floats come as
    `Rendered`, spelled as the standard library spells them, whatever writes the document."""
    kind = node.__class__
    if kind is Ref:
        return {"ref": node.target}
    if written is not None and (kind in _LEAVES or kind is Array and node.items.__class__ in _SMALL
                                or kind is Map and node.values.__class__ in _SMALL):
        # what the normalizer shares, and small: leaves, and arrays and maps of leaves or references
        known = written.get(id(node))
        if known is None:
            # the node kept (its id stays its own), and a place for its declaration (see `_renderings`)
            known = written[id(node)] = (node, _form(node, written), None)
        return known[1]
    return _form(node, written)


def _form(node: Node, written: dict | None) -> dict:
    kind = node.__class__  # no node class has subclasses: compared by identity, the most frequent first
    if kind is Object:
        properties: dict = {}
        look_up = (written or {}).get  # a large source has many properties: their children looked up inline
        for prop in node.properties:
            child = prop.node
            if child.__class__ is Ref:
                entry = {"required": prop.required, "type": {"ref": child.target}}
            else:
                known = look_up(id(child))
                entry = {"required": prop.required,
                         "type": known[1] if known is not None else structure(child, written)}
            if prop.reserved:
                entry["reserved"] = True
            properties[prop.name] = entry
        return _object_form(node, properties, written)
    elif kind is Primitive:
        form = {"kind": "primitive", "type": node.type}
    elif kind is Array:
        form = {"kind": "array", "items": structure(node.items, written)}
    elif kind is Union:  # no constraints of its own, as the kinds that return here
        return _union_form(node, [_alternative(a, written) if a.qualified or a.tags
                                  else {"ref": a.node.target} if a.node.__class__ is Ref  # the usual one, inline
                                  else structure(a.node, written) for a in node.alternatives], written)
    elif kind is Map:
        form = {"kind": "map", "values": structure(node.values, written)}
    elif kind is Literal:
        return {"kind": "literal", "value": _value(node.value, written)}
    elif kind is Enum:
        return {"kind": "enum", "values": [_value(value, written) for value in node.values]}
    elif kind is Tuple:
        form = {"kind": "tuple", "items": [structure(item, written) for item in node.items],
                "rest": content_model(node.rest, written)}
    elif kind is Intersection:
        return {"kind": "intersection", "operands": [structure(operand, written) for operand in node.operands]}
    elif kind is Applicator:
        form = {"kind": "applicator", "keyword": node.keyword,
                "operands": [structure(operand, written) for operand in node.operands]}
        if node.names:
            form["names"] = list(node.names)
        return form
    elif kind is Opaque:
        form = {"kind": "opaque"}
    else:
        return {"kind": node.kind}  # never
    if node.constraints:
        form["constraints"] = _constraints(node.constraints, written)
    return form


def _object_form(node: Object, properties: dict, written: dict | None) -> dict:
    """An object's structure around the structures of its properties."""
    form = {"kind": "object", "properties": properties, "additional": content_model(node.additional, written)}
    if node.pattern_properties:
        form["patternProperties"] = {pattern: structure(child, written) for pattern, child in node.pattern_properties}
    if node.constraints:
        form["constraints"] = _constraints(node.constraints, written)
    return form


def _union_form(node: Union, alternatives: list, written: dict | None) -> dict:
    form = {"kind": "union", "mode": "oneOf" if node.exclusive else "anyOf", "alternatives": alternatives}
    if node.policy is not None:
        form["policy"] = node.policy
    if node.discriminator is not None:
        form["discriminator"] = _value(node.discriminator, written)
    return form


def _alternative(alternative, written: dict | None) -> dict:
    """A union's alternative with its marks: its structure, then whether it is qualified and the discriminator
    values bound to it."""
    form = dict(structure(alternative.node, written))
    if alternative.qualified:
        form["qualified"] = True
    if alternative.tags:
        form["discriminatorValues"] = [_value(tag, written) for tag in alternative.tags]
    return form


def content_model(node: Node, written: dict | None = None):
    if isinstance(node, Opaque) and not node.constraints:
        return "open"
    if isinstance(node, Never):
        return "closed"
    return structure(node, written)


def declaration(node: Node, indent: str = "", known: dict | None = None) -> str:
    """A compact, TypeScript-like declaration; named types appear by name. `known` (a dictionary the caller
    keeps while declaring many types) holds the declaration of each distinct node that fits on one line,
    written once: leaves, and arrays and maps of them, recur throughout a large source."""
    if node.__class__ is Ref:
        return node.target
    return _declared(node, indent, {} if known is None else known)


def structure_and_declaration(node: Node, written: dict, known: dict, placed: dict | None = None) -> tuple[dict, str]:
    """`structure(node, written)` and `declaration(node, known=known)` of a named type's node, in one walk:
    an object's properties, most of a large source's nodes, are visited once for both (the inventory and the
    catalog pair are written from the same types). `placed` (a dictionary the caller keeps while rendering many
    types) holds each property of a type's own object whose child is shared (see `_object_renderings`)."""
    if placed is not None and node.__class__ is Object:
        return _object_renderings(node, "", written, known, placed)
    return _renderings(node, "", written, known)


def _renderings(node: Node, indent: str, written: dict, known: dict) -> tuple[dict, str]:
    kind = node.__class__
    if kind is Object:
        return _object_renderings(node, indent, written, known)
    if kind is Intersection:
        return _intersection_renderings(node, indent, written, known)
    if kind is Union:
        return _union_renderings(node, indent, written, known)
    if kind is Ref:
        return {"ref": node.target}, node.target
    # A node `structure` keeps (a shared leaf, array or map) has a declaration on one line, the same at any
    # depth: kept beside its structure, so each later visit is one look-up for both.
    hit = written.get(id(node))
    if hit is not None and hit[2] is not None:
        return hit[1], hit[2]
    if kind is Primitive:  # most distinct leaves: both renderings made here, as `_form` and `_declare` make them
        constraints = node.constraints
        if constraints:
            form = {"kind": "primitive", "type": node.type,
                    "constraints": {key: _value(text, written) for key, text in constraints}}
            declared = node.type + " {" + ", ".join([f"{key}: {text}" for key, text in constraints]) + "}"
        else:
            form = {"kind": "primitive", "type": node.type}
            declared = node.type
        written[id(node)] = (node, form, declared)
        known[id(node)] = (node, declared)
        return form, declared
    form = structure(node, written)
    declared = _declared(node, indent, known)
    if id(node) in written:
        written[id(node)] = (node, form, declared)
    return form, declared


def _intersection_renderings(node: Intersection, indent: str, written: dict, known: dict) -> tuple[dict, str]:
    inner = indent + "  "
    operands: list = []
    lines: list[str] = []
    for operand in node.operands:
        form, declared = _renderings(operand, inner, written, known)
        operands.append(form)
        lines.append(f"{inner}& {declared}\n")
    return {"kind": "intersection", "operands": operands}, "allOf(\n" + "".join(lines) + indent + ")"


def _union_renderings(node: Union, indent: str, written: dict, known: dict) -> tuple[dict, str]:
    inner = indent + "  "
    alternatives: list = []
    lines: list[str] = []
    for alternative in node.alternatives:
        child = alternative.node
        if alternative.qualified or alternative.tags:
            alternatives.append(_alternative(alternative, written))
            lines.append(f"{inner}| {_alternative_declaration(alternative, inner, known)}\n")
        elif child.__class__ is Ref:  # the usual alternative, written inline
            alternatives.append({"ref": child.target})
            lines.append(f"{inner}| {child.target}\n")
        else:
            hit = written.get(id(child))  # a shared leaf's renderings (`null`, the usual other alternative)
            if hit is None or hit[2] is None:
                form, declared = _renderings(child, inner, written, known)
            else:
                _, form, declared = hit
            alternatives.append(form)
            lines.append(f"{inner}| {declared}\n")
    return _union_form(node, alternatives, written), _union_head(node) + "(\n" + "".join(lines) + indent + ")"


def _object_renderings(node: Object, indent: str, written: dict, known: dict,
                       placed: dict | None = None) -> tuple[dict, str]:
    properties: dict = {}
    lines: list[str] = []
    line, rendered = lines.append, written.get
    inner = indent + "  "
    for prop in node.properties:
        if placed is not None:
            # A property whose child is shared (a leaf, mostly) recurs in the objects of a large source's types as
            # one property object: its entry and its line at this depth are made once (`placed`, by its id, with
            # the property, so the id stays its own). The entry is never changed once made.
            hit = placed.get(id(prop))
            if hit is not None:
                properties[prop.name] = hit[1]
                line(hit[2])
                continue
        child = prop.node
        shared = False
        if child.__class__ is Ref:  # the most frequent children, written inline
            declared = child.target
            entry = {"required": prop.required, "type": {"ref": declared}}
        else:
            hit = rendered(id(child))  # a shared child's structure and declaration (see `_renderings`)
            if hit is None or hit[2] is None:
                form, declared = _renderings(child, inner, written, known)
            else:
                _, form, declared = hit
                shared = placed is not None
            entry = {"required": prop.required, "type": form}
        if prop.reserved:
            entry["reserved"] = True
            declared = "reserved (never)"
        name = prop.name
        properties[name] = entry
        text = f"{inner}{name if name.isidentifier() else _quoted(name)}{'' if prop.required else '?'}: {declared}"
        line(text)
        if shared:
            placed[id(prop)] = (prop, entry, text)
    if node.pattern_properties or node.constraints:
        return _object_form(node, properties, written), _object_declaration(node, lines, indent, known)
    additional = node.additional  # the usual objects, open or closed, written here
    if additional.__class__ is Opaque and not additional.constraints:
        return ({"kind": "object", "properties": properties, "additional": "open"},
                "{\n" + "\n".join(lines) + "\n" + indent + "}" if lines else "{}")
    if additional.__class__ is Never:
        line(f"{inner}(closed: no other properties)")
        return ({"kind": "object", "properties": properties, "additional": "closed"},
                "{\n" + "\n".join(lines) + "\n" + indent + "}")
    return _object_form(node, properties, written), _object_declaration(node, lines, indent, known)


def _declared(node: Node, indent: str, known: dict) -> str:
    # A declaration on one line holds no indentation, so it is the same at any depth: kept by the node's
    # identity (with the node, so the id stays its own). One on several lines is made anew at each depth.
    hit = known.get(id(node))
    if hit is not None:
        return hit[1]
    text = _declare(node, indent, known)
    if "\n" not in text:
        known[id(node)] = (node, text)
    return text


def _declare(node: Node, indent: str, known: dict) -> str:
    kind = node.__class__
    if kind in _LEAVES:
        return _leaf_declaration(node)
    inner = indent + "  "
    if kind is Object:
        lines: list[str] = []
        line, look_up = lines.append, known.get  # once per object: a large source has many properties
        for prop in node.properties:
            child = prop.node
            if prop.reserved:
                declared = "reserved (never)"
            elif child.__class__ is Ref:  # the most frequent children, looked up inline
                declared = child.target
            else:
                hit = look_up(id(child))
                declared = hit[1] if hit is not None else _declared(child, inner, known)
            name = prop.name
            line(f"{inner}{name if name.isidentifier() else _quoted(name)}{'' if prop.required else '?'}: {declared}")
        return _object_declaration(node, lines, indent, known)
    if kind is Map:
        return f"map<string, {_child(node.values, indent, known)}>{_suffix(node.constraints)}"
    if kind is Array:
        return f"array<{_child(node.items, indent, known)}>{_suffix(node.constraints)}"
    if kind is Tuple:
        items = ", ".join([_child(item, indent, known) for item in node.items])
        rest = "" if isinstance(node.rest, Never) else f", ...{_child(node.rest, indent, known)}"
        return f"[{items}{rest}]{_suffix(node.constraints)}"
    if kind is Union:
        return _union_head(node) + "(\n" + "".join([
            f"{inner}| {_alternative_declaration(a, inner, known)}\n" if a.qualified or a.tags
            else f"{inner}| {a.node.target}\n" if a.node.__class__ is Ref  # the usual alternative, written inline
            else f"{inner}| {_declared(a.node, inner, known)}\n" for a in node.alternatives]) + indent + ")"
    if kind is Intersection:
        return "allOf(\n" + "".join([f"{inner}& {_child(op, inner, known)}\n" for op in node.operands]) \
            + indent + ")"
    if kind is Applicator:
        labels = node.names or (("if", "then", "else") if node.keyword == "if-then-else" else ())
        if labels:
            parts = ", ".join([f"{label}: {_child(op, inner, known)}" for label, op in zip(labels, node.operands)])
            return f"{node.keyword}({parts})"
        return f"{node.keyword}({_child(node.operands[0], indent, known)})"
    raise TypeError(node)  # pragma: no cover


def _object_declaration(node: Object, lines: list[str], indent: str, known: dict) -> str:
    """An object's declaration around the lines of its properties."""
    inner = indent + "  "
    for pattern, child in node.pattern_properties:
        lines.append(f"{inner}[/{pattern}/]: {_child(child, inner, known)}")
    if isinstance(node.additional, Never):
        lines.append(f"{inner}(closed: no other properties)")
    elif not (isinstance(node.additional, Opaque) and not node.additional.constraints):
        lines.append(f"{inner}[other]: {_child(node.additional, inner, known)}")
    body = "\n".join(lines)
    return ("{" + _suffix(node.constraints) if node.constraints else "{") + (
        "\n" + body + "\n" + indent + "}" if body else "}")


def _union_head(node: Union) -> str:
    return ("oneOf" if node.exclusive else "anyOf") + (
        f" @source(policy={node.policy})" if node.policy is not None else "")


def _alternative_declaration(alternative, indent: str, known: dict) -> str:
    return (_child(alternative.node, indent, known) + (" @attribution" if alternative.qualified else "")
            + (f" @when({', '.join(alternative.tags)})" if alternative.tags else ""))


def _child(node: Node, indent: str, known: dict) -> str:
    return node.target if node.__class__ is Ref else _declared(node, indent, known)


def _leaf_declaration(node: Node) -> str:
    kind = node.__class__
    if kind is Primitive:
        return node.type + _suffix(node.constraints)
    if kind is Literal:
        return node.value
    if kind is Enum:
        return " | ".join(node.values)
    if kind is Opaque:
        return "any" + _suffix(node.constraints)
    return "never"


def _suffix(constraints) -> str:
    if not constraints:
        return ""
    return " {" + ", ".join([f"{key}: {text}" for key, text in constraints]) + "}"


def _quoted(name: str) -> str:
    return json.dumps(name, ensure_ascii=False)
