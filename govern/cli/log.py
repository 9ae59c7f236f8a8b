from __future__ import annotations

import json
from pathlib import Path

import click

from govern.cli._common import load_project, project_option, reports_errors

FORMAT = click.option("--format", "output_format", type=click.Choice(["text", "json"]), default="text",
                      show_default=True, help="text for people; json for tools.")


def _version(value) -> str:
    return "-" if value is None else str(value)


def _line(entry, short: bool = False) -> str:
    after = "tombstone" if entry.after is None else (entry.after[:19] if short else entry.after)
    kind = " (baseline)" if entry.baseline else ""
    return (f"{entry.record}  {entry.decision}{kind}  mode {entry.mode}  format {_version(entry.format_before)} -> "
            f"{_version(entry.format_after)}  {after}")


@click.command("log")
@click.argument("root", required=False)
@FORMAT
@project_option
@reports_errors
def log(root: str | None, output_format: str, project: Path | None) -> None:
    """Print the history of ROOT (default: of every root), newest record first.

    Each line gives the record, its decision, the compatibility mode it was decided in, the format
    version transition and the digest after it
    (`tombstone` when the record removed the root). The chain followed is the one ending in the root's
    latest record, back through each predecessor to the baseline.
    """
    from govern.errors import InputError, Problem
    from govern.records.history import load_history
    from govern.records.log import root_log

    history = load_history(load_project(project))
    roots = [root] if root else sorted(history.by_root)
    if root and root not in history.by_root:
        known = ", ".join(sorted(history.by_root)) or "none yet"
        raise InputError(Problem(root, "is not a recorded root", hint=f"recorded roots: {known}"))
    logs = {name: root_log(history, name) for name in roots}
    if output_format == "json":
        document = {"roots": [{"root": name, "records": [entry.to_json() for entry in entries]}
                              for name, entries in logs.items()]}
        click.echo(json.dumps(document, indent=2, ensure_ascii=False))
        return
    blocks = ["\n".join([name, *(f"  {_line(entry)}" for entry in entries)]) for name, entries in logs.items()]
    click.echo("\n\n".join(blocks) if blocks else "no records yet")


@click.command("heads")
@FORMAT
@project_option
@reports_errors
def heads(output_format: str, project: Path | None) -> None:
    """Print the latest record of every recorded root: the head its next record will follow."""
    from govern.records.history import load_history
    from govern.records.log import heads as latest

    entries = latest(load_history(load_project(project)))
    if output_format == "json":
        click.echo(json.dumps({"heads": [entry.to_json() for entry in entries]}, indent=2, ensure_ascii=False))
        return
    width = max((len(entry.root) for entry in entries), default=0)
    click.echo("\n".join(f"{entry.root.ljust(width)}  {_line(entry, short=True)}" for entry in entries)
               if entries else "no records yet")
