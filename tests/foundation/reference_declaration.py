"""The catalog's declaration of a node written the plain way: one recursive function, every node declared
afresh at its depth. The declarations the catalog writes (each distinct node on one line declared once)
must be exactly these."""

from __future__ import annotations

import json

from govern.model.nodes import (
    Applicator, Array, Enum, Intersection, Literal, Map, Never, Node, Object, Opaque, Primitive, Ref, Tuple, Union,
)


def plain_declaration(node: Node, indent: str = "") -> str:
    inner = indent + "  "
    kind = node.__class__
    if kind is Ref:
        return node.target
    if kind is Primitive:
        return node.type + _suffix(node.constraints)
    if kind is Literal:
        return node.value
    if kind is Enum:
        return " | ".join(node.values)
    if kind is Opaque:
        return "any" + _suffix(node.constraints)
    if kind is Never:
        return "never"
    if kind is Object:
        lines = []
        for prop in node.properties:
            name = prop.name if prop.name.isidentifier() else json.dumps(prop.name, ensure_ascii=False)
            declared = "reserved (never)" if prop.reserved else plain_declaration(prop.node, inner)
            lines.append(f"{inner}{name}{'' if prop.required else '?'}: {declared}")
        for pattern, child in node.pattern_properties:
            lines.append(f"{inner}[/{pattern}/]: {plain_declaration(child, inner)}")
        if isinstance(node.additional, Never):
            lines.append(f"{inner}(closed: no other properties)")
        elif not (isinstance(node.additional, Opaque) and not node.additional.constraints):
            lines.append(f"{inner}[other]: {plain_declaration(node.additional, inner)}")
        body = "\n".join(lines)
        return "{" + _suffix(node.constraints) + ("\n" + body + "\n" + indent if body else "") + "}"
    if kind is Map:
        return f"map<string, {plain_declaration(node.values, indent)}>{_suffix(node.constraints)}"
    if kind is Array:
        return f"array<{plain_declaration(node.items, indent)}>{_suffix(node.constraints)}"
    if kind is Tuple:
        items = ", ".join(plain_declaration(item, indent) for item in node.items)
        rest = "" if isinstance(node.rest, Never) else f", ...{plain_declaration(node.rest, indent)}"
        return f"[{items}{rest}]{_suffix(node.constraints)}"
    if kind is Union:
        word = "oneOf" if node.exclusive else "anyOf"
        alternatives = [plain_declaration(a.node, inner) + (" @attribution" if a.qualified else "")
                        + (f" @when({', '.join(a.tags)})" if a.tags else "") for a in node.alternatives]
        head = word + (f" @source(policy={node.policy})" if node.policy is not None else "")
        return head + "(\n" + "".join(f"{inner}| {alt}\n" for alt in alternatives) + indent + ")"
    if kind is Intersection:
        return "allOf(\n" + "".join(f"{inner}& {plain_declaration(op, inner)}\n" for op in node.operands) + indent + ")"
    if kind is Applicator:
        labels = node.names or (("if", "then", "else") if node.keyword == "if-then-else" else ())
        if labels:
            parts = ", ".join(f"{label}: {plain_declaration(op, inner)}" for label, op in zip(labels, node.operands))
            return f"{node.keyword}({parts})"
        return f"{node.keyword}({plain_declaration(node.operands[0], indent)})"
    raise TypeError(node)


def _suffix(constraints) -> str:
    return " {" + ", ".join(f"{key}: {text}" for key, text in constraints) + "}" if constraints else ""
