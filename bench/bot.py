"""Bot benchmark: with many games in progress at once, through the offline Discord server (the
real discord.py client, the real bot, a real SQLite file, the real renderer), how fast each
interaction is acknowledged and how fast the table follows a click.

    python -m bench.bot [--json] [--games 50] [--moves 8] [--think 3] [--no-render]

Each of ``--games`` channels runs at the same time: ``/pr new`` (3 seats, one AI), a second
player clicks Join, the creator clicks Start (random seating, AI turns, the table rendered and
posted, the first player notified); then ``--moves`` decisions are made with the real controls
(the code chosen by the heuristic policy): a role button on the table, or **My turn** and the
private panel's button or menu.  The moves begin once every game has started; each player
thinks ``--think`` seconds on average (0.5x to 1.5x) before a move, so the tables are busy at
the same time without moving in lock step.

* ``ack_ms``: every interaction, from its dispatch to the bot's callback
  (``handle.created_at`` -> ``response.at``).
* ``update_ms``: every move, from the click that made it to the moment the offline server holds
  the table message drawn for the new state (its buttons carry the game version).

``--json`` prints only ``{"ack_ms": {"p50", "p95", "max"}, "update_ms": {"p50", "p95", "max"},
"interactions", "moves", "games", ...}``; details go to stderr.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bot.client import GovernorBot
from bot.settings import Settings
from engine.core import get_game
from engine.policies import make_policy
from tests.offline_discord import (
    Channel,
    InteractionHandle,
    OfflineDiscordServer,
    ScriptedUser,
    StoredMessage,
    running_client,
)


class BenchBot(GovernorBot):
    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        return None


class Recorder:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.updates: list[float] = []

    async def ack(self, handle: InteractionHandle) -> None:
        response = await handle.response(timeout=30)
        self.latencies.append((response.at - handle.created_at) * 1000)


def shown_version(message: StoredMessage | None, game_id: int) -> int:
    """The version the table message was drawn for (its buttons carry it)."""
    for comp in message.iter_components() if message else ():
        custom_id = str(comp.get("custom_id", ""))
        if custom_id.startswith(f"t:{game_id}:"):
            return int(custom_id.split(":")[2])
    return -1


async def play_table(
    server: OfflineDiscordServer,
    bot: BenchBot,
    channel: Channel,
    creator: ScriptedUser,
    guest: ScriptedUser,
    moves: int,
    think: float,
    rec: Recorder,
    started: asyncio.Barrier,
) -> None:
    mark = server.mark()
    handle = await creator.run("/pr new max_players:3 ai_seats:1", channel=channel)
    await rec.ack(handle)
    lobby = await server.wait_for_message(
        channel, lambda m: m.find_component(custom_id_prefix="l:") is not None, since=mark,
        timeout=60,
    )
    mark = server.mark()
    await rec.ack(await guest.click(lobby, label="Join"))
    await server.wait_for_message(
        channel, lambda m: m.id == lobby.id and "3 of 3" in m.text(), since=mark, timeout=60
    )
    mark = server.mark()
    await rec.ack(await creator.click(lobby, label="Start"))
    await server.wait_for_message(channel, lambda m: "round 1" in m.text(), since=mark, timeout=60)
    await started.wait()  # measure with every game in progress
    users = {creator.id: creator, guest.id: guest}
    game = get_game("puerto-rico")
    rng = random.Random(channel.id)
    found = await bot.storage.games.find_by_channel(channel.id)
    assert found is not None
    for step in range(moves):
        await asyncio.sleep(think * rng.uniform(0.5, 1.5))
        loaded = await bot.storage.games.load(found.id)
        record, prompt = loaded.record, game.prompt(loaded.state)
        if prompt is None:
            return
        seat = next(s for s in prompt.seats if (r := record.seat(s)) and r.user_id)
        user = users[int(record.seat(seat).user_id or 0)]  # type: ignore[union-attr]
        action = make_policy("heuristic", "puerto-rico", step).choose(
            game, loaded.state, seat, game.legal_actions(loaded.state, seat)
        )
        code = game.encode_action(action)
        table = server.get_message(record.messages["table"])
        assert table is not None
        if code.startswith("r."):
            click = await user.click(table, custom_id=f"g:{record.id}:{record.version}:{code}")
        else:
            opened = await user.click(table, label="My turn")
            await rec.ack(opened)
            click = await in_panel(user, await opened.original_message(timeout=60), record,
                                   code)
        await rec.ack(click)
        table_id, game_id, version = record.messages["table"], record.id, record.version

        def moved(table_id: int = table_id, game_id: int = game_id, version: int = version
                  ) -> bool | None:
            return shown_version(server.get_message(table_id), game_id) > version or None

        await server.wait_for(moved, timeout=60)
        rec.updates.append((time.monotonic() - click.created_at) * 1000)


async def in_panel(user: ScriptedUser, panel: StoredMessage, record: Any, code: str
                   ) -> InteractionHandle:
    """Click the panel's control for ``code`` (a placement goes through the Mayor draft)."""
    custom_id = f"g:{record.id}:{record.version}:{code}"
    if panel.find_component(custom_id=custom_id) is not None:
        return await user.click(panel, custom_id=custom_id)
    for select in panel.selects():
        if any(o["value"] == code for o in select.get("options", ())):
            return await user.select(panel, [code], custom_id=select["custom_id"])
    return await user.click(panel, custom_id_prefix=f"mb:{record.id}:")


