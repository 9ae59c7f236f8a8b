from __future__ import annotations

from pathlib import Path

import click

from govern.cli._common import load_project, project_option, reports_errors


@click.command()
@click.argument("files", nargs=-1, metavar="[OLD NEW]")
@click.option("--format", "output_format", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="text: grouped by root, the decision first; json: the stable machine contract.")
@click.option("--all", "show_unchanged", is_flag=True, help="In text output, list unchanged roots too.")
@project_option
@reports_errors
def diff(files: tuple[str, ...], output_format: str, show_unchanged: bool, project: Path | None) -> None:
    """Classify structural changes as same-version or version-bump.

    With no arguments, every configured root is compared with the after-snapshot of its latest change
    record (before any record exists, every root is new). With OLD NEW, two files are compared directly:
    two JSON Schema files, two OpenAPI documents, or two `module:Model` specs; no records or
    configuration are needed.

    The JSON shape is a stable contract: {"roots": [{"root", "decision", "minimum", "before", "after",
    "changes": [{"path", "kind", "rule", "decision", "breaks", "args"}]}]}, roots sorted by name.
    "breaks" says which way a change breaks: old-data-new-readers or new-data-old-readers.

    Exit 0 whatever the decision (diff reports; `govern verify` gates), 2 on bad input.
    """
    from govern.classify.classify import classify
    from govern.classify.report import diff_json, diff_text

    if files:
        if len(files) != 2:
            raise click.UsageError("give exactly two files (OLD NEW), or none to compare with the records")
        from govern.sources.load import document_root_name, load_spec

        # Both sides take the new file's names, so renaming the file (or its title) pairs, not replaces.
        new_graph = load_spec(files[1], Path.cwd())
        old_graph = load_spec(files[0], Path.cwd(), source=new_graph.source,
                              document_root=document_root_name(new_graph))
        results = classify([old_graph], [new_graph])
    else:
        from govern.records.history import recorded_graphs
        from govern.sources.load import load_configured

        config = load_project(project)
        results = classify(recorded_graphs(config), load_configured(config))
    click.echo(diff_json(results) if output_format == "json" else diff_text(results, show_unchanged), nl=False)
