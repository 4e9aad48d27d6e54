"""Bot benchmark: acknowledgement latency with many tables busy at once, through the offline
Discord server (the real discord.py client, the real bot, a real SQLite file, the real renderer).

    python -m bench.bot [--json] [--games 20] [--moves 8] [--no-render]

Each of ``--games`` channels runs at the same time: ``/pr new`` (3 seats, one AI), a second
player clicks Join, the creator clicks Start (random seating, AI turns, the table rendered and
posted, the first player notified); then ``--moves`` decisions are clicked on game buttons
(``g:<game>:<version>:<code>``, posted the way issue #6's controls will be, the code chosen by
the heuristic policy).  Every interaction's acknowledgement latency is measured from its
dispatch to the bot's callback (``handle.created_at`` -> ``response.at``).

``--json`` prints only ``{"ack_ms": {"p50": .., "p95": .., "max": ..}, "interactions": ..,
"games": .., "seconds": ..}``; details go to stderr.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import discord

from bot.client import GovernorBot
from bot.components import GameButton
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

    async def ack(self, handle: InteractionHandle) -> None:
        response = await handle.response(timeout=30)
        self.latencies.append((response.at - handle.created_at) * 1000)


async def play_table(
    server: OfflineDiscordServer,
    bot: BenchBot,
    channel: Channel,
    creator: ScriptedUser,
    guest: ScriptedUser,
    moves: int,
    rec: Recorder,
) -> None:
    mark = server.mark()
    handle = await creator.run("/pr new max_players:3 ai_seats:1", channel=channel)
    await rec.ack(handle)
    lobby = await server.wait_for_message(
        channel, lambda m: m.find_component(custom_id_prefix="l:") is not None, since=mark,
        timeout=30,
    )
    mark = server.mark()
    await rec.ack(await guest.click(lobby, label="Join"))
    await server.wait_for_message(
        channel, lambda m: m.id == lobby.id and "3 of 3" in m.text(), since=mark, timeout=30
    )
    mark = server.mark()
    await rec.ack(await creator.click(lobby, label="Start"))
    await server.wait_for_message(channel, lambda m: "round 1" in m.text(), since=mark, timeout=30)
    users = {creator.id: creator, guest.id: guest}
    game = get_game("puerto-rico")
    for step in range(moves):
        record = await bot.storage.games.find_by_channel(channel.id)
        if record is None:
            return
        loaded = await bot.storage.games.load(record.id)
        prompt = game.prompt(loaded.state)
        if prompt is None:
            return
        seat = next(s for s in prompt.seats if loaded.record.seat(s) is not None)
        user_id = loaded.record.seat(seat).user_id  # type: ignore[union-attr]
        if user_id is None:
            return
        action = make_policy("heuristic", "puerto-rico", step).choose(
            game, loaded.state, seat, game.legal_actions(loaded.state, seat)
        )
        code = game.encode_action(action)
        message = await post_button(server, bot, channel, record.id, record.version, code)
        await rec.ack(await users[user_id].click(message, custom_id_prefix="g:"))
        await wait_moved(bot, record.id, record.version)


async def post_button(
    server: OfflineDiscordServer, bot: BenchBot, channel: Channel, game_id: int, version: int,
    code: str,
) -> StoredMessage:
    target = bot.get_channel(channel.id)
    assert isinstance(target, discord.TextChannel)
    view = discord.ui.View(timeout=None)
    view.add_item(GameButton(game_id, version, code, label=code))
    sent = await target.send(view=view)
    return await server.wait_for_message(channel, lambda m: m.id == sent.id, timeout=30)


async def wait_moved(bot: BenchBot, game_id: int, version: int, timeout: float = 30) -> None:
    """Until the game has moved past ``version`` (the click was applied and published)."""
    deadline = time.monotonic() + timeout
    while (await bot.storage.games.get(game_id)).version == version:
        if time.monotonic() > deadline:
            raise TimeoutError(f"game {game_id} stayed at version {version}")
        await asyncio.sleep(0.01)


async def measure(games: int, moves: int, render: bool) -> dict[str, Any]:
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
                await asyncio.gather(
                    *(play_table(server, bot, ch, c, g, moves, rec) for ch, c, g in tables)
                )
                seconds = time.perf_counter() - started
                await bot.wait_idle()
            failed = len(server.failed_interactions)
    values = sorted(rec.latencies)
    return {
        "ack_ms": {
            "p50": round(statistics.median(values), 2),
            "p95": round(values[min(len(values) - 1, int(0.95 * len(values)))], 2),
            "max": round(values[-1], 2),
        },
        "interactions": len(values),
        "failed_interactions": failed,
        "games": games,
        "moves_per_game": moves,
        "render": render,
        "seconds": round(seconds, 2),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.bot", description=__doc__)
    parser.add_argument("--json", action="store_true", help="print only the JSON figures")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--moves", type=int, default=8)
    parser.add_argument("--no-render", action="store_true", help="text tables only")
    args = parser.parse_args(argv)
    figures = asyncio.run(measure(args.games, args.moves, not args.no_render))
    if args.json:
        print(json.dumps(figures))
    else:
        for key, value in figures.items():
            print(f"{key}: {value}")
    print(f"{figures['interactions']} interactions in {figures['seconds']} s", file=sys.stderr)
    return 1 if figures["failed_interactions"] else 0


if __name__ == "__main__":
    sys.exit(main())
