"""Reminders, turn-notice bookkeeping and the clock's rules, on a real SQLite file with fakes for
Discord: the reminder interval (game, server, default), one reminder per wait and per person per
day, the reminder's language and its fall-back to a channel mention, the loop, the majority rule,
and the AI taking a seat over through the service."""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import random
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import discord
import pytest

from bot.changes import TableUpdate
from bot.clock import decision, needed, still_current, voters
from bot.errors import UserError
from bot.notify import Notifier, TurnNotice
from bot.reminders import Reminders, bank_warning
from bot.resume import STALLED_AFTER
from bot.seats import Actor, takeover_level
from bot.service import GameService
from bot.settings import Settings
from engine import get_game
from storage import ClockVote, GameRecord, GameStatus, Storage, Wait
from storage.sql import Tx
from storage.timebank import HOUR_MS, PRESETS, Pace, per_move
from tests.manual_time import ManualTime

GAME = get_game("puerto-rico")


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 5, 1, 8, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> None:
        self.now += timedelta(**delta)


def sent_dm(message_id: int, user_id: int) -> discord.Message:
    """What a recorded DM stands for: its id and its (DM) channel's."""
    return cast(discord.Message, SimpleNamespace(id=message_id,
                                                 channel=SimpleNamespace(id=user_id)))


class RecordingNotifier(Notifier):
    """A notifier whose sending is recorded instead of going to Discord."""

    def __init__(self, storage: Storage, *, refuse: Sequence[int] = (),
                 clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], Awaitable[object]] = asyncio.sleep) -> None:
        super().__init__(cast(discord.Client, None), storage, min_interval=0.0, clock=clock,
                         sleep=sleep)
        self.dms: list[tuple[int, str]] = []
        self.mentions: list[tuple[int, tuple[int, ...], str]] = []
        self.refuse = set(refuse)

    def where(self, record: GameRecord) -> str:
        return f"#table-{record.channel_id}"

    async def dm_message(self, user_id: int, text: str) -> discord.Message | None:
        self._last_dm[user_id] = self.clock()  # as the real one: every DM counts
        if user_id in self.refuse:
            return None
        self.dms.append((user_id, text))
        return sent_dm(len(self.dms), user_id)

    async def mention(self, channel_id: int, user_ids: Sequence[int], text: str) -> bool:
        self.mentions.append((channel_id, tuple(user_ids), text))
        return True


class Publisher:
    def __init__(self) -> None:
        self.notified: list[tuple[int, ...]] = []

    async def seat_names(self, record: GameRecord) -> dict[int, str]:
        return {s.seat: f"P{s.seat}" for s in record.seats}

    async def publish_table(self, update: TableUpdate) -> None:
        return None

    async def notify_turn(self, update: TableUpdate) -> None:
        self.notified.append(update.newly_waiting)


class Keep(random.Random):
    def shuffle(self, x: Any) -> None:
        return None


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
async def storage(tmp_path: Path, clock: Clock) -> AsyncIterator[Storage]:
    store = await Storage.open(tmp_path / "g.db", clock=clock, synchronous="OFF")
    yield store
    await store.close()


@pytest.fixture
def publisher() -> Publisher:
    return Publisher()


@pytest.fixture
def service(storage: Storage, publisher: Publisher) -> GameService:
    return GameService(storage, publisher, rng=Keep(3))


async def started(
    service: GameService, users: Sequence[int], *, channel: int = 10, ai: int = 0,
    guild: int = 5, language: str = "en", pace: Pace | None = None,
) -> GameRecord:
    """A game of ``users`` (seated in this order) plus ``ai`` AI seats, started."""
    record = await service.create_lobby(
        creator_id=users[0], guild_id=guild, channel_id=channel, language=language,
        max_players=len(users) + ai, ai_seats=ai, pace=pace,
    )
    for user in users[1:]:
        record = await service.join(record.id, user)
    return (await service.start(record.id, Actor(users[0]), record.version)).record


def reminders(storage: Storage, notifier: Notifier, clock: Clock) -> Reminders:
    return Reminders(storage, notifier, None, clock=clock, period=None)


# --- reminders ----------------------------------------------------------------------------------


