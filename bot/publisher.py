"""The Discord side of a game change: the table message in the game's channel, display names,
and the turn notifications.  Implements :class:`bot.changes.Publisher`.

Channel posts are in the game's language.  The table message is posted once and edited after
each change (its id is stored with the game, so this survives restarts); a deleted one is posted
again.  Notifications run as background tasks so that a slow or rate-limited DM never holds the
game's lock.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from collections.abc import Awaitable, Callable, Coroutine, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import aiohttp
import discord

from engine.core import Event
from storage import DatabaseUnavailable, GameRecord, Storage
from storage.handovers import SeatHandover

from .changes import TableUpdate
from .clock import ClockVotes
from .errors import ChannelGone, PostingBlocked, PublishFailed
from .games import PACKAGES, presenter_for
from .i18n import CATALOG, Catalog
from .limits import CONTENT, fit
from .notify import Notifier, channel_url
from .permissions import bot_permissions, can_post, missing, needed, permission_names
from .posting import UNKNOWN_CHANNEL, TablePoster
from .presenters import seat_names
from .recap import recap
from .seatnames import escape_name, with_history

log = logging.getLogger(__name__)

TABLE = "table"
MISSING_ACCESS = 50001
MISSING_PERMISSIONS = 50013
KEPT_HANDOVERS = 1024
EDITABLE = (discord.TextChannel, discord.Thread, discord.VoiceChannel, discord.DMChannel)


def jump_url(guild_id: int | None, channel_id: int, message_id: int) -> str:
    return f"https://discord.com/channels/{guild_id or '@me'}/{channel_id}/{message_id}"


@dataclass(frozen=True, slots=True)
class Blocked:
    """A game whose channel refuses our posts: what the bot lacks there (as last seen)."""

    channel_id: int
    names: tuple[str, ...]


class DiscordPublisher:
    def __init__(
        self,
        client: discord.Client,
        storage: Storage,
        notifier: Notifier,
        catalog: Catalog = CATALOG,
    ) -> None:
        self.client = client
        self.storage = storage
        self.notifier = notifier
        self.catalog = catalog
        self._names: dict[int, str] = {}
        self._handovers: dict[tuple[int, int], Sequence[SeatHandover]] = {}
        """Each game's seat hand-overs by (game, version): read once per version, not for the
        table and each panel of it."""
        self.tables = TablePoster(client, storage, catalog)
        self.clock_votes: ClockVotes | None = None
        """Set by the client once the votes exist (they need the service, which needs us)."""
        self._tasks: set[asyncio.Task[Any]] = set()
        self.blocked: dict[int, Blocked] = {}
        """Games whose channel refused a post, until one goes through again."""
        self.resume: Callable[[int], Awaitable[object]] | None = None
        """Publishes a game again (``GameService.resume``); set by the client."""

    # --- names ------------------------------------------------------------------------------

    async def person_name(self, user_id: int, guild_id: int | None) -> str | None:
        """The person's name in the server (nickname, else global name, else user name),
        escaped for Discord's text (:func:`bot.seatnames.escape_name`); ``None`` when unknown."""
        guild = self.client.get_guild(guild_id) if guild_id else None
        member = guild.get_member(user_id) if guild else None
        if member is not None:
            return escape_name(member.display_name)
        if user_id in self._names:
            return self._names[user_id]
        user = self.client.get_user(user_id)
        if user is None:
            try:
                user = await self.client.fetch_user(user_id)
            except discord.HTTPException:
                return None
        self._names[user_id] = escape_name(user.display_name)
        return self._names[user_id]

    async def seat_names(self, record: GameRecord) -> dict[int, str]:
        """The seats' names now, knowing who held them before (:mod:`bot.seatnames`)."""
        handovers = self._handovers.get((record.id, record.version))
        if handovers is None:  # only a hand-over adds one, and it gives the game a new version
            handovers = await self.storage.games.handovers(record.id)
            self._handovers[(record.id, record.version)] = handovers
            if len(self._handovers) > KEPT_HANDOVERS:
                del self._handovers[next(iter(self._handovers))]
        former = [u for h in handovers for u in (h.from_user_id, h.to_user_id) if u is not None]
        people: dict[int, str] = {}
        kept = [s.stand_in_for for s in record.seats if s.stand_in_for is not None]
        for user_id in dict.fromkeys([*record.user_ids, *former, *kept]):
            name = await self.person_name(user_id, record.guild_id)
            if name:
                people[user_id] = name
        lang = self._lang(record)
        # the game's words too: a seat the game plays itself is named by them ("Puertoma 3")
        words = presenter_for(record.game).catalog if record.game in PACKAGES else self.catalog
        return with_history(seat_names(record, lang, words, people), handovers, lang,
                            words, people)

    def _lang(self, record: GameRecord) -> str:
        return record.language or self.catalog.default

    # --- the table --------------------------------------------------------------------------

    async def close_game(self, record: GameRecord, names: Mapping[int, str]) -> None:
        """A game ended without a result (abandoned): its table loses its buttons and its turn
        DMs say that their turn is over."""
        await self.tables.close(record, dict(names))
        await self.notifier.retire(record)

    async def publish_table(self, update: TableUpdate) -> None:
        """The table message, the story of the phases that ended, the final standings
        (:mod:`bot.posting`).

        When the channel refuses (403: 50001 Missing Access, 50013 Missing Permissions) the
        players are told what to ask an admin for, in the channel when a text message still
        goes through, else by DM (for those who accept DMs), once per blocking; one line is
        logged and :class:`PostingBlocked` raised (the table is not recorded as shown).  The
        next action, or :meth:`retry_blocked` (the reminders' loop), publishes it again."""
        record = update.record
        try:
            await self.tables.publish(update)
        except ChannelGone:
            await self.channel_gone(record.channel_id or 0)
            raise
        except discord.NotFound as exc:
            if exc.code != UNKNOWN_CHANNEL:
                raise self._failed(record, f"{exc.status} {exc.code} {exc.text}") from exc
            await self.channel_gone(record.channel_id or 0)  # the gateway's event was missed
            raise ChannelGone(record.id, record.channel_id) from None
        except discord.Forbidden as exc:
            if exc.code not in (MISSING_ACCESS, MISSING_PERMISSIONS):
                raise self._failed(record, f"{exc.status} {exc.code} {exc.text}") from exc
            names = await self._blocked(record, exc)
            raise PostingBlocked(record.id, names) from None
        except discord.HTTPException as exc:  # a 5xx once discord.py gave up retrying...
            raise self._failed(record, f"{exc.status} {exc.code} {exc.text}") from exc
        except (OSError, aiohttp.ClientError) as exc:  # ... or no answer at all
            raise self._failed(record, f"{type(exc).__name__} {exc}") from exc
        blocked = self.blocked.get(record.id)
        if blocked is None:
            return
        channel = self.client.get_channel(blocked.channel_id)
        perms = bot_permissions(channel)
        still = missing(perms, needed(channel)) if perms is not None else []
        if still:
            # The table edit went through (editing needs no Send Messages) but a post would
            # not: not recorded as shown, so that the story the channel missed is told later.
            raise PostingBlocked(record.id, still)
        del self.blocked[record.id]
        log.info("game %s: posting works again in channel %s; table published", record.id,
                 record.channel_id)

    @staticmethod
    def _failed(record: GameRecord, reason: str) -> PublishFailed:
        """One line for a table update Discord failed (not a refusal of permissions)."""
        log.warning("game %s: Discord failed the table update of v%s (%s); the reminder pass "
                    "publishes it again", record.id, record.version, reason[:200])
        return PublishFailed(record.id, reason[:200])

    # --- a channel deleted -------------------------------------------------------------------

    async def channel_gone(self, channel_id: int) -> list[GameRecord]:
        """The channel (or thread) ``channel_id`` was deleted (the gateway's event, or
        Discord's 404 10003 on a post): its active games wait for ``/game move`` or ``/game
        abandon``, their players told by DM (once: :meth:`storage.games.GameRepository.
        channel_gone` returns only the games marked now); its lobbies are abandoned; a story
        thread of that id is forgotten.  Returns the games marked now."""
        marked = await self.storage.games.channel_gone(channel_id)
        for record in marked:
            told = await self._tell_gone(record)
            log.warning("game %s: its channel %s was deleted; the game waits for /game move or "
                        "/game abandon; players told by DM (%d of %d)", record.id, channel_id,
                        told, len([s for s in record.seats if s.user_id is not None]))
        return marked

    async def _tell_gone(self, record: GameRecord) -> int:
        """DM each person seated at ``record`` (who accepts DMs) what they can do now."""
        guild = self.client.get_guild(record.guild_id) if record.guild_id else None
        server = escape_name(guild.name) if guild is not None else "?"
        presenter = presenter_for(record.game) if record.game in PACKAGES else None
        users = [s.user_id for s in record.seats if s.user_id is not None]
        told = 0
        for user_id, prefs in (await self.storage.settings.users(users)).items():
            if not prefs.dm_notifications or prefs.dm_blocked:
                continue
            lang = prefs.language or self._lang(record)
            title = presenter.title(lang) if presenter is not None else record.game
            text = self.catalog.t(lang, "notify.channel_gone", game=record.id, title=title,
                                  server=server)
            told += await self.notifier.dm(user_id, text)
        return told

    # --- a channel that refuses our posts ---------------------------------------------------

    async def _blocked(self, record: GameRecord, exc: discord.Forbidden) -> tuple[str, ...]:
        """Remember that ``record``'s channel refuses us, and tell the players when that is new
        (or what is missing changed)."""
        channel = self.client.get_channel(record.channel_id or 0)
        wanted = needed(channel, story_thread=True)  # what the whole game wants there
        perms = bot_permissions(channel)
        names = tuple(missing(perms, wanted)) if perms is not None else ()
        if not names:  # the cache does not say: name what the error implies
            names = ("view_channel",) if exc.code == MISSING_ACCESS else wanted
        before = self.blocked.get(record.id)
        self.blocked[record.id] = Blocked(record.channel_id or 0, names)
        if before is not None and before.names == names:
            log.debug("game %s: channel %s still refuses (%s)", record.id, record.channel_id,
                      exc.code)
            return names
        where = await self._tell_blocked(record, channel, names)
        log.warning("game %s: cannot post in channel %s (403, code %s: %s); missing %s; "
                    "players told %s; retrying until it works", record.id, record.channel_id,
                    exc.code, exc.text, ", ".join(names), where)
        return names

    async def _tell_blocked(self, record: GameRecord, channel: object, names: tuple[str, ...]
                            ) -> str:
        """Tell the players what the bot lacks: in the channel when a text still goes through
        there, else by DM to each who accepts them.  Returns where they were told."""
        lang = self._lang(record)
        if isinstance(channel, discord.abc.Messageable) and can_post(channel, names):
            text = self.catalog.t(lang, "notify.blocked_channel", game=record.id,
                                  perms=permission_names(names, lang, self.catalog))
            try:
                await channel.send(fit(text, CONTENT))
                return "in the channel"
            except discord.HTTPException as exc:
                log.info("game %s: the channel refused the notice too (%s)", record.id, exc.code)
        users = [s.user_id for s in record.seats if s.user_id is not None]
        told = []
        for user_id, prefs in (await self.storage.settings.users(users)).items():
            if not prefs.dm_notifications or prefs.dm_blocked:
                continue
            user_lang = prefs.language or lang
            text = self.catalog.t(user_lang, "notify.blocked_dm", game=record.id,
                                  where=self.notifier.where(record),
                                  perms=permission_names(names, user_lang, self.catalog))
            if await self.notifier.dm(user_id, text):
                told.append(user_id)
        return f"by DM ({len(told)} of {len(users)})"

    async def retry_blocked(self) -> int:
        """Publish again each game whose channel refused us, unless the bot's permissions there
        (as the gateway reports them) still lack something.  Returns how many went through."""
        done = 0
        for game_id, blocked in list(self.blocked.items()):
            channel = self.client.get_channel(blocked.channel_id)
            perms = bot_permissions(channel)
            if perms is not None and missing(perms, needed(channel)):
                continue
            if self.resume is None:
                return done
            try:
                published = await self.resume(game_id)
            except PostingBlocked:
                continue
            except Exception:
                log.warning("game %s: could not publish again", game_id, exc_info=True)
                continue
            if published is None:  # nothing left to show (finished, abandoned, caught up)
                self.blocked.pop(game_id, None)
            done += game_id not in self.blocked
        return done

    # --- notifications ----------------------------------------------------------------------

    async def notify_turn(self, update: TableUpdate) -> None:
        """DM whoever is newly asked to decide (:mod:`bot.notify`); close the clock votes whose
        late player just played (:mod:`bot.clock`)."""
        record = update.record
        if self.clock_votes is not None:
            self.spawn(self.clock_votes.after_change(record), f"clock-{record.id}")
        self.spawn(self.notifier.retire(record), f"retire-{record.id}")
        ended = phase_rounds(update.events, int(update.view.get("round", 1)))
        if ended:
            table = record.messages.get(TABLE)
            link = channel_url(record.guild_id, record.channel_id, table) if (
                record.channel_id) else None
            self.spawn(self.notifier.follow_pings(record, ended, update.names, link),
                       f"follow-{record.id}")
        if not update.newly_waiting or update.view.get("prompt") is None:
            return
        kind = str(update.view["prompt"]["kind"])
        message_id = (await self.storage.games.get(record.id)).messages.get(TABLE)
        notice = self.notifier.notice(record, kind, update.newly_waiting, message_id)
        seats = {s.user_id: s.seat for s in record.seats if s.user_id is not None}

        def since(user: int, lang: str) -> list[str]:
            seat = seats.get(user)
            return [] if seat is None else recap(record, update.names, update.recent, seat,
                                                 lang, self.notifier.catalog)

        notice = dataclasses.replace(notice, recap=since)
        self.spawn(self.notifier.turn(notice, update.newly_waiting), f"notify-{record.id}")
        asked = [s.seat for s in record.seats if s.user_id in update.newly_waiting]
        if len(asked) == 1 and len(record.to_act) == 1:  # one person now, maybe one next
            self.spawn(self.notifier.heads_up(record, asked[0], update.names, notice.what),
                       f"heads-up-{record.id}")

    def spawn(self, coro: Coroutine[Any, Any, Any], name: str) -> asyncio.Task[Any]:
        task = asyncio.create_task(coro, name=name)
        self._tasks.add(task)
        task.add_done_callback(self._done)
        return task

    def _done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if task.cancelled() or (exc := task.exception()) is None:
            return
        if isinstance(exc, DatabaseUnavailable):  # the outage is said once (bot/outage.py)
            log.warning("background task %s: the database does not answer", task.get_name())
        else:
            log.error("background task %s failed", task.get_name(), exc_info=exc)

    async def drain(self, timeout: float = 5.0) -> None:
        """Wait for the pending notifications (at shutdown and in tests)."""
        if self._tasks:
            await asyncio.wait(set(self._tasks), timeout=timeout)

    async def close(self) -> None:
        await self.drain()
        for task in list(self._tasks):
            task.cancel()


def phase_rounds(events: Sequence[Event], now: int) -> list[tuple[Event, int]]:
    """The ``PhaseEnded`` events of a change, each with its round: the round a later
    ``RoundEnded`` of the same change closed, else ``now`` (the view's)."""
    out: list[tuple[Event, int]] = []
    for index, event in enumerate(events):
        if event.type != "PhaseEnded":
            continue
        closing = next((e for e in events[index + 1:] if e.type == "RoundEnded"), None)
        out.append((event, int(closing.data.get("round", now)) if closing else now))
    return out
