"""Time banks in storage (issue #35; storage/timebank.py): the arithmetic, the banks a start
gives, what each wait spends and each move adds, simultaneous waits charged each alone, a seat
handed over, a pace set on a running game, and a stored clock of N days migrated into the same
deadline.  On SQLite and PostgreSQL (the ``storage`` fixture)."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import get_game
from storage import GameRecord, GameStatus, Storage
from storage.changes import set_waiting
from storage.database import Database
from storage.records import to_ms
from storage.sql import Tx
from storage.timebank import (
    DAY_MS,
    HOUR_MS,
    PRESETS,
    Pace,
    Quiet,
    charged,
    left,
    per_move,
    quiet_columns,
    quiet_rule,
    runs_out,
    settle,
    stopped,
)
from tests.storage.conftest import FakeClock
from tests.storage.helpers import USER, table_options

NORMAL = PRESETS["normal"]  # 3 days, +1 a move, at most 5


# --- the arithmetic -----------------------------------------------------------------------------


def test_a_move_adds_the_increment_up_to_the_cap() -> None:
    assert settle(NORMAL, 3 * DAY_MS, 2 * HOUR_MS, moved=True) == 4 * DAY_MS - 2 * HOUR_MS
    assert settle(NORMAL, 5 * DAY_MS, HOUR_MS, moved=True) == 5 * DAY_MS  # capped
    assert settle(NORMAL, 3 * DAY_MS, 2 * HOUR_MS, moved=False) == 3 * DAY_MS - 2 * HOUR_MS


def test_a_bank_that_ran_out_counts_as_empty_at_the_next_move() -> None:
    assert settle(NORMAL, DAY_MS, 3 * DAY_MS, moved=False) == -2 * DAY_MS
    assert settle(NORMAL, DAY_MS, 3 * DAY_MS, moved=True) == DAY_MS  # the increment alone


def test_left_counts_from_the_start_of_the_wait(clock: FakeClock) -> None:
    since = clock.now
    assert left(DAY_MS, None, since + timedelta(days=9)) == DAY_MS  # not waiting: nothing spent
    assert left(DAY_MS, since, since + timedelta(hours=23)) == HOUR_MS
    assert left(DAY_MS, since, since + timedelta(days=1)) == 0
    assert left(DAY_MS, since, since - timedelta(hours=1)) == DAY_MS  # a clock set back


def test_a_stored_clock_of_n_days_is_n_days_for_every_decision() -> None:
    pace = per_move(2)
    bank = pace.start_ms
    for used in (HOUR_MS, DAY_MS, 2 * DAY_MS - 1):
        bank = settle(pace, bank, used, moved=True)
        assert bank == 2 * DAY_MS


@pytest.mark.parametrize(("start", "increment", "cap"), [
    (0, 0, DAY_MS), (DAY_MS, -1, DAY_MS), (2 * DAY_MS, 0, DAY_MS), (DAY_MS, 2 * DAY_MS, DAY_MS)])
def test_a_pace_that_does_not_hold_is_refused(start: int, increment: int, cap: int) -> None:
    with pytest.raises(ValueError, match="does not hold"):
        Pace("custom", start, increment, cap)
    with pytest.raises(ValueError, match="no pace named"):
        Pace("unlimited", DAY_MS, 0, DAY_MS)


# --- in storage ---------------------------------------------------------------------------------


async def lobby(storage: Storage, pace: Pace | None, players: int = 3) -> GameRecord:
    record = await storage.games.create_lobby(
        "puerto-rico", creator_id=USER, guild_id=1, channel_id=1,
        options=table_options("puerto-rico", players), pace=pace)
    for n in range(1, players - 1):
        record = await storage.games.join(record.id, USER + n)
    return await storage.games.add_ai(record.id, "random")


async def first_move(storage: Storage, record: GameRecord) -> tuple[int, str]:
    """The seat asked first and its first legal action's code."""
    loaded = await storage.games.load(record.id)
    game = get_game(record.game)
    prompt = game.prompt(loaded.state)
    assert prompt is not None
    seat = prompt.seats[0]
    return seat, game.encode_action(game.legal_actions(loaded.state, seat)[0])


