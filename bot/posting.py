"""The game's messages: the one table message in its channel, edited after every action; the
story of the game, the board at the end of every role phase, in a thread of its own; the final
standings.

* The table message is posted once and edited after each change (its id is stored with the
  game, so this survives restarts; a deleted one is posted again).  Turn notifications link to
  it, and it carries the role buttons, **My turn**, **Undo** and **Log**.  It stays in the
  channel: that is where people look for whose turn it is.
* The story goes to **one thread per game**, started from the table message ("Game #12 ·
  story") the first time a role phase ends.  Each story post shows the board at the end of
  each phase it tells (several phases ended by one automatic run share one post), that
  phase's log lines, a **My turn** button and a link up to the table.  Several games can share
  a channel: each adds one table message to it, and its 60-odd story posts go to its thread.
  A thread that Discord archived for inactivity comes back with the next post.
* Where the bot may not start that thread (the channel is itself a thread, or a voice
  channel's chat; Create Public Threads or Send Messages in Threads is missing; Discord refuses
  it), the story is told in the channel instead, **one post per round**: the round's phases,
  each with its title and log lines, and the board at the end of the round.  The live table
  shows every phase's board as it happens; the channel keeps about one post per round.
  Why this design: ``docs/channel-design.md``.
* Every story post is remembered by the phases it tells (``story@<seq>`` in the thread,
  ``round@<seq>`` in the channel: the action that ended the phase): a phase already told is
  not told again when a game is published again after a failure, and the post of a phase
  that an undo took back is deleted (the phase is told again when it ends again).
* At the end, the table shows the final board and standings, and a last post brings the score
  sheet with the breakdown and the tie-break: in the channel, and in the story thread too.

Called by :meth:`bot.publisher.DiscordPublisher.publish_table` under the game's lock, so two
updates of one game never interleave.  The table edit comes first: it is what players wait for.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Sequence
from typing import Any, Literal

import discord

from engine.core import Event
from storage import CHANNEL_GONE_KIND, STORY_THREAD_KIND, ActionRecord, GameRecord, Storage

from .changes import PhaseEnd, TableUpdate
from .errors import ChannelGone
from .gamelog import OPENERS, chose_role, phase_actions, phase_end_points
from .i18n import CATALOG, Catalog
from .limits import fit
from .permissions import STORY_THREAD, bot_permissions, missing
from .table import TableMessages

log = logging.getLogger(__name__)

TABLE = "table"
FINAL = "final"
"""The score sheet posted when the game ended (``/game status`` and ``/game games`` link to it)."""
THREAD = STORY_THREAD_KIND
"""The game's story thread (its id is the table message's it was started from)."""
IN_THREAD = "story@"
"""``story@<seq>``: the story post in the thread telling the phase ended by the action ``seq``."""
IN_CHANNEL = "round@"
"""``round@<seq>``: the round's post in the channel (no thread), for the round's last phase."""
THREAD_NAME = 100
"""Discord's limit for a thread's name."""
ARCHIVE_MINUTES: Literal[10080] = 10080
"""How long the thread stays in the channel's list after its last post (a week: games are
slow).  An archived thread comes back with the next post."""
NO_THREAD_HERE = 50024
"""Discord's "Cannot execute action on this channel type"."""
THREAD_EXISTS = 160004
"""Discord's "A thread has already been created for this message"."""
UNKNOWN_CHANNEL = 10003
"""Discord's "Unknown Channel": the channel was deleted."""


def jump_url(guild_id: int | None, channel_id: int, message_id: int) -> str:
    return f"https://discord.com/channels/{guild_id or '@me'}/{channel_id}/{message_id}"

EDITABLE = (discord.TextChannel, discord.Thread, discord.VoiceChannel, discord.DMChannel)


def closes_round(action: ActionRecord) -> bool:
    """Whether ``action`` ended a round (its last role phase ended with it)."""
    return any(e.get("type") == "RoundEnded" for e in action.events)


