"""Expansion 2, The Nobles: the eight buildings (rules spec §11.2-§11.3, rulings A40-A44 of §14.3,
Appendix C; the seed [A], which wins where the two disagree).

A building with a colonist function and a noble function uses the one of its occupant
(§11.1).  Each test names its building and rule.  Nobles are placed with
``tests.engine.puerto_rico.nobles_scenario.nobles``.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.core import Prompt
from engine.puerto_rico.actions import BUILDING_INDEX
from engine.puerto_rico.data import GOOD_INDEX
from engine.puerto_rico.scoring import score_breakdown
from engine.puerto_rico.state import NOB_SUPPLY, State
from tests.engine.puerto_rico.nobles_scenario import (
    kind_of,
    nob,
    noble_count,
    noble_supplies,
    nobles,
    seats_of,
)
from tests.engine.puerto_rico.scenario import GAME, Scenario

CORN, INDIGO, SUGAR, COFFEE = (GOOD_INDEX[g] for g in ("corn", "indigo", "sugar", "coffee"))


def _amounts(sc: Scenario, event: str, reason: str, seat: int | None = None) -> list[int]:
    return [
        int(e.data["amount"])
        for e in sc.events_of(event)
        if e.data["reason"] == reason and (seat is None or e.seat == seat)
    ]


def _price(state: State, seat: int, name: str) -> int:
    [entry] = [m for m in GAME.view(state, seat)["market"] if m["building"] == name]
    return int(entry["price"])


def _codes(sc: Scenario, state: State, seat: int, prefix: str) -> list[str]:
    return [c for c in sc.legal(state, seat) if c.startswith(prefix)]


# --- Land Office (§11.3, A41) ------------------------------------------------------------------


def test_land_office_colonist_buys_the_top_face_down_plantation_for_1_and_still_sells() -> None:
    """§11.3 Land Office with a colonist: pay 1 doubloon, take the top face-down plantation onto
    the island; A41: on the owner's Trader turn, in addition to his sale (before it), once."""
    sc = nob()
    sc.player(0, doubloons=3, goods={"indigo": 1}, buildings={"land_office": 1})
    deck = sum(sc.state.deck)
    island = sc.state.players[0].island()
    state = sc.choose("trader", 0)
    assert sc.legal(state, 0) == ["t.indigo", "lo.buy", "pass"]
    state = sc.act(state, 0, "lo.buy")
    p = state.players[0]
    assert p.doubloons == 2 and p.island() == island + 1 and sum(state.deck) == deck - 1
    [taken] = [e for e in sc.events_of("PlantationTaken") if e.data["source"] == "land_office"]
    assert taken.data["price"] == 1 and taken.seat == 0
    assert sc.prompt(state) == Prompt((0,), "sell", False)
    assert sc.legal(state, 0) == ["t.indigo", "pass"]  # once per phase
    state = sc.act(state, 0, "t.indigo")
    assert state.players[0].doubloons == 2 + 1 + 1  # indigo 1 + the Trader's privilege
    assert sc.invariant_failures(state) == []


@pytest.mark.parametrize("case", ["no_money", "island_full", "no_stack", "unoccupied"])
def test_land_office_buy_needs_a_doubloon_room_and_a_tile(case: str) -> None:
    """§11.3 Land Office (colonist): 1 doubloon, an empty island space and a face-down tile are
    needed; an unoccupied Land Office does nothing (§4.0)."""
    sc = nob()
    sc.player(
        0,
        doubloons=0 if case == "no_money" else 3,
        tiles={"corn": 12} if case == "island_full" else None,
        buildings={"land_office": 0 if case == "unoccupied" else 1},
        goods={"corn": 1},
    )
    if case == "no_stack":
        sc.stacks({}, {"corn": 5})
    state = sc.choose("trader", 0)
    assert "lo.buy" not in sc.legal(state, 0)


