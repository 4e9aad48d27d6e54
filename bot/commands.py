"""The slash commands' work: each game's decisions (``/pr build``, ``/sj build``...: its
presenter's :data:`~bot.games.GamePresenter.decisions`) with autocomplete listing exactly the
caller's legal choices now, and the questions every game shares (``/game board``, ``status``,
``log``, ``games``, ``rules``, ``undo``, ``leave``).

A command acts on the game of the channel it is typed in.  The option's value is an action code
(what autocomplete fills in); a typed name is matched against the caller's legal choices, so
``/pr build building:harbor`` works too.  A command means "now": it is submitted without a
version check, and the engine decides legality as always.  Replies are private, in the user's
Discord language; after a move the reply is the player's panel as it stands.
"""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Sequence
from typing import Any

import discord
from discord import app_commands

from engine.core import IllegalAction, InvalidAction, get_game
from storage import CHANNEL_GONE_KIND, Favourite, GameNotFound, GameRecord, GameStatus

from .components import TableButton, lobby_level
from .errors import UserError, send_ephemeral, send_error
from .games import PACKAGES, Decision, GamePresenter, presenter_for
from .games.contract import Panel, Situation
from .help import GROUP, find_topic, games_text, help_text, topic_choices
from .hints import hint_text
from .i18n import CATALOG, Catalog
from .limits import CONTENT, UPLOAD, UPLOAD_MARGIN, clip, fit
from .lobby import DEFAULT_LEVEL
from .play import PlayFlow
from .posting import FINAL, jump_url
from .refusals import situate
from .seatnames import escape_name
from .service import GameService
from .table import TableMessages, signed, small, timestamp
from .turns import last_person
from .words import Words

log = logging.getLogger(__name__)

CHOICES = 25
LEADERBOARD_PAGE = 15
TEXT_LIMIT = 1900


def command_id(interaction: discord.Interaction[Any]) -> int | None:
    """The id of the slash command being run (``/pr``): mentions of its subcommands are then
    clickable."""
    data: Any = interaction.data or {}
    value = data.get("id") if isinstance(data, dict) else None
    return int(value) if isinstance(value, str | int) and str(value).isdigit() else None


