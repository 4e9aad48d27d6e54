"""Each person's notification settings in storage (issue #35; schemas 22-24): the settings
themselves, holds and their release, the digest's claim and its hour in a time zone (the
nights the clocks change included), mutes, follows and the turn DMs to retire; on both
backends."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from storage import Storage
from storage.records import UserSettings
from storage.reminders import TurnMessage
from tests.storage.conftest import FakeClock
from tests.storage.helpers import USER, active_game


async def test_the_settings_holds_and_digests(storage: Storage, clock: FakeClock) -> None:
    prefs = await storage.settings.update_user(
        USER, zone="Europe/Madrid", quiet_window=(22 * 60, 8 * 60), digest_hour=9,
        heads_up=True, reminder_hours=12, digest_at=clock.now)
    assert (prefs.zone, prefs.quiet_window, prefs.digest_hour, prefs.heads_up,
            prefs.reminder_hours, prefs.digest_at) == (
        "Europe/Madrid", (1320, 480), 9, True, 12, clock.now)
    with pytest.raises(KeyError):
        await storage.settings.update_user(USER, zone="Mars/Base")
    with pytest.raises(ValueError):
        await storage.settings.update_user(USER, quiet_window=(60, 60))
    with pytest.raises(ValueError):
        await storage.settings.update_user(USER, digest_hour=24)
    assert [p.user_id for p in await storage.settings.digest_users()] == [USER]

    await storage.settings.hold(USER)
    first = (await storage.settings.user(USER)).held_at
    assert first == clock.now
    clock.advance(hours=1)
    await storage.settings.hold(USER)  # kept from the first moment
    assert (await storage.settings.user(USER)).held_at == first
    assert [p.user_id for p in await storage.settings.held()] == [USER]
    assert await storage.settings.release(USER, first)
    assert not await storage.settings.release(USER, first)  # once
    assert await storage.settings.held() == []

    moment = clock.now + timedelta(hours=2)
    assert await storage.settings.claim_digest(USER, moment, moment)
    assert not await storage.settings.claim_digest(USER, moment, moment)
    assert await storage.settings.claim_digest(USER, moment + timedelta(days=1),
                                               moment + timedelta(days=1))


def test_the_digest_hour_is_local_across_the_change_of_the_clocks() -> None:
    """09:00 in Madrid is 08:00 UTC in winter and 07:00 in summer (29 March 2026): the digest
    comes at nine local on both sides, once a day."""
    prefs = UserSettings(1, zone="Europe/Madrid", digest_hour=9,
                         digest_at=datetime(2026, 3, 27, 8, 0, tzinfo=UTC))
    assert prefs.digest_due(datetime(2026, 3, 27, 9, tzinfo=UTC)) is None  # sent already
    saturday = datetime(2026, 3, 28, 8, 0, tzinfo=UTC)
    assert prefs.digest_due(saturday - timedelta(minutes=1)) is None
    assert prefs.digest_due(saturday) == saturday
    sunday = UserSettings(1, zone="Europe/Madrid", digest_hour=9, digest_at=saturday)
    summer = datetime(2026, 3, 29, 7, 0, tzinfo=UTC)  # 09:00 CEST
    assert sunday.digest_due(summer - timedelta(minutes=1)) is None
    assert sunday.digest_due(summer) == summer
    quiet = UserSettings(1, zone="Europe/Madrid", quiet_window=(22 * 60, 8 * 60))
    assert quiet.quiet_at(datetime(2026, 3, 29, 5, 59, tzinfo=UTC))  # 07:59 CEST
    assert not quiet.quiet_at(datetime(2026, 3, 29, 6, 0, tzinfo=UTC))  # 08:00 CEST
    assert quiet.quiet_at(datetime(2026, 3, 28, 21, 0, tzinfo=UTC))  # 22:00 CET
    assert not UserSettings(1).quiet_at(datetime(2026, 3, 28, 21, 0, tzinfo=UTC))


async def test_mutes_follows_and_turn_dms(storage: Storage) -> None:
    record = await active_game(storage, players=2, channel_id=30)
    other = await active_game(storage, players=2, channel_id=31, user_base=USER + 10)
    assert await storage.settings.mute(USER, [record.id, other.id], True) == {record.id,
                                                                             other.id}
    assert await storage.settings.mute(USER, [other.id], False) == {record.id}
    assert await storage.settings.muting(record.id) == {USER}
    assert await storage.settings.follow(USER + 5, record.id, True)
    assert not await storage.settings.follow(USER + 5, record.id, True)
    assert await storage.settings.followers(record.id) == [USER + 5]
    assert await storage.settings.following(USER + 5) == [record.id]
    assert await storage.settings.follow(USER + 5, record.id, False)
    assert await storage.settings.followers(record.id) == []

    seat = next(s for s in record.seats if s.waiting_since is not None)
    assert seat.user_id is not None and seat.waiting_since is not None
    told = TurnMessage(record.id, seat.seat, seat.waiting_since, seat.user_id, 500, 600)
    await storage.reminders.remember_turn_dm(told)
    await storage.reminders.remember_turn_dm(told)  # (once)
    assert await storage.reminders.retire_turn_dms(record) == []  # the wait goes on
    await storage.games.abandon(record.id)
    retired = await storage.reminders.retire_turn_dms(await storage.games.get(record.id))
    assert [(r.user_id, r.channel_id, r.message_id, r.games) for r in retired] == [
        (seat.user_id, 500, 600, (record.id,))]
    assert await storage.reminders.retire_turn_dms(await storage.games.get(record.id)) == []
