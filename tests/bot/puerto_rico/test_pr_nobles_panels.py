"""The private panel of Exp. 2's decisions (rules spec §11) and their slash commands:

* the noble-or-colonist take (A19), the Hunting Lodge's discard (A40), the Royal Supplier's
  trade (A44) and the Land Office's buy and sell in the Trader's turn (A41): every legal code
  reachable from the panel, nothing else, within Discord's limits;
* the Mayor draft with nobles: a third menu picks the circles that get nobles exactly when the
  engine leaves that choice to the player, and the confirmation carries the nobles' draft;
* each code is offered by exactly one decision command (``/pr take``, ``/pr place``,
  ``/pr sell``, ``/pr pass``)."""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest

from bot.games import presenter_for
from bot.games.contract import Panel
from bot.games.puerto_rico.arrange import Arrangement, read, write
from engine import get_game
from engine.policies import make_policy
from tests.bot.puerto_rico.test_pr_new_buildings_panels import (
    controls,
    panel_of,
    reachable,
    within_limits,
)

PR = presenter_for("puerto-rico")
GAME = get_game("puerto-rico")
EXP2 = ("n.", "hl.", "rs.", "lo.")
ALL = ["new_buildings", "nobles", "buccaneer", "festival"]


@cache
def panels(arrange: bool = False) -> tuple[Panel, ...]:
    """Every decision with an Exp. 2 code of seeded random games with the Nobles (alone and
    with every module); with ``arrange`` the Mayor arrangements with nobles waiting."""
    out = []
    for seed in range(8):
        players = 2 + seed % 4
        modules = ["nobles"] if seed % 2 else ALL
        state = GAME.setup({"players": players, "modules": modules}, seed)
        policy = make_policy("random", "puerto-rico", seed)
        while (prompt := GAME.prompt(state)) is not None:
            seat = prompt.seats[0]
            legal = GAME.legal_actions(state, seat)
            codes = [a.code for a in legal]
            wanted = (prompt.kind == "arrange" and any(c.startswith("mn.") for c in codes)
                      if arrange else any(c.startswith(EXP2) for c in codes))
            if wanted:
                out.append(panel_of(state, seat))
            state, _ = GAME.apply(state, seat, policy.choose(GAME, state, seat, legal))
    return tuple(out)


@pytest.mark.parametrize("lang", ["en", "es"])
def test_every_exp2_decision_offers_exactly_its_legal_choices(lang: str) -> None:
    kinds: set[str | None] = set()
    heads: set[str] = set()
    for panel in panels():
        kinds.add(panel.kind)
        every = controls(panel, lang)
        within_limits(every)
        found = reachable(every)
        legal = set(panel.legal)
        heads.update(c.split(".")[0] for c in legal)
        assert legal - found == set(), (panel.kind, sorted(legal - found)[:5])
        assert found <= legal, (panel.kind, sorted(found - legal)[:5])
    assert kinds >= {"noble_or_colonist", "hunting_lodge", "royal_supplier", "sell"}
    assert heads >= {"n", "hl", "rs", "lo"}


def test_each_exp2_code_has_exactly_one_command() -> None:
    """``/pr take`` answers the take, the Hunting Lodge and the Royal Supplier, ``/pr place``
    places nobles, ``/pr sell`` uses the Land Office."""
    expected = {"n": "take", "hl": "take", "rs": "take", "lo": "sell", "mn": "place"}
    for panel in (*panels(), *panels(True)):
        for code in panel.legal:
            owners = [d.name for d in PR.decisions if d.matches(code)]
            assert len(owners) == 1, (code, owners)
            head = code.split(".")[0]
            if head in expected:
                assert owners == [expected[head]], code


def plan_of(panel: Panel) -> Arrangement:
    plan = panel.extras["arrangement"]
    assert isinstance(plan, Arrangement)
    return plan


def noble_menu(every: list[dict[str, Any]]) -> dict[str, Any] | None:
    return next((c for c in every if str(c.get("custom_id", "")).startswith("ma:")
                 and str(c["custom_id"]).split(":")[3] == "n"), None)


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_mayor_draft_picks_the_nobles_circles_when_it_is_a_choice(lang: str) -> None:
    """A19: the nobles' menu lists the draft's circles, those with nobles selected, and asks
    for as many as the rules allow; without a noble function it is absent (they go first)."""
    seen = {True: 0, False: 0}
    for panel in panels(True):
        plan = plan_of(panel)
        every = controls(panel, lang)
        within_limits(every)
        draft, nobles = read(plan, None)
        menu = noble_menu(every)
        low, high = plan.noble_range(draft)
        places = {p.name for p, n in zip(plan.places, draft, strict=True) if n}
        wanted = plan.noble_choice and high > 0 and len(places) > 1
        assert (menu is not None) == wanted, (plan, menu)
        seen[plan.noble_choice] += 1
        confirm = next(c for c in every if str(c.get("custom_id", "")).startswith("mb:"))
        assert str(confirm["custom_id"]).endswith(":" + write(draft, nobles))
        if menu is None:
            continue
        chosen = {o["value"] for o in menu["options"] if o.get("default")}
        assert len(chosen) == sum(nobles)
        assert menu["min_values"] == low and menu["max_values"] == max(1, high)
        assert len(menu["options"]) == min(sum(draft), 25)
    assert seen[True] and seen[False]


def test_a_nobles_pick_redraws_the_draft_and_confirms_it() -> None:
    """The draft text a menu pick leads to is drawn and confirmed as is: the nobles in the
    circles picked, the confirmation carrying them."""
    panel = next(p for p in panels(True) if plan_of(p).noble_choice
                 and noble_menu(controls(p)) is not None)
    plan = plan_of(panel)
    draft, _ = read(plan, None)
    menu = noble_menu(controls(panel))
    assert menu is not None
    values = [o["value"] for o in menu["options"]]
    low, high = plan.noble_range(draft)
    picked = values[-high:] if high else []
    new = plan.with_nobles(picked, draft)
    text = write(draft, new)
    redrawn = controls(panel, draft=text)
    again = noble_menu(redrawn)
    assert again is not None
    assert {o["value"] for o in again["options"] if o.get("default")} == set(picked)
    confirm = next(c for c in redrawn if str(c.get("custom_id", "")).startswith("mb:"))
    assert str(confirm["custom_id"]).endswith(":" + text) and not confirm.get("disabled")
    shown = PR.panel_view(panel, text)["players"][panel.seat]
    assert shown["nobles"]["san_juan"] == plan.nobles - sum(new)
    assert low <= sum(new) <= high
