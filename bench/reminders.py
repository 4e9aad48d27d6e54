"""The reminder pass over many waiting games (issue #35): the CPU of one pass.

    python -m bench.reminders [--games 10000] [--seed 0] [--json]
    python -m bench.bot --scenario reminders [--games N] [--json]     (the same bench)

``--games`` games (of the first game the bot offers) are in progress in one SQLite file,
each waiting on one person (copies of seeded random games, ``bench.storage``'s
``fill_games``), with the normal pace (3 days to start), their server's quiet weekends in
Europe/Madrid, and waits begun from a minute to eight days ago.  Then the bot's reminder pass
(``bot.reminders.Reminders.tick``, the real one, with a notifier and clock votes that record
instead of reaching Discord) runs twice at the same moment: the first sends everything due
(reminders, bank warnings, stand-ins for the banks run out, digests: each one loads its game),
the second finds all of it claimed: the pass every five minutes of a bot whose games are all
waiting.  A tenth of the games are paused, a twentieth of the people away, a tenth take a
digest and a tenth have quiet hours (Europe/Madrid), a twentieth of the games are muted.
Printed: each pass's CPU (the process's, in seconds), the waits it read and what it sent.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sqlite3
import sys
import tempfile
import time
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import discord

from bench.storage import GAME, fill_games, play_template
from bot.notify import Notifier
from bot.reminders import Reminders
from storage import GameRecord, Storage, Wait
from storage.records import to_ms
from storage.timebank import PRESETS, Quiet, quiet_columns

NOW = datetime(2026, 12, 9, 12, tzinfo=UTC)  # a Wednesday: no quiet weekend at the moment
GUILD = 10**17  # the server of fill_games's copies
PACE = PRESETS["normal"]


class Recorder(Notifier):
    """The notifier's sending recorded, not sent (the bench times the pass, not Discord)."""

    def __init__(self, storage: Storage) -> None:
        super().__init__(cast(discord.Client, None), storage, min_interval=0.0)
        self.sent = 0

    def where(self, record: GameRecord) -> str:
        return f"#table-{record.channel_id}"

    async def dm_message(self, user_id: int, text: str) -> discord.Message | None:
        self.sent += 1
        return cast(discord.Message, SimpleNamespace(id=self.sent,
                                                     channel=SimpleNamespace(id=user_id)))

    async def mention(self, channel_id: int, user_ids: Sequence[int], text: str) -> bool:
        self.sent += 1
        return True