async def play_first_move(storage: Storage, record: GameRecord) -> tuple[int, GameRecord]:
    """The seat asked first plays its first legal action now: the seat and the record after."""
    seat, code = await first_move(storage, record)
    played = await storage.games.play(record.id, seat, code, expected_version=record.version)
    return seat, played.record


async def test_the_start_gives_each_person_the_first_bank(storage: Storage) -> None:
    record = await storage.games.start((await lobby(storage, NORMAL)).id, seed=3)
    assert record.pace == NORMAL
    assert [(s.user_id is None, s.bank_ms) for s in record.seats] == [
        (False, 3 * DAY_MS), (False, 3 * DAY_MS), (True, None)]
    assert (await storage.games.get(record.id)).seats == record.seats
    assert (await storage.reminders.timers(record.id)).pace == NORMAL


async def test_without_a_pace_nobody_has_a_bank(storage: Storage, clock: FakeClock) -> None:
    record = await storage.games.start((await lobby(storage, None)).id, seed=3)
    assert record.pace is None and all(s.bank_ms is None for s in record.seats)
    clock.advance(days=30)
    _, played = await play_first_move(storage, record)
    assert all(s.bank_ms is None for s in played.seats)


async def test_a_move_spends_its_wait_and_adds_the_increment(
    storage: Storage, clock: FakeClock
) -> None:
    record = await storage.games.start((await lobby(storage, NORMAL)).id, seed=3)
    clock.advance(hours=10)
    seat, played = await play_first_move(storage, record)
    mover = played.seat(seat)
    assert mover is not None and mover.bank_ms == 4 * DAY_MS - 10 * HOUR_MS
    stored = (await storage.games.get(record.id)).seat(seat)
    assert stored is not None and stored.bank_ms == mover.bank_ms
    # the others kept theirs (they were not waiting) or wait from now on
    for other in played.seats:
        if other.seat != seat and other.user_id is not None:
            assert other.bank_ms == 3 * DAY_MS


async def test_simultaneous_waits_are_charged_each_alone(
    storage: Storage, clock: FakeClock
) -> None:
    """Two seats asked at once (set as waiting together), each acting at its own moment: each
    bank pays its own wait, not the other's."""
    record = await storage.games.start((await lobby(storage, NORMAL, players=3)).id, seed=3)
    people = [s.seat for s in record.seats if s.user_id is not None]
    since = to_ms(clock.now)

    async def both_waiting(tx: Tx) -> None:
        await tx.execute("UPDATE seats SET waiting_since = ? WHERE game_id = ?",
                         (since, record.id))

    await storage.db.write(both_waiting)
    record = await storage.games.get(record.id)
    clock.advance(hours=5)

    async def first_acts(tx: Tx) -> GameRecord:  # (set_waiting: the step every change runs)
        seats = await set_waiting(tx, record, people[1:], people[0], storage.db.now_ms())
        return dataclasses.replace(record, seats=seats)

    record = await storage.db.write(first_acts)
    clock.advance(hours=7)

    async def second_acts(tx: Tx) -> None:
        await set_waiting(tx, record, (), people[1], storage.db.now_ms())

    await storage.db.write(second_acts)
    banks = {s.seat: s.bank_ms for s in (await storage.games.get(record.id)).seats}
    assert banks[people[0]] == 4 * DAY_MS - 5 * HOUR_MS
    assert banks[people[1]] == 4 * DAY_MS - 12 * HOUR_MS


async def test_a_seat_handed_over_starts_its_new_holder_from_now(
    storage: Storage, clock: FakeClock
) -> None:
    record = await storage.games.start((await lobby(storage, NORMAL)).id, seed=3)
    seat, _ = await first_move(storage, record)
    clock.advance(days=2)
    to_ai = await storage.games.replace_seat(record.id, seat, ai_policy="random")
    assert to_ai.seat(seat).bank_ms is None  # type: ignore[union-attr]
    clock.advance(hours=5)
    back = await storage.games.replace_seat(record.id, seat, user_id=USER + 50)
    held = back.seat(seat)
    assert held is not None and held.user_id == USER + 50
    assert left(held.bank_ms or 0, held.waiting_since, clock.now) == NORMAL.start_ms


