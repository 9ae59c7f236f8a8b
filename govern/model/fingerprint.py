"""Fingerprints: sha256 over canonical JSON of the normalized structure, Merkle style.

Every node is hashed once, over a small form in which its children appear as their digests; a reference
contributes its target's digest, so `$ref` and an inline copy hash alike and a shared subtree is never
hashed twice. Names of named types never enter a hash. Recursive types are handled per strongly connected
component of the reference graph by partition refinement: round k hashes the depth-k unfolding, and the
rounds stop once the partition of the component into equal types no longer changes, and each member's digest
then covers the whole quotient graph of its component. The result depends on structure alone, not on names or
the order in which types are declared.
"""

from __future__ import annotations

import hashlib
import json
from typing import Callable, Iterable, Mapping

from govern.model.canonical import DIGEST_PREFIX, sha256_digest, simple_canonical_json
from govern.model.nodes import (
    Applicator, Array, Enum, Intersection, Literal, Map, NamedType, Never, Node, Object, Opaque, Primitive, Ref, Tuple,
    Union, references,
)

DOMAINS = {1: "govern/inventory/1", 2: "govern/inventory/2"}
_RECURSION_PLACEHOLDER = "sha256:recursive"


def node_digest(node: Node, lookup: Callable[[str], str], domain: str) -> str:
    """Digest of one node; `lookup` gives the digest of a named type by key."""
    if node.__class__ is Ref:
        return lookup(node.target)
    return sha256_digest(domain, form_text(node, lambda child: node_digest(child, lookup, domain)))


def form_text(node: Node, digest_of: Callable[[Node], str]) -> str:
    """The canonical JSON text of the node's hash form: its own structure with every child replaced by the
    child's digest, as an object with ASCII keys (sorted) whose values are strings, booleans, integers and
    lists.

    The form is written directly, one small function per node kind, rather than built as a dictionary and
    serialized: this runs once for every node of every schema (several times inside recursive components),
    and building and encoding a dictionary per node cost more than everything else the digests do. The
    text is byte for byte what RFC 8785 gives for the form (tests compare it with the first build's
    dictionary form); digests are `sha256:<hex>`, so they are written between quotes without escaping.
    """
    return _FORM_WRITERS[node.__class__](node, digest_of)


_string = json.encoder.encode_basestring  # the standard library's C encoder: RFC 8785's escapes
_BOOLEANS = {True: "true", False: "false"}


def _constraints_text(constraints: tuple[tuple[str, str], ...]) -> str:
    if not constraints:
        return "[]"
    return "[" + ",".join("[" + _string(key) + "," + _string(text) + "]" for key, text in constraints) + "]"


def _primitive_form(node: Primitive, digest_of) -> str:
    return '{"c":' + _constraints_text(node.constraints) + ',"k":"primitive","type":' + _string(node.type) + "}"


def _literal_form(node: Literal, digest_of) -> str:
    return '{"k":"literal","value":' + _string(node.value) + "}"


def _enum_form(node: Enum, digest_of) -> str:
    return '{"k":"enum","values":[' + ",".join(map(_string, node.values)) + "]}"


def _object_form(node: Object, digest_of) -> str:
    properties = ",".join("[" + _string(p.name) + ',"' + digest_of(p.node) + '",' + _BOOLEANS[p.required] + ","
                          + _BOOLEANS[p.reserved] + "]" for p in node.properties)
    patterns = ",".join("[" + _string(pattern) + ',"' + digest_of(child) + '"]'
                        for pattern, child in node.pattern_properties)
    return ('{"a":"' + digest_of(node.additional) + '","c":' + _constraints_text(node.constraints)
            + ',"k":"object","p":[' + properties + '],"pp":[' + patterns + "]}")


def _map_form(node: Map, digest_of) -> str:
    return '{"c":' + _constraints_text(node.constraints) + ',"k":"map","v":"' + digest_of(node.values) + '"}'


def _array_form(node: Array, digest_of) -> str:
    return '{"c":' + _constraints_text(node.constraints) + ',"i":"' + digest_of(node.items) + '","k":"array"}'


