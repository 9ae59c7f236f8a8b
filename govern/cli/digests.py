from __future__ import annotations

import json
from pathlib import Path

import click

from govern.cli._common import DIALECT_NAMES, load_project, project_option, reports_errors
from govern.errors import InputError


@click.command()
@click.argument("specs", nargs=-1, metavar="[PATH | module:Model]...")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON object instead of lines.")
@click.option("--dialect", type=click.Choice(DIALECT_NAMES), default=None,
              help="With files: read JSON Schema files in this dialect, whatever their $schema says.")
@project_option
@reports_errors
def digests(specs: tuple[str, ...], as_json: bool, dialect: str | None, project: Path | None) -> None:
    """Print every root and its digest.

    With no arguments, the roots configured in [tool.govern]. With arguments, the files (JSON Schema or
    OpenAPI, JSON or YAML) or pydantic models (`module:Model`, or a module for all its models) given,
    with no configuration needed: every definition of a JSON Schema file is a root, and the request and
    response body components of an OpenAPI document.

    Every file that can be read is printed; each one that cannot gets its own error on standard error,
    and the exit code is then 2. Output is the same on every machine and run: sorted by root, independent
    of hash seed and locale.
    """
    from govern.model.inventory import build_inventory

    if specs:
        from govern.sources.load import read_specs

        graphs, problems = read_specs(list(specs), Path.cwd(), dialect=dialect)
    else:
        from govern.sources.load import load_configured

        graphs, problems = load_configured(load_project(project)), []
    _print(build_inventory(graphs), as_json)
    if problems:
        raise InputError(problems)


def _print(inventory, as_json: bool) -> None:
    if as_json:
        document = {"format": inventory.format,
                    "roots": {root.id: {"digest": root.digest, "role": root.role} for root in inventory.roots.values()}}
        click.echo(json.dumps(document, indent=2, ensure_ascii=False))
        return
    width = max((len(root_id) for root_id in inventory.roots), default=0)
    for root in inventory.roots.values():
        click.echo(f"{root.id.ljust(width)}  {root.digest}")
