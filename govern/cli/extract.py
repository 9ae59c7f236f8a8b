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
    """Write schemas/inventory.json and the catalog pair (catalog.md, catalog.zh.md).

    Reads every source configured in [tool.govern] of pyproject.toml. With --check (for CI), nothing is
    written and the exit code says whether the generated files are current.
    """
    from govern.extract import current_inventory, generated_files, stale_files, write_files

    config = load_project(project)
    files = generated_files(config, current_inventory(config))
    if check:
        stale = stale_files(files)
        for generated in stale:
            click.echo(f"stale: {generated.path.relative_to(config.project_root).as_posix()} "
                       "(run `govern extract` to regenerate it)", err=True)
        sys.exit(1 if stale else 0)
    for generated in write_files(files):
        click.echo(f"wrote {generated.path.relative_to(config.project_root).as_posix()}")
