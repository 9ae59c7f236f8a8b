from __future__ import annotations

import sys
from pathlib import Path

import click

from govern.cli._common import (DIALECT_NAMES, MODES, echo_pieces, load_project, project_option, reports_errors,
                                witness_options)


@click.command()
@click.argument("files", nargs=-1, metavar="[OLD NEW]")
@click.option("--format", "output_format", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="text: grouped by root, the decision first; json: the stable machine contract.")
@click.option("--all", "show_unchanged", is_flag=True, help="In text output, list unchanged roots too.")
@click.option("--against", "against", default=None, metavar="REF",
              help="Compare with the sources at a git ref (branch, tag, commit such as HEAD~1 or origin/main), "
                   "read from git without a checkout, instead of with the records.")
@click.option("--roots", "roots_mode", type=click.Choice(["document", "all"]), default="document", show_default=True,
              help="OLD NEW only: 'document' makes a file's definitions roots only when the file has no structure "
                   "of its own; 'all' makes every definition a root as well.")
@click.option("--dialect", type=click.Choice(DIALECT_NAMES), default=None,
              help="OLD NEW only: read both JSON Schema files in this dialect, whatever their $schema says.")
@click.option("--mode", type=click.Choice([m for m in MODES if not m.endswith("-transitive")]), default=None,
              help="OLD NEW only: decide in this compatibility mode (default persistence, the rule table); "
                   "configured sources use their own `mode`.")
@witness_options
@project_option
@reports_errors
def diff(files: tuple[str, ...], output_format: str, show_unchanged: bool, against: str | None, roots_mode: str,
         dialect: str | None, mode: str | None, witness: bool, witness_budget: float, project: Path | None) -> None:
    """Classify structural changes as same-version or version-bump.

    With no arguments, every configured root is compared with the after-snapshot of its latest change
    record (before any record exists, every root is new). With --against REF, with the same sources as
    they are at a git ref, read with the configuration that ref holds (like `buf breaking --against`):
    what a pull request changes, whether recorded or not. With OLD NEW, two files are compared directly:
    two JSON Schema files, two OpenAPI documents, or two `module:Model` specs; no records or
    configuration are needed. A file with structure of its own is one root (its definitions are its
    parts, so renaming or inlining one changes no root); a file of definitions only has one root per
    definition, and a removed and a new root with equal digests are reported as one root, unchanged,
    with "renamed_from".

    The JSON shape is a stable contract: {"roots": [{"root", "decision", "minimum", "mode", "before",
    "after", "changes": [{"path", "kind", "rule", "decision", "breaks", "args", "text"}]}]}, roots sorted by
    name. "path" is a JSON pointer in the root's own structure, or, for a change inside a named type the
    root reaches through a reference, inside that type, which "type" names ("type_location": where the
    source writes it); text output prints such a location as Type#/pointer. A type reached from many places
    is compared once, so a change inside it is reported once, at the type (once more for each route that
    treats it differently, e.g. under `not`, which reverses its direction). "breaks" says which way a change
    breaks: old-data-new-readers or new-data-old-readers. "text" says
    what changed as a sentence, {"en", "zh"} ("property `last4` added", "新增属性 `last4`"); text output
    prints the English one after the kind and rule. "mode" is the compatibility mode the root was decided
    in (persistence, the rule table, unless the source's `mode` or --mode says otherwise; text output shows
    it as [mode M]); a transitive mode adds "breaks_earlier", the digests of earlier records the current
    structure breaks against. "shared_walk": true says the root was walked together with other roots of its
    source (past what their own walks may enter in all): a change below a named type then names the
    alternative and applicators of the route that first met it, which may start at another root.

    With --witness, every change also carries "witness" (a document, "accepted_by" and "rejected_by"
    old|new, the validator's "reason" and where it objects, "at") or null, and "witness_search"
    (found, exhausted, no-direction, promise-held, unsound, not-applicable, or limit-reached: not searched, past
    what the searches of one diff may do in all, in proportion to the two graphs); the document ends with
    "witnesses" (how many breaking changes have one, which have none) and "findings". Text output prints
    each witness on one line and ends with the same over-caution report.

    Exit 0 whatever the decision (diff reports; `govern verify` gates), 1 when --witness finds a
    document that breaks a same-version verdict, 2 on bad input.
    """
    from govern.classify.classify import classify, pair_renamed
    from govern.classify.report import diff_json_pieces, diff_text_pieces

    if files and against:
        raise click.UsageError("give either OLD NEW or --against REF, not both")
    if against:
        from govern.gitrefs import load_at
        from govern.sources.load import load_configured

        config = load_project(project)
        old_graphs, new_graphs = load_at(config, against), load_configured(config)
        origins = {root: graph.origin for graph in new_graphs for root in graph.roots}
    elif files:
        if len(files) != 2:
            raise click.UsageError("give exactly two files (OLD NEW), or none to compare with the records")
        from govern.sources.load import document_root_name, load_spec

        # Both sides take the new file's names, so renaming the file (or its title) pairs, not replaces.
        everything = roots_mode == "all"
        new_graph = load_spec(files[1], Path.cwd(), all_definitions=everything, dialect=dialect)
        old_graph = load_spec(files[0], Path.cwd(), source=new_graph.source,
                              document_root=document_root_name(new_graph), all_definitions=everything,
                              dialect=dialect)
        old_graphs, new_graphs = [old_graph], [new_graph]
        origins = {root: files[1] for root in new_graph.roots}
    else:
        from govern.records.history import recorded_graphs
        from govern.sources.load import load_configured

        config = load_project(project)
        old_graphs, new_graphs = recorded_graphs(config), load_configured(config)
        origins = {root: graph.origin for graph in new_graphs for root in graph.roots}
    if files:
        from govern.classify.modes import apply_modes

        results = pair_renamed(classify(old_graphs, new_graphs, routes=witness))  # (routes: for witnesses)
        if mode is not None:
            results = apply_modes(results, {new_graphs[0].source: mode})
    elif against:
        from govern.classify.modes import apply_modes, source_modes

        # One ref and no records: each source's mode decides against that ref alone.
        results = apply_modes(classify(old_graphs, new_graphs, routes=witness), source_modes(config))
    else:
        from govern.records.create import classified
        from govern.records.history import load_history

        results = classified(config, load_history(config), old_graphs, new_graphs, routes=witness)
    if not witness:
        echo_pieces(diff_json_pieces(results) if output_format == "json" else diff_text_pieces(results, show_unchanged))
        return
    from govern.witness.render import change_fields, change_lines, summary_lines, unsound_findings
    from govern.witness.search import find_witnesses

    report = find_witnesses(results, old_graphs, new_graphs, budget=witness_budget)
    findings = unsound_findings(report, lambda root: origins.get(root, files[1] if files else ""))
    if output_format == "json":
        echo_pieces(diff_json_pieces(results, change_fields(report), {
            "witnesses": report.summary_json(), "findings": [finding.to_json() for finding in findings]}))
    else:
        footer = summary_lines(report) + [f"{finding.id}: {finding.message()}" for finding in findings]
        echo_pieces(diff_text_pieces(results, show_unchanged, change_lines(report), footer))
    sys.exit(1 if findings else 0)
