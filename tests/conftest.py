"""Test-wide settings.

Hypothesis: no per-example deadline (the machines are shared; timing is not what these tests
check), and under CI (``CI`` set, as ``.ci/run`` runs) the examples are derandomized so that a
run is reproducible; locally every run explores new examples.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import settings

from tests.postgres import PostgresForTests, start_for_session

settings.register_profile("local", deadline=None)
settings.register_profile("ci", deadline=None, derandomize=True, print_blob=True)
settings.load_profile("ci" if os.environ.get("CI") else "local")


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto``: a worker per core this process may use, and one more when the end-to-end
    tests run: they wait (discord.py's back-off on a 5xx, the shards' processes, the database),
    and a third worker on two cores keeps both busy meanwhile; without them a third worker
    only competes (docs/testing.md)."""
    affinity = getattr(os, "sched_getaffinity", None)  # Linux; elsewhere every core
    cores = len(affinity(0)) if affinity is not None else os.cpu_count() or 1
    return cores if "not e2e" in str(config.getoption("markexpr", "")) else cores + 1


@pytest.fixture(scope="session")
def postgres() -> Iterator[PostgresForTests]:
    """A real PostgreSQL server for the whole session (tests/postgres.py).  Its files are not
    under pytest's temporary directory: pytest makes that private to this user at every start,
    and the server may run as another (tests/postgres.py says why)."""
    directory = Path(tempfile.mkdtemp(prefix="governor-postgresql-"))
    try:
        yield from start_for_session(directory)
    finally:
        shutil.rmtree(directory, ignore_errors=True)
