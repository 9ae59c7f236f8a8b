from __future__ import annotations

import sys
from pathlib import Path

import click

from govern.cli._common import load_project, project_option, reports_errors, witness_options


@click.command()
@click.option("--format", "output_format", type=click.Choice(["text", "json", "github", "sarif", "markdown"]),
              default="text", show_default=True,
              help="text for people; json for tools; github for workflow annotations; sarif (2.1.0) for code "
                   "scanning; markdown for a pull-request comment (with a prose file pre-filled from the changes and the command to run).")
@click.option("--lang", "language", type=click.Choice(["en", "zh"]), default="en", show_default=True,
              help="Language of the messages, fixes and headings in every format (en English, zh Chinese); "
                   "finding ids, paths and the JSON keys stay the same.")
@click.option("--base", "base", default=None, metavar="REF",
              help="For a pull request: summarize the change records added since this git ref (for example "
                   "origin/main) and the changes they acknowledge, in markdown and json, also when clean.")
@witness_options
@project_option
@reports_errors
def verify(output_format: str, language: str, base: str | None, witness: bool, witness_budget: int,
           project: Path | None) -> None:
    """Check the whole record history against the current source (for CI).

    Checks: record syntax and slugs; English and Chinese declarations equal; consistency records current
    (prose edited in one language only is a stale translation); snapshots reproduce the declared
    digests; predecessors exist and were not edited after being depended on; no cycles; no two
    successors of one record for one root; each root's latest record agrees with the current source;
    declared decisions at least the inferred ones; version-bumps raise the format version; generated
    files current. All findings are reported together.

    With --witness, every record entry declared same-version is also searched for a document that breaks
    a direction it promises (an unsound-verdict finding), and the report shows the witness documents of
    the breaking changes not yet acknowledged (text, json "witnesses", markdown collapsed blocks).

    Text, json and markdown name the file each pydantic source's models were imported from. With --base
    REF (a pull request's base), markdown and json also list the records added since REF, each with its
    roots, decisions, format versions and the changes it acknowledges.

    Exit 0 when clean, 1 with findings, 2 when a source cannot be read.
    """
    from govern.report.render import render
    from govern.verify.checks import verify_project

    config = load_project(project)
    findings, inventory, history = verify_project(config)
    pending = None
    if witness:
        from govern.verify.findings import Finding
        from govern.witness.history import history_witnesses

        found = history_witnesses(config, history, list(inventory.graphs), witness_budget)
        findings = sorted(set(findings) | set(found.findings), key=Finding.sort_key)
        pending = found.pending
    suggestion = None
    if output_format == "markdown" and any(f.id.startswith("unacknowledged") for f in findings):
        from govern.records.create import suggest_record

        suggestion = suggest_record(config, history, list(inventory.graphs), language)
    from govern.report.review import with_review
    from govern.sources.pydantic import imported_from

    imports = {source.name: (source.path.partition(":")[0], imported_from(source.path.partition(":")[0],
                                                                         config.project_root))
               for source in config.sources if source.kind == "pydantic"}
    review = None
    if base is not None:
        from govern.review import review_since

        review = review_since(config, history, base)
    text = render(findings, output_format, suggestion=suggestion, language=language, witnesses=pending)
    click.echo(with_review(text, output_format, imports, review, language), nl=False)
    sys.exit(1 if findings else 0)
