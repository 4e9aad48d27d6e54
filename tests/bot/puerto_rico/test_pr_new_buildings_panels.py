"""The private panel of Exp. 1's decisions (rules spec §10) and their slash commands:

* the draft: one menu per cost with a space left ("Cost 5 · 2 spaces left · 4 to choose
  from"), each option a building with its cost, VP and effect in a few words, the buildings
  drafted so far above them;
* settling with the Forest house: the tiles, a Forest menu, the pass;
* the Black market: its menu of buildings, and once one is chosen (the panel's draft, as the
  ``bk:`` menu redraws it) the menus of that building's payments, each a legal code;
* the Small wharf: one multi-select of the barrels composed into the code, a button for none;
* the Guest house: the interlude's places and Done; in any other decision a menu of moves.

Every legal code is reachable from the panel, each control within Discord's limits, and
exactly one decision command (``/pr draft``, ``/pr guest``, ``/pr settle``, ``/pr build``,
``/pr sell``, ``/pr ship``, ``/pr take``, ``/pr pass``) offers it."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from functools import cache
from typing import Any

import pytest

from bot.games import presenter_for
from bot.games.contract import Panel
from bot.games.puerto_rico import exp1_panels
from bot.panels import PanelView
from engine import get_game
from engine.policies import make_policy
from storage import GameRecord, GameStatus, SeatRecord
from tests.engine.puerto_rico.scenario import Scenario

PR = presenter_for("puerto-rico")
GAME = get_game("puerto-rico")
AT = datetime(2026, 1, 1, tzinfo=UTC)
EXP1 = ("d.", "f.", "bm.", "tp.", "sw.", "g.")
BOARD = ["small_market", "black_market", "forest_house", "storehouse", "guest_house", "church",
         "trading_post", "small_wharf", "lighthouse", "library", "specialty_factory",
         "union_hall", "guild_hall", "residence", "cloister", "statue", "city_hall"]


def record(players: int, options: dict[str, Any] | None = None) -> GameRecord:
    seats = tuple(SeatRecord(n, 100 + n, None, AT) for n in range(players))
    return GameRecord(7, "puerto-rico", options or {"players": players}, 1, GameStatus.ACTIVE,
                      42, 40, 1, 2, 100, "en", AT, AT, AT, AT, None, seats)


def panel_of(state: Any, seat: int) -> Panel:
    prompt = GAME.prompt(state)
    assert prompt is not None
    view = GAME.view(state, seat)
    codes = tuple(GAME.encode_action(a) for a in GAME.legal_actions(state, seat))
    players = GAME.players(state)
    return Panel(record(players, dict(view["options"])), seat, view, prompt.kind, codes,
                 {n: f"P{n}" for n in range(players)},
                 extras=PR.panel_extras(GAME, state, seat, view, codes, prompt.kind))


@cache
def panels() -> tuple[Panel, ...]:
    """Every decision with an Exp. 1 code or prompt of seeded random games with Exp. 1."""
    out = []
    for seed in range(8):
        players = 2 + seed % 4
        state = GAME.setup({"players": players, "modules": ["new_buildings"]}, seed)
        policy = make_policy("random", "puerto-rico", seed)
        while (prompt := GAME.prompt(state)) is not None:
            seat = prompt.seats[0]
            legal = GAME.legal_actions(state, seat)
            codes = [a.code for a in legal]
            if prompt.kind != "arrange" and any(c.startswith(EXP1) for c in codes):
                out.append(panel_of(state, seat))
            state, _ = GAME.apply(state, seat, policy.choose(GAME, state, seat, legal))
    return tuple(out)


def walk(components: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    for comp in components:
        yield comp
        yield from walk(comp.get("components", []))


def controls(panel: Panel, lang: str = "en", draft: str | None = None) -> list[dict[str, Any]]:
    built: Any = PanelView(panel, lang, draft=draft).build()[0]
    components: list[dict[str, Any]] = built.to_components()
    return list(walk(components))


def reachable(every: list[dict[str, Any]]) -> set[str]:
    """The codes a click can send: buttons, single menus, and every code the Small wharf's
    multi-select composes (any non-empty choice of its barrels)."""
    out = set()
    for comp in every:
        custom_id = str(comp.get("custom_id", ""))
        if comp.get("disabled"):
            continue
        if custom_id.startswith("g:"):
            out.add(custom_id.split(":", 3)[3])
        elif custom_id.startswith("gs:") and custom_id.endswith(f":{exp1_panels.SMALL_WHARF}"):
            values = [o["value"] for o in comp["options"]]
            out.update(small_wharf_codes(values))
        elif custom_id.startswith("gs:"):
            out.update(o["value"] for o in comp["options"])
    return out


def small_wharf_codes(values: list[str]) -> set[str]:
    goods: dict[str, list[str]] = {}
    for value in values:
        goods.setdefault(value.split(".")[1], []).append(value)
    combos: list[list[str]] = [[]]
    for chosen in goods.values():
        combos = [c + chosen[:n] for c in combos for n in range(len(chosen) + 1)]
    out = set()
    for combo in combos:
        if combo:
            code = PR.compose(exp1_panels.SMALL_WHARF, combo)
            assert code is not None
            out.add(code)
    return out


def black_market_menu(every: list[dict[str, Any]]) -> dict[str, Any] | None:
    return next((c for c in every if str(c.get("custom_id", "")).startswith("bk:")), None)


def within_limits(every: list[dict[str, Any]]) -> None:
    assert len(every) <= 40
    assert all(len(str(c.get("custom_id", ""))) <= 100 for c in every)
    assert all(len(str(c.get("label", ""))) <= 80 for c in every)
    assert all(len(c.get("options", ())) <= 25 for c in every)
    assert all(len(str(c.get("placeholder", ""))) <= 150 for c in every)
    for comp in every:
        for option in comp.get("options", ()):
            assert 0 < len(option["label"]) <= 100
            assert len(option.get("description") or "") <= 100


@pytest.mark.parametrize("lang", ["en", "es"])
def test_every_exp1_decision_offers_exactly_its_legal_choices(lang: str) -> None:
    """The panel reaches every legal code (a Black market payment once its building is chosen
    in the ``bk:`` menu), and nothing else."""
    kinds: set[str | None] = set()
    heads: set[str] = set()
    for panel in panels():
        kinds.add(panel.kind)
        every = controls(panel, lang)
        within_limits(every)
        found = reachable(every)
        menu = black_market_menu(every)
        if menu is not None:
            for option in menu["options"]:
                chosen = controls(panel, lang, draft=option["value"])
                within_limits(chosen)
                found |= reachable(chosen)
        legal = set(panel.legal)
        heads.update(c.split(".")[0] for c in legal)
        missing = {c for c in legal - found if not (c.startswith("sw.") and over_25(panel))}
        assert missing == set(), (panel.kind, sorted(missing)[:5])
        assert found <= legal, (panel.kind, sorted(found - legal)[:5])
    assert kinds >= {"draft", "interlude", "settle", "build", "sell", "ship"}
    assert heads >= {"d", "f", "bm", "tp", "sw", "g"}


def over_25(panel: Panel) -> bool:
    """A Small wharf owner with more than 25 barrels: the menu shows 25 of them (every mix
    stays open through ``/pr ship``)."""
    me = panel.view["players"][panel.seat]
    return sum(int(n) for n in me["goods"].values()) > 25


def test_the_draft_menus_by_cost() -> None:
    sc = Scenario(players=4, seed=2, modules=["new_buildings"])
    state = sc.act(sc.state, 0, "d.church")
    state = sc.act(state, 1, "d.small_market")
    panel = panel_of(state, 2)
    every = controls(panel)
    menus = {str(c["custom_id"]).rsplit(":", 1)[1]: c for c in every
             if str(c.get("custom_id", "")).startswith("gs:")}
    assert sorted(menus, key=lambda k: int(k.split("_")[1])) == [
        f"draft_{c}" for c in (2, 3, 4, 5, 6, 7, 8, 9, 10)]  # cost 1's one space is filled
    five = menus["draft_5"]
    assert five["placeholder"] == "Cost 5 · 1 space left · 3 to choose from"
    assert [o["value"] for o in five["options"]] == ["d.office", "d.large_market",
                                                     "d.trading_post"]
    assert five["options"][2]["label"] == "Trading post — cost 5, 2 VP"
    assert five["options"][2]["description"] == "1 circle: sell to your own post, any kind"
    assert menus["draft_10"]["placeholder"] == "Cost 10 · 5 spaces left · 7 to choose from"
    text = " ".join(str(c.get("content", "")) for c in every)
    assert "Drafted so far: Church and Small market" in text
    es = controls(panel, "es")
    assert any(c.get("placeholder") == "Coste 5 · queda 1 espacio · 3 para elegir" for c in es)
    first = controls(panel_of(Scenario(players=2, seed=2, modules=["new_buildings"]).state, 0))
    assert "Nothing drafted yet: you pick first." in " ".join(
        str(c.get("content", "")) for c in first)


def test_the_2004_rule_keeps_the_hacienda_and_the_forest_house_apart() -> None:
    sc = Scenario(players=3, seed=2, modules=["new_buildings"], exclusive_forest_house=True)
    state = sc.act(sc.state, 0, "d.hacienda")
    codes = sc.legal(state, 1)
    assert "d.forest_house" not in codes and "d.black_market" in codes


def board(players: int = 3, **options: Any) -> Scenario:
    sc = Scenario(players=players, seed=1, modules=["new_buildings"], **options)
    sc.board(BOARD)
    return sc


def test_settling_with_forests() -> None:
    sc = board()
    sc.player(0, buildings={"forest_house": 1})
    state = sc.choose("settler", seat=0)
    panel = panel_of(state, 0)
    every = controls(panel)
    forest = next(c for c in every if str(c.get("custom_id", "")).endswith(":forest"))
    assert forest["placeholder"] == "Forest house: lay one face down as a forest"
    assert {o["value"] for o in forest["options"]} == {
        c for c in panel.legal if c.startswith("f.")}
    assert forest["options"][0]["description"].startswith("face down: needs no colonist")
    assert reachable(every) == set(panel.legal)


def test_the_black_market_in_two_steps() -> None:
    """First the building (its price and effect), then its payments; the doubloons are all of
    them anyway (said on each payment)."""
    sc = board()
    sc.player(0, doubloons=3, vp=2, san_juan=1, goods={"sugar": 1, "corn": 2},
              tiles={"corn": (2, 1)}, buildings={"black_market": 1, "small_market": 1})
    state = sc.choose("builder", seat=0)
    panel = panel_of(state, 0)
    every = controls(panel)
    menu = black_market_menu(every)
    assert menu is not None and str(menu["custom_id"]) == "bk:7:42"
    assert menu["placeholder"].startswith("Black market: build for more than your doubloons (")
    church = next(o for o in menu["options"] if o["value"] == "church")
    assert church["label"] == "Church — costs 4 doubloons, 2 VP"  # the Builder's privilege
    assert not {o["value"] for o in menu["options"]} & {c[2:] for c in panel.legal
                                                        if c.startswith("b.")}
    assert not any(str(c.get("custom_id", "")).startswith("gs:7:42:bmpay") for c in every)
    chosen = controls(panel, draft="church")
    text = " ".join(str(c.get("content", "")) for c in chosen)
    assert ("Black market for the Church: it costs you 4 doubloons and you have 3 doubloons. "
            "You pay them all and cover the other 1") in text
    pay = [c for c in chosen if str(c.get("custom_id", "")).startswith("gs:7:42:bmpay")]
    values = {o["value"] for c in pay for o in c["options"]}
    assert values == {c for c in panel.legal if c.startswith("bm.church")}
    labels = {o["value"]: o["label"] for c in pay for o in c["options"]}
    assert labels["bm.church.c.san_juan"] == "a colonist from San Juan"
    assert labels["bm.church.g.sugar"] == "1 barrel of sugar"
    assert labels["bm.church.vp"] == "1 VP chip"
    assert all(o["description"] == "and all your 3 doubloons: you end with none"
               for c in pay for o in c["options"])
    bk = next(c for c in chosen if str(c.get("custom_id", "")).startswith("bk:"))
    assert [o["value"] for o in bk["options"] if o.get("default")] == ["church"]


def test_the_small_wharf_multi_select() -> None:
    sc = board()
    sc.player(0, goods={"corn": 2, "sugar": 1, "coffee": 1}, buildings={"small_wharf": 1})
    sc.ships([(4, "corn", 4), (5, "sugar", 5), (6, "coffee", 6)])
    state = sc.choose("captain", seat=0)
    panel = panel_of(state, 0)
    every = controls(panel)
    menu = next(c for c in every if str(c.get("custom_id", "")) == "gs:7:42:sw")
    assert menu["min_values"] == 1 and menu["max_values"] == 4
    assert [o["label"] for o in menu["options"]] == [
        "corn · barrel 1 of 2", "corn · barrel 2 of 2", "sugar · barrel 1 of 1",
        "coffee · barrel 1 of 1"]
    assert menu["placeholder"] == "Small wharf: choose the barrels to ship (1 VP per 2)"
    assert reachable(every) == set(panel.legal)
    values = [o["value"] for o in menu["options"]]
    assert PR.compose("sw", ["sw.coffee.1", "sw.corn.2"]) == "sw.corn1.coffee1"
    assert PR.decompose("sw", "sw.corn2.coffee1", values) == [
        "sw.corn.1", "sw.corn.2", "sw.coffee.1"]
    assert PR.decompose("sw", "sw.none", values) is None
    assert PR.compose("sw", ["ship.corn.1"]) is None
    none = next(c for c in every if str(c.get("custom_id", "")) == "g:7:42:sw.none")
    assert none["label"] == "Small wharf: ship no barrel (counts as your load)"


def test_many_barrels_share_the_menu() -> None:
    assert len(exp1_panels.barrels({"corn": 20, "sugar": 10, "coffee": 1})) == 25
    shown = exp1_panels.barrels({"corn": 20, "sugar": 10, "coffee": 1})
    assert {g for g, _, _ in shown} == {"corn", "sugar", "coffee"}


def test_guests_move_inside_other_decisions_and_in_the_interlude() -> None:
    sc = board()
    sc.player(0, doubloons=10, tiles={"corn": (2, 0)},
              buildings={"guest_house": 2, "library": 0, "small_market": 1})
    state = sc.choose("builder", seat=0)
    assert GAME.prompt(state).kind == "interlude"  # type: ignore[union-attr]  # A30
    state = sc.act(state, 0, "pass")
    panel = panel_of(state, 0)
    assert panel.kind == "build" and any(c.startswith("g.") for c in panel.legal)
    every = controls(panel)
    guest = next(c for c in every if str(c.get("custom_id", "")) == "gs:7:42:guest")
    assert guest["placeholder"] == (
        "Guest house: move a guest now (it stays until the next Mayor phase)")
    assert {o["value"] for o in guest["options"]} == {"g.corn", "g.library"}
    assert reachable(every) >= {"g.corn", "g.library"} | {
        c for c in panel.legal if c.startswith("b.")}
    # the move does not end the decision
    state = sc.act(state, 0, "g.library")
    assert GAME.prompt(state).kind == "build"  # type: ignore[union-attr]


def test_the_interlude_panel() -> None:
    panel = next(p for p in panels() if p.kind == "interlude")
    every = controls(panel, "es")
    text = " ".join(str(c.get("content", "")) for c in every)
    assert "Tus huéspedes de la Posada pueden moverse ahora" in text
    labels = {str(c["custom_id"]).split(":", 3)[3]: c.get("label") for c in every
              if str(c.get("custom_id", "")).startswith("g:7:42:")}
    if labels:
        assert labels.pop("pass") == "Listo: los huéspedes se quedan"
        assert all(str(v).startswith("Mover un huésped a ") for v in labels.values())


def test_the_decision_commands_offer_the_new_codes() -> None:
    decisions = {d.name: d for d in PR.decisions}
    assert decisions["draft"].matches("d.church") and decisions["guest"].matches("g.library")
    assert decisions["settle"].matches("f.corn") and decisions["build"].matches("bm.church.vp")
    assert decisions["sell"].matches("tp.corn") and decisions["ship"].matches("sw.corn1")
    assert decisions["take"].matches("o.forest")
    for panel in panels():
        for code in panel.legal:
            assert sum(d.matches(code) for d in PR.decisions) == 1, code
    for lang, draft, guest in (("en", "draft", "guest"), ("es", "elegir", "huesped")):
        assert PR.catalog.t(lang, "cmd.draft.name") == draft
        assert PR.catalog.t(lang, "cmd.guest.name") == guest
