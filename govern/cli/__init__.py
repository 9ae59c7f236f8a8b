"""The `govern` command line: a lazy click group over thin command modules.

Each subcommand lives in its own module and is imported only when invoked, so `govern --help` and
commands that read JSON Schema never import pydantic or other heavy dependencies.
"""

from __future__ import annotations

import importlib
import os
import sys

import click

from govern import __version__
from govern.process import own_the_collector, release_kept

# command name -> (module, attribute, one-line help shown by `govern --help` without importing it)
COMMANDS: dict[str, tuple[str, str, str]] = {
    "init": ("govern.cli.init", "init", "Set govern up in a repository for the schema files and models named."),
    "extract": ("govern.cli.extract", "extract", "Write the inventory and the catalog pair from the configured sources."),
    "digests": ("govern.cli.digests", "digests", "Print the digest of every root (configured, or of files given)."),
    "diff": ("govern.cli.diff", "diff", "Classify structural changes against the last record, or between two files."),
    "record": ("govern.cli.record", "record", "Create, refresh and sync dated bilingual change records."),
    "archive": ("govern.cli.archive", "archive", "Write the type differences between consecutive git tags (history only)."),
    "formats": ("govern.cli.formats", "formats", "Write a complete schema per source and format version from the records."),
    "log": ("govern.cli.log", "log", "Print a root's history: records, dates, decisions, format versions."),
    "heads": ("govern.cli.log", "heads", "Print the latest record of every root."),
    "merge-generated": ("govern.cli.merge_generated", "merge_generated",
                        "Git merge driver: regenerate inventory.json and the catalogs from the merged sources."),
    "verify": ("govern.cli.verify", "verify", "Check the whole record history against the current source (for CI)."),
    "sidecar": ("govern.cli.sidecar", "sidecar", "Validate, format, merge and append to coauthoring sidecars."),
}


class LazyGroup(click.Group):
    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(name for name, (module, _, _) in COMMANDS.items() if _module_exists(module))

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name not in COMMANDS:
            return None
        module_name, attribute, _ = COMMANDS[name]
        if not _module_exists(module_name):
            return None
        return getattr(importlib.import_module(module_name), attribute)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = [(name, COMMANDS[name][2]) for name in self.list_commands(ctx)]
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)


def _module_exists(module_name: str) -> bool:
    import importlib.util

    return importlib.util.find_spec(module_name) is not None


def _print_version(context: click.Context, _parameter: click.Parameter, value: bool) -> None:
    if not value or context.resilient_parsing:
        return
    from govern.compiled import summary

    click.echo(f"govern, version {__version__} ({summary()})")
    context.exit()


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--version", is_flag=True, expose_value=False, is_eager=True, callback=_print_version,
              help="Show the version, and how many of its modules run compiled, and exit.")
def cli() -> None:
    """Govern changes to persisted schemas.

    govern extracts the declared persisted types (JSON Schema, OpenAPI, pydantic models) into a
    fingerprinted inventory, classifies every change as same-version or version-bump, records
    acknowledged changes as dated bilingual change records, and verifies the history in CI.

    Configuration lives in [tool.govern] of pyproject.toml, or in govern.toml (`govern init` writes
    either). Exit codes: 0 clean, 1 findings or a refusal, 2 a usage or input error (the message names the file and what to do).
    """


def main() -> None:
    """One command, as click runs it: ends by raising SystemExit with the exit code."""
    own_the_collector()  # the process is govern's: see govern/process.py
    release_kept()  # (what a command run before in this process kept)
    try:
        cli(prog_name="govern")
    except KeyboardInterrupt:  # pragma: no cover - interactive only
        sys.exit(130)


def run() -> None:
    """The `govern` program (the console script): `main`, then the process ends at once.

    What a command kept for the end (govern.process.keep_until_exit), and whatever else is left, goes back to the
    operating system with the process: interpreter shutdown would free it object by object, which after reading
    a large source costs more than the rest of the ending (about 5% of `govern extract` of 10,000 types). Before the
    process ends, what shutdown does besides is done, in the interpreter's order: a `sys.exit` message after the
    output written before it, waiting for threads that are not daemons, the exit handlers (the standard
    library's: temporary files, logging), flushing the output. An output whose reader went away
    (`govern log | head`) loses what is left of it quietly and the status stays the command's own, as with the
    reports (see govern.cli._common.echo_pieces); one that cannot be written otherwise (a full disk) is named and
    ends with status 120, as the interpreter ends. Ctrl-C during these steps ends the process at once (130).

    `python -m govern` runs `main` and ends as any Python program does: a profiler or another program hosting
    the module outlives it."""
    try:
        main()
        status = 0
    except SystemExit as stop:
        status = _exit_status(stop.code)
    import atexit
    import threading

    try:
        shutdown = getattr(threading, "_shutdown", None)  # (CPython's own step: joins non-daemon threads)
        if shutdown is not None:
            shutdown()
        atexit._run_exitfuncs()
        for stream in (sys.stdout, sys.stderr):
            if stream is None or stream.closed:
                continue
            try:
                stream.flush()
            except BrokenPipeError:  # the reader went away
                pass
            except OSError as error:
                if stream is sys.stdout:
                    _write_error(f"govern: the output could not be written: {error}\n")
                status = 120
    except KeyboardInterrupt:
        status = 130
    os._exit(status)


def _exit_status(code) -> int:
    """The process status of `SystemExit(code)`, as the interpreter gives it: any other code is written to
    standard error (after what was written to standard output before it) and ends with status 1; an integer
    beyond the platform's `long` ends with 255."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code & 0xFF if -(1 << 63) <= code < (1 << 63) else 255
    try:
        if sys.stdout is not None and not sys.stdout.closed:
            sys.stdout.flush()
    except OSError:
        pass  # (named, if it stays unwritable, when the program ends)
    _write_error(f"{code}\n")
    return 1


def _write_error(text: str) -> None:
    try:
        sys.stderr.write(text)
        sys.stderr.flush()
    except (AttributeError, OSError, ValueError):  # no standard error left to say it on
        pass
