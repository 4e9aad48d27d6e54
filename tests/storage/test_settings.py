"""User and guild settings: defaults without a row, partial updates, clearing with None."""

from __future__ import annotations

import pytest

from storage import UNSET, GuildSettings, Storage, UserSettings
from tests.storage.conftest import FakeClock


async def test_user_defaults_and_partial_updates(storage: Storage, clock: FakeClock) -> None:
    assert await storage.settings.user(1) == UserSettings(1)
    updated = await storage.settings.update_user(1, language="es", dm_notifications=False)
    assert updated == UserSettings(1, language="es", dm_notifications=False)
    updated = await storage.settings.update_user(1, dm_blocked=True)
    assert updated == UserSettings(1, language="es", dm_notifications=False, dm_blocked=True)
    nudged = await storage.settings.mark_nudged(1)
    assert nudged.last_nudge_at == clock.now
    cleared = await storage.settings.update_user(1, language=None, last_nudge_at=None)
    assert cleared.language is None and cleared.last_nudge_at is None
    assert cleared.dm_blocked is True
    assert await storage.settings.user(1) == cleared
    assert await storage.settings.update_user(2, language=UNSET) == UserSettings(2)


async def test_users_in_bulk(storage: Storage) -> None:
    await storage.settings.update_user(1, language="es")
    found = await storage.settings.users([1, 2])
    assert found == {1: UserSettings(1, language="es"), 2: UserSettings(2)}
    assert await storage.settings.users([]) == {}


async def test_guild_settings(storage: Storage) -> None:
    assert await storage.settings.guild(5) == GuildSettings(5)
    updated = await storage.settings.update_guild(
        5, language="es", reminder_hours=12, defaults={"edition": "classic"}
    )
    assert updated == GuildSettings(5, "es", 12, {"edition": "classic"})
    assert await storage.settings.guild(5) == updated
    updated = await storage.settings.update_guild(5, reminder_hours=None)
    assert updated.reminder_hours is None and updated.language == "es"
    with pytest.raises(ValueError):
        await storage.settings.update_guild(5, reminder_hours=0)
