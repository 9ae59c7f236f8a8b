"""`govern sidecar reply`: the conforming writer, with a pinned clock and id source."""

from __future__ import annotations

import itertools
import json
from datetime import datetime, timezone
from pathlib import Path

import pytest

from govern.cli import cli
from govern.errors import Refusal
from govern.sidecar.canonical import canonical_bytes
from govern.sidecar.validate import validate_artifact
from govern.sidecar.writer import Author, Minting, ReplyRequest, reply

EXAMPLES = Path(__file__).resolve().parents[2] / "schemas" / "examples" / "sidecar"


def _pinned() -> Minting:
    counter = itertools.count(1)
    return Minting(now=lambda: datetime(2026, 6, 10, 9, 15, 0, 123456, tzinfo=timezone.utc),
                   new_uuid=lambda: f"00000000-0000-4000-8000-{next(counter):012d}")


def test_new_thread_creates_the_sidecar_exactly(document, git_repo):
    outcome = reply(ReplyRequest(document=document, body="Which cache?", author=Author(id=""),
                                 anchor_text="The cache", near_line=3, minting=_pinned()))
    sidecar = git_repo / ".threads" / "docs" / "spec.md.json"
    assert outcome.sidecar == sidecar and outcome.created
    assert (outcome.thread_id, outcome.message_id) == ("t_00000000-0000-4000-8000-000000000002",
                                                       "m_00000000-0000-4000-8000-000000000003")
    expected = {
        "schemaVersion": 1, "document": {"path": "docs/spec.md"},
        "anchors": {"a_00000000-0000-4000-8000-000000000001": {"fingerprint": {
            "text": "The cache", "before": "\nThe cache keeps entries.\n", "after": " expires.\n", "lineHint": 3}}},
        "threads": [{"id": outcome.thread_id, "anchorId": "a_00000000-0000-4000-8000-000000000001",
                     "status": "open", "messages": [{
                         "id": outcome.message_id,
                         "author": {"kind": "human", "id": "Ana", "email": "ana@example.org"},
                         "body": "Which cache?", "createdAt": "2026-06-10T09:15:00.123Z"}]}],
        "attributions": [], "proposals": [],
    }
    assert sidecar.read_bytes() == canonical_bytes(expected)


def test_reply_appends_keeps_unknown_fields_and_stays_canonical(document, git_repo):
    sidecar = git_repo / ".threads" / "docs" / "spec.md.json"
    first = reply(ReplyRequest(document=document, body="Q", author=Author(id="ana"), anchor_text="keeps",
                               minting=_pinned()))
    data = json.loads(sidecar.read_text(encoding="utf-8"))
    data["x-root"] = {"b": 1}
    data["threads"][0]["x-thread"] = [1]
    data["threads"][0]["messages"][0]["author"]["x-author"] = "kept"
    sidecar.write_text(json.dumps(data), encoding="utf-8")
    agent = Author(id="claude", email="bot@example.org", agent_sdk="sdk", agent_model="model",
                   on_behalf_of="ana", on_behalf_of_email="ana@example.org")
    second = reply(ReplyRequest(document=document, body="A", author=agent, thread_id=first.thread_id,
                                minting=_pinned()))
    assert not second.created
    result = json.loads(sidecar.read_text(encoding="utf-8"))
    assert result["x-root"] == {"b": 1} and result["threads"][0]["x-thread"] == [1]
    assert result["threads"][0]["messages"][0]["author"]["x-author"] == "kept"
    assert result["threads"][0]["messages"][1]["author"] == {
        "kind": "agent", "id": "claude", "email": "bot@example.org",
        "agent": {"sdk": "sdk", "model": "model", "sessionId": "",
                  "onBehalfOf": {"id": "ana", "email": "ana@example.org"}}}
    assert validate_artifact(result).findings == ()
    assert sidecar.read_bytes() == canonical_bytes(result)


def test_unknown_thread_is_refused(document, git_repo):
    reply(ReplyRequest(document=document, body="Q", author=Author(id="ana"), anchor_text="keeps", minting=_pinned()))
    sidecar = git_repo / ".threads" / "docs" / "spec.md.json"
    before = sidecar.read_bytes()
    with pytest.raises(Refusal, match="no thread has id 't_nope'"):
        reply(ReplyRequest(document=document, body="A", author=Author(id="ana"), thread_id="t_nope"))
    assert sidecar.read_bytes() == before


def _invoke(runner, document, *arguments):
    return runner.invoke(cli, ["sidecar", "reply", str(document), *arguments])


