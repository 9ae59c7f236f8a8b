"""OpenAPI 3.1 documents that name the standard base dialect are read as 2020-12 documents."""

from __future__ import annotations

import json

import pytest

from govern.cli import cli


def _document(dialect: str | None) -> dict:
    document = {"openapi": "3.1.0", "info": {"title": "t", "version": "1"},
                "paths": {"/a": {"post": {"requestBody": {"content": {"application/json": {
                    "schema": {"$ref": "#/components/schemas/Thing"}}}}, "responses": {}}}},
                "components": {"schemas": {"Thing": {"type": "object", "properties": {
                    "n": {"type": ["integer", "null"], "examples": [1]}}}}}}
    if dialect is not None:
        document["jsonSchemaDialect"] = dialect
    return document


@pytest.mark.parametrize("dialect", [
    "https://spec.openapis.org/oas/3.1/dialect/base",
    "https://spec.openapis.org/oas/3.1/dialect/2024-11-10",
    "https://json-schema.org/draft/2020-12/schema",
])
def test_the_openapi_31_base_dialect_is_read_as_2020_12(runner, tmp_path, dialect):
    digests = {}
    for name, declared in (("declared", dialect), ("default", None)):
        path = tmp_path / f"{name}.openapi.json"
        path.write_text(json.dumps(_document(declared)), encoding="utf-8")
        result = runner.invoke(cli, ["digests", "--json", str(path)])
        assert result.exit_code == 0, result.output
        digests[name] = [root["digest"] for root in json.loads(result.stdout)["roots"].values()]
    assert digests["declared"] == digests["default"]


def test_an_unknown_dialect_is_still_refused(runner, tmp_path):
    path = tmp_path / "odd.openapi.json"
    path.write_text(json.dumps(_document("https://spec.openapis.org/oas/3.1/dialect/custom")), encoding="utf-8")
    result = runner.invoke(cli, ["digests", str(path)])
    assert result.exit_code == 2
    assert "unknown JSON Schema dialect" in result.stderr