def test_land_office_noble_sells_a_plantation_for_1_its_piece_to_san_juan() -> None:
    """§11.3 Land Office with a noble: sell any plantation of the island to the discards for 1
    doubloon; its colonist (or noble) goes to San Juan; no Market bonus nor Trader privilege
    (public source).  Engine choice: an unoccupied tile of the kind when there is one."""
    sc = nob()
    sc.player(
        0,
        doubloons=0,
        tiles={"corn": (2, 2), "sugar": 1, "quarry": (1, 1)},
        buildings={"land_office": 1, "small_market": 1},
    )
    nobles(sc, 0, land_office=1, corn=1)
    discard = sum(sc.state.discard)
    state = sc.choose("trader", 0)
    assert _codes(sc, state, 0, "lo.") == ["lo.sell.corn", "lo.sell.sugar"]  # no quarry
    state = sc.act(state, 0, "lo.sell.corn")
    p = state.players[0]
    assert p.doubloons == 1 and p.tiles[CORN] == 1 and sum(state.discard) == discard + 1
    assert p.san_juan == 1 and p.workers[CORN] == 1
    [sold] = sc.events_of("PlantationSold")
    assert sold.data == {"tile": "corn", "price": 1, "displaced": "colonist"}
    assert _codes(sc, state, 0, "lo.") == []
    assert sc.invariant_failures(state) == []
    # an unoccupied sugar goes without moving a piece
    sc = nob()
    sc.player(0, tiles={"sugar": (2, 1)}, buildings={"land_office": 1})
    nobles(sc, 0, land_office=1)
    state = sc.choose("trader", 0)
    state = sc.act(state, 0, "lo.sell.sugar")
    assert state.players[0].workers[SUGAR] == 1 and state.players[0].san_juan == 0
    assert sc.events_of("PlantationSold")[-1].data["displaced"] is None


def test_land_office_noble_selling_an_occupied_tile_of_nobles_sends_the_noble() -> None:
    """§11.3: "coloca el trabajador o Noble que la ocupaba en su Puerto": a tile worked by a
    noble sends the noble to San Juan."""
    sc = nob()
    sc.player(0, tiles={"corn": (1, 1)}, buildings={"land_office": 1})
    nobles(sc, 0, land_office=1, corn=1)
    state = sc.choose("trader", 0)
    state = sc.act(state, 0, "lo.sell.corn")
    assert noble_count(state, 0, "san_juan") == 1 and state.players[0].tiles[CORN] == 0
    assert sc.events_of("PlantationSold")[-1].data["displaced"] == "noble"
    assert sc.invariant_failures(state) == []


def test_land_office_gives_its_owner_a_turn_with_nothing_to_sell() -> None:
    """A41: the Land Office is used on the owner's Trader turn even when he has no barrel to
    sell (the others, with nothing to sell, are skipped); it is not offered in other phases."""
    sc = nob()
    sc.player(1, doubloons=2, buildings={"land_office": 1})
    for seat in (0, 2, 3):
        sc.player(seat, goods={})
    state = sc.choose("trader", 0)
    assert sc.prompt(state) == Prompt((1,), "sell", False)
    assert sc.legal(state, 1) == ["lo.buy", "pass"]
    state = sc.act(state, 1, "lo.buy")
    assert kind_of(state) == "role"  # nothing left to decide: his turn is over
    assert sc.invariant_failures(state) == []
    sc = nob()
    sc.player(0, doubloons=9, buildings={"land_office": 1})
    state = sc.choose("builder", 0)
    assert not _codes(sc, state, 0, "lo.")


def test_land_office_bought_tile_may_become_a_forest_with_the_forest_house() -> None:
    """§11.3 ([A]): with an occupied Exp. 1 Forest House the tile bought may be placed as a
    forest instead (the Forest House's ``forest`` decision, after seeing it)."""
    sc = nob(modules=["new_buildings"], building_selection="random")
    sc.board(["land_office", "forest_house"])
    sc.player(0, doubloons=2, buildings={"land_office": 1, "forest_house": 1})
    state = sc.choose("trader", 0)
    state = sc.act(state, 0, "lo.buy")
    assert sc.prompt(state) == Prompt((0,), "forest", False)
    state = sc.act(state, 0, "o.forest")
    assert sum(state.players[0].forests) == 1
    assert sc.invariant_failures(state) == []


def test_land_office_noble_sells_a_forest() -> None:
    """§10.2 / §11: the Land Office (noble) may remove a forest too; it returns to the discards
    of the plantation it was laid from."""
    sc = nob(modules=["new_buildings"], building_selection="random")
    sc.board(["land_office"])
    sc.player(0, tiles={}, forests={"coffee": 1}, buildings={"land_office": 1})
    nobles(sc, 0, land_office=1)
    state = sc.choose("trader", 0)
    assert _codes(sc, state, 0, "lo.") == ["lo.sell.forest"]
    state = sc.act(state, 0, "lo.sell.forest")
    assert sum(state.players[0].forests) == 0 and state.discard[COFFEE] == 1
    assert sc.events_of("PlantationSold")[-1].data["tile"] == "forest"
    assert sc.invariant_failures(state) == []