async def test_a_pace_set_on_a_running_game_gives_banks_from_now(
    storage: Storage, clock: FakeClock
) -> None:
    record = await storage.games.start((await lobby(storage, None)).id, seed=3)
    clock.advance(hours=30)
    await storage.reminders.set_timers(record.id, pace=per_move(1))
    record = await storage.games.get(record.id)
    for seat in record.seats:
        if seat.user_id is None:
            assert seat.bank_ms is None
        else:
            assert left(seat.bank_ms or 0, seat.waiting_since, clock.now) == DAY_MS
    await storage.reminders.set_timers(record.id, pace=None)
    record = await storage.games.get(record.id)
    assert record.pace is None and all(s.bank_ms is None for s in record.seats)


# --- a clock stored before the banks ------------------------------------------------------------


async def test_a_stored_clock_keeps_its_deadline_as_a_pace(
    unmigrated_url: str, clock: FakeClock
) -> None:
    """Schema 14 held ``clock_days``: a vote once one decision had waited N days.  After the
    migration the game's pace is N days a move, each person seated in the running game has N
    days from the start of the present wait (the same deadline), the lobby's seats get theirs
    at the start, and the AI seat none."""
    db = await Database.open(unmigrated_url, clock=clock, target_version=14)
    now = to_ms(clock.now)
    waited = now - 20 * HOUR_MS

    async def seed(tx: Tx) -> dict[str, int]:
        ids: dict[str, int] = {}
        for key, status in (("active", "active"), ("lobby", "lobby"), ("plain", "active")):
            ids[key] = await tx.insert(
                "INSERT INTO games (game, options, status, version, seq, channel_id,"
                " created_at, updated_at) VALUES ('puerto-rico', '{}', ?, 1, 0, ?, ?, ?)",
                (status, len(ids) + 1, now, now))
        for key, game_id in ids.items():
            await tx.execute(
                "INSERT INTO seats (game_id, seat, user_id, joined_at, waiting_since)"
                " VALUES (?, 0, ?, ?, ?)",
                (game_id, USER + game_id, now, waited if key != "lobby" else None))
            await tx.execute(
                "INSERT INTO seats (game_id, seat, ai_policy, joined_at)"
                " VALUES (?, 1, 'random', ?)", (game_id, now))
        for key in ("active", "lobby"):
            await tx.execute("INSERT INTO game_timers (game_id, clock_days) VALUES (?, 2)",
                             (ids[key],))
        return ids

    ids = await db.write(seed)
    await db.close()
    storage = await Storage.open(unmigrated_url, clock=clock)
    try:
        active = await storage.games.get(ids["active"])
        assert active.pace == per_move(2) and active.status is GameStatus.ACTIVE
        person, ai = active.seats
        assert (person.bank_ms, ai.bank_ms) == (2 * DAY_MS, None)
        assert person.waiting_since is not None and person.bank_ms is not None
        deadline = person.waiting_since + timedelta(milliseconds=person.bank_ms)
        assert to_ms(deadline) == waited + 2 * DAY_MS  # the old clock's moment
        [wait] = [w for w in await storage.reminders.waits(before=clock.now)
                  if w.game_id == active.id]
        assert wait.bank_ms == 2 * DAY_MS
        assert left(wait.bank_ms, wait.waiting_since, clock.now) == 28 * HOUR_MS
        lobby_record = await storage.games.get(ids["lobby"])
        assert lobby_record.pace == per_move(2)
        assert all(s.bank_ms is None for s in lobby_record.seats)
        plain = await storage.games.get(ids["plain"])
        assert plain.pace is None and all(s.bank_ms is None for s in plain.seats)
    finally:
        await storage.close()


# --- quiet time ---------------------------------------------------------------------------------

MADRID = "Europe/Madrid"


def local(zone: str, year: int, month: int, day: int, hour: int) -> datetime:
    return datetime(year, month, day, hour, tzinfo=ZoneInfo(zone)).astimezone(UTC)


