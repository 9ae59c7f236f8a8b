"""The comparison walk tells equal nodes from structure instead of hashing them, with exactly the outcome
digests give.

A pair of named types in one recursive component differs wherever one type of it changed, since every
member's digest covers the whole component; most such pairs differ only in the types they refer to. The
walk then tells which children are equal from their structure (and the digests of the named types they
refer to), so it writes and hashes no form of an inline node, and still decides exactly as comparing the
nodes' digests would: on random pairs of graphs every node pair is told equal exactly when its digests
are, and the whole walk gives the same differences, in the same order, as a walk comparing digests.
"""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from govern.classify import changes
from govern.classify.changes import Side, Walker
from govern.model.graph import TypeGraph
from govern.model.nodes import (
    NEVER, OPEN, Alternative, Applicator, Array, Enum, Intersection, Literal, Map, NamedType, Object, Opaque,
    Primitive, Property, Ref, Root, Tuple, Union,
)
from govern.sources.jsonschema import load_jsonschema

PROFILE = settings.get_profile("classify")
KEYS = ("T0", "T1", "T2")


def _ring(length: int, changed_at: int | None) -> dict:
    """A cycle of object types that refer to each other plainly, through arrays, maps and nullable unions;
    each is told apart by its tag, and one may gain an optional property."""
    defs = {}
    for index in range(length):
        after = f"#/$defs/T{(index + 1) % length}"
        before = f"#/$defs/T{(index - 1) % length}"
        properties = {
            "tag": {"const": index}, "name": {"type": "string", "maxLength": 40}, "next": {"$ref": after},
            "list": {"type": "array", "items": {"$ref": before}},
            "byName": {"type": "object", "additionalProperties": {"$ref": after}},
            "maybe": {"anyOf": [{"$ref": before}, {"type": "null"}]},
        }
        if index == changed_at:
            properties["note"] = {"type": "string"}
        defs[f"T{index}"] = {"type": "object", "properties": properties, "required": ["tag", "next"]}
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "$defs": defs}


def _ring_sides(tmp_path: Path, length: int) -> list[Side]:
    sides = []
    for name, changed_at in (("old", None), ("new", length - 1)):
        path = tmp_path / f"{name}-{length}.schema.json"
        path.write_text(json.dumps(_ring(length, changed_at)), encoding="utf-8")
        sides.append(Side.of(load_jsonschema("ring", path, {"Start": ("#/$defs/T0", "record")}, tmp_path)))
    return sides


def _walk_ring(tmp_path: Path, length: int) -> tuple[int, list]:
    sides = _ring_sides(tmp_path, length)
    start = [Ref(next(iter(side.graph.roots.values())).type_key) for side in sides]
    found = list(Walker(*sides).differences(*start))
    hashed = sum(len(side._inline) for side in sides)
    return hashed, [(sides[1].graph.types[difference.place.type].name, difference.path, difference.kind)
                    for difference in found]


def test_types_that_differ_only_in_the_types_they_refer_to_are_compared_without_hashing_their_nodes(tmp_path: Path):
    small_hashed, small = _walk_ring(tmp_path, 10)
    large_hashed, large = _walk_ring(tmp_path, 60)
    assert small == [("T9", "/properties/note", "optional-property-added")]
    assert large == [("T59", "/properties/note", "optional-property-added")]
    # Every pair of the ring was compared, yet no inline node is hashed per type: only the one `null`
    # alternative a reference is told apart from, on each side.
    assert large_hashed == small_hashed <= 2


def test_a_pair_of_named_types_is_entered_without_testing_its_nodes_for_equal_digests(tmp_path: Path):
    """The walk enters a pair of named types only when their digests differ: testing their nodes for equal
    digests again would only run through each type's properties up to its first reference."""
    old, new = _ring_sides(tmp_path, 30)
    walker = Walker(old, new)
    found = list(walker.differences(*(Ref(next(iter(side.graph.roots.values())).type_key) for side in (old, new))))
    assert [(difference.place.type, difference.path) for difference in found] == [("T29", "/properties/note")]
    assert len(walker._visited) == 30  # every pair of the ring was walked
    told = {key for key in walker._equal}
    tested = {key for key in new.graph.types if (id(old.graph.types[key].node), id(new.graph.types[key].node)) in told}
    # only the root's own structure, where the walk starts (and no digest says yet whether it differs)
    assert tested == {next(iter(new.graph.roots.values())).type_key}


