"""The Mayor draft (bot/arrange.py): the suggestion as a draft, menus editing it, and the draft
submitted as placements that the engine accepts and that leave the same board."""

from __future__ import annotations

from typing import Any

from bot.games.puerto_rico.arrange import arrangement, decode, encode, occupied
from engine import get_game
from engine.policies import make_policy

GAME = get_game("puerto-rico")


def arrange_states(count: int = 6) -> list[tuple[Any, int]]:
    """(state, seat) pairs where a player must arrange colonists, from seeded random games."""
    found: list[tuple[Any, int]] = []
    for seed in range(40):
        state = GAME.setup({"players": 3}, seed)
        policy = make_policy("random", "puerto-rico", seed)
        while (prompt := GAME.prompt(state)) is not None and len(found) < count:
            seat = prompt.seats[0]
            if prompt.kind == "arrange":
                found.append((state, seat))
                break
            legal = GAME.legal_actions(state, seat)
            state, _ = GAME.apply(state, seat, policy.choose(GAME, state, seat, legal))
        if len(found) >= count:
            break
    assert found
    return found


def plan_for(state: Any, seat: int) -> Any:
    suggested, _ = GAME.apply(state, seat, GAME.decode_action("m.auto"))
    now = GAME.view(state, seat)["players"][seat]
    return arrangement(now, GAME.view(suggested, seat)["players"][seat])


def test_the_suggested_draft_places_like_the_suggestion() -> None:
    """Submitting the preselected draft as single placements ends the player's turn with the
    board ``m.auto`` would leave."""
    for state, seat in arrange_states():
        plan = plan_for(state, seat)
        assert plan.complete(plan.suggested)
        placed = state
        for code in plan.codes(plan.suggested):
            placed, _ = GAME.apply(placed, seat, GAME.decode_action(code))
        auto, _ = GAME.apply(state, seat, GAME.decode_action("m.auto"))
        assert occupied(GAME.view(placed, seat)["players"][seat]) == occupied(
            GAME.view(auto, seat)["players"][seat])
        after = GAME.prompt(placed)
        assert after is None or after.kind != "arrange" or seat not in after.seats


def test_menus_replace_their_part_of_the_draft() -> None:
    state, seat = arrange_states(1)[0]
    plan = plan_for(state, seat)
    island = [v for v, *_ in plan.options(True, plan.suggested)]
    emptied = plan.with_values(True, [], plan.suggested)
    assert all(n == 0 for n, p in zip(emptied, plan.places, strict=True) if p.island)
    assert all(n == m for n, m, p in zip(emptied, plan.suggested, plan.places, strict=True)
               if not p.island)
    refilled = plan.with_values(True, island, emptied)
    assert all(n == p.free for n, p in zip(refilled, plan.places, strict=True) if p.island)
    assert plan.with_values(True, ["99.0", "x"], emptied) == emptied  # junk is ignored


def test_drafts_travel_in_custom_ids() -> None:
    assert decode(encode((0, 3, 12, 1))) == (0, 3, 12, 1)
    assert decode("ABC") is None and decode("0" * 41) is None
    state, seat = arrange_states(1)[0]
    plan = plan_for(state, seat)
    assert not plan.valid((*plan.suggested, 1))
    assert not plan.valid(tuple(p.free + 1 for p in plan.places))