def test_the_weekend_costs_nothing() -> None:
    quiet = Quiet(MADRID, weekends=True)
    friday = local(MADRID, 2026, 12, 4, 20)
    monday = local(MADRID, 2026, 12, 7, 8)
    assert charged(friday, monday, quiet) == 12 * HOUR_MS  # Friday 4 h, Monday 8 h
    assert charged(friday, monday) == 60 * HOUR_MS
    saturday = local(MADRID, 2026, 12, 5, 10)
    assert charged(saturday, local(MADRID, 2026, 12, 6, 23), quiet) == 0
    assert runs_out(HOUR_MS, saturday, quiet) == local(MADRID, 2026, 12, 7, 1)


def test_a_window_past_midnight_costs_nothing_each_night() -> None:
    quiet = Quiet(MADRID, window=(22 * 60, 8 * 60))
    since = local(MADRID, 2026, 12, 1, 20)
    assert charged(since, local(MADRID, 2026, 12, 2, 10), quiet) == 4 * HOUR_MS
    assert charged(since, local(MADRID, 2026, 12, 3, 10), quiet) == 18 * HOUR_MS
    assert runs_out(3 * HOUR_MS, since, quiet) == local(MADRID, 2026, 12, 2, 9)
    inside = local(MADRID, 2026, 12, 2, 3)  # a wait that begins in the quiet window
    assert charged(inside, local(MADRID, 2026, 12, 2, 9), quiet) == HOUR_MS


def test_the_night_the_clocks_go_forward_is_two_real_hours_of_quiet() -> None:
    """Europe/Madrid, 29 March 2026: 02:00 becomes 03:00.  A quiet window of 01:00-04:00 local
    lasts two real hours that night; the wait from Saturday 20:00 to Sunday 12:00 lasts 15."""
    quiet = Quiet(MADRID, window=(60, 4 * 60))
    since, until = local(MADRID, 2026, 3, 28, 20), local(MADRID, 2026, 3, 29, 12)
    assert charged(since, until) == 15 * HOUR_MS
    assert charged(since, until, quiet) == 13 * HOUR_MS
    back = Quiet(MADRID, window=(60, 4 * 60))  # 25 October 2026: 03:00 becomes 02:00
    since, until = local(MADRID, 2026, 10, 24, 20), local(MADRID, 2026, 10, 25, 12)
    assert charged(since, until) == 17 * HOUR_MS
    assert charged(since, until, back) == 13 * HOUR_MS


@settings(max_examples=300)
@given(start=st.integers(0, 365 * 24 * 60), bank_minutes=st.integers(1, 12 * 24 * 60),
       zone=st.sampled_from([MADRID, "America/Sao_Paulo", "Asia/Tokyo", "UTC"]),
       weekends=st.booleans(),
       window=st.none() | st.tuples(st.integers(0, 1439), st.integers(0, 1439)).filter(
           lambda w: w[0] != w[1]))
def test_a_bank_runs_out_when_its_waiting_time_is_spent(
        start: int, bank_minutes: int, zone: str, weekends: bool,
        window: tuple[int, int] | None) -> None:
    quiet = Quiet(zone, weekends, window)
    since = datetime(2026, 1, 1, tzinfo=UTC) + timedelta(minutes=start)
    bank = bank_minutes * 60_000
    out = runs_out(bank, since, quiet)
    assert out is not None
    assert charged(since, out, quiet) == bank
    assert charged(since, out - timedelta(minutes=1), quiet) == bank - 60_000
    assert left(bank, since, out, quiet) == 0


STOPS = st.lists(st.tuples(st.integers(-3 * 24 * 60, 20 * 24 * 60), st.integers(1, 5 * 24 * 60)),
                 max_size=4)


@settings(max_examples=300)
@given(start=st.integers(0, 365 * 24 * 60), bank_minutes=st.integers(1, 12 * 24 * 60),
       weekends=st.booleans(), stops=STOPS)
