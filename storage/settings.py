"""User and guild settings.  A missing row means "all defaults"; updates are partial: a field left
out keeps its value, a field given as ``None`` is cleared (back to the default)."""

from __future__ import annotations

import json
from datetime import datetime
from enum import Enum
from typing import Any, Final

from storage.database import Database
from storage.records import JSON, GuildSettings, UserSettings, dumps, from_ms, to_ms
from storage.sql import Row, Tx
from storage.timebank import Quiet, quiet_columns, quiet_rule


class Unset(Enum):
    """The type of :data:`UNSET` (in the update methods' signatures here and in reminders)."""

    UNSET = 0


UNSET: Final = Unset.UNSET
"""Marks a field an update leaves unchanged."""

MAX_ABANDON_DAYS: Final = 365


def _user(user_id: int, row: Row | None) -> UserSettings:
    if row is None:
        return UserSettings(user_id)
    return UserSettings(
        user_id=user_id,
        language=row["language"],
        dm_notifications=bool(row["dm_notifications"]),
        dm_blocked=bool(row["dm_blocked"]),
        last_nudge_at=from_ms(row["last_nudge_at"]),
    )


def _guild(guild_id: int, row: Row | None) -> GuildSettings:
    if row is None:
        return GuildSettings(guild_id)
    try:
        defaults = json.loads(row["defaults"])
    except ValueError:
        defaults = {}
    return GuildSettings(
        guild_id=guild_id,
        language=row["language"],
        reminder_hours=row["reminder_hours"],
        defaults=defaults if isinstance(defaults, dict) else {},
        quiet=quiet_rule([row["quiet_zone"], row["quiet_weekends"], row["quiet_start"],
                          row["quiet_end"]]),
        abandon_days=row["abandon_days"],
        away_days=row["away_days"],
    )


class SettingsRepository:
    def __init__(self, db: Database) -> None:
        self.db = db

    # --- users ----------------------------------------------------------------------------------

    async def user(self, user_id: int) -> UserSettings:
        row = await self.db.fetchone("SELECT * FROM user_settings WHERE user_id = ?", (user_id,))
        return _user(user_id, row)

    async def users(self, user_ids: list[int]) -> dict[int, UserSettings]:
        """Settings of several users at once (for notifying a whole table)."""
        if not user_ids:
            return {}
        marks = ",".join("?" * len(user_ids))
        rows = await self.db.fetchall(
            f"SELECT * FROM user_settings WHERE user_id IN ({marks})", tuple(user_ids)
        )
        found = {int(r["user_id"]): _user(int(r["user_id"]), r) for r in rows}
        return {uid: found.get(uid, UserSettings(uid)) for uid in user_ids}

    async def update_user(
        self,
        user_id: int,
        *,
        language: str | Unset | None = UNSET,
        dm_notifications: bool | Unset = UNSET,
        dm_blocked: bool | Unset = UNSET,
        last_nudge_at: datetime | Unset | None = UNSET,
    ) -> UserSettings:
        changes: dict[str, Any] = {}
        if language is not UNSET:
            changes["language"] = language
        if dm_notifications is not UNSET:
            changes["dm_notifications"] = int(dm_notifications)
        if dm_blocked is not UNSET:
            changes["dm_blocked"] = int(dm_blocked)
        if last_nudge_at is not UNSET:
            changes["last_nudge_at"] = None if last_nudge_at is None else to_ms(last_nudge_at)
        return _user(user_id, await self._upsert("user_settings", "user_id", user_id, changes))

    async def mark_nudged(self, user_id: int, at: datetime | None = None) -> UserSettings:
        """Remember that the user was just reminded (``at`` defaults to the clock's now)."""
        return await self.update_user(user_id, last_nudge_at=at or self.db.clock())

    # --- guilds ---------------------------------------------------------------------------------

    async def guild(self, guild_id: int) -> GuildSettings:
        row = await self.db.fetchone(
            "SELECT * FROM guild_settings WHERE guild_id = ?", (guild_id,)
        )
        return _guild(guild_id, row)

    async def update_guild(
        self,
        guild_id: int,
        *,
        language: str | Unset | None = UNSET,
        reminder_hours: int | Unset | None = UNSET,
        defaults: JSON | Unset = UNSET,
        quiet: Quiet | Unset | None = UNSET,
        abandon_days: int | Unset | None = UNSET,
        away_days: int | Unset | None = UNSET,
    ) -> GuildSettings:
        changes: dict[str, Any] = {}
        if away_days is not UNSET:
            if away_days is not None and not 0 <= away_days <= MAX_ABANDON_DAYS:
                raise ValueError(f"away_days must be 0 to {MAX_ABANDON_DAYS}")
            changes["away_days"] = away_days
        if abandon_days is not UNSET:
            if abandon_days is not None and not 1 <= abandon_days <= MAX_ABANDON_DAYS:
                raise ValueError(f"abandon_days must be 1 to {MAX_ABANDON_DAYS}")
            changes["abandon_days"] = abandon_days
        if quiet is not UNSET:
            changes.update(quiet_columns(quiet))
        if language is not UNSET:
            changes["language"] = language
        if reminder_hours is not UNSET:
            if reminder_hours is not None and reminder_hours <= 0:
                raise ValueError("reminder_hours must be positive")
            changes["reminder_hours"] = reminder_hours
        if defaults is not UNSET:
            changes["defaults"] = dumps(defaults)
        return _guild(guild_id, await self._upsert("guild_settings", "guild_id", guild_id, changes))

    # --- shared ---------------------------------------------------------------------------------

    async def _upsert(
        self, table: str, key: str, key_value: int, changes: dict[str, Any]
    ) -> Row | None:
        """Insert the row with defaults if missing, apply ``changes``; returns the new row."""

        async def body(tx: Tx) -> Row | None:
            now = to_ms(self.db.clock())
            await tx.execute(
                f"INSERT INTO {table} ({key}, updated_at) VALUES (?, ?)"
                f" ON CONFLICT ({key}) DO NOTHING",
                (key_value, now),
            )
            if changes:
                assignments = ", ".join(f"{column} = ?" for column in changes)
                await tx.execute(
                    f"UPDATE {table} SET {assignments}, updated_at = ? WHERE {key} = ?",
                    (*changes.values(), now, key_value),
                )
            return await tx.fetchone(f"SELECT * FROM {table} WHERE {key} = ?", (key_value,))

        return await self.db.write(body)
