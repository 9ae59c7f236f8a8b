"""The inventory's text is the standard library's indented JSON of its content, byte for byte, whichever
writer wrote each type (orjson, or `indented_json` for what orjson cannot represent), and its content is
each type's plain structure."""

from __future__ import annotations

import json

from hypothesis import example, given, settings
from hypothesis import strategies as st

from govern.model.canonical import canonical_json
from govern.model.graph import TypeGraph
from govern.model.inventory import build_inventory, inventory_chunks
from govern.model.nodes import OPEN, NamedType, Object, Primitive, Property, Root
from govern.model.render import structure
from test_form_text import _extend, _leaves, texts

PROFILE = settings.get_profile("foundation")

# Constraint and literal values of every JSON kind, floats (1e-07, 5e-324, 1e+16) and integers beyond 64
# bits included: the values orjson would write otherwise than the standard library.
numbers = st.one_of(st.floats(allow_nan=False, allow_infinity=False), st.integers(-(2**70), 2**70),
                    st.sampled_from([1e-07, 1.5e-10, 1e16, 1e+22, 5e-324, 0.1, 2**63, 2**64, -(2**63) - 1]))
scalars = st.one_of(st.none(), st.booleans(), numbers, texts)
json_values = scalars | st.lists(scalars, max_size=3) | st.dictionaries(texts, scalars, max_size=3)
json_texts = json_values.map(canonical_json)
constraints = st.lists(st.tuples(texts, json_texts), max_size=3, unique_by=lambda entry: entry[0]).map(
    lambda entries: tuple(sorted(entries)))
nodes = st.recursive(_leaves(json_texts), lambda inner: _extend(inner, constraints), max_leaves=8)


def _deep(node, levels: int):
    for _ in range(levels):
        node = Object((Property("x", node, True),), OPEN)
    return node


@settings(PROFILE)
@given(types=st.dictionaries(texts, nodes, min_size=0, max_size=4), deep=st.booleans())
@example(types={"A": Primitive("integer", (("minimum", "1e-7"),))}, deep=True)
def test_the_inventory_is_the_standard_librarys_text_of_the_plain_structures(types, deep):
    named = {name: NamedType(name, name, _deep(node, 70) if deep and index == 0 else node)
             for index, (name, node) in enumerate(sorted(types.items()))}
    graph = TypeGraph("s", named, {f"s:{name}": Root(f"s:{name}", name) for name in list(named)[:2]}, origin="s.json")
    inventory = build_inventory([graph])
    text = b"".join(inventory_chunks(inventory, {f"s:{name}": "s.json:1" for name in list(named)[:1]})).decode("utf-8")
    document = json.loads(text)
    assert text == json.dumps(document, indent=2, ensure_ascii=False) + "\n"
    assert document["types"] == {f"s:{name}": {"digest": inventory.types[f"s:{name}"].digest,
                                               "structure": json.loads(json.dumps(structure(entry.node)))}
                                 for name, entry in named.items()}


def test_constraint_values_are_read_as_json_reads_them():
    """Digit-only texts (most constraint values) are read without the decoder: the same value either way."""
    from govern.model.canonical import Rendered
    from govern.model.render import _value

    for text in ("0", "7", "5315", "123456789012345678901234567890", "-5", "1.5", "1e+22", '"12"', "true", "null"):
        for written in (None, {}):
            value = _value(text, written)
            expected = json.loads(text)
            assert (value.text == json.dumps(expected) if value.__class__ is Rendered else
                    value == expected and value.__class__ is expected.__class__), (text, written)
