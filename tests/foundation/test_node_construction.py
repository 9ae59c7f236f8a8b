"""Nodes are made by an `__init__` that stores each field through its slot (see govern/model/nodes.py): the
same signature, values, equality, hashing and immutability as the frozen dataclass's generated one."""

from __future__ import annotations

import dataclasses
import inspect

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from govern.model import nodes
from govern.model.canonical import canonical_json, normalize_json_value

_KINDS = [nodes.Ref, nodes.Primitive, nodes.Literal, nodes.Enum, nodes.Property, nodes.Object, nodes.Map, nodes.Array,
          nodes.Tuple, nodes.Alternative, nodes.Union, nodes.Intersection, nodes.Applicator, nodes.Opaque,
          nodes.NamedType, nodes.Root]


def _generated(kind: type) -> type:
    """The same frozen dataclass with the `__init__` dataclasses generates."""
    return dataclasses.make_dataclass(kind.__name__, [
        (each.name, each.type, dataclasses.field(default=each.default, compare=each.compare))
        if each.default is not dataclasses.MISSING else (each.name, each.type, dataclasses.field(compare=each.compare))
        for each in dataclasses.fields(kind)], frozen=True, slots=True)


@pytest.mark.parametrize("kind", _KINDS, ids=lambda kind: kind.__name__)
def test_a_node_is_made_as_the_generated_init_makes_it(kind):
    generated = _generated(kind)
    code = kind.__init__.__code__  # stores through the slots, not object.__setattr__ per field
    assert "__setattr__" not in code.co_names and "__dataclass_builtins_object__" not in code.co_freevars
    assert str(inspect.signature(kind)) == str(inspect.signature(generated))
    names = [each.name for each in dataclasses.fields(kind)]
    required = [each.name for each in dataclasses.fields(kind) if each.default is dataclasses.MISSING]
    values = {name: (f"value of {name}", index) for index, name in enumerate(names)}
    for given in ({name: values[name] for name in required}, values):
        for made, expected in ((kind(**given), generated(**given)),
                               (kind(*given.values()), generated(*given.values()))):
            assert [getattr(made, name) for name in names] == [getattr(expected, name) for name in names]
            assert made == kind(**{name: getattr(expected, name) for name in names})
            assert hash(made) == hash(kind(**{name: getattr(expected, name) for name in names}))
            assert repr(made).partition("(")[2] == repr(expected).partition("(")[2]
            with pytest.raises(dataclasses.FrozenInstanceError):
                setattr(made, names[0], None)
            assert dataclasses.replace(made, **{names[0]: "other"}) == kind(**{**given, names[0]: "other"})
    with pytest.raises(TypeError):
        kind(*[None] * (len(names) + 1))
    if required:
        with pytest.raises(TypeError):
            kind()


def test_fields_left_out_of_equality_stay_out():
    assert nodes.Property("a", nodes.OPEN, True, description="x") == nodes.Property("a", nodes.OPEN, True)
    assert nodes.Union((nodes.Alternative(nodes.OPEN),), keyword="oneOf") == nodes.Union((nodes.Alternative(nodes.OPEN),))


_VALUES = st.recursive(st.none() | st.booleans() | st.integers(-2**70, 2**70) | st.floats(allow_nan=False,
                       allow_infinity=False) | st.text(max_size=4),
                       lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3),
                       max_leaves=6)


@settings(settings.get_profile("foundation"), max_examples=300)
@given(st.dictionaries(st.text(max_size=6), _VALUES, max_size=5))
def test_constraints_are_the_canonical_texts_of_their_normalized_values(values):
    # Integers and strings are taken without normalizing them (they normalize to themselves).
    expected = tuple(sorted((key, canonical_json(normalize_json_value(value))) for key, value in values.items()))
    assert nodes.make_constraints(values) == expected


@pytest.mark.parametrize("count", [0, 1, 16, 17, 400])
def test_a_property_is_found_by_name_among_few_or_thousands(count):
    names = sorted(f"p{index}" for index in range(count))
    obj = nodes.Object(tuple(nodes.Property(name, nodes.Primitive("string"), False) for name in names), nodes.OPEN)
    assert [obj.property(name).name for name in names] == names
    assert [obj.property(name) for name in ("", "p", "p1x", "q", "p" + "9" * 5, "a")] == [None] * 6
    patterned = nodes.Object((), nodes.OPEN, tuple((f"^{name}", nodes.Primitive(name)) for name in names))
    assert [patterned.pattern_schema(f"^{name}") for name in names] == [nodes.Primitive(name) for name in names]
    assert [patterned.pattern_schema(pattern) for pattern in ("", "^", "p1", "^q", "^a")] == [None] * 5
