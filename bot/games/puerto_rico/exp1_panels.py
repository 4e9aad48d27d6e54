"""Exp. 1's decisions on the private panel (rules spec §10), each drawn from exactly the
engine's legal codes:

* **the draft**: one menu per printed cost with a space left, its placeholder saying how many
  spaces are left and how many buildings compete, each option the building with its cost, VP
  and effect in a few words; the buildings drafted so far above them;
* **settling with the Forest house**: the usual tiles, plus a Forest menu (``f.<good>``);
* **the Black market** (``bm.*``, often hundreds of codes): a menu of the buildings it alone
  makes affordable, then, for the building chosen (:class:`~.components.BlackMarketSelect`
  redraws the panel with it), the menus of the ways to pay (every legal combination of a
  colonist, a barrel and a VP chip, the doubloons being all of them anyway);
* **the Small wharf** (``sw.*``, every mix of barrels): one multi-select of the player's
  barrels, composed into the code (:func:`compose`), and a button to ship none;
* **the Guest house** (``g.*``): the ``interlude`` prompt's places and Done, and inside any
  other decision of the owner a menu "move a guest now", which does not end the decision.

Pure.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord
from discord import ui

from engine.puerto_rico.data import GOODS

from ...components import GameSelect
from ...panels import OPTIONS
from ..contract import PanelControls
from . import new_buildings as nb
from .choices import Chooser, clip
from .components import BlackMarketSelect

SMALL_WHARF = "sw"
"""The name of the Small wharf's multi-select (``GamePresenter.select_parts``)."""
PAY = "bmpay"


def chooser(pv: PanelControls) -> Chooser:
    words = pv.chooser
    assert isinstance(words, Chooser)
    return words


def generic(pv: PanelControls, codes: Sequence[str]) -> list[ui.Item[Any]]:
    """The generic panel's controls for ``codes`` (its help line, then buttons or menus)."""
    kind = str(pv.panel.kind or "")
    key = f"panel.help.{kind}"
    text = pv.t(key) if pv.catalog.has(key) else pv.prompt_words(kind)
    return [ui.TextDisplay(text), *pv.choice_rows(list(codes), kind)]


def select(pv: PanelControls, name: str, codes: Sequence[str], placeholder: str
           ) -> ui.ActionRow[Any]:
    row: ui.ActionRow[Any] = ui.ActionRow()
    options = [pv.option(c) for c in codes][:OPTIONS]
    row.add_item(GameSelect(pv.game_id, pv.version, name, options,
                            placeholder=clip(placeholder, 150)))
    return row


# --- the draft --------------------------------------------------------------------------------


def draft_controls(pv: PanelControls, codes: Sequence[str]) -> list[ui.Item[Any]]:
    """The drafted buildings so far, then a menu per cost with a space left."""
    words = chooser(pv)
    part = words.view["draft"]
    drafted = [words.building(b) for b in ([] if part is None else part["drafted"])]
    lines = [pv.t("panel.help.draft"),
             pv.t("panel.drafted", list=pv.catalog.join(pv.lang, drafted)) if drafted
             else pv.t("panel.drafted_none")]
    items: list[ui.Item[Any]] = [ui.TextDisplay(clip("\n".join(lines), 1900))]
    left = {} if part is None else part["spaces_left"]
    for cost, group in nb.candidates(words.view, codes).items():
        spaces = left.get(str(cost), 0)
        items.append(select(pv, f"draft_{cost}", group, pv.t(
            "panel.draft_cost", cost=cost, n=spaces, count=len(group))))
    return items


# --- settling with forests ----------------------------------------------------------------------


def settle_controls(pv: PanelControls, codes: Sequence[str]) -> list[ui.Item[Any]]:
    """The tiles as usual, a Forest menu, the pass last."""
    forests = [c for c in codes if c.startswith("f.")]
    tiles = [c for c in codes if not c.startswith("f.") and c != "pass"]
    items: list[ui.Item[Any]] = [ui.TextDisplay(pv.t("panel.help.settle"))]
    items.extend(pv.choice_rows(tiles, "settle"))
    items.append(select(pv, "forest", forests, pv.t("panel.forest")))
    if "pass" in codes:
        items.extend(pv.rows_of([pv.button("pass")]))
    return items


# --- the Black market ---------------------------------------------------------------------------


def black_market_buildings(codes: Sequence[str]) -> list[str]:
    """The buildings ``codes`` build with the Black market, in the engine's order."""
    return list(dict.fromkeys(nb.black_market_parts(c)[0] for c in codes if c.startswith("bm.")))


