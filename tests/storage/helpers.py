"""Helpers shared by the storage tests: seat a table, pick legal actions deterministically."""

from __future__ import annotations

import random
from typing import Any

from engine.core import get_game
from storage import GameRecord, Storage

GAMES = ["test-counter", "puerto-rico"]
"""Every storage behaviour is checked on the test game and on the real one."""

USER = 1000  # Discord user ids of seat n: USER + n


def table_options(game: str, players: int) -> dict[str, Any]:
    if game == "test-counter":
        return {"target": 12, "draw": True}
    return {}


async def active_game(
    storage: Storage,
    game: str = "puerto-rico",
    *,
    players: int = 4,
    seed: int = 7,
    channel_id: int | None = None,
    ai_seats: int = 0,
    user_base: int = USER,
) -> GameRecord:
    """A started game: users ``user_base``.. at the first seats, then ``ai_seats`` AIs."""
    record = await storage.games.create_lobby(
        game,
        creator_id=user_base,
        guild_id=1,
        channel_id=channel_id,
        options=table_options(game, players),
    )
    for n in range(1, players - ai_seats):
        record = await storage.games.join(record.id, user_base + n)
    for _ in range(ai_seats):
        record = await storage.games.add_ai(record.id, "random")
    return await storage.games.start(record.id, seed=seed)


def choose(game_name: str, state: Any, rng: random.Random) -> tuple[int, str] | None:
    """A legal ``(seat, code)`` picked with ``rng``; ``None`` when the game is over."""
    game = get_game(game_name)
    prompt = game.prompt(state)
    if prompt is None:
        return None
    seat = rng.choice(sorted(prompt.seats))
    actions = game.legal_actions(state, seat)
    return seat, game.encode_action(rng.choice(actions))


async def play_some(
    storage: Storage, game_id: int, count: int, rng: random.Random
) -> GameRecord:
    """Play up to ``count`` random legal actions (fewer when the game ends)."""
    record = await storage.games.get(game_id)
    for _ in range(count):
        loaded = await storage.games.load(game_id)
        move = choose(loaded.record.game, loaded.state, rng)
        if move is None:
            return loaded.record
        seat, code = move
        record = (
            await storage.games.play(
                game_id, seat, code, expected_version=loaded.record.version, user_id=None
            )
        ).record
    return record


async def play_to_end(storage: Storage, game_id: int, rng: random.Random) -> GameRecord:
    return await play_some(storage, game_id, 100_000, rng)
