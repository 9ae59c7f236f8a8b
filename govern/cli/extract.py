from __future__ import annotations

import sys
from pathlib import Path

import click

from govern.cli._common import load_project, project_option, reports_errors


@click.command()
@click.option("--check", is_flag=True, help="Write nothing; exit 1 naming each generated file that is stale.")
@project_option
@reports_errors
def extract(check: bool, project: Path | None) -> None:
    """Write schemas/inventory.json, the catalog pair and the format references.

    Reads every source configured in [tool.govern] of pyproject.toml and the record history: the catalog
    (catalog.md, catalog.zh.md) lists each root's records, and schemas/formats/ holds a complete schema
    per source and format version (what `govern formats` writes). With --check (for CI), nothing is
    written and the exit code says whether the generated files are current.
    """
    from govern.extract import current_inventory, generated_files
    from govern.process import keep_until_exit, keeping_until_exit

    config = load_project(project)

    def make_files():
        files = generated_files(config, current_inventory(config))
        keep_until_exit(files)  # (the inventory, the graphs and what was written of them)
        return files

    # Each source is read once, and what is made of it is held to the end: left to the process's end (see
    # govern.process.keep_until_exit).
    with keeping_until_exit():
        status = write_generated(config, make_files, check)
    sys.exit(status)


def write_generated(config, make_files, check: bool) -> int:
    """Write (or with `check`, name) the stale and obsolete generated files. Returns the exit code.

    `make_files` computes them; when writing, it runs under the project lock after an interrupted write
    was finished, so the files reflect the history as it is written."""
    from govern.extract import clean_interrupted_writes, obsolete_files, stale_files, write_files
    from govern.fsio import project_lock

    relative = lambda path: path.relative_to(config.project_root).as_posix()  # noqa: E731
    if check:
        files = make_files()
        obsolete = obsolete_files(config, files)
        stale = [generated.path for generated in stale_files(files)] + obsolete
        for path in stale:
            click.echo(f"stale: {relative(path)} (run `govern extract` to regenerate it)", err=True)
        return 1 if stale else 0
    with project_lock(config.project_root):
        clean_interrupted_writes(config)
        files = make_files()
        obsolete = obsolete_files(config, files)
        written = write_files(files, obsolete)
    for generated in written:
        click.echo(f"wrote {relative(generated.path)}")
    for path in obsolete:
        click.echo(f"removed {relative(path)}")
    return 0
