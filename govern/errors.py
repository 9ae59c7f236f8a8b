"""Typed errors raised by the library; the CLI turns them into messages and exit codes."""

from __future__ import annotations

from dataclasses import dataclass

EXIT_CLEAN = 0
EXIT_FINDINGS = 1
EXIT_INPUT = 2


@dataclass(frozen=True)
class Problem:
    """One reason an input could not be used: where it is and what to do about it."""

    path: str
    reason: str
    line: int | None = None
    hint: str | None = None
    column: int | None = None

    @property
    def where(self) -> str:
        if self.line is None:
            return self.path
        return f"{self.path}:{self.line}" if self.column is None else f"{self.path}:{self.line}:{self.column}"

    def render(self) -> str:
        where = self.where
        text = f"{where}: {self.reason}"
        if self.hint:
            text += f" ({self.hint})"
        return text


class GovernError(Exception):
    """Base of every error the library raises on purpose."""

    exit_code = EXIT_INPUT

    def __init__(self, problems: list[Problem] | Problem):
        self.problems = [problems] if isinstance(problems, Problem) else list(problems)
        super().__init__("; ".join(p.render() for p in self.problems))


class InputError(GovernError):
    """A file cannot be read, parsed or resolved."""


class ConfigError(GovernError):
    """The `[tool.govern]` configuration is wrong; the problem names the key."""


class Refusal(GovernError):
    """A command was asked to do something its rules forbid; nothing was written."""

    exit_code = EXIT_FINDINGS
