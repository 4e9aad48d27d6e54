"""Seat hand-overs (schema 7): a seat of a running game that changes hands is recorded with the
position in the log where it happened, so the history can name whoever held the seat then; and
games from every earlier schema get their past hand-overs back-filled."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

import pytest

from engine.core import get_game
from storage import Database, Storage
from storage.handovers import SeatHandover, occupant_at
from storage.migrate import LATEST_VERSION
from storage.records import dumps, from_ms_required
from tests.storage.conftest import FakeClock
from tests.storage.helpers import active_game, choose, query_plan
from tests.storage.test_migrations import T0, _played, seed_schema_3

HANDOVERS = 7


async def _play(storage: Storage, game_id: int, count: int, *, as_users: bool = True) -> None:
    """``count`` legal moves, each credited to the seat's user (as the bot does)."""
    rng = random.Random(game_id)
    for _ in range(count):
        loaded = await storage.games.load(game_id)
        move = choose(loaded.record.game, loaded.state, rng)
        assert move is not None
        seat = loaded.record.seat(move[0])
        assert seat is not None
        await storage.games.play(game_id, *move, expected_version=loaded.record.version,
                                 user_id=seat.user_id if as_users else None)


async def test_a_running_seat_handed_to_an_ai_is_recorded_where_it_happened(
    storage: Storage, clock: FakeClock
) -> None:
    record = await active_game(storage, "puerto-rico", players=3)
    await _play(storage, record.id, 7)
    clock.advance(minutes=5)
    before = await storage.games.get(record.id)
    after = await storage.games.replace_seat(record.id, 1, ai_policy="heuristic", reason="left")
    assert after.version == before.version + 1
    [handover] = await storage.games.handovers(record.id)
    assert handover == SeatHandover(record.id, 1, 7, 1001, None, None, "heuristic", "left",
                                    clock.now)
    assert handover.from_human and not handover.to_human
    # The log is untouched: the seat's earlier actions keep their user, the new ones have none.
    await _play(storage, record.id, 20)
    actions = await storage.games.actions(record.id)
    assert {a.user_id for a in actions if a.seat == 1 and a.seq <= 7} <= {1001}
    assert {a.user_id for a in actions if a.seat == 1 and a.seq > 7} <= {None}
    # Who held the seat for each action.
    seat = (await storage.games.get(record.id)).seat(1)
    assert seat is not None
    assert occupant_at(seat, [handover], 7) == (1001, None)
    assert occupant_at(seat, [handover], 8) == (None, "heuristic")


async def test_every_hand_over_is_kept_in_order_with_its_reason(storage: Storage) -> None:
    record = await active_game(storage, "puerto-rico", players=4)
    await _play(storage, record.id, 3)
    await storage.games.replace_seat(record.id, 2, ai_policy="heuristic", reason="clock")
    await storage.games.replace_seat(record.id, 2, user_id=77)  # a friend takes the AI's seat
    await _play(storage, record.id, 4)
    await storage.games.replace_seat(record.id, 2, ai_policy="random", reason="left")
    handovers = await storage.games.handovers(record.id)
    assert [(h.after_seq, h.from_user_id, h.from_ai_policy, h.to_user_id, h.to_ai_policy,
             h.reason) for h in handovers] == [
        (3, 1002, None, None, "heuristic", "clock"),
        (3, None, "heuristic", 77, None, "replaced"),
        (7, 77, None, None, "random", "left"),
    ]
    seat = (await storage.games.get(record.id)).seat(2)
    assert seat is not None
    assert [occupant_at(seat, handovers, seq) for seq in (3, 4, 7, 8)] == [
        (1002, None), (77, None), (77, None), (None, "random")]


async def test_lobby_seats_and_no_change_record_nothing(storage: Storage) -> None:
    lobby = await storage.games.create_lobby("puerto-rico", creator_id=1, guild_id=1)
    lobby = await storage.games.join(lobby.id, 2)
    await storage.games.replace_seat(lobby.id, 1, ai_policy="random")
    assert await storage.games.handovers(lobby.id) == []
    record = await active_game(storage, "puerto-rico", players=3, ai_seats=1)
    await storage.games.replace_seat(record.id, 2, ai_policy="random")  # the same AI
    assert await storage.games.handovers(record.id) == []
    with pytest.raises(ValueError):
        await storage.games.replace_seat(record.id, 1, ai_policy="random",
                                         reason="bored")  # type: ignore[arg-type]
    assert await storage.games.handovers(record.id) == []
    assert (await storage.games.get(record.id)).seats[1].user_id == 1001


async def test_hand_overs_are_append_only_and_go_with_their_game(storage: Storage) -> None:
    """A hand-over cannot be edited, an impossible one (a seat held by a user and an AI at once)
    cannot be written, and deleting the game deletes its hand-overs."""
    record = await active_game(storage, "puerto-rico", players=3)
    await storage.games.replace_seat(record.id, 1, ai_policy="heuristic", reason="left")
    before = await storage.games.handovers(record.id)
    with pytest.raises(storage.db.integrity_errors, match="seat hand-overs are append-only"):
        await storage.db.write(
            lambda tx: tx.execute("UPDATE seat_handovers SET reason = 'clock'"))
    with pytest.raises(storage.db.integrity_errors):
        await storage.db.write(lambda tx: tx.execute(
            "INSERT INTO seat_handovers (game_id, seat, after_seq, from_user_id, from_ai_policy,"
            " to_ai_policy, reason, at) VALUES (?, 0, 0, 5, 'random', 'random', 'left', 0)",
            (record.id,)))
    assert await storage.games.handovers(record.id) == before
    await storage.db.write(lambda tx: tx.execute("DELETE FROM games WHERE id = ?", (record.id,)))
    assert await storage.games.handovers(record.id) == []
    assert await storage.db.scalar("SELECT count(*) FROM seat_handovers") == 0