def told_seqs(record: GameRecord) -> set[int]:
    """The phases (by the ``seq`` of the action that ended them) whose story was posted."""
    return {int(k.split("@", 1)[1]) for k in record.messages
            if k.startswith((IN_THREAD, IN_CHANNEL))}


def round_phases(log_all: Sequence[ActionRecord], last: PhaseEnd,
                 openers: Sequence[str] = OPENERS) -> tuple[list[PhaseEnd], list[ActionRecord]]:
    """The phases of the round that ``last`` closed (titles only: no board) and the round's
    actions, from the log (the actions that count); ``openers``: the events opening a phase."""
    at = next(i for i, a in enumerate(log_all) if a.seq == last.seq)
    begin = at
    while begin > 0 and not closes_round(log_all[begin - 1]):
        begin -= 1
    actions = list(log_all[begin : at + 1])
    phases = []
    for index, part in phase_end_points(actions):
        action = actions[index]
        end = [Event.from_json(e) for e in action.events if e.get("type") == "PhaseEnded"][part]
        start = phase_actions(actions, index, ended=True, part=part, openers=openers)[0]
        phases.append(last if (action.seq, part) == (last.seq, last.part) else PhaseEnd(
            action.seq, str(end.data.get("role", "")), end.seat, last.round, {}, (), None,
            start.seq if chose_role(start, openers) else None, part))
    return phases, actions


