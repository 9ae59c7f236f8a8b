"""Bad input: exit 2, a message naming the file and the reason, no traceback, nothing written."""

from __future__ import annotations

import json

import pytest

from conftest import FIXTURES, invoke, jsonschema_source, snapshot, write_project


def _deep(depth: int) -> str:
    return '{"type": "array", "items": ' * depth + '{"type": "string"}' + "}" * depth


def _deep_data(depth: int) -> str:
    return '{"const": ' + "[" * depth + "]" * depth + "}"


BAD_SOURCES = [
    ("invalid-json", '{"type": "object",', "is not valid JSON"),
    ("nan", '{"type": "number", "maximum": NaN}', "is not valid JSON"),
    ("dangling-ref", {"type": "object", "properties": {"a": {"$ref": "#/$defs/Missing"}}}, "does not resolve"),
    ("dangling-anchor", {"type": "array", "items": {"$ref": "#nowhere"}}, "no anchor 'nowhere'"),
    ("dangling-file", {"$id": "https://example.com/s/a.json", "items": {"$ref": "other.json"}}, "does not resolve"),
    ("ref-loop", {"$defs": {"A": {"$ref": "#/$defs/B"}, "B": {"$ref": "#/$defs/A"}}, "$ref": "#/$defs/A"},
     "$ref loop with no structure in between"),
    ("ref-to-self-document", {"$ref": "#"}, "$ref loop with no structure in between"),
    ("unknown-dialect", {"$schema": "https://example.com/my-dialect", "type": "string"},
     "unknown JSON Schema dialect"),
    ("draft-03", {"$schema": "http://json-schema.org/draft-03/schema#", "type": "string"},
     "unknown JSON Schema dialect"),
    ("nesting-10000", _deep(10_000), "nests"),
    ("nesting-500", _deep(500), "nests deeper than"),
    ("data-nesting-10000", _deep_data(10_000), "nests"),
    ("non-utf8", b'{"type": "string", "description": "caf\xe9"}', "is not UTF-8"),
    ("not-a-schema", {"type": "object", "properties": {"a": 3}}, "a schema must be an object or a boolean"),
    ("unknown-type", {"type": "strnig"}, "unknown type 'strnig'"),
    ("discriminator-mapping-dangling", {"oneOf": [{"$ref": "#/$defs/A"}], "$defs": {"A": {"type": "object"}},
                                        "discriminator": {"propertyName": "k", "mapping": {"a": "#/$defs/Gone"}}},
     "discriminator mapping value 'a' selects '#/$defs/Gone', which does not resolve"),
    ("discriminator-mapping-not-a-reference", {"oneOf": [{"type": "object"}],
                                               "discriminator": {"propertyName": "k", "mapping": {"a": 5}}},
     "discriminator mapping must map each value to a schema reference"),
    ("reserved-on-required", {"type": "object", "required": ["a"],
                              "properties": {"a": {"not": {}, "x-persistence-reserved": True}}}, "required"),
]


@pytest.mark.parametrize("content, reason", [case[1:] for case in BAD_SOURCES], ids=[case[0] for case in BAD_SOURCES])
def test_bad_source_exits_2_naming_file_and_reason(tmp_path, content, reason):
    files = {"schemas/bad.schema.json": content if isinstance(content, (str, bytes)) else json.dumps(content)}
    project = write_project(tmp_path / "p", jsonschema_source("bad", "schemas/bad.schema.json"), files)
    before = snapshot(project / "schemas")
    result = invoke("extract", "--project", str(project))
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "bad.schema.json" in result.stderr
    assert reason in result.stderr
    assert result.stdout == ""
    assert snapshot(project / "schemas") == before
    # The same file named on the command line fails the same way.
    direct = invoke("digests", str(project / "schemas" / "bad.schema.json"))
    assert direct.exit_code == 2 and reason in direct.stderr and "bad.schema.json" in direct.stderr


def test_invalid_json_names_the_line(tmp_path):
    project = write_project(tmp_path / "p", jsonschema_source("bad", "schemas/bad.json"),
                            {"schemas/bad.json": '{\n  "type": "object",\n  "properties": {,}\n}'})
    result = invoke("extract", "--project", str(project))
    assert result.exit_code == 2
    assert "schemas/bad.json:3:" in result.stderr


def test_recursive_types_are_fine(tmp_path):
    tree = {"$defs": {"Node": {"type": "object", "properties": {
        "kids": {"type": "array", "items": {"$ref": "#/$defs/Node"}}, "up": {"$ref": "#"}}}},
        "$ref": "#/$defs/Node"}
    project = write_project(tmp_path / "p", jsonschema_source("tree", "schemas/tree.json"), {"schemas/tree.json": tree})
    result = invoke("extract", "--project", str(project))
    assert result.exit_code == 0, result.output


