"""Issue #9: every choice says what it costs and what it brings, in words and within Discord's
limits (button label 80, option label and description 100, autocomplete choice 100)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from bot.games import presenter_for
from bot.games.puerto_rico import PuertoRicoPresenter
from bot.games.puerto_rico.catalog import CATALOG
from bot.games.puerto_rico.choices import Chooser, Effect
from bot.i18n import LANGUAGES
from engine import get_game
from engine.policies import make_policy

PR = presenter_for("puerto-rico")
GAME = get_game("puerto-rico")


def decisions(players: int, seed: int) -> Iterator[tuple[Any, int]]:
    state = GAME.setup({"players": players}, seed)
    policy = make_policy("random", "puerto-rico", seed)
    while (prompt := GAME.prompt(state)) is not None:
        for seat in prompt.seats:
            yield state, seat
        seat = prompt.seats[0]
        state, _ = GAME.apply(state, seat,
                              policy.choose(GAME, state, seat, GAME.legal_actions(state, seat)))


def chooser(state: Any, seat: int, lang: str) -> tuple[Chooser, tuple[str, ...]]:
    codes = tuple(GAME.encode_action(a) for a in GAME.legal_actions(state, seat))
    prompt = GAME.prompt(state)
    return Chooser(GAME.view(state, seat), lang, CATALOG,
                   effects=PuertoRicoPresenter._effects(GAME, state, seat, codes),
                   prompt_kind=prompt.kind if prompt else None), codes


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize(("players", "seed"), [(2, 11), (3, 12), (4, 13), (5, 14)])
def test_every_choice_of_a_game_is_worded_within_discords_limits(
        players: int, seed: int, lang: str) -> None:
    seen: set[str] = set()
    for state, seat in decisions(players, seed):
        words, codes = chooser(state, seat, lang)
        for code in codes:
            label, name = words.label(code), words.choice_name(code)
            description = words.description(code)
            assert 0 < len(label) <= 80 and 0 < len(name) <= 100, (code, label, name)
            assert description is None or 0 < len(description) <= 100
            for text in (label, name, description or ""):
                assert "{" not in text and "_" not in text, (code, text)
            head = code.split(".", 1)[0]
            seen.add(head)
            if head in ("b", "s", "o", "c") or (head == "r" and "prospector" not in code) or (
                    head == "m" and code != "m.auto"):
                assert description, code  # what it brings, in a few words
            if head == "b":
                price = words.price(code[2:])
                assert CATALOG.count(lang, "doubloons", price) in label, label
            if head in ("t", "ship", "wharf"):
                assert any(ch.isdigit() for ch in label.rsplit("—", 1)[-1]), label
    assert {"r", "s", "b", "t", "ship", "m", "pass"} <= seen


def test_every_building_role_and_tile_has_its_effect() -> None:
    game = GAME.view(GAME.setup({"players": 4}, 0), None)
    buildings = [str(b["building"]) for b in game["market"]]
    assert len(buildings) == 23
    keys = [f"effect.{b}" for b in buildings]
    keys += [f"effect.role.{r['role']}" for r in game["roles"]]
    keys += [f"effect.tile.{t}" for t in ("corn", "indigo", "sugar", "tobacco", "coffee",
                                          "quarry", "hacienda")]
    assert [k for k in keys if not CATALOG.has(k)] == []
    for lang in LANGUAGES:
        for key in keys:
            assert len(CATALOG.t(lang, key)) <= 70, (lang, key)


def market_view(price: int = 1) -> dict[str, Any]:
    """Seat 0's view of a new game, with this market, role, ships and holdings."""
    base = GAME.view(GAME.setup({"players": 3}, 5), 0)
    return {
        **base,
        "viewer": 0, "prompt": {"kind": "build", "seats": [0], "forced": False},
        "market": [{"building": "small_indigo_plant", "left": 4, "cost": 1, "vp": 1,
                    "column": 1, "circles": 1, "size": 1, "kind": "small_production",
                    "good": "indigo", "price": price},
                   {"building": "city_hall", "left": 1, "cost": 10, "vp": 4, "column": 4,
                    "circles": 1, "size": 2, "kind": "large_violet", "good": None,
                    "price": 8}],
        "roles": [{"card": "settler", "role": "settler", "doubloons": 2, "taken_by": None}],
        "ships": [{"capacity": 4, "good": None, "count": 0},
                  {"capacity": 5, "good": "corn", "count": 1}],
        "players": [{**base["players"][0], "doubloons": 5, "vp": 3, "san_juan": 3,
                     "goods": {"corn": 3, "indigo": 2, "sugar": 0}}],
    }