# --- Chapel (§11.3) --------------------------------------------------------------------------


@pytest.mark.parametrize("noble", [False, True])
def test_chapel_at_the_start_of_every_craftsman_phase(noble: bool) -> None:
    """§11.3 Chapel, at the start of every Craftsman phase (whoever chose it): 1 doubloon with a
    colonist, 1 VP with a noble."""
    sc = nob()
    sc.player(2, doubloons=0, vp=0, buildings={"chapel": 1})
    if noble:
        nobles(sc, 2, chapel=1)
    state = sc.choose("craftsman", 0)
    p = state.players[2]
    assert (p.doubloons, p.vp) == ((0, 1) if noble else (1, 0))
    assert _amounts(sc, "VpEarned", "chapel") == ([1] if noble else [])
    assert _amounts(sc, "DoubloonsEarned", "chapel") == ([] if noble else [1])
    sc = nob()
    sc.player(2, doubloons=0, buildings={"chapel": 1})
    state = sc.choose("builder", 0)
    assert state.players[2].doubloons == 0  # only the Craftsman phase


def test_unoccupied_chapel_does_nothing() -> None:
    """§4.0: an unoccupied building has no function."""
    sc = nob()
    sc.player(2, doubloons=0, buildings={"chapel": 0})
    state = sc.choose("craftsman", 0)
    assert state.players[2].doubloons == 0


# --- Hunting Lodge (§11.3, A40) ------------------------------------------------------------------


def _settler_end(sc: Scenario, settler: int = 0) -> State:
    state = sc.choose("settler", settler)
    while kind_of(state) == "settle":
        seat = seats_of(state)[0]
        state = sc.act(state, seat, "pass")
    return state


@pytest.mark.parametrize(("others", "vp"), [(2, 2), (3, 0)])
def test_hunting_lodge_noble_2_vp_only_with_strictly_most_empty_spaces_a40(
    others: int, vp: int
) -> None:
    """§11.3, A40: with a noble the owner takes 2 VP at the end of the Settler phase only if he
    has strictly more empty island spaces than every other player; a tie gives nobody
    anything."""
    sc = nob()
    sc.player(1, tiles={"corn": 9}, buildings={"hunting_lodge": 1})  # 3 empty spaces
    nobles(sc, 1, hunting_lodge=1)
    for seat in (0, 2, 3):
        sc.player(seat, tiles={"corn": 12 - others})
    state = _settler_end(sc)
    assert state.players[1].vp == vp
    assert _amounts(sc, "VpEarned", "hunting_lodge") == ([2] if vp else [])
    assert sc.invariant_failures(state) == []


def test_hunting_lodge_colonist_may_discard_a_plantation_before_the_refill() -> None:
    """§11.3 Hunting Lodge with a colonist: at the end of the Settler phase (Appendix C: before
    the face-up plantations are discarded and refilled) the owner may discard one plantation or
    forest; its piece goes to San Juan; the tile goes to the discards."""
    sc = nob()
    sc.player(2, tiles={"corn": (1, 1), "indigo": 1, "quarry": 1}, buildings={"hunting_lodge": 1})
    state = _settler_end(sc)
    assert sc.prompt(state) == Prompt((2,), "hunting_lodge", False)
    assert sc.legal(state, 2) == ["hl.corn", "hl.indigo", "pass"]
    revealed = len(sc.events_of("PlantationsRevealed"))
    state = sc.act(state, 2, "hl.corn")
    p = state.players[2]
    assert p.tiles[CORN] == 0 and p.san_juan == 1
    [discarded] = sc.events_of("PlantationDiscarded")
    assert discarded.data == {"tile": "corn", "by": "hunting_lodge", "displaced": "colonist"}
    assert len(sc.events_of("PlantationsRevealed")) == revealed + 1  # the refill came after
    assert kind_of(state) == "role"
    assert sc.invariant_failures(state) == []


def test_hunting_lodge_discard_is_optional() -> None:
    """A40: the colonist version's discard is optional (``pass``)."""
    sc = nob()
    sc.player(2, tiles={"corn": 1}, buildings={"hunting_lodge": 1})
    state = _settler_end(sc)
    state = sc.act(state, 2, "pass")
    assert state.players[2].tiles[CORN] == 1
    assert sc.events_of("OfferDeclined")[-1].data == {"offer": "hunting_lodge"}


