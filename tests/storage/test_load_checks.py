"""A game loaded to be played leaves the engine's invariants out (issue #34: they ran at every
load, about 200 Python calls a click); ``python -m storage verify`` runs them on each stored
game whose snapshot is the replay of its log."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine.core import get_game
from storage import Storage
from storage.verify import verify_game
from tests.storage.helpers import active_game, play_some


async def test_a_game_loaded_to_play_leaves_the_invariants_to_verify(
    storage: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With an invariant broken (as an engine bug would leave a state), the game still loads
    for play and the invariants are not asked; verify asks them once and reports it."""
    record = await active_game(storage, "puerto-rico")
    await play_some(storage, record.id, 5, random.Random(3))
    game: Any = get_game("puerto-rico")
    asked: list[object] = []

    def broken(state: object) -> list[str]:
        asked.append(state)
        return ["conservation:doubloons"]

    monkeypatch.setattr(game, "invariants", broken)
    loaded = await storage.games.load(record.id)
    assert loaded.state is not None and asked == []
    problems = await verify_game(storage.db, record.id)
    assert [p.kind for p in problems] == ["inconsistent_state"]
    assert "conservation:doubloons" in problems[0].detail and len(asked) == 1
    monkeypatch.undo()
    assert await verify_game(storage.db, record.id) == []
