"""Setup (rules spec §2.2 setup table, §2.3 procedure, §9 two-player setup).

Every row of the §2.2 table is checked for 2, 3, 4 and 5 players against a freshly set-up game:
the values come from the classic rulebook [C] (2-player rules included) and, for the production
building copies, from the public source listed in Appendix B.
"""

from __future__ import annotations

import pytest

from engine.core import Prompt
from engine.puerto_rico.actions import CATALOG, NBASE_BUILDINGS
from engine.puerto_rico.data import COLONISTS_TOTAL, GOODS, TILES
from engine.puerto_rico.state import ROLE_SELECTION
from tests.engine.puerto_rico.scenario import GAME

PLAYER_COUNTS = (2, 3, 4, 5)


def fresh(players: int, **options: object):
    return GAME.setup({"players": players, **options}, 7)


@pytest.mark.parametrize(("players", "doubloons"), [(2, 3), (3, 2), (4, 3), (5, 4)])
def test_setup_doubloons_per_player(players: int, doubloons: int) -> None:
    """§2.2 row "Doubloons per player" ([C]; 2 players: [C] §9, ruling A5): 3 / 2 / 3 / 4."""
    state = fresh(players)
    assert [p.doubloons for p in state.players] == [doubloons] * players
    assert GAME.invariants(state) == []


@pytest.mark.parametrize(
    ("players", "tiles"),
    [
        (2, ["indigo", "corn"]),
        (3, ["indigo", "indigo", "corn"]),
        (4, ["indigo", "indigo", "corn", "corn"]),
        (5, ["indigo", "indigo", "indigo", "corn", "corn"]),
    ],
)
def test_setup_starting_plantation_by_seat(players: int, tiles: list[str]) -> None:
    """§2.2 rows "Starting plantation, seat 1..5" ([C] and [A] agree): one plantation each,
    governor indigo, last seats corn, placed face up and unoccupied; nobody owns a colonist."""
    state = fresh(players)
    for seat, name in enumerate(tiles):
        p = state.players[seat]
        expected = [0] * len(TILES)
        expected[TILES.index(name)] = 1
        assert p.tiles == expected
        assert sum(p.workers) == 0 and p.colonists() == 0 and p.city == []
        assert p.goods == [0] * 5 and p.vp == 0
    assert state.governor == 0


@pytest.mark.parametrize(
    ("players", "classic", "anniversary"), [(2, 65, 65), (3, 75, 76), (4, 100, 101), (5, 122, 126)]
)
def test_setup_vp_chips_classic_and_2020(players: int, classic: int, anniversary: int) -> None:
    """§2.2 rows "VP chips in supply" ([C] classic default; [A] for edition "2020", §2.4)."""
    assert fresh(players).vp_supply == classic
    assert fresh(players, edition="classic").vp_supply == classic
    state_2020 = fresh(players, edition="2020")
    assert state_2020.vp_supply == anniversary
    assert GAME.invariants(state_2020) == []


@pytest.mark.parametrize(
    ("players", "supply", "ship", "box"),
    [(2, 40, 2, 58), (3, 55, 3, 42), (4, 75, 4, 21), (5, 95, 5, 0)],
)
def test_setup_colonists_supply_ship_and_box(
    players: int, supply: int, ship: int, box: int
) -> None:
    """§2.2 rows "Colonists in supply / on the colonist ship / left in the box" ([C])."""
    state = fresh(players)
    assert state.colonist_supply == supply
    assert state.colonist_ship == ship
    assert COLONISTS_TOTAL - supply - ship == box


@pytest.mark.parametrize(
    ("players", "ships"), [(2, [4, 6]), (3, [4, 5, 6]), (4, [5, 6, 7]), (5, [6, 7, 8])]
)
def test_setup_cargo_ships(players: int, ships: list[int]) -> None:
    """§2.2 row "Cargo ships" ([C]; 2 players: only the 4- and 6-ship, §9): empty at the start."""
    state = fresh(players)
    assert state.ship_cap == ships
    assert state.ship_kind == [-1] * len(ships)
    assert state.ship_load == [0] * len(ships)


