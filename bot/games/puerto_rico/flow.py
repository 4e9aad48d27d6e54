"""The Mayor draft on Discord: its menus redraw the panel with the new draft, its confirmation
submits every placement at once (one service call, refused whole if one is illegal).  Exp. 1's
Black market menu likewise redraws the panel with the payments of the building chosen."""

from __future__ import annotations

from typing import Any

import discord

from storage import StaleVersion

from ...errors import send_error
from ...play import PlayFlow
from ..contract import Panel
from .arrange import Arrangement, decode, read, write


def arrangement_of(panel: Panel) -> Arrangement | None:
    found = panel.extras.get("arrangement")
    return found if isinstance(found, Arrangement) else None



async def arrange(
    play: PlayFlow,
    interaction: discord.Interaction[Any],
    game_id: int,
    version: int,
    part: str,
    draft: str,
    values: list[str],
) -> None:
    await interaction.response.defer()
    if not await play.placed(interaction, game_id, None):  # a panel's, never public
        return
    if part == "ok":
        await confirm_arrangement(play, interaction, game_id, version, draft)
        return
    try:
        panel = await play.turns.panel(game_id, interaction.user.id, render=False)
        plan, current = arrangement_of(panel), decode(draft.partition("-")[0])
        if plan is None or current is None or not plan.valid(current):
            await play.panel_here(interaction, game_id, note_key="reply.outdated_panel")
            return
        current, nobles = read(plan, draft)
        if part == "n":  # Exp. 2: the circles that get nobles
            nobles = plan.with_nobles(values, current)
        else:
            current = plan.with_values(part == "i", values, current)
            nobles = plan.fit_nobles(current, nobles)
        text = write(current, nobles if plan.nobles else None)
        await play.panel_here(interaction, game_id, draft=text)  # the draft drawn
    except Exception as exc:
        await send_error(interaction, exc, where=f"mayor draft in game {game_id}")

async def confirm_arrangement(play: PlayFlow, interaction: discord.Interaction[Any], game_id: int,
                              version: int, draft: str) -> None:
    try:
        panel = await play.turns.panel(game_id, interaction.user.id, render=False)
        plan, counts = arrangement_of(panel), decode(draft.partition("-")[0])
        if plan is None or counts is None or not plan.complete(counts):
            await play.outdated(interaction, game_id, True)
            return
        counts, nobles = read(plan, draft)
        await play.service.submit(game_id, interaction.user.id, version,
                                  plan.codes(counts, nobles))
    except StaleVersion:
        await play.outdated(interaction, game_id, True)
        return
    except Exception as exc:
        await send_error(interaction, exc, where=f"mayor arrangement in game {game_id}")
        return
    await play.panel_here(interaction, game_id, compact=True)



async def black_market(play: PlayFlow, interaction: discord.Interaction[Any], game_id: int,
                       values: list[str]) -> None:
    """The building chosen in the Black market's menu: the panel redrawn (its image kept) with
    that building's payments; nothing is submitted (each payment is a move of its own)."""
    await interaction.response.defer()
    if not await play.placed(interaction, game_id, None):  # a panel's, never public
        return
    building = values[0] if values else None
    await play.panel_here(interaction, game_id, draft=building, render=False)
