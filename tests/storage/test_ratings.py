"""Ratings (storage/ratings.py): openskill's own figures for hand-made results, the policy
(people only, leavers last, two people at least), the rating in the transaction that records a
result, and the rebuild of 1,000 finished games giving every figure again exactly."""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
from functools import partial
from pathlib import Path

import pytest
from openskill.models import PlackettLuce

from storage import LATEST_VERSION, Database, GameStatus, Storage
from storage.__main__ import main as storage_main
from storage.ratings import (
    FEW_PEOPLE,
    RATED,
    START,
    Placement,
    Skill,
    placements,
    rate_game,
    shown_points,
    update,
)
from tests.storage.conftest import FakeClock
from tests.storage.helpers import USER, active_game, play_to_end


def test_placements_keep_the_peoples_order_and_put_leavers_last() -> None:
    # engine ranks 1, 2, 2, 4 for users 7, 5, 9, 3 (an AI seat between them is simply absent)
    rated, status = placements([(5, 2), (7, 1), (9, 2), (3, 4)], leavers=[11, 5])
    assert status == RATED
    assert rated == [
        Placement(7, 1, True),
        Placement(5, 2, True),
        Placement(9, 2, True),
        Placement(3, 4, True),
        Placement(11, 5, False),  # 5 left but came back to a seat: not a leaver
    ]
    assert placements([(5, 1)], leavers=[6, 7]) == ([], FEW_PEOPLE)
    assert placements([], leavers=[]) == ([], FEW_PEOPLE)


def test_update_gives_the_librarys_own_figures() -> None:
    model = PlackettLuce()
    a, b, c = model.rating(), model.rating(mu=30.0, sigma=5.0), model.rating(mu=20, sigma=7)
    expected = model.rate([[a], [b], [c]], ranks=[1.0, 2.0, 2.0])
    changes = update(
        {2: Skill(30.0, 5.0), 3: Skill(20.0, 7.0)},
        [Placement(1, 1, True), Placement(2, 2, True), Placement(3, 2, True)],
    )
    assert [c.before for c in changes] == [START, Skill(30.0, 5.0), Skill(20.0, 7.0)]
    assert [(c.after.mu, c.after.sigma) for c in changes] == [
        (team[0].mu, team[0].sigma) for team in expected
    ]
    # the winner gains, the tied losers lose; a new player shows 1500
    assert changes[0].delta > 0 and changes[1].delta < 0
    assert START.points == 1500
    assert shown_points(25.0, 25 / 3) == 1500
    assert shown_points(30.0, 5.0) == round(1500 + 24 * 15.0)


async def test_a_finished_game_is_rated_in_the_transaction_of_its_result(
    storage: Storage,
) -> None:
    record = await active_game(storage, "test-counter", players=4, ai_seats=1)
    finished = await play_to_end(storage, record.id, random.Random(3))
    assert finished.status is GameStatus.FINISHED
    results = await storage.games.results(record.id)
    assert await storage.ratings.status(record.id) == RATED
    changes = await storage.ratings.changes(record.id)
    people = [r for r in results if r.user_id is not None]
    assert sorted(c.user_id for c in changes) == sorted(r.user_id for r in people if r.user_id)
    assert all(c.points_before == 1500 for c in changes)
    best = min(r.rank for r in people)
    for change in changes:
        rank = next(r.rank for r in people if r.user_id == change.user_id)
        assert change.place == 1 + sum(1 for r in people if r.rank < rank)
        if rank == best and sum(1 for r in people if r.rank == best) == 1:
            assert change.delta > 0
    board, total = await storage.ratings.leaderboard(1, "test-counter")
    assert total == 3 and [r.games for r in board] == [1, 1, 1]
    assert [r.points for r in board] == sorted((r.points for r in board), reverse=True)
    assert board[0].position == 1
    mine = await storage.ratings.rating(1, "test-counter", board[-1].user_id)
    assert mine == board[-1]
    assert await storage.ratings.rating(2, "test-counter", board[0].user_id) is None
    history = await storage.ratings.history(1, "test-counter", board[0].user_id)
    assert [h.game_id for h in history] == [record.id]


