"""Time to move (issue #35; schema 18): how long each person's move waited for them, their
median by position in the index, and their time-outs (banks run out), on both backends."""

from __future__ import annotations

import random

from storage import GameRecord, Storage
from storage.timebank import HOUR_MS
from tests.storage.conftest import FakeClock
from tests.storage.helpers import USER, active_game, choose


async def move(storage: Storage, record: GameRecord, clock: FakeClock, hours: float,
               person: bool = True) -> tuple[GameRecord, int]:
    """The seat asked plays a legal move after ``hours``, as its person (or as an AI); the
    record after it and the seat's person."""
    clock.advance(hours=hours)
    loaded = await storage.games.load(record.id)
    chosen = choose(record.game, loaded.state, random.Random(record.seq))
    assert chosen is not None
    seat, code = chosen
    user = loaded.record.seat(seat).user_id  # type: ignore[union-attr]
    assert user is not None
    played = await storage.games.play(record.id, seat, code,
                                      expected_version=loaded.record.version,
                                      user_id=user if person else None)
    return played.record, user


async def test_the_median_wait_of_a_persons_moves(storage: Storage, clock: FakeClock) -> None:
    record = await active_game(storage, players=2)  # USER and USER + 1
    waits: dict[int, list[int]] = {}
    for hours in (1, 5, 2, 9, 3, 4, 7):
        record, user = await move(storage, record, clock, hours)
        waits.setdefault(user, []).append(int(hours * HOUR_MS))
    for user, spans in waits.items():
        pace = await storage.games.move_pace(user)
        assert pace is not None and pace.moves == len(spans)
        ordered = sorted(spans)
        middle = ordered[(len(ordered) - 1) // 2: len(ordered) // 2 + 1]
        assert pace.median_ms == sum(middle) // len(middle)
        assert pace.timeouts == 0
    assert await storage.games.move_pace(USER + 99) is None
    assert await storage.games.move_pace(USER, game="san-juan") is None
    assert await storage.games.move_pace(USER, guild_id=12345) is None


async def test_an_ais_move_is_not_timed_and_a_time_out_counts(
    storage: Storage, clock: FakeClock
) -> None:
    record = await active_game(storage, players=2)
    before = await storage.games.move_pace(USER)
    record, _ = await move(storage, record, clock, 6, person=False)
    assert await storage.games.move_pace(USER) == before  # nothing timed for anyone
    [wait] = [w for w in await storage.reminders.waits(before=clock.now)
              if w.game_id == record.id] or [None]  # type: ignore[list-item]
    assert wait is not None
    # a vote the table opened (/game kick) is no time-out ...
    assert await storage.reminders.open_vote(wait, by=wait.user_id + 1) is not None
    pace = await storage.games.move_pace(wait.user_id)
    assert pace is None or pace.timeouts == 0
    # ... a bank that ran out (an AI stands in) is one
    await storage.games.replace_seat(record.id, wait.seat, ai_policy="heuristic",
                                     reason="timeout", stand_in_for=wait.user_id)
    await storage.games.abandon(record.id)
    pace = await storage.games.move_pace(wait.user_id)
    assert pace is not None and pace.timeouts == 1


async def test_a_vote_the_clock_opened_before_schema_19_is_a_time_out(
    storage: Storage, clock: FakeClock
) -> None:
    record = await active_game(storage, players=2)
    record, _ = await move(storage, record, clock, 6, person=False)
    [wait] = [w for w in await storage.reminders.waits(before=clock.now)
              if w.game_id == record.id]
    assert await storage.reminders.open_vote(wait) is not None  # no one opened it
    pace = await storage.games.move_pace(wait.user_id)
    assert pace is not None and pace.timeouts == 1
