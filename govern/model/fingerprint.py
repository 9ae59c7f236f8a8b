"""Fingerprints: sha256 over canonical JSON of the normalized structure, Merkle style.

Every node is hashed once, over a small form in which its children appear as their digests; a reference
contributes its target's digest, so `$ref` and an inline copy hash alike and a shared subtree is never
hashed twice. Names of named types never enter a hash. Recursive types are handled per strongly connected
component of the reference graph by partition refinement: round k hashes the depth-k unfolding, and the
rounds stop once the number of classes of equal types no longer grows and every class holds members of equal
structure (see _quotient_texts), and each member's digest then covers the whole quotient graph of its component.
A component whose partition is not settled after _HASHED_ROUNDS rounds is refined by class numbers instead, each
class named by the digests of how it split off (see _split_history), in time near-linear in the component rather
than its square; whether the rounds would settle it is asked first, by numbering what they would hash (see
_Rounds.settling_round), so such a component is not hashed round after round only to learn that. The result
depends on structure alone, not on names or the order in which types are declared.
"""

from __future__ import annotations

import hashlib
import itertools
import json
from binascii import hexlify
from bisect import bisect_right
from operator import itemgetter
from typing import Callable, Iterable, Iterator, Mapping

from govern.model.canonical import DIGEST_PREFIX, simple_canonical_json
from govern.model.nodes import (
    Applicator, Array, Enum, Intersection, Literal, Map, NamedType, Never, Node, Object, Opaque, Primitive, Ref, Tuple,
    Union,
)
from govern.process import long_lived

DOMAINS = {1: "govern/inventory/1", 2: "govern/inventory/2"}
_RECURSION_PLACEHOLDER = "sha256:recursive"


def form_text(node: Node, digest_of: Callable[[Node], str], entries: dict | None = None) -> str:
    """The canonical JSON text of the node's hash form: its own structure with every child replaced by the
    child's digest, as an object with ASCII keys (sorted) whose values are strings, booleans, integers and
    lists.

    The form is written directly, one small function per node kind, rather than built as a dictionary and
    serialized: this runs once for every node of every schema (several times inside recursive components),
    and building and encoding a dictionary per node cost more than everything else the digests do. The
    text is byte for byte what RFC 8785 gives for the form (tests compare it with the first build's
    dictionary form); digests are `sha256:<hex>`, so they are written between quotes without escaping.
    Each writer asks `digest_of` for the children in the order their digests stand in the text.

    `entries`, a dictionary the caller keeps for one graph whose digests stay fixed, holds the properties'
    entries of the objects written (see `_object_form`), so a property shared by many objects is written once.
    """
    if entries is not None and node.__class__ is Object:
        return _object_form(node, digest_of, entries)
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