def _tuple_form(node: Tuple, digest_of) -> str:
    items = ",".join('"' + digest_of(item) + '"' for item in node.items)
    return ('{"c":' + _constraints_text(node.constraints) + ',"i":[' + items + '],"k":"tuple","r":"'
            + digest_of(node.rest) + '"}')


def _union_form(node: Union, digest_of) -> str:
    return _union_text(sorted(_alternative_key(digest_of(a.node), a) for a in node.alternatives), _union_tail(node))


def _alternative_key(digest: str, alternative) -> tuple:
    """An alternative as its hash form lists it: [digest, qualified], and its tags when it has any (the
    tuples sort as those lists do)."""
    return (digest, alternative.qualified, alternative.tags) if alternative.tags else (digest, alternative.qualified)


def _union_text(alternatives: list[tuple], tail: str) -> str:
    """`alternatives`: their keys (see _alternative_key), sorted."""
    return '{"alts":[' + ",".join('["' + entry[0] + '",' + _BOOLEANS[entry[1]]
                                  + ("]" if len(entry) == 2 else ",[" + ",".join(map(_string, entry[2])) + "]]")
                                  for entry in alternatives) + "]" + tail


def _union_tail(node: Union) -> str:
    """What follows the alternatives in a union's form (keys in order: disc, k, one, policy)."""
    text = ',"disc":' + _string(node.discriminator) if node.discriminator is not None else ""
    text += ',"k":"union","one":' + _BOOLEANS[node.exclusive]
    if node.policy is not None:
        text += ',"policy":' + json.dumps(node.policy)
    return text + "}"


def _intersection_form(node: Intersection, digest_of) -> str:
    return _intersection_text(sorted(map(digest_of, node.operands)))


def _intersection_text(operands: list[str]) -> str:
    """`operands`: their digests, sorted."""
    return '{"k":"intersection","ops":[' + ",".join('"' + digest + '"' for digest in operands) + "]}"


def _applicator_form(node: Applicator, digest_of) -> str:
    # Operand order is meaningful here (if, then, else; or aligned with names).
    return ('{"k":"applicator","kw":' + _string(node.keyword) + ',"names":[' + ",".join(map(_string, node.names))
            + '],"ops":[' + ",".join('"' + digest_of(op) + '"' for op in node.operands) + "]}")


def _opaque_form(node: Opaque, digest_of) -> str:
    return '{"c":' + _constraints_text(node.constraints) + ',"k":"opaque"}'


def _never_form(node: Never, digest_of) -> str:
    return '{"k":"never"}'


_FORM_WRITERS = {
    Primitive: _primitive_form, Literal: _literal_form, Enum: _enum_form, Object: _object_form, Map: _map_form,
    Array: _array_form, Tuple: _tuple_form, Union: _union_form, Intersection: _intersection_form,
    Applicator: _applicator_form, Opaque: _opaque_form, Never: _never_form,
}


def type_digests(types: Mapping[str, NamedType], domain: str,
                 reachable_from: Iterable[str] | None = None) -> dict[str, str]:
    """Digest of every named type, each computed once, recursive components included; with `reachable_from`
    (type keys), of the types those reach only (a digest depends on nothing else), which is what comparing
    roots needs."""
    if reachable_from is not None:
        types, referred = _reachable(types, reachable_from)
    else:
        referred = {key: references(named.node) for key, named in types.items()}
    # A type that is only a reference (an alias) is its target: `$ref` and inline hash alike, also when the
    # target is recursive (hashing the alias as one more member would give it a digest of its own).
    canonical = {key: _alias_target(key, types) for key in types}
    edges = {key: sorted({canonical.get(target, target) for target in referred[key] & types.keys()})
             for key in types if canonical[key] == key}
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


