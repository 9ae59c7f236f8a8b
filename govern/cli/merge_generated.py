from __future__ import annotations

import sys
from pathlib import Path

import click

from govern.cli._common import reports_errors


@click.command("merge-generated")
@click.argument("base", type=click.Path(path_type=Path, dir_okay=False))
@click.argument("ours", type=click.Path(path_type=Path, dir_okay=False))
@click.argument("theirs", type=click.Path(path_type=Path, dir_okay=False))
@click.argument("path")
@reports_errors
def merge_generated(base: Path, ours: Path, theirs: Path, path: str) -> None:
    """Git merge driver for the generated files (inventory.json, catalogs): %O %A %B %P.

    Instead of merging two generated texts line by line, the file is generated again from the merged
    sources, exactly as `govern extract` would write it after the merge, and replaces %A (exit 0).
    When the sources themselves conflict, or git did not say which commit it merges, %A is left alone
    and the exit code is 1, so git reports a conflict: resolve it, then run `govern extract`.

    Install (the driver must be configured in git; the attributes are committed):

      git config merge.govern-generated.driver "govern merge-generated %O %A %B %P"

    and in .gitattributes (`govern init` writes them): `schemas/inventory.json merge=govern-generated`,
    `schemas/catalog*.md merge=govern-generated` and `schemas/formats/** merge=govern-generated`.
    """
    from govern.fsio import atomic_write_text
    from govern.gitrefs import MergeUnresolved, regenerate_merged, repository_of

    try:
        text = regenerate_merged(repository_of(Path.cwd()), path)
    except MergeUnresolved as unresolved:
        click.echo(f"govern merge-generated: {path}: {unresolved}", err=True)
        sys.exit(1)
    atomic_write_text(ours, text)
