"""Absences (issue #35; schema 21): one under way or planned per person, the allowance in any
365 days, ending early, and every seat of the person reading it (its bank leaves it out), on
both backends."""

from __future__ import annotations

from datetime import timedelta

import pytest

from storage import AwayAllowance, Storage
from storage.rows import stops
from storage.timebank import DAY_MS, HOUR_MS, PRESETS, left
from tests.storage.conftest import FakeClock
from tests.storage.helpers import USER, active_game


async def test_an_absence_stops_the_persons_banks_in_every_game(
    storage: Storage, clock: FakeClock
) -> None:
    one = await active_game(storage, players=2, channel_id=20)
    two = await active_game(storage, players=2, channel_id=21, user_base=USER + 10)
    three = await active_game(storage, players=3, channel_id=22, user_base=USER - 1)  # USER too
    for game in (one, two, three):
        await storage.reminders.set_timers(game.id, pace=PRESETS["normal"])
    clock.advance(hours=2)
    start = clock.now
    absence, games = await storage.absences.set(USER, start, start + timedelta(days=3), "trip",
                                                allowance_days=21)
    assert (absence.since, absence.until, absence.reason) == (
        start, start + timedelta(days=3), "trip")
    assert sorted(g.id for g in games) == [one.id, three.id]
    for game in games:
        assert game.version == (await storage.games.get(game.id)).version
    record = await storage.games.get(one.id)
    mine = record.seat_of(USER)
    assert mine is not None and mine.away == ((start, start + timedelta(days=3)),)
    other = record.seat_of(USER + 1)
    assert other is not None and other.away == ()
    assert (await storage.absences.current(USER)) == absence
    assert await storage.absences.used_ms(USER) == 3 * DAY_MS

    clock.advance(days=5)
    waiting = record.seat(0)  # USER's seat is asked first (the seed's governor)
    assert waiting is not None and waiting.user_id == USER and waiting.bank_ms is not None
    assert left(waiting.bank_ms, waiting.waiting_since, clock.now, record.quiet,
                record.stops(waiting)) == 3 * DAY_MS - 2 * DAY_MS - 2 * HOUR_MS
    [wait] = [w for w in await storage.reminders.waits(before=clock.now)
              if w.game_id == one.id and w.user_id == USER]
    assert wait.stops == ((start, start + timedelta(days=3)),)


async def test_the_allowance_replacing_and_ending(storage: Storage, clock: FakeClock) -> None:
    start = clock.now
    await storage.absences.set(USER, start, start + timedelta(days=10), None, allowance_days=21)
    with pytest.raises(AwayAllowance) as refused:
        # replacing cuts the first at now (0 days used): 21 days, not 22
        await storage.absences.set(USER, start, start + timedelta(days=22), None,
                                   allowance_days=21)
    assert refused.value.left_ms == 21 * DAY_MS
    assert (await storage.absences.current(USER)) is not None  # nothing changed
    clock.advance(days=4)
    games = await storage.absences.end(USER)
    assert games == []
    assert await storage.absences.current(USER) is None
    assert await storage.absences.used_ms(USER) == 4 * DAY_MS
    assert await storage.absences.end(USER) is None
    # a planned absence (from a later day) replaced by another, then dropped
    later = clock.now + timedelta(days=30)
    await storage.absences.set(USER, later, later + timedelta(days=5), "a", allowance_days=21)
    await storage.absences.set(USER, later, later + timedelta(days=6), "b", allowance_days=21)
    current = await storage.absences.current(USER)
    assert current is not None and current.reason == "b" and not current.under_way(clock.now)
    assert await storage.absences.used_ms(USER) == 10 * DAY_MS
    assert await storage.absences.end(USER) == []
    assert await storage.absences.used_ms(USER) == 4 * DAY_MS
    # a year on, the old absences no longer count
    clock.advance(days=366)
    assert await storage.absences.used_ms(USER) == 0
    with pytest.raises(ValueError):
        await storage.absences.set(USER, clock.now, clock.now, None, allowance_days=21)


def test_a_pause_and_an_absence_that_begin_together_read_in_order() -> None:
    read = stops([[1_000, None], [1_000, 2_000], [500, 700]])
    assert [(a.timestamp(), None if b is None else b.timestamp()) for a, b in read] == [
        (0.5, 0.7), (1.0, None), (1.0, 2.0)]


async def test_a_seat_handed_on_counts_the_new_persons_absences(
    storage: Storage, clock: FakeClock
) -> None:
    """The former person's absence during the wait is not the new person's: the newcomer's
    bank is the pace's whole first bank at the hand-over, and the record returned reads the
    newcomer's absences as a load does."""
    game = await active_game(storage, players=2, channel_id=30)
    await storage.reminders.set_timers(game.id, pace=PRESETS["normal"])
    record = await storage.games.get(game.id)
    waiting = record.seat(0)
    assert waiting is not None and waiting.user_id == USER
    start = clock.now
    await storage.absences.set(USER, start, start + timedelta(days=1), None, allowance_days=21)
    newcomer = USER + 50
    await storage.absences.set(newcomer, start + timedelta(days=3), start + timedelta(days=4),
                               None, allowance_days=21)  # planned: ahead of the hand-over
    clock.advance(days=2)
    handed = await storage.games.replace_seat(game.id, 0, user_id=newcomer)
    seat = handed.seat(0)
    loaded = (await storage.games.get(game.id)).seat(0)
    assert seat is not None and loaded is not None
    assert seat.away == loaded.away == ((start + timedelta(days=3), start + timedelta(days=4)),)
    assert seat.bank_ms == loaded.bank_ms and seat.bank_ms is not None
    pace = PRESETS["normal"]
    assert left(seat.bank_ms, seat.waiting_since, clock.now, handed.quiet,
                handed.stops(seat)) == pace.start_ms
