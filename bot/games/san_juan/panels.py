"""San Juan's controls on the private panel: the decisions that choose several cards at once
are one multi-select each, of exactly the number the rules ask (Discord enforces the count; a
forged count is refused by the engine and changes nothing):

- paying for a building: the hand cards (and, with a Black market, goods) that pay, with the
  cheapest cards preselected and a button that pays with them in one click;
- the Councillor's keep (or, with an Archive, the discard from the whole hand), and the keep of
  the variant start;
- the hand-limit discard at the start of a round.

The other decisions (roles, buildings, goods, draws, the Chapel) are the generic panel's
buttons and menus (:mod:`bot.panels`).  Option values name one card each (``c.<kind>.<n>``,
``g.<good>.<n>``): :func:`compose` turns the chosen values into the engine's code.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord
from discord import ui

from engine.san_juan import actions as A
from engine.san_juan.data import CARDS, COST, GOOD_INDEX, GOODS, KIND_INDEX, VP
from engine.san_juan.view import Pending

from ...components import GameButton, GameSelect
from ...limits import clip
from ...panels import OPTIONS
from ..contract import PanelControls
from .words import SanJuanWords, multiset, pay_parts

MENUS = ("pay", "keep", "discard")
"""The names of the multi-select menus (``GamePresenter.select_parts``)."""
MAX_CUSTOM_ID = 100


def words_of(pv: PanelControls) -> SanJuanWords:
    words = pv.chooser
    assert isinstance(words, SanJuanWords)
    return words


def cheap_first(name: str) -> tuple[int, int, int]:
    """The order of cards one gives up first: cheapest, fewest VP, then catalog order."""
    kind = KIND_INDEX.get(name, 0)
    return (COST[kind], VP[kind], kind)


def dear_first(name: str) -> tuple[int, int, int]:
    """The order of cards one keeps first: the dearest (more VP, more to build)."""
    kind = KIND_INDEX.get(name, 0)
    return (-COST[kind], -VP[kind], kind)


def card_options(names: Sequence[str], needed: int) -> list[tuple[str, str]]:
    """(value, card name) per card, at most ``needed`` copies of a kind (more could never be
    chosen) and at most 25 in all."""
    out: list[tuple[str, str]] = []
    seen: dict[str, int] = {}
    for name in sorted(names, key=lambda n: KIND_INDEX.get(n, 99)):
        n = seen.get(name, 0)
        if n >= needed:
            continue
        seen[name] = n + 1
        out.append((f"c.{name}.{n}", name))
    return out[:OPTIONS]


def compose(name: str, values: Sequence[str]) -> str | None:
    """The engine code the chosen values of menu ``name`` stand for; ``None`` when a value is
    not one the panel offers."""
    cards: list[int] = []
    goods: list[int] = []
    for value in values:
        head, _, rest = value.partition(".")
        ident = rest.rpartition(".")[0]
        if head == "c" and ident in KIND_INDEX:
            cards.append(KIND_INDEX[ident])
        elif head == "g" and ident in GOOD_INDEX and name.startswith("pay"):
            goods.append(GOOD_INDEX[ident])
        else:
            return None
    if len(set(values)) != len(values):
        return None
    kind = A.PAY if name.startswith("pay") else A.KEEP if name.startswith("keep") else A.DISCARD
    if kind == A.PAY and not (cards or goods):
        return None
    if kind != A.PAY and not cards:
        return "pass" if not values else None
    return A.multi(kind, tuple(sorted(cards)), tuple(sorted(goods))).code


def decompose(name: str, code: str, values: Sequence[str]) -> list[str] | None:
    """Which of menu ``name``'s option ``values`` stand for ``code`` (the inverse of
    :func:`compose` for the multi-selects; the code itself in a menu of codes); ``None`` when
    the menu cannot make it."""
    if name.startswith("pay"):
        cards, goods = pay_parts(code)
        wanted = [("c", n, k) for n, k in cards] + [("g", n, k) for n, k in goods]
    elif code.startswith(("k.", "d.")) and name.startswith(
            "keep" if code[0] == "k" else "discard"):
        wanted = [("c", n, k) for n, k in multiset(code[2:])]
    else:  # a menu of codes
        return [code] if code in values else None
    out: list[str] = []
    for head, ident, count in wanted:
        found = [v for v in values if v.startswith(f"{head}.{ident}.")][:count]
        if len(found) < count:
            return None
        out.extend(found)
    return out if compose(name, out) == code else None


def controls(pv: PanelControls) -> list[ui.Item[Any]] | None:
    kind = pv.panel.kind
    words = words_of(pv)
    view, pending = words.view, words.pending
    if kind == "pay":
        return pay_controls(pv, pending)
    if kind == "councillor" and "draw" in pending:  # draw or pass, before seeing a card
        return [ui.TextDisplay(pv.t("panel.help.councillor_draw", n=int(pending["draw"]),
                                    keep=int(pending.get("keep", 1)))),
                *pv.choice_rows(list(pv.panel.legal), kind)]
    if kind == "councillor":
        if pending.get("archive"):
            names = [*view.get("hand", []), *view.get("drawn", [])]
            return pick_controls(pv, "discard", names, int(pending.get("discard", 0)),
                                 keep=False, help_key="panel.help.archive")
        return pick_controls(pv, "keep", view.get("drawn", []),
                             int(pending.get("keep", 1)), keep=True,
                             help_key="panel.help.councillor")
    if kind == "variant_keep":
        return pick_controls(pv, "keep", view.get("drawn", []),
                             int(pending.get("keep", 4)), keep=True,
                             help_key="panel.help.variant_keep")
    if kind == "hand_limit":
        return pick_controls(pv, "discard", view.get("hand", []),
                             int(pending.get("discard", 0)), keep=False,
                             help_key="panel.help.hand_limit")
    return None


def own_goods(pv: PanelControls) -> list[str]:
    """The goods on the viewer's production buildings, by kind (one entry per good)."""
    me = words_of(pv).seat()
    out = []
    for building in [] if me is None else me["buildings"]:
        kind = KIND_INDEX.get(building["card"])
        if building["good"] and kind is not None and CARDS[kind].good is not None:
            out.append(GOODS[CARDS[kind].good])  # type: ignore[index]
    return out


