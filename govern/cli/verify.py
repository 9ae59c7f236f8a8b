from __future__ import annotations

import sys
from pathlib import Path

import click

from govern.cli._common import load_project, project_option, reports_errors


@click.command()
@click.option("--format", "output_format", type=click.Choice(["text", "json", "github", "sarif", "markdown"]),
              default="text", show_default=True,
              help="text for people; json for tools; github for workflow annotations; sarif (2.1.0) for code "
                   "scanning; markdown for a pull-request comment (with a prose file pre-filled from the changes and the command to run).")
@click.option("--lang", "language", type=click.Choice(["en", "zh"]), default="en", show_default=True,
              help="Language of the messages, fixes and headings in every format (en English, zh Chinese); "
                   "finding ids, paths and the JSON keys stay the same.")
@project_option
@reports_errors
def verify(output_format: str, language: str, project: Path | None) -> None:
    """Check the whole record history against the current source (for CI).

    Checks: record syntax and slugs; English and Chinese declarations equal; consistency records current
    (prose edited in one language only is a stale translation); snapshots reproduce the declared
    digests; predecessors exist and were not edited after being depended on; no cycles; no two
    successors of one record for one root; each root's latest record agrees with the current source;
    declared decisions at least the inferred ones; version-bumps raise the format version; generated
    files current. All findings are reported together.

    Exit 0 when clean, 1 with findings, 2 when a source cannot be read.
    """
    from govern.report.render import render
    from govern.verify.checks import verify_project

    config = load_project(project)
    findings, inventory, history = verify_project(config)
    suggestion = None
    if output_format == "markdown" and any(f.id.startswith("unacknowledged") for f in findings):
        from govern.records.create import suggest_record

        suggestion = suggest_record(config, history, list(inventory.graphs))
    click.echo(render(findings, output_format, suggestion=suggestion, language=language), nl=False)
    sys.exit(1 if findings else 0)