async def test_one_reminder_after_the_interval_and_never_twice_for_a_wait(
    storage: Storage, service: GameService, clock: Clock
) -> None:
    notifier = RecordingNotifier(storage)
    loop = reminders(storage, notifier, clock)
    game = await started(service, [1, 2])
    clock.advance(hours=23, minutes=59)
    assert (await loop.tick()).nudged == {}
    clock.advance(minutes=1)
    assert (await loop.tick()).nudged == {1: [game.id]}
    [(user, text)] = notifier.dms
    assert user == 1
    assert text.split("\n") == [
        "A reminder from Governor: your move is awaited.",
        f"Game #{game.id} (#table-10) has been waiting for you for 24 hours: choose a role. "
        f"https://discord.com/channels/5/10",
    ]
    clock.advance(days=3)
    assert (await loop.tick()).nudged == {}
    assert len(notifier.dms) == 1


async def test_the_interval_is_the_games_else_the_servers_else_a_day(
    storage: Storage, service: GameService, clock: Clock
) -> None:
    loop = reminders(storage, RecordingNotifier(storage), clock)
    default = await started(service, [1, 2], channel=10, guild=5)
    by_server = await started(service, [3, 4], channel=11, guild=6)
    by_game = await started(service, [5, 6], channel=12, guild=6)
    await storage.settings.update_guild(6, reminder_hours=3)
    await storage.reminders.set_timers(by_game.id, reminder_hours=1)
    clock.advance(hours=1, seconds=1)
    assert (await loop.tick()).nudged == {5: [by_game.id]}
    clock.advance(hours=2)
    assert (await loop.tick()).nudged == {3: [by_server.id]}
    clock.advance(hours=21)
    assert (await loop.tick()).nudged == {1: [default.id]}


async def test_one_reminder_per_person_per_day_listing_all_their_games(
    storage: Storage, service: GameService, clock: Clock
) -> None:
    """Person 1 is awaited in two games: one reminder names both.  A third game that becomes
    overdue an hour later waits until a day after that reminder."""
    notifier = RecordingNotifier(storage)
    loop = reminders(storage, notifier, clock)
    one = await started(service, [1, 2], channel=10)
    two = await started(service, [1, 3], channel=11)
    clock.advance(hours=1)
    three = await started(service, [1, 4], channel=12)
    clock.advance(hours=23, minutes=30)
    report = await loop.tick()
    assert report.nudged == {1: [one.id, two.id]}
    assert len(notifier.dms) == 1 and notifier.dms[0][1].count("\n") == 2
    clock.advance(hours=1)  # game three is overdue now, but person 1 was reminded 1 h ago
    report = await loop.tick()
    assert report.nudged == {} and report.capped == [1]
    clock.advance(hours=23)
    assert (await loop.tick()).nudged == {1: [three.id]}
    assert len(notifier.dms) == 2


async def test_reminders_in_the_persons_language_else_the_games(
    storage: Storage, service: GameService, clock: Clock
) -> None:
    notifier = RecordingNotifier(storage)
    loop = reminders(storage, notifier, clock)
    await storage.settings.update_user(2, language="es")
    spanish = await started(service, [1, 3], channel=10, language="es")
    english = await started(service, [2, 4], channel=11, language="en")
    clock.advance(days=1, minutes=1)
    await loop.tick()
    texts = dict(notifier.dms)
    assert texts[1].startswith("Un recordatorio de Governor")
    assert f"La partida n.º {spanish.id} (#table-10) te espera desde hace 24 horas" in texts[1]
    assert "elegir un personaje" in texts[1]
    assert f"La partida n.º {english.id}" in texts[2]  # person 2 reads Spanish


async def test_no_dm_means_a_mention_in_each_games_channel(
    storage: Storage, service: GameService, clock: Clock
) -> None:
    """Opted out, known to block DMs, or a DM that fails now: mentioned instead, once."""
    notifier = RecordingNotifier(storage, refuse=[3])
    loop = reminders(storage, notifier, clock)
    await storage.settings.update_user(1, dm_notifications=False)
    await storage.settings.update_user(2, dm_blocked=True)
    one = await started(service, [1, 9], channel=10)
    await started(service, [2, 9], channel=11, language="es")
    three = await started(service, [3, 9], channel=12)
    clock.advance(days=1, minutes=1)
    report = await loop.tick()
    assert sorted(report.mentioned) == [1, 2, 3] and notifier.dms == []
    assert [(c, u) for c, u, _ in notifier.mentions] == [(10, (1,)), (11, (2,)), (12, (3,))]
    assert notifier.mentions[0][2] == (
        f"<@1>: a reminder, game #{one.id} has been waiting for you for 24 hours: choose a role."
    )
    assert notifier.mentions[1][2].startswith("<@2>: un recordatorio, la partida n.º")
    assert str(three.id) in notifier.mentions[2][2]
    clock.advance(days=2)
    await loop.tick()
    assert len(notifier.mentions) == 3


