"""The fingerprint as first built, kept as an oracle (test_fingerprint_reference.py); its hash form grows
only when the model gains a field.

Straightforward and slow (each round rehashes every subtree; the quotient graph is serialized once per
member), it defines the digests that the optimized `govern.model.fingerprint` must reproduce exactly.
Its hash form and component search are its own copies, so optimizing those in the package is checked too.
"""

from __future__ import annotations

from typing import Callable, Mapping

from govern.model.canonical import sha256_digest, simple_canonical_json
from govern.model.nodes import (
    Applicator, Array, Enum, Intersection, Literal, Map, NamedType, Never, Node, Object, Opaque, Primitive, Ref, Tuple,
    Union, references,
)

DOMAINS = {1: "govern/inventory/1", 2: "govern/inventory/2"}
# Rounds after which the package refines a component by its split history instead, which this oracle does not do.
HASHED_ROUNDS = 32


class NotSettled(Exception):
    """A component the rounds do not settle within HASHED_ROUNDS: the package refines it by its split history."""
_RECURSION_PLACEHOLDER = "sha256:recursive"


def node_digest(node: Node, lookup: Callable[[str], str], domain: str) -> str:
    """Digest of one node; `lookup` gives the digest of a named type by key."""
    if isinstance(node, Ref):
        return lookup(node.target)
    return sha256_digest(domain, simple_canonical_json(hash_form(node, lambda child: node_digest(child, lookup, domain))))


def hash_form(node: Node, digest_of: Callable[[Node], str]) -> dict:
    """The node's own structure with every child replaced by its digest (ASCII keys, no floats)."""
    if isinstance(node, Primitive):
        return {"k": "primitive", "type": node.type, "c": [list(c) for c in node.constraints]}
    if isinstance(node, Literal):
        return {"k": "literal", "value": node.value}
    if isinstance(node, Enum):
        return {"k": "enum", "values": list(node.values)}
    if isinstance(node, Object):
        return {
            "k": "object",
            "p": [[p.name, digest_of(p.node), p.required, p.reserved] for p in node.properties],
            "a": digest_of(node.additional),
            "pp": [[pattern, digest_of(child)] for pattern, child in node.pattern_properties],
            "c": [list(c) for c in node.constraints],
        }
    if isinstance(node, Map):
        return {"k": "map", "v": digest_of(node.values), "c": [list(c) for c in node.constraints]}
    if isinstance(node, Array):
        return {"k": "array", "i": digest_of(node.items), "c": [list(c) for c in node.constraints]}
    if isinstance(node, Tuple):
        return {"k": "tuple", "i": [digest_of(item) for item in node.items], "r": digest_of(node.rest),
                "c": [list(c) for c in node.constraints]}
    if isinstance(node, Union):
        form = {"k": "union", "one": node.exclusive,
                "alts": sorted([digest_of(a.node), a.qualified, *([list(a.tags)] if a.tags else [])]
                               for a in node.alternatives)}
        if node.policy is not None:
            form["policy"] = node.policy
        if node.discriminator is not None:
            form["disc"] = node.discriminator
        return form
    if isinstance(node, Intersection):
        return {"k": "intersection", "ops": sorted(digest_of(op) for op in node.operands)}
    if isinstance(node, Applicator):
        # Operand order is meaningful here (if, then, else; or aligned with names).
        return {"k": "applicator", "kw": node.keyword, "ops": [digest_of(op) for op in node.operands],
                "names": list(node.names)}
    if isinstance(node, Opaque):
        return {"k": "opaque", "c": [list(c) for c in node.constraints]}
    if isinstance(node, Never):
        return {"k": "never"}
    raise TypeError(f"not a node: {node!r}")  # pragma: no cover - the node set is closed


def type_digests(types: Mapping[str, NamedType], domain: str) -> dict[str, str]:
    """Digest of every named type, each computed once, recursive components included."""
    # A type that is only a reference (an alias) is its target: `$ref` and inline hash alike, also when the
    # target is recursive (hashing the alias as one more member would give it a digest of its own).
    canonical = {key: _alias_target(key, types) for key in types}
    edges = {key: sorted({canonical.get(target, target) for target in references(named.node) & types.keys()})
             for key, named in types.items() if canonical[key] == key}
    digests: dict[str, str] = {}

    def settled(key: str) -> str:
        return digests[canonical.get(key, key)]

    for component in strongly_connected_components(sorted(edges), edges):
        if len(component) == 1 and component[0] not in edges[component[0]]:
            key = component[0]
            digests[key] = node_digest(types[key].node, settled, domain)
        else:
            digests.update(_component_digests(component, types, settled, canonical, domain))
    for key, target in canonical.items():
        digests[key] = digests[target]
    return dict(sorted(digests.items()))


def settled_type_digests(types: Mapping[str, NamedType], domain: str) -> dict[str, str]:
    """`type_digests`, for a hypothesis example: one with a component the rounds do not settle within HASHED_ROUNDS
    (the package refines it by its split history, which this oracle does not do) is rejected."""
    from hypothesis import assume

    try:
        return type_digests(types, domain)
    except NotSettled:
        assume(False)
        raise


def _alias_target(key: str, types: Mapping[str, NamedType]) -> str:
    seen = {key}
    while isinstance(types[key].node, Ref) and types[key].node.target in types:
        key = types[key].node.target
        if key in seen:  # a loop of bare references (adapters reject these): hash it as it stands
            return key
        seen.add(key)
    return key


