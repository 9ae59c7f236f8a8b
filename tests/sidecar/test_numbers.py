"""Numbers are written the way JavaScript's JSON.stringify writes them (RFC 8785 / ECMAScript).

The contract's reference writer is JavaScript, and two conforming writers must produce the same bytes
for the same logical content. JSON has one number type, so `1`, `1.0` and `1E0` are the same content
and must be written alike; the cross-check against `node` proves it over generated documents.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from govern.cli import cli
from govern.sidecar.canonical import canonical_bytes, ecmascript_number, stable_stringify
from govern.sidecar.merge import merge_artifacts
from govern.sidecar.validate import validate_artifact

PROFILE = settings.get_profile("sidecar")

# literal in the file -> what JSON.stringify writes (checked against node below when it is present)
LITERALS = [
    ("1.0", "1"),
    ("2.0", "2"),
    ("1.5e-7", "1.5e-7"),
    ("12345678901234567890.5", "12345678901234567000"),
    ("12345678901234567890", "12345678901234567000"),
    ("1E2", "100"),
    ("0.0", "0"),
    ("-0.0", "0"),
    ("-0", "0"),
    ("1e21", "1e+21"),
    ("1e20", "100000000000000000000"),
    ("0.000001", "0.000001"),
    ("0.0000001", "1e-7"),
    ("123.456e2", "12345.6"),
    ("-1.25E-10", "-1.25e-10"),
    ("5e-324", "5e-324"),
    ("1.7976931348623157e308", "1.7976931348623157e+308"),
    ("9007199254740993", "9007199254740992"),
    ("0.1", "0.1"),
    ("100", "100"),
]


def _document(number: str, line_hint: str = "0") -> str:
    return (
        '{"schemaVersion": 1, "document": {"path": "a.md"}, '
        '"anchors": {"a_1": {"fingerprint": {"text": "x", "before": "", "after": "", "lineHint": '
        + line_hint + '}}}, "threads": [], "attributions": [], "proposals": [], "x-n": ' + number + "}"
    )


@pytest.mark.parametrize("literal,expected", LITERALS)
def test_numbers_are_written_as_ecmascript_writes_them(literal, expected):
    value = json.loads(literal)
    assert ecmascript_number(value) == expected
    text = canonical_bytes(json.loads(_document(literal))).decode("utf-8")
    assert f'"x-n": {expected}\n' in text
    assert stable_stringify([value]) == f"[{expected}]"


def test_integral_floats_and_integers_format_to_the_same_bytes():
    assert canonical_bytes(json.loads(_document("1", "0.0"))) == canonical_bytes(json.loads(_document("1.0", "0")))
    assert b'"lineHint": 0\n' in canonical_bytes(json.loads(_document("1", "0.0")))


def test_fmt_rewrites_float_spellings_and_is_then_canonical(runner, tmp_path):
    path = tmp_path / "s.json"
    path.write_text(_document("1E2", "3.0"), encoding="utf-8")
    assert runner.invoke(cli, ["sidecar", "fmt", str(path)]).exit_code == 0
    text = path.read_text(encoding="utf-8")
    assert '"lineHint": 3\n' in text and '"x-n": 100\n' in text
    assert runner.invoke(cli, ["sidecar", "fmt", "--check", str(path)]).exit_code == 0


def test_merge_of_equal_numbers_in_different_spellings_is_symmetric_and_reports_nothing():
    ours, theirs = json.loads(_document("1", "0")), json.loads(_document("1.0", "0.0"))
    forward, backward = merge_artifacts(ours, theirs), merge_artifacts(theirs, ours)
    assert forward.divergences == () and backward.divergences == ()
    assert canonical_bytes(forward.merged) == canonical_bytes(backward.merged)
    assert forward.merged == backward.merged


def test_non_finite_numbers_cannot_be_written():
    with pytest.raises(ValueError, match="not a finite JSON number"):
        ecmascript_number(float("inf"))
    with pytest.raises(ValueError, match="beyond the range of a JSON number"):
        ecmascript_number(10**400)


# --- cross-check with JavaScript ------------------------------------------------------------------

NODE = shutil.which("node")

# Reads one JSON-encoded document text per line; answers with the JSON-encoded output of the reference
# serialization: JSON.stringify(JSON.parse(text), null, 2) plus the one trailing newline.
_NODE_PROGRAM = r"""
const lines = require('readline').createInterface({ input: process.stdin });
lines.on('line', (line) => {
  const text = JSON.parse(line);
  process.stdout.write(JSON.stringify(JSON.stringify(JSON.parse(text), null, 2) + '\n') + '\n');
});
"""

# JavaScript enumerates array-index keys ("0", "17") before all others, whatever the insertion order,
# so a plain-object writer cannot place them where the contract's lexicographic rule does. Documents
# holding such keys are not comparable with JSON.stringify and are left out of the cross-check.
_ARRAY_INDEX = re.compile(r"(0|[1-9][0-9]{0,9})")


class _Node:
    def __init__(self) -> None:
        self.process = subprocess.Popen([NODE, "-e", _NODE_PROGRAM], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, text=True, encoding="utf-8")

    def stringify(self, text: str) -> str:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(json.dumps(text) + "\n")
        self.process.stdin.flush()
        return json.loads(self.process.stdout.readline())

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait(timeout=10)


@pytest.fixture(scope="module")
def node():
    if NODE is None:
        pytest.skip("node is not on the PATH: the cross-check with JSON.stringify needs it")
    reference = _Node()
    yield reference
    reference.close()


def _has_array_index_key(value) -> bool:
    if isinstance(value, dict):
        return any(_ARRAY_INDEX.fullmatch(key) and int(key) < 2**32 - 1 for key in value) or any(
            _has_array_index_key(item) for item in value.values())
    if isinstance(value, list):
        return any(_has_array_index_key(item) for item in value)
    return False


def _in_order_of(value, template):
    """`value` with every object's keys in the order `template` (its re-read canonical form) has."""
    if isinstance(value, dict):
        return {key: _in_order_of(value[key], template[key]) for key in template}
    if isinstance(value, list):
        return [_in_order_of(item, shape) for item, shape in zip(value, template)]
    return value


