"""Test-wide settings.

Hypothesis: no per-example deadline (the machines are shared; timing is not what these tests
check), and under CI (``CI`` set, as ``.ci/run`` runs) the examples are derandomized so that a
run is reproducible; locally every run explores new examples.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from hypothesis import settings

from tests.postgres import PostgresForTests, start_for_session

settings.register_profile("local", deadline=None)
settings.register_profile("ci", deadline=None, derandomize=True, print_blob=True)
settings.load_profile("ci" if os.environ.get("CI") else "local")


@pytest.fixture(scope="session")
def postgres(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PostgresForTests]:
    """A real PostgreSQL server for the whole session (tests/postgres.py)."""
    yield from start_for_session(tmp_path_factory.mktemp("postgresql"))
