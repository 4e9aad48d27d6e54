"""The tests' own PostgreSQL servers (:mod:`storage.pgserver`): each pytest-xdist worker starts
one on a free loopback port, so a port can be taken by another process between the moment it
was found free and the moment the server binds it."""

from __future__ import annotations

import os
import shutil
import socket
import tempfile
from pathlib import Path

import pytest

from storage import pgserver
from storage.pgserver import TemporaryServer, Unavailable


def test_a_port_taken_before_the_server_binds_it_is_replaced(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The first port offered is held by a listening socket: the server starts on another."""
    try:
        pgserver.find_binaries()
    except Unavailable as exc:
        if os.environ.get("CI") or os.environ.get("GOVERNOR_REQUIRE_POSTGRESQL"):
            raise
        pytest.skip(f"PostgreSQL tests skipped: {exc}")
    any_port = pgserver.free_port
    # (not under tmp_path: the server may run as another user, tests/conftest.py says why)
    directory = Path(tempfile.mkdtemp(prefix="governor-postgresql-"))
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        busy = int(taken.getsockname()[1])
        offered: list[int] = []

        def first_the_busy_one() -> int:
            offered.append(busy if not offered else any_port())
            return offered[-1]

        monkeypatch.setattr(pgserver, "free_port", first_the_busy_one)
        try:
            server = TemporaryServer.start(directory)
            try:
                assert offered[0] == busy and server.port == offered[-1] != busy
                assert server.psql("SELECT 1").strip() == "1"
            finally:
                server.stop()
        finally:
            shutil.rmtree(directory, ignore_errors=True)