# --- random graphs of model nodes ---------------------------------------------------------------------

_LEAVES = st.sampled_from([
    Primitive("string"), Primitive("integer"), Primitive("integer", (("maximum", "3"),)), Primitive("null"),
    Literal('"a"'), Literal('"b"'), Enum(('"x"', '"y"')), OPEN, Opaque((("format", '"uri"'),)), NEVER,
])


def _nodes():
    refs = st.sampled_from(KEYS).map(Ref)

    def extend(inner):
        properties = st.lists(st.tuples(st.sampled_from(["a", "b", "c"]), inner, st.booleans()), max_size=3,
                              unique_by=lambda entry: entry[0])
        alternatives = st.lists(st.tuples(inner, st.booleans(), st.sampled_from([(), ('"a"',)])), min_size=1,
                                max_size=3)
        return st.one_of(
            st.builds(lambda props, additional, patterns: Object(
                tuple(Property(name, node, required) for name, node, required in sorted(props)), additional,
                tuple(sorted(patterns.items()))),
                properties, st.one_of(st.sampled_from([OPEN, NEVER]), inner),
                st.dictionaries(st.sampled_from(["^x", "^y"]), inner, max_size=1)),
            st.builds(Map, inner), st.builds(Array, inner, st.sampled_from([(), (("maxItems", "2"),)])),
            st.builds(lambda items, rest: Tuple(tuple(items), rest), st.lists(inner, min_size=1, max_size=2),
                      st.sampled_from([OPEN, NEVER])),
            st.builds(lambda entries, exclusive, policy: Union(
                tuple(Alternative(node, qualified, tags) for node, qualified, tags in entries), exclusive, policy),
                alternatives, st.booleans(), st.sampled_from([None, None, None, 1])),
            st.builds(lambda operands: Intersection(tuple(operands), tuple(range(len(operands)))),
                      st.lists(inner, min_size=1, max_size=3)),
            st.builds(lambda keyword, operand: Applicator(keyword, (operand,)), st.sampled_from(["not", "contains"]),
                      inner),
        )

    return st.recursive(st.one_of(refs, _LEAVES), extend, max_leaves=8)


@st.composite
def graph_pairs(draw) -> tuple[TypeGraph, TypeGraph]:
    """An old and a new graph over the same type names, the new one often keeping old nodes (the same
    objects, or nodes drawn again alike), so equal and unequal pairs are both frequent."""
    nodes = _nodes()
    old = {key: draw(nodes) for key in KEYS}
    new = {key: old[key] if draw(st.booleans()) else draw(nodes) for key in KEYS}
    assume(not _loops_without_structure(old) and not _loops_without_structure(new))
    return tuple(TypeGraph(source="s", types={key: NamedType(key, key, node) for key, node in types.items()},
                           roots={"s:Root": Root("s:Root", "T0", "record")})
                 for types in (old, new))


def _loops_without_structure(types: dict) -> bool:
    """Whether a type reaches itself through references, unions, intersections and applicators alone: such
    a type describes nothing, and the walk, which follows what a reference reads inline wherever the other
    side holds no reference, would unfold it without end."""
    def reaches(node, start: str, seen: set) -> bool:
        if isinstance(node, Ref):
            if node.target == start:
                return True
            if node.target in seen:
                return False
            seen.add(node.target)
            return reaches(types[node.target], start, seen)
        if isinstance(node, Union):
            return any(reaches(a.node, start, seen) for a in node.alternatives)
        if isinstance(node, (Intersection, Applicator)):
            return any(reaches(operand, start, seen) for operand in node.operands)
        return False

    return any(reaches(types[key], key, set()) for key in types)


def _subnodes(node, found: list) -> list:
    found.append(node)
    children = ()
    if isinstance(node, Object):
        children = [p.node for p in node.properties] + [n for _, n in node.pattern_properties] + [node.additional]
    elif isinstance(node, (Map,)):
        children = [node.values]
    elif isinstance(node, Array):
        children = [node.items]
    elif isinstance(node, Tuple):
        children = [*node.items, node.rest]
    elif isinstance(node, Union):
        children = [a.node for a in node.alternatives]
    elif isinstance(node, (Intersection, Applicator)):
        children = node.operands
    for child in children:
        _subnodes(child, found)
    return found


