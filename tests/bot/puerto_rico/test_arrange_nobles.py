"""The Mayor draft with Exp. 2's nobles (bot/games/puerto_rico/arrange.py, rules spec §11 and
ruling A19): the nobles travel in the draft, the placements it submits are the engine's legal
codes (nobles first), they leave the board the draft shows, and the choice of the nobles'
circles is offered exactly when the engine offers it (a Land Office, Chapel, Hunting Lodge or
Zoning Office owner)."""

from __future__ import annotations

import random
from typing import Any

from bot.games.puerto_rico.arrange import (
    Arrangement,
    arrangement,
    drafted,
    nobles_on,
    occupied,
    read,
    write,
)
from bot.games.puerto_rico.words import puerto_rico_view
from engine import get_game
from engine.policies import make_policy

GAME = get_game("puerto-rico")
OPTIONS = {"players": 3, "modules": ["nobles"]}


def codes_of(state: Any, seat: int) -> list[str]:
    return [GAME.encode_action(a) for a in GAME.legal_actions(state, seat)]


def noble_arrangements(choice: bool, count: int = 8) -> list[tuple[Any, int]]:
    """(state, seat) at the start of an arrangement with nobles waiting in San Juan, where the
    nobles' circles are a choice (``choice``) or not, from seeded random Nobles games."""
    found: list[tuple[Any, int]] = []
    for seed in range(60):
        state = GAME.setup(OPTIONS, seed)
        policy = make_policy("random", "puerto-rico", seed)
        while (prompt := GAME.prompt(state)) is not None and len(found) < count:
            seat = prompt.seats[0]
            codes = codes_of(state, seat)
            nobles = any(c.startswith("mn.") for c in codes)
            colonists = any(c.startswith("m.") and c != "m.auto" for c in codes)
            if prompt.kind == "arrange" and nobles and colonists == choice and not any(
                    occupied(GAME.view(state, seat)["players"][seat]).values()):
                found.append((state, seat))
            legal = GAME.legal_actions(state, seat)
            state, _ = GAME.apply(state, seat, policy.choose(GAME, state, seat, legal))
        if len(found) >= count:
            break
    assert len(found) >= min(3, count)
    return found


def plan_for(state: Any, seat: int) -> Arrangement:
    suggested, _ = GAME.apply(state, seat, GAME.decode_action("m.auto"))
    now = GAME.view(state, seat)["players"][seat]
    return arrangement(now, GAME.view(suggested, seat)["players"][seat], codes_of(state, seat))


def submit(state: Any, seat: int, codes: list[str]) -> Any:
    """Apply ``codes`` one by one, each legal when it comes (as the service does)."""
    for code in codes:
        assert code in codes_of(state, seat), (code, codes_of(state, seat))
        state, _ = GAME.apply(state, seat, GAME.decode_action(code))
    after = GAME.prompt(state)
    assert after is None or after.kind != "arrange" or seat not in after.seats
    return state


def board(state: Any, seat: int) -> tuple[dict[str, int], dict[str, int]]:
    me = GAME.view(state, seat)["players"][seat]
    return occupied(me), nobles_on(me)


def test_the_suggested_draft_with_nobles_places_like_the_suggestion() -> None:
    """§11: the suggestion's pieces and nobles, submitted one placement at a time, leave the
    board ``m.auto`` leaves, nobles included."""
    for choice in (False, True):
        for state, seat in noble_arrangements(choice):
            plan = plan_for(state, seat)
            assert plan.nobles and plan.noble_choice == choice
            placed = submit(state, seat, plan.codes(plan.suggested))
            auto, _ = GAME.apply(state, seat, GAME.decode_action("m.auto"))
            assert board(placed, seat) == board(auto, seat)


def test_without_a_noble_function_the_nobles_go_first() -> None:
    """A19 as the engine asks it: with no building where a noble differs from a colonist the
    draft places every noble it can hold, first; the nobles' menu is not offered."""
    for state, seat in noble_arrangements(False):
        plan = plan_for(state, seat)
        low, high = plan.noble_range(plan.suggested)
        assert low == high == min(plan.nobles, plan.to_place)
        codes = plan.codes(plan.suggested)
        assert all(c.startswith("mn.") for c in codes[:high])
        assert not any(c.startswith("mn.") for c in codes[high:])


def test_the_nobles_circles_are_chosen_in_the_draft() -> None:
    """With a noble function the player picks which drafted circles get nobles; any pick the
    menu allows is placed by legal codes and the board shows the nobles where picked."""
    rng = random.Random(5)
    for state, seat in noble_arrangements(True):
        plan = plan_for(state, seat)
        draft, _ = read(plan, None)
        low, high = plan.noble_range(draft)
        circles = [value for value, *_ in plan.noble_options(draft, (0,) * len(draft))]
        for _ in range(4):
            picked = rng.sample(circles, rng.randint(low, min(high, len(circles))))
            nobles = plan.with_nobles(picked, draft)
            assert plan.nobles_valid(draft, nobles) and sum(nobles) == len(picked)
            placed = submit(state, seat, plan.codes(draft, nobles))
            pieces, on = board(placed, seat)
            shown = drafted(puerto_rico_view(GAME.view(state, seat)), seat, plan,
                            write(draft, nobles))
            assert (occupied(shown["players"][seat]), nobles_on(shown["players"][seat])) == (
                pieces, on)
            assert shown["players"][seat]["nobles"]["san_juan"] == GAME.view(
                placed, seat)["players"][seat]["nobles"]["san_juan"]


def test_changing_the_pieces_keeps_the_nobles_fitted() -> None:
    """Emptying a menu or refilling it never leaves more nobles than drafted pieces, nor fewer
    than the colonists waiting can leave (the draft stays submittable once complete)."""
    for choice in (False, True):
        for state, seat in noble_arrangements(choice, 4):
            plan = plan_for(state, seat)
            for island in (True, False):
                values = [v for v, *_ in plan.options(island, plan.suggested)]
                for chosen in ([], values):
                    draft = plan.with_values(island, chosen, plan.suggested)
                    nobles = plan.fit_nobles(draft, plan.suggested_nobles)
                    assert plan.nobles_valid(draft, nobles)
                    assert plan.complete(draft, nobles) == plan.complete(draft)
                    if plan.complete(draft, nobles):
                        submit(state, seat, plan.codes(draft, nobles))


def test_nobles_travel_in_custom_ids() -> None:
    """``<pieces>-<nobles>``: read back as written; a nobles' part that no longer fits is
    fitted, a broken pieces' part falls back to the suggestion."""
    state, seat = noble_arrangements(True, 1)[0]
    plan = plan_for(state, seat)
    draft, nobles = read(plan, None)
    assert read(plan, write(draft, nobles)) == (draft, nobles)
    assert read(plan, "ZZ-1") == (plan.suggested, plan.fit_nobles(plan.suggested))
    over = tuple(n + 5 for n in nobles)
    assert plan.nobles_valid(*read(plan, write(draft, over)))