def test_pauses_and_absences_cost_nothing_with_the_quiet_time_or_without(
        start: int, bank_minutes: int, weekends: bool, stops: list[tuple[int, int]]) -> None:
    """Stops (a game's pauses, a person's absences; overlapping each other and the quiet
    time at random) cost no bank: a bank runs out exactly when the time it paid for reaches
    it, and a wait costs what it lasted minus the union of what was free."""
    quiet = Quiet(MADRID, weekends, (22 * 60, 8 * 60)) if weekends else None
    since = datetime(2026, 1, 1, tzinfo=UTC) + timedelta(minutes=start)
    held = [(since + timedelta(minutes=a), since + timedelta(minutes=a + n)) for a, n in stops]
    bank = bank_minutes * 60_000
    out = runs_out(bank, since, quiet, held)
    assert out is not None
    assert charged(since, out, quiet, held) == bank
    assert left(bank, since, out, quiet, held) == 0
    # minute by minute over the first hours, against counting each minute one by one
    if quiet is None:
        for minutes in (0, 1, 59, 61, 600):
            moment = since + timedelta(minutes=minutes)
            free = sum(1 for m in range(minutes) if any(
                a <= since + timedelta(minutes=m) < b for a, b in held))
            assert charged(since, moment, None, held) == (minutes - free) * 60_000


def test_a_pause_under_way_holds_the_bank() -> None:
    since = datetime(2026, 3, 2, 9, tzinfo=UTC)
    paused = since + timedelta(hours=2)
    stops = [(paused, None)]
    assert charged(since, since + timedelta(days=30), None, stops) == 2 * HOUR_MS
    assert runs_out(HOUR_MS, since, None, stops) == since + timedelta(hours=1)
    assert runs_out(3 * HOUR_MS, since, None, stops) is None
    assert stopped(stops, paused) and not stopped(stops, since)
    quiet = Quiet(MADRID, weekends=True)  # a quiet stream that never ends, and a stop that
    assert runs_out(3 * HOUR_MS, since, quiet, stops) is None  # never ends either
    assert charged(since, since + timedelta(days=30), quiet, stops) == 2 * HOUR_MS
    ended = [(paused, paused + timedelta(hours=5))]
    assert runs_out(3 * HOUR_MS, since, None, ended) == since + timedelta(hours=8)
    assert not stopped(ended, paused + timedelta(hours=5))


def test_a_quiet_rule_that_cannot_be_is_refused() -> None:
    with pytest.raises(KeyError):
        Quiet("Mars/Olympus_Mons")
    with pytest.raises(ValueError, match="does not hold"):
        Quiet(MADRID, window=(60, 60))
    rule = Quiet(MADRID, True, (1, 2))
    assert quiet_rule(list(quiet_columns(rule).values())) == rule
    assert quiet_rule([None, 0, None, None]) is None


async def test_a_move_pays_for_its_wait_but_the_quiet_time(
    storage: Storage, clock: FakeClock
) -> None:
    """The server keeps weekends quiet; a game of its own keeps nights quiet instead."""
    await storage.settings.update_guild(1, quiet=Quiet(MADRID, weekends=True))
    clock.now = local(MADRID, 2026, 12, 4, 20)  # a Friday evening
    record = await storage.games.start((await lobby(storage, NORMAL)).id, seed=3)
    assert record.quiet == Quiet(MADRID, weekends=True)
    clock.now = local(MADRID, 2026, 12, 7, 8)  # Monday morning: 12 hours spent, not 60
    seat, played = await play_first_move(storage, record)
    assert played.seat(seat).bank_ms == 4 * DAY_MS - 12 * HOUR_MS  # type: ignore[union-attr]
    await storage.reminders.set_timers(record.id, quiet=Quiet(MADRID, window=(22 * 60, 8 * 60)))
    assert (await storage.games.get(record.id)).quiet == Quiet(MADRID, window=(1320, 480))
    await storage.reminders.set_timers(record.id, quiet=None)  # back to the server's
    assert (await storage.games.get(record.id)).quiet == Quiet(MADRID, weekends=True)
    waits = [w for w in await storage.reminders.waits(before=clock.now + timedelta(days=1))
             if w.game_id == record.id]
    assert waits and all(w.quiet == Quiet(MADRID, weekends=True) for w in waits)