async def test_the_loop_ticks_every_period_and_stops(
    storage: Storage, service: GameService, clock: Clock
) -> None:
    """Counts, never times: the test waits for the fourth pass however slow the machine (60 s
    only guard against a hang), and a stopped loop's task is over, so no pass can follow."""
    loop = Reminders(storage, RecordingNotifier(storage), None, clock=clock, period=0.01)
    ticks = 0
    fourth = asyncio.Event()
    real = loop.tick

    async def counted() -> Any:
        nonlocal ticks
        ticks += 1
        if ticks == 4:
            fourth.set()
        if ticks == 2:
            raise RuntimeError("one failed pass does not stop the loop")
        return await real()

    loop.tick = counted  # type: ignore[method-assign]
    loop.start()
    task = loop._task
    loop.start()  # once only
    assert loop._task is task is not None
    await asyncio.wait_for(fourth.wait(), 60)
    await loop.stop()
    assert task.done() and loop._task is None
    seen = ticks
    assert seen >= 4
    await asyncio.sleep(0.05)  # a stopped loop never ticks again (however long one waits)
    assert ticks == seen
    await loop.stop()  # stopping twice is harmless
    Reminders(storage, RecordingNotifier(storage), None, clock=clock, period=None).start()


# --- turn notices -------------------------------------------------------------------------------


async def test_a_turn_notice_is_sent_once_per_wait(
    storage: Storage, service: GameService, clock: Clock
) -> None:
    """The same notice published twice (a retry, a restart) reaches the person once; their next
    wait is a new notice."""
    notifier = RecordingNotifier(storage)
    game = await started(service, [1, 2])
    notice = notifier.notice(game, "role", [1], 77)
    assert notice.link == "https://discord.com/channels/5/10/77"
    assert notice.waits == {1: (0, clock.now)}
    assert (await notifier.turn(notice, [1])).sent == [1]
    again = await notifier.turn(notice, [1])
    assert again.sent == [] and again.duplicate == [1]
    assert notifier.dms == [
        (1, f"It is your turn in Puerto Rico game #{game.id} (#table-10): choose a role. "
            "https://discord.com/channels/5/10/77")
    ]
    # A notice without waits (a direct call) is not deduplicated.
    bare = TurnNotice(game.id, 10, "en", {"en": "build"}, None)
    assert (await notifier.turn(bare, [1])).sent == [1]
    assert (await notifier.turn(bare, [1])).sent == [1]


async def test_a_deferred_notice_goes_out_once_the_interval_passed_if_still_pending(
    storage: Storage, service: GameService, clock: Clock
) -> None:
    """The interval's seconds are the test's (:class:`ManualTime`): the decision taken
    "meanwhile" is taken before the interval has passed however slow the machine is."""
    seconds = ManualTime()
    notifier = RecordingNotifier(storage, clock=seconds, sleep=seconds.sleep)
    notifier.min_interval = 60.0
    one = await started(service, [1, 2], channel=10)
    two = await started(service, [1, 3], channel=11)
    three = await started(service, [1, 4], channel=12)
    assert (await notifier.turn(notifier.notice(one, "role", [1]), [1])).sent == [1]
    for game in (two, three):
        report = await notifier.turn(notifier.notice(game, "role", [1]), [1])
        assert report.throttled == [1]
    assert notifier.pending() == {1: 2}
    timer = notifier._timers[1]
    # Game three's decision is taken meanwhile: only game two's is still pending.
    loaded = await storage.games.load(three.id)
    clock.advance(minutes=1)
    await service.submit(three.id, 1, loaded.record.version, "r.builder")
    seconds.advance(59.9)  # not yet
    await asyncio.sleep(0)
    assert notifier.pending() == {1: 2} and len(notifier.dms) == 1 and not timer.done()
    seconds.advance(0.1)
    await asyncio.wait_for(timer, 60)
    assert notifier.pending() == {} and len(notifier.dms) == 2
    assert [u for u, _ in notifier.dms] == [1, 1]
    assert f"game #{two.id} " in notifier.dms[1][1] and f"#{three.id} " not in notifier.dms[1][1]
    await notifier.close()