def test_one_bad_file_does_not_hide_another(tmp_path):
    sources = jsonschema_source("one", "schemas/one.json") + jsonschema_source("two", "schemas/two.json")
    project = write_project(tmp_path / "p", sources, {"schemas/one.json": "{", "schemas/two.json": {"$ref": "#/x"}})
    result = invoke("digests", "--project", str(project))
    assert result.exit_code == 2
    assert "one.json" in result.stderr and "two.json" in result.stderr


def test_missing_file_on_command_line(tmp_path):
    result = invoke("digests", str(tmp_path / "absent.json"))
    assert result.exit_code == 2
    assert "absent.json" in result.stderr and "does not exist" in result.stderr


def test_directory_on_command_line(tmp_path):
    (tmp_path / "folder.json").mkdir()
    result = invoke("digests", str(tmp_path / "folder.json"))
    assert result.exit_code == 2
    assert "folder.json" in result.stderr and "is a directory" in result.stderr


def test_configured_directory_is_refused(tmp_path):
    project = write_project(tmp_path / "p", jsonschema_source("dir", "schemas/dir"))
    (project / "schemas" / "dir").mkdir(parents=True)
    before = snapshot(project / "schemas")
    result = invoke("extract", "--project", str(project))
    assert result.exit_code == 2
    assert "schemas/dir" in result.stderr and "is a directory" in result.stderr
    assert snapshot(project / "schemas") == before


def test_fixture_cross_file_dangling(tmp_path):
    """A reference to a file that is not shipped side by side names both the address and the referrer."""
    result = invoke("digests", str(FIXTURES / "dangling" / "root.schema.json"))
    assert result.exit_code == 2
    assert "root.schema.json" in result.stderr
    assert "https://example.com/schemas/missing.schema.json" in result.stderr


# --- configuration ---------------------------------------------------------------------------------

GOOD_SOURCE = jsonschema_source("s", "schemas/s.json")
CONFIG_ERRORS = [
    ("unknown-top-key", GOOD_SOURCE + "", "colour = 1", "tool.govern.colour: unknown key"),
    ("unknown-source-key", GOOD_SOURCE.rstrip() + '\nflavour = "x"\n', "", "tool.govern.sources[0].flavour: unknown key"),
    ("wrong-kind", '[[tool.govern.sources]]\nname = "s"\nkind = "xml"\npath = "schemas/s.json"\n', "",
     "tool.govern.sources[0].kind"),
    ("missing-path", jsonschema_source("s", "schemas/absent.json"), "", "tool.govern.sources[0].path"),
    ("no-path", '[[tool.govern.sources]]\nname = "s"\nkind = "jsonschema"\n', "", "tool.govern.sources[0].path"),
    ("bad-role", jsonschema_source("s", "schemas/s.json", '{ S = { at = "#", role = "boss" } }'), "",
     "tool.govern.sources[0].roots.S.role"),
    ("bad-name", jsonschema_source("a:b", "schemas/s.json"), "", "tool.govern.sources[0].name"),
    ("duplicate-name", GOOD_SOURCE + GOOD_SOURCE, "", "tool.govern.sources[1].name"),
    ("bad-format-version", GOOD_SOURCE.rstrip() + '\nformat-version = "version"\n', "",
     "tool.govern.sources[0].format-version"),
    ("wrong-languages", GOOD_SOURCE, 'languages = ["en", "EN"]', "tool.govern.languages"),
    ("no-sources", "", "", "tool.govern.sources"),
]


@pytest.mark.parametrize("sources, top, key", [case[1:] for case in CONFIG_ERRORS], ids=[case[0] for case in CONFIG_ERRORS])
def test_configuration_errors_name_the_key(tmp_path, sources, top, key):
    project = write_project(tmp_path / "p", sources, {"schemas/s.json": {"type": "string"}})
    if top:
        text = (project / "pyproject.toml").read_text(encoding="utf-8")
        (project / "pyproject.toml").write_text(text.replace('schemas = "schemas"', f'schemas = "schemas"\n{top}'),
                                                encoding="utf-8")
    before = snapshot(project / "schemas")
    for command in (["extract"], ["digests"]):
        result = invoke(*command, "--project", str(project))
        assert result.exit_code == 2, (command, result.output)
        assert key in result.stderr
        assert "pyproject.toml" in result.stderr
        assert "Traceback" not in result.output
    assert snapshot(project / "schemas") == before


def test_invalid_toml(tmp_path):
    project = write_project(tmp_path / "p", GOOD_SOURCE, {"schemas/s.json": {"type": "string"}})
    (project / "pyproject.toml").write_text("[tool.govern\n", encoding="utf-8")
    result = invoke("extract", "--project", str(project))
    assert result.exit_code == 2
    assert "pyproject.toml" in result.stderr and "TOML" in result.stderr


def test_no_govern_table(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "x"\n', encoding="utf-8")
    result = invoke("extract", "--project", str(tmp_path))
    assert result.exit_code == 2
    assert "[tool.govern]" in result.stderr