def test_hunting_lodge_owners_in_turn_from_the_settler() -> None:
    """Appendix C Settler step 3: each owner clockwise from the Settler; an earlier owner's
    discard counts for a later owner's noble check."""
    sc = nob()
    sc.player(1, tiles={"corn": 10}, buildings={"hunting_lodge": 1})
    sc.player(2, tiles={"corn": 10}, buildings={"hunting_lodge": 1})
    nobles(sc, 2, hunting_lodge=1)
    for seat in (0, 3):
        sc.player(seat, tiles={"corn": 11})
    state = _settler_end(sc)
    assert sc.prompt(state) == Prompt((1,), "hunting_lodge", False)
    assert state.players[2].vp == 0
    state = sc.act(state, 1, "pass")  # tie at 2 empty spaces: no VP for seat 2
    assert state.players[2].vp == 0
    sc = nob()
    sc.player(1, tiles={"corn": 10}, buildings={"hunting_lodge": 1})
    sc.player(2, tiles={"corn": 10}, buildings={"hunting_lodge": 1})
    nobles(sc, 2, hunting_lodge=1)
    for seat in (0, 3):
        sc.player(seat, tiles={"corn": 11})
    state = _settler_end(sc)
    state = sc.act(state, 1, "hl.corn")  # seat 1 now has 3 empty: still not seat 2's
    assert state.players[2].vp == 0
    assert sc.invariant_failures(state) == []


def test_hunting_lodge_after_the_librarys_second_pick_may_discard_a_forest() -> None:
    """Appendix C: the Hunting Lodge comes after the Exp. 1 Library's second pick; §10.2: it may
    discard a forest (back to the discards of its plantation)."""
    sc = nob(modules=["new_buildings"], building_selection="random")
    sc.board(["library", "hunting_lodge"])
    sc.player(0, tiles={"corn": 1}, buildings={"library": 1, "hunting_lodge": 1})
    sc.player(0, forests={"sugar": 1})
    sc.face_up(["corn", "indigo", "sugar", "coffee", "coffee"])
    state = sc.choose("settler", 0)
    state = sc.act(state, 0, "s.indigo")
    for seat in (1, 2, 3):
        state = sc.act(state, seat, "pass")
    assert sc.prompt(state) == Prompt((0,), "settle", False)  # the Library's second pick
    state = sc.act(state, 0, "s.sugar")
    assert sc.prompt(state) == Prompt((0,), "hunting_lodge", False)
    assert sc.legal(state, 0) == ["hl.corn", "hl.indigo", "hl.sugar", "hl.forest", "pass"]
    state = sc.act(state, 0, "hl.forest")
    assert sum(state.players[0].forests) == 0
    assert sc.invariant_failures(state) == []


# --- Zoning Office (§11.3, A43) ---------------------------------------------------------------


def test_zoning_office_colonist_1_less_on_small_buildings_production_included_a43() -> None:
    """§11.3 Zoning Office with a colonist: 1 doubloon less for any small building (rows 1-3;
    A43: production buildings included), nothing on a large one; it stacks, floor 0 (§6)."""
    sc = nob()
    sc.player(1, doubloons=20, tiles={"quarry": (1, 1)}, buildings={"zoning_office": 1})
    state = sc.state
    assert _price(state, 1, "harbor") == 8 - 1 - 1
    assert _price(state, 1, "indigo_plant") == 3 - 1 - 1
    assert _price(state, 1, "small_market") == 0  # 1 - 1 - 1, floor 0
    assert _price(state, 1, "guild_hall") == 10 - 1
    state = sc.choose("builder", 1)
    assert _price(state, 1, "harbor") == 8 - 1 - 1 - 1  # and the Builder's privilege


def test_zoning_office_noble_2_less_on_large_buildings_only() -> None:
    """§11.3 Zoning Office with a noble: 2 doubloons less for a large building (row 4), nothing
    on a small one."""
    sc = nob()
    sc.player(1, doubloons=20, buildings={"zoning_office": 1})
    nobles(sc, 1, zoning_office=1)
    assert _price(sc.state, 1, "guild_hall") == 8
    assert _price(sc.state, 1, "royal_garden") == 8
    assert _price(sc.state, 1, "harbor") == 8


# --- Royal Supplier (§11.3, A44) ---------------------------------------------------------------


def _royal_supplier(seat: int = 1, **goods: int) -> Scenario:
    sc = nob()
    sc.player(
        seat,
        goods=goods,
        tiles={"corn": (1, 1)},
        buildings={"royal_supplier": 1, "harbor": 1},
        san_juan=1,
        vp=0,
    )
    nobles(sc, seat, corn=1, san_juan=1)
    return sc


