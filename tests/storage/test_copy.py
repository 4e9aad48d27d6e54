"""``python -m storage copy``: a whole database moved to another backend, every table equal to its
source, the copy's own check refusing anything else (storage/copy.py)."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

import pytest

from storage import Storage
from storage.__main__ import main
from storage.copy import TABLES, CopyFailed, copy_database, digests
from storage.database import Database
from storage.timebank import per_move
from tests.postgres import PostgresForTests
from tests.storage.conftest import FakeClock
from tests.storage.helpers import USER, active_game, play_some, play_to_end


async def fill(storage: Storage) -> None:
    """Games in every state, with everything the schema holds: seats, logs, results, ratings,
    timers, alerts, a clock vote with a ballot, an undo, a hand-over, settings, messages."""
    for n in range(3):
        record = await active_game(storage, channel_id=500 + n, user_base=USER * (n + 1),
                                   players=3 + n % 2, ai_seats=n % 2)
        if n == 0:
            await play_to_end(storage, record.id, random.Random(n))
        else:
            await play_some(storage, record.id, 25 + n, random.Random(n))
        await storage.games.set_message(record.id, "table", 9000 + n, channel_id=500 + n)
    await storage.games.create_lobby("puerto-rico", creator_id=77, guild_id=1, channel_id=600)
    await storage.settings.update_user(USER, language="es")
    await storage.settings.update_guild(1, language="pt", reminder_hours=12)
    game = await storage.games.find_by_channel(501)
    assert game is not None
    await storage.reminders.set_timers(game.id, reminder_hours=6, pace=per_move(2))


def test_the_table_list_is_the_whole_schema(tmp_path: Path) -> None:
    """A table the copy does not know would be left behind: the list is every table."""
    import asyncio

    path = tmp_path / "g.db"
    asyncio.run(_open_close(path))
    with sqlite3.connect(path) as conn:
        tables = {r[0] for r in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")}
    assert tables == {t for t, _ in TABLES}


async def _open_close(path: Path) -> None:
    storage = await Storage.open(path)
    await storage.close()


async def test_sqlite_to_postgresql_and_back_is_exact(
    tmp_path: Path, clock: FakeClock, postgres: PostgresForTests
) -> None:
    source = await Storage.open(tmp_path / "g.db", clock=clock)
    await fill(source)
    url = await postgres.new_database()
    target = await Database.open(url, clock=clock)
    try:
        report = await copy_database(source.db, target)
        assert report.rows == sum(t.rows for t in await digests(source.db)) > 300
        assert await digests(target) == await digests(source.db)
        # The copy is a working database: it verifies, and new games get new ids.
        copied = Storage(target)
        assert (await copied.verify()).ok
        newest = max(r.id for r in await copied.games.list_by_status(limit=100))
        lobby = await copied.games.create_lobby("puerto-rico", creator_id=1, channel_id=999)
        assert lobby.id == newest + 1
        # And back to a new SQLite file, equal again.
        back = await Database.open(tmp_path / "back.db", clock=clock)
        try:
            await target.write(_delete_game(lobby.id))
            await copy_database(target, back)
            assert await digests(back) == await digests(source.db)
        finally:
            await back.close()
    finally:
        await target.close()
        await source.close()
        await postgres.drop(url)


def _delete_game(game_id: int):
    async def body(tx):
        await tx.execute("DELETE FROM games WHERE id = ?", (game_id,))

    return body


async def test_a_target_with_rows_is_refused_and_left_alone(
    tmp_path: Path, clock: FakeClock
) -> None:
    source = await Storage.open(tmp_path / "a.db", clock=clock)
    target = await Storage.open(tmp_path / "b.db", clock=clock)
    try:
        await fill(source)
        await target.games.create_lobby("puerto-rico", creator_id=5, channel_id=5)
        before = await digests(target.db)
        with pytest.raises(CopyFailed, match="not empty"):
            await copy_database(source.db, target.db)
        assert await digests(target.db) == before
    finally:
        await source.close()
        await target.close()


async def test_a_copy_that_differs_is_reported(
    tmp_path: Path, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The check compares what was read with what the target holds: a row changed on the way
    (here: the last page of every table written twice over by a faulty target) fails it."""
    source = await Storage.open(tmp_path / "a.db", clock=clock)
    target = await Storage.open(tmp_path / "b.db", clock=clock)
    try:
        await fill(source)
        real = target.db.write

        async def corrupting(body, **kwargs):
            result = await real(body, **kwargs)
            await real(_retitle)
            return result

        monkeypatch.setattr(target.db, "write", corrupting)
        with pytest.raises(CopyFailed, match="rows differ") as failed:
            await copy_database(source.db, target.db)
        assert failed.value.fields["table"] == "user_settings"
    finally:
        await source.close()
        await target.close()


async def _retitle(tx):
    await tx.execute("UPDATE user_settings SET language = 'en'")


def test_the_command_copies_reports_and_refuses_a_second_time(
    tmp_path: Path, postgres: PostgresForTests, capsys: pytest.CaptureFixture[str]
) -> None:
    import asyncio

    async def prepare() -> str:
        storage = await Storage.open(tmp_path / "g.db")
        await fill(storage)
        await storage.close()
        return await postgres.new_database()

    url = asyncio.run(prepare())
    try:
        assert main(["copy", str(tmp_path / "g.db"), url]) == 0
        out = capsys.readouterr().out
        assert "every table equal to its source" in out
        assert out.count("rows  sha256") == len(TABLES)
        assert main(["verify", url]) == 0
        assert main(["copy", str(tmp_path / "g.db"), url]) == 1
        assert "the target database is not empty" in capsys.readouterr().err
        assert main(["copy", str(tmp_path / "absent.db"), url]) == 2
    finally:
        asyncio.run(postgres.drop(url))