class Votes:
    """The clock's side of a pass: a seat out of time handed to its stand-in in storage as the
    bot's are (the AI's moves and the table not played nor drawn), the stalls read as the
    bot's are."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self.stood_in = 0

    async def sweep(self) -> int:
        return 0

    async def ran_out(self, wait: Wait) -> bool:
        await self.storage.games.replace_seat(wait.game_id, wait.seat, ai_policy="heuristic",
                                              reason="timeout", stand_in_for=wait.user_id)
        self.stood_in += 1
        return True

    async def stalls(self, now: datetime) -> list[int]:
        return [s.game_id for s in await self.storage.reminders.stalls(before=now)]


def seed(path: Path, games: int, rng_seed: int) -> None:
    """``games`` waiting games with the normal pace and their server's quiet weekends."""
    asyncio.run(_create(path))
    templates = [play_template(GAME, {"players": 3}, s, moves=25 + s)
                 for s in range(rng_seed, rng_seed + 6)]
    ids = fill_games(path, templates, games, seed=rng_seed)
    rng = random.Random(rng_seed)
    now = to_ms(NOW)
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        conn.execute("BEGIN IMMEDIATE")
        quiet = quiet_columns(Quiet("Europe/Madrid", weekends=True))
        conn.execute(
            "INSERT INTO guild_settings (guild_id, updated_at, quiet_zone, quiet_weekends)"
            " VALUES (?, ?, ?, ?)", (GUILD, now, quiet["quiet_zone"], quiet["quiet_weekends"]))
        conn.executemany(
            "INSERT INTO game_timers (game_id, pace, bank_start_ms, bank_increment_ms,"
            " bank_cap_ms) VALUES (?, ?, ?, ?, ?)",
            [(g, PACE.name, PACE.start_ms, PACE.increment_ms, PACE.cap_ms) for g in ids])
        conn.execute("UPDATE seats SET bank_ms = ? WHERE user_id IS NOT NULL", (PACE.start_ms,))
        conn.executemany(
            "UPDATE seats SET waiting_since = ? WHERE game_id = ? AND waiting_since IS NOT NULL",
            [(now - rng.randrange(60_000, 8 * 86_400_000), g) for g in ids])
        # what the people and tables chose: a tenth of the games paused, a twentieth of the
        # people away, a tenth on a digest, a tenth with quiet hours, some games muted
        conn.executemany("INSERT INTO game_pauses (game_id, since_at) VALUES (?, ?)",
                         [(g, now - 86_400_000) for g in ids if rng.random() < 0.1])
        people = [int(r[0]) for r in conn.execute(
            "SELECT DISTINCT user_id FROM seats WHERE user_id IS NOT NULL")]
        conn.executemany(
            "INSERT INTO absences (user_id, since_at, until_at, set_at) VALUES (?, ?, ?, ?)",
            [(u, now - 86_400_000, now + 5 * 86_400_000, now) for u in people
             if rng.random() < 0.05])
        conn.executemany(
            "INSERT INTO user_settings (user_id, updated_at, zone, quiet_start, quiet_end,"
            " digest_hour) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (user_id) DO NOTHING",
            [(u, now, "Europe/Madrid", 22 * 60 if pick < 0.1 else None,
              8 * 60 if pick < 0.1 else None, 9 if 0.1 <= pick < 0.2 else None)
             for u in people if (pick := rng.random()) < 0.2])
        conn.executemany(
            "INSERT INTO game_mutes (user_id, game_id, at) SELECT user_id, game_id, ? FROM seats"
            " WHERE game_id = ? AND user_id IS NOT NULL",
            [(now, g) for g in ids if rng.random() < 0.05])
        conn.execute("COMMIT")
    finally:
        conn.close()


async def _create(path: Path) -> None:
    storage = await Storage.open(path)
    await storage.close()


async def _passes(path: Path) -> dict[str, Any]:
    storage = await Storage.open(path, clock=lambda: NOW)
    try:
        notifier, votes = Recorder(storage), Votes(storage)
        loop = Reminders(storage, notifier, cast(Any, votes), clock=lambda: NOW, period=None)
        waiting = await storage.db.scalar(
            "SELECT count(*) FROM seats WHERE waiting_since IS NOT NULL AND user_id IS NOT NULL")
        out: dict[str, Any] = {"waiting_people": int(waiting or 0)}
        for name in ("first_pass", "steady_pass"):
            sent, stood = notifier.sent, votes.stood_in
            began = time.process_time()
            report = await loop.tick()
            spent = time.process_time() - began
            out[name] = {
                "cpu_s": round(spent, 3),
                "reminded_people": len(report.nudged),
                "bank_warnings": len(report.warned),
                "stood_in": votes.stood_in - stood,
                "digests": len(report.digests),
                "messages": notifier.sent - sent,
            }
        return out
    finally:
        await storage.close()


def run(games: int, rng_seed: int = 0) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="governor-bench-reminders-") as tmp:
        path = Path(tmp) / "bench.db"
        began = time.monotonic()
        seed(path, games, rng_seed)
        seeded = time.monotonic() - began
        figures = asyncio.run(_passes(path))
    return {"games": games, "seed_s": round(seeded, 1), **figures}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    figures = run(args.games, args.seed)
    if args.json:
        print(json.dumps(figures))
    else:
        for key, value in figures.items():
            print(f"{key}: {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
