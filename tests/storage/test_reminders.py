"""Reminders and the clock in storage: per-game timing, one alert of each kind per wait (however
often it is asked for), the per-user reminder cap, and clock votes whose closing is a
compare-and-set."""

from __future__ import annotations

import asyncio
import random
from datetime import timedelta

import pytest

from storage import GameStatus, Storage
from storage.records import to_ms
from storage.timebank import DAY_MS, per_move
from tests.storage.conftest import FakeClock
from tests.storage.helpers import USER, active_game, choose, query_plan


async def test_timers_default_partial_update_and_validation(storage: Storage) -> None:
    record = await active_game(storage)
    timers = await storage.reminders.timers(record.id)
    assert (timers.reminder_hours, timers.pace) == (None, None)
    timers = await storage.reminders.set_timers(record.id, pace=per_move(3))
    assert (timers.reminder_hours, timers.pace) == (None, per_move(3))
    timers = await storage.reminders.set_timers(record.id, reminder_hours=12)
    assert (timers.reminder_hours, timers.pace) == (12, per_move(3))
    timers = await storage.reminders.set_timers(record.id, pace=None)
    assert timers.pace is None and timers.reminder_hours == 12
    with pytest.raises(ValueError, match="positive"):
        await storage.reminders.set_timers(record.id, reminder_hours=0)


async def test_an_alert_is_claimed_once_per_wait(storage: Storage, clock: FakeClock) -> None:
    """The first claim of a wait wins, any later one (or one for a wait that is over) loses;
    the seat's next wait can be alerted again."""
    record = await active_game(storage)
    [seat] = record.to_act
    since = record.seats[seat].waiting_since
    assert since is not None
    claims = await asyncio.gather(
        *(storage.reminders.claim_alert(record.id, seat, "turn", since) for _ in range(5))
    )
    assert sorted(claims) == [False] * 4 + [True]
    assert await storage.reminders.claim_alert(record.id, seat, "nudge", since)
    assert not await storage.reminders.claim_alert(record.id, seat, "nudge", since)
    # Another seat, or a moment that is not the seat's current wait: nothing to claim.
    assert not await storage.reminders.claim_alert(record.id, (seat + 1) % 4, "turn", since)
    assert not await storage.reminders.claim_alert(
        record.id, seat, "turn", since - timedelta(seconds=1)
    )
    # The seat acts; when it waits again, that is a new wait.
    loaded = await storage.games.load(record.id)
    rng = random.Random(1)
    while True:
        clock.advance(minutes=1)
        move = choose(record.game, loaded.state, rng)
        assert move is not None
        result = await storage.games.play(record.id, *move)
        loaded = await storage.games.load(record.id)
        again = result.record.seat(seat)
        assert again is not None
        if again.waiting_since not in (None, since):
            break
    assert again.waiting_since is not None
    assert await storage.reminders.claim_alert(record.id, seat, "turn", again.waiting_since)