def test_build_options_say_price_vp_circles_and_effect() -> None:
    words = Chooser(market_view(), "en")
    assert words.label("b.small_indigo_plant") == "Small indigo plant — costs 1 doubloon, 1 VP"
    assert words.description("b.small_indigo_plant") == "1 circle: turns indigo into barrels"
    assert words.choice_name("b.small_indigo_plant") == (
        "Small indigo plant — costs 1 doubloon, 1 VP, 1 circle: turns indigo into barrels")
    assert words.label("b.city_hall") == "City hall — costs 8 doubloons instead of 10, 4 VP"
    es = Chooser(market_view(), "es")
    assert es.choice_name("b.small_indigo_plant") == (
        "Añilería pequeña — cuesta 1 doblón, 1 PV, 1 círculo: convierte el añil en barriles")


def test_loads_sales_and_roles_say_what_they_bring() -> None:
    effects = {"ship.corn.0": Effect(vp=3, barrels=3), "ship.corn.1": Effect(vp=3, barrels=3),
               "t.indigo": Effect(doubloons=2), "t.corn": Effect(doubloons=0),
               "wharf.corn": Effect(vp=4, barrels=3)}
    words = Chooser(market_view(), "en", effects=effects)
    assert words.label("ship.corn.0") == "Load 3 corn on ship 1 (3/4) — +3 VP"
    assert words.label("ship.corn.1") == "Load 3 corn on ship 2 (4/5) — +3 VP"
    assert words.label("wharf.corn") == "Ship 3 corn from your Wharf — +4 VP"
    assert words.label("t.indigo") == "Sell indigo — +2 doubloons"
    assert words.label("t.corn") == "Sell corn — +0 doubloons"
    assert words.label("r.settler") == "Settler · +2 doubloons"
    assert words.choice_name("r.settler") == (
        "Settler · +2 doubloons — everyone takes a plantation; you may take a quarry")
    assert words.label("keep.corn1.indigo2") == "Keep 1 corn and 2 indigo — lose 2 corn"
    assert words.label("keep.none") == "Keep nothing — lose 3 corn and 2 indigo"
    assert words.label("m.auto") == "Place 3 colonists as suggested"
    assert words.choice_name("m.small_market") == (
        "One colonist on the Small market — +1 doubloon for each sale")
    es = Chooser(market_view(), "es", effects=effects)
    assert es.label("ship.corn.0") == "Cargar 3 de maíz en el barco 1 (3/4) — +3 PV"
    assert es.label("t.indigo") == "Vender añil — +2 doblones"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_full_lobby_says_it_is_full_and_who_can_start(lang: str) -> None:
    from datetime import UTC, datetime

    from bot.presenters import lobby_embed
    from storage import GameRecord, GameStatus, SeatRecord

    at = datetime(2026, 1, 1, tzinfo=UTC)

    def lobby(seats: int) -> GameRecord:
        return GameRecord(3, "puerto-rico", {"players": 3}, 1, GameStatus.LOBBY, 0, 0, 1, 2,
                          9, lang, at, at, None, None, None,
                          tuple(SeatRecord(n, 10 + n, None, at) for n in range(seats)))

    full = lobby_embed(lobby(3), lang, "heuristic").description or ""
    open_ = lobby_embed(lobby(2), lang, "heuristic").description or ""
    join, start = CATALOG.t(lang, "button.join"), CATALOG.t(lang, "button.start")
    assert join in open_ and join not in full
    assert start in full and CATALOG.count(lang, "seats", 3) in full
