"""Pauses (issue #35; schema 20): more than half of the people seated ask, the pause begins,
the banks and the waits' charges leave it out, and any one of them ends it; on both
backends."""

from __future__ import annotations

import random

import pytest

from storage import NotSeated, Storage, WrongStatus
from storage.timebank import HOUR_MS, PRESETS, left
from tests.storage.conftest import FakeClock
from tests.storage.helpers import USER, active_game, choose


async def test_a_majority_pauses_and_one_unpauses(storage: Storage, clock: FakeClock) -> None:
    record = await active_game(storage, players=4, ai_seats=1)  # three people
    await storage.reminders.set_timers(record.id, pace=PRESETS["normal"])
    first = await storage.reminders.ask_pause(record.id, USER)
    assert (first.asked, first.needed, first.paused) == ((USER,), 2, False)
    again = await storage.reminders.ask_pause(record.id, USER)
    assert again.asked == (USER,) and again.record.version == record.version
    with pytest.raises(NotSeated):
        await storage.reminders.ask_pause(record.id, USER + 9)
    clock.advance(hours=5)
    done = await storage.reminders.ask_pause(record.id, USER + 1)
    assert done.paused and done.asked == (USER, USER + 1)
    assert done.record.paused and done.record.pauses == ((clock.now, None),)
    assert done.record.version == again.record.version + 1  # the table shows the pause
    stays = await storage.reminders.ask_pause(record.id, USER + 2)
    assert stays.paused and stays.asked == () and stays.record.version == done.record.version

    waiting = next(s for s in done.record.seats if s.waiting_since is not None)
    assert waiting.bank_ms is not None
    clock.advance(days=20)
    assert left(waiting.bank_ms, waiting.waiting_since, clock.now, done.record.quiet,
                done.record.pauses) == waiting.bank_ms - 5 * HOUR_MS
    [wait] = [w for w in await storage.reminders.waits(before=clock.now)
              if w.game_id == record.id and w.seat == waiting.seat]
    assert wait.stops == done.record.pauses

    back = await storage.reminders.unpause(record.id, USER + 2)
    assert back is not None and not back.paused
    assert back.pauses == ((done.record.pauses[0][0], clock.now),)
    assert await storage.reminders.unpause(record.id, USER) is None
    clock.advance(hours=1)
    # five hours before the pause and one after: the move is charged six
    loaded = await storage.games.load(record.id)
    chosen = choose(record.game, loaded.state, random.Random(1))
    assert chosen is not None and chosen[0] == waiting.seat
    played = await storage.games.play(record.id, chosen[0], chosen[1],
                                      expected_version=loaded.record.version,
                                      user_id=waiting.user_id)
    after = played.record.seat(waiting.seat)
    assert after is not None and after.bank_ms == min(
        PRESETS["normal"].cap_ms, waiting.bank_ms - 6 * HOUR_MS + PRESETS["normal"].increment_ms)

    await storage.games.abandon(record.id)
    with pytest.raises(WrongStatus):
        await storage.reminders.ask_pause(record.id, USER)
