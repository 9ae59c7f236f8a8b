from __future__ import annotations

from pathlib import Path

import click

from govern.cli._common import reports_errors


@click.command()
@click.argument("sources", nargs=-1, metavar="SOURCE...")
@click.option("--languages", default="en,zh", show_default=True, metavar="LIST",
              help="Comma-separated record languages, the source language first: `en` for English only.")
@click.option("--project", "project", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Project root (default: the current directory).")
@reports_errors
def init(sources: tuple[str, ...], languages: str, project: Path | None) -> None:
    """Set govern up in this repository for the schema files and pydantic modules named.

    SOURCE is a JSON Schema or OpenAPI file (told apart by content; globs such as `schemas/*.json` work
    quoted or not) or a pydantic module (`app.models`, or `app.models:Model`). Each file or module becomes
    a source; a JSON Schema file is one root (the document), an OpenAPI document's roots are its request
    and response bodies, a module's roots are its models. Models and schemas with a constant `kind` (or
    `type`, `event`) property are proposed as events, everything else as records: edit the roles before
    the baseline.

    Adds [tool.govern] to pyproject.toml, or writes govern.toml where there is none; creates the records
    folder; adds the generated files to .gitattributes for the merge driver that regenerates them
    (`govern merge-generated`); prints the next command. Every source is read first: a refusal writes nothing.
    """
    from govern.init import MERGE_DRIVER_COMMAND, plan_init, write_init

    root = (project or Path.cwd()).resolve()
    chosen = tuple(language.strip() for language in languages.split(",") if language.strip())
    plan = plan_init(root, list(sources), chosen, Path.cwd())
    write_init(plan)
    where = plan.config_path.relative_to(root).as_posix()
    click.echo(f"wrote {'[tool.govern] to ' if where == 'pyproject.toml' else ''}{where}")
    for source in plan.sources:
        roots = ", ".join(f"{root_id} ({root.role})" for root_id, root in sorted(source.graph.roots.items()))
        click.echo(f"  {source.name}: {source.kind} {source.path}: {roots}")
    click.echo(f"created {plan.records_dir.relative_to(root).as_posix()}/")
    if plan.gitattributes is not None:
        click.echo("wrote .gitattributes: the generated files merge by regenerating them; enable the driver with")
        click.echo(f"  {MERGE_DRIVER_COMMAND}")
    click.echo("next: draft the baseline's prose, fill in the compatibility and verification, then record it:")
    click.echo("  govern record prose > prose.yaml")
    click.echo("  govern record new baseline --prose prose.yaml")
