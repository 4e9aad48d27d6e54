"""Puerto Rico's controls on the private panel: the Builder's buildings as one menu per market
column (the quarry discount depends on it) with the price after this player's discounts, the
Mayor arrangement as the suggestion in one click or a draft in two menus (:mod:`.arrange`),
the Buccaneer's options and raided colonists (:mod:`.buccaneer`), and Exp. 1's draft, forests,
Black market, Small wharf and Guest house (:mod:`.exp1_panels`).  The rest (a few choices as
buttons, many as menus) is the generic panel's (:mod:`bot.panels`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord
from discord import ui

from ...components import GameSelect
from ...panels import OPTIONS
from ..contract import PanelControls
from . import exp1_panels as exp1
from .arrange import Arrangement, read, write
from .buccaneer import buccaneer_controls, raid_controls
from .choices import Chooser, clip
from .components import ArrangeButton, ArrangeSelect


def chooser(pv: PanelControls) -> Chooser:
    words = pv.chooser
    assert isinstance(words, Chooser)
    return words


def controls(pv: PanelControls) -> list[ui.Item[Any]] | None:
    """The Builder's menus, the Mayor's draft, the Buccaneer's options and Exp. 1's decisions;
    ``None`` for the other decisions.  A Guest house owner's guest moves (Exp. 1, offered in
    his other decisions too) come after the decision's own controls, in a menu of their own."""
    panel = pv.panel
    legal = list(panel.legal)
    if panel.kind == "interlude":
        return exp1.interlude_controls(pv, legal)
    guests = [c for c in legal if c.startswith("g.")]
    main = [c for c in legal if not c.startswith("g.")]
    items = decision_controls(pv, main)
    if not guests:
        return items
    if items is None:
        items = exp1.generic(pv, main)
    return [*items, *exp1.guest_controls(pv, guests)]


def decision_controls(pv: PanelControls, codes: list[str]) -> list[ui.Item[Any]] | None:
    panel = pv.panel
    arrangement = panel.extras.get("arrangement")
    if panel.kind == "arrange" and isinstance(arrangement, Arrangement):
        return arrange_controls(pv, arrangement)
    if panel.kind == "build":
        return build_controls(pv, codes)
    if panel.kind == "buccaneer":
        return buccaneer_controls(pv, codes)
    if panel.kind == "raid_place":
        return raid_controls(pv, codes)
    if panel.kind == "draft":
        return exp1.draft_controls(pv, codes)
    if panel.kind == "settle" and any(c.startswith("f.") for c in codes):
        return exp1.settle_controls(pv, codes)
    if panel.kind == "ship" and any(c.startswith("sw.") for c in codes):
        return exp1.ship_controls(pv, codes)
    return None


def build_controls(pv: PanelControls, codes: Sequence[str]) -> list[ui.Item[Any]]:
    """One menu per market column (the quarry discount depends on it), each listing the
    buildings this player can build now at their price; an empty column is disabled.  With an
    occupied Black market (Exp. 1), its menu and payments after them."""
    items: list[ui.Item[Any]] = [ui.TextDisplay(pv.t("panel.help.build"))]
    columns: dict[int, list[str]] = {}
    for entry in chooser(pv).view["market"]:
        columns.setdefault(entry["column"], [])
        code = f"b.{entry['building']}"
        if code in codes:
            columns[entry["column"]].append(code)
    for column in sorted(columns):
        options = [pv.option(c) for c in columns[column]][:OPTIONS]
        row: ui.ActionRow[Any] = ui.ActionRow()
        if options:
            row.add_item(GameSelect(pv.game_id, pv.version, f"build_{column}", options,
                                    placeholder=pv.t("panel.column", n=column,
                                                       count=len(options))))
        else:
            row.add_item(GameSelect(pv.game_id, pv.version, f"build_{column}",
                                    placeholder=pv.t("panel.column_none", n=column),
                                    disabled=True))
        items.append(row)
    items.extend(exp1.black_market_controls(pv, codes))
    if "pass" in codes:
        items.extend(pv.rows_of([pv.button("pass")]))
    return items

def arrange_controls(pv: PanelControls, plan: Arrangement) -> list[ui.Item[Any]]:
    """The suggestion in one click, or the draft in two menus and a confirmation; with Exp. 2
    nobles to place and a choice of their circles, a third menu picks the circles that get
    nobles among those of the draft."""
    draft, nobles = read(plan, pv.draft)
    text = write(draft, nobles if plan.nobles else None)
    placed = sum(draft)
    lines = [pv.t("panel.arrange", n=plan.to_place),
             pv.t("panel.arrange_suggested", places=places(pv, plan, plan.suggested)),
             pv.t("panel.arrange_draft", places=places(pv, plan, draft), n=placed,
                  of=plan.to_place)]
    if plan.nobles:
        lines.append(pv.t("panel.arrange_nobles", n=plan.nobles,
                          places=places(pv, plan, nobles)))
    items: list[ui.Item[Any]] = [ui.TextDisplay("\n".join(lines))]
    items.extend(pv.rows_of([pv.button("m.auto")]))
    for part, island in (("i", True), ("c", False)):
        options = plan.options(island, draft)
        if not options:
            continue
        row: ui.ActionRow[Any] = ui.ActionRow()
        row.add_item(ArrangeSelect(
            pv.game_id, pv.version, f"{part}:{text}",
            [discord.SelectOption(label=circle(pv, place, number, island), value=value,
                                  default=chosen)
             for value, place, number, chosen in options[:OPTIONS]],
            placeholder=pv.t("panel.island" if island else "panel.city"),
            min_values=0, max_values=min(len(options), OPTIONS, max(1, plan.to_place)),
        ))
        items.append(row)
    items.extend(noble_menu(pv, plan, draft, nobles, text))
    confirm: ui.ActionRow[Any] = ui.ActionRow()
    confirm.add_item(ArrangeButton(
        pv.game_id, pv.version, text, label=pv.t("button.confirm", n=placed,
                                                       of=plan.to_place),
        disabled=not plan.complete(draft)))
    items.append(confirm)
    return items


def noble_menu(pv: PanelControls, plan: Arrangement, draft: Sequence[int], nobles: Sequence[int],
               text: str) -> list[ui.Item[Any]]:
    """Exp. 2: the draft's circles, those holding nobles selected (only when where the nobles
    go is the player's choice and more than one place could take them)."""
    low, high = plan.noble_range(draft)
    options = plan.noble_options(draft, nobles)[:OPTIONS]
    if not plan.noble_choice or not high or len({o[1] for o in options}) < 2:
        return []
    row: ui.ActionRow[Any] = ui.ActionRow()
    row.add_item(ArrangeSelect(
        pv.game_id, pv.version, f"n:{text}",
        [discord.SelectOption(label=circle(pv, place, number, True), value=value,
                              default=chosen)
         for value, place, number, chosen in options],
        placeholder=pv.t("panel.noble_circles", low=low, high=high),
        min_values=min(low, len(options)), max_values=max(1, min(high, len(options))),
    ))
    return [row]


def circle(pv: PanelControls, place: str, number: int, island: bool) -> str:
    name = chooser(pv).slot(place)
    return clip(pv.t("panel.circle", place=name, n=number), 100)

def places(pv: PanelControls, plan: Arrangement, draft: Sequence[int]) -> str:
    parts = [f"{chooser(pv).slot(p.name)} ×{n}" for p, n in zip(plan.places, draft,
                                                                 strict=True) if n]
    return ", ".join(parts) or "—"
