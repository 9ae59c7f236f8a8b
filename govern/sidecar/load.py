"""Reading sidecars from disk and the gate every writing path passes through."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from govern.errors import Problem, Refusal
from govern.fsio import parse_json, read_text
from govern.sidecar.contract import FORMAT_MAJOR
from govern.sidecar.validate import Report, validate_artifact


@dataclass(frozen=True)
class Sidecar:
    path: Path
    data: Any
    report: Report


def load_sidecar(path: Path | str) -> Sidecar:
    """Read and validate; unreadable input (missing, a directory, not UTF-8, not JSON) is an InputError."""
    path = Path(path)
    data = parse_json(read_text(path), str(path))
    return Sidecar(path, data, validate_artifact(data))


def require_writable(sidecar: Sidecar, action: str) -> None:
    """Refuse to rewrite what is invalid or of a newer major: a writer never repairs or downgrades."""
    if sidecar.report.newer_major:
        raise Refusal(Problem(
            str(sidecar.path),
            f"schemaVersion {sidecar.report.major} is newer than the implemented major {FORMAT_MAJOR}; "
            f"refusing to {action} a read-only sidecar, nothing was written",
            hint="upgrade govern to a release that implements this major",
        ))
    if not sidecar.report.valid:
        raise Refusal(refusal_problems(sidecar, action))


def refusal_problems(sidecar: Sidecar, action: str) -> list[Problem]:
    return [
        Problem(str(sidecar.path),
                f"is not a valid sidecar, refusing to {action} it: {finding.message} (at {finding.pointer or '/'})",
                hint="correct the file by hand; govern does not repair sidecars")
        for finding in sidecar.report.errors
    ]
