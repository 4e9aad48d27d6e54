"""The one error mapping: every failure becomes a short, specific, localized message.

The service and the storage raise structured errors (a ``code`` and fields, never prose);
:func:`describe` turns any exception into a catalog key and its fields, and :func:`send_error`
shows it to the user (ephemerally when possible), whatever state the interaction is in.  An
exception we did not expect is logged with its traceback and the user gets ``err.generic``:
a traceback never reaches a user and nobody sees "This interaction failed".

Every reply fits Discord's limits (:mod:`bot.limits`): a refusal's fields are quoted at most
:data:`bot.limits.QUOTE` characters (they may echo what the user typed), the text is cut to
2,000 characters, and a reply Discord still refuses (400, 50035 Invalid Form Body) is replaced
by the short ``err.generic`` so that no interaction is left on "thinking…".

An interaction that expired before the bot acknowledged it (404, 10062 Unknown interaction: a
loaded bot or a slow network took more than Discord's 3 seconds) cannot be answered at all: it
is one WARNING line, without a traceback, and no reply is attempted (an autocomplete's too:
discord.py answers those itself, :func:`quiet_expired_autocomplete`).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

import discord

from engine.core import EngineError, GameOver, IllegalAction, InvalidAction, NotYourTurn
from storage import (
    ChannelBusy,
    CorruptGame,
    DatabaseBusy,
    DatabaseUnavailable,
    GameError,
    GameNotFound,
    GameStatus,
    InvalidOptions,
    LobbyFull,
    NotActive,
    NotInLobby,
    NotSeated,
    SeatTaken,
    StaleVersion,
    WrongStatus,
)

from .i18n import CATALOG, Catalog
from .limits import CONTENT, fit, quote
from .permissions import permission_names
from .refusals import catalog_of, refusal

log = logging.getLogger(__name__)

INVALID_FORM_BODY = 50035
UNKNOWN_INTERACTION = 10062


class UserError(Exception):
    """A refusal meant for the user: ``key`` names the catalog text, ``fields`` fill it in.

    Raised by the service for the rules of the table (who may start, how many seats...)."""

    def __init__(self, key: str, /, **fields: Any) -> None:
        super().__init__(key)
        self.key = key
        self.fields = fields


class MissingPermissions(Exception):
    """The bot lacks ``names`` (``discord.Permissions`` attribute names, in Discord's order) in
    the channel ``channel_id``: the user is told exactly which, and to ask an admin."""

    def __init__(self, names: Sequence[str], channel_id: int | None) -> None:
        super().__init__(f"missing {', '.join(names)} in channel {channel_id}")
        self.names = tuple(names)
        self.channel_id = channel_id


class PostingBlocked(Exception):
    """The game's channel refused a post or an edit for lack of permissions (403: 50001 Missing
    Access, 50013 Missing Permissions).  Raised by the publisher once it has told the players
    and logged it in one line, so that the service neither logs a traceback nor records the
    table as shown; the game is published again once posting works (:mod:`bot.reminders`)."""

    def __init__(self, game_id: int, names: Sequence[str]) -> None:
        super().__init__(f"game {game_id}: cannot post ({', '.join(names)})")
        self.game_id = game_id
        self.names = tuple(names)


class PublishFailed(Exception):
    """Discord failed the game's table update (a 5xx once discord.py gave up retrying, a
    timeout): logged in one line by the publisher, the table is not recorded as shown, and the
    reminder pass publishes the game again (:mod:`bot.publishing`)."""

    def __init__(self, game_id: int, reason: str) -> None:
        super().__init__(f"game {game_id}: the table was not published ({reason})")
        self.game_id = game_id
        self.reason = reason


class ChannelGone(Exception):
    """The game's channel was deleted (Discord's 404 10003 Unknown Channel, or the gateway
    said so): the game waits as stored until it is moved (``/game move``) or ended, and its
    players are told once (``DiscordPublisher.channel_gone``)."""

    def __init__(self, game_id: int, channel_id: int | None) -> None:
        super().__init__(f"game {game_id}: channel {channel_id} was deleted")
        self.game_id = game_id
        self.channel_id = channel_id


def _status(catalog: Catalog, lang: str, status: object) -> str:
    return catalog.t(lang, f"status.{getattr(status, 'value', status)}")


def describe(exc: BaseException, catalog: Catalog, lang: str) -> tuple[str, dict[str, Any]]:
    """The catalog key and fields for ``exc``; ``("err.generic", {})`` for the unexpected.
    A refusal with its situation attached says why, with the numbers (:mod:`bot.refusals`)."""
    worded = refusal(exc, lang)
    if worded is not None:
        return worded
    if isinstance(exc, MissingPermissions):
        channel = f"<#{exc.channel_id}>" if exc.channel_id else "#?"
        return "err.missing_permissions", {
            "perms": permission_names(exc.names, lang, catalog), "channel": channel}
    if isinstance(exc, UserError):
        return exc.key, {
            k: _status(catalog, lang, v) if isinstance(v, GameStatus)
            else quote(v) if isinstance(v, str) else v
            for k, v in exc.fields.items()
        }
    game = getattr(exc, "game_id", None)
    if isinstance(exc, ChannelBusy):
        return "err.channel_busy", {"game": exc.game_id, "status": _status(catalog, lang, "lobby")}
    if isinstance(exc, StaleVersion):
        return "err.stale", {"game": game}
    if isinstance(exc, GameNotFound):
        return "err.game_not_found", {"game": game}
    if isinstance(exc, NotInLobby):
        return "err.not_in_lobby", {"game": game, "status": _status(catalog, lang, exc.status)}
    if isinstance(exc, NotActive):
        return "err.not_active", {"game": game, "status": _status(catalog, lang, exc.status)}
    if isinstance(exc, WrongStatus):
        return "err.wrong_status", {"game": game, "status": _status(catalog, lang, exc.status)}
    if isinstance(exc, SeatTaken):
        return "err.seat_taken", {"game": game}
    if isinstance(exc, LobbyFull):
        return "err.lobby_full", {"game": game, "seats": exc.seats}
    if isinstance(exc, NotSeated):
        return "err.not_seated", {"game": game}
    if isinstance(exc, InvalidOptions):
        return "err.invalid_options", {"code": getattr(exc.cause, "code", "?")}
    if isinstance(exc, CorruptGame):
        return "err.corrupt_game", {"game": game}
    if isinstance(exc, DatabaseBusy):
        return "err.database_busy", {}
    if isinstance(exc, DatabaseUnavailable):
        return "err.database_unavailable", {}
    if isinstance(exc, GameError):
        return "err.generic", {}
    if isinstance(exc, NotYourTurn):
        return "err.not_your_turn", {"game": exc.details.get("game_id", "?")}
    if isinstance(exc, GameOver):
        return "err.game_over", {"game": exc.details.get("game_id", "?")}
    if isinstance(exc, InvalidAction):
        return "err.unknown_action", {}
    if isinstance(exc, IllegalAction):
        key = f"illegal.{exc.code}"
        return (key if catalog.has(key) else "illegal.illegal_now"), {}
    if isinstance(exc, EngineError):
        return "illegal.illegal_now", {}
    if isinstance(exc, discord.Forbidden):
        return "err.discord_forbidden", {}
    if isinstance(exc, discord.HTTPException):
        return "err.discord_unavailable", {}
    return "err.generic", {}


def is_expected(exc: BaseException) -> bool:
    """Refusals that are part of normal play (logged at INFO without a traceback)."""
    return isinstance(exc, UserError | EngineError | StaleVersion | ChannelBusy
                      | MissingPermissions | DatabaseUnavailable) or (
        isinstance(exc, GameError) and not isinstance(exc, CorruptGame)
    )


def expired(exc: BaseException) -> bool:
    """Whether ``exc`` says the interaction is gone (10062 Unknown interaction): its token no
    longer takes a reply of any kind."""
    return isinstance(exc, discord.NotFound) and exc.code == UNKNOWN_INTERACTION


class ExpiredAutocomplete(logging.Filter):
    """discord.py answers an autocomplete itself once our choices are ready and logs what fails
    then with its traceback ("Ignoring exception in autocomplete"): an interaction that expired
    meanwhile (10062) becomes one WARNING line there too, like every expired interaction."""

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        if exc is not None and expired(exc):
            said = record.getMessage()
            record.msg = "%s: the interaction expired (404 10062 Unknown interaction)"
            record.args = (said,)
            record.levelno, record.levelname = logging.WARNING, "WARNING"
            record.exc_info = record.exc_text = None
        return True


AUTOCOMPLETE_LOGGER = "discord.app_commands.tree"
"""Where discord.py logs a failed autocomplete answer."""


def quiet_expired_autocomplete() -> None:
    """Install :class:`ExpiredAutocomplete` on discord.py's command tree logger (once)."""
    logger = logging.getLogger(AUTOCOMPLETE_LOGGER)
    if not any(isinstance(f, ExpiredAutocomplete) for f in logger.filters):
        logger.addFilter(ExpiredAutocomplete())