async def test_waits_carry_the_timing_and_what_was_told(
    storage: Storage, clock: FakeClock
) -> None:
    """Longest first; human seats of active games only; the game's interval wins over the
    guild's; nudged and clocked are per wait."""
    first = await active_game(storage, channel_id=1)
    clock.advance(hours=1)
    second = await active_game(storage, channel_id=2, user_base=2000, ai_seats=0)
    await storage.settings.update_guild(1, reminder_hours=6)
    await storage.reminders.set_timers(second.id, reminder_hours=2, pace=per_move(1))
    lobby = await storage.games.create_lobby("puerto-rico", creator_id=5, channel_id=3)
    assert lobby.status is GameStatus.LOBBY
    clock.advance(hours=30)
    waits = await storage.reminders.waits(before=clock.now)
    assert [(w.game_id, w.user_id) for w in waits] == [(first.id, USER), (second.id, 2000)]
    a, b = waits
    assert (a.reminder_hours, a.bank_ms, b.reminder_hours, b.bank_ms) == (6, None, 2, DAY_MS)
    assert a.channel_id == 1 and a.guild_id == 1 and not a.nudged and not a.clocked
    assert await storage.reminders.waits(before=clock.now - timedelta(hours=30, minutes=30)) == [
        a
    ]
    assert await storage.reminders.waits(before=clock.now, after=a.waiting_since) == [b]
    assert await storage.reminders.claim_nudge(USER, [a], not_after=clock.now) == [a]
    assert await storage.reminders.open_vote(b) is not None
    # The first wait has nothing left to do (reminded, no clock); the second may be reminded.
    [b2] = await storage.reminders.waits(before=clock.now)
    assert b2.clocked and not b2.nudged and b2.last_nudge_at is None
    await storage.reminders.set_timers(first.id, pace=per_move(2))
    a2, b2 = await storage.reminders.waits(before=clock.now)
    assert a2.nudged and not a2.clocked and a2.last_nudge_at == clock.now
    await storage.games.abandon(first.id)
    assert [w.game_id for w in await storage.reminders.waits(before=clock.now)] == [second.id]


async def test_one_nudge_per_user_per_period_across_games(
    storage: Storage, clock: FakeClock
) -> None:
    """Both games waiting on the user are covered by one reminder; within the period no other
    reminder is claimed, even for a wait not reminded yet; after it, a new wait is."""
    one = await active_game(storage, channel_id=1)
    two = await active_game(storage, channel_id=2, user_base=USER)
    await storage.games.abandon(two.id)
    two = await active_game(storage, channel_id=3, user_base=USER, seed=8)
    clock.advance(hours=25)
    waits = [w for w in await storage.reminders.waits(before=clock.now) if w.user_id == USER]
    assert {w.game_id for w in waits} == {one.id, two.id}
    claimed = await storage.reminders.claim_nudge(USER, waits, not_after=clock.now)
    assert claimed == waits
    assert (await storage.settings.user(USER)).last_nudge_at == clock.now
    # A third game starts waiting on the same user: capped until 24 h after the reminder.
    three = await active_game(storage, channel_id=4, user_base=USER, seed=9)
    clock.advance(hours=23)
    later = [w for w in await storage.reminders.waits(before=clock.now) if w.game_id == three.id]
    day = timedelta(hours=24)
    assert await storage.reminders.claim_nudge(USER, later, not_after=clock.now - day) == []
    clock.advance(hours=2)
    assert await storage.reminders.claim_nudge(USER, later, not_after=clock.now - day) == later
    # Somebody else's waits are never claimed in this user's name.
    others = [w for w in await storage.reminders.waits(before=clock.now) if w.user_id != USER]
    assert await storage.reminders.claim_nudge(USER, others, not_after=clock.now) == []


async def test_clock_votes_ballots_and_closing(storage: Storage, clock: FakeClock) -> None:
    record = await active_game(storage, channel_id=1)
    clock.advance(days=3)
    [wait] = await storage.reminders.waits(before=clock.now)
    vote = await storage.reminders.open_vote(wait)
    assert vote is not None and vote.is_open and vote.ballots == {}
    assert (vote.game_id, vote.seat, vote.user_id) == (record.id, wait.seat, wait.user_id)
    assert vote.channel_id == 1 and vote.message_id is None and vote.opened_at == clock.now
    assert await storage.reminders.open_vote(wait) is None  # one vote per wait
    await storage.reminders.set_vote_message(vote.id, 777)
    vote = await storage.reminders.cast(vote.id, USER + 1, "ai")
    vote = await storage.reminders.cast(vote.id, USER + 2, "abandon")
    vote = await storage.reminders.cast(vote.id, USER + 2, "ai")  # changed their mind
    assert vote.ballots == {USER + 1: "ai", USER + 2: "ai"} and vote.message_id == 777
    assert (vote.count("ai"), vote.count("abandon")) == (2, 0)
    assert [v.id for v in await storage.reminders.open_votes(record.id)] == [vote.id]
    assert [v.id for v in await storage.reminders.open_votes()] == [vote.id]
    closes = await asyncio.gather(
        storage.reminders.close_vote(vote.id, "takeover"),
        storage.reminders.close_vote(vote.id, "cancelled"),
    )
    assert sorted(closes) == [False, True]
    closed = await storage.reminders.vote(vote.id)
    assert closed.status in ("takeover", "cancelled") and not closed.is_open
    assert closed.closed_at == clock.now
    after = await storage.reminders.cast(vote.id, USER + 3, "abandon")  # too late: unchanged
    assert after.ballots == closed.ballots
    assert await storage.reminders.open_votes() == []
    with pytest.raises(LookupError):
        await storage.reminders.vote(12345)
    with pytest.raises(ValueError, match="final status"):
        await storage.reminders.close_vote(vote.id, "open")


