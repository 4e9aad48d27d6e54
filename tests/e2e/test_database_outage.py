"""The database stops answering right after a move is stored, then comes back.

On SQLite the outage is the file out of reach (every use of the connection raises SQLite's
"disk I/O error" for a while); on PostgreSQL the real server of the tests is stopped and
started again (``tests/postgres.py``).  Either way:

* the mover is answered at once: the move is saved, the table will catch up (not "nothing was
  changed", which would be wrong, and not "something went wrong");
* a click during the outage gets one clear private line (the database does not answer,
  nothing was changed), and no interaction is left unanswered;
* the bot logs one WARNING when the outage begins and one line when the database answers
  again, and then publishes what it left behind: the table shows the stored game.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import sqlite3
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest

from bot.settings import Settings
from storage import SqliteDatabase
from tests.e2e.conftest import NoShuffle, OfflineGovernor, World
from tests.e2e.game_play import shown_version, table_at
from tests.e2e.test_stale_clicks import setup
from tests.offline_discord import running_client
from tests.postgres import PostgresForTests

UNREACHABLE = "The game database does not answer right now, so nothing was changed."
SAVED = "Your move in game #{game} is saved."


class FileOutage:
    """SQLite's file out of reach: every use of the connection raises "disk I/O error" (as
    SQLite does) between :meth:`begin` and :meth:`end`."""

    METHODS = ("_fetchall", "_write", "_write_in_thread", "_snapshot_read")

    def __init__(self) -> None:
        self.db: SqliteDatabase | None = None

    async def begin(self, bot: OfflineGovernor) -> None:
        assert isinstance(bot.storage.db, SqliteDatabase)
        self.db = bot.storage.db

        def broken(*args: Any, **kwargs: Any) -> Any:
            async def fail() -> Any:
                raise sqlite3.OperationalError("disk I/O error")
            return fail()

        for name in self.METHODS:
            setattr(self.db, name, broken)

    async def end(self) -> None:
        if self.db is not None:
            for name in self.METHODS:
                delattr(self.db, name)  # the class's own again
            self.db = None


class ServerOutage:
    """The tests' PostgreSQL server stopped (a fast shutdown: its connections are cut) and
    started again on its port with everything it held."""

    def __init__(self, postgres: PostgresForTests) -> None:
        self.postgres = postgres
        self.stopped = False

    async def begin(self, bot: OfflineGovernor) -> None:
        self.stopped = True
        await asyncio.to_thread(self.postgres.server.stop)

    async def end(self) -> None:
        if self.stopped:
            self.stopped = False
            await asyncio.to_thread(self.postgres.server.start_again)


@dataclasses.dataclass
class Backend:
    url: str
    outage: FileOutage | ServerOutage


@pytest.fixture(params=["sqlite", "postgresql"])
async def backend(request: pytest.FixtureRequest, bot_settings: Settings
                  ) -> AsyncIterator[Backend]:
    """The bot's database and how it goes away; the server is always up again at the end
    (the session's PostgreSQL serves the other tests too)."""
    if request.param == "sqlite":
        yield Backend(bot_settings.database_url, FileOutage())
        return
    postgres: PostgresForTests = request.getfixturevalue("postgres")
    outage = ServerOutage(postgres)
    try:
        async with postgres.database() as url:
            yield Backend(url, outage)
    finally:
        await outage.end()


async def test_an_outage_after_a_move_then_recovery(
    world: World, bot_settings: Settings, backend: Backend, caplog: pytest.LogCaptureFixture
) -> None:
    server = world.server
    settings = dataclasses.replace(bot_settings, database_url=backend.url)
    bot = OfflineGovernor(settings, rng=NoShuffle(7), guild_ready_timeout=0.05, renderer=None,
                          reminder_period=None, database_probe=0.05)
    outage = backend.outage
    async with running_client(server, bot):
        await server.wait_for_command_sync(world.guild)
        record, people = await setup(world, bot, "puerto-rico")
        carol = people[1]
        table = await table_at(world, bot, record.id)
        publish: Callable[..., Any] = bot.publisher.publish_table

        async def gone_after_the_commit(update: Any) -> None:
            """The outage begins once the move is stored, as its table is published."""
            bot.publisher.publish_table = publish  # type: ignore[method-assign]
            await outage.begin(bot)
            await publish(update)

        bot.publisher.publish_table = gone_after_the_commit  # type: ignore[method-assign]
        with caplog.at_level(logging.INFO):
            handle = await world.alice.click(table, custom_id=f"g:{record.id}:{record.version}:"
                                                              "r.builder")
            assert (await handle.response()).type == 6
            saved = await handle.wait_for_followup()
            assert saved.ephemeral and saved.content.startswith(SAVED.format(game=record.id))
            assert bot.storage.db.availability.down
            # during the outage: one clear line, at once
            refused = await carol.click(server.get_message(table.id) or table, label="My turn")
            answer = await refused.wait_for_followup()
            assert answer.ephemeral and answer.content.startswith(UNREACHABLE)
            typed = await carol.run("/game board", channel=world.general)
            assert (await typed.wait_for_followup()).content.startswith(UNREACHABLE)
            assert shown_version(server.get_message(table.id) or table, record.id) == (
                record.version)

            await outage.end()

            def caught_up() -> bool | None:
                shown = server.get_message(table.id) or table
                return True if shown_version(shown, record.id) > record.version else None

            await server.wait_for(caught_up, what="the table published again")
            await bot.database_watch.settled()
            await bot.wait_idle()
        stored = await bot.storage.games.get(record.id)
        assert shown_version(server.get_message(table.id) or table, record.id) == stored.version
        assert "Builder phase" in (server.get_message(table.id) or table).text()
        assert (await bot.storage.publications.get(record.id)).version == stored.version  # type: ignore[union-attr]
        lost = [r for r in caplog.records if "does not answer (" in r.getMessage()
                and r.name == "bot.outage"]
        back = [r for r in caplog.records if "answers again" in r.getMessage()]
        assert len(lost) == 1 and lost[0].levelno == logging.WARNING
        assert len(back) == 1, [r.getMessage() for r in back]
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR], [
            r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    server.assert_no_failed_interactions()
