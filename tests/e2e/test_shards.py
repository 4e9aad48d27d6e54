"""Past one process (issue #15): two bot processes, each running one of two Discord shards, on
one PostgreSQL database, serve games in servers of both shards at once; one of them is killed
(SIGKILL) mid-game and started again: its games go on where they were, nothing lost, nothing
done twice.

The bots are real processes started with the real command line (``python -m bot --shards 0
--shard-count 2``, through :mod:`tests.e2e.bot_process`), settings from the environment; the
offline Discord server routes each server's events to the connection of its shard.  The test
reads the games through a storage of its own on the same database, as a third process would.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any, cast

import pytest

from storage import GameStatus, Storage
from tests.e2e.conftest import OfflineGovernor, World
from tests.e2e.game_play import Players, settled, start
from tests.e2e.processes import BotProcesses, alive, guild_on_shard
from tests.offline_discord import OfflineDiscordServer, Perm, StoredMessage
from tests.postgres import PostgresForTests

SHARDS = 2


class Observer:
    """What the scripted players need of a bot: its storage (the test's own, on the same
    database: the players read the game to choose their moves, as people read the table)."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage


def world_on_shard(server: OfflineDiscordServer, shard: int, name: str) -> World:
    """A server whose events Discord sends to ``shard``, with #general and two people."""
    guild = guild_on_shard(server, shard, SHARDS, name)
    general = server.add_text_channel(guild, "general")
    role = server.add_role(guild, "Game Master", permissions=Perm.MANAGE_GUILD)
    manager = server.add_user(f"gm{shard}", guild=guild, roles=[role])
    alice = server.add_user(f"alice{shard}", guild=guild)
    bob = server.add_user(f"bob{shard}", guild=guild)
    return World(server, guild, general, role, manager, alice, bob)


@pytest.fixture
async def database_url(postgres: PostgresForTests) -> AsyncIterator[str]:
    async with postgres.database() as url:
        yield url


@pytest.fixture
async def processes() -> AsyncIterator[list[BotProcesses]]:
    holder: list[BotProcesses] = []
    try:
        yield holder
    finally:
        for bots in holder:
            await bots.stop()


async def test_two_processes_two_shards_one_killed_mid_game(
    database_url: str, tmp_path: Path, processes: list[BotProcesses]
) -> None:
    server = OfflineDiscordServer()
    await server.start()
    observer = await Storage.open(database_url)
    try:
        worlds = [world_on_shard(server, shard, f"Table {shard}") for shard in range(SHARDS)]
        bots = BotProcesses(server, database_url, tmp_path, shard_count=SHARDS)
        processes.append(bots)
        await bots.sync_commands()
        await bots.start_all([(shard,) for shard in range(SHARDS)])  # process i: shard i
        bot = cast(OfflineGovernor, Observer(observer))

        # A game in a server of each shard, at once: two people and a heuristic AI each.
        records = await asyncio.gather(*(
            start(w, bot, w.alice, [w.bob], "game:puerto-rico max_players:3 ai_seats:1")
            for w in worlds))
        tables = [Players(w, bot, r.id, {w.alice.id: w.alice, w.bob.id: w.bob})
                  for w, r in zip(worlds, records, strict=True)]
        await asyncio.gather(*(t.play(max_moves=12) for t in tables))

        # Shard 0's process dies in the middle of a move: once the move is stored, before the
        # table shows it.
        move = await tables[0].next_move()
        assert move is not None
        user, _, code = move
        version = (await observer.games.get(records[0].id)).version
        clicked = asyncio.create_task(tables[0].make(user, code))
        while (await observer.games.get(records[0].id)).version == version:
            await asyncio.sleep(0.002)
        workers = bots.kill(0)
        clicked.cancel()
        await asyncio.gather(clicked, return_exceptions=True)
        shown = await observer.publications.get(records[0].id)
        assert shown is None or shown.version < (await observer.games.get(records[0].id)).version

        # Shard 1 is not concerned: its game goes on meanwhile.
        await tables[1].play(max_moves=8)
        # The dead process's workers (images, AI) end by themselves (bot/workers.py).
        assert workers
        await server.wait_for(lambda: not alive(workers) or None, timeout=60,
                              what="the killed bot's workers ending")

        # Shard 0 again: the new process shows the stored move (and whatever the AI played
        # after it) at start-up, and the game goes on.
        await bots.start(0, (0,))
        await settled(worlds[0], bot, records[0].id, version)
        assert re.search(rf"game {records[0].id}: publishing v\d+ again \(shown: v{version}\)",
                         bots.log_text(0))
        played = await asyncio.gather(*(t.play() for t in tables))
        assert all(n > 0 for n in played)

        for world, record in zip(worlds, records, strict=True):
            final = await observer.games.get(record.id)
            assert final.status is GameStatus.FINISHED, (final.status, bots.log_text(0))
            # One final score sheet, and the table (edited, not posted again) says it too.
            def sheet(m: StoredMessage) -> bool:
                return any(a.filename.endswith("-scores.png") for a in m.attachments)

            await server.wait_for_message(world.general, sheet)
            posts = server.messages(world.general, include_ephemeral=False)
            assert len([m for m in posts if sheet(m)]) == 1
            finals = [m.id for m in posts if "final scores" in m.text() and not sheet(m)]
            assert finals == [final.messages["table"]]
            log = await observer.games.actions(record.id, include_undone=True)
            assert [a.seq for a in log] == list(range(1, len(log) + 1))
        report = await observer.verify()
        assert report.ok, report.problems
        # Every click was answered but the one sent to the process that was killed.
        unanswered: list[Any] = [h for h in server.failed_interactions if h.user.id != user.id]
        assert not unanswered
    finally:
        for bots in processes:
            await bots.stop()
        await observer.close()
        await server.stop()