async def test_one_person_among_ais_is_not_rated_and_a_leaver_is_rated_last(
    storage: Storage,
) -> None:
    alone = await active_game(storage, "test-counter", players=3, ai_seats=2, user_base=2000)
    await play_to_end(storage, alone.id, random.Random(1))
    assert await storage.ratings.status(alone.id) == FEW_PEOPLE
    assert await storage.ratings.changes(alone.id) == []

    record = await active_game(storage, "test-counter", players=3, user_base=3000)
    # the third player leaves: an AI takes the seat
    await storage.games.replace_seat(record.id, 2, ai_policy="random", reason="left")
    await play_to_end(storage, record.id, random.Random(2))
    changes = await storage.ratings.changes(record.id)
    assert [(c.user_id, c.finished) for c in changes][-1] == (3002, False)
    assert changes[-1].place == 3 and changes[-1].delta < 0
    assert {c.user_id for c in changes if c.finished} == {3000, 3001}


async def test_an_abandoned_game_is_never_rated(storage: Storage) -> None:
    record = await active_game(storage, "test-counter", players=2, user_base=4000)
    await storage.games.abandon(record.id)
    assert await storage.ratings.status(record.id) is None
    assert (await storage.ratings.leaderboard(1, "test-counter"))[1] == 0


GUILDS = (0, 11, 12)
NAMES = ("puerto-rico", "san-juan")


def _fill_finished(path: Path, count: int, seed: int) -> None:
    """``count`` finished games written directly: 1-5 seats of 40 people or AIs, random ranks
    with ties, a few leavers, three servers (0: none) and two games; results only (what the
    ratings read), the games finishing in a shuffled order of ids."""
    rng = random.Random(seed)
    conn = sqlite3.connect(path)
    try:
        with conn:
            times = list(range(count))
            rng.shuffle(times)
            for n in range(count):
                game_id = 10_000 + n
                guild = rng.choice(GUILDS)
                conn.execute(
                    "INSERT INTO games (id, game, status, guild_id, created_at, updated_at,"
                    " finished_at) VALUES (?, ?, 'finished', ?, 0, 0, ?)",
                    (game_id, rng.choice(NAMES), guild or None, 1_000 * times[n]),
                )
                players = rng.randint(1, 5)
                users = rng.sample(range(40), players)
                for seat, user in enumerate(users):
                    ai = rng.random() < 0.2
                    conn.execute(
                        "INSERT INTO results (game_id, seat, user_id, ai_policy, total, rank,"
                        " winner, tiebreak, breakdown) VALUES (?, ?, ?, ?, 0, ?, 0, 0, '{}')",
                        (game_id, seat, None if ai else USER + user, "random" if ai else None,
                         rng.randint(1, players)),
                    )
                if rng.random() < 0.1:
                    conn.execute(
                        "INSERT INTO seat_handovers (game_id, seat, after_seq, from_user_id,"
                        " to_ai_policy, reason, at) VALUES (?, 0, 3, ?, 'random', ?, 0)",
                        (game_id, USER + 100 + rng.randrange(5), rng.choice(["left", "clock",
                                                                              "replaced"])),
                    )
    finally:
        conn.close()


def _expected(path: Path) -> dict[tuple[int, str, int], tuple[float, float, int]]:
    """The ratings computed here with the library alone, from the same rows."""
    model = PlackettLuce()
    conn = sqlite3.connect(path)
    try:
        games = conn.execute(
            "SELECT id, coalesce(guild_id, 0), game FROM games WHERE status = 'finished'"
            " ORDER BY finished_at, id"
        ).fetchall()
        out: dict[tuple[int, str, int], tuple[float, float, int]] = {}
        for game_id, guild, name in games:
            seated = dict(conn.execute(
                "SELECT user_id, rank FROM results WHERE game_id = ? AND user_id IS NOT NULL",
                (game_id,)).fetchall())
            if len(seated) < 2:
                continue
            gone = {u for (u,) in conn.execute(
                "SELECT from_user_id FROM seat_handovers WHERE game_id = ? AND reason IN"
                " ('left', 'clock')", (game_id,))} - set(seated)
            order = sorted(seated, key=lambda u: (seated[u], u)) + sorted(gone)
            ranks = [float(1 + sum(1 for v in seated.values() if v < seated[u]))
                     if u in seated else float(len(seated) + 1) for u in order]
            before = [out.get((guild, name, u), (25.0, 25 / 3, 0)) for u in order]
            after = model.rate([[model.rating(mu=m, sigma=s)] for m, s, _ in before],
                               ranks=ranks)
            for u, old, team in zip(order, before, after, strict=True):
                out[(guild, name, u)] = (team[0].mu, team[0].sigma, old[2] + 1)
        return out
    finally:
        conn.close()


