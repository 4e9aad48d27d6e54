"""What a game's messages look like: the lobby and the table, in the game's language (its
words: its presenter's catalog).

Pure functions of records and views (no Discord calls, no state): ``lobby_embed`` and
``table_embed`` build ``discord.Embed`` values; the components come from :mod:`bot.components`.
The table embed always carries a structured text summary of the public view, with the board
image when the renderer produced one (the text also serves screen readers and the text-only
fallback).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import discord

from storage import GameRecord, Storage

from .banks import describe, describe_quiet
from .games import presenter_for
from .games.contract import GamePresenter
from .i18n import CATALOG, Catalog
from .limits import fit_embed
from .seatnames import occupant_name
from .seats import takeover_level

GAME_COLOUR = discord.Colour(0x2E7D32)
CLOSED_COLOUR = discord.Colour(0x757575)
FIELD_LIMIT = 1024
INLINE = 60  # a short field sits beside the next one


def ai_level_name(level: str, lang: str, catalog: Catalog = CATALOG) -> str:
    key = f"level.{level}"
    return catalog.t(lang, key) if catalog.has(key) else level


def seat_names(record: GameRecord, lang: str, catalog: Catalog = CATALOG,
               people: Mapping[int, str] | None = None) -> dict[int, str]:
    """Display names by seat: ``people`` (user id -> name) for humans, "AI 2 (normal)" for AI
    seats, "AI for bob" for an AI standing in for a person out of time, a mention when a
    person's name is unknown."""
    known = people or {}
    return {seat.seat: (occupant_name(seat.user_id, seat.ai_policy, seat.seat, lang, catalog,
                                      known)
                        if seat.stand_in_for is None else
                        catalog.t(lang, "table.stand_in_name",
                                  name=known.get(seat.stand_in_for) or f"<@{seat.stand_in_for}>"))
            for seat in record.seats}


# --- the lobby -----------------------------------------------------------------------------------


async def move_paces(storage: Storage, record: GameRecord) -> dict[int, int]:
    """By seated person, their median time to move in the lobby's server (issue #35), for
    those with timed moves."""
    out = {}
    for user in record.user_ids:
        pace = await storage.games.move_pace(user, guild_id=record.guild_id)
        if pace is not None and pace.median_ms is not None:
            out[user] = pace.median_ms
    return out


def lobby_embed(record: GameRecord, lang: str, level: str, catalog: Catalog = CATALOG,
                paces: Mapping[int, int] | None = None) -> discord.Embed:
    """The lobby: its seats (each AI seat with its level; a person's median time to move from
    ``paces``, user -> ms), the table's settings (``level``: Add AI's) and the level of the AI
    that takes over a seat whose player leaves."""
    capacity = int(record.options.get("players", 5))
    t = catalog.t
    creator = f"<@{record.creator_id}>" if record.creator_id else "?"
    if len(record.seats) >= capacity:  # full: nobody can join; anyone seated can start
        description = t(lang, "lobby.full", creator=creator, max=capacity)
    else:
        description = t(lang, "lobby.description", creator=creator, taken=len(record.seats),
                        max=capacity)
    embed = discord.Embed(
        title=t(lang, "lobby.title", game=record.id),
        description=description,
        colour=GAME_COLOUR,
    )
    lines = []
    for number in range(capacity):
        seat = record.seat(number)
        if seat is None:
            lines.append(t(lang, "lobby.free_seat", n=number + 1))
        else:
            line = seat_line(seat.user_id, seat.ai_policy, number, lang, catalog)
            median = (paces or {}).get(seat.user_id or 0)
            if median is not None:
                line = t(lang, "lobby.seat_pace", seat=line,
                         median=catalog.duration(lang, median / 1000, short=True))
            lines.append(line)
    embed.add_field(name=t(lang, "lobby.players"), value="\n".join(lines), inline=True)
    embed.add_field(
        name=t(lang, "lobby.settings"),
        value=t(
            lang,
            "lobby.settings_value",
            max=capacity,
            level=ai_level_name(level, lang, catalog),
            language=t(lang, f"language.{record.language or catalog.default}"),
        ) + variants_line(record, lang, catalog) + (
            "\n" + t(lang, "lobby.hints_on") if record.hints else "") + "\n" + t(
            lang, "lobby.pace", pace=describe(record.pace, lang, catalog)) + (
            "\n" + t(lang, "lobby.quiet", quiet=describe_quiet(record.quiet, lang, catalog))
            if record.pace is not None else "") + "\n" + t(
            lang, "lobby.takeover", level=ai_level_name(takeover_level(record), lang, catalog)),
        inline=True,
    )
    embed.set_footer(text=t(lang, "lobby.footer"))
    return fit_embed(embed)