# --- the clock ----------------------------------------------------------------------------------


def vote(ballots: dict[int, str], user: int = 1) -> ClockVote:
    return ClockVote(1, 1, 0, user, datetime(2026, 1, 1, tzinfo=UTC), 10, 20, "open",
                     datetime(2026, 1, 1, tzinfo=UTC), None, ballots)  # type: ignore[arg-type]


def test_more_than_half_of_the_other_players_decide_and_a_tie_decides_nothing() -> None:
    assert [needed(n) for n in (1, 2, 3, 4)] == [1, 2, 2, 3]
    assert decision(vote({2: "ai"}), (2,)) == "ai"
    assert decision(vote({2: "ai"}), (2, 3)) is None
    assert decision(vote({2: "ai", 3: "abandon"}), (2, 3)) is None  # a tie: keep waiting
    assert decision(vote({2: "abandon", 3: "abandon"}), (2, 3)) == "abandon"
    assert decision(vote({2: "ai", 3: "ai"}), (2, 3, 4)) == "ai"
    # Ballots of people who are not voters (any more) do not count.
    assert decision(vote({1: "ai", 9: "ai", 2: "ai"}), (2, 3)) is None


async def test_who_votes_and_when_a_vote_still_makes_sense(
    storage: Storage, service: GameService
) -> None:
    game = await started(service, [1, 2, 3], ai=1)
    assert voters(game, 1) == (2, 3)
    assert takeover_level(game) == "heuristic"
    seat = game.seats[0]
    assert seat.waiting_since is not None
    current = ClockVote(1, game.id, 0, 1, seat.waiting_since, 10, None, "open",
                        seat.waiting_since, None)
    assert still_current(current, game)
    assert not still_current(current, await storage.games.abandon(game.id))
    moved = ClockVote(1, game.id, 0, 1, seat.waiting_since - timedelta(1), 10, None, "open",
                      seat.waiting_since, None)
    assert not still_current(moved, game)


async def test_an_ai_takes_the_seat_over_and_plays_at_once(
    storage: Storage, service: GameService, publisher: Publisher, clock: Clock
) -> None:
    game = await started(service, [1, 2, 3], pace=per_move(2))
    assert (await storage.reminders.timers(game.id)).pace == per_move(2)
    since = game.seats[0].waiting_since
    assert since is not None
    with pytest.raises(UserError) as moved:
        await service.hand_to_ai(game.id, 0, "random", user_id=1,
                                 waiting_since=since - timedelta(seconds=1))
    assert moved.value.key == "err.seat_moved_on"
    with pytest.raises(UserError):
        await service.hand_to_ai(game.id, 0, "random", user_id=2)
    with pytest.raises(UserError):
        await service.hand_to_ai(game.id, 0, "grandmaster", user_id=1)
    publisher.notified.clear()
    clock.advance(days=2)
    update = await service.hand_to_ai(game.id, 0, "random", user_id=1, waiting_since=since)
    record = update.record
    assert (record.seats[0].user_id, record.seats[0].ai_policy) == (None, "random")
    actions = await storage.games.actions(game.id)
    assert actions and actions[0].seat == 0 and actions[0].user_id is None
    assert record.to_act and 0 not in record.to_act
    assert publisher.notified == [tuple(record.seats[s].user_id for s in record.to_act)]
    assert record.status is GameStatus.ACTIVE




class RecordingVotes:
    """The clock's side of a pass: which waits ran out, which stalls it was asked about."""

    def __init__(self) -> None:
        self.ran: list[tuple[int, int]] = []

    async def sweep(self) -> int:
        return 0

    async def ran_out(self, wait: Wait) -> bool:
        self.ran.append((wait.game_id, wait.seat))
        return True

    async def stalls(self, now: datetime) -> list[int]:
        del now
        return []


