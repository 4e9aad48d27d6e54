"""Storage benchmark: commit and load latency with 10,000 finished games stored, and the bytes a
finished 4-player game takes, on SQLite (the default) or PostgreSQL.

    python -m bench.storage [--json] [--games 10000] [--commits 2000] [--loads 2000] [--db PATH]
    python -m bench.storage --backend postgresql [--database-url URL] [--json] ...

``--backend postgresql`` starts a PostgreSQL server of its own from the machine's binaries, as the
tests do (storage/pgserver.py), with PostgreSQL's durable defaults (``fsync``,
``synchronous_commit``: a commit is on disk when it returns, as ``synchronous=FULL`` is for
SQLite), or uses the empty database ``--database-url`` names.  The games are filled into an SQLite
file and moved with ``python -m storage copy``'s own code (storage/copy.py), which also checks
the copy.

``--json`` prints only ``{"commit_ms": {"p50": .., "p95": ..}, "load_ms": {..},
"bytes_per_game": ..}``; details go to stderr.  The stored games are real: a few complete 4-player
Puerto Rico games are played by picking legal actions with a seeded random choice, then copied
under new ids, seats and times (:func:`fill_games`), with their full action log, events, final
snapshot, outcome and results.  ``commit_ms`` times ``GameRepository.commit_action`` (the engine's
``apply`` happens before and is not counted); ``load_ms`` times ``GameRepository.load`` (the row,
its seats and the engine's ``load`` of the snapshot) for random games among all stored ones.  The
p50/p95 of ``list_for_user`` and ``list_waiting_on`` for random users go to stderr.  (The tests
never time anything: tests/storage/test_scale.py counts the SQLite work of these queries instead.)
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import asyncpg

from engine.core import get_game
from engine.games import PACKAGES
from storage import Database, GameStatus, Storage
from storage.copy import copy_database
from storage.pgserver import temporary_server
from storage.records import dumps

T0_MS = 1_767_268_800_000  # 2026-01-01T12:00Z
GAME = next(iter(PACKAGES))
"""The game the stored games and the measured tables play: the engine catalog's first (the
figures of docs/benchmarks.md are of it)."""
USERS = 2_000
BASE_USER = 10**17  # realistic 18-digit Discord snowflakes


@dataclass(frozen=True, slots=True)
class Template:
    """One game played with the engine alone: its setup, its log and where it ended."""

    game: str
    options: dict[str, Any]
    seed: int
    actions: tuple[tuple[int, str, str], ...]  # (seat, code, events JSON)
    snapshot: str
    to_act: tuple[int, ...]
    outcome: dict[str, Any] | None

    @property
    def players(self) -> int:
        return int(self.options["players"])


def play_template(
    game_name: str, options: dict[str, Any], seed: int, *, moves: int | None = None
) -> Template:
    """Play ``moves`` actions (None: to the end) picked with ``random.Random(seed)`` among the
    legal actions of a prompted seat."""
    game = get_game(game_name)
    opts = game.normalize_options(options)
    state = game.setup(opts, seed)
    rng = random.Random(seed)
    log: list[tuple[int, str, str]] = []
    while moves is None or len(log) < moves:
        prompt = game.prompt(state)
        if prompt is None:
            break
        seat = rng.choice(sorted(prompt.seats))
        action = rng.choice(game.legal_actions(state, seat))
        state, events = game.apply(state, seat, action)
        log.append((seat, game.encode_action(action), dumps([e.to_json() for e in events])))
    prompt = game.prompt(state)
    outcome = game.outcome(state) if prompt is None else None
    return Template(
        game=game_name,
        options=opts,
        seed=seed,
        actions=tuple(log),
        snapshot=dumps(game.dump(state)),
        to_act=() if prompt is None else tuple(sorted(set(prompt.seats))),
        outcome=None if outcome is None else dict(outcome.to_json()),
    )


def fill_games(
    path: Path,
    templates: Sequence[Template],
    count: int,
    *,
    seed: int = 0,
    users: int = USERS,
    chunk: int = 200,
) -> list[int]:
    """Copy ``templates`` into ``count`` new games of the (already migrated) database at
    ``path``: new ids, channels, seats drawn from ``users`` users (one seat in four an AI),
    spread-out times; the log, events, snapshot, outcome and results as in the template, so
    every copy verifies.  Returns the new ids.  Fast: plain sqlite3, one transaction per chunk."""
    rng = random.Random(seed)
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        conn.execute("PRAGMA foreign_keys = ON")
        first = int(conn.execute("SELECT coalesce(max(id), 0) FROM games").fetchone()[0]) + 1
        ids = list(range(first, first + count))
        for start in range(0, count, chunk):
            conn.execute("BEGIN IMMEDIATE")
            rows = [
                _game_rows(game_id, rng.choice(templates), rng, users)
                for game_id in ids[start : start + chunk]
            ]
            conn.executemany(_INSERT_GAME, (r[0] for r in rows))
            conn.executemany(_INSERT_SEAT, (s for r in rows for s in r[1]))
            conn.executemany(_INSERT_ACTION, (a for r in rows for a in r[2]))
            conn.executemany(_INSERT_RESULT, (x for r in rows for x in r[3]))
            conn.executemany(_INSERT_MESSAGE, [r[4] for r in rows])
            conn.execute("COMMIT")
    finally:
        conn.close()
    return ids


_INSERT_GAME = (
    "INSERT INTO games (id, game, options, seed, status, version, seq, snapshot, guild_id,"
    " channel_id, creator_id, language, created_at, updated_at, started_at, last_action_at,"
    " finished_at, outcome) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
_INSERT_SEAT = (
    "INSERT INTO seats (game_id, seat, user_id, ai_policy, joined_at, waiting_since)"
    " VALUES (?, ?, ?, ?, ?, ?)"
)
_INSERT_ACTION = (
    "INSERT INTO actions (game_id, seq, seat, code, user_id, at, events)"
    " VALUES (?, ?, ?, ?, ?, ?, ?)"
)
_INSERT_RESULT = (
    "INSERT INTO results (game_id, seat, user_id, ai_policy, total, rank, winner, tiebreak,"
    " breakdown) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
_INSERT_MESSAGE = (
    "INSERT INTO game_messages (game_id, kind, channel_id, message_id) VALUES (?, ?, ?, ?)"
)


def _game_rows(
    game_id: int, template: Template, rng: random.Random, users: int
) -> tuple[
    tuple[Any, ...],
    list[tuple[Any, ...]],
    Iterator[tuple[Any, ...]],
    list[tuple[Any, ...]],
    tuple[Any, ...],
]:
    players = template.players
    humans = rng.sample(range(users), players)
    seat_users: list[int | None] = [BASE_USER + u for u in humans]
    policies: list[str | None] = [None] * players
    if rng.random() < 0.25:
        seat_users[-1], policies[-1] = None, "heuristic"
    created = T0_MS + game_id * 60_000 + rng.randrange(60_000)
    started = created + rng.randrange(3_600_000)
    step = 3 * 3_600_000 // max(1, len(template.actions))  # a game spread over days
    last = started + step * len(template.actions)
    finished = template.outcome is not None
    status = GameStatus.FINISHED if finished else GameStatus.ACTIVE
    channel = 10**18 + game_id
    game = (
        game_id,
        template.game,
        dumps(template.options),
        template.seed,
        status.value,
        players + len(template.actions),
        len(template.actions),
        template.snapshot,
        10**17,
        None if finished else channel,
        seat_users[0],
        None,
        created,
        last,
        started,
        last if template.actions else None,
        last if finished else None,
        None if template.outcome is None else dumps(template.outcome),
    )
    seats = [
        (
            game_id,
            s,
            seat_users[s],
            policies[s],
            created + s * 1000,
            last if s in template.to_act and not finished else None,
        )
        for s in range(players)
    ]
    actions = (
        (game_id, i + 1, seat, code, seat_users[seat], started + i * step, events)
        for i, (seat, code, events) in enumerate(template.actions)
    )
    results = []
    if template.outcome is not None:
        winners = set(template.outcome["winners"])
        for line in template.outcome["scores"]:
            s = int(line["seat"])
            results.append(
                (
                    game_id,
                    s,
                    seat_users[s],
                    policies[s],
                    line["total"],
                    line["rank"],
                    int(s in winners),
                    line["tiebreak"],
                    dumps(line["breakdown"]),
                )
            )
    message = (game_id, "table", channel, 10**18 + 7 * game_id)
    return game, seats, actions, results, message


def _percentiles(samples: Sequence[float]) -> dict[str, float]:
    ordered = sorted(samples)
    cuts = statistics.quantiles(ordered, n=100, method="inclusive")
    return {"p50": round(cuts[49], 3), "p95": round(cuts[94], 3)}


def db_bytes(path: Path) -> int:
    """Bytes in use in the file (after a checkpoint; free pages not counted)."""
    conn = sqlite3.connect(path)
    try:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        page = int(conn.execute("PRAGMA page_size").fetchone()[0])
        pages = int(conn.execute("PRAGMA page_count").fetchone()[0])
        free = int(conn.execute("PRAGMA freelist_count").fetchone()[0])
    finally:
        conn.close()
    return (pages - free) * page


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


async def _measure(path: Path | str, ids: list[int], commits: int, loads: int
                   ) -> dict[str, Any]:
    rng = random.Random(1)
    storage = await Storage.open(path)
    game = get_game(GAME)
    try:
        tables = []
        for n in range(16):
            lobby = await storage.games.create_lobby(
                GAME, creator_id=BASE_USER + n, channel_id=n + 1
            )
            for seat in range(1, 4):
                await storage.games.join(lobby.id, BASE_USER + 1000 * seat + n)
            tables.append((await storage.games.start(lobby.id, seed=n)).id)
        commit_ms: list[float] = []
        while len(commit_ms) < commits:
            game_id = tables[len(commit_ms) % len(tables)]
            loaded = await storage.games.load(game_id)
            prompt = game.prompt(loaded.state)
            if prompt is None:  # finished: start another table in its channel
                lobby = await storage.games.create_lobby(
                    GAME, creator_id=BASE_USER, channel_id=loaded.record.channel_id
                )
                for seat in range(1, 4):
                    await storage.games.join(lobby.id, BASE_USER + seat)
                tables[tables.index(game_id)] = (await storage.games.start(lobby.id)).id
                continue
            seat = rng.choice(sorted(prompt.seats))
            action = rng.choice(game.legal_actions(loaded.state, seat))
            state, events = game.apply(loaded.state, seat, action)
            started = time.perf_counter()
            await storage.games.commit_action(
                game_id,
                expected_version=loaded.record.version,
                seat=seat,
                code=game.encode_action(action),
                state=state,
                events=events,
                user_id=BASE_USER,
            )
            commit_ms.append((time.perf_counter() - started) * 1000)
        load_ms: list[float] = []
        for _ in range(loads):
            game_id = rng.choice(ids)
            started = time.perf_counter()
            await storage.games.load(game_id)
            load_ms.append((time.perf_counter() - started) * 1000)
        list_ms: list[float] = []
        for _ in range(200):
            user = BASE_USER + rng.randrange(USERS)
            started = time.perf_counter()
            await storage.games.list_for_user(
                user, statuses=[GameStatus.ACTIVE, GameStatus.FINISHED]
            )
            list_ms.append((time.perf_counter() - started) * 1000)
        waiting_ms: list[float] = []
        for _ in range(200):
            user = BASE_USER + rng.randrange(USERS)
            started = time.perf_counter()
            await storage.games.list_waiting_on(user)
            waiting_ms.append((time.perf_counter() - started) * 1000)
    finally:
        await storage.close()
    return {
        "commit_ms": _percentiles(commit_ms),
        "load_ms": _percentiles(load_ms),
        "list_ms": _percentiles(list_ms),
        "waiting_ms": _percentiles(waiting_ms),
    }


def run(path: Path, games: int, commits: int, loads: int, *, target: str | None = None
        ) -> dict[str, Any]:
    """Fill ``path`` with ``games`` games and measure on it, or on ``target`` (a PostgreSQL URL
    of an empty database) after copying them there."""
    asyncio.run(_create(path))
    started = time.perf_counter()
    templates = [play_template(GAME, {"players": 4}, seed) for seed in range(1, 6)]
    log(
        f"played {len(templates)} template games "
        f"({[len(t.actions) for t in templates]} actions) in {time.perf_counter() - started:.1f}s"
    )
    started = time.perf_counter()
    ids = fill_games(path, templates, games)
    log(f"stored {games} finished games in {time.perf_counter() - started:.1f}s")
    if target is None:
        size = db_bytes(path)
        where = f"sqlite {sqlite3.sqlite_version}, WAL, synchronous=FULL"
    else:
        started = time.perf_counter()
        rows, size, version = asyncio.run(_copy_to(path, target))
        log(f"copied {rows} rows to PostgreSQL (checked) in {time.perf_counter() - started:.1f}s")
        where = f"{version}, fsync on, synchronous_commit on"
    bytes_per_game = round(size / games)
    log(f"database: {size / 1e6:.1f} MB in use, {bytes_per_game} bytes per game")
    figures = asyncio.run(_measure(path if target is None else target, ids, commits, loads))
    log(
        f"list_for_user: {figures.pop('list_ms')} ms; list_waiting_on: "
        f"{figures.pop('waiting_ms')} ms; {where}"
    )
    return {**figures, "bytes_per_game": bytes_per_game}


async def _copy_to(path: Path, target: str) -> tuple[int, int, str]:
    """Copy the filled SQLite file into the PostgreSQL database ``target`` (checked), then
    ``VACUUM ANALYZE`` and ``CHECKPOINT`` it; returns the rows copied, the bytes its tables and
    indexes take and the server's version."""
    source = await Database.open(path)
    try:
        destination = await Database.open(target)
        try:
            report = await copy_database(source, destination)
        finally:
            await destination.close()
    finally:
        await source.close()
    conn = await asyncpg.connect(target)
    try:
        await conn.execute("VACUUM ANALYZE")
        # The bulk load's gigabyte on disk now, not under the measured commits (a database that
        # has been running has no such backlog); a role without the right skips it.
        with contextlib.suppress(asyncpg.InsufficientPrivilegeError):
            await conn.execute("CHECKPOINT")
        size = await conn.fetchval(
            "SELECT sum(pg_total_relation_size(c.oid)) FROM pg_class AS c"
            " JOIN pg_namespace AS n ON n.oid = c.relnamespace"
            " WHERE n.nspname = 'public' AND c.relkind = 'r'")
        version = await conn.fetchval("SELECT version()")
    finally:
        await conn.close()
    return report.rows, int(size), str(version).split(" on ")[0]


