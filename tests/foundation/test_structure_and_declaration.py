"""The inventory's structure and the catalog's declaration of a named type made in one walk (as `govern extract`
makes them while writing the inventory): each must be exactly the plain one (reference_structure,
reference_declaration), for every node kind at every depth, with the tables of shared nodes kept across types."""

from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st

from govern.model.canonical import indented_json
from govern.model.nodes import (
    NEVER, OPEN, Alternative, Array, Intersection, Map, Object, Primitive, Property, Ref, Union,
)
from govern.model.render import declaration, structure, structure_and_declaration
from reference_declaration import plain_declaration
from reference_structure import plain_structure
from test_declarations import _nested
from test_structures import NULLABLE, nodes

PROFILE = settings.get_profile("foundation")


@settings(PROFILE)
@given(shared=nodes, others=st.lists(nodes, max_size=3), depths=st.lists(st.integers(0, 4), min_size=1, max_size=4))
@example(shared=NULLABLE, others=[Array(Ref("B")), Object((Property("r", Ref("A"), True, True),), NEVER)], depths=[0, 1])
@example(shared=Object((Property("inner", Object((Property("x", Primitive("string"), False),), OPEN), True),), OPEN,
                       (), (("minProperties", "1"),)), others=[Ref("A")], depths=[0, 3])
@example(shared=Intersection((Ref("A"), Object((Property("n", Primitive("integer"), True),), NEVER))),
         others=[Intersection((Object((), OPEN), Map(Ref("B"))))], depths=[0, 2])
@example(shared=Union((Alternative(Object((Property("x", Ref("A"), True),), OPEN)), Alternative(Ref("B"), True, ('"b"',)),
                       Alternative(Map(Ref("C")))), True, 2, '{"propertyName":"kind"}'), others=[NULLABLE], depths=[1])
def test_one_walk_gives_the_plain_structure_and_declaration(shared, others, depths):
    written: dict = {}  # both tables kept across the types, as the inventory's writing keeps them
    known: dict = {}
    for depth in [None, *depths]:
        built = shared if depth is None else _nested(
            Object(tuple(Property(f"n{i}", node, i % 2 == 0, i == 2) for i, node in enumerate([shared, *others])),
                   shared, ((r"\d", shared),)), depth)
        form, declared = structure_and_declaration(built, written, known)
        assert indented_json(form) == indented_json(plain_structure(built))
        assert declared == plain_declaration(built)
        # and the renderings made alone afterwards, from the same tables, are still the plain ones
        assert indented_json(structure(built, written)) == indented_json(plain_structure(built))
        assert declaration(built, known=known) == plain_declaration(built)


def test_a_reference_is_its_target_in_both():
    assert structure_and_declaration(Ref("A"), {}, {}) == ({"ref": "A"}, "A")
    union = Union((Alternative(Ref("A")), Alternative(Primitive("null"))))
    assert structure_and_declaration(union, {}, {}) == (plain_structure(union), plain_declaration(union))


BOUNDED = Primitive("integer", (("maximum", "10"), ("minimum", "0")))


@given(order=st.permutations(range(5)), closed=st.booleans())
@example(order=[4, 3, 2, 1, 0], closed=False)
def test_shared_leaves_met_first_anywhere_and_the_usual_objects(order, closed):
    """A shared leaf (a bounded integer) met first as an array's items, a map's values, a union's alternative or
    a property's node, by either rendering alone or both together, and then everywhere else: each type's
    renderings are the plain ones. The objects are the usual ones (open, closed, empty, without patterns or
    constraints, which the walk writes itself) and, for comparison, one with constraints and a content schema."""
    additional = NEVER if closed else OPEN
    types = [
        Object((Property("items", Array(BOUNDED), True), Property("n", BOUNDED, False)), additional),
        Object((Property("byName", Map(BOUNDED), False), Property("n-1", BOUNDED, True)), OPEN),
        Union((Alternative(BOUNDED), Alternative(Object((), additional)))),
        Object((Property("m", BOUNDED, False), Property("x", Object((), NEVER), False)), BOUNDED, (),
               (("minProperties", "1"),)),
        Intersection((Ref("A"), Object((Property("n", BOUNDED, True, True), Property("o", Object((), OPEN), True)),
                                       additional))),
    ]
    written: dict = {}
    known: dict = {}
    for position, index in enumerate(order):
        built = types[index]
        if position == 1:  # the other renderings alone first, from the same tables
            assert indented_json(structure(built, written)) == indented_json(plain_structure(built))
            assert declaration(built, known=known) == plain_declaration(built)
        form, declared = structure_and_declaration(built, written, known)
        assert indented_json(form) == indented_json(plain_structure(built))
        assert declared == plain_declaration(built)
