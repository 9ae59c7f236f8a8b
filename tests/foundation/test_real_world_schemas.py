"""Real-world schema sets: the JSON Schema metaschemas (always) and cfn-lint's CloudFormation schemas (if found).

`govern digests` must finish without a traceback. The metaschemas are recursive and use `$dynamicRef` and
`$recursiveRef`; they are laid out side by side as their `$id`s say (the package ships them under other
file names). CloudFormation resource schemas are draft-07; a sample keeps the test fast, and
benchmarks can run the full set.
"""

from __future__ import annotations

import glob
import json
import random
import shutil
from pathlib import Path

import jsonschema_specifications
import pytest

from conftest import invoke

SPECIFICATIONS = Path(jsonschema_specifications.__file__).parent / "schemas"
CFN_PATTERNS = [
    "/usr/local/lib/python3*/site-packages/cfnlint/data/schemas",
    "/usr/lib/python3*/site-packages/cfnlint/data/schemas",
    "/usr/lib/python3/dist-packages/cfnlint/data/schemas",
    "/root/.pyenv/versions/*/lib/python3*/site-packages/cfnlint/data/schemas",
]
CFN_SAMPLE = 400
KNOWN_DIALECTS = ("json-schema.org/draft-07/schema", "json-schema.org/draft-04/schema",
                  "json-schema.org/draft-06/schema", "json-schema.org/draft/2019-09/schema",
                  "json-schema.org/draft/2020-12/schema")


def _metaschema_tree(target: Path) -> list[Path]:
    """Each metaschema with its vocabularies at the relative paths their `$id`s imply (meta/<name>)."""
    paths = []
    for folder in sorted(SPECIFICATIONS.iterdir()):
        metaschema = folder / "metaschema.json"
        if folder.name == "draft3" or not metaschema.is_file():
            continue  # draft-03 is not a dialect govern reads (tested as an error elsewhere)
        (target / folder.name).mkdir(parents=True)
        shutil.copyfile(metaschema, target / folder.name / "metaschema.json")
        vocabularies = folder / "vocabularies"
        if vocabularies.is_dir():
            (target / folder.name / "meta").mkdir()
            for vocabulary in vocabularies.iterdir():
                shutil.copyfile(vocabulary, target / folder.name / "meta" / vocabulary.name)
        paths.append(target / folder.name / "metaschema.json")
    return paths


def test_metaschemas(tmp_path):
    paths = _metaschema_tree(tmp_path)
    assert len(paths) >= 5
    result = invoke("digests", "--json", *map(str, paths))
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output
    roots = json.loads(result.stdout)["roots"]
    assert len(roots) >= 5
    # Same input, same digests; the draft-06 and draft-07 helper definitions that are equal hash alike.
    assert invoke("digests", "--json", *map(str, paths)).stdout == result.stdout


def _cfn_resource_schemas() -> list[Path]:
    found: list[Path] = []
    for pattern in CFN_PATTERNS:
        for folder in sorted(glob.glob(pattern)):
            # Older cfn-lint ships providers/<region>/*.json, newer ones resources/*.json.
            found += [Path(p) for p in sorted(glob.glob(f"{folder}/providers/*/*.json"))]
            found += [Path(p) for p in sorted(glob.glob(f"{folder}/resources/*.json"))]
        if found:
            return found
    return found


def _declared_dialect(path: Path) -> str | None:
    try:
        declared = json.loads(path.read_text(encoding="utf-8")).get("$schema")
    except (ValueError, OSError):
        return None
    return declared if isinstance(declared, str) else None


def test_cloudformation_resource_schemas_sample():
    schemas = _cfn_resource_schemas()
    if not schemas:
        pytest.skip("cfn-lint's CloudFormation schemas are not installed here")
    sample = sorted(random.Random(20261130).sample(schemas, min(CFN_SAMPLE, len(schemas))))
    # Some providers declare CloudFormation's own meta-schema as `$schema`: govern refuses unknown dialects.
    readable = [path for path in sample if _declared_dialect(path) is None
                or any(dialect in _declared_dialect(path) for dialect in KNOWN_DIALECTS)]
    foreign = [path for path in sample if path not in readable]
    failures = []
    for path in readable:
        result = invoke("digests", str(path))
        if result.exit_code != 0:
            failures.append((path.name, result.exit_code, result.output.strip()[:300]))
        assert "Traceback" not in result.output
    # One known upstream defect: a definition that is only a reference to itself (a genuine $ref loop).
    assert all("$ref loop with no structure" in output for _, code, output in failures if code == 2), failures
    assert all(code == 2 for _, code, _ in failures), failures
    assert len(failures) <= 1, failures
    for path in foreign[:5]:
        result = invoke("digests", str(path))
        assert result.exit_code == 2 and "unknown JSON Schema dialect" in result.stderr
        assert "Traceback" not in result.output
