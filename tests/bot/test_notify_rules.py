"""The rules of each person's notification settings that the end-to-end games do not reach
(issue #35, docs/notifications.md), on a real SQLite file with a notifier that records: a
heads-up never in quiet hours, on a digest or in a muted game, and once per wait; follow pings
likewise, by mention when DMs are closed; the notice that an AI stands in held in quiet hours
and told by the catch-up, as is a turn held there (once, even when published again); a muted
game still warns of a bank running low."""

from __future__ import annotations

from datetime import timedelta
from typing import cast

import discord

from bot.clock import ClockVotes
from bot.service import GameService
from engine.core import Event
from storage import Storage
from storage.timebank import PRESETS
from tests.bot import test_reminders as base
from tests.bot.test_reminders import Clock, RecordingNotifier, reminders, started

# the fixtures of the reminders' tests: a fake clock, a SQLite file, a service with a fake
# publisher
clock, storage, publisher, service = base.clock, base.storage, base.publisher, base.service

NOW_QUIET = (7 * 60, 9 * 60)
"""Quiet hours around the fixture clock's 08:00 UTC."""


async def test_a_heads_up_only_outside_quiet_hours_digests_and_mutes_once_a_wait(
    storage: Storage, service: GameService
) -> None:
    notifier = RecordingNotifier(storage)
    record = await started(service, [1, 2, 3])
    [asked] = record.to_act
    nxt = record.seats[(asked + 1) % 3].user_id
    assert nxt is not None
    names, what = {s.seat: f"P{s.seat}" for s in record.seats}, {"en": "choose a role"}

    async def told() -> list[int]:
        return await notifier.heads_up(record, asked, names, what)

    assert await told() == []  # not asked for
    await storage.settings.update_user(nxt, heads_up=True, quiet_window=NOW_QUIET)
    assert await told() == []  # quiet hours
    await storage.settings.update_user(nxt, quiet_window=None, digest_hour=18)
    assert await told() == []  # on a digest
    await storage.settings.update_user(nxt, digest_hour=None)
    await storage.settings.mute(nxt, [record.id], True)
    assert await told() == []  # muted
    await storage.settings.mute(nxt, [record.id], False)
    assert await told() == [nxt]
    assert notifier.dms[-1] == (nxt, f"👀 Game #{record.id} (#table-10): you are probably "
                                     f"next; P{asked} is deciding now (choose a role).")
    assert await told() == []  # once per wait


async def test_follow_pings_respect_quiet_hours_and_digests_and_mention_without_dms(
    storage: Storage, service: GameService
) -> None:
    notifier = RecordingNotifier(storage, refuse=[8])
    record = await started(service, [1, 2])
    ended = [(Event("PhaseEnded", 0, {"role": "builder"}), 1)]
    names = {0: "P0", 1: "P1"}
    for user in (7, 8, 9, 1):  # 1 is seated: no ping for them
        await storage.settings.follow(user, record.id, True)
    await storage.settings.update_user(7, quiet_window=NOW_QUIET)
    await storage.settings.update_user(9, digest_hour=9)
    assert await notifier.follow_pings(record, ended, names, None) == [8]
    assert notifier.dms == []  # 8's DM was refused ...
    [(channel, pinged, text)] = notifier.mentions  # ... so 8 is mentioned, alone
    assert (channel, pinged) == (10, (8,))
    assert text == (f"<@8> 👁 Game #{record.id} (#table-10): Round 1 · the Builder phase "
                    "(chosen by P0) ended.")
    await storage.settings.update_user(7, quiet_window=None)
    assert await notifier.follow_pings(record, ended, names, None) == [7, 8]
    assert notifier.dms[-1][0] == 7


async def test_the_stand_in_notice_waits_for_quiet_hours_to_end(
    storage: Storage, service: GameService, clock: Clock
) -> None:
    notifier = RecordingNotifier(storage)
    votes = ClockVotes(cast(discord.Client, None), service, storage, notifier)
    loop = reminders(storage, notifier, clock)
    loop.votes = votes
    record = await started(service, [1, 2], pace=PRESETS["fast"])
    [asked] = record.to_act
    late = record.seats[asked].user_id
    assert late is not None
    clock.advance(days=1, minutes=1)  # 08:01 the next day: the bank ran out
    await storage.settings.update_user(late, quiet_window=NOW_QUIET)
    report = await loop.tick()
    assert report.stood_in == [record.id]
    assert (await storage.games.get(record.id)).stand_in_of(late) is not None
    assert [t for u, t in notifier.dms if u == late] == []  # held
    assert (await storage.settings.user(late)).held_at == clock.now
    clock.advance(minutes=59)  # 09:00: the quiet hours are over
    report = await loop.tick()
    assert report.caught_up == [late]
    assert [t for u, t in notifier.dms if u == late] == [
        "🔔 Your quiet hours are over. Waiting for you:\n"
        f"Game #{record.id} (#table-10): an AI plays for you since your time ran out; "
        "/game rejoin to take your seat back."]


async def test_a_muted_game_reminds_nobody_but_still_warns_of_the_bank(
    storage: Storage, service: GameService, clock: Clock
) -> None:
    notifier = RecordingNotifier(storage)
    loop = reminders(storage, notifier, clock)
    record = await started(service, [1, 2], pace=PRESETS["normal"])
    [asked] = record.to_act
    user = record.seats[asked].user_id
    assert user is not None
    await storage.settings.mute(user, [record.id], True)
    clock.now += timedelta(hours=36)  # past the reminder's 24 hours, half of 3 days
    report = await loop.tick()
    assert report.nudged == {}
    assert report.warned == [(user, record.id, "bank_half")]


async def test_a_turn_held_in_quiet_hours_is_told_once_by_the_catch_up(
    storage: Storage, service: GameService, clock: Clock
) -> None:
    """The turn DM held in quiet hours is the catch-up's to tell: publishing the same turn
    again once the hours are over (a retry) sends no second DM beside it."""
    notifier = RecordingNotifier(storage)
    loop = reminders(storage, notifier, clock)
    record = await started(service, [1, 2])
    [asked] = record.to_act
    user = record.seats[asked].user_id
    assert user is not None
    await storage.settings.update_user(user, quiet_window=NOW_QUIET)
    notice = notifier.notice(record, "role", [user])
    assert (await notifier.turn(notice, [user])).held == [user]
    assert notifier.dms == []
    clock.advance(hours=1)  # 09:00: the quiet hours are over
    again = await notifier.turn(notice, [user])  # the same turn published again
    assert again.sent == [] and again.duplicate == [user]
    report = await loop.tick()
    assert report.caught_up == [user]
    [(to, text)] = notifier.dms
    assert to == user and text.startswith("🔔 Your quiet hours are over. Waiting for you:\n")
    assert f"Game #{record.id} (#table-10)" in text