async def test_reading_the_hand_overs_is_an_index_search(storage: Storage) -> None:
    """On either backend a game's hand-overs are found through seat_handovers_game, never by
    reading the whole table."""
    statements: list[str] = []
    await storage.db.set_trace(statements.append)
    await storage.games.handovers(1)
    await storage.db.set_trace(None)
    plan = await query_plan(storage, statements[-1], (1,))
    assert "seat_handovers_game" in plan.indexes and not plan.scans, plan


# --- the migration ---------------------------------------------------------------------------


def _seed_handed_over_game(conn: sqlite3.Connection, *, votes: bool, credited: bool = True,
                           channel: int = 77) -> int:
    """A 4-player game as an older bot left it: seat 2's player left after 20 actions, seat 3's
    was voted out after 30 (when the schema has votes), seat 1 was always an AI and seat 0's
    player is still there.  The log credits each person's moves to them (unless not
    ``credited``: then nobody can tell who played before)."""
    opts, state, log = _played("puerto-rico", {"players": 4}, 8, 45)
    conn.execute(
        "INSERT INTO games (game, options, seed, status, version, seq, snapshot, channel_id,"
        " guild_id, created_at, updated_at, started_at, last_action_at)"
        " VALUES ('puerto-rico', ?, 8, 'active', ?, ?, ?, ?, 9, ?, ?, ?, ?)",
        (dumps(opts), len(log) + 9, len(log), dumps(_dump(state)), channel, T0, T0 + 1000, T0,
         T0 + 1000),
    )
    game_id = int(conn.execute("SELECT last_insert_rowid()").fetchone()[0])
    left_at, voted_at = T0 + 20 * 10 + 5, T0 + 30 * 10 + 5
    occupants = {0: (300, None, T0), 1: (None, "random", T0), 2: (None, "heuristic", left_at),
                 3: (None, "heuristic", voted_at) if votes else (303, None, T0)}
    for seat, (user, policy, joined) in occupants.items():
        conn.execute("INSERT INTO seats (game_id, seat, user_id, ai_policy, joined_at)"
                     " VALUES (?, ?, ?, ?, ?)", (game_id, seat, user, policy, joined))

    def player(seat: int, seq: int) -> int | None:
        gone = (seat == 2 and seq > 20) or (seat == 3 and votes and seq > 30)
        if not credited or seat == 1 or gone:
            return None
        return 300 + seat

    conn.executemany(
        "INSERT INTO actions (game_id, seq, seat, code, user_id, at, events)"
        " VALUES (?, ?, ?, ?, ?, ?, ?)",
        [(game_id, i + 1, seat, code, player(seat, i + 1), T0 + (i + 1) * 10, events)
         for i, (seat, code, events) in enumerate(log)],
    )
    if votes:
        conn.execute(
            "INSERT INTO clock_votes (game_id, seat, user_id, waiting_since, status, opened_at,"
            " closed_at) VALUES (?, 3, 303, ?, 'takeover', ?, ?)",
            (game_id, T0 + 300, T0 + 301, voted_at))
    return game_id


def _dump(state: object) -> object:
    return get_game("puerto-rico").dump(state)


@pytest.mark.parametrize("start", range(1, HANDOVERS))
async def test_earlier_schemas_get_their_hand_overs_back(
    tmp_path: Path, clock: FakeClock, start: int
) -> None:
    """From every schema before 7 that has an action log: the seats handed over after the start
    get their former player back, at the right place of the log, with the reason a clock vote
    gives; the game keeps being played and hands over like a new one."""
    assert LATEST_VERSION >= HANDOVERS
    path = tmp_path / "old.db"
    db = await Database.open(path, clock=clock, target_version=start)
    await db.close()
    with sqlite3.connect(path) as conn:
        game_id = _seed_handed_over_game(conn, votes=start >= 4)
        unknown = _seed_handed_over_game(conn, votes=False, credited=False, channel=78)
        if start >= 3:
            seed_schema_3(conn)
    async with await Storage.open(path, clock=clock) as storage:
        handovers = await storage.games.handovers(game_id)
        expected = [(2, 20, 302, None, "heuristic", "left")]
        if start >= 4:
            expected.append((3, 30, 303, None, "heuristic", "clock"))
        assert [(h.seat, h.after_seq, h.from_user_id, h.from_ai_policy, h.to_ai_policy, h.reason)
                for h in handovers] == expected
        assert handovers[0].at == from_ms_required(T0 + 205)
        assert await storage.games.handovers(unknown) == []
        assert (await storage.verify()).ok
        await _play(storage, game_id, 3)
        record = await storage.games.replace_seat(game_id, 0, ai_policy="random", reason="left")
        last = (await storage.games.handovers(game_id))[-1]
        assert (last.seat, last.after_seq, last.from_user_id) == (0, record.seq, 300)