@settings(PROFILE, max_examples=60)
@given(pair=graph_pairs())
def test_nodes_are_told_equal_exactly_when_their_digests_are(pair):
    old_side, new_side = Side(pair[0], pair[0].digests), Side(pair[1], pair[1].digests)
    walker = Walker(old_side, new_side)
    old_nodes = [n for key in KEYS for n in _subnodes(pair[0].types[key].node, [])]
    new_nodes = [n for key in KEYS for n in _subnodes(pair[1].types[key].node, [])]
    same_format = pair[0].inventory_format == pair[1].inventory_format
    for old in old_nodes[:40]:
        for new in new_nodes[:40]:
            assert walker._same(old, new) == (same_format and old_side.digest(old) == new_side.digest(new)), \
                (old, new)


def test_a_type_whose_content_model_holds_itself_is_compared_to_an_end():
    """Telling which way an added property breaks compares what the old content model let through with the
    property's schema; here that is the same pair of types again, through a union on the old side. The
    question asked again while it is being answered is answered both ways, where it used to be asked without
    end."""
    def graph(types: dict) -> TypeGraph:
        return TypeGraph(source="s", types={key: NamedType(key, key, node) for key, node in types.items()},
                         roots={"s:Root": Root("s:Root", "T0", "record")})

    old = graph({"T0": Union((Alternative(Object((), Ref("T1"), (("^x", Ref("T1")),))),)), "T1": Ref("T0")})
    new = graph({"T0": Object((Property("a", Ref("T0"), False),), Ref("T0"), (("^x", Ref("T1")),)), "T1": Ref("T0")})
    found = list(Walker(Side.of(old), Side.of(new)).differences(Ref("T0"), Ref("T0")))
    assert {(difference.path, difference.kind, difference.breaks) for difference in found} == {
        ("/properties/a", "optional-property-added", (changes.OLD_DATA, changes.NEW_DATA))}


class _DigestWalker(Walker):
    """The walk as it was before equal nodes were told from structure: every pair of nodes by its digests,
    every child through `compare` one level down, alternatives paired through their digests."""

    def _same(self, old, new) -> bool:
        return self._same_format and self.old.digest(old) == self.new.digest(new)

    def _below(self, old, new, path):
        return self._next_level(self.compare(old, new, path))

    def _compare_entered(self, old, new, effect=None):
        return self._compare_nodes(old, new, "")


def _differences(walker_class, pair) -> list:
    walker = walker_class(Side.of(pair[0]), Side.of(pair[1]))
    return [(d.path, d.kind, d.args, d.breaks, d.place and d.place.type, d.place and d.place.route(d.path))
            for d in walker.differences(Ref("T0"), Ref("T0"))]


@settings(PROFILE, max_examples=60)
@given(pair=graph_pairs())
def test_the_walk_finds_what_comparing_digests_finds_in_the_same_order(pair):
    told = _differences(Walker, pair)
    few_pairs = changes._FEW_PAIRS
    changes._FEW_PAIRS = -1  # alternatives paired through their digests
    try:
        hashed = _differences(_DigestWalker, pair)
    finally:
        changes._FEW_PAIRS = few_pairs
    assert told == hashed


# --- property pairs remembered, arrays and maps of named types entered at once --------------------------

class _Forgetful(dict):
    """A table that keeps nothing: every pair of properties is looked at again."""

    def __setitem__(self, key, value) -> None:
        pass


class _UnrememberingWalker(Walker):
    """The walk without its shortcuts for objects: no pair of properties is remembered as holding nothing, and
    (with `changes._ONE_CHILD` emptied) an array or map of a named type goes through the walk of its kind."""

    def __init__(self, old, new):
        super().__init__(old, new)
        self._quiet = _Forgetful()


def _node_pool():
    """Nodes as large graphs hold them: arrays and maps of named types, with and without constraints, and
    leaves, besides whatever `_nodes` draws."""
    refs = st.sampled_from(KEYS).map(Ref)
    return st.one_of(
        refs.map(Array), refs.map(Map), refs.map(lambda ref: Array(ref, (("maxItems", "2"),))),
        refs.map(lambda ref: Map(ref, (("minProperties", "1"),))), _LEAVES, _nodes())


