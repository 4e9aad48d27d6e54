"""Storage for Governor: games, seats, the append-only action log with its events, snapshots,
results and settings, in SQLite (one file, the default) or PostgreSQL (several processes).

Imports neither discord nor Pillow; the engine only to serialize, load and replay states.

    storage = await Storage.open("governor.db")    # or "postgresql://user@host/governor"
    lobby = await storage.games.create_lobby("puerto-rico", creator_id=42, channel_id=7)
    ...
    await storage.close()
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from storage.absences import Absence, AbsenceRepository, AwayAllowance
from storage.database import (
    Database,
    DatabaseBusy,
    DatabaseUnavailable,
    SqliteDatabase,
    backup_file,
    parse_url,
)
from storage.errors import (
    ChannelBusy,
    CorruptGame,
    GameError,
    GameNotFound,
    GameNotOver,
    InvalidOptions,
    LobbyFull,
    MigrationFailed,
    NotActive,
    NotInLobby,
    NotSeated,
    SchemaError,
    SchemaTooNew,
    SeatTaken,
    StaleVersion,
    StorageError,
    WrongStatus,
)
from storage.games import GameRepository
from storage.migrate import LATEST_VERSION
from storage.publications import DueNotice, Publication, PublicationRepository
from storage.queries import CHANNEL_GONE_KIND, STORY_THREAD_KIND
from storage.ratings import RatingChangeRecord, RatingRecord, RatingRepository
from storage.records import (
    ActionRecord,
    Clock,
    CommitResult,
    Favourite,
    GameRecord,
    GameStatus,
    GuildSettings,
    LoadedGame,
    MovePace,
    PlayResult,
    ResultRecord,
    SeatRecord,
    UserSettings,
    UserStats,
    utc_now,
)
from storage.reminders import ClockVote, GameTimers, ReminderRepository, Wait
from storage.settings import UNSET, SettingsRepository
from storage.verify import Problem, VerifyReport, verify_database


class Storage:
    """The storage of one bot process: a :class:`Database` and its repositories."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.games = GameRepository(db)
        self.settings = SettingsRepository(db)
        self.reminders = ReminderRepository(db)
        self.publications = PublicationRepository(db)
        self.ratings = RatingRepository(db)
        self.absences = AbsenceRepository(db)

    @classmethod
    async def open(
        cls,
        target: str | os.PathLike[str],
        *,
        clock: Clock = utc_now,
        busy_timeout_ms: int = 10_000,
        synchronous: str = "FULL",
    ) -> Storage:
        """Open the database ``target`` names (an SQLite file's path or ``sqlite:///`` URL,
        created if missing; a ``postgresql://`` URL) and bring it to the latest schema."""
        db = await Database.open(
            target, clock=clock, busy_timeout_ms=busy_timeout_ms, synchronous=synchronous
        )
        return cls(db)

    async def close(self) -> None:
        await self.db.close()

    async def __aenter__(self) -> Storage:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def verify(self, game_ids: Iterable[int] | None = None) -> VerifyReport:
        return await verify_database(self.db, game_ids=game_ids)

    async def backup(self, target: str | os.PathLike[str]) -> Path:
        return await self.db.backup(target)


__all__ = [
    "CHANNEL_GONE_KIND",
    "LATEST_VERSION",
    "STORY_THREAD_KIND",
    "UNSET",
    "Absence",
    "ActionRecord",
    "AwayAllowance",
    "ChannelBusy",
    "Clock",
    "ClockVote",
    "CommitResult",
    "CorruptGame",
    "Database",
    "DatabaseBusy",
    "DatabaseUnavailable",
    "DueNotice",
    "Favourite",
    "GameError",
    "GameNotFound",
    "GameNotOver",
    "GameRecord",
    "GameRepository",
    "GameStatus",
    "GameTimers",
    "GuildSettings",
    "InvalidOptions",
    "LoadedGame",
    "LobbyFull",
    "MigrationFailed",
    "MovePace",
    "NotActive",
    "NotInLobby",
    "NotSeated",
    "PlayResult",
    "Problem",
    "Publication",
    "PublicationRepository",
    "RatingChangeRecord",
    "RatingRecord",
    "RatingRepository",
    "ReminderRepository",
    "ResultRecord",
    "SchemaError",
    "SchemaTooNew",
    "SeatRecord",
    "SeatTaken",
    "SettingsRepository",
    "SqliteDatabase",
    "StaleVersion",
    "Storage",
    "StorageError",
    "UserSettings",
    "UserStats",
    "VerifyReport",
    "Wait",
    "WrongStatus",
    "backup_file",
    "parse_url",
    "verify_database",
]