async def test_a_stand_in_comes_when_the_bank_runs_out_and_moves_carry_the_bank(
    storage: Storage, service: GameService, clock: Clock
) -> None:
    """The fast pace (1 day, +8 hours a move, at most 2 days): the first seat spends 20 hours
    and moves, keeping 12 hours; at its next decision the bank runs out once those 12 hours
    are spent, not a minute before, and never for a seat that is not waiting."""
    votes = RecordingVotes()
    loop = Reminders(storage, RecordingNotifier(storage), cast(Any, votes), clock=clock,
                     period=None)
    game = await started(service, [1, 2], pace=PRESETS["fast"])
    first = game.to_act[0]
    user = game.seats[first].user_id
    assert user is not None
    clock.advance(hours=20)
    assert (await loop.tick()).stood_in == []
    loaded = await storage.games.load(game.id)
    await service.submit(game.id, user, loaded.record.version, "r.builder")
    # 1 day - 20 hours + 8; the Builder's chooser builds first: a new wait at once
    held = (await storage.games.get(game.id)).seat(first)
    assert held is not None and held.waiting_since == clock.now
    assert held.bank_ms == 12 * HOUR_MS
    clock.advance(milliseconds=held.bank_ms - 60_000)
    assert (await loop.tick()).stood_in == [] and votes.ran == []
    clock.advance(minutes=1)
    assert (await loop.tick()).stood_in == [game.id]
    assert votes.ran == [(game.id, first)]


async def test_half_and_a_tenth_of_a_bank_are_told_once_each(
    storage: Storage, service: GameService, clock: Clock
) -> None:
    """The normal pace's 3 days: at 36 hours of one wait the person hears that half is spent,
    at 64.8 hours that a tenth is left, each once; someone without DMs is mentioned in the
    game's channel (in the game's language) instead."""
    notifier = RecordingNotifier(storage, refuse=[3])
    loop = reminders(storage, notifier, clock)
    one = await started(service, [1, 2], channel=10, pace=PRESETS["normal"])
    other = await started(service, [3, 4], channel=12, language="es", pace=PRESETS["normal"])
    start = clock.now
    out = int((start + timedelta(days=3)).timestamp())

    def told() -> list[str]:
        return [t for _, t in notifier.dms if "time bank" in t] + [
            t for _, _, t in notifier.mentions if "reserva" in t]

    clock.advance(hours=35, minutes=59)
    assert (await loop.tick()).warned == [] and told() == []
    clock.advance(minutes=1)
    assert sorted((await loop.tick()).warned) == [(1, one.id, "bank_half"),
                                                    (3, other.id, "bank_half")]
    assert told() == [
        f"⏳ Game #{one.id} (#table-10): half of your time bank is spent on this decision "
        f"(choose a role); it runs out <t:{out}:R>. https://discord.com/channels/5/10",
        f"<@3>: ⏳ partida n.º {other.id}, has gastado la mitad de tu tiempo de reserva "
        f"(elegir un personaje); se agota <t:{out}:R>."]
    assert (await loop.tick()).warned == []
    clock.advance(hours=28, minutes=47, seconds=59)  # 64.8 hours from the start, less 1 s
    assert (await loop.tick()).warned == []
    clock.advance(seconds=1)
    assert sorted((await loop.tick()).warned) == [(1, one.id, "bank_tenth"),
                                                    (3, other.id, "bank_tenth")]
    assert told()[1].startswith(f"⚠️ Game #{one.id} (#table-10): a tenth of your time bank is "
                                "left (choose a role)")
    clock.advance(hours=8)
    assert (await loop.tick()).warned == [] and len(told()) == 4
    # in the channel, only the person warned is mentioned, in the game's channel
    assert {(c, u) for c, u, t in notifier.mentions if "reserva" in t} == {(12, (3,))}


def test_a_pass_that_comes_late_tells_only_the_tenth() -> None:
    since = datetime(2026, 12, 1, tzinfo=UTC)
    wait = Wait(1, 0, 1, since, 5, 10, "en", None, 10 * HOUR_MS, None, False, False, False,
                False, None)
    assert bank_warning(wait, 6 * HOUR_MS) is None
    assert bank_warning(wait, 5 * HOUR_MS) == "bank_half"
    assert bank_warning(wait, HOUR_MS) == "bank_tenth"
    told_half = dataclasses.replace(wait, warned_half=True)
    assert bank_warning(told_half, 2 * HOUR_MS) is None
    assert bank_warning(told_half, HOUR_MS) == "bank_tenth"
    assert bank_warning(dataclasses.replace(wait, warned_tenth=True), HOUR_MS) is None


# --- stalled games --------------------------------------------------------------------------------


