"""Helpers shared by the command modules: error rendering and configuration loading."""

from __future__ import annotations

import functools
import re
import sys
from pathlib import Path
from typing import Any, Callable, Iterable, TypeVar

import click

from govern.errors import GovernError

F = TypeVar("F", bound=Callable[..., Any])

from govern.config import DIALECT_NAMES, MODES  # noqa: E402,F401 - the option choices; a light module


def reports_errors(command: F) -> F:
    """Turn library errors into one message per problem on stderr and the error's exit code."""

    @functools.wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return command(*args, **kwargs)
        except GovernError as error:
            from govern.report.render import one_line, render_error

            machine = _machine_format(kwargs)
            if machine is not None:
                # CI uploads what it asked for: an input error is also a valid json, sarif or github document.
                click.echo(render_error(error.problems, machine, exit_code=error.exit_code,
                                        language=kwargs.get("language") or "en"), nl=False)
            for problem in error.problems:
                click.echo(f"error: {one_line(problem.render())}", err=True)
            sys.exit(error.exit_code)
        except MemoryError:
            # Every walk is bounded, but a machine may still have less memory than an input needs: say so, and
            # what to do, rather than end in a traceback. Nothing was written (writes happen at the end, whole).
            click.echo("error: govern ran out of memory on this input; run it where more memory is available, "
                       "or split the schema into smaller sources", err=True)
            sys.exit(2)

    return wrapper  # type: ignore[return-value]


def echo_pieces(pieces: Iterable[str], batch: int = 1 << 16) -> None:
    """Print text made a piece at a time (a report of any size), never held whole, and all or nothing: the
    pieces are spooled (in memory up to `SPOOLED_IN_MEMORY` bytes, then to a temporary file), and printed once
    the last is made, so a failure while making them leaves nothing on standard output but what the error
    handler writes there. A reader that stops reading (`| head`) ends the printing quietly: the command ends
    with its own exit status."""
    import tempfile

    from govern.fsio import batched

    with tempfile.SpooledTemporaryFile(max_size=SPOOLED_IN_MEMORY, mode="w+", encoding="utf-8",
                                       newline="") as spool:
        for text in batched(pieces, batch):
            spool.write(text)
        spool.seek(0)
        try:
            while text := spool.read(batch):
                click.echo(text, nl=False)
            sys.stdout.flush()
        except BrokenPipeError:
            _quiet_stdout()


# A report larger than this is spooled to a temporary file: the command's memory stays a few times its input.
SPOOLED_IN_MEMORY = 1 << 20


def _quiet_stdout() -> None:
    """After the reader of standard output went away: what is still buffered goes nowhere (not to an error at
    exit), as the standard library's documentation on SIGPIPE advises."""
    import os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # pragma: no cover - a standard output without a descriptor (tests)
        pass


def _machine_format(options: dict[str, Any]) -> str | None:
    """The machine-readable format a command was asked for with `--format json|sarif|github`, if any."""
    chosen = options.get("output_format")
    return chosen if chosen in ("json", "sarif", "github") else None


def project_option(command: F) -> F:
    return click.option(
        "--project",
        "project",
        type=click.Path(file_okay=False, path_type=Path),
        default=None,
        help="Project root holding pyproject.toml (default: the nearest one above the current directory).",
    )(command)


def load_project(project: Path | None):
    from govern.config import find_project_root, load_config

    root = find_project_root(project or Path.cwd())
    return load_config(root)


WITNESS_BUDGET = 200  # govern.witness.search.DEFAULT_BUDGET, without importing the search for every command


class WitnessBudget(click.ParamType):
    """A whole number of candidate documents, at least one. The budget was once milliseconds: a value with a
    time unit or a fraction is refused with what it is now."""

    name = "count"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> int:
        if isinstance(value, int):
            count = value
        else:
            text = str(value).strip()
            # ASCII digits with at most one sign: str.isdigit alone admits "²" and "+-5", which int() refuses
            if not re.fullmatch(r"[+-]?[0-9]+", text):
                self.fail(f"{value!r} is not a whole number: the budget counts candidate documents checked per "
                          f"change and direction (default {WITNESS_BUDGET}), not milliseconds; give a count such as 500",
                          param, ctx)
            count = int(text)
        if count < 1:
            self.fail(f"{value!r} is less than 1: give at least one candidate document per change", param, ctx)
        return count


def witness_options(command):
    """--witness and --witness-budget, shared by the commands that can show witness documents."""
    command = click.option("--witness-budget", "witness_budget", type=WitnessBudget(), default=WITNESS_BUDGET,
                           show_default=True, metavar="N",
                           help="Candidate documents checked per change and direction (and 1,000 validation "
                                "steps per candidate on each side) before its search reports `exhausted`: a count "
                                "of work, so the outcome is the same on any machine and under any load.")(command)
    return click.option("--witness", "witness", is_flag=True,
                        help="For each breaking change, show a document the writing side accepts and the reading "
                             "side rejects, confirmed with jsonschema; report same-version verdicts such a "
                             "document breaks (unsound-verdict, exit 1).")(command)