def _table(path: Path) -> list[tuple[object, ...]]:
    conn = sqlite3.connect(path)
    try:
        return conn.execute(
            "SELECT guild_id, game, user_id, mu, sigma, points, games FROM ratings"
            " ORDER BY guild_id, game, user_id"
        ).fetchall()
    finally:
        conn.close()


def test_rebuild_of_a_thousand_games_gives_every_figure_again(
    db_path: Path, clock: FakeClock, capsys: pytest.CaptureFixture[str]
) -> None:
    async def create() -> None:
        async with await Storage.open(db_path, clock=clock):
            pass

    async def rate_one_by_one() -> None:
        # rated one by one as they finish (what the bot does), in the order they finished
        async with await Storage.open(db_path, clock=clock) as storage:
            order = await storage.db.fetchall("SELECT id FROM games ORDER BY finished_at, id")
            for (game_id,) in order:
                await storage.db.write(partial(rate_game, game_id=int(game_id)))

    asyncio.run(create())
    _fill_finished(db_path, 1_000, seed=8)
    asyncio.run(rate_one_by_one())
    incremental = _table(db_path)
    expected = _expected(db_path)
    assert len(incremental) == len(expected) > 100
    for guild, name, user, mu, sigma, points, games in incremental:
        assert isinstance(guild, int) and isinstance(name, str) and isinstance(user, int)
        e_mu, e_sigma, e_games = expected[(guild, name, user)]
        assert (mu, sigma, games) == (e_mu, e_sigma, e_games)  # exactly: the same float steps
        assert points == shown_points(e_mu, e_sigma)

    # the storage command: the same figures from nothing, and nothing differs
    assert storage_main(["ratings", str(db_path), "--rebuild", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["games"] == 1_000 and report["rows_changed"] == 0
    assert report["people"] == len(expected)
    assert _table(db_path) == incremental

    # a change of history (a result corrected by hand) is rated again by the rebuild
    conn = sqlite3.connect(db_path)
    with conn:
        conn.execute("DELETE FROM results WHERE game_id = (SELECT id FROM games WHERE rating ="
                     " 'rated' ORDER BY finished_at LIMIT 1)")
    conn.close()
    assert storage_main(["ratings", str(db_path), "--rebuild", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["rows_changed"] > 0
    assert _table(db_path) == sorted(
        (g, n, u, mu, s, shown_points(mu, s), k) for (g, n, u), (mu, s, k) in
        _expected(db_path).items())


def test_the_rebuild_command_refuses_a_missing_file(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    assert storage_main(["ratings", str(tmp_path / "none.db"), "--rebuild"]) == 2
    assert "no such file" in capsys.readouterr().err


async def test_the_migration_rates_the_games_finished_before(tmp_path: Path,
                                                             clock: FakeClock) -> None:
    old = tmp_path / "old.db"
    db = await Database.open(old, clock=clock, target_version=10)
    await db.close()
    _fill_finished(old, 60, seed=3)
    async with await Storage.open(old, clock=clock) as storage:
        assert await storage.db.schema_version() == LATEST_VERSION
    expected = _expected(old)
    assert len(expected) > 10
    assert _table(old) == sorted(
        (g, n, u, mu, s, shown_points(mu, s), k) for (g, n, u), (mu, s, k) in expected.items())