async def test_a_game_left_waiting_on_a_failed_ai_move_is_moved_on_by_the_pass(
    storage: Storage, service: GameService, publisher: Publisher, clock: Clock
) -> None:
    """An AI move that failed (its worker died, the database refused it) leaves the game
    waiting on the AI with nobody to click: the reminder pass resumes it once it has waited
    ``STALLED_AFTER``, not before (a strong seat takes its time), only in this process's
    servers, and once."""
    record = await storage.games.create_lobby("puerto-rico", guild_id=5, channel_id=10,
                                              seat_creator=False)
    await storage.games.add_ai(record.id, "heuristic")
    await storage.games.join(record.id, 1)
    started = await storage.games.start(record.id, seed=9)  # the AI's first move never made
    assert started.to_act == (0,) and started.seat(0).is_ai  # type: ignore[union-attr]
    notifier = RecordingNotifier(storage)
    ours = Reminders(storage, notifier, None, clock=clock, period=None,
                     resume=functools.partial(service.resume_stalled, lambda _guild: True))
    theirs = Reminders(storage, notifier, None, clock=clock, period=None,
                       resume=functools.partial(service.resume_stalled, lambda _guild: False))
    # ``clock`` is the storage's and the pass's: moved by hand, no wall time is measured
    assert (await ours.tick()).resumed == 0  # just started: the AI may still be at it
    clock.advance(seconds=STALLED_AFTER.total_seconds() - 1)
    assert (await ours.tick()).resumed == 0
    clock.advance(seconds=2)
    assert (await theirs.tick()).resumed == 0  # another process's server
    assert (await storage.games.get(record.id)).to_act == (0,)
    assert (await ours.tick()).resumed == 1
    moved_on = await storage.games.get(record.id)
    assert moved_on.to_act == (1,) and publisher.notified == [(1,)]
    clock.advance(hours=1)
    assert (await ours.tick()).resumed == 0  # waiting on the person now


async def test_a_game_the_process_thinks_about_is_left_to_it(
    storage: Storage, service: GameService, clock: Clock
) -> None:
    """A strong seat's search in progress is not a stalled game, however long it takes."""
    record = await storage.games.create_lobby("puerto-rico", guild_id=5, channel_id=10,
                                              seat_creator=False)
    await storage.games.add_ai(record.id, "heuristic")
    await storage.games.join(record.id, 1)
    await storage.games.start(record.id, seed=9)
    clock.advance(hours=1)
    thinking = asyncio.get_running_loop().create_future()
    service.ai.tasks[record.id] = cast(Any, thinking)
    try:
        assert await service.resume_stalled(lambda _guild: True, clock()) == 0
    finally:
        del service.ai.tasks[record.id]
        thinking.cancel()
    assert await service.resume_stalled(lambda _guild: True, clock()) == 1


# --- several processes --------------------------------------------------------------------------


async def test_each_process_reminds_and_resumes_the_games_of_its_own_servers(
    storage: Storage, service: GameService, clock: Clock
) -> None:
    """Two processes of one shard each (of two): each one's loop reminds the people of its own
    servers' games only, and each resumes only its own games at start-up (docs/scale.md,
    "What each process does"); between them, every game once."""
    shard0_guild, shard1_guild = 4 << 22, (5 << 22) + 17  # (guild >> 22) % 2: 0 and 1
    first = await started(service, [1, 2], channel=10, guild=shard0_guild)
    second = await started(service, [3, 4], channel=11, guild=shard1_guild)
    owners = [Settings(token="x.y.z", shard_ids=(n,), shard_count=2).owns_guild for n in (0, 1)]
    notifier = RecordingNotifier(storage)
    loops = [Reminders(storage, notifier, None, clock=clock, period=None, owns=owns)
             for owns in owners]
    clock.advance(hours=24)
    assert (await loops[0].tick()).nudged == {1: [first.id]}
    assert (await loops[1].tick()).nudged == {3: [second.id]}
    assert (await loops[0].tick()).nudged == {} and [u for u, _ in notifier.dms] == [1, 3]
    # Neither table was shown (the processes died before): each process shows its own again
    # at start-up.
    async def forget(tx: Tx) -> None:
        await tx.execute("DELETE FROM game_publications")

    await storage.db.write(forget)
    assert await service.resume_all(owners[0]) == 1
    assert await service.resume_all(owners[1]) == 1
    await storage.db.write(forget)
    assert await service.resume_all() == 2  # one process for every server