def figures(values: list[float]) -> dict[str, float]:
    values = sorted(values) or [0.0]
    return {
        "p50": round(statistics.median(values), 2),
        "p95": round(values[min(len(values) - 1, int(0.95 * len(values)))], 2),
        "max": round(values[-1], 2),
    }


async def measure(games: int, moves: int, render: bool, think: float) -> dict[str, Any]:
    rec = Recorder()
    with tempfile.TemporaryDirectory(prefix="governor-bench-") as tmp:
        async with OfflineDiscordServer() as server:
            guild = server.add_guild("Bench")
            tables = []
            for i in range(games):
                channel = server.add_text_channel(guild, f"table-{i}")
                creator = server.add_user(f"creator{i}", guild=guild)
                guest = server.add_user(f"guest{i}", guild=guild)
                tables.append((channel, creator, guest))
            settings = Settings(token=server.bot_token, database_path=Path(tmp) / "bench.db",
                                dev_guild_id=guild.id)
            options: dict[str, Any] = {"guild_ready_timeout": 0.05}
            if not render:
                options["renderer"] = None
            bot = BenchBot(settings, **options)
            async with running_client(server, bot):
                await server.wait_for_command_sync(guild)
                started = time.perf_counter()
                barrier = asyncio.Barrier(len(tables))
                await asyncio.gather(
                    *(play_table(server, bot, ch, c, g, moves, think, rec, barrier)
                      for ch, c, g in tables)
                )
                seconds = time.perf_counter() - started
                await bot.wait_idle()
            failed = len(server.failed_interactions)
    return {
        "ack_ms": figures(rec.latencies),
        "update_ms": figures(rec.updates),
        "interactions": len(rec.latencies),
        "moves": len(rec.updates),
        "failed_interactions": failed,
        "games": games,
        "moves_per_game": moves,
        "think_s": think,
        "render": render,
        "seconds": round(seconds, 2),
        "moves_per_s": round(len(rec.updates) / seconds, 1) if seconds else 0.0,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.bot", description=__doc__)
    parser.add_argument("--json", action="store_true", help="print only the JSON figures")
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--moves", type=int, default=8)
    parser.add_argument("--think", type=float, default=3.0,
                        help="mean seconds a player thinks before a move")
    parser.add_argument("--no-render", action="store_true", help="text tables only")
    args = parser.parse_args(argv)
    result = asyncio.run(measure(args.games, args.moves, not args.no_render, args.think))
    if args.json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key}: {value}")
    print(f"{result['interactions']} interactions, {result['moves']} moves in "
          f"{result['seconds']} s", file=sys.stderr)
    return 1 if result["failed_interactions"] else 0


if __name__ == "__main__":
    sys.exit(main())
