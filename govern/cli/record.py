from __future__ import annotations

from pathlib import Path

import click

from govern.cli._common import load_project, project_option, reports_errors, witness_options

DECISION = click.Choice(["same-version", "version-bump"])


@click.group()
def record() -> None:
    """Create, refresh and sync dated bilingual change records (records/ID.{md,zh.md,i18n.yaml,schema.json})."""


@record.command("new")
@click.argument("slug")
@click.option("--prose", "prose_path", type=click.Path(path_type=Path), required=True,
              help="YAML with one mapping per configured language (en: and zh: by default), each with title, "
                   "summary, compatibility, verification (start from `govern record prose > prose.yaml`).")
@click.option("--decision", type=DECISION, default=None,
              help="Assert the decision; weaker than the inferred minimum is refused. Default: the inferred one.")
@click.option("--date", "date", default=None, metavar="YYYY-MM-DD", help="The record date: a real day, no later than tomorrow and not before the records it follows "
                   "(default: today, in UTC).")
@witness_options
@project_option
@reports_errors
def new(slug: str, prose_path: Path, decision: str | None, date: str | None, witness: bool, witness_budget: int,
        project: Path | None) -> None:
    """Record every root that differs from its latest record (digest, format version or role), as
    records/DATE-SLUG.*.

    With no record yet, writes the baseline: the complete initial inventory. A version-bump must raise the
    source's format version in the same change; a same-version record needs compatibility prose in both
    languages. Refusals write nothing; an existing record is never overwritten. The inventory and the
    catalog pair are regenerated with the record. With --witness, each breaking change listed under
    "Detected changes" carries a witness document (collapsed) in every language.
    """
    from govern.records.create import create_record

    config = load_project(project)
    plan = create_record(config, slug, prose_path, decision, date, witness_budget if witness else None)
    for entry in plan.declaration.entries:
        after = entry.after or "tombstone"
        click.echo(f"{entry.root}: {entry.decision} ({entry.predecessor or 'no predecessor'} -> {after})")
    click.echo(f"wrote records for {plan.record_id}")


@record.command("prose")
@project_option
@reports_errors
def prose(project: Path | None) -> None:
    """Print a prose file for `record new --prose`, drafted from the current changes.

    One mapping per configured language; titles and summaries are drafted from the changes that are not
    yet recorded (all roots before the baseline), the compatibility reasoning and verification evidence
    are left to write. Redirect it to a file: `govern record prose > prose.yaml`.
    """
    from govern.records.create import prose_skeleton, suggest_record
    from govern.records.history import load_history
    from govern.sources.load import load_configured

    config = load_project(project)
    suggestion = suggest_record(config, load_history(config), load_configured(config))
    click.echo(suggestion.prose if suggestion else prose_skeleton(config.languages), nl=False)


@record.command("refresh")
@click.argument("record_id", metavar="ID")
@click.option("--prose", "prose_path", type=click.Path(path_type=Path), default=None,
              help="New prose (default: keep the record's current prose).")
@click.option("--decision", type=DECISION, default=None, help="Assert the decision, as for `record new`.")
@witness_options
@project_option
@reports_errors
def refresh(record_id: str, prose_path: Path | None, decision: str | None, witness: bool, witness_budget: int,
            project: Path | None) -> None:
    """Regenerate an unaccepted terminal record against the current source.

    Refused for the baseline, for any record that another record depends on, and, in a git checkout, for
    a record already on the base branch ([tool.govern] base; default origin/main, else main): accepted
    history.
    --witness embeds witness documents, as for `record new`.
    """
    from govern.records.create import refresh_record

    config = load_project(project)
    plan = refresh_record(config, record_id, prose_path, decision, witness_budget if witness else None)
    click.echo(f"refreshed {plan.record_id}")


@record.command("sync")
@click.argument("record_id", metavar="ID")
@project_option
@reports_errors
def sync(record_id: str, project: Path | None) -> None:
    """Rewrite the consistency record (ID.i18n.yaml) after the prose was updated in every language.

    Refused while a language lags behind an edited one, and while the declaration disagrees with the
    snapshot or the history; the hashes of the generated sections are kept as they were written.
    """
    from govern.records.create import sync_record

    config = load_project(project)
    path = sync_record(config, record_id)
    click.echo(f"wrote {path.relative_to(config.project_root).as_posix()}")