@pytest.mark.parametrize("occupant", ["colonist", "noble"])
def test_royal_supplier_trades_before_the_owners_first_turn_a44(occupant: str) -> None:
    """§11.3 Royal Supplier, A44: in the Captain phase, only before the owner's first turn, up to
    (nobles on his board, San Juan included) barrels, each of a different kind, for 1 VP each,
    back to the supply; no other bonus (his occupied Harbor adds nothing).  It works occupied by
    a colonist or a noble (a noble there counts too: then 3 nobles)."""
    sc = _royal_supplier(corn=2, sugar=1, coffee=1)
    if occupant == "noble":
        nobles(sc, 1, royal_supplier=1)
    sc.player(0, goods={"indigo": 2})
    state = sc.choose("captain", 0)
    assert kind_of(state) == "ship"  # the Captain loads first
    state = sc.act(state, 0, "ship.indigo.0")
    assert sc.prompt(state) == Prompt((1,), "royal_supplier", False)
    codes = sc.legal(state, 1)
    pairs = [
        "rs.corn",
        "rs.sugar",
        "rs.corn.sugar",
        "rs.coffee",
        "rs.corn.coffee",
        "rs.sugar.coffee",
    ]  # at most 2 (his 2 nobles), never 2 of a kind
    three = [] if occupant == "colonist" else ["rs.corn.sugar.coffee"]  # a third noble
    assert codes == [*pairs, *three, "pass"]
    supply = state.goods[COFFEE]
    state = sc.act(state, 1, "rs.corn.coffee")
    p = state.players[1]
    assert p.goods[CORN] == 1 and p.goods[COFFEE] == 0 and state.goods[COFFEE] == supply + 1
    assert p.vp == 2 and _amounts(sc, "VpEarned", "royal_supplier") == [2]
    assert not _amounts(sc, "VpEarned", "harbor")
    assert sc.events_of("GoodsTraded")[-1].data == {
        "goods": ["corn", "coffee"],
        "by": "royal_supplier",
    }
    assert sc.prompt(state) == Prompt((1,), "ship", False)  # then his turn as usual
    state = sc.finish_phase(state)
    assert len(sc.events_of("GoodsTraded")) == 1  # once: never on his later turns
    assert sc.invariant_failures(state) == []


def test_royal_supplier_captain_trades_without_the_privilege() -> None:
    """§11.3: the trades get no Captain privilege; the Captain's privilege still comes with his
    first load (ruling A9)."""
    sc = _royal_supplier(seat=0, corn=1, sugar=3)
    state = sc.choose("captain", 0)
    assert sc.prompt(state) == Prompt((0,), "royal_supplier", False)
    state = sc.act(state, 0, "rs.corn")
    assert state.players[0].vp == 1
    state = sc.act(state, 0, "ship.sugar.0")
    assert _amounts(sc, "VpEarned", "shipping", 0) == [3 + 1]


def test_royal_supplier_needs_a_noble_and_a_barrel() -> None:
    """A44: no noble on his board, no trade (occupied by a colonist is enough otherwise); no
    barrel, no question."""
    sc = nob()
    sc.player(1, goods={"corn": 2}, buildings={"royal_supplier": 1})
    state = sc.choose("captain", 0)
    assert not sc.events_of("GoodsTraded")
    assert kind_of(state) != "royal_supplier"
    sc = _royal_supplier()
    state = sc.choose("captain", 0)
    assert kind_of(state) != "royal_supplier"


def test_royal_supplier_pass_keeps_the_barrels() -> None:
    """§11.3: "puede intercambiar": the trade is optional."""
    sc = _royal_supplier(corn=1)
    state = sc.choose("captain", 1)
    state = sc.act(state, 1, "pass")
    assert state.players[1].goods[CORN] == 1 and state.players[1].vp == 0


# --- Villa (§11.3, A42) ------------------------------------------------------------------------


def test_villa_takes_a_noble_before_the_distribution_a42() -> None:
    """§11.3 Villa, A42: once per Mayor phase, before placement (Appendix C: after the Mayor's
    privilege, before the ship's pieces are handed out): 1 noble from the reserve."""
    sc = nob()
    sc.player(2, buildings={"villa": 1})
    state = sc.choose("mayor", 0)
    assert state.nobles[NOB_SUPPLY] == 19  # not before the privilege
    state = sc.act(state, 0, "m.privilege")
    kinds = [(e.type, e.data.get("by")) for e in sc.events]
    assert kinds[-2:] == [("ColonistGained", "mayor"), ("NobleGained", "villa")]
    assert sc.events[-1].seat == 2 and sc.events[-1].data["source"] == "supply"
    assert kind_of(state) == "noble_or_colonist"  # then the distribution
    state = sc.finish_phase(state)
    assert sum(state.players[2].nobles) >= 1
    assert len([e for e in sc.events_of("NobleGained") if e.data["by"] == "villa"]) == 1
    assert sc.invariant_failures(state) == []


