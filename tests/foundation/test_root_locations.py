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
