"""A real PostgreSQL server for the tests: started once per test session from the machine's own
binaries (:mod:`storage.pgserver`), one fresh database per test copied from a migrated
template.

Where no server can be started the PostgreSQL tests are skipped with the reason, unless ``CI``
(which ``.ci/run`` runs with, after installing the server) or ``GOVERNOR_REQUIRE_POSTGRESQL`` is
set: then they fail, so that CI never passes without having run them.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import os
from collections.abc import AsyncIterator, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import asyncpg
import pytest

from storage import Storage
from storage.pgserver import TemporaryServer, Unavailable

TEMPLATE = "governor_template"
_names = itertools.count(1)


class PostgresForTests:
    """The session's server and its migrated template database."""

    def __init__(self, server: TemporaryServer) -> None:
        self.server = server
        self.template_url = server.create_database(TEMPLATE)
        # (in a thread of its own: the first test to need the server may be inside its loop)
        with ThreadPoolExecutor(1) as thread:
            thread.submit(asyncio.run, self._migrate_template()).result()

    async def _migrate_template(self) -> None:
        storage = await Storage.open(self.template_url)
        await storage.close()

    async def new_database(self, *, migrated: bool = True) -> str:
        """A fresh database, empty, at the latest schema (or without any: ``migrated=False``);
        returns its URL."""
        name = f"t{os.getpid()}_{next(_names)}"
        template = f" TEMPLATE {TEMPLATE}" if migrated else ""
        admin = await asyncpg.connect(self.server.url())
        try:
            await admin.execute(f"CREATE DATABASE {name}{template}")
        finally:
            await admin.close()
        return self.server.url(name)

    @contextlib.asynccontextmanager
    async def database(self, *, migrated: bool = True) -> AsyncIterator[str]:
        """:meth:`new_database`, dropped at the end."""
        url = await self.new_database(migrated=migrated)
        try:
            yield url
        finally:
            await self.drop(url)

    async def drop(self, url: str) -> None:
        admin = await asyncpg.connect(self.server.url())
        try:
            await admin.execute(f"DROP DATABASE IF EXISTS {url.rsplit('/', 1)[1]} WITH (FORCE)")
        finally:
            await admin.close()


def start_for_session(directory: Path) -> Iterator[PostgresForTests]:
    try:
        server = TemporaryServer.start(directory)
    except Unavailable as exc:
        if os.environ.get("CI") or os.environ.get("GOVERNOR_REQUIRE_POSTGRESQL"):
            raise
        pytest.skip(f"PostgreSQL tests skipped: {exc}")
    try:
        yield PostgresForTests(server)
    finally:
        server.stop()