@pytest.mark.parametrize("literal,expected", LITERALS)
def test_the_literal_table_agrees_with_node(node, literal, expected):
    assert node.stringify(_document(literal, "0.0")) == canonical_bytes(json.loads(_document(literal, "0.0"))).decode()


@PROFILE
@given(data=st.data())
def test_canonical_bytes_equal_json_stringify(node, gen, data):
    artifact = data.draw(gen.sidecars(least=1))
    assume(not _has_array_index_key(artifact))
    ours = canonical_bytes(artifact).decode("utf-8")
    # The same content in the canonical key order but with Python's number spellings (1.0, 1e-07,
    # 1.2345678901234567e+19): JavaScript must arrive at our bytes from there.
    python_spelled = json.dumps(_in_order_of(artifact, json.loads(ours)), ensure_ascii=False)
    assert node.stringify(python_spelled) == ours
    assert node.stringify(ours) == ours


@PROFILE
@given(data=st.data())
def test_schema_version_and_line_hint_spelled_as_floats_are_the_same_document(gen, data):
    artifact = data.draw(gen.sidecars())
    spelled = dict(artifact, schemaVersion=1.0,
                   anchors={key: dict(anchor, fingerprint=dict(anchor["fingerprint"],
                                                                 lineHint=float(anchor["fingerprint"]["lineHint"])))
                            for key, anchor in artifact["anchors"].items()})
    assert validate_artifact(spelled).findings == ()
    assert canonical_bytes(spelled) == canonical_bytes(artifact)
    merged = {canonical_bytes(merge_artifacts(*sides).merged)
              for sides in ((spelled, artifact), (artifact, spelled), (artifact, artifact), (spelled, spelled))}
    assert len(merged) == 1


def test_numbers_in_examples_round_trip_through_node(node):
    examples = Path(__file__).resolve().parents[2] / "schemas" / "examples" / "sidecar" / "valid"
    for path in sorted(examples.glob("*.json")):
        text = path.read_text(encoding="utf-8")
        assert node.stringify(text) == text, path.name
