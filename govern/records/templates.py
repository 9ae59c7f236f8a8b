"""Record and prose templates: shipped inside the package, overridden file by file by a project's own.

A project adopts govern with no template of its own; a file `<templates>/record.<language>.md` (or
`prose.yaml`) in the project replaces the shipped one of the same name. A language govern ships no
template for needs the project's own.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources

from govern.config import Config
from govern.errors import InputError, Problem
from govern.fsio import read_text

SHIPPED_LANGUAGES = ("en", "zh")


@dataclass(frozen=True)
class Template:
    label: str  # where the text came from, for messages: a project path or `govern/templates/NAME`
    text: str


def record_template_name(language: str) -> str:
    return f"record.{language}.md"


def load_template(config: Config, name: str) -> Template:
    """The project's `<templates>/NAME` when present, else the template shipped with govern."""
    override = config.path(config.templates_dir) / name
    if override.is_file():
        return Template(f"{config.templates_dir}/{name}", read_text(override))
    shipped = resources.files("govern") / "templates" / name
    if not shipped.is_file():
        raise InputError(Problem(f"{config.templates_dir}/{name}", "does not exist, and govern ships no such template",
                                 hint=f"govern ships record templates for {', '.join(SHIPPED_LANGUAGES)}; write this "
                                      "one with the placeholders {{declaration}}, {{title}}, {{summary}}, "
                                      "{{compatibility}}, {{verification}} and {{changes}}"))
    return Template(f"govern/templates/{name}", shipped.read_text(encoding="utf-8"))
