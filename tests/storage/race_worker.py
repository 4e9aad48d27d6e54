"""A process that races others to commit on one game (driven by test_concurrency.py).

    python -m tests.storage.race_worker DATABASE NAME

DATABASE: what :meth:`Storage.open` takes (an SQLite path or ``sqlite:///`` URL, a
``postgresql://`` URL); NAME seeds the worker's choice of moves.

stdin ``prepare <game_id>``: load the game, apply a legal action in memory, print
``ready V SEAT CODE`` (V the version it is based on).
stdin ``go``: commit it based on version V; print ``ok`` or ``stale <current>``.
stdin ``quit``: close and exit.
"""

from __future__ import annotations

import asyncio
import random
import sys

import engine  # noqa: F401  (registers "puerto-rico")
from engine.core import Event, get_game
from storage import StaleVersion, Storage
from tests.storage.counter_game import register_counter
from tests.storage.helpers import choose


async def main(database: str, name: str) -> None:
    storage = await Storage.open(database)
    rng = random.Random(name)
    loop = asyncio.get_running_loop()
    pending: tuple[int, int, int, str, object, list[Event]] | None = None
    try:
        while True:
            line = (await loop.run_in_executor(None, sys.stdin.readline)).split()
            if not line or line[0] == "quit":
                return
            if line[0] == "prepare":
                game_id = int(line[1])
                loaded = await storage.games.load(game_id)
                move = choose(loaded.record.game, loaded.state, rng)
                assert move is not None
                seat, code = move
                game = get_game(loaded.record.game)
                state, events = game.apply(loaded.state, seat, game.decode_action(code))
                pending = (game_id, loaded.record.version, seat, code, state, list(events))
                print(f"ready {loaded.record.version} {seat} {code}", flush=True)
            elif line[0] == "go":
                assert pending is not None
                game_id, version, seat, code, state, events = pending
                try:
                    await storage.games.commit_action(
                        game_id, expected_version=version, seat=seat, code=code, state=state,
                        events=events,
                    )
                    print("ok", flush=True)
                except StaleVersion as exc:
                    print(f"stale {exc.current}", flush=True)
    finally:
        await storage.close()


if __name__ == "__main__":
    register_counter()
    asyncio.run(main(sys.argv[1], sys.argv[2]))
