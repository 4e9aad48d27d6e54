"""Scenario helpers for Expansion 2, The Nobles (the rule tests in ``test_nobles*.py``).

``nobles(sc, seat, place=count, ...)`` turns pieces already on a place into nobles (the colonists
go back to the colonist supply, as many nobles leave the noble supply), so every conservation
invariant keeps holding; ``noble_supplies`` sets the noble supply and ship, the difference going
to or coming from the box like ``Scenario``'s other ``set_*`` helpers.
"""

from __future__ import annotations

from typing import Any

from engine.puerto_rico.actions import BUILDING_INDEX, BUILDING_SLOT, SAN_JUAN_SLOT
from engine.puerto_rico.data import TILE_INDEX
from engine.puerto_rico.nobles import index, pieces
from engine.puerto_rico.state import NOB_SHIP, NOB_SUPPLY, State
from tests.engine.puerto_rico.scenario import GAME, Scenario

NOBLES: dict[str, Any] = {"modules": ["nobles"]}


def nob(players: int = 4, seed: int = 0, **options: Any) -> Scenario:
    """A game with the Nobles (and any other module named in ``options``)."""
    modules = ["nobles", *options.pop("modules", [])]
    return Scenario(players=players, seed=seed, modules=modules, **options)


def slot_of(name: str) -> int:
    if name == "san_juan":
        return SAN_JUAN_SLOT
    if name in TILE_INDEX:
        return TILE_INDEX[name]
    return BUILDING_SLOT + BUILDING_INDEX[name]


def nobles(sc: Scenario, seat: int, **places: int) -> Scenario:
    """Make ``count`` of the pieces already on each place (a tile kind, a building or
    ``san_juan``) nobles."""
    s = sc.state
    p = s.players[seat]
    for name, count in places.items():
        slot = slot_of(name)
        if pieces(p, slot) - p.nobles[index(slot)] < count:
            raise ValueError(f"not {count} colonists on {name}")
        p.nobles[index(slot)] += count
        s.colonist_supply += count
        s.nobles[NOB_SUPPLY] -= count
    return sc


def noble_supplies(sc: Scenario, supply: int | None = None, ship: int | None = None) -> Scenario:
    """Set the nobles in the supply and on the colonist ship."""
    s = sc.state
    for i, value in ((NOB_SUPPLY, supply), (NOB_SHIP, ship)):
        if value is not None:
            sc._box("nobles", s.nobles[i] - value)
            s.nobles[i] = value
    return sc


def noble_count(state: State, seat: int, place: str) -> int:
    """The nobles on a place of ``seat``'s board."""
    return state.players[seat].nobles[index(slot_of(place))]


def kind_of(state: State) -> str | None:
    """The kind of the prompt now (``None`` once the game is over)."""
    prompt = GAME.prompt(state)
    return None if prompt is None else prompt.kind


def seats_of(state: State) -> tuple[int, ...]:
    prompt = GAME.prompt(state)
    return () if prompt is None else prompt.seats
