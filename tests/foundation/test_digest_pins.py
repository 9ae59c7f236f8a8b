"""Digests are a stored contract: the ones recorded here must never change.

Records pin digests, so a faster or refactored fingerprint that hashes anything differently would
invalidate every history. This pins the digest of every root and named type of this repository's own
contracts (copied as they stood, so editing the live contracts does not move the pins) and of recursive
fixtures that exercise partition refinement: self and mutual recursion, aliases of recursive types, rings
that need deep unfolding to tell their members apart, rings equal to each other, unions with a
preservation policy bound on a user message (inventory format 2) and a large generated component.

`python tests/foundation/test_digest_pins.py` prints the current digests as JSON (for adding a fixture;
an existing pin is never rewritten).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from govern.config import load_config
from govern.model.inventory import build_inventory
from govern.sources.load import load_configured, load_spec

FIXTURES = Path(__file__).resolve().parent / "fixtures"
PINS = FIXTURES / "digest-pins.json"
RECURSIVE = sorted((FIXTURES / "recursive").glob("*.schema.json"))


def pinned_project_digests() -> dict[str, str]:
    project = FIXTURES / "pinned"
    inventory = build_inventory(load_configured(load_config(project)))
    return {**{f"root {root_id}": entry.digest for root_id, entry in inventory.roots.items()},
            **{f"type {key}": entry.digest for key, entry in inventory.types.items()}}


def fixture_digests(path: Path) -> dict[str, str]:
    inventory = build_inventory([load_spec(str(path), path.parent)])
    return {f"format": str(inventory.format),
            **{f"type {key}": entry.digest for key, entry in inventory.types.items()},
            **{f"root {root_id}": entry.digest for root_id, entry in inventory.roots.items()}}


def current_digests() -> dict[str, dict[str, str]]:
    return {"pinned": pinned_project_digests(), **{path.name: fixture_digests(path) for path in RECURSIVE}}


def test_this_repositorys_contracts_keep_their_digests():
    assert pinned_project_digests() == json.loads(PINS.read_text(encoding="utf-8"))["pinned"]


@pytest.mark.parametrize("path", RECURSIVE, ids=lambda path: path.name)
def test_recursive_fixtures_keep_their_digests(path):
    assert fixture_digests(path) == json.loads(PINS.read_text(encoding="utf-8"))[path.name]


def test_every_fixture_is_pinned():
    assert sorted(json.loads(PINS.read_text(encoding="utf-8"))) == sorted(["pinned", *(p.name for p in RECURSIVE)])


if __name__ == "__main__":
    json.dump(current_digests(), sys.stdout, indent=2, sort_keys=True)
    sys.stdout.write("\n")
