"""Two players click at the same moment: of the commits based on one version exactly one is
stored; the others get StaleVersion with the version that won.  Checked between coroutines on one
connection, between connections, and between processes, on each backend."""

from __future__ import annotations

import asyncio
import random
import sys
from pathlib import Path
from typing import Any

import pytest

from engine.core import get_game
from storage import CommitResult, StaleVersion, Storage
from storage.verify import verify_game
from tests.storage.conftest import FakeClock
from tests.storage.helpers import GAMES, active_game, choose

ROOT = Path(__file__).parents[2]


async def _prepared(storage: Storage, game_id: int, rng: random.Random) -> dict[str, Any]:
    loaded = await storage.games.load(game_id)
    move = choose(loaded.record.game, loaded.state, rng)
    assert move is not None
    seat, code = move
    game = get_game(loaded.record.game)
    state, events = game.apply(loaded.state, seat, game.decode_action(code))
    return {"expected_version": loaded.record.version, "seat": seat, "code": code,
            "state": state, "events": events}


async def _race(stores: list[Storage], game_id: int, rng: random.Random) -> list[Any]:
    prepared = [await _prepared(s, game_id, rng) for s in stores]
    return await asyncio.gather(
        *(s.games.commit_action(game_id, **p) for s, p in zip(stores, prepared, strict=True)),
        return_exceptions=True,
    )


def _exactly_one_won(results: list[Any], version: int) -> None:
    won = [r for r in results if isinstance(r, CommitResult)]
    lost = [r for r in results if isinstance(r, StaleVersion)]
    assert len(won) == 1, results
    assert len(lost) == len(results) - 1, results
    assert all(e.current == version + 1 and e.expected == version for e in lost)


@pytest.mark.parametrize("game", GAMES)
async def test_same_connection_coroutines(storage: Storage, game: str) -> None:
    """Coroutines sharing the process's connection, 30 rounds of 3 simultaneous commits."""
    record = await active_game(storage, game, players=3)
    rng = random.Random(1)
    for _ in range(30):
        current = await storage.games.get(record.id)
        if current.to_act == ():
            break
        results = await _race([storage] * 3, record.id, rng)
        _exactly_one_won(results, current.version)
    assert await verify_game(storage.db, record.id) == []


@pytest.mark.parametrize("game", GAMES)
async def test_separate_connections(database_url: str, clock: FakeClock, game: str) -> None:
    """Two connections (as two bot processes would have), 30 rounds."""
    first = await Storage.open(database_url, clock=clock)
    second = await Storage.open(database_url, clock=clock)
    try:
        record = await active_game(first, game, players=4)
        rng = random.Random(2)
        for _ in range(30):
            current = await first.games.get(record.id)
            if current.to_act == ():
                break
            results = await _race([first, second], record.id, rng)
            _exactly_one_won(results, current.version)
        assert await verify_game(first.db, record.id) == []
    finally:
        await first.close()
        await second.close()


async def test_separate_processes(database_url: str, clock: FakeClock) -> None:
    """Four processes prepare a commit on the same version, then all go at once, 15 rounds:
    exactly one "ok" per version, the others told the version that won; the log then holds
    each winning action once, numbered 1..15 without a gap, and verify finds nothing wrong."""
    async with await Storage.open(database_url, clock=clock) as storage:
        record = await active_game(storage, "puerto-rico", players=4)
    procs = [
        await asyncio.create_subprocess_exec(
            sys.executable, "-m", "tests.storage.race_worker", database_url, f"w{n}",
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, cwd=ROOT,
        )
        for n in range(4)
    ]

    async def say(proc: asyncio.subprocess.Process, line: str) -> None:
        assert proc.stdin is not None
        proc.stdin.write(f"{line}\n".encode())
        await proc.stdin.drain()

    async def hear(proc: asyncio.subprocess.Process) -> str:
        assert proc.stdout is not None
        # 120 s only guards against a hang (a loaded machine may take seconds to start them).
        return (await asyncio.wait_for(proc.stdout.readline(), 120)).decode().strip()

    won: list[tuple[int, str]] = []  # (seat, code) of each round's winner
    try:
        for _ in range(15):
            for proc in procs:
                await say(proc, f"prepare {record.id}")
            readies = [(await hear(p)).split() for p in procs]
            assert {r[1] for r in readies} == {readies[0][1]}, readies
            version = int(readies[0][1])
            for proc in procs:
                await say(proc, "go")
            answers = [await hear(p) for p in procs]
            assert sorted(answers) == ["ok"] + [f"stale {version + 1}"] * 3, answers
            [winner] = [r for r, a in zip(readies, answers, strict=True) if a == "ok"]
            won.append((int(winner[2]), winner[3]))
    finally:
        for proc in procs:
            await say(proc, "quit")
        for proc in procs:
            await proc.wait()
    async with await Storage.open(database_url, clock=clock) as storage:
        final = await storage.games.get(record.id)
        assert final.seq == 15 and final.version == record.version + 15
        actions = await storage.games.actions(record.id)
        assert [a.seq for a in actions] == list(range(1, 16))
        assert [(a.seat, a.code) for a in actions] == won
        assert await verify_game(storage.db, record.id) == []
        assert (await storage.verify()).ok