class TablePoster:
    def __init__(self, client: discord.Client, storage: Storage, catalog: Catalog = CATALOG
                 ) -> None:
        self.client = client
        self.storage = storage
        self.catalog = catalog

    async def channel(self, channel_id: int) -> discord.abc.Messageable | None:
        """The channel, from the cache or asked of Discord; ``None`` when it is no channel we
        can post in.  A deleted one (404 10003) raises :class:`discord.NotFound` (the
        publisher marks its game); another failure to fetch it raises as it is."""
        channel = self.client.get_channel(channel_id)
        if channel is None:
            channel = await self.client.fetch_channel(channel_id)
        return channel if isinstance(channel, discord.abc.Messageable) else None

    def messages(self, update: TableUpdate) -> TableMessages:
        record = update.record
        return TableMessages(record, update.names, record.language or self.catalog.default)

    async def publish(self, update: TableUpdate) -> None:
        """The table of ``update``, then the story of the phases it ended and at the end the
        standings.  The game's messages are read once, as the game's earlier publications
        left them (a change may have been read before a slow one ended); this one's own are
        added as it posts."""
        record = update.record
        if record.channel_id is None:
            return
        stored = await self.storage.games.get(record.id)
        marks = stored.messages
        if CHANNEL_GONE_KIND in marks:  # deleted: nothing is posted until /game move
            raise ChannelGone(record.id, record.channel_id)
        channel = await self.channel(record.channel_id)
        if channel is None:
            return
        draw = self.messages(update)
        layout, files = draw.table(update)
        table_id = marks.get(TABLE)
        if table_id is None or not await self._edit(channel, table_id, view=layout,
                                                    attachments=files):
            message = await channel.send(view=layout, files=files)
            table_id = message.id
            await self.storage.games.set_message(record.id, TABLE, message.id,
                                                 channel_id=record.channel_id)
        link = jump_url(record.guild_id, record.channel_id, table_id)
        stored = dataclasses.replace(stored, messages={**marks, TABLE: table_id})
        await self._forget_undone(stored, update.recent)
        over = bool(update.view.get("game_over"))
        phases = await update.ended_phases()
        told = told_seqs(stored)
        phases = tuple(p for p in phases if p.seq not in told)
        if phases:
            await self.tell(channel, stored, draw, update, phases, table_id, link, over=over)
        if over:
            final, final_files = draw.final(update, link)
            first = FINAL not in (await self.storage.games.get(record.id)).messages
            message = await channel.send(view=final, files=final_files)
            await self.storage.games.set_message(record.id, FINAL, message.id,
                                                 channel_id=record.channel_id)
            thread_id = (await self.storage.games.get(record.id)).messages.get(THREAD)
            if first and thread_id is not None:  # the story ends with the standings too
                again, again_files = draw.final(update, link)
                await self._post_in_thread(record, thread_id, view=again, files=again_files)
            notifier = getattr(self.client, "notifier", None)
            if first and notifier is not None:  # the standings by DM, once per game
                await notifier.final_standings(
                    await self.storage.games.get(record.id), update.names,
                    jump_url(record.guild_id, record.channel_id, message.id))

    # --- the story --------------------------------------------------------------------------

    async def tell(self, channel: discord.abc.Messageable, record: GameRecord,
                   draw: TableMessages, update: TableUpdate, phases: Sequence[PhaseEnd],
                   table_id: int, link: str, *, over: bool) -> None:
        """The story of ``phases``: one post in the game's thread, else (no thread possible
        here) the post of each round they close, in the channel.  A thread started in the
        middle of a round (the channel was keeping the round for its end) also tells the
        round's earlier phases, in words."""
        for _ in range(2):  # a thread deleted meanwhile: another one
            started = THREAD not in record.messages
            thread_id = await self.thread(channel, record, draw, table_id)
            if thread_id is None:
                break
            told: Sequence[PhaseEnd] = phases
            actions: Sequence[ActionRecord] = update.recent
            if started:
                actions = await self.storage.games.actions(record.id)
                earlier, _ = round_phases(actions, phases[0], draw.presenter.phase_openers)
                done = told_seqs(record)
                told = [*(p for p in earlier[:-1] if p.seq not in done), *phases]
            story, files = draw.story(told, actions, link, over=over)
            message = await self._post_in_thread(record, thread_id, view=story, files=files)
            if message is not None:
                for phase in told:
                    await self.storage.games.set_message(
                        record.id, f"{IN_THREAD}{phase.seq}", message.id, channel_id=thread_id)
                return
            record = await self.storage.games.get(record.id)
            if THREAD in record.messages:
                break  # refused there: the channel tells it
        log_all = await self.storage.games.actions(record.id)
        ends = {a.seq for a in log_all if closes_round(a)}
        closing = [p for p in phases if p.seq in ends  # an action ending two: its last
                   and not any(q.seq == p.seq and q.part > p.part for q in phases)]
        for last in closing:  # the others are told when their round ends
            in_round, actions = round_phases(log_all, last, draw.presenter.phase_openers)
            layout, files = draw.round_story(in_round, actions, link, over=over)
            message = await channel.send(view=layout, files=files)
            await self.storage.games.set_message(record.id, f"{IN_CHANNEL}{last.seq}",
                                                 message.id, channel_id=record.channel_id)

    async def thread(self, channel: discord.abc.Messageable, record: GameRecord,
                     draw: TableMessages, table_id: int) -> int | None:
        """The id of the game's story thread: the one started before, else a new one from the
        table message; ``None`` when the story cannot have a thread here."""
        if not isinstance(channel, discord.TextChannel):
            return None  # a thread, a voice channel's chat, a DM: no thread in there
        stored = record.messages.get(THREAD)
        perms = bot_permissions(channel)
        wanted = STORY_THREAD if stored is None else ("send_messages_in_threads",)
        if perms is not None and missing(perms, wanted):
            log.info("game %s: no story thread in channel %s (missing %s); the story goes to "
                     "the channel, a post per round", record.id, channel.id,
                     ", ".join(missing(perms, wanted)))
            return None
        if stored is not None:
            return stored
        name = fit(draw.t("story.thread", game=record.id), THREAD_NAME)
        try:
            thread = await channel.get_partial_message(table_id).create_thread(
                name=name, auto_archive_duration=ARCHIVE_MINUTES)
            thread_id = thread.id
        except discord.HTTPException as exc:
            if exc.code != THREAD_EXISTS:
                log.info("game %s: could not start the story thread (%s %s); the story goes "
                         "to the channel, a post per round", record.id, exc.status, exc.code)
                return None
            thread_id = table_id  # started before: a thread shares its first message's id
        await self.storage.games.set_message(record.id, THREAD, thread_id, channel_id=thread_id)
        return thread_id

    async def _post_in_thread(self, record: GameRecord, thread_id: int, **fields: Any
                              ) -> discord.Message | None:
        """Post in the game's thread; ``None`` when Discord refuses (the thread was deleted:
        it is forgotten, and the next story starts another; no permission there)."""
        thread = self.client.get_partial_messageable(
            thread_id, guild_id=record.guild_id, type=discord.ChannelType.public_thread)
        try:
            return await thread.send(**fields)
        except discord.NotFound:
            log.info("game %s: the story thread %s is gone", record.id, thread_id)
            await self.storage.games.clear_message(record.id, THREAD)
        except discord.Forbidden as exc:
            log.info("game %s: cannot post in the story thread %s (%s); the story goes to the "
                     "channel, a post per round", record.id, thread_id, exc.code)
        return None

    async def _forget_undone(self, record: GameRecord, recent: Sequence[ActionRecord]) -> None:
        """Delete the story posts of the phases an undo took back (their phase ended again is
        told again, so no phase is told twice)."""
        if not recent:
            return
        counted = {a.seq for a in recent}
        taken_back: dict[int, tuple[int, int, list[str]]] = {}
        for kind, message_id in record.messages.items():
            if not kind.startswith((IN_THREAD, IN_CHANNEL)):
                continue
            seq = int(kind.split("@", 1)[1])
            if seq < recent[0].seq or seq in counted:
                continue
            where = record.messages.get(THREAD) if kind.startswith(IN_THREAD) else (
                record.channel_id)
            _, _, kinds = taken_back.setdefault(message_id, (where or 0, message_id, []))
            kinds.append(kind)
        for where, message_id, kinds in taken_back.values():
            if where:
                try:
                    await self.client.get_partial_messageable(where).get_partial_message(
                        message_id).delete()
                except discord.NotFound:
                    pass
                except discord.HTTPException as exc:
                    log.info("game %s: could not delete the story post %s of a phase taken "
                             "back (%s)", record.id, message_id, exc.code)
            for kind in kinds:
                await self.storage.games.clear_message(record.id, kind)

    # --- the end ----------------------------------------------------------------------------

    async def close(self, record: GameRecord, names: dict[int, str]) -> None:
        """The table of an abandoned game: no buttons left, a line saying so."""
        table_id = record.messages.get(TABLE)
        if record.channel_id is None or table_id is None or CHANNEL_GONE_KIND in record.messages:
            return
        draw = TableMessages(record, names, record.language or self.catalog.default)
        try:
            channel = await self.channel(record.channel_id)
            if channel is not None:
                await self._edit(channel, table_id, view=draw.closed(), attachments=[])
        except discord.NotFound as exc:  # the channel was deleted: nothing left to close
            log.info("game %s: no table to close in channel %s (%s)", record.id,
                     record.channel_id, exc.code)

    async def _edit(self, channel: discord.abc.Messageable, message_id: int, **fields: Any
                    ) -> bool:
        """Edit a message of ours (a table drawn as an embed by an older version becomes a
        layout); ``False`` when it was deleted."""
        if not isinstance(channel, EDITABLE):
            return False
        try:
            await channel.get_partial_message(message_id).edit(content=None, embed=None,
                                                               **fields)
        except discord.NotFound as exc:
            if exc.code == UNKNOWN_CHANNEL:  # the whole channel: the publisher's business
                raise
            log.info("table message %s was deleted; posting it again", message_id)
            return False
        return True
