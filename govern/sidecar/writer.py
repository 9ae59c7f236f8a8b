"""A conforming foreign writer: append a reply to a thread, or start a thread on new anchored text.

It follows the contract's checklist: validate before and after (the bytes written, read back), refuse
newer majors, invalid files and a `document.path` that is not the sidecar's key, keep unknown fields,
mint fresh uuid-based ids, stamp UTC timestamps with milliseconds, carry the author's identity,
serialize canonically and replace the file atomically. It owns its rewrite, so it prunes the anchors no
record refers to (contract §3.1). Clock and id source
are parameters so that tests can pin them.
"""

from __future__ import annotations

import copy
import dataclasses
import uuid
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable

from govern.errors import InputError, Problem, Refusal
from govern.fsio import read_text
from govern.sidecar.anchor import build_fingerprint, locate_text
from govern.sidecar.contract import ANCHOR_PREFIX, FORMAT_MAJOR, MESSAGE_PREFIX, RECORD_SECTIONS
from govern.sidecar.fmt import prune_anchors
from govern.sidecar.load import Sidecar, check_sidecar, load_sidecar, require_writable, write_sidecar
from govern.sidecar.location import document_key, find_repo_root, git, sidecar_path_for
from govern.sidecar.timestamps import format_instant


def _utc_now() -> datetime:
    return datetime.now(timezone.utc)


def _uuid4() -> str:
    return str(uuid.uuid4())


@dataclass(frozen=True)
class Minting:
    """Where new timestamps and ids come from."""

    now: Callable[[], datetime] = _utc_now
    new_uuid: Callable[[], str] = _uuid4

    def stamp(self) -> str:
        return format_instant(self.now())

    def mint(self, prefix: str) -> str:
        return prefix + self.new_uuid()


@dataclass(frozen=True)
class Author:
    id: str
    email: str | None = None
    agent_sdk: str | None = None
    agent_model: str | None = None
    agent_session: str | None = None
    on_behalf_of: str | None = None
    on_behalf_of_email: str | None = None

    @property
    def is_agent(self) -> bool:
        return any(value is not None for value in (self.agent_sdk, self.agent_model, self.agent_session))

    def provenance(self) -> dict[str, Any]:
        record: dict[str, Any] = {"kind": "agent" if self.is_agent else "human", "id": self.id}
        # Absent, never null: the contract omits what is unknown.
        if self.email:
            record["email"] = self.email
        if self.is_agent:
            agent: dict[str, Any] = {"sdk": self.agent_sdk or "", "model": self.agent_model or "",
                                     "sessionId": self.agent_session or ""}
            if self.on_behalf_of:
                agent["onBehalfOf"] = {"id": self.on_behalf_of}
                if self.on_behalf_of_email:
                    agent["onBehalfOf"]["email"] = self.on_behalf_of_email
            record["agent"] = agent
        return record


def check_author(author: Author) -> None:
    """An agent must name its sdk and model; an operator exists only for agents."""
    problems = []
    if not author.id:
        problems.append(Problem("author", "no author id is known",
                                hint="pass --author-id or set `git config user.name`"))
    if author.is_agent and not (author.agent_sdk and author.agent_model):
        problems.append(Problem("author", "an agent author needs both --agent-sdk and --agent-model"))
    if (author.on_behalf_of or author.on_behalf_of_email) and not author.is_agent:
        problems.append(Problem("author", "--on-behalf-of describes the operator of an agent",
                                hint="also pass --agent-sdk and --agent-model"))
    if author.on_behalf_of_email and not author.on_behalf_of:
        problems.append(Problem("author", "--on-behalf-of-email needs --on-behalf-of"))
    if problems:
        raise InputError(problems)


def git_identity(directory: Path) -> tuple[str | None, str | None]:
    return git(directory, "config", "user.name"), git(directory, "config", "user.email")


def empty_sidecar(key: str) -> dict[str, Any]:
    return {"schemaVersion": FORMAT_MAJOR, "document": {"path": key}, "anchors": {}, "threads": [],
            "attributions": [], "proposals": []}


