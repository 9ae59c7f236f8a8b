"""`govern sidecar ...`: validate, format, merge and append to coauthoring sidecars.

Thin by design: options are parsed here, the work is done by `govern.sidecar`, and this module only
renders results and picks exit codes (0 clean, 1 invalid or refused, 2 unreadable input or usage).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from govern.cli._common import reports_errors
from govern.report.render import one_line
from govern.errors import EXIT_CLEAN, EXIT_FINDINGS, EXIT_INPUT, GovernError

_FILE = click.Path(path_type=Path, dir_okay=True, exists=False)


def _echo_problems(error: GovernError) -> None:
    for problem in error.problems:
        click.echo(f"error: {one_line(problem.render())}", err=True)


@click.group("sidecar")
def sidecar() -> None:
    """Validate, format, merge and append to coauthoring sidecars (.threads/<document>.json)."""


@sidecar.command("validate")
@click.argument("files", nargs=-1, required=True, type=_FILE)
@click.option("--format", "output_format", type=click.Choice(["text", "json"]), default="text", show_default=True)
def validate(files: tuple[Path, ...], output_format: str) -> None:
    """Check sidecars against the schema and the contract's rules.

    A sidecar of a newer major is validated for what this version understands and reported with a
    warning; it is valid but read-only. Exit 0 when every file is valid, 1 when one is invalid, 2 when
    one cannot be read.
    """
    from govern.errors import InputError
    from govern.sidecar.load import load_sidecar

    exit_code, rows = EXIT_CLEAN, []
    for path in files:
        try:
            loaded = load_sidecar(path)
        except InputError as error:
            exit_code = EXIT_INPUT
            rows.append({"path": str(path), "readable": False, "valid": False,
                         "errors": [problem.render() for problem in error.problems], "findings": []})
            if output_format == "text":
                _echo_problems(error)
            continue
        report = loaded.report
        if not report.valid:
            exit_code = max(exit_code, EXIT_FINDINGS)
        rows.append({"path": str(path), "readable": True, "valid": report.valid, "schemaVersion": report.major,
                     "findings": [{"id": f.id, "severity": f.severity, "pointer": f.pointer, "message": f.message}
                                  for f in report.findings]})
        if output_format == "text":
            for finding in report.findings:
                click.echo(one_line(f"{path}: {finding.severity}: {finding.pointer or '/'}: {finding.message} "
                                    f"[{finding.id}]"))
            if report.valid:
                click.echo(one_line(f"{path}: valid" + (" (read-only: newer major)" if report.newer_major else "")))
    if output_format == "json":
        click.echo(json.dumps({"files": rows}, indent=2, ensure_ascii=False))
    sys.exit(exit_code)


@sidecar.command("fmt")
@click.argument("files", nargs=-1, required=True, type=_FILE)
@click.option("--check", is_flag=True, help="Write nothing; exit 1 naming the files that are not canonical.")
@click.option("--prune-anchors", is_flag=True, help="Also remove anchors that no record refers to.")
def fmt(files: tuple[Path, ...], check: bool, prune_anchors: bool) -> None:
    """Rewrite sidecars in the canonical, byte-deterministic form.

    Invalid sidecars and sidecars of a newer major are refused and left untouched: fmt never repairs.
    """
    from govern.sidecar.fmt import format_artifact
    from govern.sidecar.load import load_sidecar, require_writable, write_sidecar

    exit_code = EXIT_CLEAN
    for path in files:
        try:
            loaded = load_sidecar(path)
            require_writable(loaded, "format")
            result = format_artifact(loaded.data, path.read_bytes(), prune=prune_anchors)
        except GovernError as error:
            _echo_problems(error)
            exit_code = max(exit_code, error.exit_code)
            continue
        pruned = f" (pruned anchors: {', '.join(result.pruned)})" if result.pruned else ""
        if not result.changed:
            continue
        if check:
            click.echo(one_line(f"{path}: not canonical, run `govern sidecar fmt {path}`{pruned}"))
            exit_code = max(exit_code, EXIT_FINDINGS)
        else:
            try:
                write_sidecar(path, result.artifact)
            except GovernError as error:
                _echo_problems(error)
                exit_code = max(exit_code, error.exit_code)
                continue
            click.echo(one_line(f"{path}: formatted{pruned}"))
    sys.exit(exit_code)


def _report_divergences(result) -> None:
    for divergence in result.divergences:
        click.echo(one_line(f"merged: {divergence.describe()}"), err=True)
    for anchor_id in result.pruned:
        click.echo(one_line(f"merged: anchor {anchor_id}: no record refers to it, pruned"), err=True)


@sidecar.command("merge")
@click.argument("ours", type=_FILE)
@click.argument("theirs", type=_FILE)
@click.option("-o", "--output", type=click.Path(path_type=Path, dir_okay=False), default=None,
              help="Write the result here (atomically) instead of to standard output.")
@reports_errors
def merge(ours: Path, theirs: Path, output: Path | None) -> None:
    """Merge two sidecars by the contract's deterministic two-way rules.

    Every divergence a rule decided, and every anchor pruned because no record of the result refers to
    it, is listed on standard error. Differing majors, a newer major and invalid input are refused
    (exit 1) and nothing is written.
    """
    from govern.sidecar.canonical import canonical_bytes
    from govern.sidecar.load import write_sidecar
    from govern.sidecar.merge import merge_files

    result = merge_files(ours, theirs)
    if output is None:
        content = canonical_bytes(result.merged)
        _report_divergences(result)
        click.echo(content.decode("utf-8"), nl=False)
    else:
        write_sidecar(output, result.merged)
        _report_divergences(result)


@sidecar.command("merge-driver")
@click.argument("base", type=_FILE)
@click.argument("ours", type=_FILE)
@click.argument("theirs", type=_FILE)
@click.argument("name", required=False, default=None)
@reports_errors
def merge_driver(base: Path, ours: Path, theirs: Path, name: str | None) -> None:
    """Git merge driver: merge %A and %B into %A (%O, the ancestor, is not needed by a two-way merge).

    NAME (git's %P) is the sidecar's path in the repository: messages name it instead of git's temporary
    files. Install with `govern sidecar merge-driver %O %A %B %P`.

    Exit 0 when merged; non-zero, with %A untouched, when the sides cannot be merged, so git reports
    a conflict. Install: see docs/sidecar.md.
    """
    from govern.sidecar.load import write_sidecar
    from govern.sidecar.merge import merge_files

    try:
        result = merge_files(ours, theirs)
    except GovernError as error:
        if name is None:
            raise
        raise type(error)([_named(problem, {str(ours): f"{name} (ours)", str(theirs): f"{name} (theirs)"})
                           for problem in error.problems]) from None
    write_sidecar(ours, result.merged)
    _report_divergences(result)


def _named(problem, names: dict[str, str]):
    """A problem about one of git's temporary files, told in terms of the file being merged."""
    from dataclasses import replace

    reason = problem.reason
    for temporary, shown in names.items():
        reason = reason.replace(temporary, shown)
    return replace(problem, path=names.get(problem.path, problem.path), reason=reason)


@sidecar.command("reply")
@click.argument("document", type=click.Path(path_type=Path, dir_okay=False))
@click.option("--thread", "thread_id", default=None, help="Id of the thread to reply to.")
@click.option("--new-thread", is_flag=True, help="Start a new thread on --anchor-text.")
@click.option("--anchor-text", default=None, help="Exact document text the new thread is about.")
@click.option("--line", type=click.IntRange(min=1), default=None,
              help="With --new-thread: the 1-based line near which to anchor repeated text.")
@click.option("--body", required=True, help="The message, in Markdown.")
@click.option("--sidecar", "sidecar_path", type=click.Path(path_type=Path), default=None,
              help="Sidecar file (default: .threads/<repository-relative document path>.json).")
@click.option("--author-id", default=None, help="Author name (default: git config user.name).")
@click.option("--author-email", default=None, help="Author email (default: git config user.email).")
@click.option("--agent-sdk", default=None, help="Make the author an agent driven by this SDK.")
@click.option("--agent-model", default=None, help="The agent's model.")
@click.option("--agent-session", default=None, help="The agent's session id (default: empty).")
@click.option("--on-behalf-of", default=None, help="The human operator the agent acts for.")
@click.option("--on-behalf-of-email", default=None, help="The operator's email.")
@reports_errors
def reply(document: Path, thread_id: str | None, new_thread: bool, anchor_text: str | None, line: int | None,
          body: str, sidecar_path: Path | None, author_id: str | None, author_email: str | None,
          agent_sdk: str | None, agent_model: str | None, agent_session: str | None,
          on_behalf_of: str | None, on_behalf_of_email: str | None) -> None:
    """Append a message to a thread, or start a thread on anchored text, as a conforming writer.

    The sidecar is validated before and after (the bytes written, read back), anchors no record refers
    to are pruned, and the file is rewritten canonically and replaced atomically. A sidecar of a newer
    major, an invalid one and one not at the location its document.path names are refused (exit 1) and
    left untouched.
    """
    from govern.sidecar.writer import Author, ReplyRequest, reply as write_reply

    texts = {"--body": body, "--anchor-text": anchor_text, "--thread": thread_id, "--author-id": author_id,
             "--author-email": author_email, "--agent-sdk": agent_sdk, "--agent-model": agent_model,
             "--agent-session": agent_session, "--on-behalf-of": on_behalf_of,
             "--on-behalf-of-email": on_behalf_of_email}
    for option, value in texts.items():
        # Bytes that are not UTF-8 arrive as lone surrogates, which no sidecar can hold.
        if value is not None and any("\ud800" <= char <= "\udfff" for char in value):
            raise click.BadParameter("is not valid UTF-8 text (it holds a lone surrogate)", param_hint=option)
    if (thread_id is None) == (not new_thread):
        raise click.UsageError("give exactly one of --thread ID and --new-thread")
    if new_thread and anchor_text is None:
        raise click.UsageError("--new-thread needs --anchor-text")
    if not new_thread and (anchor_text is not None or line is not None):
        raise click.UsageError("--anchor-text and --line only apply with --new-thread")
    author = Author(id=author_id or "", email=author_email, agent_sdk=agent_sdk, agent_model=agent_model,
                    agent_session=agent_session, on_behalf_of=on_behalf_of,
                    on_behalf_of_email=on_behalf_of_email)
    outcome = write_reply(ReplyRequest(document=document, body=body, author=author, thread_id=thread_id,
                                       anchor_text=anchor_text, near_line=None if line is None else line - 1,
                                       sidecar=sidecar_path))
    verb = "created" if outcome.created else "updated"
    pruned = f" (pruned anchors: {', '.join(outcome.pruned)})" if outcome.pruned else ""
    click.echo(one_line(f"{outcome.sidecar}: {verb}; message {outcome.message_id} in thread "
                        f"{outcome.thread_id}{pruned}"))


@sidecar.command("codegen")
@click.option("--check", is_flag=True, help="Write nothing; exit 1 naming generated files that are stale.")
@reports_errors
def codegen(check: bool) -> None:
    """Regenerate the typed models (and the embedded schema copy) from the sidecar JSON Schema."""
    from govern.sidecar import codegen as generation

    if check:
        stale = generation.stale_files()
        for path in stale:
            click.echo(f"{path}: stale, run `govern sidecar codegen`", err=True)
        sys.exit(EXIT_FINDINGS if stale else EXIT_CLEAN)
    for path in generation.write():
        click.echo(f"{path}: regenerated")