@st.composite
def shared_property_graph_pairs(draw) -> tuple[TypeGraph, TypeGraph]:
    """An old and a new graph whose objects draw their properties from one pool of property objects, as
    readers share a property wherever it recurs. Each property of the pool has one counterpart on the new
    side (the same object, an equal copy, or the name with another node), and a new type is often the old
    type's shape over the counterparts, so a pair of properties recurs across types, equal or not."""
    pool = draw(st.lists(st.builds(Property, st.sampled_from(["a", "b", "c", "d"]), _node_pool(), st.booleans()),
                         min_size=2, max_size=4))
    counterparts = []
    for prop in pool:
        fate = draw(st.sampled_from(["same", "copy", "other", "other"]))
        counterparts.append(prop if fate == "same" else Property(prop.name, prop.node, prop.required) if fate == "copy"
                            else Property(prop.name, draw(_node_pool()), draw(st.booleans())))

    def a_shape(shape=None):
        """A type as a function of the properties it draws from."""
        shape = shape or draw(st.sampled_from(["object", "object", "tuple", "array", "union", "leaf", "node"]))
        if shape in ("leaf", "node"):
            # (on the new side often another: a leaf that changes shows the route the walk took to it)
            node, counterpart = (draw(_LEAVES if shape == "leaf" else _nodes()) for _ in range(2))
            return lambda properties: node if properties is pool else counterpart
        positions = [draw(st.lists(st.integers(0, len(pool) - 1), max_size=4, unique=True)) for _ in range(2)]
        additional = draw(st.sampled_from([OPEN, NEVER]))

        def an_object(properties, at):
            chosen: dict = {}
            for position in at:
                chosen.setdefault(properties[position].name, properties[position])
            return Object(tuple(chosen[name] for name in sorted(chosen)), additional)

        def build(properties):
            node = an_object(properties, positions[0])
            if shape == "tuple":  # two objects in one type: their pairs of properties recur within it
                return Tuple((node, an_object(properties, positions[1])), NEVER)
            return Array(node) if shape == "array" else \
                Union((Alternative(node), Alternative(Primitive("null")))) if shape == "union" else node
        return build

    shapes = {key: a_shape("tuple" if key == "T0" else None) for key in KEYS}  # the root: two objects
    old = {key: shapes[key](pool) for key in KEYS}
    new = {}
    for key in KEYS:
        fate = "mirrored" if key == "T0" else draw(st.sampled_from(["kept", "mirrored", "mirrored", "other"]))
        new[key] = old[key] if fate == "kept" else shapes[key](counterparts) if fate == "mirrored" \
            else a_shape()(counterparts)
    assume(not _loops_without_structure(old) and not _loops_without_structure(new))
    return tuple(TypeGraph(source="s", types={key: NamedType(key, key, node) for key, node in types.items()},
                           roots={"s:Root": Root("s:Root", "T0", "record")})
                 for types in (old, new))


@settings(PROFILE, max_examples=80)
@given(pair=shared_property_graph_pairs())
def test_the_walk_finds_what_it_finds_without_remembering_property_pairs_in_the_same_order(pair):
    remembered = _differences(Walker, pair)
    one_child = changes._ONE_CHILD
    changes._ONE_CHILD = {}
    try:
        plain = _differences(_UnrememberingWalker, pair)
    finally:
        changes._ONE_CHILD = one_child
    assert remembered == plain


def test_a_pair_of_properties_that_holds_nothing_is_looked_at_once(tmp_path: Path):
    """In a ring of types that all differ, every type's properties that are equal leaves (`tag` aside, which
    differs per type) are one pair of shared properties per name: each is remembered as holding nothing."""
    old, new = _ring_sides(tmp_path, 30)
    walker = Walker(old, new)
    found = list(walker.differences(*(Ref(next(iter(side.graph.roots.values())).type_key) for side in (old, new))))
    assert [(difference.place.type, difference.path) for difference in found] == [("T29", "/properties/note")]
    remembered = {(before.name, after.name) for before, after in walker._quiet.values()}
    assert ("name", "name") in remembered
    assert len([pair for pair in walker._quiet.values() if pair[0].name == "name"]) == 1


# --- intersection operands ---------------------------------------------------------------------------------

def _intersection_ring(length: int, changed_at: int | None) -> dict:
    """A cycle of types, each an `allOf` of a reference to an object type that refers to the next one and an
    inline object that refers to the previous one; one inline object may gain an optional property."""
    defs = {}
    for index in range(length):
        properties = {"tag": {"const": index}, "back": {"$ref": f"#/$defs/T{(index - 1) % length}"}}
        if index == changed_at:
            properties["note"] = {"type": "string"}
        defs[f"T{index}"] = {"allOf": [{"$ref": f"#/$defs/U{index}"}, {"type": "object", "properties": properties}]}
        defs[f"U{index}"] = {"type": "object", "properties": {"up": {"$ref": f"#/$defs/T{(index + 1) % length}"}}}
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "$defs": defs}