async def test_waits_query_is_an_index_search(storage: Storage) -> None:
    """The reminder loop's query reads no table whole, on either backend (on PostgreSQL the
    waiting seats are found by seats_waiting_since)."""
    await active_game(storage)
    before = storage.db.clock()
    statements: list[str] = []
    await storage.db.set_trace(statements.append)
    await storage.reminders.waits(before=before)
    await storage.db.set_trace(None)
    [sql] = [s for s in statements if "FROM seats AS w" in s]
    plan = await query_plan(storage, sql, (to_ms(before), -1, 500))
    assert plan.indexes and not plan.scans, plan
    if storage.db.dialect == "postgresql":
        assert "seats_waiting_since" in plan.indexes, plan


async def test_stalled_ai_lists_the_games_an_ai_seat_has_waited_on_since_before(
    storage: Storage, clock: FakeClock
) -> None:
    """``stalled_ai`` (the bot's pass for AI moves that failed): the active games whose AI
    seat the prompt has named since ``before`` or earlier, by id and page by page; a person's
    wait is not one, nor a game that ended; found through indexes, no table read whole."""
    quiet = clock.now  # a stored moment before any AI was asked
    clock.advance(milliseconds=1)
    waiting = []
    for n in range(3):
        record = await storage.games.create_lobby("puerto-rico", guild_id=1, channel_id=10 + n,
                                                  seat_creator=False)
        await storage.games.add_ai(record.id, "heuristic")
        await storage.games.join(record.id, USER + n)
        started = await storage.games.start(record.id, seed=9)
        assert started.to_act == (0,) and started.seats[0].is_ai
        waiting.append(record.id)
        clock.advance(minutes=1)  # each game's AI asked at its own stored moment
    person = await active_game(storage, players=2, channel_id=20, ai_seats=1, user_base=USER + 9)
    assert person.to_act == (0,) and not person.seats[0].is_ai
    # "before" is each game's own stored waiting_since: the bound is inclusive, by game
    asked = []
    for game_id in waiting:
        since = (await storage.games.get(game_id)).seats[0].waiting_since
        assert since is not None
        asked.append(since)
    assert asked == sorted(set(asked))
    first, last = asked[0], asked[-1]
    assert quiet < first
    assert await storage.reminders.stalled_ai(before=quiet) == []
    assert await storage.reminders.stalled_ai(before=first) == waiting[:1]
    assert await storage.reminders.stalled_ai(before=last) == waiting
    assert await storage.reminders.stalled_ai(
        before=last, after_id=waiting[0], limit=1) == [waiting[1]]
    await storage.games.abandon(waiting[2])
    assert await storage.reminders.stalled_ai(before=last) == waiting[:2]
    statements: list[str] = []
    await storage.db.set_trace(statements.append)
    await storage.reminders.stalled_ai(before=last)
    await storage.db.set_trace(None)
    plan = await query_plan(storage, statements[-1], (to_ms(last), 0, 500))
    assert plan.indexes and not plan.scans, plan