def append_reply(artifact: dict[str, Any], thread_id: str, body: str, author: Author,
                 minting: Minting) -> tuple[dict[str, Any], str]:
    """A copy of `artifact` with a new message at the end of thread `thread_id`, and the message id."""
    result = copy.deepcopy(artifact)
    for thread in result["threads"]:
        if thread["id"] == thread_id:
            message_id = minting.mint(MESSAGE_PREFIX)
            thread["messages"].append(
                {"id": message_id, "author": author.provenance(), "body": body, "createdAt": minting.stamp()})
            return result, message_id
    known = ", ".join(thread["id"] for thread in result["threads"]) or "none"
    raise Refusal(Problem("--thread", f"no thread has id {thread_id!r} (threads: {known})",
                          hint="use an existing thread id, or --new-thread to start one"))


def start_thread(artifact: dict[str, Any], document_text: str, anchor_text: str, body: str, author: Author,
                 minting: Minting, near_line: int | None = None) -> tuple[dict[str, Any], str, str]:
    """A copy with a new anchor and a new open thread on it; returns it with the thread and message ids."""
    offset = locate_text(document_text, anchor_text, near_line)
    if offset is None:
        raise Refusal(Problem("--anchor-text", "the text does not occur in the document",
                              hint="copy the exact text to anchor, including its case and spacing"))
    result = copy.deepcopy(artifact)
    anchor_id = minting.mint(ANCHOR_PREFIX)
    thread_id = minting.mint(RECORD_SECTIONS["threads"])
    message_id = minting.mint(MESSAGE_PREFIX)
    result["anchors"][anchor_id] = {"fingerprint": build_fingerprint(document_text, offset, len(anchor_text))}
    result["threads"].append({
        "id": thread_id, "anchorId": anchor_id, "status": "open",
        "messages": [{"id": message_id, "author": author.provenance(), "body": body, "createdAt": minting.stamp()}],
    })
    return result, thread_id, message_id


@dataclass(frozen=True)
class ReplyOutcome:
    sidecar: Path
    thread_id: str
    message_id: str
    created: bool
    """True when the sidecar did not exist before."""
    pruned: tuple[str, ...] = ()
    """Anchor ids dropped because no record refers to them."""


@dataclass(frozen=True)
class ReplyRequest:
    document: Path
    body: str
    author: Author
    thread_id: str | None = None
    anchor_text: str | None = None
    near_line: int | None = None
    sidecar: Path | None = None
    minting: Minting = field(default_factory=Minting)


def resolve_author(author: Author, directory: Path) -> Author:
    """Take a human author's identity from git's configuration when the caller named nobody.

    Only then: an explicit id with git's email could join two different people, and git's user is
    the operator of an agent, not the agent itself.
    """
    if author.id or author.is_agent:
        return author
    name, email = git_identity(directory)
    return dataclasses.replace(author, id=name or "", email=author.email or email)


def reply(request: ReplyRequest) -> ReplyOutcome:
    """Append a message (to a thread, or to a new thread on anchored text) and write the sidecar."""
    author = resolve_author(request.author, request.document.resolve().parent)
    check_author(author)
    document_text = read_text(request.document)
    repo_root = find_repo_root(request.document.resolve())
    if request.sidecar is None and repo_root is None:
        raise InputError(Problem(str(request.document), "is not inside a git repository",
                                 hint="pass --sidecar PATH to name the sidecar file"))
    key = document_key(request.document, repo_root)
    path = request.sidecar or sidecar_path_for(key, repo_root)  # type: ignore[arg-type]
    created = False
    if not path.exists():
        if request.thread_id is not None:
            raise InputError(Problem(str(path), "does not exist, so it holds no thread to reply to",
                                     hint="start a thread with --new-thread --anchor-text TEXT"))
        created, artifact = True, empty_sidecar(key)
    else:
        current = load_sidecar(path)
        require_writable(current, "write")
        artifact = current.data
    if request.thread_id is not None:
        updated, message_id = append_reply(artifact, request.thread_id, request.body, author, request.minting)
        thread_id = request.thread_id
    else:
        updated, thread_id, message_id = start_thread(artifact, document_text, request.anchor_text or "",
                                                      request.body, author, request.minting,
                                                      request.near_line)
    updated, pruned = prune_anchors(updated)
    # Validating the result before writing names the rule a fault of this writer broke; write_sidecar then
    # validates the bytes that reached the disk.
    require_writable(Sidecar(path, updated, check_sidecar(updated, path)), "write the updated")
    write_sidecar(path, updated)
    return ReplyOutcome(path, thread_id, message_id, created, pruned)