def _reachable(types: Mapping[str, NamedType], starts: Iterable[str]) -> tuple[dict[str, NamedType],
                                                                               dict[str, set[str]]]:
    """The types `starts` reach, and the keys each of them refers to."""
    found = {key: types[key] for key in starts if key in types}
    referred: dict[str, set[str]] = {}
    stack = list(found)
    while stack:
        key = stack.pop()
        referred[key] = references(types[key].node)
        for target in referred[key]:
            if target in types and target not in found:
                found[target] = types[target]
                stack.append(target)
    return found, referred


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
    members = set(component)
    current = {key: _RECURSION_PLACEHOLDER for key in component}

    # Inline subtrees that reach no member of the component hash alike in every round: hashed once.
    constant: dict[int, tuple[Node, str]] = {}

    def digest_in_round(node: Node) -> tuple[str, bool]:
        """The node's digest in this round, and whether it stays the same in every round."""
        if isinstance(node, Ref):
            key = canonical.get(node.target, node.target)
            return (current[key], False) if key in members else (settled(key), True)
        known = constant.get(id(node))
        if known is not None:
            return known[1], True
        stays = True

        def child_digest(child: Node) -> str:
            nonlocal stays
            digest, child_stays = digest_in_round(child)
            stays = stays and child_stays
            return digest

        digest = sha256_digest(domain, form_text(node, child_digest))
        if stays:
            constant[id(node)] = (node, digest)  # the node is kept so its id is not reused while cached
        return digest, stays

    # Round k gives each member the digest of its depth-k unfolding (members referring to each other by a
    # placeholder in round 0); the rounds stop once the partition into equal digests stops growing.
    rounds = _Rounds(domain, lambda key: canonical.get(key, key), members, settled, constant)
    tops = {key: rounds.slot(types[key].node) for key in component}
    classes = 1
    for _ in range(len(component) + 1):
        following = rounds.next(tops, current)
        count = len(set(following.values()))
        current = following
        if count == classes:
            break
        classes = count
    # The stable partition's class names (depth-k unfoldings) only tell the members of this component apart:
    # two components may agree to depth k and differ deeper. The digest therefore covers the whole quotient
    # graph, each class with its own structure and the classes it refers to, so any change anywhere in the
    # cycle changes every member's digest, while names and declaration order still play no part.
    # Members of one class have equal structure in terms of classes (the partition is stable), so one member
    # per class gives the quotient, which is serialized once for the whole component.
    representatives = {}
    for key in component:
        representatives.setdefault(current[key], key)
    planned = {key: tops[key][1] for key in representatives.values() if tops[key].__class__ is tuple
               and tops[key][0] == _NODE}
    texts: dict[int, str] = dict.fromkeys(planned.values(), "")
    rounds.next(tops, current, texts)  # the representatives' texts in terms of the final digests
    rounds = None
    quotient = sorted((name, texts[planned[key]] if key in planned else _form_text(types[key].node, digest_in_round))
                      for name, key in representatives.items())
    texts.clear()
    # Byte for byte the canonical JSON of {"classes": quotient, "k": "recursive", "self": <class name>}
    # (keys sorted), with the shared prefix hashed once, class by class (the whole text would be as large
    # as the component's schemas).
    prefix = hashlib.sha256((domain + "\n" + '{"classes":[').encode("utf-8"))
    separator = "["
    for name, text in quotient:
        prefix.update((separator + _string(name) + "," + _string(text) + "]").encode("utf-8"))
        separator = ",["
    prefix.update(b'],"k":"recursive","self":')
    quotient.clear()
    constant.clear()  # the closures above refer to each other, so they go only when cycles are collected
    by_class = {}
    for name in representatives:
        hasher = prefix.copy()
        hasher.update((simple_canonical_json(name) + "}").encode("utf-8"))
        by_class[name] = DIGEST_PREFIX + hasher.hexdigest()
    return {key: by_class[current[key]] for key in component}


_MEMBER, _NODE = 0, 1  # slots
_TEMPLATE, _SORTED_ALTERNATIVES, _SORTED_OPERANDS = 0, 1, 2  # plans
_MARK = "\x00"  # never in a form's text: the string writer escapes control characters


