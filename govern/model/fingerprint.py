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
from binascii import hexlify
from bisect import bisect_right
from operator import itemgetter
from typing import Callable, Iterable, Mapping

from govern.model.canonical import DIGEST_PREFIX, simple_canonical_json
from govern.model.nodes import (
    Applicator, Array, Enum, Intersection, Literal, Map, NamedType, Never, Node, Object, Opaque, Primitive, Ref, Tuple,
    Union,
)

DOMAINS = {1: "govern/inventory/1", 2: "govern/inventory/2"}
_RECURSION_PLACEHOLDER = "sha256:recursive"


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
    return "[" + ",".join([f"[{_string(key)},{_string(text)}]" for key, text in constraints]) + "]"


def _primitive_form(node: Primitive, digest_of) -> str:
    return f'{{"c":{_constraints_text(node.constraints)},"k":"primitive","type":{_string(node.type)}}}'


def _literal_form(node: Literal, digest_of) -> str:
    return f'{{"k":"literal","value":{_string(node.value)}}}'


def _enum_form(node: Enum, digest_of) -> str:
    return '{"k":"enum","values":[' + ",".join(map(_string, node.values)) + "]}"


def _object_form(node: Object, digest_of) -> str:
    # f-strings and list comprehensions: the cheapest way to write the one form every object has
    properties = ",".join([f'[{_string(p.name)},"{digest_of(p.node)}",{"true" if p.required else "false"},'
                           f'{"true" if p.reserved else "false"}]' for p in node.properties])
    patterns = ",".join([f'[{_string(pattern)},"{digest_of(child)}"]' for pattern, child in node.pattern_properties])
    return (f'{{"a":"{digest_of(node.additional)}","c":{_constraints_text(node.constraints)},"k":"object",'
            f'"p":[{properties}],"pp":[{patterns}]}}')


def _map_form(node: Map, digest_of) -> str:
    return f'{{"c":{_constraints_text(node.constraints)},"k":"map","v":"{digest_of(node.values)}"}}'


def _array_form(node: Array, digest_of) -> str:
    return f'{{"c":{_constraints_text(node.constraints)},"i":"{digest_of(node.items)}","k":"array"}}'


def _tuple_form(node: Tuple, digest_of) -> str:
    items = ",".join([f'"{digest_of(item)}"' for item in node.items])
    return f'{{"c":{_constraints_text(node.constraints)},"i":[{items}],"k":"tuple","r":"{digest_of(node.rest)}"}}'


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
                 reachable_from: Iterable[str] | None = None,
                 referred: Mapping[str, set[str]] | None = None) -> dict[str, str]:
    """Digest of every named type, each computed once, recursive components included; with `reachable_from`
    (type keys), of the types those reach only (a digest depends on nothing else), which is what comparing
    roots needs. `referred`, when the caller has it (see `scan_types`), gives the keys each type refers to."""
    if reachable_from is not None:
        types, referred = _reachable(types, reachable_from, referred)
    elif referred is None:
        referred = scan_types(types)[0]
    # A type that is only a reference (an alias) is its target: `$ref` and inline hash alike, also when the
    # target is recursive (hashing the alias as one more member would give it a digest of its own).
    canonical = {key: _alias_target(key, types) for key in types}
    edges = {key: sorted({canonical.get(target, target) for target in referred[key] & types.keys()})
             for key in types if canonical[key] == key}
    digests: dict[str, str] = {}

    def settled(key: str) -> str:
        known = digests.get(key)  # during the walk only canonical keys have digests: aliases get theirs last
        return known if known is not None else digests[canonical.get(key, key)]

    memo = _Memo(domain)

    def digest_of(node: Node) -> str:
        """A node outside recursive components, once every type it refers to is settled: each node object
        is written once, and each distinct text hashed once."""
        if node.__class__ is Ref:
            return settled(node.target)
        known = memo.by_id.get(id(node))
        if known is None:
            known = memo.by_id[id(node)] = memo.digest(_FORM_WRITERS[node.__class__](node, digest_of))
        return known

    for component in strongly_connected_components(sorted(edges), edges):
        if len(component) == 1 and component[0] not in edges[component[0]]:
            key = component[0]
            digests[key] = digest_of(types[key].node)
        else:
            digests.update(_component_digests(component, types, settled, canonical, memo))
    for key, target in canonical.items():
        digests[key] = digests[target]
    return dict(sorted(digests.items()))


