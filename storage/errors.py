"""The storage error tree.

Every error carries structured fields (never prose meant for players) and a stable ``code`` so
the bot can word it in the player's language.  Programming errors stay ordinary ``ValueError`` /
``TypeError``.
"""

from __future__ import annotations

from typing import Any


class StorageError(Exception):
    """Base of every error the storage raises on purpose."""

    code = "storage_error"

    def __init__(self, **fields: Any) -> None:
        self.fields: dict[str, Any] = fields
        extra = ", ".join(f"{k}={v!r}" for k, v in fields.items())
        super().__init__(self.code + (f" ({extra})" if extra else ""))


# --- schema -------------------------------------------------------------------------------------


class SchemaError(StorageError):
    """The database file cannot be brought to the schema this code expects."""

    code = "schema_error"


class SchemaTooNew(SchemaError):
    """The file was written by a newer version of the bot; we never downgrade."""

    code = "schema_too_new"

    def __init__(self, found: int, supported: int) -> None:
        super().__init__(found=found, supported=supported)
        self.found = found
        self.supported = supported


class MigrationFailed(SchemaError):
    """A migration failed; the database stays at ``version - 1`` (each migration is atomic)."""

    code = "migration_failed"

    def __init__(self, version: int, cause: BaseException) -> None:
        super().__init__(version=version, cause=repr(cause))
        self.version = version
        self.cause = cause


# --- games ----------------------------------------------------------------------------------------


class GameError(StorageError):
    """An error about one game; ``game_id`` names it."""

    code = "game_error"

    def __init__(self, game_id: int, **fields: Any) -> None:
        super().__init__(game_id=game_id, **fields)
        self.game_id = game_id


class GameNotFound(GameError):
    code = "game_not_found"

    def __init__(self, game_id: int) -> None:
        super().__init__(game_id)


class StaleVersion(GameError):
    """The caller acted on version ``expected`` but the game is at ``current``: somebody else
    changed it first (a double click, an outdated button, two players at the same moment)."""

    code = "stale_version"

    def __init__(self, game_id: int, expected: int, current: int) -> None:
        super().__init__(game_id, expected=expected, current=current)
        self.expected = expected
        self.current = current


class WrongStatus(GameError):
    """The game is not in a status that allows the operation."""

    code = "wrong_status"

    def __init__(self, game_id: int, status: str) -> None:
        super().__init__(game_id, status=status)
        self.status = status


class NotInLobby(WrongStatus):
    """Seats change and games start only in the lobby."""

    code = "not_in_lobby"


class NotActive(WrongStatus):
    """Actions are committed only to an active game."""

    code = "not_active"


class GameNotOver(GameError):
    """``finish`` was asked for a game whose state still prompts somebody."""

    code = "game_not_over"

    def __init__(self, game_id: int) -> None:
        super().__init__(game_id)


class SeatTaken(GameError):
    """The user already holds a seat at this table."""

    code = "seat_taken"

    def __init__(self, game_id: int, user_id: int, seat: int) -> None:
        super().__init__(game_id, user_id=user_id, seat=seat)
        self.user_id = user_id
        self.seat = seat


class LobbyFull(GameError):
    """No more seats: the game (or the player count chosen for the table) allows no more."""

    code = "lobby_full"

    def __init__(self, game_id: int, seats: int) -> None:
        super().__init__(game_id, seats=seats)
        self.seats = seats


class NotSeated(GameError):
    """The user (or seat) is not at this table."""

    code = "not_seated"

    def __init__(self, game_id: int, user_id: int | None = None, seat: int | None = None) -> None:
        super().__init__(game_id, user_id=user_id, seat=seat)
        self.user_id = user_id
        self.seat = seat


class InvalidOptions(GameError):
    """The engine refused the options (``cause`` is the engine's ``InvalidSetup``)."""

    code = "invalid_options"

    def __init__(self, game_id: int, cause: BaseException) -> None:
        super().__init__(game_id, cause=repr(cause))
        self.cause = cause


class ChannelBusy(StorageError):
    """A channel holds at most one open (lobby or active) game."""

    code = "channel_busy"

    def __init__(self, channel_id: int, game_id: int) -> None:
        super().__init__(channel_id=channel_id, game_id=game_id)
        self.channel_id = channel_id
        self.game_id = game_id


class CorruptGame(GameError):
    """The stored game cannot be used: unknown game name, undecodable or engine-refused snapshot,
    or a log that does not replay.  Only this game is affected; the log stays the source of truth
    (``python -m storage verify`` names the problem; ``rebuild_snapshot`` repairs a bad
    snapshot)."""

    code = "corrupt_game"

    def __init__(self, game_id: int, cause: BaseException | str) -> None:
        super().__init__(game_id, cause=cause if isinstance(cause, str) else repr(cause))
        self.cause = cause