def _object_form(node: Object, digest_of, entries: dict | None = None) -> str:
    # f-strings and list comprehensions: the cheapest way to write the one form every object has. Children
    # are asked for in the order the text holds them (the refinement rounds rely on it: see _Rounds).
    additional = digest_of(node.additional)
    if entries is None:
        properties = ",".join([f'[{_string(p.name)},"{digest_of(p.node)}",{"true" if p.required else "false"},'
                               f'{"true" if p.reserved else "false"}]' for p in node.properties])
    else:
        # `entries`: by the id of a property whose node reaches no member of a recursive component, the
        # property and its entry. Readers share one property object wherever a property recurs, and the members
        # of a large component hold a few such properties each: each entry is written once. (A property whose
        # node reaches a member has a marker in its entry, which is written at each place.)
        written = []
        for prop in node.properties:
            known = entries.get(id(prop))
            if known is None:
                digest = digest_of(prop.node)
                known = (prop, f'[{_string(prop.name)},"{digest}",{"true" if prop.required else "false"},'
                               f'{"true" if prop.reserved else "false"}]')
                if digest != _MARK:
                    entries[id(prop)] = known
            written.append(known[1])
        properties = ",".join(written)
    patterns = ",".join([f'[{_string(pattern)},"{digest_of(child)}"]' for pattern, child in node.pattern_properties])
    return (f'{{"a":"{additional}","c":{_constraints_text(node.constraints)},"k":"object",'
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


# What a computation makes (the memo, the compiled rounds, the texts) is freed by reference counting when it
# returns (no cycle is left among them, see below): a young-generation collection meanwhile would only walk it.
@long_lived()
def type_digests(types: Mapping[str, NamedType], domain: str,
                 reachable_from: Iterable[str] | None = None,
                 referred: Mapping[str, tuple[str, ...]] | None = None, *,
                 earlier: "Refinements | None" = None, record: "Refinements | None" = None) -> dict[str, str]:
    """Digest of every named type, each computed once, recursive components included; with `reachable_from`
    (type keys), of the types those reach only (a digest depends on nothing else), which is what comparing
    roots needs. `referred`, when the caller has it (see `scan_types`), gives the keys each type refers to.

    Two versions of one graph that are compared mostly agree: with `record`, the refinement of each recursive
    component is written down there, and with `earlier` (what `record` got from computing the other version),
    a member whose structure is the same keeps that version's digest of each round until a change reaches it
    (see Refinements). The digests are the same either way."""
    if reachable_from is not None:
        types, referred = _reachable(types, reachable_from, referred)
    elif referred is None:
        referred = scan_types(types)[0]
    # A type that is only a reference (an alias) is its target: `$ref` and inline hash alike, also when the
    # target is recursive (hashing the alias as one more member would give it a digest of its own).
    # (`canonical.get(key, key)` is a key's canonical key: the table holds aliases only)
    canonical = alias_targets(types)
    # The component search runs on numbers (a canonical key's position; an alias has its target's), its tables
    # lists, built here straight from `referred`: which order it visits types and references in makes no
    # difference to the components, and a component's digests need only those of the components it refers to.
    keys = [key for key in types if canonical.get(key, key) == key]
    number = {key: position for position, key in enumerate(keys)}
    successors = [[*{position for target in refers_to(referred, types, key)
                     if (position := number.get(canonical.get(target, target))) is not None}] for key in keys]
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

    for found in _search(successors, len(keys)):
        if len(found) == 1 and found[0] not in successors[found[0]]:
            key = keys[found[0]]
            digests[key] = digest_of(types[key].node)
        else:
            component = sorted([keys[position] for position in found])
            targets = None if earlier is None else {key: [keys[position] for position in successors[number[key]]]
                                                    for key in component}
            digests.update(_component_digests(component, types, settled, canonical, memo, targets, earlier, record))
    # `digest_of` calls itself: dropping it breaks that cycle, so the memo is freed on return. (Compiled, the
    # functions made here share one frame of their variables, which holds each of them: both are dropped.)
    digest_of = settled = None  # type: ignore[assignment]
    return {key: digests[canonical.get(key, key)] for key in sorted(types)}


class _Memo:
    """Digests that hold for the whole computation: of node objects by identity (the nodes stay alive in the
    graph being hashed, so an id is not reused meanwhile) and of form texts.

    Readers share one node object wherever a schema without subschemas recurs, and large sources repeat
    small structures (a list of strings, a map of strings) thousands of times as objects of their own:
    each object is written once and each distinct text hashed once. Long texts (objects with many
    properties) rarely repeat and would only hold memory, so only short ones are kept."""

    __slots__ = ("prefix", "by_id", "by_text", "placed")
    SHORT = 256

    def __init__(self, domain: str):
        self.prefix = domain + "\n"
        self.by_id: dict[int, str] = {}
        self.by_text: dict[str, str] = {}
        # The texts of a union or intersection with one entry that changes, for each place among the others (see
        # _sorted_plan), by what they are made of: a large component holds thousands of `member or null`.
        self.placed: dict[tuple, tuple[list[bytes], list[bytes]]] = {}

    def digest(self, text: str) -> str:
        if len(text) > self.SHORT:
            return DIGEST_PREFIX + hashlib.sha256((self.prefix + text).encode("utf-8")).hexdigest()
        known = self.by_text.get(text)
        if known is None:
            known = self.by_text[text] = DIGEST_PREFIX + hashlib.sha256((self.prefix + text).encode("utf-8")).hexdigest()
        return known


def scan_types(types: Mapping[str, NamedType]) -> tuple[dict[str, tuple[str, ...]], bool]:
    """In one walk over every node: the keys of the named types each type refers to directly (each once), and
    whether any union carries a preservation policy or a qualified alternative (what makes a graph inventory
    format 2).

    Aliases (types that are only a reference) are left out of the first: each refers to its node's target alone,
    which `refers_to` gives. The table lives as long as the graph is compared, and a tuple and an entry for each
    alias of a chain of 10,000 came to a sixth of comparing two versions of it."""
    referred: dict[str, tuple[str, ...]] = {}
    policy = False
    for key, named in types.items():
        node = named.node
        if node.__class__ is Ref:
            continue
        found, bearing, _ = _scan(node)
        referred[key] = found
        policy = policy or bearing
    return referred, policy


def refers_to(referred: Mapping[str, tuple[str, ...]], types: Mapping[str, NamedType], key: str) -> tuple[str, ...]:
    """The keys type `key` refers to directly, from a table of `scan_types` (which leaves aliases out)."""
    found = referred.get(key)
    if found is not None:
        return found
    node = types[key].node
    return (node.target,) if node.__class__ is Ref else _scan(node)[0]


def _scan(node: Node) -> tuple[tuple[str, ...], bool, int]:
    """The keys `node` refers to (each once), whether it carries a preservation policy, and how many nodes it
    holds.

    The keys are kept as a tuple: the graph keeps them for as long as it is compared, one entry for each of its
    types, and a set of one key takes 216 bytes where a tuple of one takes 48. A chain of 10,000 aliases compared
    with another held 4.3 MB of sets, a third of the comparison's peak."""
    found: set[str] = set()
    policy = False
    count = 0
    stack = [node]
    pop, push, extend = stack.pop, stack.append, stack.extend
    while stack:
        current = pop()
        count += 1
        kind = current.__class__
        if kind in _LEAVES:  # (half the nodes of a large source)
            continue
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
    return tuple(found) if found else (), policy, count


def count_nodes(node: Node) -> int:
    """How many nodes `node` holds, itself included, without following references (a node reached along two
    routes inside it counted at each)."""
    return _scan(node)[2]


def _reachable(types: Mapping[str, NamedType], starts: Iterable[str], known: Mapping[str, tuple[str, ...]] | None = None
               ) -> tuple[dict[str, NamedType], dict[str, tuple[str, ...]]]:
    """The types `starts` reach, and the keys each of them refers to (from `known` where it has them), aliases left
    out as `scan_types` leaves them out."""
    found = {key: types[key] for key in starts if key in types}
    referred: dict[str, tuple[str, ...]] = {}
    stack = list(found)
    while stack:
        key = stack.pop()
        node = found[key].node
        if node.__class__ is Ref:
            targets: tuple[str, ...] = (node.target,)
        else:
            targets = referred[key] = known[key] if known is not None else _scan(node)[0]
        for target in targets:
            if target in types and target not in found:
                found[target] = types[target]
                stack.append(target)
    return found, referred


def alias_targets(types: Mapping[str, NamedType]) -> dict[str, str]:
    """The type each alias (a type that is only a reference) stands for: the end of its chain of references, the
    first type on it that is more than a reference to another type here. Each chain is followed once, so a chain
    of n aliases costs n steps in all.

    A loop of bare references (adapters reject these) is hashed as it stands: each alias on the loop stands for
    itself, and an alias whose chain runs into the loop stands for the loop's first alias it reaches."""
    targets: dict[str, str] = {}
    for start, named in types.items():
        if named.node.__class__ is not Ref or start in targets:
            continue
        # While a chain is followed, its aliases hold its start in the table (no alias followed before holds it:
        # the start was in none of their chains), so meeting one of them again closes a loop; then they hold its
        # end. One table, rather than a list and a table of the chain besides it (a chain of 10,000 aliases).
        key = start
        while True:
            end = targets.get(key)
            if end == start:  # a loop, closed at `key`: each alias on it stands for itself
                looped = key
                while True:
                    targets[looped] = looped
                    looped = types[looped].node.target
                    if looped == key:
                        break
                end = key
                break
            if end is not None:  # a chain followed before
                break
            node = types[key].node
            if node.__class__ is not Ref or node.target not in types:
                end = key
                break
            targets[key] = start
            key = node.target
        key = start
        while targets.get(key) == start and key != end:
            targets[key] = end
            key = types[key].node.target
        if start not in targets:  # a reference to no type here
            targets[start] = start
    return targets


def _component_digests(component: list[str], types: Mapping[str, NamedType], settled: Callable[[str], str],
                       canonical: Mapping[str, str], memo: _Memo, targets: Mapping[str, list[str]] | None,
                       earlier: "Refinements | None", record: "Refinements | None") -> dict[str, str]:
    # Round k gives each member the digest of its depth-k unfolding (members referring to each other by a
    # placeholder in round 0); the rounds stop once the partition into equal digests stops growing, on a partition
    # whose classes hold members of equal structure (see _quotient_texts).
    # (Inside the rounds digests are ASCII bytes: see _Rounds.)
    if earlier is not None and not earlier.knows(component, memo.prefix):
        # No member has an earlier version to reuse (another source, a version that was not recursive here, or
        # whose types the roots did not reach): every round would hash everything anyway, and the shapes and
        # links that choosing needs cost a fifth of computing the component.
        earlier = None
    rounds = _Rounds(memo, canonical, component, settled, shaped=earlier is not None or record is not None,
                     linked=earlier is not None)
    tops = [slot if slot.__class__ is int else slot.encode("ascii")
            for slot in [rounds.slot(types[key].node) for key in component]]
    shapes = None if rounds.shapes is None else [rounds.shapes[top] if top.__class__ is int else top for top in tops]
    reuse = None if earlier is None else _Reuse(earlier, component, shapes, targets, memo.prefix)
    history: list[list[bytes]] = []  # each round's digests, when recorded
    current = [_RECURSION_PLACEHOLDER.encode("ascii")] * len(component)
    classes = 1
    split = False  # whether the partition is found by the split history (see _split_history)
    exact: list = []  # the members' classes by the split history, once a class of more than one is to be checked
    for round_ in itertools.count():
        # (a component the rounds have not settled by _PROBED_ROUNDS is asked whether the number of its classes would
        # stop growing before the limit, without which the rounds never stop: rounds that would end in its split
        # history would only tell that, at the cost of hashing every member)
        if round_ == _HASHED_ROUNDS or (round_ == _PROBED_ROUNDS and reuse is None and len(component) >= _HASHED_ROUNDS
                                        and rounds.settling_round(tops, _HASHED_ROUNDS) == _HASHED_ROUNDS):
            # (the rounds recorded are dropped first: the other version of a component this long is hashed anew, and
            # its recorded rounds, the component's size each, would only add to what refining holds)
            split, history, shapes, reuse = True, [], None, None
            current, quotient = _split_history(rounds, tops)
            break
        changed = None if reuse is None else reuse.changed(round_)
        following = (rounds.first(tops, current) if round_ == 0 else rounds.next(tops, current)) if changed is None \
            else rounds.next_some(tops, current, changed, reuse.digests(round_))
        if record is not None and round_ < _RECORDED_ROUNDS:
            history.append(following)
        count = len(set(following))
        current = following
        if count == classes:
            # The number of classes no longer grows, but a round can merge two classes while it splits another (a
            # union holds a member's digest of the round before beside an inline node's of its own, and the two
            # can meet one round apart): the partition stops only where its classes hold members of equal structure.
            texts = _quotient_texts(component, types, rounds, tops, current, reuse, round_, exact)
            if texts is not None:
                break
        classes = count
    # The stable partition's class names (depth-k unfoldings) only tell the members of this component apart:
    # two components may agree to depth k and differ deeper. The digest therefore covers the whole quotient
    # graph, each class with its own structure and the classes it refers to, so any change anywhere in the
    # cycle changes every member's digest, while names and declaration order still play no part.
    # Members of one class have equal structure in terms of classes (the partition is stable: _quotient_texts
    # checked it), so one member per class gives the quotient, which is serialized once for the whole component.
    # (Refined by its split history, the component has its quotient already: every class, inline ones too.)
    if not split:
        if record is not None:
            # The quotient's texts are reused only by a version whose refinement ends in the same round, which a
            # history cut short cannot tell: then none are kept.
            record.add(component, _Refined(memo.prefix, shapes, history, texts if len(history) == round_ + 1 else {}))
        quotient = sorted((current[position], text) for position, text in texts.items())
    rounds.close()
    rounds = None
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
    prefix.update(b'],"k":"recursive-split","self":' if split else b'],"k":"recursive","self":')
    quotient.clear()
    by_class = {}
    for name in set(current):
        hasher = prefix.copy()
        hasher.update(b'"' + name + b'"}')
        by_class[name] = DIGEST_PREFIX + hasher.hexdigest()
    return {key: by_class[current[position]] for position, key in enumerate(component)}


def _quotient_texts(component: list[str], types: Mapping[str, NamedType], rounds: "_Rounds", tops: list,
                    current: list[bytes], reuse: "_Reuse | None", round_: int, exact: list) -> dict[int, bytes] | None:
    """The quotient's text of each class (by the position of its first member), in terms of the digests `current`
    of round `round_`: what the round after would hash for the member. None when two members of one class differ:
    the partition is not the one to stop on yet.

    Two members of one class must have equal texts in the round after, else a quotient written from one member per
    class would depend on which member stands for it (on the types' names). And they must have equal structure: texts
    that agree are not enough, since a class's name, a member's digest of one round, can be the digest of an inline
    node of the round after (an inline copy one reference closer), and two members that read the one and the other
    agree that far only. They are checked against the split history's classes (`exact`, computed the first time a
    component needs them, and kept in it for the later rounds), which are exact: nodes of equal structure,
    references seen through.

    The quotient needs the first member of each class; besides those, only the other members of classes of more than
    one are written, in the same pass (a round's texts, unhashed), and only those need the split history: most
    classes of a component hold one member."""
    first: dict[bytes, int] = {}
    others: list[int] = []
    for position, name in enumerate(current):
        if first.setdefault(name, position) != position:
            others.append(position)
    known = {} if reuse is None else reuse.texts(round_, first.values())
    size = rounds.size
    wanted = {tops[position]: b"" for position in (*first.values(), *others) if tops[position].__class__ is int
              and tops[position] >= size and position not in known}
    rounds.texts(current, wanted, rounds.needed(wanted) if known else None)  # in terms of the final digests

    texts = {position: known[position] if position in known else wanted[tops[position]]
             if tops[position] in wanted else _top_text(types[component[position]].node, rounds, current)
             .encode("utf-8") for position in (*first.values(), *others)}
    wanted.clear()
    for position in others:
        if texts.pop(position) != texts[first[current[position]]]:
            return None
    if others:
        if not exact:
            exact.append(_split_history(rounds, tops)[0])
        structure = exact[0]
        for position in others:
            if structure[position] != structure[first[current[position]]]:
                return None
    return texts


# Rounds hashed before a component whose partition is not settled yet (still growing, or not yet one of equal
# structures: see _quotient_texts) is refined by its split history instead (see _split_history). Round k tells
# apart members that differ within k references of themselves; a partition still growing after this many rounds
# is a chain of members alike but for their distance to where they differ (a ring of equal types, one of them
# changed), which hashing every member once per round would take the square of the ring to tell apart. No
# component a schema is written with needs this many rounds: their digests are those of the rounds.
_HASHED_ROUNDS = 32
# Rounds hashed before a component still growing is probed (see _Rounds.settling_round): the components schemas are
# written with settle in the first few, and are never probed.
_PROBED_ROUNDS = 3


def _split_history(rounds: "_Rounds", tops: list) -> tuple[list[bytes], list[tuple[bytes, bytes]]]:
    """The members' class names of a component whose refinement needs more than _HASHED_ROUNDS rounds, and its
    quotient: every class of its nodes, inline ones too, by name, with its text in terms of class names (sorted).
    The partition is the coarsest one in which equal nodes have equal structure in terms of classes (a reference
    and an inline copy of what it names are equal; the rounds, which reach a member one reference later than an
    inline copy of it, may keep such two apart). It is found by refining with numbers, where each round only looks
    again at the nodes that read a node whose class number changed, by what changed among their children, and a
    class that splits keeps its number for its largest part (so a node changes number only into a part at most half
    its class: O((n + m) log n) work in all for n nodes and m references between them, where hashing every member in
    every round would take the square of a ring's length). Naming a part writes one of its nodes whole: a class of
    k nodes splits at most k - 1 times, so that is linear too.

    Nodes are the compiled plans (see _Rounds); a member is its top plan. Class names do not depend on the numbers:
    each class starts named by the digest of its constant part (its kind and constants), and each part of a class
    that splits is named by the digest of the class's name and of the part's text with every varying child
    written as its class's name, as the round before the split named them. Which classes split in which round, and
    into what, depends on the structure alone, so the names do too; two classes are never named alike (they split
    apart at some round, where their texts differed). Equal nodes have equal texts in terms of class names, so the
    quotient does not depend on which node stands for its class."""
    size, plans = rounds.size, rounds.plans
    prefix = _DIGEST_PREFIX_BYTES
    sha256 = hashlib.sha256

    def resolved(slot) -> int | bytes:
        """A slot as a node: a plan's position among the plans, or a constant digest (bytes)."""
        seen = 0
        while slot.__class__ is int and slot < size:  # a member: its top (a bare reference: the one it names)
            slot = tops[slot]
            seen += 1
            if seen > size:
                return _RECURSION_PLACEHOLDER.encode("ascii")  # (a loop of bare references: no structure)
        return slot - size if slot.__class__ is int else slot

    children: list[list] = []  # each plan's children, resolved, in the order its text holds them
    first_names: dict[bytes, int] = {}  # constant part -> first class
    block: list[int] = []  # each plan's class number
    for plan in plans:
        constant = _constant_text(_constant_part(plan))
        children.append([resolved(slot) for slot in _slots(plan)])
        number = first_names.get(constant)
        if number is None:
            number = first_names[constant] = len(first_names)
        block.append(number)
    names = [prefix + hexlify(sha256(b"govern/split\n" + constant).digest()) for constant in first_names]
    members_of: list[set[int]] = [set() for _ in names]
    removed = [0 for _ in names]  # how many nodes each class's set has lost since it was made
    for position, number in enumerate(block):
        members_of[number].add(position)
    # Each plan's readers, each with the place the plan holds among the reader's children (see _places).
    readers: list[list[tuple[int, int]]] = [[] for _ in plans]
    for position, found in enumerate(children):
        for child, place in zip(found, _places(plans[position], len(found))):
            if child.__class__ is int:
                readers[child].append((position, place))
    constants: dict[bytes, int] = {}  # a constant child's number: negative, never a class's

    def value(child) -> int:
        if child.__class__ is int:
            return block[child]
        number = constants.get(child)
        if number is None:
            number = constants[child] = -1 - len(constants)
        return number

    def signature(position: int) -> tuple:
        plan = plans[position]
        values = [value(child) for child in children[position]]
        if plan[0] == _TEMPLATE:
            return tuple(values)
        labels = _labels(plan)
        if labels is not None:  # children sort by their labels, then by themselves
            return tuple(sorted(zip(labels, values)))
        return tuple(sorted(values))  # a pair, or one entry

    as_names = _ClassNames(resolved, names, block)
    text_of = rounds._text
    # The first round looks at every plan, by its whole signature. Later rounds look only at the readers of the plans
    # that changed number in the round before, each by what changed among its children: the places they hold there,
    # with their new numbers (`moved`). That tells apart exactly what whole signatures would: the plans of a class had
    # equal signatures before those changes, a new number is one no child had before, and the number it replaced is
    # the one of the class it split from; so two plans of a class differ afterwards if, and only if, what moved among
    # their children differs. A look then costs what moved, not the reader's width: a union of thousands of members
    # is not written whole again each time one of them changes number. A plan alone in its class is not looked at.
    moved: dict[int, list[tuple[int, int]]] | None = None
    while True:
        by_class: dict[int, dict[tuple, list[int]]] = {}
        if moved is None:
            for position in range(len(plans)):
                by_class.setdefault(block[position], {}).setdefault(signature(position), []).append(position)
        else:
            for position, changes in moved.items():
                changes.sort()
                by_class.setdefault(block[position], {}).setdefault(tuple(changes), []).append(position)
        splits = [(number, groups) for number, groups in by_class.items()
                  if len(groups) > 1 or sum(map(len, groups.values())) < len(members_of[number])]
        if not splits:
            break
        # Every part is named from the names of the round before; then the parts are given their numbers and names.
        # (Numbers, and so the order nodes are looked at in, never enter a name.)
        split_parts: list[tuple[int, list, list[bytes]]] = []
        for number, groups in sorted(splits):
            whole = members_of[number]
            parts: list = list(groups.values())
            for part in parts:
                whole.difference_update(part)
            removed[number] += sum(map(len, parts))
            if removed[number] > len(whole):
                # (a set keeps the slots of what it lost: rebuilt once it lost more than it holds, so that taking a
                # node of it for its name stays cheap, at a cost of one look per node lost)
                whole = members_of[number] = set(whole)
                removed[number] = 0
            if whole:
                parts.append(whole)  # the plans whose children kept their numbers
            old_name = names[number]
            part_names = []
            for part in parts:
                kind, head, rest = plans[next(iter(part))]
                part_names.append(prefix + hexlify(sha256(old_name + b"\n" + text_of(kind, head, rest, as_names))
                                                   .digest()))
            split_parts.append((number, parts, part_names))
        changed: list[int] = []
        for number, parts, part_names in split_parts:
            largest = max(range(len(parts)), key=lambda index: len(parts[index]))
            for index, part in enumerate(parts):
                part_set = part if part.__class__ is set else set(part)
                if index == largest:
                    if part_set is not members_of[number]:
                        removed[number] = 0
                    members_of[number] = part_set
                    names[number] = part_names[index]
                    continue
                new_number = len(members_of)
                members_of.append(part_set)
                removed.append(0)
                names.append(part_names[index])
                for position in part_set:
                    block[position] = new_number
                changed.extend(part_set)
        moved = {}  # (in any order: see above)
        for position in changed:
            number = block[position]
            for reader, place in readers[position]:
                if len(members_of[block[reader]]) > 1:
                    changes = moved.get(reader)
                    if changes is None:
                        moved[reader] = [(place, number)]
                    else:
                        changes.append((place, number))
    start = len(rounds.prefix)
    quotient = []
    for number, nodes in enumerate(members_of):
        if nodes:
            kind, head, rest = plans[next(iter(nodes))]
            quotient.append((names[number], text_of(kind, head, rest, as_names)[start:]))
    quotient.sort()
    members = [names[block[child]] if (child := resolved(top)).__class__ is int else child for top in tops]
    # (Compiled, the functions made here share one frame of their variables, which holds each of them, and so does
    # `as_names`: dropping them breaks that cycle, so what refining held is freed on return, not at the collector's
    # next full run.)
    resolved = value = signature = as_names = None  # type: ignore[assignment]
    return members, quotient


def _slots(plan: tuple):
    """The slots a plan reads, in the order of `_children` (a template's: those its item getter takes)."""
    return plan[2].__reduce__()[1] if plan[0] == _TEMPLATE else _children(plan)


def _constant_part(plan: tuple) -> tuple:
    """What a plan's text holds whatever its varying children are: its kind and its constants (a template, the
    entries written once and the constant lead and suffix of each varying entry, an alternative's attribution and
    tags), as a tuple of constants. Two plans whose texts are equal, in one round or in two, have the same constant
    part (a varying child's digest is never a constant one: it is that of an unfolding ended by the placeholder), and
    two plans with the same constant part have equal texts wherever their children's digests are equal: as the text
    lists them, or, where it sorts them, as a multiset of the labels and digests it sorts."""
    kind, head, rest = plan
    if kind == _TEMPLATE or kind == _PAIR:
        return kind, head
    if kind == _ONE_ENTRY:
        return kind, tuple(head[0]), tuple(head[1]), rest[1], rest[2]
    if kind == _SORTED_ENTRIES:
        return kind, head[0], tuple(head[1]), head[2], tuple(sorted((lead, suffix) for _, lead, suffix in rest))
    return kind, rest, tuple(sorted((slot if slot.__class__ is str else "", slot.__class__ is int,  # alternatives
                                     alternative.qualified, alternative.tags) for slot, alternative in head))


def _constant_text(constant: tuple) -> bytes:
    """A constant part as the split history names its first classes by: as Python writes it, the sorted labels of a
    sorted plan as a list."""
    if constant[0] == _SORTED_ENTRIES or constant[0] == _SORTED_ALTERNATIVES:
        constant = (*constant[:-1], list(constant[-1]))
    return repr(constant).encode("utf-8")


def _places(plan: tuple, count: int) -> list[int]:
    """For each of the `count` children of a plan (in the order of `_children`, or of a template's slots), its
    place: what stands beside it in the plan's text whatever it is. A template's child: its position. A child of a
    sorted plan: the rank of its constant lead and suffix (an entry's) or of its alternative's attribution and tags,
    among the plan's, since such children are sorted by those and then by themselves; a child of a pair, or the one
    varying entry: none (0). Plans of one class have the same places, however their children stand in their
    plans."""
    if plan[0] == _TEMPLATE:
        return list(range(count))
    labels = _labels(plan)
    if labels is None:  # a pair, or one entry
        return [0] * count
    rank = {label: place for place, label in enumerate(sorted(set(labels)))}
    return [rank[label] for label in labels]


def _labels(plan: tuple) -> list | None:
    """What a sorted plan's text sorts its varying children by before themselves, for each of them (in the order of
    `_children`): an entry's constant lead and suffix, or an alternative's attribution and tags. None for a template,
    a pair or the one varying entry, whose children are not labelled."""
    kind, head, rest = plan
    if kind == _SORTED_ENTRIES:
        return [(lead, suffix) for _, lead, suffix in rest]
    if kind == _SORTED_ALTERNATIVES:
        return [(alternative.qualified, alternative.tags) for slot, alternative in head if slot.__class__ is int]
    return None


class _ClassNames:
    """A plan's varying children as their classes' names (see _split_history), read as `_Rounds._text` reads a
    round's values."""

    __slots__ = ("resolved", "names", "block")

    def __init__(self, resolved: Callable, names: list[bytes], block: list[int]):
        self.resolved, self.names, self.block = resolved, names, block

    def __getitem__(self, slot):
        child = self.resolved(slot)
        return self.names[self.block[child]] if child.__class__ is int else child


# The rounds of a component recorded for the other version (see Refinements): a member's digest in each. The rounds
# a component needs can approach its size (a ring in which one member differs is told apart one reference per
# round), so recording them all would hold the square of the component; past this many, the other version hashes
# every member again (a round not recorded counts as one in which every member may differ), which is exact.
_RECORDED_ROUNDS = 8


class Refinements:
    """What computing the digests of one version of a graph found in its recursive components, for computing
    those of another version (the two sides of a comparison), which mostly agree. Held by the caller for the
    one comparison, nothing more.

    A member's digest in round k depends only on its shape (its text with its members' places left open; see
    _Rounds) and on the digests in round k - 1 of the members it refers to. So when a member has the same key
    and shape in both versions, it has the same digest in round k wherever no member it refers to changed in
    round k - 1: what changes is only where a changed shape is within k references, and only that is hashed
    again. Likewise for the texts of the quotient. Every digest is the one the version alone would give."""

    __slots__ = ("members",)

    def __init__(self) -> None:
        self.members: dict[str, tuple[_Refined, int]] = {}  # member key -> its component's record, its position

    def add(self, component: list[str], refined: "_Refined") -> None:
        for position, key in enumerate(component):
            self.members[key] = (refined, position)

    def knows(self, component: list[str], prefix: str) -> bool:
        """Whether any member of `component` has an earlier version here, in the same domain (`prefix`)."""
        members = self.members
        for key in component:
            found = members.get(key)
            if found is not None and found[0].prefix == prefix:
                return True
        return False


class _Refined:
    """One component's refinement: by position, each member's shape, its digest in every round, and the text of
    each representative in the quotient (in terms of the last round's digests)."""

    __slots__ = ("prefix", "shapes", "rounds", "texts")

    def __init__(self, prefix: str, shapes: list, rounds: list[list[bytes]], texts: dict[int, bytes]):
        self.prefix, self.shapes, self.rounds, self.texts = prefix, shapes, rounds, texts


class _Reuse:
    """A component lined up with the earlier version of its members (see Refinements): which members may
    differ in each round, and the earlier digests of the others."""

    def __init__(self, earlier: Refinements, component: list[str], shapes: list, targets: Mapping[str, list[str]],
                 prefix: str):
        positions = {key: position for position, key in enumerate(component)}
        self.referrers: list[list[int]] = [[] for _ in component]
        for position, key in enumerate(component):
            for target in targets[key]:  # (the members and other types each member refers to)
                referred = positions.get(target)
                if referred is not None:
                    self.referrers[referred].append(position)
        # Members whose shape is new, and the others grouped by the earlier component they come from.
        self.reshaped: set[int] = set()
        groups: dict[int, tuple[_Refined, list[tuple[int, int]]]] = {}
        for position, key in enumerate(component):
            found = earlier.members.get(key)
            if found is None or found[0].prefix != prefix or found[0].shapes[found[1]] != shapes[position]:
                self.reshaped.add(position)
            else:
                groups.setdefault(id(found[0]), (found[0], []))[1].append((position, found[1]))
        self.groups = list(groups.values())
        self.size = len(component)
        self.differing: set[int] | None = None  # the members that may differ in the round last asked about

    def changed(self, round_: int) -> set[int] | None:
        """The members that may differ from the earlier version in this round (rounds are asked in order,
        from 0), or None when that is most of them (then hashing all costs less than choosing)."""
        differing = self._spread()
        for refined, pairs in self.groups:
            if round_ >= len(refined.rounds):  # that version's refinement had stopped before this round
                differing.update(position for position, _ in pairs)
        self.differing = differing
        return None if 2 * len(differing) > self.size else differing

    def _spread(self) -> set[int]:
        """The members whose shape is new, and those that refer to a member that differed in the round before."""
        differing = set(self.reshaped)
        if self.differing is not None:
            referrers = self.referrers
            for position in self.differing:
                differing.update(referrers[position])
        return differing

    def digests(self, round_: int) -> list:
        """Each member's digest in this round of the earlier version (None where it has none)."""
        found: list = [None] * self.size
        for refined, pairs in self.groups:
            if round_ < len(refined.rounds):
                digests = refined.rounds[round_]
                for position, earlier in pairs:
                    found[position] = digests[earlier]
        return found

    def texts(self, final: int, positions: Iterable[int]) -> dict[int, bytes]:
        """The quotient's texts of those members at `positions` that are the same as in the earlier version: in
        terms of the digests of round `final`, the last, which must be the earlier version's last too."""
        wanted = set(positions) - self._spread()
        found: dict[int, bytes] = {}
        for refined, pairs in self.groups:
            if len(refined.rounds) == final + 1:
                for position, earlier in pairs:
                    if position in wanted and earlier in refined.texts:
                        found[position] = refined.texts[earlier]
        return found


def _top_text(node: Node, rounds: "_Rounds", current: list[bytes]) -> str:
    """The form text of a member whose node is no plan of the rounds (a member that is only a reference, in a
    loop of bare references), in terms of the final digests."""
    def final(child: Node) -> str:
        slot = rounds.slot(child)
        return current[slot].decode("ascii") if slot.__class__ is int else slot

    if node.__class__ is Ref:
        return simple_canonical_json({"k": "ref", "to": final(node)})
    return form_text(node, final)


_TEMPLATE, _ONE_ENTRY, _PAIR, _SORTED_ENTRIES, _SORTED_ALTERNATIVES = 0, 1, 2, 3, 4  # plans
_PROBE_ONE, _PROBE_LISTED, _PROBE_SORTED, _PROBE_LABELLED = 0, 1, 2, 3  # how a probe key is made (probe_rounds)
# The probe's table of keys holds at most this many for each plan and member (about what a round of the hashed rounds
# holds), or _PROBE_TABLE_LEAST: a ring numbers a few keys a round, but a component whose plans are told apart round
# after round numbers each of them anew in every round.
_PROBE_TABLE_PER_PLAN, _PROBE_TABLE_LEAST = 2, 4096
_MARK = "\x00"  # never in a form's text: the string writer escapes control characters
_LEAVES = frozenset({Primitive, Literal, Enum, Opaque, Never})  # kinds without children
_DIGEST_PREFIX_BYTES = DIGEST_PREFIX.encode("ascii")


class _Rounds:
    """The refinement rounds of one component, compiled once.

    Every round rehashes each inline node that reaches a member. Such a node's form text is the same in
    every round except for the digests of its children that reach a member, so it is written once with a
    marker in each of their places (the writers ask for children in text order, so the markers need no
    numbers) and turned into a format string: a round then only fills in the children's current digests and
    hashes the result, children first. Unions and intersections order their children by digest: the entries
    of children that reach no member are written once, and a round places the others among them.

    A slot is a digest that stays the same in every round (a string), or a position in a round's values:
    the members' digests of the previous round first (in component order), then the plans' digests of this
    round, in plan order. A round's values, its format strings and the texts it hashes are UTF-8 bytes:
    formatting bytes and hashing them as they are costs less than formatting text and encoding it, and
    digests are ASCII, whose bytes sort as their characters do.
    """

    def __init__(self, memo: _Memo, canonical: Mapping[str, str], component: list[str],
                 settled: Callable[[str], str], shaped: bool = False, linked: bool = False):
        self.memo = memo  # digests that hold in every round (subtrees that reach no member), shared with the caller
        self.size = len(component)
        self.prefix = memo.prefix.encode("utf-8")
        self.plans: list[tuple] = []  # children before parents
        self.read: set[int] = set()  # the plans some other plan reads
        # With `shaped`, by slot: each member's key, then each plan's shape (what makes its text in every round:
        # its constant parts and its varying children's shapes, members by key), so that a member can be told
        # the same as in another version of the component (see Refinements). With `linked`, each plan's plan
        # children, so that a round can hash only what some members read.
        self.shapes: list | None = list(component) if shaped else None
        self.below: list[list[int]] | None = [] if linked else None
        self.slot, self.close = self._compiler(canonical, {key: position for position, key in enumerate(component)},
                                               settled)

    def _compiler(self, canonical: Mapping[str, str], members: Mapping[str, int],
                  settled: Callable[[str], str]) -> tuple[Callable[[Node], str | int], Callable[[], None]]:
        """`slot(node)`, compiling the node and what it holds the first time it is asked for, and `close()`.

        The compiler's functions are made once per component (not per node) and refer to the tables they
        fill, not to this object; `close` breaks the cycle they form."""
        memo, read, plans, shapes, below = self.memo, self.read, self.plans, self.shapes, self.below
        constant, hashed = memo.by_id, memo.digest
        size, writers = self.size, _FORM_WRITERS
        index: dict[int, int] = {}  # id(node) -> its slot
        templates: dict[str, bytes] = {}  # short marked text -> its format string
        entries: dict[int, tuple] = {}  # the entries of properties that reach no member (see _object_form)
        escaped_prefix = self.memo.prefix.replace("%", "%%")
        writing: list[list[int]] = []  # the slots of the varying children of each node being written, innermost last

        def slot(node: Node) -> str | int:
            if node.__class__ is Ref:
                key = node.target
                key = canonical.get(key, key)
                position = members.get(key)
                return position if position is not None else settled(key)
            known = constant.get(id(node))
            if known is not None:
                return known
            position = index.get(id(node))
            return position if position is not None else compile_(node)

        def marked(child: Node) -> str:
            """A child's digest when it stays the same in every round, else a marker (its slot noted)."""
            known = constant.get(id(child))  # (most children: leaves shared throughout the graph)
            if known is not None:
                return known
            if child.__class__ is Ref:
                key = child.target
                key = canonical.get(key, key)
                position = members.get(key)
                if position is None:
                    return settled(key)
            else:
                position = index.get(id(child))
                if position is None:
                    position = compile_(child)
                    if position.__class__ is str:
                        return position
                read.add(position)
            writing[-1].append(position)
            return _MARK

        def compile_(node: Node) -> str | int:
            kind = node.__class__
            if kind in _LEAVES:
                digest = constant[id(node)] = hashed(writers[kind](node, None))
                return digest
            if kind is Union or kind is Intersection:
                plan = _sorted_plan(node, slot, memo, read, size)
                if plan.__class__ is str:
                    constant[id(node)] = plan
                    return plan
            else:
                varying: list[int] = []
                writing.append(varying)
                text = writers[kind](node, marked) if kind is not Object else _object_form(node, marked, entries)
                writing.pop()
                if not varying:
                    digest = constant[id(node)] = hashed(text)
                    return digest
                # Inline nodes of one shape (a list of members, a member or null) repeat throughout a
                # component: their marked text, and so their format string, is the same. Long texts (a
                # member's own object) rarely repeat, so they are not kept.
                short = len(text) <= _Memo.SHORT
                template = templates.get(text) if short else None
                if template is None:
                    template = (escaped_prefix + (text.replace("%", "%%") if "%" in text else text)
                                .replace(_MARK, "%s")).encode("utf-8")
                    if short:
                        templates[text] = template
                plan = (_TEMPLATE, template, itemgetter(*varying))
            position = index[id(node)] = size + len(plans)
            plans.append(plan)
            if shapes is not None:
                shapes.append(_shape(plan, shapes))
            if below is not None:
                below.append(varying if plan[0] == _TEMPLATE else _children(plan))
            return position

        def close() -> None:
            """Break the cycle of the compiler's functions (each calls the other), so the compiled component is
            freed as soon as it is dropped rather than at the collector's next full run. (Compiled, the functions
            share one frame of their variables, which holds each function another one uses: `slot` too.)"""
            nonlocal compile_, marked, slot
            compile_ = marked = slot = None  # type: ignore[assignment]
            index.clear()
            templates.clear()
            entries.clear()

        return slot, close

    def next(self, tops: list, current: list[bytes]) -> list[bytes]:
        """Every member's digest in the round after the one that gave `current` (in component order)."""
        values = current.copy()
        store = values.append
        sha256 = hashlib.sha256
        digest_prefix = _DIGEST_PREFIX_BYTES
        for kind, head, rest in self.plans:
            if kind == _TEMPLATE:
                text = head % rest(values)
            elif kind == _PAIR:
                first, second = values[rest[0]], values[rest[1]]
                text = head % ((first, second) if first <= second else (second, first))
            else:
                text = self._text(kind, head, rest, values)
            store(digest_prefix + hexlify(sha256(text).digest()))
        return [values[slot] if slot.__class__ is int else slot for slot in tops]

    def first(self, tops: list, current: list[bytes]) -> list[bytes]:
        """`next` for round 0, from the members' placeholders. With every member the same, inline nodes of one
        shape (a list of members, a member or null, an alternative object that only refers to a member) have
        one text in this round, so each distinct short text is hashed once (at 10,000 recursive types: 4,624
        texts for the 17,714 plans besides the members' own objects). Later rounds tell the members apart, and
        these texts with them, so they are not looked up there."""
        values = current.copy()
        store = values.append
        sha256 = hashlib.sha256
        digest_prefix = _DIGEST_PREFIX_BYTES
        short = _Memo.SHORT
        seen: dict[bytes, bytes] = {}
        for kind, head, rest in self.plans:
            if kind == _TEMPLATE:
                text = head % rest(values)
            elif kind == _PAIR:
                first, second = values[rest[0]], values[rest[1]]
                text = head % ((first, second) if first <= second else (second, first))
            else:
                text = self._text(kind, head, rest, values)
            if len(text) > short:  # (the members' own objects: each has a text of its own)
                store(digest_prefix + hexlify(sha256(text).digest()))
                continue
            digest = seen.get(text)
            if digest is None:
                digest = seen[text] = digest_prefix + hexlify(sha256(text).digest())
            store(digest)
        return [values[slot] if slot.__class__ is int else slot for slot in tops]

    def next_some(self, tops: list, current: list[bytes], changed: set[int], earlier: list) -> list[bytes]:
        """`next` where only the members at the positions `changed` can differ from `earlier` (their digests in
        the same round of another version of the component): those are hashed, with the plans they read."""
        values = current + [None] * len(self.plans)
        plans, size = self.plans, self.size
        sha256 = hashlib.sha256
        digest_prefix = _DIGEST_PREFIX_BYTES
        text_of = self._text
        for position in self.needed(tops[member] for member in changed):
            kind, head, rest = plans[position - size]
            values[position] = digest_prefix + hexlify(sha256(text_of(kind, head, rest, values)).digest())
        following = earlier.copy()
        for member in changed:
            top = tops[member]
            following[member] = values[top] if top.__class__ is int else top
        return following

    def settling_round(self, tops: list, limit: int) -> int | None:
        """The round in which the hashed rounds (`first`, then `next`, from the placeholders) would find the
        number of the members' classes no longer growing, if it is below `limit`; `limit` if they would not by
        then; None if the probe could not tell (see `probe_rounds`). Found without writing or hashing any form
        text, so that a component the rounds would not settle goes to its split history without them."""
        classes, told = 1, 0
        for told, current in enumerate(self.probe_rounds(tops, limit), 1):
            count = len(set(current))
            if count == classes:
                return told - 1
            classes = count
        return limit if told == limit else None

    def probe_rounds(self, tops: list, limit: int) -> Iterator[list]:
        """For each of the first `limit` rounds, a number for every member (in component order) that equals another
        exactly where the member's digest in that round equals the other's; fewer rounds when the table of numbers
        grows past a few times the plans (see _PROBE_TABLE_PER_PLAN: the rounds then hash them as they would).

        Each round numbers every plan by its constant part's number and its varying children's numbers, as its text
        lists them (a template, one entry), or sorted where its text sorts them (with their labels, where those
        differ): one table for all rounds, so a key met again in any round gets the number it got then. A round's key
        holds members' numbers of the round before beside plans' numbers of its own, as a round's text holds their
        digests, and a member's digest of one round can equal an inline copy's of the next. By `_constant_part`, two
        plans' texts, of one round or of two, are equal exactly when their constant parts are and their children's
        digests are, as listed or as multisets; so, by induction over the numbers in the order they are given (plans
        children first, round after round), two numbers are equal exactly when the two digests are. A round costs a
        short key and a look in the table per plan, where the rounds' own write and hash each plan's whole text. (The
        table is measured after each round, so it may pass its bound by one round's keys.)"""
        keys = self._probe_keys()
        numbered: dict[tuple, int] = {}
        bound = max(_PROBE_TABLE_PER_PLAN * (len(keys) + self.size), _PROBE_TABLE_LEAST)
        current: list = [-1] * self.size  # the placeholder (numbers count from 0)
        # (a member whose node is constant, which a component's members never are, by a number below the placeholder's)
        constants: dict[bytes, int] = {}
        for slot in tops:
            if slot.__class__ is not int and slot not in constants:
                constants[slot] = -2 - len(constants)
        for _ in range(limit):
            values = current.copy()
            store = values.append
            for way, constant, read in keys:
                if way == _PROBE_ONE:
                    key = (constant, values[read])
                elif way == _PROBE_LISTED:
                    key = (constant, read(values))
                elif way == _PROBE_SORTED:
                    key = (constant, tuple(sorted(read(values))))
                else:  # _PROBE_LABELLED
                    key = (constant, tuple(sorted([(label, values[slot]) for slot, label in read])))
                number = numbered.get(key)
                if number is None:
                    number = numbered[key] = len(numbered)
                store(number)
            if len(numbered) > bound:
                return
            current = [values[slot] if slot.__class__ is int else constants[slot] for slot in tops]
            yield current

    def _probe_keys(self) -> list[tuple]:
        """For each plan: how its key is made (see `probe_rounds`), its constant part's number, and what it reads
        (a slot, an item getter of its slots, or its slots with their labels)."""
        numbers: dict[tuple, int] = {}
        keys = []
        for plan in self.plans:
            constant = _constant_part(plan)
            number = numbers.get(constant)
            if number is None:
                number = numbers[constant] = len(numbers)
            slots = list(_slots(plan))
            if len(slots) == 1:
                keys.append((_PROBE_ONE, number, slots[0]))
                continue
            if plan[0] == _TEMPLATE:
                keys.append((_PROBE_LISTED, number, plan[2]))
                continue
            labels = _labels(plan) or [None] * len(slots)  # (a pair's entries are written alike)
            if len(set(labels)) == 1:  # (the label is then part of the constant)
                keys.append((_PROBE_SORTED, number, itemgetter(*slots)))
            else:
                keys.append((_PROBE_LABELLED, number, list(zip(slots, labels))))
        return keys

    def needed(self, slots: Iterable) -> list[int]:
        """The plans among `slots` and every plan they read, children first (needs `linked`)."""
        size, below = self.size, self.below
        found: set[int] = set()
        stack = [slot for slot in slots if slot.__class__ is int and slot >= size]
        while stack:
            position = stack.pop()
            if position >= size and position not in found:
                found.add(position)
                stack.extend(below[position - size])
        return sorted(found)

    def texts(self, current: list[bytes], wanted: dict[int, bytes], positions: list[int] | None = None) -> None:
        """The pass after the last round: the text (after the domain line) of each plan whose slot `wanted`
        holds as a key, in terms of the digests `current`; plans no other plan reads are not hashed. With
        `positions`, only the plans at those slots (children first) are written."""
        plans = self.plans
        values = current + [None] * len(plans)
        sha256 = hashlib.sha256
        digest_prefix = _DIGEST_PREFIX_BYTES
        start = len(self.prefix)
        read, size = self.read, self.size
        for position, (kind, head, rest) in (enumerate(plans, size) if positions is None else
                                             ((position, plans[position - size]) for position in positions)):
            text = head % rest(values) if kind == _TEMPLATE else self._text(kind, head, rest, values)
            if position in wanted:
                wanted[position] = text[start:]
                if position not in read:
                    continue
            values[position] = digest_prefix + hexlify(sha256(text).digest())

    def _text(self, kind: int, head, rest, values: list) -> bytes:
        """The hashed text of a plan."""
        if kind == _TEMPLATE:
            return head % rest(values)
        if kind == _ONE_ENTRY:
            fixed, texts_by_place = head
            slot, lead, suffix = rest
            entry = lead + values[slot] + suffix
            return texts_by_place[bisect_right(fixed, entry)] % entry
        if kind == _PAIR:
            first, second = values[rest[0]], values[rest[1]]
            return head % ((first, second) if first <= second else (second, first))
        if kind == _SORTED_ENTRIES:
            start, fixed, end = head
            return start + b",".join(sorted(fixed + [lead + values[slot] + suffix for slot, lead, suffix in rest])) + end
        return self.prefix + _union_text(sorted(  # _SORTED_ALTERNATIVES
            _alternative_key(values[slot].decode("ascii") if slot.__class__ is int else slot, alternative)
            for slot, alternative in head), rest).encode("utf-8")


def _shape(plan: tuple, shapes: list):
    """What makes a plan's text in every round: its constant parts, and in place of each varying child the
    child's shape (a member's is its key). Two plans of equal shape, in two versions of a component, have the
    same text in any round in which the members at the same places have the same digests."""
    kind, head, rest = plan
    if kind == _TEMPLATE:
        return kind, head, rest(shapes)
    if kind == _PAIR:
        return kind, head, shapes[rest[0]], shapes[rest[1]]
    if kind == _ONE_ENTRY:
        return kind, head, rest[1], rest[2], shapes[rest[0]]
    if kind == _SORTED_ENTRIES:
        return kind, head, tuple([(shapes[slot], lead, suffix) for slot, lead, suffix in rest])
    return object()  # tagged alternatives (rare): never taken for the same as anything


def _children(plan: tuple) -> list[int]:
    """The slots a plan other than a template reads."""
    kind, head, rest = plan
    if kind == _PAIR:
        return list(rest)
    if kind == _ONE_ENTRY:
        return [rest[0]]
    if kind == _SORTED_ENTRIES:
        return [slot for slot, _, _ in rest]
    return [slot for slot, _ in head if slot.__class__ is int]  # _SORTED_ALTERNATIVES


_PLACES_WRITTEN = 16  # constant entries beside the one varying entry for which every text is written at once


def _sorted_plan(node: Union | Intersection, slot_of: Callable[[Node], str | int], memo: _Memo, read: set[int],
                 size: int) -> str | tuple:
    """A union's or an intersection's plan (see _Rounds), or its digest when it reaches no member: its form
    orders the children by digest, so the children's slots make the plan, and its text is written only when
    they are all constant."""
    if node.__class__ is Intersection:
        slots = [slot_of(operand) for operand in node.operands]
    else:
        slots = [slot_of(alternative.node) for alternative in node.alternatives]
    if not any(slot.__class__ is int for slot in slots):
        return memo.digest(form_text(node, slot_of))
    read.update(slot for slot in slots if slot.__class__ is int and slot >= size)
    if node.__class__ is Intersection:
        # Operands `"<digest>"` sort as their digests do (digests have one length, or are the placeholder,
        # which differs from every digest before its end).
        head, tail = '{"k":"intersection","ops":[', "]}"
        entries = [(slot, '"', '"') for slot in slots]
    elif any(alternative.tags for alternative in node.alternatives):
        return _SORTED_ALTERNATIVES, list(zip(slots, node.alternatives)), _union_tail(node)
    else:
        # Entries `["<digest>",<qualified>]` sort as their keys (digest, qualified) do: digests are written
        # with characters above `"`, so two entries compare by their digests first, and then `false` sorts
        # before `true`.
        head, tail = '{"alts":[', "]" + _union_tail(node)
        entries = [(slot, '["', '",' + _BOOLEANS[alternative.qualified] + "]")
                   for slot, alternative in zip(slots, node.alternatives)]
    # The entries of children that reach no member are written once; each round writes the others and
    # places them among those.
    fixed = sorted((lead + slot + suffix).encode("utf-8") for slot, lead, suffix in entries
                   if slot.__class__ is str)
    varying = [(slot, lead.encode("ascii"), suffix.encode("ascii")) for slot, lead, suffix in entries
               if slot.__class__ is int]
    if len(varying) == 1 and len(fixed) <= _PLACES_WRITTEN:
        # One entry changes (a member or null, say): its place among the others is where it sorts in,
        # and the text for each place is written once. (Among many others, each text would hold them all,
        # the square of the union in all: a member among thousands of constant alternatives is placed
        # among them as each round writes it, as below.)
        key = (head, tail, *fixed)
        placed = memo.placed.get(key)
        if placed is None:
            head_bytes = (memo.prefix + head).encode("utf-8").replace(b"%", b"%%")
            tail_bytes = tail.encode("utf-8").replace(b"%", b"%%")
            placed = memo.placed[key] = (fixed, [head_bytes + b",".join(fixed[:place] + [b"%s"] + fixed[place:])
                                                 + tail_bytes for place in range(len(fixed) + 1)])
        return _ONE_ENTRY, placed, varying[0]
    head_bytes, tail_bytes = memo.prefix.encode("utf-8") + head.encode("utf-8"), tail.encode("utf-8")
    if len(varying) == 2 and not fixed and varying[0][1:] == varying[1][1:]:
        # Two entries change, nothing else is listed and both are written alike around their digests
        # (both operands of an intersection; two members): they are in the order of their digests.
        _, lead, suffix = varying[0]
        template = (head_bytes.replace(b"%", b"%%") + lead + b"%s" + suffix + b"," + lead + b"%s" + suffix
                    + tail_bytes.replace(b"%", b"%%"))
        return _PAIR, template, (varying[0][0], varying[1][0])
    return _SORTED_ENTRIES, (head_bytes, fixed, tail_bytes), varying


def strongly_connected_components(nodes: list[str], edges: Mapping[str, list[str]]) -> list[list[str]]:
    """Tarjan's algorithm without recursion; components come out dependencies first, each sorted.

    It runs on numbers (a node's position), whose tables are lists: a large source has tens of thousands
    of types, and looking names up in dictionaries at every step cost more than the rest of the search."""
    names = list(nodes)
    number = {name: position for position, name in enumerate(names)}
    position = 0
    while position < len(names):  # nodes reached only as successors are numbered after the given ones
        for successor in edges.get(names[position], ()):
            if successor not in number:
                number[successor] = len(names)
                names.append(successor)
        position += 1
    successors = [[number[successor] for successor in edges.get(name, ())] for name in names]
    return [sorted([names[member] for member in component]) for component in _search(successors, len(nodes))]


def _search(successors: list[list[int]], starts: int) -> list[list[int]]:
    """The components of the graph whose node `n` has the successors `successors[n]` that nodes 0 to `starts` - 1
    reach, dependencies first (Tarjan's algorithm without recursion)."""
    size = len(successors)
    index_of = [-1] * size
    lowlink = [0] * size
    on_stack = [False] * size
    stack: list[int] = []
    result: list[list[int]] = []
    counter = 0
    for start in range(starts):
        if index_of[start] >= 0:
            continue
        work = [(start, 0)]
        while work:
            node, position = work.pop()
            if position == 0:
                index_of[node] = lowlink[node] = counter
                counter += 1
                stack.append(node)
                on_stack[node] = True
            following = successors[node]
            descended = False
            while position < len(following):
                successor = following[position]
                position += 1
                if index_of[successor] < 0:
                    work.append((node, position))
                    work.append((successor, 0))
                    descended = True
                    break
                if on_stack[successor] and index_of[successor] < lowlink[node]:
                    lowlink[node] = index_of[successor]
            if descended:
                continue
            if lowlink[node] == index_of[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack[member] = False
                    component.append(member)
                    if member == node:
                        break
                result.append(component)
            if work:
                parent = work[-1][0]
                if lowlink[node] < lowlink[parent]:
                    lowlink[parent] = lowlink[node]
    return result
