"""User and guild settings.  A missing row means "all defaults"; updates are partial: a field left
out keeps its value, a field given as ``None`` is cleared (back to the default)."""

from __future__ import annotations

import json
from collections.abc import Iterable
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
        zone=row["zone"],
        quiet_window=None if row["quiet_start"] is None or row["quiet_end"] is None
        else (int(row["quiet_start"]), int(row["quiet_end"])),
        digest_hour=row["digest_hour"],
        heads_up=bool(row["heads_up"]),
        reminder_hours=row["reminder_hours"],
        held_at=from_ms(row["held_at"]),
        digest_at=from_ms(row["digest_at"]),
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
        zone: str | Unset | None = UNSET,
        quiet_window: tuple[int, int] | Unset | None = UNSET,
        digest_hour: int | Unset | None = UNSET,
        heads_up: bool | Unset = UNSET,
        reminder_hours: int | Unset | None = UNSET,
        held_at: datetime | Unset | None = UNSET,
        digest_at: datetime | Unset | None = UNSET,
    ) -> UserSettings:
        changes: dict[str, Any] = {}
        if zone is not UNSET:
            if zone is not None:
                Quiet(zone)  # KeyError (ZoneInfoNotFoundError) for an unknown zone
            changes["zone"] = zone
        if quiet_window is not UNSET:
            if quiet_window is not None:
                Quiet("UTC", False, quiet_window)  # ValueError for a window that cannot be
            start, end = quiet_window or (None, None)
            changes.update(quiet_start=start, quiet_end=end)
        if digest_hour is not UNSET:
            if digest_hour is not None and not 0 <= digest_hour <= 23:
                raise ValueError("digest_hour must be 0 to 23")
            changes["digest_hour"] = digest_hour
        if heads_up is not UNSET:
            changes["heads_up"] = int(heads_up)
        if reminder_hours is not UNSET:
            if reminder_hours is not None and reminder_hours <= 0:
                raise ValueError("reminder_hours must be positive")
            changes["reminder_hours"] = reminder_hours
        for column, moment in (("held_at", held_at), ("digest_at", digest_at)):
            if not isinstance(moment, Unset):
                changes[column] = None if moment is None else to_ms(moment)
        if language is not UNSET:
            changes["language"] = language
        if dm_notifications is not UNSET:
            changes["dm_notifications"] = int(dm_notifications)
        if dm_blocked is not UNSET:
            changes["dm_blocked"] = int(dm_blocked)
        if last_nudge_at is not UNSET:
            changes["last_nudge_at"] = None if last_nudge_at is None else to_ms(last_nudge_at)
        return _user(user_id, await self._upsert("user_settings", "user_id", user_id, changes))

    async def hold(self, user_id: int) -> None:
        """Something meant for ``user_id`` waits for their quiet hours to end (kept from the
        first such moment)."""
        now = self.db.now_ms()

        async def body(tx: Tx) -> None:
            await tx.execute(
                "INSERT INTO user_settings (user_id, held_at, updated_at) VALUES (?, ?, ?)"
                " ON CONFLICT (user_id) DO UPDATE SET held_at = coalesce("
                "user_settings.held_at, excluded.held_at)", (user_id, now, now))

        await self.db.write(body)

    async def held(self) -> list[UserSettings]:
        """The people something waits for (their quiet hours, when they began)."""
        rows = await self.db.fetchall(
            "SELECT * FROM user_settings WHERE held_at IS NOT NULL ORDER BY held_at")
        return [_user(int(r["user_id"]), r) for r in rows]

    async def release(self, user_id: int, held_at: datetime) -> bool:
        """Clear what was held for ``user_id`` since ``held_at``; False when another caller
        did first (or something else was held since)."""

        async def body(tx: Tx) -> bool:
            return await tx.execute(
                "UPDATE user_settings SET held_at = NULL WHERE user_id = ? AND held_at = ?",
                (user_id, to_ms(held_at))) == 1

        return await self.db.write(body)

    async def claim_digest(self, user_id: int, moment: datetime, now: datetime) -> bool:
        """Record that ``user_id``'s digest of ``moment`` goes out now; False when it already
        did (any process)."""

        async def body(tx: Tx) -> bool:
            return await tx.execute(
                "UPDATE user_settings SET digest_at = ? WHERE user_id = ?"
                " AND (digest_at IS NULL OR digest_at < ?)",
                (to_ms(now), user_id, to_ms(moment))) == 1

        return await self.db.write(body)

    async def digest_users(self) -> list[UserSettings]:
        """The people in digest mode."""
        rows = await self.db.fetchall(
            "SELECT * FROM user_settings WHERE digest_hour IS NOT NULL ORDER BY user_id")
        return [_user(int(r["user_id"]), r) for r in rows]

    async def mute(self, user_id: int, game_ids: Iterable[int], muted: bool) -> set[int]:
        """Mute (or unmute) ``game_ids`` for ``user_id``; their muted games afterwards."""
        now = self.db.now_ms()

        async def body(tx: Tx) -> None:
            for game_id in game_ids:
                if muted:
                    await tx.execute(
                        "INSERT INTO game_mutes (user_id, game_id, at) VALUES (?, ?, ?)"
                        " ON CONFLICT (user_id, game_id) DO NOTHING", (user_id, game_id, now))
                else:
                    await tx.execute("DELETE FROM game_mutes WHERE user_id = ? AND game_id = ?",
                                     (user_id, game_id))

        await self.db.write(body)
        return await self.muted(user_id)

    async def muted(self, user_id: int) -> set[int]:
        """The games ``user_id`` muted."""
        rows = await self.db.fetchall("SELECT game_id FROM game_mutes WHERE user_id = ?",
                                      (user_id,))
        return {int(r["game_id"]) for r in rows}

    async def muting(self, game_id: int) -> set[int]:
        """The people who muted ``game_id``."""
        rows = await self.db.fetchall("SELECT user_id FROM game_mutes WHERE game_id = ?",
                                      (game_id,))
        return {int(r["user_id"]) for r in rows}

    async def follow(self, user_id: int, game_id: int, following: bool) -> bool:
        """``user_id`` follows ``game_id`` (or stops); whether that changed anything."""

        async def body(tx: Tx) -> bool:
            if following:
                return await tx.execute(
                    "INSERT INTO follows (game_id, user_id, at) VALUES (?, ?, ?)"
                    " ON CONFLICT (game_id, user_id) DO NOTHING",
                    (game_id, user_id, self.db.now_ms())) == 1
            return await tx.execute("DELETE FROM follows WHERE game_id = ? AND user_id = ?",
                                    (game_id, user_id)) == 1

        return await self.db.write(body)

    async def followers(self, game_id: int) -> list[int]:
        """Who follows ``game_id``, in the order they began."""
        rows = await self.db.fetchall(
            "SELECT user_id FROM follows WHERE game_id = ? ORDER BY at, user_id", (game_id,))
        return [int(r["user_id"]) for r in rows]

    async def following(self, user_id: int) -> list[int]:
        """The games ``user_id`` follows."""
        rows = await self.db.fetchall(
            "SELECT game_id FROM follows WHERE user_id = ? ORDER BY game_id", (user_id,))
        return [int(r["game_id"]) for r in rows]

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
