"""The catalog as reviewers read it: each root's history and format version, descriptions, type links."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from history_project import Project

HISTORY = [("2026-11-30-baseline", "2026-11-30", "same-version", "– → `1`; new root"),
           ("2026-12-01-thread-label", "2026-12-01", "same-version", "`1`"),
           ("2026-12-01-sidecar-format-2", "2026-12-01", "version-bump", "`1` → `2`"),
           ("2026-12-01-sidecar-format-3", "2026-12-01", "version-bump", "`2` → `3`")]


def section(text: str, heading: str) -> str:
    start = text.index(heading + "\n")
    end = text.find("\n#", start + len(heading))
    return text[start:end if end != -1 else None]


def test_each_root_lists_its_records_linked_to_the_record_files(three_formats: Project) -> None:
    english = three_formats.path("schemas/catalog.md").read_text(encoding="utf-8")
    lines = [line for line in section(english, "### `sidecar:Artifact`").splitlines() if line.startswith("- ")]
    assert lines == [f"- [{record}](../records/{record}.md) ({date}): {decision}, format version {versions}"
                     for record, date, decision, versions in HISTORY]
    chinese = three_formats.path("schemas/catalog.zh.md").read_text(encoding="utf-8")
    lines = [line for line in section(chinese, "### `sidecar:Artifact`").splitlines() if line.startswith("- ")]
    assert lines[2] == "- [2026-12-01-sidecar-format-2](../records/2026-12-01-sidecar-format-2.zh.md)（2026-12-01）：" \
                       "版本升级，格式版本 `1` → `2`"
    for text in (english, chinese):
        for target in re.findall(r"\]\((\.\./records/[^)]+)\)", text):
            assert (three_formats.path("schemas") / target).is_file(), target
    # A root whose structure never changed lists the baseline and the record of its writer constant.
    grp = [line for line in section(english, "### `grp:ArtifactView`").splitlines() if line.startswith("- ")]
    assert grp == ["- [2026-11-30-baseline](../records/2026-11-30-baseline.md) (2026-11-30): same-version, "
                   "format version – → `0.2.0`; new root",
                   "- [2026-11-30-coordination-0-2-1-writer-constant](../records/2026-11-30-coordination-0-2-1-"
                   "writer-constant.md) (2026-11-30): version-bump, format version `0.2.0` → `0.2.1`"]


def test_each_root_shows_the_format_version_it_stands_at(three_formats: Project) -> None:
    english = three_formats.path("schemas/catalog.md").read_text(encoding="utf-8")
    row = next(line for line in english.splitlines() if line.startswith("| `sidecar:Artifact` |"))
    assert row.split(" | ")[1:4] == ["record", "[`Artifact`](#type-sidecar-artifact)", "`3`"]
    row = next(line for line in english.splitlines() if line.startswith("| `grp:ArtifactView` |"))
    assert row.split(" | ")[3] == "`0.2.1`"


def test_properties_show_their_source_descriptions(three_formats: Project) -> None:
    for name, label in (("catalog.md", "Property | Description"), ("catalog.zh.md", "属性 | 说明")):
        text = three_formats.path(f"schemas/{name}").read_text(encoding="utf-8")
        thread = section(text, "#### `Thread`")
        assert "A discussion attached to an anchor." in thread
        assert f"| {label} |" in thread
        assert "| `label` | A short label. |" in thread
        assert "| `status` | Whether the discussion is still going on or has been closed. |" in thread


def test_type_names_link_to_their_declarations(three_formats: Project) -> None:
    for name in ("catalog.md", "catalog.zh.md", "formats/sidecar-2.md", "formats/grp-0.2.0.zh.md"):
        text = three_formats.path(f"schemas/{name}").read_text(encoding="utf-8")
        anchors = set(re.findall(r'<a id="([^"]+)"></a>', text))
        links = set(re.findall(r"\]\(#([^)]+)\)", text))
        assert links and links <= anchors, (name, sorted(links - anchors)[:3])
    thread = section(three_formats.path("schemas/catalog.md").read_text(encoding="utf-8"), "#### `Thread`")
    assert "Refers to: [`Message`](#type-sidecar-message)" in thread


def test_a_retired_root_keeps_its_history_ending_in_its_tombstone(tmp_path) -> None:
    from click.testing import CliRunner

    root = tmp_path / "two"
    (root / "schemas").mkdir(parents=True)
    config = ('[tool.govern]\n[[tool.govern.sources]]\nname = "notes"\nkind = "jsonschema"\n'
              'path = "schemas/notes.schema.json"\nroots = {roots}\n')
    (root / "pyproject.toml").write_text(config.format(roots='{ A = { at = "#/$defs/A" }, B = { at = "#/$defs/B" } }'),
                                         encoding="utf-8")
    (root / "schemas/notes.schema.json").write_text(
        '{"$defs": {"A": {"type": "string"}, "B": {"type": "integer"}}}', encoding="utf-8")
    project = Project(root, CliRunner())
    assert project.new_record("baseline", "2026-12-01").exit_code == 0
    (root / "pyproject.toml").write_text(config.format(roots='{ A = { at = "#/$defs/A" } }'), encoding="utf-8")
    result = project.new_record("retire-b", "2026-12-01", "--decision", "version-bump")
    assert result.exit_code == 0, result.output
    english = project.path("schemas/catalog.md").read_text(encoding="utf-8")
    assert section(english, "### `notes:B`").splitlines()[2:] == [
        "- [2026-12-01-baseline](../records/2026-12-01-baseline.md) (2026-12-01): same-version, format version –; "
        "new root",
        "- [2026-12-01-retire-b](../records/2026-12-01-retire-b.md) (2026-12-01): version-bump, format version –; "
        "removed (tombstone)"]
    chinese = project.path("schemas/catalog.zh.md").read_text(encoding="utf-8")
    assert section(chinese, "### `notes:B`").splitlines()[-1].endswith("版本升级，格式版本 –；已删除（墓碑）")
    assert project.verify().exit_code == 0, project.verify().output


def test_the_catalog_pair_writes_each_declaration_once_and_streams_its_pieces(three_formats: Project,
                                                                              monkeypatch) -> None:
    """Both languages share each named type's declaration, links and described properties; the text comes
    in pieces, one per few named types, never joined whole."""
    import govern.catalog.render as render
    from govern.config import load_config
    from govern.extract import current_inventory, generated_files

    config = load_config(three_formats.root)
    inventory = current_inventory(config)
    calls: list[str] = []
    monkeypatch.setattr(render, "declaration", lambda node, known=None: calls.append(node) or "x")
    catalogs = [file for file in generated_files(config, inventory) if file.path.name.startswith("catalog")]
    calls.clear()  # the format references' pages, made with the list of files
    for file in catalogs:
        assert file.text
    assert len(calls) == len(inventory.types)
    monkeypatch.setattr(render, "SECTIONS_PER_PIECE", 1)
    pieces = list(render.catalog_pieces(inventory, "en"))
    assert len(pieces) > len(inventory.types) and "".join(pieces) == render.render_catalog(inventory, "en")
    monkeypatch.setattr(render, "SECTIONS_PER_PIECE", 2)
    grouped = list(render.catalog_pieces(inventory, "en"))
    assert len(grouped) < len(pieces) and "".join(grouped) == "".join(pieces)


def test_the_catalog_pair_takes_the_declarations_made_while_the_inventory_is_written(three_formats: Project,
                                                                                    monkeypatch) -> None:
    """Writing the inventory walks every named type: it leaves each type's declaration for the catalog pair,
    which declares only the types the inventory's writing did not reach (a comparison stops at the first
    difference); the catalogs are the same either way."""
    import govern.catalog.render as render
    import govern.model.inventory as inventory_module
    from govern.config import load_config
    from govern.extract import current_inventory, generated_files

    config = load_config(three_formats.root)
    inventory = current_inventory(config)
    monkeypatch.setattr(inventory_module, "TYPES_PER_CHUNK", 1)

    def catalogs(files) -> dict[str, str]:
        return {file.path.name: file.text for file in files if file.path.name.startswith("catalog")}

    alone = catalogs(generated_files(config, inventory))  # no inventory written: the catalog declares every type
    calls: list = []
    real = render.declaration
    monkeypatch.setattr(render, "declaration", lambda node, known=None: calls.append(node) or real(node, known=known))
    files = generated_files(config, inventory)
    calls.clear()  # the format references' pages, made with the list of files
    assert files[0].path.name == "inventory.json" and files[0].text
    assert catalogs(files) == alone and calls == []
    files = generated_files(config, inventory)
    chunks = iter(files[0].render())
    for _ in range(3):  # the head and two types, as a comparison that stops there
        next(chunks)
    chunks.close()
    calls.clear()
    assert catalogs(files) == alone and len(calls) == len(inventory.types) - 2


def test_the_format_reference_pages_of_every_language_share_each_declaration(three_formats: Project,
                                                                              monkeypatch) -> None:
    import govern.catalog.render as render
    from govern.catalog.formats import format_references
    from govern.config import load_config
    from govern.extract import format_reference_files
    from govern.records.history import load_history

    config = load_config(three_formats.root)
    references = format_references(load_history(config))
    calls: list = []
    monkeypatch.setattr(render, "declaration", lambda node, known=None: calls.append(node) or "x")
    pages = [file for file in format_reference_files(config) if file.path.name.endswith(".md")
             and not file.path.name.startswith("index")]
    assert len(pages) == 2 * len(references)  # one page per language
    assert len(calls) == sum(len(reference.graph.types) for reference in references)


def test_the_catalog_pair_written_in_utf_8_pieces_is_the_text_encoded(three_formats: Project, monkeypatch) -> None:
    """`govern extract` takes the named types' sections in UTF-8, encoded once for the pair (a Chinese page's
    text would be joined and encoded two bytes a character wide): byte for byte the text of each page."""
    import govern.catalog.render as render
    from govern.config import load_config
    from govern.extract import current_inventory
    from govern.fsio import encoded_pieces

    inventory = current_inventory(load_config(three_formats.root))
    for per_piece in (1, 3, render.SECTIONS_PER_PIECE):
        monkeypatch.setattr(render, "SECTIONS_PER_PIECE", per_piece)
        sections = render.CatalogSections()
        for language in ("en", "zh"):
            pieces = list(render.catalog_pieces(inventory, language, sections=sections, encoded=True))
            assert any(piece.__class__ is bytes for piece in pieces)
            assert b"".join(encoded_pieces(iter(pieces))) == render.render_catalog(inventory, language).encode()


@settings(max_examples=60, deadline=None, database=None)
@given(pieces=st.lists(st.text(alphabet="a\n", max_size=4), max_size=8), encoded=st.lists(st.booleans(), max_size=8))
def test_the_catalog_ends_in_one_line_break_whatever_its_pieces_end_in(pieces, encoded) -> None:
    from govern.catalog.render import _one_final_line_break
    from govern.fsio import encoded_pieces

    mixed = [piece.encode() if index < len(encoded) and encoded[index] else piece for index, piece in enumerate(pieces)]
    passed = list(_one_final_line_break(iter(mixed)))
    assert b"".join(encoded_pieces(iter(passed))) == ("".join(pieces).rstrip("\n") + "\n").encode()


# Names as sources write them, and characters whose lowercase form is ASCII or several characters (the Kelvin
# sign, a dotted capital I, a final sigma), beside the usual letters and digits.
_anchor_names = (st.text(st.sampled_from("aZ09_-. /Σ\u212a\u0130é名"), max_size=6)
                 | st.text(st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=4)
                 | st.from_regex(r"[A-Za-z0-9]{1,8}", fullmatch=True))


@settings(max_examples=200, deadline=None, database=None)
@given(source=_anchor_names, names=st.lists(_anchor_names, max_size=6))
def test_the_anchors_of_a_sources_types_are_each_types_own_anchor(source, names) -> None:
    from govern.catalog.render import type_anchor, type_anchors

    assert type_anchors(source, names) == {name: type_anchor(source, name) for name in names}
