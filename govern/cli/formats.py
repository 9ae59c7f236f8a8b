from __future__ import annotations

import sys
from pathlib import Path

import click

from govern.cli._common import load_project, project_option, reports_errors


@click.command()
@click.option("--check", is_flag=True, help="Write nothing; exit 1 naming each format reference that is stale.")
@click.option("--models", "models", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Also generate a pydantic reader per format reference into DIR (one module per source and "
                   "format; needs datamodel-code-generator, the `codegen` extra).")
@project_option
@reports_errors
def formats(check: bool, models: Path | None, project: Path | None) -> None:
    """Write the format references: schemas/formats/<source>-<version>.schema.json and their pages.

    For every source and every format version its records reach (the writer constant: an
    x-persistence-version property, or an OpenAPI info.version), the complete JSON Schema 2020-12 of all
    the source's roots as they stood at the last record of that format, built from the records'
    snapshots, with a Markdown page per format in each configured language and an index. `govern
    extract` writes them too, and `govern verify` reports them when stale.
    """
    from govern.cli.extract import write_generated
    from govern.extract import format_reference_files

    config = load_project(project)
    code = write_generated(config, lambda: format_reference_files(config), check)
    if models is not None and not check:
        from govern.catalog.readers import write_readers

        for path in write_readers(config, models if models.is_absolute() else Path.cwd() / models):
            click.echo(f"wrote {path.as_posix()}")
    sys.exit(code)
