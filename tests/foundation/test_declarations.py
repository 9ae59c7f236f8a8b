"""The catalog declares each distinct node that fits on one line once and places it wherever it recurs, at
any depth; every declaration must be exactly the plain one (reference_declaration), for every node kind,
any names, patterns and texts (line breaks included), and nodes shared at several depths."""

from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st

import govern.model.render as render
from govern.model.nodes import (
    NEVER, OPEN, Alternative, Array, Intersection, Map, Object, Primitive, Property, Ref, Union,
)
from govern.model.render import declaration
from reference_declaration import plain_declaration
from test_form_text import _extend, _leaves, texts

PROFILE = settings.get_profile("foundation")

nodes = st.recursive(_leaves(texts) | st.builds(Ref, texts), _extend, max_leaves=8)


def _nested(node, depth: int):
    """`node` placed `depth` levels deep, through the kinds that indent their children."""
    for level in range(depth):
        node = (Object((Property("p", node, True),), OPEN) if level % 3 == 0 else
                Union((Alternative(node), Alternative(Primitive("null")))) if level % 3 == 1 else
                Intersection((node, Map(node))))
    return node


@settings(PROFILE)
@given(shared=nodes, others=st.lists(nodes, max_size=3), depths=st.lists(st.integers(0, 4), min_size=1, max_size=4))
@example(shared=Union((Alternative(Ref("A")), Alternative(Primitive("null")))), others=[Array(Ref("B"))], depths=[0, 2])
@example(shared=Union((Alternative(Ref("A"), True), Alternative(Ref("B"), False, ('"b"',)), Alternative(Map(Ref("C")))),
                      True, 3), others=[Object((), NEVER, (), (("minProperties", "1"),))], depths=[1])
def test_declarations_written_once_are_the_plain_ones_at_every_depth(shared, others, depths):
    known: dict = {}  # kept across the declarations, as the catalog keeps it across its named types
    for depth in depths:
        declared = _nested(Object(tuple(Property(f"n{i}", node, i % 2 == 0) for i, node in enumerate([shared, *others])),
                                  shared, ((r"\d", shared),)), depth)
        assert declaration(declared, known=known) == plain_declaration(declared)
        assert declaration(shared, "    ", known) == plain_declaration(shared, "    ")


def test_a_node_on_one_line_is_declared_once_wherever_it_recurs(monkeypatch):
    made: list = []
    declare = render._declare
    monkeypatch.setattr(render, "_declare", lambda node, indent, known: made.append(node) or declare(node, indent, known))
    labels = Array(Primitive("string", (("maxItems", "20"),)))
    known: dict = {}
    for name in ("A", "B", "C"):
        node = Object((Property("labels", labels, False), Property("next", Ref(name), True),
                       Property("nested", Object((Property("labels", labels, True),), NEVER), True)), OPEN)
        assert declaration(node, known=known) == plain_declaration(node)
    assert sum(1 for node in made if node is labels) == 1
    assert sum(1 for node in made if node is labels.items) == 1