@pytest.mark.parametrize(
    ("players", "cards"),
    [
        (2, ["settler", "mayor", "builder", "craftsman", "trader", "captain", "prospector"]),
        (3, ["settler", "mayor", "builder", "craftsman", "trader", "captain"]),
        (4, ["settler", "mayor", "builder", "craftsman", "trader", "captain", "prospector"]),
        (
            5,
            [
                "settler",
                "mayor",
                "builder",
                "craftsman",
                "trader",
                "captain",
                "prospector",
                "prospector2",
            ],
        ),
    ],
)
def test_setup_roles_in_play(players: int, cards: list[str]) -> None:
    """§2.2 row "Role cards in play" ([C]): 7 / 6 / 7 / 8 cards, each with 0 doubloons (§2.3 step
    10); the governor's first prompt offers exactly these cards (choosing is compulsory, §3.2)."""
    state = fresh(players)
    assert state.phase == ROLE_SELECTION
    assert state.card_doubloons == [0] * len(cards)
    assert GAME.prompt(state) == Prompt((0,), "role", False)
    assert [a.code for a in GAME.legal_actions(state, 0)] == [f"r.{c}" for c in cards]


@pytest.mark.parametrize(("players", "face_up"), [(2, 3), (3, 4), (4, 5), (5, 6)])
def test_setup_face_up_plantations(players: int, face_up: int) -> None:
    """§2.2 row "Face-up plantations (N + 1)" ([C]; 2 players: 3 face up, §9)."""
    assert len(fresh(players).face_up) == face_up


@pytest.mark.parametrize(("players", "quarries"), [(2, 5), (3, 8), (4, 8), (5, 8)])
def test_setup_quarries(players: int, quarries: int) -> None:
    """§2.2 row "Quarries available" ([C]: 8; 2 players 5, §9)."""
    assert fresh(players).quarries == quarries


@pytest.mark.parametrize(("players", "stack"), [(2, 30), (3, 43), (4, 41), (5, 39)])
def test_setup_face_down_stack_sizes(players: int, stack: int) -> None:
    """§2.2 row "Plantation tiles in the face-down stacks at start" ([C]): 33 − 3, 47 − 4,
    46 − 5, 45 − 6; the discard pile is empty.  In 2 players, 3 of each kind are removed, which
    leaves coffee 5, tobacco 6, corn 6, sugar 8, indigo 8 = 33 before the first reveal."""
    state = fresh(players)
    assert sum(state.deck) == stack
    assert sum(state.discard) == 0
    if players == 2:
        before_reveal = list(state.deck)
        for tile in state.face_up:
            before_reveal[tile] += 1
        # starting tiles (indigo, corn) came out of the reduced stacks: corn 7-1, indigo 9-1
        assert dict(zip(GOODS, before_reveal, strict=True)) == {
            "corn": 6,
            "indigo": 8,
            "sugar": 8,
            "tobacco": 6,
            "coffee": 5,
        }


@pytest.mark.parametrize(
    ("players", "goods"),
    [
        (2, [8, 9, 9, 7, 7]),
        (3, [10, 11, 11, 9, 9]),
        (4, [10, 11, 11, 9, 9]),
        (5, [10, 11, 11, 9, 9]),
    ],
)
def test_setup_goods_supply(players: int, goods: list[int]) -> None:
    """§2.2 row "Goods supply corn / indigo / sugar / tobacco / coffee" ([C]; 2 players: 2 of each
    kind removed, §9).  The trading house starts empty (§2.3 step 11)."""
    state = fresh(players)
    assert state.goods == goods
    assert state.house == []


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_setup_building_copies(players: int) -> None:
    """§2.2 rows "Copies" ([C]: 2 of each small violet, 1 of each large; public source for the
    production split 4/4/3/3/3/3) and §9 (2 players: 1 copy of each violet, 2 of each production
    building)."""
    state = fresh(players)
    expected = {
        "small_indigo_plant": 4,
        "small_sugar_mill": 4,
        "indigo_plant": 3,
        "sugar_mill": 3,
        "tobacco_storage": 3,
        "coffee_roaster": 3,
    }
    assert not any(state.market[NBASE_BUILDINGS:])  # no expansion building without modules
    for b, building in enumerate(CATALOG[:NBASE_BUILDINGS]):
        copies = state.market[b]
        if players == 2:
            assert copies == (2 if building.production else 1), building.name
        elif building.production:
            assert copies == expected[building.name]
        else:
            assert copies == (1 if building.size == 2 else 2), building.name
    assert sum(state.market) == (2 * 6 + 17 if players == 2 else 20 + 24 + 5)


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_setup_trading_house_and_round_counters(players: int) -> None:
    """§2.2 row "Trading house spaces" (4, [C]) and §2.3 [C]: round 1, seat 0 holds the governor
    card, no end condition is set."""
    state = fresh(players)
    assert GAME.view(state, None)["trading_house_capacity"] == 4
    assert state.round == 1 and state.governor == 0 and state.end_reasons == []