def variants_line(record: GameRecord, lang: str, catalog: Catalog) -> str:
    """"\nRules: variant start" when the lobby turned optional rules on (else nothing)."""
    chosen = presenter_for(record.game).variants_on(record.options)
    if not chosen:
        return ""
    names = [catalog.t(lang, f"variant.{v}") for v in chosen]
    return "\n" + catalog.t(lang, "lobby.variants", list=catalog.join(lang, names))


def seat_line(user_id: int | None, kind: str | None, seat: int, lang: str,
              catalog: Catalog) -> str:
    """A lobby's line for a taken seat: "1. @ana", "2. AI (normal)", or a seat the game plays
    itself by its kind's name ("3. Puertoma (hard)")."""
    if user_id is not None:
        return catalog.t(lang, "lobby.human_seat", n=seat + 1, name=f"<@{user_id}>")
    name = ai_level_name(kind or "", lang, catalog)
    if catalog.has(f"seat.{kind}"):
        return catalog.t(lang, "lobby.human_seat", n=seat + 1, name=name)
    return catalog.t(lang, "lobby.ai_seat", n=seat + 1, level=name)


def closed_lobby_embed(record: GameRecord, lang: str, key: str, user_id: int | None = None,
                       catalog: Catalog = CATALOG) -> discord.Embed:
    """The lobby message once the game started (``lobby.started``) or was cancelled."""
    lines = []
    for seat in record.seats:
        lines.append(seat_line(seat.user_id, seat.ai_policy, seat.seat, lang, catalog))
    embed = discord.Embed(
        title=catalog.t(lang, "lobby.title", game=record.id),
        description=catalog.t(lang, key, game=record.id, user=f"<@{user_id}>"),
        colour=CLOSED_COLOUR,
    )
    if lines:
        embed.add_field(name=catalog.t(lang, "lobby.players"), value="\n".join(lines))
    return fit_embed(embed)


# --- the table -----------------------------------------------------------------------------------


def _join(items: Sequence[str], empty: str) -> str:
    return ", ".join(items) if items else empty


def _clip(text: str) -> str:
    return text if len(text) <= FIELD_LIMIT else text[: FIELD_LIMIT - 1] + "…"


def waiting_line(view: Mapping[str, Any], names: Mapping[int, str], lang: str,
                 catalog: Catalog = CATALOG) -> str | None:
    """"Waiting for Ana, Bob: place colonists." or ``None`` when the game is over."""
    prompt = view.get("prompt")
    if not prompt:
        return None
    who = ", ".join(names.get(int(s), f"#{int(s) + 1}") for s in prompt["seats"])
    return catalog.t(lang, "table.waiting", names=who, what=prompt_text(str(prompt["kind"]), lang,
                                                                        catalog))


def prompt_text(kind: str, lang: str, catalog: Catalog = CATALOG) -> str:
    key = f"prompt.{kind}"
    return catalog.t(lang, key) if catalog.has(key) else kind.replace("_", " ")


def table_embed(record: GameRecord, view: Mapping[str, Any], names: Mapping[int, str], lang: str,
                *, image_name: str | None = None, presenter: GamePresenter) -> discord.Embed:
    """The public table as an embed: the phase and whose turn it is, then the game's board as
    text fields (:meth:`bot.games.GamePresenter.summary`), the result once it is over."""
    catalog = presenter.catalog
    t = catalog.t
    lines = presenter.header_lines(view, names, lang)
    waiting = waiting_line(view, names, lang, catalog)
    if waiting:
        lines.append(waiting)
    if record.hints and not view.get("game_over"):
        lines.append(t(lang, "table.hints_on"))
    outcome = view.get("outcome")
    if view.get("game_over") and outcome:
        reasons = ", ".join(t(lang, f"end.{r}") for r in outcome.get("end_reasons", ()))
        lines.append(t(lang, "table.game_over", reasons=reasons))
        winners = ", ".join(names.get(int(w), "?") for w in outcome.get("winners", ()))
        lines.append(t(lang, "table.winners", names=winners))
        for line in sorted(outcome.get("scores", ()), key=lambda s: (s["rank"], s["seat"])):
            lines.append(t(lang, "table.score_line", rank=line["rank"],
                           name=names.get(int(line["seat"]), "?"), total=line["total"],
                           tiebreak=line["tiebreak"]))
    embed = discord.Embed(
        title=t(lang, "table.title", game=record.id, round=view.get("round", 1)),
        description="\n".join(lines),
        colour=CLOSED_COLOUR if view.get("game_over") else GAME_COLOUR,
    )
    for name, value in presenter.summary(view, names, lang):
        embed.add_field(name=name, value=_clip(value),
                        inline="\n" not in value and len(value) <= INLINE)
    if image_name:
        embed.set_image(url=f"attachment://{image_name}")
    return fit_embed(embed)
