"""Helpers shared by the storage tests: seat a table, pick legal actions deterministically, ask
the database how it would run a query."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import asyncpg

from engine.core import get_game
from storage import GameRecord, Storage
from storage.postgres import to_postgresql

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


@dataclass(frozen=True)
class QueryPlan:
    """How the database would run a query: the indexes it searches and the tables it reads
    whole (a full scan: SQLite's ``SCAN``, PostgreSQL's ``Seq Scan`` or an index read without
    a condition)."""

    indexes: frozenset[str]
    scans: tuple[str, ...]
    steps: tuple[str, ...]


_SQLITE_INDEX = re.compile(r"USING (?:COVERING )?INDEX (\w+)|USING (?:INTEGER )?(PRIMARY KEY)")


async def query_plan(storage: Storage, sql: str, params: Sequence[Any] = ()) -> QueryPlan:
    """The plan of ``sql`` on the storage's own database, ``sql`` as its trace
    (``set_trace``) gave it: SQLite's trace has the values written in; PostgreSQL's has ``?``
    placeholders, whose values are ``params``.

    PostgreSQL is asked on a connection of its own with sequential scans disabled: it then
    reads a table whole only where no index can serve, so a tiny test table (which it would
    rather read whole) still tells whether the query is an index search."""
    if storage.db.dialect == "sqlite":
        details = [str(row[3]) for row in await storage.db.fetchall("EXPLAIN QUERY PLAN " + sql)]
        indexes = {m[1] or m[2] for d in details for m in _SQLITE_INDEX.finditer(d)}
        return QueryPlan(frozenset(indexes), tuple(d for d in details if d.startswith("SCAN")),
                         tuple(details))
    conn = await asyncpg.connect(storage.db.url)  # (the tests' servers have no passwords)
    try:
        await conn.execute("SET enable_seqscan = off")
        text = await conn.fetchval("EXPLAIN (FORMAT JSON) " + to_postgresql(sql), *params)
    finally:
        await conn.close()
    nodes: list[dict[str, Any]] = []
    pending = [json.loads(text)[0]["Plan"]]
    while pending:
        node = pending.pop()
        nodes.append(node)
        pending += node.get("Plans", [])
    scans = tuple(
        str(node.get("Relation Name") or node.get("Index Name")) for node in nodes
        if node["Node Type"] == "Seq Scan"
        or ("Index Name" in node and "Index Cond" not in node))
    steps = tuple(" ".join(str(node[key]) for key in ("Node Type", "Relation Name", "Index Name",
                                                       "Index Cond") if key in node)
                  for node in nodes)
    return QueryPlan(frozenset(str(n["Index Name"]) for n in nodes if "Index Name" in n), scans,
                     steps)