def log_failure(exc: BaseException, where: str) -> None:
    if expired(exc):
        log.warning("%s: the interaction expired before it was acknowledged (404 10062 Unknown "
                    "interaction)", where)
    elif is_expected(exc):
        log.info("%s refused: %r", where, exc)
    else:
        log.error("%s failed", where, exc_info=exc)


def message_for(exc: BaseException, lang: str, catalog: Catalog = CATALOG) -> str:
    """``exc`` in words, in the words of the game it happened in when it says (a refusal with
    its situation), else ``catalog``'s."""
    catalog = catalog_of(exc) or catalog
    key, fields = describe(exc, catalog, lang)
    return catalog.t(lang, key, **fields)


async def _reply(interaction: discord.Interaction[Any], text: str) -> None:
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True)
    else:
        await interaction.response.send_message(text, ephemeral=True)


async def send_ephemeral(interaction: discord.Interaction[Any], text: str,
                         catalog: Catalog = CATALOG) -> None:
    """Send ``text`` (cut to Discord's 2,000 characters) to the interaction's user only,
    whether or not it was acknowledged yet.  Never raises: when Discord refuses the reply's
    form (50035) a short generic reply goes instead; a reply that cannot be delivered at all
    is logged in one line."""
    try:
        await _reply(interaction, fit(text, CONTENT))
        return
    except discord.HTTPException as exc:
        if exc.code != INVALID_FORM_BODY:
            log.warning("could not deliver a reply to interaction %s (%s %s)", interaction.id,
                        exc.status, exc.code)
            return
        log.error("Discord refused a reply to interaction %s (50035: %s); sent a short one",
                  interaction.id, exc.text[:200])
    await send_fallback(interaction, catalog)


async def send_fallback(interaction: discord.Interaction[Any], catalog: Catalog = CATALOG
                        ) -> None:
    """The short ``err.generic`` reply, when the real one could not be sent (never raises)."""
    try:
        await _reply(interaction, catalog.t(catalog.language_of(interaction.locale),
                                            "err.generic"))
    except discord.HTTPException as exc:
        log.warning("could not deliver a reply to interaction %s (%s %s)", interaction.id,
                    exc.status, exc.code)


async def send_error(
    interaction: discord.Interaction[Any],
    exc: BaseException,
    *,
    where: str,
    catalog: Catalog = CATALOG,
) -> None:
    """Log ``exc`` and tell the user, in their own Discord language, what went wrong (nothing
    can be told once the interaction expired)."""
    log_failure(exc, where)
    if expired(exc):
        return
    lang = catalog.language_of(interaction.locale)
    await send_ephemeral(interaction, message_for(exc, lang, catalog), catalog)
