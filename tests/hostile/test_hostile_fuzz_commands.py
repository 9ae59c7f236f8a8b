"""Random bytes and random JSON into every reader, through the command line: a value, a finding or an input
error (exit 0, 1 or 2), never a traceback."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from hostile_cases import copy_repository
from hypothesis import given, settings
from hypothesis import strategies as st

from govern.cli import cli

BASELINE = "2026-11-30-baseline"

json_values = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False)
                           | st.text(max_size=5),
                           lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner,
                                                                                        max_size=3), max_leaves=10)
contents = st.one_of(st.binary(max_size=80), json_values.map(lambda value: json.dumps(value).encode()),
                     st.text(max_size=80).map(lambda text: text.encode("utf-8", "surrogatepass")))


def _clean(result) -> None:
    assert result.exit_code in (0, 1, 2), result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)


@settings(settings.get_profile("hostile"), max_examples=25)
@given(contents)
def test_random_files_into_the_file_readers(runner, content):
    with tempfile.TemporaryDirectory() as directory:
        for name, command in (("s.json", ["sidecar", "validate"]), ("s.json", ["sidecar", "fmt", "--check"]),
                              ("d.schema.json", ["digests"]), ("d.schema.yaml", ["digests"])):
            path = Path(directory) / name
            path.write_bytes(content)
            _clean(runner.invoke(cli, [*command, str(path)]))


repository = {}


def _repository() -> Path:
    """One copy for the whole test: each example rewrites the same files before running verify."""
    if "root" not in repository:
        repository["root"] = copy_repository(Path(tempfile.mkdtemp()) / "project")
    return repository["root"]


@settings(settings.get_profile("hostile"), max_examples=15)
@given(contents, st.sampled_from(["md", "zh.md", "i18n.yaml", "schema.json"]))
def test_random_record_files_into_verify(runner, content, part):
    root = _repository()
    path = root / "records" / f"{BASELINE}.{part}"
    original = path.read_bytes()
    try:
        path.write_bytes(content)
        _clean(runner.invoke(cli, ["verify", "--format", "json", "--project", str(root)]))
    finally:
        path.write_bytes(original)