class CommandFlow:
    def __init__(self, service: GameService, play: PlayFlow, catalog: Catalog = CATALOG
                 ) -> None:
        self.service = service
        self.storage = service.storage
        self.play = play
        self.turns = play.turns
        self.catalog = catalog

    def lang(self, interaction: discord.Interaction[Any]) -> str:
        return self.catalog.language_of(interaction.locale)

    async def channel_game(self, interaction: discord.Interaction[Any]) -> GameRecord:
        record = await self.storage.games.find_by_channel(interaction.channel_id or 0)
        if record is None:
            raise UserError("err.no_game_here")
        return record

    async def channel_latest(self, interaction: discord.Interaction[Any]) -> GameRecord | None:
        """The game a question about the channel means: its open game (or its story thread's),
        else the one that ended there last.  The one lookup of ``/game status``, ``log show``,
        ``log replay|export``, ``rules`` and ``leaderboard``: a finished game stays the
        channel's game until another one opens there."""
        return await self.storage.games.latest_in_channel(interaction.channel_id or 0)

    async def channel_history(self, interaction: discord.Interaction[Any]) -> GameRecord:
        """:meth:`channel_latest`, which must exist."""
        record = await self.channel_latest(interaction)
        if record is None:
            raise UserError("err.no_game_here")
        return record

    # --- decisions --------------------------------------------------------------------------

    async def game_of(self, interaction: discord.Interaction[Any], game: str
                      ) -> tuple[GameRecord, GamePresenter]:
        """The channel's game, which must be ``game`` (the group of the command typed)."""
        record = await self.channel_game(interaction)
        if record.game != game:
            lang = self.lang(interaction)
            other = presenter_for(record.game)
            raise UserError("err.other_game", game=record.id, title=other.title(lang),
                            group=other.catalog.t(lang, f"cmd.{other.command}.name"))
        return record, presenter_for(game)

    @staticmethod
    def decision(presenter: GamePresenter, kind: str) -> Decision:
        return next(d for d in presenter.decisions if d.name == kind)

    async def decide(self, interaction: discord.Interaction[Any], game: str, kind: str,
                     value: str) -> None:
        """``/<game> <kind> <value>``: the caller's decision of that kind, now."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            record, presenter = await self.game_of(interaction, game)
            decision = self.decision(presenter, kind)
            panel = await self.turns.panel(record.id, interaction.user.id, render=False)
            codes = [c for c in panel.legal if decision.matches(c)]
            words = presenter.words(panel.view, self.lang(interaction), extras=panel.extras,
                                    kind=panel.kind)
            code = self.resolve(value, codes, words) or self.named_code(
                presenter, decision, value, words)
            if code is None:
                raise self.refusal(record, presenter, decision, value, panel, codes, words)
            # a code that is not legal now is refused by the engine, which says why
            result = await self.service.submit(record.id, interaction.user.id, None, code)
            note = self.play.late_line(interaction, record.id) if result.update.late else None
            await self.play.send_panel(interaction, record.id, note=note, moved=True)
        except Exception as exc:
            await send_error(interaction, exc, where=f"/{game} {kind}")

    @staticmethod
    def resolve(value: str, codes: list[str], words: Words) -> str | None:
        """The legal code ``value`` names: the code itself, or a label typed by hand."""
        if value in codes:
            return value
        wanted = value.strip().casefold()
        if not wanted and len(codes) == 1:
            return codes[0]
        for code in codes:
            if wanted in (words.label(code).casefold(), code.split(".", 1)[-1]):
                return code
        matches = [c for c in codes if wanted and wanted in words.choice_name(c).casefold()]
        return matches[0] if len(matches) == 1 else None

    @staticmethod
    def named_code(presenter: GamePresenter, decision: Decision, value: str, words: Words
                   ) -> str | None:
        """The action code of ``decision`` that ``value`` names (a code, or a role, tile, card
        or building named in the reader's language or by its id), legal now or not: a move that
        is not allowed now is refused by the engine with its reason."""
        wanted = value.strip().casefold()
        if not wanted:
            return None
        game = get_game(presenter.name)
        candidates = [wanted] + [f"{prefix}{ident}" for prefix in decision.prefixes
                                 for ident in presenter.names_for(words, wanted)]
        for code in candidates:
            if not decision.matches(code):
                continue
            try:
                return game.encode_action(game.decode_action(code))
            except InvalidAction:
                continue
        return None

    def refusal(self, record: GameRecord, presenter: GamePresenter, decision: Decision,
                value: str, panel: Panel, codes: list[str], words: Words) -> Exception:
        """Why ``value`` cannot be chosen: not this seat's turn, not this decision now, or
        not one of its choices (which are listed)."""
        situation = Situation(record.id, panel.seat, panel.view, panel.names, panel.legal,
                              decision.representative, record.game)
        if panel.kind is None:
            return situate(UserError("err.not_your_turn", game=record.id), situation)
        if not codes:
            return situate(IllegalAction("wrong_decision", action=decision.representative),
                           situation)
        # names only: a label's own " — costs 1 doubloon, 1 VP" would blur a list of names
        names = list(dict.fromkeys(words.label(c).split(" — ", 1)[0] for c in codes))
        return UserError("why.no_such_choice", choice=escape_name(clip(value, 60)),
                         choices=presenter.catalog.join(words.lang, names[:12], "or"))

    async def complete(self, interaction: discord.Interaction[Any], game: str, kind: str,
                       current: str) -> list[app_commands.Choice[str]]:
        """Autocomplete: exactly the caller's legal choices of that kind, now."""
        try:
            record, presenter = await self.game_of(interaction, game)
            panel = await self.turns.panel(record.id, interaction.user.id, render=False)
        except Exception as exc:  # autocomplete cannot show an error; it shows nothing
            log.info("autocomplete %s %s: %r", game, kind, exc)
            return []
        decision = self.decision(presenter, kind)
        words = presenter.words(panel.view, self.lang(interaction), extras=panel.extras,
                                kind=panel.kind)
        wanted = current.strip().casefold()
        out = []
        for code in panel.legal:
            if not decision.matches(code):
                continue
            name = words.choice_name(code)
            if wanted and wanted not in name.casefold() and wanted not in code:
                continue
            out.append(app_commands.Choice(name=name, value=code))
        return out[:CHOICES]

    # --- questions --------------------------------------------------------------------------

    async def board(self, interaction: discord.Interaction[Any]) -> None:
        """``/game board``: the current public board image, posted in the channel."""
        await interaction.response.defer(thinking=True)
        try:
            record = await self.channel_game(interaction)
            update = await self.service.table(record.id)
            draw = TableMessages(update.record, update.names,
                                 update.record.language or self.catalog.default)
            layout, files = draw.board(update)
            await interaction.followup.send(view=layout, files=files)
        except Exception as exc:
            await send_error(interaction, exc, where="/game board")

    async def status(self, interaction: discord.Interaction[Any]) -> None:
        """``/game status``: whose turn, since when; the result of the channel's game once it
        is over."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        lang = self.lang(interaction)
        try:
            if not interaction.is_guild_integration():  # the bot's DMs, any server: one's games
                await send_ephemeral(interaction, await self.games_text(interaction))
                return
            record = await self.channel_history(interaction)
            if record.status is GameStatus.FINISHED:  # the channel's game is over: its result
                await send_ephemeral(interaction, await self.result_line(record, lang))
                return
            if record.status is not GameStatus.ACTIVE:
                raise UserError("err.not_active", game=record.id, status=record.status)
            update = await self.service.table(record.id)
            draw = TableMessages(record, update.names, lang, now=self.service.storage.db.clock())
            lines = [draw.header(update.view)]
            for seat in record.seats:
                if seat.waiting_since is not None:
                    lines.append(self.catalog.t(lang, "reply.status_seat",
                                                name=update.names.get(seat.seat, "?"),
                                                since=timestamp(seat.waiting_since)))
            if record.last_action_at is not None:
                lines.append(self.catalog.t(lang, "reply.status_last",
                                            since=timestamp(record.last_action_at)))
            await send_ephemeral(interaction, "\n".join(lines)[:TEXT_LIMIT])
        except Exception as exc:
            await send_error(interaction, exc, where="/game status")

    async def result_line(self, record: GameRecord, lang: str) -> str:
        """"Game #12 is over (2 hours ago). Winner: alice. Final standings: <link>"."""
        final = record.messages.get(FINAL) or record.messages.get("table")
        link = jump_url(record.guild_id, record.channel_id, final) if (
            record.channel_id and final) else ""
        winners = self.catalog.join(lang, await self.turns.winners(record)) or "?"
        when = timestamp(record.finished_at or record.updated_at)
        return self.catalog.t(lang, "reply.result", game=record.id, when=when, winners=winners,
                              link=link)

    async def log(self, interaction: discord.Interaction[Any], lines: int) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        lang = self.lang(interaction)
        try:
            record = await self.channel_history(interaction)
            record, text = await self.turns.log_lines(record.id, lang, last=lines)
            body = "\n".join(text) or self.catalog.t(lang, "reply.log_empty")
            title = self.catalog.t(lang, "reply.log_title", game=record.id)
            await send_ephemeral(interaction, f"**{title}**\n{body[-TEXT_LIMIT:]}")
        except Exception as exc:
            await send_error(interaction, exc, where="/game log show")

    async def history_game(self, interaction: discord.Interaction[Any], game_id: int | None
                           ) -> GameRecord:
        """The game a ``/game log replay|export`` means: ``game_id`` (a game of this server),
        else the channel's game, or the one that ended there last."""
        if game_id is None:
            return await self.channel_history(interaction)
        try:
            record = await self.storage.games.get(game_id)
        except GameNotFound:
            raise UserError("err.history_unknown", game=game_id) from None
        if record.guild_id != interaction.guild_id:
            raise UserError("err.history_unknown", game=game_id)
        return record

    async def log_replay(self, interaction: discord.Interaction[Any], game_id: int | None
                         ) -> None:
        """``/game log replay [game]``: a finished game's time-lapse, the board at the end of
        every phase, posted in the channel.  What is refused is said privately, at once."""
        lang = self.lang(interaction)
        try:
            record = await self.history_game(interaction, game_id)
            if record.status.is_open:
                raise UserError("err.replay_not_over", game=record.id)
            if record.seed is None:  # abandoned in its lobby
                raise UserError("err.replay_empty", game=record.id)
        except Exception as exc:
            await send_error(interaction, exc, where="/game log replay")
            return
        await interaction.response.defer(thinking=True)
        try:
            guild = interaction.guild
            limit = min(UPLOAD, guild.filesize_limit if guild else UPLOAD) - UPLOAD_MARGIN
            clip = await self.service.timelapse(record.id, limit)
            name = f"game-{record.id}-replay.{clip.extension}"
            text = self.catalog.t(lang, "reply.replay", game=record.id,
                                  title=presenter_for(record.game).title(lang),
                                  frames=self.catalog.count(lang, "boards", clip.frames),
                                  seconds=round(clip.duration_ms / 1000))
            await interaction.followup.send(
                content=fit(text, CONTENT),
                file=discord.File(io.BytesIO(clip.data), filename=name))
        except Exception as exc:
            await send_error(interaction, exc, where="/game log replay")

    async def log_export(self, interaction: discord.Interaction[Any], game_id: int | None
                         ) -> None:
        """``/game log export [game]``: the game's replay file, privately."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        lang = self.lang(interaction)
        try:
            record = await self.history_game(interaction, game_id)
            record, data = await self.service.replay_file(record.id)
            key = "reply.export" if data["seed"] is not None else "reply.export_no_seed"
            text = self.catalog.t(lang, key, game=record.id,
                                  moves=self.catalog.count(lang, "moves", len(data["actions"])))
            body = json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()
            await interaction.followup.send(
                content=fit(text, CONTENT), ephemeral=True,
                file=discord.File(io.BytesIO(body), filename=f"game-{record.id}.json"))
        except Exception as exc:
            await send_error(interaction, exc, where="/game log export")

    async def games(self, interaction: discord.Interaction[Any]) -> None:
        """``/game games``: the caller's open games in every server, with links, and which of
        them wait on the caller."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            await send_ephemeral(interaction, await self.games_text(interaction))
        except Exception as exc:
            await send_error(interaction, exc, where="/game games")

    async def games_text(self, interaction: discord.Interaction[Any]) -> str:
        """What ``/game games`` answers (and ``/game status`` away from a table)."""
        lang = self.lang(interaction)
        t = self.catalog.t
        games, waiting = await self.turns.my_games(interaction.user.id)
        ended = await self.turns.finished(interaction.user.id)
        if not games and not ended:
            return t(lang, "reply.games_none")
        lines = [f"**{t(lang, 'reply.games_title')}**"] if games else []
        for record in games:
            guild = interaction.client.get_guild(record.guild_id) if record.guild_id else None
            where = escape_name(guild.name) if guild else "?"
            table = record.messages.get("table") or record.messages.get("lobby")
            link = jump_url(record.guild_id, record.channel_id, table) if (
                record.channel_id and table) else ""
            mine = record.seat_of(interaction.user.id)
            channel = f"<#{record.channel_id}>"
            if CHANNEL_GONE_KIND in record.messages:  # paused until moved (bot/moving.py)
                state, channel, link = t(lang, "reply.games_channel_gone"), "—", ""
            elif record.stand_in_of(interaction.user.id) is not None:
                state = t(lang, "reply.games_stood_in")
            elif record.id in waiting and mine is not None:
                state = t(lang, "reply.games_waiting_you",
                          since=timestamp(mine.waiting_since))
            elif record.status is GameStatus.LOBBY:
                state = t(lang, "reply.games_lobby")
            else:
                state = t(lang, "reply.games_waiting_others")
            lines.append(t(lang, "reply.games_line", game=record.id, server=where,
                           title=presenter_for(record.game).title(lang),
                           channel=channel, state=state, link=link))
        if ended:
            lines.append(f"**{t(lang, 'reply.games_finished_title')}**")
        for record in ended:
            guild = interaction.client.get_guild(record.guild_id) if record.guild_id else None
            final = record.messages.get(FINAL)
            link = jump_url(record.guild_id, record.channel_id, final) if (
                record.channel_id and final) else ""
            winners = self.catalog.join(lang, await self.turns.winners(record)) or "?"
            lines.append(t(lang, "reply.games_line", game=record.id,
                           title=presenter_for(record.game).title(lang),
                           server=escape_name(guild.name) if guild else "?",
                           channel=f"<#{record.channel_id}>", link=link,
                           state=t(lang, "reply.games_finished", winners=winners)))
        return "\n".join(lines)[:TEXT_LIMIT]

    async def channel_game_name(self, interaction: discord.Interaction[Any]) -> str | None:
        """The game (``san-juan``...) of :meth:`channel_latest`, if the channel has had one."""
        record = await self.channel_latest(interaction)
        return record.game if record is not None else None

    async def rules(self, interaction: discord.Interaction[Any], topic: str | None) -> None:
        """``/game rules [topic]``: a topic of any game (the channel's game first); how to
        play the channel's game without one, and where the channel has had no game, the games
        the bot offers (each with the topic that opens its rules)."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            lang = self.lang(interaction)
            first = await self.channel_game_name(interaction)
            presenter, found, named = find_topic(topic, lang, first=first)
            ids = {GROUP: gid} if (gid := command_id(interaction)) else {}
            if first is None and not (topic and named):  # no game here: every game
                text = games_text(lang, self.catalog, ids)
                if topic:
                    text = self.catalog.t(lang, "help.no_topic_games",
                                          topic=escape_name(clip(topic, 60))) + "\n" + text
                await send_ephemeral(interaction, text[:TEXT_LIMIT])
                return
            text = help_text(presenter, found, lang, ids)
            if topic and not named:
                typed = escape_name(clip(topic, 60))
                text = presenter.catalog.t(lang, "help.no_topic", topic=typed) + "\n" + text
            await send_ephemeral(interaction, text[:TEXT_LIMIT])
        except Exception as exc:
            await send_error(interaction, exc, where="/game rules")

    async def rules_topics(self, interaction: discord.Interaction[Any], current: str
                           ) -> list[app_commands.Choice[str]]:
        """Topics matching what is typed, grouped, the channel's game first; the first of
        every group when nothing is typed (there are more topics than the 25 choices Discord
        shows)."""
        first = await self.channel_game_name(interaction)
        return [app_commands.Choice(name=clip(name, 100), value=value)
                for name, value in topic_choices(current, self.lang(interaction), first=first,
                                                 limit=CHOICES)]

    async def abandon(self, interaction: discord.Interaction[Any]) -> None:
        """``/game abandon`` (the lobby flow decides and replies); a running game's table then
        loses its buttons."""
        before = await self.storage.games.find_by_channel(interaction.channel_id or 0)
        lobby = getattr(interaction.client, "lobby", None)
        publisher = getattr(interaction.client, "publisher", None)
        if lobby is None:
            return
        await lobby.abandon(interaction)
        if before is None or before.status is not GameStatus.ACTIVE or publisher is None:
            return
        try:
            after = await self.storage.games.get(before.id)
            if after.status is GameStatus.ABANDONED:
                await publisher.close_game(after, await self.turns.names(after))
        except Exception:
            log.warning("game %s: the abandoned table could not be closed", before.id,
                        exc_info=True)

    async def hint(self, interaction: discord.Interaction[Any]) -> None:
        """``/game hint``: the strong AI's three best choices for the reader's decision, each
        with how often it wins and why, privately (a table with hints on)."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            record = await self.channel_game(interaction)
            hint = await self.turns.hint(record.id, interaction.user.id)
            await send_ephemeral(interaction, hint_text(hint, self.lang(interaction))[
                :TEXT_LIMIT])
        except Exception as exc:
            await send_error(interaction, exc, where="/game hint")

    async def leaderboard(self, interaction: discord.Interaction[Any], game: str | None,
                          page: int) -> None:
        """``/game leaderboard [game] [page]``: this server's ratings in a game (the game of
        the channel's open or last game, :meth:`channel_latest`; else the first game, Puerto
        Rico), ``LEADERBOARD_PAGE`` people a page, privately."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        lang = self.lang(interaction)
        try:
            name = game or await self.channel_game_name(interaction) or next(iter(PACKAGES))
            await send_ephemeral(interaction, await self.leaderboard_text(
                interaction.guild_id, name, page, interaction.user.id, lang))
        except Exception as exc:
            await send_error(interaction, exc, where="/game leaderboard")

    async def leaderboard_text(self, guild_id: int | None, game: str, page: int,
                               reader: int, lang: str) -> str:
        t = self.catalog.t
        title = presenter_for(game).title(lang)
        rows, total = await self.storage.ratings.leaderboard(
            guild_id, game, offset=(page - 1) * LEADERBOARD_PAGE, limit=LEADERBOARD_PAGE)
        if not total:
            return t(lang, "reply.leaderboard_empty", game=title)
        pages = -(-total // LEADERBOARD_PAGE)
        if page > pages:
            raise UserError("err.leaderboard_page", page=page, pages=pages)
        lines = [f"**{t(lang, 'reply.leaderboard_title', game=title)}** · "
                 + t(lang, "reply.leaderboard_page", page=page, pages=pages,
                     people=self.catalog.count(lang, "people", total))]
        for row in rows:
            line = t(lang, "reply.leaderboard_line", position=row.position,
                     name=f"<@{row.user_id}>", points=row.points,
                     games=self.catalog.count(lang, "rated_games", row.games))
            lines.append(f"**{line}**" if row.user_id == reader else line)
        lines.append(small([t(lang, "reply.leaderboard_note")]))
        return "\n".join(lines)[:TEXT_LIMIT]

    async def stats(self, interaction: discord.Interaction[Any], player: int | None,
                    game: str | None) -> None:
        """``/game stats [player] [game]``: a person's finished games in this server (every
        game, or one), privately."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        lang = self.lang(interaction)
        try:
            await send_ephemeral(interaction, await self.stats_text(
                interaction.guild_id, player or interaction.user.id, game, lang))
        except Exception as exc:
            await send_error(interaction, exc, where="/game stats")

    async def stats_text(self, guild_id: int | None, user_id: int, game: str | None,
                         lang: str) -> str:
        t, count = self.catalog.t, self.catalog.count
        who = f"<@{user_id}>"
        title = presenter_for(game).title(lang) if game else t(lang, "reply.stats_every_game")
        stats = await self.storage.games.user_stats(user_id, game=game, guild_id=guild_id)
        lines = [f"**{t(lang, 'reply.stats_title', name=who, game=title)}**"]
        if not stats.finished:
            lines.append(t(lang, "reply.stats_none"))
        else:
            lines.append(t(lang, "reply.stats_games", games=count(lang, "finished_games",
                                                                  stats.finished),
                           wins=count(lang, "wins", stats.wins),
                           share=round(100 * stats.wins / stats.finished)))
            decimal = self.catalog.decimal
            lines.append(t(lang, "reply.stats_scores", average=decimal(lang, stats.average or 0),
                           best=stats.best or 0, place=decimal(lang, stats.average_place or 0)))
            if stats.longest and stats.fastest:
                # a game's length from its start to its end, to the minute (milliseconds stored)
                span = self.catalog.duration
                lines.append(t(lang, "reply.stats_spans",
                               longest=stats.longest[0], long=span(lang, stats.longest[1] / 1000),
                               fastest=stats.fastest[0],
                               fast=span(lang, stats.fastest[1] / 1000)))
            lines += self.favourite_lines(stats.favourites, lang)
        pace = stats.pace
        if pace is not None:  # every game of theirs, finished or not
            median = "—" if pace.median_ms is None else self.catalog.duration(
                lang, pace.median_ms / 1000)
            lines.append(t(lang, "reply.stats_pace", median=median, moves=pace.moves,
                           timeouts=pace.timeouts))
        for name in [game] if game else list(PACKAGES):
            rating = await self.storage.ratings.rating(guild_id, name, user_id)
            if rating is None:
                continue
            trend = await self.storage.ratings.history(guild_id, name, user_id, limit=5)
            line = t(lang, "reply.stats_rating", game=presenter_for(name).title(lang),
                     points=rating.points, position=rating.position,
                     games=count(lang, "rated_games", rating.games))
            if trend:
                line += " · " + t(lang, "reply.stats_trend", changes=", ".join(
                    signed(c.delta) for c in reversed(trend)))
            lines.append(line)
        return "\n".join(lines)[:TEXT_LIMIT]

    def favourite_lines(self, favourites: Sequence[Favourite], lang: str) -> list[str]:
        """"Favourite roles: Builder ×12, ..." and the buildings; each names its game when
        they come from more than one."""
        several = len({f.game for f in favourites}) > 1
        lines = []
        for kind in ("role", "building"):
            items = []
            for f in (f for f in favourites if f.kind == kind):
                presenter = presenter_for(f.game)
                item = self.catalog.t(lang, "reply.stats_favourite",
                                      name=presenter.choice_name(kind, f.name, lang),
                                      count=f.count)
                items.append(f"{item} ({presenter.title(lang)})" if several else item)
            if items:
                lines.append(self.catalog.t(lang, f"reply.stats_{kind}s",
                                            items=", ".join(items)))
        return lines

    async def undo(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            record = await self.channel_game(interaction)
            await self.turns.undo(record.id, interaction.user.id, None)
            await self.play.send_panel(interaction, record.id, note_key="reply.undone")
        except Exception as exc:
            await send_error(interaction, exc, where="/game undo")

    async def leave(self, interaction: discord.Interaction[Any]) -> None:
        """``/game leave``: a lobby seat is freed at once; a running game's seat goes to an AI
        after a confirmation click, or the game ends without a result when nobody else is
        seated (the confirmation says which)."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        lang = self.lang(interaction)
        try:
            record = await self.channel_game(interaction)
            if record.status is GameStatus.LOBBY:
                record = await self.service.leave(record.id, interaction.user.id)
                await self.redraw_lobby(interaction, record)
                await send_ephemeral(interaction, self.catalog.t(lang, "reply.left_lobby",
                                                                 game=record.id))
                return
            record = await self.turns.check_seated(record.id, interaction.user.id)
            view = discord.ui.View(timeout=None)
            view.add_item(TableButton(record.id, record.version, "leave",
                                      label=self.catalog.t(lang, "button.leave_game"),
                                      style=discord.ButtonStyle.danger))
            # the last person's leaving ends the game: no AI plays on (``TurnService.leave``)
            key = ("reply.leave_confirm_last" if last_person(record, interaction.user.id)
                   else "reply.leave_confirm")
            await interaction.followup.send(
                self.catalog.t(lang, key, game=record.id), view=view, ephemeral=True)
        except Exception as exc:
            await send_error(interaction, exc, where="/game leave")

    @staticmethod
    async def redraw_lobby(interaction: discord.Interaction[Any], record: GameRecord) -> None:
        """Best effort: the lobby message shows the seat freed by ``/game leave``."""
        lobby = getattr(interaction.client, "lobby", None)
        channel = interaction.channel
        message_id = record.messages.get("lobby")
        if lobby is None or message_id is None or not isinstance(
                channel, discord.TextChannel | discord.Thread):
            return
        try:
            message = await channel.fetch_message(message_id)
            level = lobby_level(message, DEFAULT_LEVEL)
            await message.edit(**await lobby.lobby_message(record, level))
        except discord.HTTPException:
            log.info("game %s: the lobby message could not be redrawn", record.id)

