from __future__ import annotations

import sys
from pathlib import Path

import click

from govern.cli._common import load_project, project_option, reports_errors


@click.command()
@click.option("--tags", "pattern", default="*", show_default=True,
              help="git tag pattern (fnmatch, as `git tag --list`); alpha and RC tags included.")
@project_option
@reports_errors
def archive(pattern: str, project: Path | None) -> None:
    """Write the prerelease archive: type differences between consecutive tags, into records/archive/.

    Each tag's sources are read from git's object store (no checkout) and compared with the previous readable
    tag. The archive is for historical reading: `govern verify` checks its format and never counts it as
    an acknowledgement. A tag whose sources cannot be read is reported and skipped.
    """
    from govern.catalog.archive import archive_files, archive_steps
    from govern.extract import GeneratedFile, write_files

    config = load_project(project)
    terminal = sys.stderr.isatty()

    def progress(index: int, total: int, tag: str) -> None:
        if terminal:
            click.echo(f"\r[{index}/{total}] {tag}\033[K", err=True, nl=index == total)

    steps, skipped = archive_steps(config, pattern, progress)
    for entry in skipped:
        click.echo(f"skipped {entry.tag}: {entry.reason}", err=True)
    files = [GeneratedFile.of_text(path, text) for path, text in sorted(archive_files(config, steps).items())]
    for generated in write_files(files):
        click.echo(f"wrote {generated.path.relative_to(config.project_root).as_posix()}")