def pay_controls(pv: PanelControls, pending: Pending) -> list[ui.Item[Any]]:
    """One multi-select of exactly the cost: hand cards (cheapest preselected) and, with a
    Black market, up to two goods; a button pays with the suggestion at once."""
    words = words_of(pv)
    cost = int(pending.get("cost", 0))
    hand = words.view.get("hand", [])
    goods_allowed = int(pending.get("goods_allowed", 0) or 0)
    building = words.card(str(pending.get("building", "")))
    items: list[ui.Item[Any]] = [ui.TextDisplay(pv.t(
        "panel.help.pay_goods" if goods_allowed else "panel.help.pay",
        card=building, n=cost, goods=min(goods_allowed, cost)))]
    options = card_options(hand, cost)
    suggestion = [value for value, _ in sorted(options, key=lambda o: cheap_first(o[1]))][:cost]
    select_options = [
        discord.SelectOption(label=clip(words.card(name), 100), value=value,
                             description=clip(pv.t("panel.card_desc", cost=COST[KIND_INDEX[name]],
                                                   vp=VP[KIND_INDEX[name]]), 100),
                             default=value in suggestion)
        for value, name in options
    ]
    if goods_allowed:
        seen: dict[str, int] = {}
        for good in own_goods(pv):
            n = seen.get(good, 0)
            seen[good] = n + 1
            if n < min(goods_allowed, cost) and len(select_options) < OPTIONS:
                select_options.append(discord.SelectOption(
                    label=clip(pv.t("panel.good_option", good=words.good(good)), 100),
                    value=f"g.{good}.{n}"))
    if len(suggestion) < cost:  # too few cards: goods make up the rest
        goods_values = [o.value for o in select_options if o.value.startswith("g.")]
        suggestion += goods_values[: cost - len(suggestion)]
        for option in select_options:
            option.default = option.value in suggestion
    row: ui.ActionRow[Any] = ui.ActionRow()
    count = max(1, min(cost, len(select_options)))
    row.add_item(GameSelect(pv.game_id, pv.version, "pay", select_options or None,
                            placeholder=pv.t("panel.pay_placeholder", n=cost),
                            min_values=count, max_values=count,
                            disabled=not select_options))
    items.append(row)
    code = compose("pay", suggestion) if len(suggestion) == cost else None
    if code is not None and code in pv.panel.legal:
        button = suggested_button(pv, code, words.label(code))
        if button is not None:
            items.extend(pv.rows_of([button]))
    return items


def pick_controls(pv: PanelControls, name: str, names: Sequence[str], count: int, *, keep: bool,
                  help_key: str) -> list[ui.Item[Any]]:
    """One multi-select of exactly ``count`` of ``names`` (the keep preselects the dearest
    cards, a discard the cheapest), a button for the suggestion, and the pass when legal."""
    words = words_of(pv)
    items: list[ui.Item[Any]] = [ui.TextDisplay(pv.t(help_key, n=count, drawn=len(names)))]
    options = card_options(names, count)
    order = dear_first if keep else cheap_first
    suggestion = [value for value, _ in sorted(options, key=lambda o: order(o[1]))][:count]
    if count > 0 and options:
        menu_count = min(count, len(options))
        row: ui.ActionRow[Any] = ui.ActionRow()
        row.add_item(GameSelect(
            pv.game_id, pv.version, name,
            [discord.SelectOption(
                label=clip(words.card(card), 100), value=value,
                description=clip(pv.t("panel.card_desc", cost=COST[KIND_INDEX[card]],
                                      vp=VP[KIND_INDEX[card]]), 100),
                default=value in suggestion)
             for value, card in options],
            placeholder=pv.t(f"panel.{name}_placeholder", n=count),
            min_values=menu_count, max_values=menu_count))
        items.append(row)
    buttons: list[ui.Item[Any]] = []
    code = compose(name, suggestion) if suggestion else None
    if code is not None and code in pv.panel.legal:
        button = suggested_button(pv, code, words.label(code))
        if button is not None:
            buttons.append(button)
    if "pass" in pv.panel.legal:
        buttons.append(pv.button("pass"))
    items.extend(pv.rows_of(buttons))
    return items


def suggested_button(pv: PanelControls, code: str, label: str) -> GameButton | None:
    """A button that submits ``code`` in one click, when its custom id fits Discord's 100
    characters (a long list of cards has the menu only)."""
    if len(f"g:{pv.game_id}:{pv.version}:{code}") > MAX_CUSTOM_ID or len(code) > 80:
        return None
    return GameButton(pv.game_id, pv.version, code, label=clip(label, 80),
                      style=discord.ButtonStyle.success)
