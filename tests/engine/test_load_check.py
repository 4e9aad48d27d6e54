"""``Game.load(data, check=...)`` (issue #34): every game checks its invariants when a save is
loaded, unless the caller asks it not to (the bot loads the engine's own dump at every click;
``python -m storage verify`` and the tests keep the checks)."""

from __future__ import annotations

from typing import Any

import pytest

from engine import game_names, get_game
from engine.core import CorruptState


@pytest.mark.parametrize("name", game_names())
def test_load_checks_the_invariants_unless_told_not_to(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A save whose state breaks an invariant (as an engine bug would leave it; the game's
    ``invariants`` reports one) is refused by ``load`` and by ``load(check=True)`` with
    ``inconsistent_state``, and loaded by ``load(check=False)`` without asking."""
    game: Any = get_game(name)
    data = game.dump(game.setup(game.option_sets()[0], 3))
    asked: list[object] = []

    def broken(state: object) -> list[str]:
        asked.append(state)
        return ["conservation:test"]

    monkeypatch.setattr(game, "invariants", broken)
    for check in ({}, {"check": True}):
        with pytest.raises(CorruptState) as refused:
            game.load(data, **check)
        assert refused.value.code == "inconsistent_state"
    assert len(asked) == 2
    state = game.load(data, check=False)
    assert len(asked) == 2 and game.dump(state) == data
