"""Fixtures and hypothesis strategies for the sidecar tests.

The strategy builds valid sidecars with unknown fields at every object level and draws ids, anchor
keys and document paths from small pools, so that two drawn sidecars share ids often and a merge
has real divergences to resolve.
"""

from __future__ import annotations

import json
import random
import subprocess
from datetime import datetime, timezone
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from govern.sidecar.timestamps import format_instant

# Registered, not loaded: tests opt in with @settings(settings.get_profile("sidecar")), so other
# test folders keep their own settings when the whole suite runs in one session.
settings.register_profile("sidecar", max_examples=60, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

REPO_ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = REPO_ROOT / "schemas" / "examples" / "sidecar"

# Unknown names carry a prefix no known key has, so they can never collide with one.
unknown_names = st.text(alphabet="abcdefgé_Z", min_size=1, max_size=6).map(lambda text: "x-" + text)
# Numbers include integral floats (`1.0`), tiny and huge magnitudes and -0.0: JSON does not tell `1`
# from `1.0`, so neither may the canonical bytes or the merge.
json_numbers = (st.integers(-10**6, 10**6) | st.integers(-10**6, 10**6).map(float)
                | st.floats(allow_nan=False, allow_infinity=False) | st.integers(-2**53, 2**53))
json_scalars = st.none() | st.booleans() | json_numbers | st.text(max_size=8)
json_values = st.recursive(
    json_scalars,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=6,
)
unknown_fields = st.dictionaries(unknown_names, json_values, max_size=2)
texts = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=12)
instants = st.datetimes(min_value=datetime(2020, 1, 1), max_value=datetime(2030, 12, 31),
                        timezones=st.just(timezone.utc)).map(format_instant)
# A few fixed instants make equal timestamps (and so tie-breaks) likely.
timestamps = st.sampled_from(["2026-06-10T09:15:00.000Z", "2026-06-10T09:15:00.001Z"]) | instants


def _with_unknown(draw: Any, record: dict[str, Any], least: int = 0) -> dict[str, Any]:
    record.update(draw(st.dictionaries(unknown_names, json_values, min_size=least, max_size=max(2, least))))
    return record


@st.composite
def provenances(draw: Any, least: int = 0) -> dict[str, Any]:
    kind = draw(st.sampled_from(["human", "agent"]))
    record: dict[str, Any] = {"kind": kind, "id": draw(st.sampled_from(["ana", "bo", "claude"]))}
    if draw(st.booleans()):
        record["email"] = draw(st.sampled_from(["ana@example.org", "bo@example.org"]))
    if kind == "agent":
        agent: dict[str, Any] = {"sdk": "sdk", "model": draw(st.sampled_from(["m1", "m2"])),
                                 "sessionId": draw(st.sampled_from(["", "s1"]))}
        if draw(st.booleans()):
            agent["onBehalfOf"] = _with_unknown(draw, {"id": "ana"}, least)
        record["agent"] = _with_unknown(draw, agent, least)
    return _with_unknown(draw, record, least)


@st.composite
def messages(draw: Any, message_id: str, least: int = 0) -> dict[str, Any]:
    return _with_unknown(draw, {"id": message_id, "author": draw(provenances(least)), "body": draw(texts),
                                "createdAt": draw(timestamps)}, least)


@st.composite
def sidecars(draw: Any, major: int = 1, least: int = 0) -> dict[str, Any]:
    """Valid sidecars; `least` is the minimum number of unknown fields on every object."""
    anchor_keys = draw(st.lists(st.sampled_from(["a_1", "a_2", "a_3", "a_ü"]), min_size=1, unique=True))
    anchors = {
        key: _with_unknown(draw, {"fingerprint": _with_unknown(draw, {
            "text": draw(st.sampled_from(["alpha", "beta"])), "before": draw(texts), "after": draw(texts),
            "lineHint": draw(st.integers(0, 5) | st.integers(0, 5).map(float))}, least)}, least)
        for key in anchor_keys
    }
    anchor_ids = st.sampled_from(anchor_keys)
    threads = []
    for thread_id in draw(st.lists(st.sampled_from(["t_1", "t_2", "t_3"]), unique=True, max_size=3)):
        message_ids = draw(st.lists(st.sampled_from(["m_1", "m_2", "m_3"]), unique=True, max_size=3))
        threads.append(_with_unknown(draw, {
            "id": thread_id, "anchorId": draw(anchor_ids), "status": draw(st.sampled_from(["open", "resolved"])),
            "messages": [draw(messages(message_id, least)) for message_id in message_ids]}, least))
    attributions = []
    for record_id in draw(st.lists(st.sampled_from(["at_1", "at_2"]), unique=True, max_size=2)):
        record = {"id": record_id, "anchorId": draw(anchor_ids), "author": draw(provenances(least)),
                  "createdAt": draw(timestamps), "updatedAt": draw(timestamps)}
        if draw(st.booleans()):
            record["turnId"] = "turn-1"
        attributions.append(_with_unknown(draw, record, least))
    proposals = []
    for record_id in draw(st.lists(st.sampled_from(["p_1", "p_2"]), unique=True, max_size=2)):
        record = {"id": record_id, "anchorId": draw(anchor_ids), "replacement": draw(texts),
                  "author": draw(provenances(least)), "createdAt": draw(timestamps)}
        if draw(st.booleans()):
            record["instruction"] = draw(texts)
        proposals.append(_with_unknown(draw, record, least))
    document = _with_unknown(draw, {"path": draw(st.sampled_from(["a.md", "b.md"]))}, least)
    artifact = {"schemaVersion": major, "document": document,
                "anchors": anchors, "threads": threads, "attributions": attributions, "proposals": proposals}
    return _with_unknown(draw, artifact, least)


def shuffled(value: Any, rng: random.Random) -> Any:
    """The same JSON with every object's keys in a random order."""
    if isinstance(value, dict):
        keys = list(value)
        rng.shuffle(keys)
        return {key: shuffled(value[key], rng) for key in keys}
    if isinstance(value, list):
        return [shuffled(item, rng) for item in value]
    return value


@pytest.fixture(scope="session")
def gen() -> SimpleNamespace:
    """The strategies, for tests that draw with `st.data()`."""
    return SimpleNamespace(sidecars=sidecars, shuffled=shuffled, unknown_fields=unknown_fields)


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


@pytest.fixture
def example() -> Any:
    def load(name: str) -> dict[str, Any]:
        return json.loads((EXAMPLES / name).read_text(encoding="utf-8"))

    return load


@pytest.fixture
def write_json(tmp_path: Path) -> Any:
    def write(name: str, data: Any) -> Path:
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(data, indent=1), encoding="utf-8")
        return path

    return write


@pytest.fixture
def git_repo(tmp_path: Path) -> Path:
    repo = tmp_path / "repo"
    repo.mkdir()
    for command in (["git", "init", "-q"], ["git", "config", "user.name", "Ana"],
                    ["git", "config", "user.email", "ana@example.org"]):
        subprocess.run(command, cwd=repo, check=True, capture_output=True)
    return repo


SPEC_DOCUMENT = "# Spec\n\nThe cache keeps entries.\nThe cache expires.\n"


@pytest.fixture
def document(git_repo: Path) -> Path:
    """`docs/spec.md` in a fresh git repository; its sidecar is `.threads/docs/spec.md.json`."""
    path = git_repo / "docs" / "spec.md"
    path.parent.mkdir()
    path.write_text(SPEC_DOCUMENT, encoding="utf-8")
    return path