@pytest.mark.parametrize(("nobles_left", "colonists", "gets"), [(0, 5, "colonist"), (0, 0, None)])
def test_villa_colonist_when_no_noble_left_else_nothing(
    nobles_left: int, colonists: int, gets: str | None
) -> None:
    """§11.3 Villa: no noble left, 1 colonist from the supply instead; none either, nothing."""
    sc = nob()
    sc.player(2, buildings={"villa": 1}, tiles={"corn": 3})
    noble_supplies(sc, supply=nobles_left)
    sc.set_colonists(supply=colonists)
    state = sc.choose("mayor", 0)
    if colonists:
        state = sc.act(state, 0, "pass")
    villa = [e for e in sc.events_of("ColonistGained") if e.data["by"] == "villa"]
    assert len(villa) == (1 if gets == "colonist" else 0)
    assert not [e for e in sc.events_of("NobleGained") if e.data["by"] == "villa"]
    assert sc.invariant_failures(state) == []


# --- Jeweler (§11.2-§11.3) ------------------------------------------------------------------------


def test_jeweler_one_doubloon_per_noble_at_the_owners_production() -> None:
    """§11.3 Jeweler, at the owner's production step: 1 doubloon per noble on his board ("en
    su isla", San Juan included as for A44); it produces no goods."""
    sc = nob()
    sc.player(
        1,
        doubloons=0,
        tiles={"corn": (2, 2)},
        buildings={"jeweler": 1},
        san_juan=1,
    )
    nobles(sc, 1, corn=2, san_juan=1)
    state = sc.choose("craftsman", 0)
    assert state.players[1].doubloons == 3
    assert _amounts(sc, "DoubloonsEarned", "jeweler") == [3]
    assert state.players[1].goods[CORN] == 2
    assert sc.invariant_failures(state) == []


def test_jeweler_counts_as_a_large_production_building_not_for_the_city_hall() -> None:
    """§11.2: the Jeweler counts as a large production building for the Guild Hall (+2); it is
    not a violet building for the City Hall."""
    sc = nob()
    sc.player(
        0,
        buildings={"jeweler": 0, "guild_hall": 1, "city_hall": 1, "small_indigo_plant": 0},
    )
    parts = score_breakdown(sc.state, 0)
    assert parts["guild_hall"] == 2 + 1
    assert parts["city_hall"] == 2  # the Guild Hall and the City Hall themselves


# --- Royal Garden (§11.3) ---------------------------------------------------------------------


@pytest.mark.parametrize(("occupied", "bonus"), [(1, 3), (0, None)])
def test_royal_garden_one_more_vp_per_noble_when_occupied(occupied: int, bonus: Any) -> None:
    """§11.3 Royal Garden, occupied at game end: +1 VP per noble on the board (buildings,
    plantations, San Juan), so each noble is worth 2 VP."""
    sc = nob()
    sc.player(0, tiles={"corn": (1, 1)}, buildings={"royal_garden": occupied}, san_juan=2)
    nobles(sc, 0, corn=1, san_juan=2)
    parts = score_breakdown(sc.state, 0)
    assert parts.get("royal_garden") == bonus
    assert parts["nobles"] == 3
    assert parts["buildings"] == 4


def test_every_nobles_building_is_in_the_catalog_with_its_data() -> None:
    """§11.2 (costs, VP, circles: public source): the 8 buildings and their columns."""
    expected = {
        "land_office": (2, 1),
        "chapel": (3, 1),
        "hunting_lodge": (4, 2),
        "zoning_office": (5, 2),
        "royal_supplier": (6, 2),
        "villa": (7, 3),
        "jeweler": (8, 3),
        "royal_garden": (10, 4),
    }
    view = GAME.view(nob().state, None)
    market = {m["building"]: m for m in view["market"]}
    for name, (cost, vp) in expected.items():
        assert (market[name]["cost"], market[name]["vp"], market[name]["circles"]) == (cost, vp, 1)
        assert name in BUILDING_INDEX
    assert market["jeweler"]["kind"] == "large_production" and market["jeweler"]["good"] is None