def black_market_controls(pv: PanelControls, codes: Sequence[str]) -> list[ui.Item[Any]]:
    """The menu of the buildings the Black market makes affordable; with one chosen (the
    panel's ``draft``), its payments, each a legal code."""
    words = chooser(pv)
    buildings = black_market_buildings(codes)
    if not buildings:
        return []
    chosen = pv.draft if pv.draft in buildings else None
    options = []
    for name in buildings[:OPTIONS]:
        entry = words.market.get(name)
        options.append(discord.SelectOption(
            label=clip(words.t("act.build_costs", building=words.building(name),
                               price=words.price(name), vp=0 if entry is None else entry["vp"]),
                       100),
            value=name, default=name == chosen,
            description=clip(words.effect_of(f"effect.{name}") or "", 100) or None))
    row: ui.ActionRow[Any] = ui.ActionRow()
    row.add_item(BlackMarketSelect(pv.game_id, pv.version, "", options, placeholder=clip(
        pv.t("panel.black_market", count=len(buildings)), 150)))
    items: list[ui.Item[Any]] = [row]
    if chosen is None:
        return items
    mine = [c for c in codes if c.startswith("bm.") and nb.black_market_parts(c)[0] == chosen]
    me = words.player()
    have = 0 if me is None else me["doubloons"]
    price = words.price(chosen)
    items.append(ui.TextDisplay(pv.t("panel.bm_building", building=words.building(chosen),
                                     price=price, have=have, need=max(price - have, 0))))
    chunks = [mine[k:k + OPTIONS] for k in range(0, len(mine), OPTIONS)]
    for number, chunk in enumerate(chunks, start=1):
        placeholder = (pv.t("panel.bm_pay", building=words.building(chosen)) if len(chunks) == 1
                       else pv.t("panel.bm_pay_part", building=words.building(chosen), n=number,
                                 of=len(chunks)))
        payments = []
        for code in chunk:
            payments.append(discord.SelectOption(
                label=clip(nb.payment(words, code), 100), value=code,
                description=clip(words.t("effect.bm_pays", n=have), 100)))
        pay: ui.ActionRow[Any] = ui.ActionRow()
        pay.add_item(GameSelect(pv.game_id, pv.version, f"{PAY}_{number}", payments,
                                placeholder=clip(placeholder, 150)))
        items.append(pay)
    return items


# --- the Small wharf ------------------------------------------------------------------------------


def barrels(goods: dict[str, int], limit: int = OPTIONS) -> list[tuple[str, int, int]]:
    """(good, k, of) for the barrels the Small wharf's menu offers: every barrel, or when they
    are more than ``limit``, as many of each kind in turn as fit."""
    left = {g: n for g, n in goods.items() if n > 0}
    shown = dict.fromkeys(left, 0)
    while sum(shown.values()) < min(limit, sum(left.values())):
        for good, held in left.items():
            if shown[good] < held and sum(shown.values()) < limit:
                shown[good] += 1
    return [(g, k, left[g]) for g in left for k in range(1, shown[g] + 1)]


def compose(values: Sequence[str]) -> str | None:
    """The Small wharf code of the barrels chosen (``sw.corn.1``, ``sw.corn.2``... one value a
    barrel): ``sw.corn2.sugar1``; ``None`` for a value that names no barrel."""
    chosen: dict[str, int] = {}
    for value in values:
        parts = value.split(".")
        if len(parts) != 3 or parts[0] != SMALL_WHARF or parts[1] not in GOODS:
            return None
        chosen[parts[1]] = chosen.get(parts[1], 0) + 1
    body = ".".join(f"{g}{chosen[g]}" for g in GOODS if chosen.get(g))
    return f"sw.{body or 'none'}"


def decompose(code: str, values: Sequence[str]) -> list[str] | None:
    """The values of the Small wharf's menu that stand for ``code`` (``None``: none do)."""
    if not code.startswith("sw.") or code == "sw.none":
        return None
    out = []
    for good, n in nb.counts(code[3:]).items():
        mine = [v for v in values if v.split(".")[1:2] == [good]]
        if len(mine) < n:
            return None
        out.extend(mine[:n])
    return out if compose(out) == code else None


def ship_controls(pv: PanelControls, codes: Sequence[str]) -> list[ui.Item[Any]]:
    """The cargo ships and the Wharf as usual, then the Small wharf: one multi-select of the
    barrels and a button to ship none."""
    words = chooser(pv)
    others = [c for c in codes if not c.startswith("sw.")]
    items: list[ui.Item[Any]] = [ui.TextDisplay(pv.t("panel.help.ship"))] if others else []
    items.extend(pv.choice_rows(others, "ship"))
    items.append(ui.TextDisplay(pv.t("panel.help.small_wharf")))
    me = words.player()
    goods = {} if me is None else dict(me["goods"])
    offered = barrels(goods) if any(c != "sw.none" and c.startswith("sw.") for c in codes) else []
    if offered:
        options = [discord.SelectOption(
            label=clip(pv.t("panel.sw_barrel", good=words.tile(g), n=k, of=of), 100),
            value=f"{SMALL_WHARF}.{g}.{k}") for g, k, of in offered]
        row: ui.ActionRow[Any] = ui.ActionRow()
        row.add_item(GameSelect(pv.game_id, pv.version, SMALL_WHARF, options,
                                placeholder=clip(pv.t("panel.small_wharf"), 150),
                                min_values=1, max_values=len(options)))
        items.append(row)
    if "sw.none" in codes:
        items.extend(pv.rows_of([pv.button("sw.none")]))
    return items


# --- the Guest house ----------------------------------------------------------------------------


def guest_controls(pv: PanelControls, codes: Sequence[str]) -> list[ui.Item[Any]]:
    """Inside another decision: a menu "move a guest now" (the decision goes on after it)."""
    return [select(pv, "guest", codes, pv.t("panel.guest"))] if codes else []


def interlude_controls(pv: PanelControls, codes: Sequence[str]) -> list[ui.Item[Any]]:
    """The interlude: where a guest may go, and Done."""
    return [ui.TextDisplay(pv.t("panel.help.interlude")), *pv.choice_rows(list(codes), "guest")]


__all__ = ["PAY", "SMALL_WHARF", "barrels", "black_market_buildings", "black_market_controls",
           "compose", "decompose", "draft_controls", "generic", "guest_controls",
           "interlude_controls", "settle_controls", "ship_controls"]
