from __future__ import annotations

import json
from pathlib import Path

import click

from govern.cli._common import load_project, project_option, reports_errors


@click.command()
@click.argument("specs", nargs=-1, metavar="[PATH | module:Model]...")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON object instead of lines.")
@project_option
@reports_errors
def digests(specs: tuple[str, ...], as_json: bool, project: Path | None) -> None:
    """Print every root and its digest.

    With no arguments, the roots configured in [tool.govern]. With arguments, the files (JSON Schema or
    OpenAPI, JSON or YAML) or pydantic models (`module:Model`, or a module for all its models) given,
    with no configuration needed: every definition of a JSON Schema file is a root, and the request and
    response body components of an OpenAPI document.

    Output is the same on every machine and run: sorted by root, independent of hash seed and locale.
    """
    from govern.model.inventory import build_inventory

    if specs:
        from govern.sources.load import load_specs

        graphs = load_specs(list(specs), Path.cwd())
    else:
        from govern.sources.load import load_configured

        graphs = load_configured(load_project(project))
    inventory = build_inventory(graphs)
    if as_json:
        document = {"format": inventory.format,
                    "roots": {root.id: {"digest": root.digest, "role": root.role} for root in inventory.roots.values()}}
        click.echo(json.dumps(document, indent=2, ensure_ascii=False))
        return
    width = max((len(root_id) for root_id in inventory.roots), default=0)
    for root in inventory.roots.values():
        click.echo(f"{root.id.ljust(width)}  {root.digest}")