class _Memo:
    """Digests that hold for the whole computation: of node objects by identity (the nodes stay alive in the
    graph being hashed, so an id is not reused meanwhile) and of form texts.

    Readers share one node object wherever a schema without subschemas recurs, and large sources repeat
    small structures (a list of strings, a map of strings) thousands of times as objects of their own:
    each object is written once and each distinct text hashed once. Long texts (objects with many
    properties) rarely repeat and would only hold memory, so only short ones are kept."""

    __slots__ = ("prefix", "by_id", "by_text")
    SHORT = 256

    def __init__(self, domain: str):
        self.prefix = domain + "\n"
        self.by_id: dict[int, str] = {}
        self.by_text: dict[str, str] = {}

    def digest(self, text: str) -> str:
        if len(text) > self.SHORT:
            return DIGEST_PREFIX + hashlib.sha256((self.prefix + text).encode("utf-8")).hexdigest()
        known = self.by_text.get(text)
        if known is None:
            known = self.by_text[text] = DIGEST_PREFIX + hashlib.sha256((self.prefix + text).encode("utf-8")).hexdigest()
        return known


def scan_types(types: Mapping[str, NamedType]) -> tuple[dict[str, set[str]], bool]:
    """In one walk over every node: the keys of the named types each type refers to directly, and whether any
    union carries a preservation policy or a qualified alternative (what makes a graph inventory format 2)."""
    referred: dict[str, set[str]] = {}
    policy = False
    for key, named in types.items():
        found, bearing = _scan(named.node)
        referred[key] = found
        policy = policy or bearing
    return referred, policy


def _scan(node: Node) -> tuple[set[str], bool]:
    found: set[str] = set()
    policy = False
    stack = [node]
    pop, push, extend = stack.pop, stack.append, stack.extend
    while stack:
        current = pop()
        kind = current.__class__
        if kind is Ref:
            found.add(current.target)
        elif kind is Object:
            for prop in current.properties:
                push(prop.node)
            for _, child in current.pattern_properties:
                push(child)
            push(current.additional)
        elif kind is Map:
            push(current.values)
        elif kind is Array:
            push(current.items)
        elif kind is Union:
            for alternative in current.alternatives:
                push(alternative.node)
                policy = policy or alternative.qualified
            policy = policy or current.policy is not None
        elif kind is Tuple:
            extend(current.items)
            push(current.rest)
        elif kind is Intersection or kind is Applicator:
            extend(current.operands)
    return found, policy


def _reachable(types: Mapping[str, NamedType], starts: Iterable[str],
               known: Mapping[str, set[str]] | None = None) -> tuple[dict[str, NamedType], dict[str, set[str]]]:
    """The types `starts` reach, and the keys each of them refers to (from `known` where it has them)."""
    found = {key: types[key] for key in starts if key in types}
    referred: dict[str, set[str]] = {}
    stack = list(found)
    while stack:
        key = stack.pop()
        referred[key] = known[key] if known is not None else _scan(types[key].node)[0]
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
                       canonical: Mapping[str, str], memo: _Memo) -> dict[str, str]:
    # Round k gives each member the digest of its depth-k unfolding (members referring to each other by a
    # placeholder in round 0); the rounds stop once the partition into equal digests stops growing.
    # (Inside the rounds digests are ASCII bytes: see _Rounds.)
    rounds = _Rounds(memo, canonical, component, settled)
    tops = [slot if slot.__class__ is int else slot.encode("ascii")
            for slot in [rounds.slot(types[key].node) for key in component]]
    current = [_RECURSION_PLACEHOLDER.encode("ascii")] * len(component)
    classes = 1
    for _ in range(len(component) + 1):
        following = rounds.next(tops, current)
        count = len(set(following))
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
    representatives: dict[bytes, int] = {}
    for position, name in enumerate(current):
        representatives.setdefault(name, position)
    wanted = {tops[position]: b"" for position in representatives.values() if tops[position].__class__ is int
              and tops[position] >= rounds.size}
    rounds.next(tops, current, wanted)  # the representatives' texts in terms of the final digests
    quotient = sorted((name, wanted[tops[position]] if tops[position] in wanted
                       else _top_text(types[component[position]].node, rounds, current).encode("utf-8"))
                      for name, position in representatives.items())
    rounds = None
    wanted.clear()
    # Byte for byte the canonical JSON of {"classes": quotient, "k": "recursive", "self": <class name>}
    # (keys sorted), with the shared prefix hashed once, class by class (the whole text would be as large
    # as the component's schemas). Class names are digests, which JSON writes as they are; a form text has
    # no control characters (its strings are written escaped), so as a JSON string only its backslashes
    # and quotes are escaped.
    prefix = hashlib.sha256((memo.prefix + '{"classes":[').encode("utf-8"))
    separator = b'["'
    for name, text in quotient:
        prefix.update(separator + name + b'","' + text.replace(b"\\", b"\\\\").replace(b'"', b'\\"') + b'"]')
        separator = b',["'
    prefix.update(b'],"k":"recursive","self":')
    quotient.clear()
    by_class = {}
    for name in representatives:
        hasher = prefix.copy()
        hasher.update(b'"' + name + b'"}')
        by_class[name] = DIGEST_PREFIX + hasher.hexdigest()
    return {key: by_class[current[position]] for position, key in enumerate(component)}


