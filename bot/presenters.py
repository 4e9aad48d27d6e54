"""What the game's messages look like: the lobby and the table, in the game's language.

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

from storage import GameRecord

from .i18n import CATALOG, Catalog
from .limits import fit_embed

GAME_COLOUR = discord.Colour(0x2E7D32)
CLOSED_COLOUR = discord.Colour(0x757575)
FIELD_LIMIT = 1024


def ai_level_name(level: str, lang: str, catalog: Catalog = CATALOG) -> str:
    key = f"level.{level}"
    return catalog.t(lang, key) if catalog.has(key) else level


def seat_names(record: GameRecord, lang: str, catalog: Catalog = CATALOG,
               people: Mapping[int, str] | None = None) -> dict[int, str]:
    """Display names by seat: ``people`` (user id -> name) for humans, "AI 2 (normal)" for AI
    seats, a mention when a person's name is unknown."""
    names: dict[int, str] = {}
    for seat in record.seats:
        if seat.user_id is not None:
            names[seat.seat] = (people or {}).get(seat.user_id) or f"<@{seat.user_id}>"
        else:
            level = ai_level_name(seat.ai_policy or "", lang, catalog)
            names[seat.seat] = catalog.t(lang, "table.ai_name", n=seat.seat + 1, level=level)
    return names


# --- the lobby -----------------------------------------------------------------------------------


def lobby_embed(record: GameRecord, lang: str, level: str, catalog: Catalog = CATALOG
                ) -> discord.Embed:
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
        elif seat.user_id is not None:
            lines.append(t(lang, "lobby.human_seat", n=number + 1, name=f"<@{seat.user_id}>"))
        else:
            name = ai_level_name(seat.ai_policy or "", lang, catalog)
            lines.append(t(lang, "lobby.ai_seat", n=number + 1, level=name))
    embed.add_field(name=t(lang, "lobby.players"), value="\n".join(lines), inline=True)
    embed.add_field(
        name=t(lang, "lobby.settings"),
        value=t(
            lang,
            "lobby.settings_value",
            max=capacity,
            level=ai_level_name(level, lang, catalog),
            language=t(lang, f"language.{record.language or catalog.default}"),
        ),
        inline=True,
    )
    embed.set_footer(text=t(lang, "lobby.footer"))
    return fit_embed(embed)


def closed_lobby_embed(record: GameRecord, lang: str, key: str, user_id: int | None = None,
                       catalog: Catalog = CATALOG) -> discord.Embed:
    """The lobby message once the game started (``lobby.started``) or was cancelled."""
    lines = []
    for seat in record.seats:
        if seat.user_id is not None:
            lines.append(f"{seat.seat + 1}. <@{seat.user_id}>")
        else:
            level = ai_level_name(seat.ai_policy or "", lang, catalog)
            lines.append(catalog.t(lang, "lobby.ai_seat", n=seat.seat + 1, level=level))
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


def _role(role: str, lang: str, catalog: Catalog) -> str:
    return catalog.t(lang, f"role.{role}")


def _good(good: str, lang: str, catalog: Catalog) -> str:
    key = "tile.quarry" if good == "quarry" else f"good.{good}"
    return catalog.t(lang, key)


def table_embed(record: GameRecord, view: Mapping[str, Any], names: Mapping[int, str], lang: str,
                *, image_name: str | None = None, catalog: Catalog = CATALOG) -> discord.Embed:
    """The public table as an embed: phase, whose turn, roles, supply, ships, players."""
    t = catalog.t
    phase_key = f"phase.{view.get('phase', 'role_selection')}"
    phase = t(lang, phase_key) if catalog.has(phase_key) else str(view.get("phase"))
    chooser = view.get("chooser")
    lines = [
        t(lang, "table.phase_by", phase=phase, name=names.get(int(chooser), "?"))
        if chooser is not None and view.get("phase") != "role_selection"
        else t(lang, "table.phase", phase=phase)
    ]
    waiting = waiting_line(view, names, lang, catalog)
    if waiting:
        lines.append(waiting)
    if view.get("end_triggered") and not view.get("game_over"):
        reasons = ", ".join(t(lang, f"end.{r}") for r in view["end_triggered"])
        lines.append(t(lang, "table.last_round", reasons=reasons))
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
    roles = []
    for role in view.get("roles", ()):
        name = _role(str(role["role"]), lang, catalog)
        if role.get("taken_by") is not None:
            roles.append(t(lang, "table.role_taken", role=name,
                           name=names.get(int(role["taken_by"]), "?")))
        elif role.get("doubloons"):
            roles.append(t(lang, "table.role_bonus", role=name, n=role["doubloons"]))
        else:
            roles.append(t(lang, "table.role_free", role=name))
    if roles:
        embed.add_field(name=t(lang, "table.roles"), value=_clip(" · ".join(roles)), inline=False)
    colonists = view.get("colonists", {})
    embed.add_field(
        name=t(lang, "table.supply"),
        value=t(lang, "table.supply_value", ship=colonists.get("ship", 0),
                supply=colonists.get("supply", 0), vp=view.get("vp_chips_left", 0),
                quarries=view.get("quarries_left", 0)),
        inline=False,
    )
    tiles = [_good(str(x), lang, catalog) for x in view.get("face_up", ())]
    embed.add_field(name=t(lang, "table.plantations"), value=_join(tiles, t(lang, "table.empty")))
    ships = [
        t(lang, "table.ship_loaded", good=_good(str(s["good"]), lang, catalog), count=s["count"],
          capacity=s["capacity"]) if s.get("good") else
        t(lang, "table.ship_empty", capacity=s["capacity"])
        for s in view.get("ships", ())
    ]
    embed.add_field(name=t(lang, "table.ships"), value=_join(ships, t(lang, "table.empty")))
    house = [_good(str(g), lang, catalog) for g in view.get("trading_house", ())]
    capacity = view.get("trading_house_capacity", 4)
    embed.add_field(name=t(lang, "table.trading_house"),
                    value=f"{_join(house, t(lang, 'table.empty'))} ({len(house)}/{capacity})")
    for player in view.get("players", ()):
        seat = int(player["seat"])
        goods = [f"{_good(g, lang, catalog)} {n}" for g, n in player.get("goods", {}).items() if n]
        buildings = [t(lang, f"building.{b['building']}") for b in player.get("city", ())]
        value = t(lang, "table.player_value", doubloons=player.get("doubloons", 0),
                  island=player.get("island_used", 0), city=player.get("city_used", 0),
                  colonists=player.get("colonists", 0), san_juan=player.get("san_juan", 0),
                  goods=_join(goods, "—"))
        value += "\n" + (t(lang, "table.buildings", list=", ".join(buildings)) if buildings
                         else t(lang, "table.no_buildings"))
        marker = t(lang, "table.governor_marker") if player.get("is_governor") else ""
        embed.add_field(name=t(lang, "table.player", marker=marker,
                               name=names.get(seat, f"#{seat + 1}")),
                        value=_clip(value), inline=False)
    if image_name:
        embed.set_image(url=f"attachment://{image_name}")
    return fit_embed(embed)