def test_cli_new_thread_then_reply(runner, document, git_repo):
    result = _invoke(runner, document, "--new-thread", "--anchor-text", "expires", "--body", "Hi")
    assert result.exit_code == 0, result.output
    sidecar = git_repo / ".threads" / "docs" / "spec.md.json"
    data = json.loads(sidecar.read_text(encoding="utf-8"))
    thread = data["threads"][0]
    assert thread["id"].startswith("t_") and thread["messages"][0]["id"].startswith("m_")
    assert f"{sidecar}: created; message {thread['messages'][0]['id']} in thread {thread['id']}" in result.stdout
    result = _invoke(runner, document, "--thread", thread["id"], "--body", "Reply", "--author-id", "bo",
                     "--agent-sdk", "sdk", "--agent-model", "m", "--agent-session", "s1", "--on-behalf-of", "ana")
    assert result.exit_code == 0, result.output
    message = json.loads(sidecar.read_text(encoding="utf-8"))["threads"][0]["messages"][1]
    assert message["author"] == {"kind": "agent", "id": "bo",
                                 "agent": {"sdk": "sdk", "model": "m", "sessionId": "s1", "onBehalfOf": {"id": "ana"}}}
    assert len(message["createdAt"]) == 24 and message["createdAt"].endswith("Z")


def test_cli_explicit_sidecar_path(runner, document, tmp_path):
    target = tmp_path / "elsewhere.json"
    result = _invoke(runner, document, "--new-thread", "--anchor-text", "Spec", "--body", "x", "--sidecar", str(target))
    assert result.exit_code == 0, result.output
    assert json.loads(target.read_text(encoding="utf-8"))["document"] == {"path": "docs/spec.md"}


@pytest.mark.parametrize("arguments,message", [
    (["--body", "x"], "give exactly one of --thread ID and --new-thread"),
    (["--thread", "t", "--new-thread", "--anchor-text", "a", "--body", "x"], "give exactly one"),
    (["--new-thread", "--body", "x"], "--new-thread needs --anchor-text"),
    (["--thread", "t", "--anchor-text", "a", "--body", "x"], "only apply with --new-thread"),
    (["--new-thread", "--anchor-text", "a", "--body", "x", "--on-behalf-of", "ana"], "operator of an agent"),
    (["--new-thread", "--anchor-text", "a", "--body", "x", "--agent-sdk", "s", "--author-id", "b"],
     "needs both --agent-sdk and --agent-model"),
    (["--new-thread", "--anchor-text", "a", "--body", "x", "--agent-sdk", "s", "--agent-model", "m"],
     "no author id is known"),
])
def test_cli_usage_errors_exit_2_and_write_nothing(runner, document, git_repo, arguments, message):
    result = _invoke(runner, document, *arguments)
    assert result.exit_code == 2
    assert message in result.output
    assert not (git_repo / ".threads").exists()


def _install(git_repo: Path, name: str) -> Path:
    sidecar = git_repo / ".threads" / "docs" / "spec.md.json"
    sidecar.parent.mkdir(parents=True, exist_ok=True)
    sidecar.write_bytes((EXAMPLES / name).read_bytes())
    return sidecar


@pytest.mark.parametrize("name,arguments,code,message", [
    ("valid/newer-schemaversion.json", ["--new-thread", "--anchor-text", "cache", "--body", "x"], 1,
     "schemaVersion 2 is newer than the implemented major 1"),
    ("valid/newer-schemaversion.json", ["--thread", "t_1", "--body", "x"], 1, "is newer"),
    ("invalid/status-unknown.json", ["--new-thread", "--anchor-text", "cache", "--body", "x"], 1,
     "is not a valid sidecar, refusing to write it"),
    ("valid/minimal-empty.json", ["--new-thread", "--anchor-text", "absent text", "--body", "x"], 1,
     "the text does not occur in the document"),
    ("valid/minimal-empty.json", ["--thread", "t_nope", "--body", "x"], 1, "no thread has id 't_nope'"),
])
def test_cli_refusals_leave_the_sidecar_untouched(runner, document, git_repo, name, arguments, code, message):
    sidecar = _install(git_repo, name)
    before = sidecar.read_bytes()
    result = _invoke(runner, document, *arguments, "--author-id", "ana")
    assert result.exit_code == code
    assert message in result.stderr
    assert sidecar.read_bytes() == before


@pytest.mark.parametrize("case", ["invalid-json", "directory"])
def test_cli_unreadable_sidecar_exits_2(runner, document, git_repo, case):
    sidecar = git_repo / ".threads" / "docs" / "spec.md.json"
    sidecar.parent.mkdir(parents=True)
    if case == "directory":
        sidecar.mkdir()
    else:
        sidecar.write_text("{", encoding="utf-8")
    result = _invoke(runner, document, "--new-thread", "--anchor-text", "cache", "--body", "x")
    assert result.exit_code == 2 and str(sidecar) in result.stderr
    if case == "invalid-json":
        assert sidecar.read_text(encoding="utf-8") == "{"


def test_cli_missing_document_or_sidecar_exits_2(runner, document, git_repo):
    result = _invoke(runner, git_repo / "nope.md", "--new-thread", "--anchor-text", "a", "--body", "x")
    assert result.exit_code == 2 and "does not exist" in result.stderr
    result = _invoke(runner, document, "--thread", "t_1", "--body", "x")
    assert result.exit_code == 2 and "holds no thread to reply to" in result.stderr
    assert not (git_repo / ".threads").exists()
