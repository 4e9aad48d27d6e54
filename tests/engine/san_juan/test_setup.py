"""Setup (rules spec §2.5, §2.7; tests D-12)."""

from __future__ import annotations

import pytest

import engine.san_juan  # noqa: F401  (registers "san-juan")
from engine.core import get_game
from engine.san_juan import SAN_JUAN
from engine.san_juan.data import INDIGO_PLANT, TOTAL_CARDS
from engine.san_juan.state import State

GAME = get_game("san-juan")


@pytest.mark.parametrize(("players", "pile"), [(2, 100), (3, 95), (4, 90)])
def test_standard_setup_counts(players: int, pile: int) -> None:
    """D-12 / §2.5: one Indigo plant each, 4 cards each, the rest in the pile, no discard."""
    state: State = GAME.setup({"players": players}, 3)
    assert len(state.pile) == pile and state.discard == []
    for p in state.players:
        assert p.area == [(INDIGO_PLANT,)] and sum(p.hand) == 4
    assert TOTAL_CARDS == 110
    assert SAN_JUAN.invariants(state) == []