def test_paired_inline_operands_are_compared_without_testing_their_digests(tmp_path: Path):
    """An intersection pairs the operands whose digests the other side lacks: a pair of inline operands is then
    known to differ, and is walked without first testing its nodes for equal digests."""
    sides = []
    for name, changed_at in (("old", None), ("new", 7)):
        path = tmp_path / f"{name}.schema.json"
        path.write_text(json.dumps(_intersection_ring(8, changed_at)), encoding="utf-8")
        sides.append(Side.of(load_jsonschema("ring", path, {"Start": ("#/$defs/T0", "record")}, tmp_path)))
    old, new = sides
    tested = []

    class _Counting(Walker):
        def _same(self, before, after):
            tested.append((before, after))
            return super()._same(before, after)

    walker = _Counting(old, new)
    found = list(walker.differences(*(Ref(next(iter(side.graph.roots.values())).type_key) for side in sides)))
    assert [(new.graph.types[difference.place.type].name, difference.path, difference.kind)
            for difference in found] == [("T7", "/allOf/1/properties/note", "optional-property-added")]
    assert len(walker._visited) == 16  # every pair of the ring was walked
    operands = {(id(old.graph.types[key].node.operands[1]), id(new.graph.types[key].node.operands[1]))
                for key in new.graph.types if isinstance(new.graph.types[key].node, Intersection)}
    assert len(operands) == 8
    assert not [pair for pair in tested if (id(pair[0]), id(pair[1])) in operands]


def test_no_pair_of_named_types_is_asked_for_again_by_the_properties_of_a_frames_own_types(tmp_path: Path, monkeypatch):
    """In a ring of types each met through `next`, `list` and `byName` (and a union), the properties of the
    types a frame of its own compares ask for a pair of named types only when it was not compared yet along a
    route of the same effect: once per pair, not once per reference to it. The walk of digests
    (`_DigestWalker`, which tests the entered nodes first) asks for every one, and finds the same (see the
    test above)."""
    made = []
    walkers = []

    class _Recorded(changes.Enter):
        __slots__ = ()

        def __init__(self, *args):
            super().__init__(*args)
            if walkers[-1]._place is not None:  # (not the root's own structure, where the walk starts)
                made.append((self.old.target, self.new.target, self.path))

    monkeypatch.setattr(changes, "Enter", _Recorded)
    old, new = _ring_sides(tmp_path, 30)
    start = [Ref(next(iter(side.graph.roots.values())).type_key) for side in (old, new)]
    for walker_class in (Walker, _DigestWalker):
        made.clear()
        walkers.append(walker_class(old, new))
        found = list(walkers[-1].differences(*start))
        assert [(difference.place.type, difference.path) for difference in found] == [("T29", "/properties/note")]
        plain = [(before, after) for before, after, path in made if "/anyOf" not in path]
        if walker_class is Walker:
            assert plain and len(plain) == len(set(plain))
        else:
            assert len(plain) > 2 * len(set(plain))


def _tags_apart_by_definition(union: Union, alternative: Alternative) -> bool:
    """Every other alternative (by identity) has discriminator values of its own, none of this one's."""
    return all(other.tags and not set(other.tags) & set(alternative.tags) for other in union.alternatives
               if other is not alternative)


@settings(PROFILE, max_examples=200)
@given(st.lists(st.lists(st.sampled_from(["a", "b", "c", "d"]), max_size=2, unique=True), min_size=1, max_size=6),
       st.lists(st.integers(min_value=0, max_value=5), max_size=3), st.integers(min_value=0, max_value=5))
def test_tags_apart_counted_once_per_union_says_what_looking_through_the_others_says(tags, repeats, asked):
    # Alternatives with tags (sorted tuples), some standing twice by identity; the answer counted once per union
    # against the one that looks through every other alternative.
    alternatives = [Alternative(Primitive("string"), tags=tuple(sorted(values))) for values in tags]
    alternatives += [alternatives[index] for index in repeats if index < len(alternatives)]
    union = Union(tuple(alternatives), exclusive=True)
    side = Side(TypeGraph("s", {}, {}))
    alternative = alternatives[asked % len(alternatives)]
    assume(alternative.tags)
    assert side.tags_apart(union, alternative) == _tags_apart_by_definition(union, alternative)