async def _create(path: Path) -> None:
    storage = await Storage.open(path)
    await storage.close()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench.storage",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--json", action="store_true", help="print only the JSON figures")
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--commits", type=int, default=2_000)
    parser.add_argument("--loads", type=int, default=2_000)
    parser.add_argument("--db", type=Path, help="database file to create (default: temporary)")
    parser.add_argument("--backend", choices=("sqlite", "postgresql"), default="sqlite")
    parser.add_argument("--database-url", help="PostgreSQL: an empty database to use instead "
                                               "of a server of the benchmark's own")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="governor-bench-") as tmp:
        path = args.db or Path(tmp) / "bench.db"
        if path.exists():
            parser.error(f"{path} exists; the benchmark needs a new file")
        if args.backend == "sqlite":
            figures = run(path, args.games, args.commits, args.loads)
        elif args.database_url:
            figures = run(path, args.games, args.commits, args.loads, target=args.database_url)
        else:
            with temporary_server(Path(tmp) / "postgresql", durable=True) as server:
                target = server.create_database("bench")
                figures = run(path, args.games, args.commits, args.loads, target=target)
    if args.json:
        print(json.dumps(figures))
    else:
        print(f"commit: p50 {figures['commit_ms']['p50']} ms, p95 {figures['commit_ms']['p95']} ms")
        print(f"load:   p50 {figures['load_ms']['p50']} ms, p95 {figures['load_ms']['p95']} ms")
        print(f"bytes per finished 4-player game: {figures['bytes_per_game']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
