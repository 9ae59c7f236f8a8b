"""Hostile inputs, tried as an adversary would: every reader, every command, never a traceback or a hang.

The shared tables live in hostile_cases.py.
"""

from __future__ import annotations

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, settings

settings.register_profile("hostile", max_examples=60, deadline=None, database=None,
                          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                                 HealthCheck.function_scoped_fixture])


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()