def _component_digests(component: list[str], types: Mapping[str, NamedType], settled: Callable[[str], str],
                       canonical: Mapping[str, str], domain: str) -> dict[str, str]:
    current = {key: _RECURSION_PLACEHOLDER for key in component}

    def lookup(key: str) -> str:
        key = canonical.get(key, key)
        return current[key] if key in current else settled(key)

    classes = 1
    for _ in range(HASHED_ROUNDS):
        following = {key: node_digest(types[key].node, lookup, domain) for key in component}
        count = len(set(following.values()))
        current = following
        if count == classes:
            # The count no longer grows; the partition is stable once no class has two members whose texts in the
            # round after differ (a round can merge two classes while it splits another).
            quotient = sorted({(current[key], _form_text(types[key].node, lookup, domain)) for key in component})
            if len(quotient) == count and _of_one_structure(current, component, types, canonical, settled):
                break
        classes = count
    else:
        raise NotSettled(component)
    # The stable partition's class names (depth-k unfoldings) only tell the members of this component apart:
    # two components may agree to depth k and differ deeper. The digest therefore covers the whole quotient
    # graph, each class with its own structure and the classes it refers to, so any change anywhere in the
    # cycle changes every member's digest, while names and declaration order still play no part.
    classes_form = [list(entry) for entry in quotient]
    return {key: sha256_digest(domain, simple_canonical_json({"k": "recursive", "self": current[key],
                                                               "classes": classes_form}))
            for key in component}


def _of_one_structure(current: Mapping[str, str], component: list[str], types: Mapping[str, NamedType],
                      canonical: Mapping[str, str], settled: Callable[[str], str]) -> bool:
    """Whether the members of each class of `current` have equal structure: the same class in the coarsest partition
    of the component's nodes in which equal nodes have equal forms but for their children, and children of equal
    classes (as the form lists them, or, where it sorts them, as a multiset with their labels), references seen
    through, types outside the component by their digests."""
    members = set(component)

    def resolve(node: Node):
        seen = set()
        while isinstance(node, Ref):
            key = canonical.get(node.target, node.target)
            if key not in members:
                return ("settled", settled(key))
            if key in seen:  # a loop of bare references (adapters reject these): no structure
                return ("loop",)
            seen.add(key)
            node = types[key].node
        return node

    def parts(node) -> tuple[str, list, list | None]:
        """A node's form without its children, its children, and their labels where the form sorts them."""
        if isinstance(node, tuple):
            return repr(node), [], None
        children: list = []
        if isinstance(node, Union):
            children = [alternative.node for alternative in node.alternatives]
            labels = [(alternative.qualified, alternative.tags) for alternative in node.alternatives]
        elif isinstance(node, Intersection):
            children, labels = list(node.operands), [None] * len(node.operands)
        else:
            form = hash_form(node, lambda child: children.append(child) or "")
            return simple_canonical_json(form), children, None
        return simple_canonical_json(hash_form(node, lambda child: "")), children, labels

    def identity(node) -> object:
        return node if isinstance(node, tuple) else id(node)

    found: dict[object, tuple] = {}  # identity -> (node, its form without children, its children resolved, labels)
    stack = [resolve(types[key].node) for key in component]
    while stack:
        node = stack.pop()
        if identity(node) in found:
            continue
        form, children, labels = parts(node)
        resolved = [resolve(child) for child in children]
        found[identity(node)] = (node, form, resolved, labels)
        stack.extend(resolved)
    numbers: dict[object, int] = {}
    block = {key: numbers.setdefault(form, len(numbers)) for key, (_, form, _, _) in found.items()}
    while True:
        signatures = {}
        for key, (_, _, children, labels) in found.items():
            values = [block[identity(child)] for child in children]
            signatures[key] = (block[key], tuple(values) if labels is None else
                               tuple(sorted(zip(map(repr, labels), values))))
        numbers = {}
        refined = {key: numbers.setdefault(signature, len(numbers)) for key, signature in signatures.items()}
        settled_count = len(numbers) == len(set(block.values()))
        block = refined
        if settled_count:
            break
    by_class: dict[str, int] = {}
    return all(by_class.setdefault(current[key], block[identity(resolve(types[key].node))])
               == block[identity(resolve(types[key].node))] for key in component)


def _form_text(node: Node, lookup: Callable[[str], str], domain: str) -> str:
    if isinstance(node, Ref):
        return simple_canonical_json({"k": "ref", "to": lookup(node.target)})
    return simple_canonical_json(hash_form(node, lambda child: node_digest(child, lookup, domain)))


def strongly_connected_components(nodes: list[str], edges: Mapping[str, list[str]]) -> list[list[str]]:
    """Tarjan's algorithm without recursion; components come out dependencies first."""
    index_of: dict[str, int] = {}
    lowlink: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    result: list[list[str]] = []
    counter = 0
    for start in nodes:
        if start in index_of:
            continue
        work = [(start, 0)]
        while work:
            node, position = work.pop()
            if position == 0:
                index_of[node] = lowlink[node] = counter
                counter += 1
                stack.append(node)
                on_stack.add(node)
            successors = edges.get(node, [])
            descended = False
            while position < len(successors):
                successor = successors[position]
                position += 1
                if successor not in index_of:
                    work.append((node, position))
                    work.append((successor, 0))
                    descended = True
                    break
                if successor in on_stack:
                    lowlink[node] = min(lowlink[node], index_of[successor])
            if descended:
                continue
            if lowlink[node] == index_of[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                result.append(sorted(component))
            if work:
                parent = work[-1][0]
                lowlink[parent] = min(lowlink[parent], lowlink[node])
    return result
