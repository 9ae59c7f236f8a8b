"""`govern sidecar fmt`: exact canonical bytes, --check, --prune-anchors and every refusal."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from govern.cli import cli

EXAMPLES = Path(__file__).resolve().parents[2] / "schemas" / "examples" / "sidecar"

# Keys deliberately out of order, unknown keys at several levels, compact layout, non-ASCII text.
UNFORMATTED = (
    '{"proposals":[],"zeta":{"b":1,"a":[{"y":2,"x":1}]},"attributions":[{"updatedAt":"2026-06-10T09:16:00.000Z",'
    '"turnId":"turn-1","id":"at_1","createdAt":"2026-06-10T09:15:00.000Z","anchorId":"a_2",'
    '"author":{"agent":{"sessionId":"","model":"m","sdk":"s","onBehalfOf":{"email":"ana@example.org","id":"ana"}},'
    '"id":"bot","kind":"agent"}}],"threads":[{"x-color":"blue","messages":[{"createdAt":"2026-06-10T09:15:00.000Z",'
    '"body":"Ça va ?","author":{"email":"ana@example.org","kind":"human","id":"ana","Alpha":true},"id":"m_1"}],'
    '"status":"open","anchorId":"a_1","id":"t_1"}],"anchors":{"a_2":{"fingerprint":{"lineHint":3,"after":"",'
    '"before":"x","text":"beta"}},"a_1":{"fingerprint":{"text":"alpha","before":"","after":" and","lineHint":0},'
    '"note":"kept"}},"document":{"path":"docs/spec.md"},"schemaVersion":1,"alpha":null}'
)

EXPECTED = """{
  "schemaVersion": 1,
  "document": {
    "path": "docs/spec.md"
  },
  "anchors": {
    "a_1": {
      "fingerprint": {
        "text": "alpha",
        "before": "",
        "after": " and",
        "lineHint": 0
      },
      "note": "kept"
    },
    "a_2": {
      "fingerprint": {
        "text": "beta",
        "before": "x",
        "after": "",
        "lineHint": 3
      }
    }
  },
  "threads": [
    {
      "id": "t_1",
      "anchorId": "a_1",
      "status": "open",
      "messages": [
        {
          "id": "m_1",
          "author": {
            "kind": "human",
            "id": "ana",
            "email": "ana@example.org",
            "Alpha": true
          },
          "body": "Ça va ?",
          "createdAt": "2026-06-10T09:15:00.000Z"
        }
      ],
      "x-color": "blue"
    }
  ],
  "attributions": [
    {
      "id": "at_1",
      "anchorId": "a_2",
      "author": {
        "kind": "agent",
        "id": "bot",
        "agent": {
          "sdk": "s",
          "model": "m",
          "sessionId": "",
          "onBehalfOf": {
            "id": "ana",
            "email": "ana@example.org"
          }
        }
      },
      "createdAt": "2026-06-10T09:15:00.000Z",
      "updatedAt": "2026-06-10T09:16:00.000Z",
      "turnId": "turn-1"
    }
  ],
  "proposals": [],
  "alpha": null,
  "zeta": {
    "a": [
      {
        "x": 1,
        "y": 2
      }
    ],
    "b": 1
  }
}
"""


@pytest.fixture
def unformatted(tmp_path):
    path = tmp_path / "spec.md.json"
    path.write_text(UNFORMATTED, encoding="utf-8")
    return path


def test_fmt_writes_the_exact_canonical_bytes(runner, unformatted):
    result = runner.invoke(cli, ["sidecar", "fmt", str(unformatted)])
    assert result.exit_code == 0, result.output
    assert unformatted.read_bytes() == EXPECTED.encode("utf-8")
    assert result.stdout == f"{unformatted}: formatted\n"
    again = runner.invoke(cli, ["sidecar", "fmt", str(unformatted)])
    assert again.exit_code == 0 and again.stdout == ""
    assert unformatted.read_bytes() == EXPECTED.encode("utf-8")


def test_fmt_check_writes_nothing_and_names_the_file(runner, unformatted, tmp_path):
    canonical = tmp_path / "ok.json"
    canonical.write_text(EXPECTED, encoding="utf-8")
    result = runner.invoke(cli, ["sidecar", "fmt", "--check", str(canonical), str(unformatted)])
    assert result.exit_code == 1
    assert result.stdout == f"{unformatted}: not canonical, run `govern sidecar fmt {unformatted}`\n"
    assert unformatted.read_text(encoding="utf-8") == UNFORMATTED
    assert runner.invoke(cli, ["sidecar", "fmt", "--check", str(canonical)]).exit_code == 0


@pytest.mark.parametrize("variant", [EXPECTED.rstrip("\n"), EXPECTED + "\n", "\ufeff" + EXPECTED,
                                     EXPECTED.replace("  ", "    ")])
def test_layout_deviations_are_not_canonical(runner, tmp_path, variant):
    path = tmp_path / "s.json"
    path.write_text(variant, encoding="utf-8")
    assert runner.invoke(cli, ["sidecar", "fmt", "--check", str(path)]).exit_code == 1
    assert runner.invoke(cli, ["sidecar", "fmt", str(path)]).exit_code == 0
    assert path.read_bytes() == EXPECTED.encode("utf-8")


def test_examples_are_already_canonical(runner):
    valid = [str(path) for path in sorted((EXAMPLES / "valid").glob("*.json")) if "newer" not in path.name]
    result = runner.invoke(cli, ["sidecar", "fmt", "--check", *valid])
    assert result.exit_code == 0, result.output


def test_prune_anchors_only_on_request(runner, tmp_path):
    source = (EXAMPLES / "valid" / "unreferenced-anchor.json").read_text(encoding="utf-8")
    path = tmp_path / "s.json"
    path.write_text(source, encoding="utf-8")
    assert runner.invoke(cli, ["sidecar", "fmt", str(path)]).exit_code == 0
    assert path.read_text(encoding="utf-8") == source
    data = json.loads(source)
    referenced = {record["anchorId"] for section in ("threads", "attributions", "proposals")
                  for record in data[section]}
    unreferenced = sorted(set(data["anchors"]) - referenced)
    assert unreferenced
    check = runner.invoke(cli, ["sidecar", "fmt", "--check", "--prune-anchors", str(path)])
    assert check.exit_code == 1 and path.read_text(encoding="utf-8") == source
    result = runner.invoke(cli, ["sidecar", "fmt", "--prune-anchors", str(path)])
    assert result.exit_code == 0
    assert f"pruned anchors: {', '.join(unreferenced)}" in result.stdout
    assert set(json.loads(path.read_text(encoding="utf-8"))["anchors"]) == referenced


@pytest.mark.parametrize("name,code,message", [
    ("invalid/status-unknown.json", 1, "is not a valid sidecar, refusing to format it"),
    ("invalid/timestamp-impossible-date.json", 1, "not a real UTC instant"),
    ("valid/newer-schemaversion.json", 1, "schemaVersion 2 is newer than the implemented major 1"),
])
def test_fmt_refuses_and_writes_nothing(runner, tmp_path, name, code, message):
    path = tmp_path / "s.json"
    original = json.dumps(json.loads((EXAMPLES / name).read_text(encoding="utf-8")))  # not canonical
    path.write_text(original, encoding="utf-8")
    for arguments in (["fmt"], ["fmt", "--check"], ["fmt", "--prune-anchors"]):
        result = runner.invoke(cli, ["sidecar", *arguments, str(path)])
        assert result.exit_code == code
        assert message in result.stderr and str(path) in result.stderr
        assert path.read_text(encoding="utf-8") == original


@pytest.mark.parametrize("case", ["missing", "directory", "invalid-json"])
def test_fmt_unreadable_input_exits_2_and_other_files_are_still_formatted(runner, tmp_path, unformatted, case):
    path = tmp_path / "bad.json"
    if case == "directory":
        path.mkdir()
    elif case == "invalid-json":
        path.write_text("[", encoding="utf-8")
    result = runner.invoke(cli, ["sidecar", "fmt", str(path), str(unformatted)])
    assert result.exit_code == 2
    assert str(path) in result.stderr
    assert unformatted.read_bytes() == EXPECTED.encode("utf-8")
    if case == "invalid-json":
        assert path.read_text(encoding="utf-8") == "["