class _Rounds:
    """The refinement rounds of one component, compiled once.

    Every round rehashes each inline node that reaches a member. Such a node's form text is the same in
    every round except for the digests of its children that reach a member, so it is written once with a
    marker in each of their places and split there: a round then only joins the pieces with the children's
    current digests and hashes the result, children first. Unions and intersections order their children
    by digest, so theirs are sorted and written each round.
    """

    def __init__(self, domain: str, canonical: Callable[[str], str], members: set[str],
                 settled: Callable[[str], str], constant: dict[int, tuple[Node, str]]):
        self.domain = domain
        self.prefix = domain + "\n"
        self.canonical = canonical
        self.members = members
        self.settled = settled
        self.constant = constant  # inline subtrees that reach no member, by identity (shared with the caller)
        self.plans: list[tuple] = []  # children before parents
        self.index: dict[int, int] = {}  # id(node) -> its plan

    def slot(self, node: Node):
        """A digest that stays the same in every round, or (_MEMBER, key) or (_NODE, plan index)."""
        if node.__class__ is Ref:
            key = self.canonical(node.target)
            return (_MEMBER, key) if key in self.members else self.settled(key)
        known = self.constant.get(id(node))
        if known is not None:
            return known[1]
        index = self.index.get(id(node))
        if index is not None:
            return (_NODE, index)
        return self._compile(node)

    def _compile(self, node: Node):
        varying: list[object] = []

        def marked(child: Node) -> str:
            slot = self.slot(child)
            if slot.__class__ is str:
                return slot
            varying.append(slot)
            return f"{_MARK}{len(varying) - 1}{_MARK}"

        text = form_text(node, marked)
        if not varying:
            digest = sha256_digest(self.domain, text)
            self.constant[id(node)] = (node, digest)  # the node is kept so its id is not reused while cached
            return digest
        if node.__class__ is Union:
            plan = (_SORTED_ALTERNATIVES, [(self.slot(a.node), a) for a in node.alternatives],
                    _union_tail(node))
        elif node.__class__ is Intersection:
            plan = (_SORTED_OPERANDS, [self.slot(operand) for operand in node.operands], None)
        else:
            pieces = text.split(_MARK)
            plan = (_TEMPLATE, pieces[0], [(varying[int(position)], after)
                                           for position, after in zip(pieces[1::2], pieces[2::2])])
        self.index[id(node)] = len(self.plans)
        self.plans.append(plan)
        return (_NODE, len(self.plans) - 1)

    def next(self, tops: dict[str, object], current: dict[str, str],
             texts: dict[int, str] | None = None) -> dict[str, str]:
        """Every member's digest in the round after the one that gave `current`; `texts`, when given,
        receives the hashed text (after the domain line) of each plan whose index it holds as a key."""
        digests: list[str] = []

        def value(slot) -> str:
            if slot.__class__ is str:
                return slot
            kind, target = slot
            return current[target] if kind == _MEMBER else digests[target]

        prefix = self.prefix
        for index, (kind, head, rest) in enumerate(self.plans):
            if kind == _TEMPLATE:
                pieces = [prefix, head]
                for (slot_kind, target), after in rest:
                    pieces.append(current[target] if slot_kind == _MEMBER else digests[target])
                    pieces.append(after)
                text = "".join(pieces)
            elif kind == _SORTED_ALTERNATIVES:
                text = prefix + _union_text(sorted(_alternative_key(value(slot), alternative)
                                                   for slot, alternative in head), rest)
            else:
                text = prefix + _intersection_text(sorted(map(value, head)))
            digests.append(DIGEST_PREFIX + hashlib.sha256(text.encode("utf-8")).hexdigest())
            if texts is not None and index in texts:
                texts[index] = text[len(prefix):]
        return {key: value(slot) for key, slot in tops.items()}


def _form_text(node: Node, digest_in_round: Callable[[Node], tuple[str, bool]]) -> str:
    if isinstance(node, Ref):
        return simple_canonical_json({"k": "ref", "to": digest_in_round(node)[0]})
    return form_text(node, lambda child: digest_in_round(child)[0])


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
