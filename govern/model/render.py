"""Readable renderings of nodes: JSON structure for the inventory, declarations for the catalog."""

from __future__ import annotations

import json

from govern.model.canonical import Rendered

from govern.model.nodes import (
    Applicator, Array, Enum, Intersection, Literal, Map, Never, Node, Object, Opaque, Primitive, Ref, Tuple, Union,
)


_SCALARS: dict[str, object] = {}  # canonical JSON text -> its value, for texts of immutable values


def _value(text: str):
    """The value of a canonical JSON text; the few scalar texts a schema repeats everywhere are parsed once
    (objects and arrays are parsed each time, so no caller can change another's value)."""
    known = _SCALARS.get(text, _SCALARS)
    if known is not _SCALARS:
        return known
    value = json.loads(text)
    if not isinstance(value, (dict, list)) and len(_SCALARS) < 10_000:
        _SCALARS[text] = value
    return value


def _constraints(constraints) -> dict:
    return {key: _value(text) for key, text in constraints}


_LEAVES = (Primitive, Literal, Enum, Opaque, Never)


def structure(node: Node, written: dict | None = None) -> dict:
    """The normalized structure as plain JSON, references shown by type name.

    With `written` (a dictionary the caller keeps while writing one document with `indented_json`), each
    distinct leaf (a node without children) is written once and placed as `Rendered` text wherever it
    recurs."""
    if isinstance(node, Ref):
        return {"ref": node.target}
    if written is not None and node.__class__ in _LEAVES:
        known = written.get(node)
        if known is None:
            known = written[node] = Rendered(structure(node))
        return known
    form: dict = {"kind": node.kind}
    if isinstance(node, Primitive):
        form["type"] = node.type
    elif isinstance(node, Literal):
        form["value"] = _value(node.value)
    elif isinstance(node, Enum):
        form["values"] = [_value(value) for value in node.values]
    elif isinstance(node, Object):
        form["properties"] = {}
        for prop in node.properties:
            entry: dict = {"required": prop.required, "type": structure(prop.node, written)}
            if prop.reserved:
                entry["reserved"] = True
            form["properties"][prop.name] = entry
        form["additional"] = content_model(node.additional, written)
        if node.pattern_properties:
            form["patternProperties"] = {pattern: structure(child, written) for pattern, child in node.pattern_properties}
    elif isinstance(node, Map):
        form["values"] = structure(node.values, written)
    elif isinstance(node, Array):
        form["items"] = structure(node.items, written)
    elif isinstance(node, Tuple):
        form["items"] = [structure(item, written) for item in node.items]
        form["rest"] = content_model(node.rest, written)
    elif isinstance(node, Union):
        form["mode"] = "oneOf" if node.exclusive else "anyOf"
        form["alternatives"] = [dict(structure(a.node), **({"qualified": True} if a.qualified else {}),
                                     **({"discriminatorValues": [_value(tag) for tag in a.tags]} if a.tags else {}))
                                if a.qualified or a.tags else structure(a.node, written)
                                for a in node.alternatives]
        if node.policy is not None:
            form["policy"] = node.policy
        if node.discriminator is not None:
            form["discriminator"] = json.loads(node.discriminator)
    elif isinstance(node, Intersection):
        form["operands"] = [structure(operand, written) for operand in node.operands]
    elif isinstance(node, Applicator):
        form["keyword"] = node.keyword
        form["operands"] = [structure(operand, written) for operand in node.operands]
        if node.names:
            form["names"] = list(node.names)
    constraints = getattr(node, "constraints", ())
    if constraints:
        form["constraints"] = _constraints(constraints)
    return form


def content_model(node: Node, written: dict | None = None):
    if isinstance(node, Opaque) and not node.constraints:
        return "open"
    if isinstance(node, Never):
        return "closed"
    return structure(node, written)


def declaration(node: Node, indent: str = "") -> str:
    """A compact, TypeScript-like declaration; named types appear by name."""
    inner = indent + "  "
    if isinstance(node, Ref):
        return node.target
    if isinstance(node, Primitive):
        return node.type + _suffix(node.constraints)
    if isinstance(node, Literal):
        return node.value
    if isinstance(node, Enum):
        return " | ".join(node.values)
    if isinstance(node, Object):
        lines = []
        for prop in node.properties:
            marker = "" if prop.required else "?"
            kind = "reserved (never)" if prop.reserved else declaration(prop.node, inner)
            lines.append(f"{inner}{_key(prop.name)}{marker}: {kind}")
        for pattern, child in node.pattern_properties:
            lines.append(f"{inner}[/{pattern}/]: {declaration(child, inner)}")
        if isinstance(node.additional, Never):
            lines.append(f"{inner}(closed: no other properties)")
        elif not (isinstance(node.additional, Opaque) and not node.additional.constraints):
            lines.append(f"{inner}[other]: {declaration(node.additional, inner)}")
        body = "\n".join(lines)
        return "{" + _suffix(node.constraints) + ("\n" + body + "\n" + indent if body else "") + "}"
    if isinstance(node, Map):
        return f"map<string, {declaration(node.values, indent)}>{_suffix(node.constraints)}"
    if isinstance(node, Array):
        return f"array<{declaration(node.items, indent)}>{_suffix(node.constraints)}"
    if isinstance(node, Tuple):
        items = ", ".join(declaration(item, indent) for item in node.items)
        rest = "" if isinstance(node.rest, Never) else f", ...{declaration(node.rest, indent)}"
        return f"[{items}{rest}]{_suffix(node.constraints)}"
    if isinstance(node, Union):
        word = "oneOf" if node.exclusive else "anyOf"
        alternatives = [declaration(a.node, inner) + (" @attribution" if a.qualified else "")
                        + (f" @when({', '.join(a.tags)})" if a.tags else "") for a in node.alternatives]
        head = word + (f" @source(policy={node.policy})" if node.policy is not None else "")
        return head + "(\n" + "".join(f"{inner}| {alt}\n" for alt in alternatives) + indent + ")"
    if isinstance(node, Intersection):
        return "allOf(\n" + "".join(f"{inner}& {declaration(op, inner)}\n" for op in node.operands) + indent + ")"
    if isinstance(node, Applicator):
        labels = node.names or (("if", "then", "else") if node.keyword == "if-then-else" else ())
        if labels:
            parts = ", ".join(f"{label}: {declaration(op, inner)}" for label, op in zip(labels, node.operands))
            return f"{node.keyword}({parts})"
        return f"{node.keyword}({declaration(node.operands[0], indent)})"
    if isinstance(node, Opaque):
        return "any" + _suffix(node.constraints)
    if isinstance(node, Never):
        return "never"
    raise TypeError(node)  # pragma: no cover


def _suffix(constraints) -> str:
    if not constraints:
        return ""
    return " {" + ", ".join(f"{key}: {text}" for key, text in constraints) + "}"


def _key(name: str) -> str:
    return name if name.isidentifier() else json.dumps(name, ensure_ascii=False)
