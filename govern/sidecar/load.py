"""Reading sidecars from disk, the gate every writing path passes through, and the one way to write."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from govern.errors import InputError, Problem, Refusal
from govern.fsio import atomic_write_bytes, parse_json, read_text
from govern.sidecar.canonical import canonical_bytes
from govern.sidecar.contract import FORMAT_MAJOR
from govern.sidecar.location import location_findings
from govern.sidecar.validate import Report, validate_artifact


@dataclass(frozen=True)
class Sidecar:
    path: Path
    data: Any
    report: Report


def check_sidecar(data: Any, location: Path) -> Report:
    """The contract's rules for `data` as the content of the file at `location`."""
    report = validate_artifact(data)
    return Report(report.findings + location_findings(data, location), report.major)


def load_sidecar(path: Path | str, *, location: Path | None = None) -> Sidecar:
    """Read and validate; unreadable input (missing, a directory, not UTF-8, not JSON) is an InputError.

    `location` is where the content belongs when it is read from elsewhere (a file about to replace it).
    """
    path = Path(path)
    data = parse_json(read_text(path), str(path))
    return Sidecar(path, data, check_sidecar(data, location or path))


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


def write_sidecar(path: Path, artifact: dict[str, Any]) -> bytes:
    """Write `artifact` canonically and atomically, checking the bytes on disk before they replace `path`.

    The contract asks writers to validate again after the rewrite. What is validated is what was written,
    read back from the disk: a serialization fault (or a disk that stores something else) is refused
    before it replaces the file, rather than found by the next reader.
    """
    content = canonical_bytes(artifact)

    def check_written(written: Path) -> None:
        if written.read_bytes() != content:
            raise Refusal(Problem(str(path), "the bytes read back differ from those written; nothing was replaced",
                                  hint="check the file system, then run the command again"))
        try:
            reread = load_sidecar(written, location=path)
        except InputError as error:
            raise Refusal([Problem(str(path), f"the written bytes cannot be read back ({problem.reason}); "
                                   "nothing was replaced") for problem in error.problems]) from None
        problems = [Problem(str(path), f"the written bytes are not a valid sidecar: {finding.message} "
                            f"(at {finding.pointer or '/'}); nothing was replaced")
                    for finding in reread.report.errors]
        if not problems and reread.report.newer_major:
            problems.append(Problem(str(path), f"the written bytes declare schemaVersion {reread.report.major}, "
                                    f"newer than {FORMAT_MAJOR}; nothing was replaced"))
        if not problems and canonical_bytes(reread.data) != content:
            problems.append(Problem(str(path), "the written bytes do not read back to the same canonical form; "
                                    "nothing was replaced"))
        if problems:
            raise Refusal(problems)

    atomic_write_bytes(path, content, verify=check_written)
    return content