def _top_text(node: Node, rounds: "_Rounds", current: list[bytes]) -> str:
    """The form text of a member whose node is no plan of the rounds (a member that is only a reference, in a
    loop of bare references), in terms of the final digests."""
    def final(child: Node) -> str:
        slot = rounds.slot(child)
        return current[slot].decode("ascii") if slot.__class__ is int else slot

    if node.__class__ is Ref:
        return simple_canonical_json({"k": "ref", "to": final(node)})
    return form_text(node, final)


_TEMPLATE, _ONE_ENTRY, _SORTED_ENTRIES, _SORTED_ALTERNATIVES, _SORTED_OPERANDS = 0, 1, 2, 3, 4  # plans
_MARK = "\x00"  # never in a form's text: the string writer escapes control characters
_MARKS = [f"{_MARK}{position}{_MARK}" for position in range(16)]
_MARK_NUMBERS = [str(position) for position in range(64)]
_DIGEST_PREFIX_BYTES = DIGEST_PREFIX.encode("ascii")


class _Rounds:
    """The refinement rounds of one component, compiled once.

    Every round rehashes each inline node that reaches a member. Such a node's form text is the same in
    every round except for the digests of its children that reach a member, so it is written once with a
    marker in each of their places and turned into a format string: a round then only fills in the
    children's current digests and hashes the result, children first. Unions and intersections order their
    children by digest, so theirs are sorted and written each round.

    A slot is a digest that stays the same in every round (a string), or a position in a round's values:
    the members' digests of the previous round first (in component order), then the plans' digests of this
    round, in plan order. A round's values, its format strings and the texts it hashes are UTF-8 bytes:
    formatting bytes and hashing them as they are costs less than formatting text and encoding it, and
    digests are ASCII, whose bytes sort as their characters do.
    """

    def __init__(self, memo: _Memo, canonical: Mapping[str, str], component: list[str],
                 settled: Callable[[str], str]):
        self.memo = memo  # digests that hold in every round (subtrees that reach no member), shared with the caller
        self.canonical = canonical  # key -> the key it is an alias of (itself when none)
        self.members = {key: position for position, key in enumerate(component)}
        self.size = len(component)
        self.settled = settled
        self.prefix = memo.prefix.encode("utf-8")
        self.plans: list[tuple] = []  # children before parents
        self.index: dict[int, int] = {}  # id(node) -> its slot
        self.templates: dict[str, tuple[bytes, list[int]]] = {}  # marked text -> format string, marker order
        self.read: set[int] = set()  # the plans some other plan reads

    def slot(self, node: Node):
        if node.__class__ is Ref:
            key = node.target
            key = self.canonical.get(key, key)
            position = self.members.get(key)
            return position if position is not None else self.settled(key)
        known = self.memo.by_id.get(id(node))
        if known is not None:
            return known
        position = self.index.get(id(node))
        if position is not None:
            return position
        return self._compile(node)

    def _compile(self, node: Node):
        kind = node.__class__
        if kind is Union or kind is Intersection:
            return self._compile_sorted(node)
        varying: list[int] = []
        constant, read = self.memo.by_id, self.read
        canonical, members, settled, index, compile_ = self.canonical, self.members, self.settled, self.index, \
            self._compile

        def marked(child: Node) -> str:
            known = constant.get(id(child))  # (most children: leaves shared throughout the graph)
            if known is not None:
                return known
            if child.__class__ is Ref:
                key = child.target
                key = canonical.get(key, key)
                slot = members.get(key)
                if slot is None:
                    return settled(key)
            else:
                slot = index.get(id(child))
                if slot is None:
                    slot = compile_(child)
                    if slot.__class__ is str:
                        return slot
                read.add(slot)
            varying.append(slot)
            return _MARKS[len(varying) - 1] if len(varying) <= len(_MARKS) else f"{_MARK}{len(varying) - 1}{_MARK}"

        text = _FORM_WRITERS[kind](node, marked)
        if not varying:
            digest = self.memo.by_id[id(node)] = self.memo.digest(text)
            return digest
        # Inline nodes of one shape (a list of members, a member or null) repeat throughout a component:
        # their marked text, and so their format string, is the same. Long texts (a member's own object)
        # rarely repeat, so they are not kept.
        known = self.templates.get(text) if len(text) <= _Memo.SHORT else None
        if known is None:
            pieces = text.replace("%", "%%").split(_MARK)
            markers = pieces[1::2]
            known = ((self.memo.prefix.replace("%", "%%") + "%s".join(pieces[0::2])).encode("utf-8"),
                     None if markers == _MARK_NUMBERS[:len(markers)] else [int(marker) for marker in markers])
            if len(text) <= _Memo.SHORT:
                self.templates[text] = known
        template, order = known
        return self._plan((_TEMPLATE, template, itemgetter(*(varying if order is None
                                                             else [varying[position] for position in order]))), node)

    def _compile_sorted(self, node: Union | Intersection):
        """A union's or an intersection's plan, or its digest when it reaches no member: its form orders the
        children by digest, so the children's slots make the plan, and its text is written only when they
        are all constant."""
        slot_of = self.slot
        if node.__class__ is Intersection:
            slots = [slot_of(operand) for operand in node.operands]
        else:
            slots = [slot_of(alternative.node) for alternative in node.alternatives]
        varying = [slot for slot in slots if slot.__class__ is int]
        if not varying:
            digest = self.memo.by_id[id(node)] = self.memo.digest(form_text(node, slot_of))
            return digest
        self.read.update(slot for slot in varying if slot >= self.size)
        if node.__class__ is Intersection:
            return self._plan((_SORTED_OPERANDS, [slot if slot.__class__ is int else slot.encode("ascii")
                                                  for slot in slots], None), node)
        if any(alternative.tags for alternative in node.alternatives):
            return self._plan((_SORTED_ALTERNATIVES, list(zip(slots, node.alternatives)), _union_tail(node)), node)
        # Entries `["<digest>",<qualified>]` sort as their keys (digest, qualified) do: digests are written
        # with characters above `"`, so two entries compare by their digests first, and then `false` sorts
        # before `true`. So the entries of alternatives that reach no member are written once, and each
        # round writes the others and sorts the texts.
        fixed, varying_entries = [], []
        for slot, alternative in zip(slots, node.alternatives):
            suffix = '",' + _BOOLEANS[alternative.qualified] + "]"
            if slot.__class__ is str:
                fixed.append(('["' + slot + suffix).encode("ascii"))
            else:
                varying_entries.append((slot, suffix.encode("ascii")))
        tail = _union_tail(node).encode("utf-8")
        if len(varying_entries) > 1:
            return self._plan((_SORTED_ENTRIES, (fixed, varying_entries), tail), node)
        # One entry changes (a member or null, say): its place among the others is where it sorts in, and
        # the text for each place is written once.
        fixed.sort()
        texts = [self.prefix + b'{"alts":[' + b",".join(fixed[:place] + [b"%s"] + fixed[place:]) + b"]"
                 + tail.replace(b"%", b"%%") for place in range(len(fixed) + 1)]
        return self._plan((_ONE_ENTRY, (fixed, texts), varying_entries[0]), node)

    def _plan(self, plan: tuple, node: Node) -> int:
        position = self.index[id(node)] = self.size + len(self.plans)
        self.plans.append(plan)
        return position

    def next(self, tops: list, current: list[bytes], texts: dict[int, bytes] | None = None) -> list[bytes]:
        """Every member's digest in the round after the one that gave `current` (in component order);
        `texts`, when given, receives the hashed text (after the domain line) of each plan whose slot it
        holds as a key, and those no other plan reads are not hashed."""
        values: list = current + [None] * len(self.plans)
        prefix = self.prefix
        start = len(prefix)
        sha256 = hashlib.sha256
        digest_prefix = _DIGEST_PREFIX_BYTES
        kept = texts if texts is not None else {}
        read = self.read
        position = self.size
        for kind, head, rest in self.plans:
            if kind == _TEMPLATE:
                text = head % rest(values)
            elif kind == _ONE_ENTRY:
                fixed, texts_by_place = head
                slot, suffix = rest
                entry = b'["' + values[slot] + suffix
                text = texts_by_place[bisect_right(fixed, entry)] % entry
            elif kind == _SORTED_ENTRIES:
                fixed, varying = head
                text = prefix + b'{"alts":[' + b",".join(sorted(fixed + [b'["' + values[slot] + suffix
                                                                         for slot, suffix in varying])) + b"]" + rest
            elif kind == _SORTED_ALTERNATIVES:
                text = prefix + _union_text(sorted(_alternative_key(values[slot].decode("ascii")
                                                                    if slot.__class__ is int else slot, alternative)
                                                   for slot, alternative in head), rest).encode("utf-8")
            else:
                text = prefix + b'{"k":"intersection","ops":[' + b",".join([
                    b'"' + digest + b'"' for digest in sorted(values[slot] if slot.__class__ is int else slot
                                                             for slot in head)]) + b"]}"
            if position in kept:
                kept[position] = text[start:]
                if position not in read:
                    position += 1
                    continue
            values[position] = digest_prefix + hexlify(sha256(text).digest())
            position += 1
        return [values[slot] if slot.__class__ is int else slot for slot in tops]


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
