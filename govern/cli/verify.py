from __future__ import annotations

import sys
from pathlib import Path

import click

from govern.cli._common import load_project, project_option, reports_errors


@click.command()
@project_option
@reports_errors
def verify(project: Path | None) -> None:
    """Check the project against its configured sources (for CI).

    Checks that the generated files (schemas/inventory.json, schemas/catalog.md, schemas/catalog.zh.md)
    are current. Exit 0 when everything is consistent, 1 with findings, 2 when an input cannot be read.
    """
    from govern.extract import current_inventory, generated_files, stale_files

    config = load_project(project)
    stale = stale_files(generated_files(config, current_inventory(config)))
    for generated in stale:
        click.echo(f"{generated.path.relative_to(config.project_root).as_posix()}: generated-stale: the file does "
                   "not match the sources (run `govern extract`)")
    if stale:
        sys.exit(1)
    click.echo("verify: clean")
