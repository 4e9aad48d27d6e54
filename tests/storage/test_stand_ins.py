"""Stand-ins (issue #35; schema 19): an AI keeps the seat of a person out of time, the person
takes it back with one move's bank, and a table of stand-ins only is found for abandoning after
its server's days, on both backends."""

from __future__ import annotations

from datetime import timedelta

import pytest

from storage import Storage, WrongStatus
from storage.records import ABANDON_DAYS
from storage.timebank import DAY_MS, PRESETS
from tests.storage.conftest import FakeClock
from tests.storage.helpers import USER, active_game


async def test_a_stand_in_keeps_the_seat_and_the_person_takes_it_back(
    storage: Storage, clock: FakeClock
) -> None:
    record = await active_game(storage, players=2, channel_id=10)
    await storage.reminders.set_timers(record.id, pace=PRESETS["normal"])
    seat = record.seat_of(USER)
    assert seat is not None
    clock.advance(hours=3)
    stood = await storage.games.replace_seat(record.id, seat.seat, ai_policy="heuristic",
                                             reason="timeout", stand_in_for=USER)
    kept = stood.seat(seat.seat)
    assert kept is not None
    assert (kept.user_id, kept.ai_policy, kept.stand_in_for, kept.stood_in_at, kept.bank_ms) == (
        None, "heuristic", USER, clock.now, None)
    assert stood.stand_in_of(USER) == kept and stood.present  # USER + 1 is still there
    assert (await storage.games.get(record.id)).stand_in_of(USER) == kept
    assert [g.id for g in await storage.games.list_stood_in(USER)] == [record.id]
    assert await storage.games.list_stood_in(USER + 1) == []
    assert [h.reason for h in await storage.games.handovers(record.id)] == ["timeout"]

    clock.advance(hours=5)
    back = await storage.games.replace_seat(record.id, seat.seat, user_id=USER,
                                            reason="returned", bank_ms=DAY_MS)
    mine = back.seat(seat.seat)
    assert mine is not None and (mine.user_id, mine.stand_in_for, mine.stood_in_at) == (
        USER, None, None)
    # one move's bank, counted from now even in a wait begun before
    spent = 0 if mine.waiting_since is None else int(
        (clock.now - mine.waiting_since).total_seconds() * 1000)
    assert mine.bank_ms == DAY_MS + spent
    assert await storage.games.list_stood_in(USER) == []
    assert [h.reason for h in await storage.games.handovers(record.id)] == [
        "timeout", "returned"]
    with pytest.raises(ValueError):
        await storage.games.replace_seat(record.id, seat.seat, user_id=USER + 5,
                                         stand_in_for=USER)


async def test_a_table_of_stand_ins_is_a_stall_after_its_servers_days(
    storage: Storage, clock: FakeClock
) -> None:
    alone = await active_game(storage, players=2, ai_seats=1, channel_id=11)
    pair = await active_game(storage, players=2, channel_id=12, user_base=USER + 10)
    start = clock.now
    await storage.games.replace_seat(alone.id, 0, ai_policy="heuristic", reason="timeout",
                                     stand_in_for=USER)
    await storage.games.replace_seat(pair.id, 0, ai_policy="heuristic", reason="timeout",
                                     stand_in_for=USER + 10)
    assert await storage.reminders.stalls(before=start + timedelta(days=30)) != []
    stalls = await storage.reminders.stalls(before=start + timedelta(days=ABANDON_DAYS))
    # the pair still has a person at its table: no stall
    assert [(s.game_id, s.last, s.days) for s in stalls] == [(alone.id, start, ABANDON_DAYS)]
    assert await storage.reminders.stalls(
        before=start + timedelta(days=ABANDON_DAYS) - timedelta(milliseconds=1)) == []
    await storage.settings.update_guild(1, abandon_days=3)
    assert [s.days for s in await storage.reminders.stalls(before=start + timedelta(days=3))
            ] == [3]
    with pytest.raises(ValueError):
        await storage.settings.update_guild(1, abandon_days=0)
    # the last person of the pair out of time too: counted from the later time-out
    clock.advance(days=1)
    await storage.games.replace_seat(pair.id, 1, ai_policy="heuristic", reason="timeout",
                                     stand_in_for=USER + 11)
    stalls = await storage.reminders.stalls(before=start + timedelta(days=4))
    assert {s.game_id: s.last for s in stalls} == {alone.id: start,
                                                   pair.id: start + timedelta(days=1)}
    await storage.games.abandon(alone.id)
    assert [s.game_id for s in await storage.reminders.stalls(
        before=start + timedelta(days=4))] == [pair.id]
    with pytest.raises(WrongStatus):
        await storage.games.replace_seat(alone.id, 0, user_id=USER, reason="returned")


async def test_the_present_wait_of_a_seat(storage: Storage) -> None:
    record = await active_game(storage, players=2, channel_id=13)
    loaded = await storage.games.load(record.id)
    waiting = [s for s in loaded.record.seats if s.waiting_since is not None]
    assert waiting
    wait = await storage.reminders.wait_of(record.id, waiting[0].seat)
    assert wait is not None and (wait.user_id, wait.waiting_since) == (
        waiting[0].user_id, waiting[0].waiting_since)
    idle = [s for s in loaded.record.seats if s.waiting_since is None]
    for seat in idle:
        assert await storage.reminders.wait_of(record.id, seat.seat) is None
