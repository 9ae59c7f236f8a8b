"""Where each root's type is written, for the inventory and findings: the line of its key, counted in one
pass over the source however many roots it holds and in whatever order they come."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from govern.config import load_config
from govern.sources.load import load_configured
from govern.sources.locate import pointer_line, root_locations

PROFILE = settings.get_profile("foundation")


@settings(PROFILE, max_examples=15)
@given(names=st.lists(st.from_regex(r"[A-Z][a-z]{0,6}", fullmatch=True), min_size=1, max_size=12, unique=True),
       padding=st.lists(st.integers(0, 3), min_size=12, max_size=12), picked=st.data())
def test_each_root_is_located_at_the_line_of_its_type(tmp_path_factory, names, padding, picked):
    root = tmp_path_factory.mktemp("located")
    defs = {name: {"type": "object", "properties": {"n": {"type": "integer"}}, "description": "\n" * padding[index]}
            for index, name in enumerate(names)}
    text = json.dumps({"$defs": defs}, indent=padding[0] + 1)
    (root / "doc.json").write_text(text, encoding="utf-8")
    roots = picked.draw(st.permutations(names))[:picked.draw(st.integers(1, len(names)))]
    entries = ", ".join(f'{name} = {{ at = "#/$defs/{name}" }}' for name in roots)
    (root / "pyproject.toml").write_text('[tool.govern]\n[[tool.govern.sources]]\nname = "doc"\nkind = "jsonschema"\n'
                                         f'path = "doc.json"\nroots = {{ {entries} }}\n', encoding="utf-8")
    config = load_config(root)
    located = root_locations(config, load_configured(config))
    assert located == {f"doc:{name}": f"doc.json:{pointer_line(text, f'/$defs/{name}')}" for name in roots}
    for name in roots:
        line = text.splitlines()[int(located[f"doc:{name}"].rpartition(":")[2]) - 1]
        assert line.strip().startswith(json.dumps(name) + ":")


def test_a_pointer_steps_over_no_value_it_descends_into(monkeypatch):
    # A large description holds its component schemas after the paths: locating them must not decode the
    # whole `components` object on the way in, nor the schemas before the one asked for more than once.
    import govern.sources.locate as locate

    stepped: list[int] = []
    original = locate._skip_value

    def counting(text, index):
        stepped.append(index)
        return original(text, index)

    monkeypatch.setattr(locate, "_skip_value", counting)
    document = {"openapi": "3.1.0", "paths": {"/a": {"get": {}}},
                "components": {"schemas": {"A": {"type": "string"}, "B": {"type": "integer"}}, "other": {}}}
    text = json.dumps(document, indent=2)
    members: dict = {}
    for name in ("B", "A"):
        assert pointer_line(text, f"/components/schemas/{name}", members, json_text=True) == \
            pointer_line(text, f"/components/schemas/{name}")
    stepped.clear()
    members = {}
    pointer_line(text, "/components/schemas/B", members, json_text=True)
    pointer_line(text, "/components/schemas/A", members, json_text=True)
    # openapi and paths on the way to components, A on the way to B: nothing else.
    assert len(stepped) == 3


_JSON_VALUES = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=4),
                            lambda inner: st.lists(inner, max_size=3)
                            | st.dictionaries(st.text(max_size=3), inner, max_size=3), max_leaves=12)


@settings(PROFILE, max_examples=60)
@given(value=_JSON_VALUES, indent=st.sampled_from([None, 1, 2]), picked=st.data())
def test_a_json_text_is_located_as_the_full_scan_locates_it(value, indent, picked):
    text = json.dumps(value, indent=indent)
    pointers = [""]
    stack = [(value, "")]
    while stack:
        current, pointer = stack.pop()
        items = current.items() if isinstance(current, dict) else enumerate(current) if isinstance(current, list) else ()
        for key, item in items:
            below = f"{pointer}/{str(key).replace('~', '~0').replace('/', '~1')}"
            pointers.append(below)
            stack.append((item, below))
    pointers.append("/missing")
    asked = picked.draw(st.permutations(pointers))
    lazy: dict = {}
    full: dict = {}
    for pointer in asked:
        assert pointer_line(text, pointer, lazy, json_text=True) == pointer_line(text, pointer, full)
