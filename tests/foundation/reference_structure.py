"""The inventory's structure of a node built the plain way: one recursive function, every node built afresh,
each member in the order the inventory lists it. The structures the inventory writes (shared leaves built
once, the usual children built inline) must be exactly these."""

from __future__ import annotations

import json

from govern.model.nodes import (
    Applicator, Array, Enum, Intersection, Literal, Map, Never, Node, Object, Opaque, Primitive, Ref, Tuple, Union,
)


def plain_structure(node: Node) -> dict:
    if isinstance(node, Ref):
        return {"ref": node.target}
    form: dict = {"kind": node.kind}
    if isinstance(node, Object):
        form["properties"] = {prop.name: {"required": prop.required, "type": plain_structure(prop.node),
                                          **({"reserved": True} if prop.reserved else {})}
                              for prop in node.properties}
        form["additional"] = _content_model(node.additional)
        if node.pattern_properties:
            form["patternProperties"] = {pattern: plain_structure(child) for pattern, child in node.pattern_properties}
    elif isinstance(node, Primitive):
        form["type"] = node.type
    elif isinstance(node, (Array, Map)):
        form["items" if isinstance(node, Array) else "values"] = plain_structure(
            node.items if isinstance(node, Array) else node.values)
    elif isinstance(node, Union):
        form["mode"] = "oneOf" if node.exclusive else "anyOf"
        form["alternatives"] = [{**plain_structure(a.node), **({"qualified": True} if a.qualified else {}),
                                 **({"discriminatorValues": [json.loads(tag) for tag in a.tags]} if a.tags else {})}
                                for a in node.alternatives]
        if node.policy is not None:
            form["policy"] = node.policy
        if node.discriminator is not None:
            form["discriminator"] = json.loads(node.discriminator)
    elif isinstance(node, Literal):
        form["value"] = json.loads(node.value)
    elif isinstance(node, Enum):
        form["values"] = [json.loads(value) for value in node.values]
    elif isinstance(node, Tuple):
        form["items"] = [plain_structure(item) for item in node.items]
        form["rest"] = _content_model(node.rest)
    elif isinstance(node, (Intersection, Applicator)):
        if isinstance(node, Applicator):
            form["keyword"] = node.keyword
        form["operands"] = [plain_structure(operand) for operand in node.operands]
        if isinstance(node, Applicator) and node.names:
            form["names"] = list(node.names)
    if getattr(node, "constraints", ()):
        form["constraints"] = {key: json.loads(text) for key, text in node.constraints}
    return form


def _content_model(node: Node):
    if isinstance(node, Opaque) and not node.constraints:
        return "open"
    if isinstance(node, Never):
        return "closed"
    return plain_structure(node)
