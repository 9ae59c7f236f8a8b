"""The inventory builds each type's structure with shared leaves built once and the usual children (references,
alternatives) built inline; every structure must be exactly the plain one (reference_structure), for every
node kind, any names, values and marks, and nodes shared at several depths."""

from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st

from govern.model.canonical import indented_json
from govern.model.nodes import NEVER, Alternative, Array, Map, Object, Primitive, Property, Ref, Tuple, Union
from govern.model.render import structure
from reference_structure import plain_structure
from test_declarations import _nested
from test_form_text import _extend, _leaves, texts
from test_inventory_text import constraints, json_texts

PROFILE = settings.get_profile("foundation")

nodes = st.recursive(_leaves(json_texts) | st.builds(Ref, texts), lambda inner: _extend(inner, constraints),
                     max_leaves=8)
NULLABLE = Union((Alternative(Ref("A")), Alternative(Primitive("null"))))


@settings(PROFILE)
@given(shared=nodes, others=st.lists(nodes, max_size=3), depths=st.lists(st.integers(0, 4), min_size=1, max_size=4))
@example(shared=NULLABLE, others=[Array(Ref("B")), Map(Ref("C"), (("maxProperties", "3"),))], depths=[0, 1])
@example(shared=Union((Alternative(Ref("A"), True), Alternative(Ref("B"), False, ('"b"',)),
                       Alternative(Primitive("null"))), True, 2, '{"propertyName":"kind"}'),
         others=[Tuple((Ref("A"),), NEVER), Object((Property("r", NEVER, False, True),), Ref("A"))], depths=[2])
def test_structures_built_with_shared_leaves_are_the_plain_ones_at_every_depth(shared, others, depths):
    written: dict = {}  # kept across the types, as the inventory keeps it across a document
    for depth in depths:
        built = _nested(Object(tuple(Property(f"n{i}", node, i % 2 == 0) for i, node in enumerate([shared, *others])),
                               shared, ((r"\d", shared),)), depth)
        plain = indented_json(plain_structure(built))
        assert indented_json(structure(built, written)) == plain
        assert indented_json(structure(built)) == plain
