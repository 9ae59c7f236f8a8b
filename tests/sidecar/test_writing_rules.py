"""Rules every writing path follows: float majors, checking the bytes written, the document path as the
sidecar key, and pruning of anchors no record refers to."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from govern.cli import cli
from govern.sidecar import canonical

EXAMPLES = Path(__file__).resolve().parents[2] / "schemas" / "examples" / "sidecar"


def _example(name: str) -> dict:
    return json.loads((EXAMPLES / name).read_text(encoding="utf-8"))


@pytest.fixture
def repo(git_repo: Path, document: Path) -> Path:
    return git_repo


def _place(repo: Path, data: dict, relative: str = ".threads/docs/spec.md.json") -> Path:
    path = repo / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=2), encoding="utf-8")  # not canonical on purpose
    return path


def _reply(runner, repo: Path, *arguments: str):
    return runner.invoke(cli, ["sidecar", "reply", str(repo / "docs" / "spec.md"), "--author-id", "ana",
                               "--body", "x", *arguments])


# --- schemaVersion written as a float -------------------------------------------------------------

def test_a_float_newer_major_is_major_2_read_only(runner, repo):
    path = _place(repo, dict(_example("valid/minimal-empty.json"), schemaVersion=2))
    path.write_text(path.read_text(encoding="utf-8").replace('"schemaVersion": 2', '"schemaVersion": 2.0'),
                    encoding="utf-8")
    before = path.read_bytes()
    result = runner.invoke(cli, ["sidecar", "validate", str(path)])
    assert result.exit_code == 0
    assert "warning: /schemaVersion: schemaVersion 2 is newer than the implemented major 1" in result.stdout
    assert f"{path}: valid (read-only: newer major)" in result.stdout
    for arguments in (["fmt", str(path)], ["fmt", "--check", str(path)], ["merge", str(path), str(path)]):
        outcome = runner.invoke(cli, ["sidecar", *arguments])
        assert outcome.exit_code == 1 and "schemaVersion 2 is newer" in outcome.stderr
    outcome = _reply(runner, repo, "--new-thread", "--anchor-text", "cache")
    assert outcome.exit_code == 1 and "schemaVersion 2 is newer" in outcome.stderr
    assert path.read_bytes() == before


def test_a_float_current_major_is_major_1_and_written_as_1(runner, repo):
    path = _place(repo, _example("valid/minimal-empty.json"))
    path.write_text(path.read_text(encoding="utf-8").replace('"schemaVersion": 1', '"schemaVersion": 1.0'),
                    encoding="utf-8")
    assert runner.invoke(cli, ["sidecar", "validate", str(path)]).exit_code == 0
    assert runner.invoke(cli, ["sidecar", "fmt", str(path)]).exit_code == 0
    assert path.read_text(encoding="utf-8").startswith('{\n  "schemaVersion": 1,\n')


@pytest.mark.parametrize("value", ["1.5", "0.0", "true", '"1"'])
def test_a_schema_version_that_is_no_integer_is_invalid(runner, tmp_path, value):
    path = tmp_path / "s.json"
    path.write_text(json.dumps(_example("valid/minimal-empty.json")).replace('"schemaVersion": 1',
                                                                             f'"schemaVersion": {value}'),
                    encoding="utf-8")
    result = runner.invoke(cli, ["sidecar", "validate", str(path)])
    assert result.exit_code == 1 and "/schemaVersion" in result.stdout


# --- the bytes on disk are what is validated after a rewrite ---------------------------------------

@pytest.fixture
def faulty_serializer(monkeypatch):
    """A serializer that loses the threads section: valid in memory, invalid on disk."""
    right = canonical.canonical_text

    def lossy(artifact):
        return right({key: value for key, value in artifact.items() if key != "threads"})

    monkeypatch.setattr(canonical, "canonical_text", lossy)


def _no_temporaries(directory: Path) -> bool:
    return not [path for path in directory.rglob("*.tmp")]


def test_reply_refuses_when_the_written_bytes_are_invalid(runner, repo, faulty_serializer):
    path = _place(repo, _example("valid/minimal-empty.json"))
    before = path.read_bytes()
    result = _reply(runner, repo, "--new-thread", "--anchor-text", "cache")
    assert result.exit_code == 1
    assert "the written bytes are not a valid sidecar" in result.stderr and "'threads' is a required" in result.stderr
    assert path.read_bytes() == before and _no_temporaries(repo)


def test_fmt_and_merge_refuse_when_the_written_bytes_are_invalid(runner, repo, faulty_serializer):
    path = _place(repo, _example("valid/full-featured.json"))
    before = path.read_bytes()
    result = runner.invoke(cli, ["sidecar", "fmt", str(path)])
    assert result.exit_code == 1 and "the written bytes are not a valid sidecar" in result.stderr
    assert path.read_bytes() == before
    output = repo / "merged.json"
    result = runner.invoke(cli, ["sidecar", "merge", str(path), str(path), "-o", str(output)])
    assert result.exit_code == 1 and "nothing was replaced" in result.stderr
    assert not output.exists() and _no_temporaries(repo)


# --- the document path is the sidecar key ----------------------------------------------------------

def test_validate_compares_document_path_with_the_location(runner, repo):
    right = _place(repo, _example("valid/minimal-empty.json"))  # document.path docs/spec.md
    wrong = _place(repo, _example("valid/minimal-empty.json"), ".threads/docs/other.md.json")
    misnamed = _place(repo, _example("valid/minimal-empty.json"), ".threads/docs/spec.md")
    elsewhere = _place(repo, _example("valid/minimal-empty.json"), "backup/spec.json")
    result = runner.invoke(cli, ["sidecar", "validate", str(right), str(wrong), str(misnamed), str(elsewhere)])
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert f"{right}: valid" in lines
    assert (f"{wrong}: error: /document/path: document.path is 'docs/spec.md', but the sidecar at "
            ".threads/docs/other.md.json describes 'docs/other.md': the document path is the sidecar key "
            "(move the file to .threads/docs/spec.md.json or correct document.path) [document-path-mismatch]"
            ) in lines
    assert any(line.startswith(f"{misnamed}: error:") and "is not named <document path>.json" in line
               for line in lines)
    assert (f"{elsewhere}: note: /document/path: the file is not under the .threads/ directory of a git work "
            "tree, so document.path 'docs/spec.md' was not compared with its location [location-not-checked]"
            ) in lines
    assert f"{elsewhere}: valid" in lines
    assert not any(line.startswith(f"{right}: note") for line in lines)


def test_writers_refuse_a_sidecar_at_the_wrong_location(runner, repo):
    wrong = _place(repo, _example("valid/full-featured.json"), ".threads/docs/other.md.json")
    before = wrong.read_bytes()
    result = runner.invoke(cli, ["sidecar", "fmt", str(wrong)])
    assert result.exit_code == 1 and "document.path is 'docs/spec.md'" in result.stderr
    assert wrong.read_bytes() == before
    result = _reply(runner, repo, "--new-thread", "--anchor-text", "cache", "--sidecar", str(wrong))
    assert result.exit_code == 1 and "the document path is the sidecar key" in result.stderr
    assert wrong.read_bytes() == before
    source = _place(repo, _example("valid/full-featured.json"), "incoming.json")
    target = repo / ".threads" / "docs" / "third.md.json"
    result = runner.invoke(cli, ["sidecar", "merge", str(source), str(source), "-o", str(target)])
    assert result.exit_code == 1 and "describes 'docs/third.md'" in result.stderr
    assert not target.exists()


def test_a_new_sidecar_under_the_root_gets_the_key_of_its_document(runner, repo):
    result = _reply(runner, repo, "--new-thread", "--anchor-text", "cache")
    assert result.exit_code == 0, result.output
    path = repo / ".threads" / "docs" / "spec.md.json"
    assert json.loads(path.read_text(encoding="utf-8"))["document"] == {"path": "docs/spec.md"}
    check = runner.invoke(cli, ["sidecar", "validate", str(path)])
    assert check.exit_code == 0 and check.stdout == f"{path}: valid\n"


# --- anchors no record refers to -------------------------------------------------------------------

def test_reply_prunes_unreferenced_anchors(runner, repo):
    path = _place(repo, _example("valid/unreferenced-anchor.json"))
    result = _reply(runner, repo, "--new-thread", "--anchor-text", "cache")
    assert result.exit_code == 0, result.output
    assert "(pruned anchors: a_scope)" in result.stdout
    data = json.loads(path.read_text(encoding="utf-8"))
    assert "a_scope" not in data["anchors"] and len(data["anchors"]) == 1


def test_merge_prunes_and_reports_unreferenced_anchors(runner, tmp_path, write_json):
    ours = write_json("ours.json", _example("valid/unreferenced-anchor.json"))
    theirs = write_json("theirs.json", _example("valid/minimal-empty.json"))
    result = runner.invoke(cli, ["sidecar", "merge", str(ours), str(theirs)])
    assert result.exit_code == 0
    assert json.loads(result.stdout)["anchors"] == {}
    assert "merged: anchor a_scope: no record refers to it, pruned" in result.stderr


def test_an_anchor_referenced_from_an_unknown_section_is_kept(runner, repo, write_json):
    data = _example("valid/unreferenced-anchor.json")
    data["x-reviews"] = [{"id": "r_1", "anchorId": "a_scope"}]
    path = _place(repo, data)
    assert _reply(runner, repo, "--new-thread", "--anchor-text", "cache").exit_code == 0
    assert "a_scope" in json.loads(path.read_text(encoding="utf-8"))["anchors"]
    merged = runner.invoke(cli, ["sidecar", "merge", str(path), str(path)])
    assert "a_scope" in json.loads(merged.stdout)["anchors"] and "pruned" not in merged.stderr
    other = write_json("other.json", data)
    result = runner.invoke(cli, ["sidecar", "fmt", "--prune-anchors", str(other)])
    assert result.exit_code == 0 and "pruned" not in result.stdout


# --- unknown values that cannot round-trip are refused when read -----------------------------------

UNREPRESENTABLE = [
    ("1e400", "beyond the range of an IEEE double"),
    ("-1E+400", "beyond the range of an IEEE double"),
    ("1e-400", "too small for an IEEE double"),
    ("1" + "0" * 400, "too large for an IEEE double"),
    ('"\\ud800"', "lone UTF-16 surrogate"),
    ('{"deep": ["x\\udc00y"]}', "lone UTF-16 surrogate"),
]


@pytest.mark.parametrize("value,reason", UNREPRESENTABLE)
def test_an_unknown_value_that_cannot_round_trip_is_refused_and_left_alone(runner, repo, value, reason):
    canonical_text_of_example = json.dumps(_example("valid/full-featured.json"), indent=2)
    text = canonical_text_of_example.replace('"schemaVersion": 1,', f'"schemaVersion": 1,\n  "x-value": {value},')
    path = repo / ".threads" / "docs" / "spec.md.json"
    path.parent.mkdir(parents=True)
    path.write_text(text, encoding="utf-8")
    before = path.read_bytes()
    other = repo / "other.json"
    other.write_text(canonical_text_of_example, encoding="utf-8")
    for arguments in (["validate", str(path)], ["fmt", str(path)], ["fmt", "--check", str(path)],
                      ["merge", str(other), str(path)], ["merge", str(other), str(path), "-o", str(repo / "out.json")],
                      ["merge-driver", str(other), str(other), str(path)]):
        result = runner.invoke(cli, ["sidecar", *arguments])
        assert result.exit_code == 2, (arguments, result.output)
        assert f"{path}:3:" in result.stderr and reason in result.stderr
    result = _reply(runner, repo, "--new-thread", "--anchor-text", "cache")
    assert result.exit_code == 2 and reason in result.stderr
    assert path.read_bytes() == before
    assert other.read_text(encoding="utf-8") == canonical_text_of_example
    assert not (repo / "out.json").exists()
