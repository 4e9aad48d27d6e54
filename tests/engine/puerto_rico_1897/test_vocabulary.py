"""1897's words read back into the kernel's (``engine.puerto_rico_1897.vocabulary``): the one
reading the renderer and the presenter of 1897 share (issue #34)."""

from __future__ import annotations

from typing import Any

import pytest

from engine.core import Event
from engine.policies import make_policy
from engine.puerto_rico.game import PuertoRico
from engine.puerto_rico_1897.game import PUERTO_RICO_1897 as GAME
from engine.puerto_rico_1897.vocabulary import (
    edition_code,
    edition_view,
    kernel_code,
    kernel_event,
    kernel_options,
    kernel_outcome,
    kernel_view,
)
from engine.simulate import policy_seed

OPTION_SETS = [
    {"players": 4, "expansions": [1, 2, 3, 4, 5, 6], "puertomas": 1},
    {"players": 3, "puertomas": 2, "puertoma_difficulty": "hard", "expansions": [4, 5]},
    {"players": 5, "expansions": [1, 2, 3, 4, 5, 6], "achievement_deal": "draft",
     "pair_hacienda_lumber_mill": True, "pair_country_house_tailor": True},
]


def steps(options: dict[str, Any], seed: int) -> Any:
    """Each step of a heuristic game to its end: the state before, the seat, the action, the
    state after and its events."""
    state = GAME.setup(options, seed)
    policies = [make_policy("heuristic", GAME.name, policy_seed(seed, s))
                for s in range(options["players"])]
    for _ in range(2000):
        prompt = GAME.prompt(state)
        if prompt is None:
            return
        seat = prompt.seats[0]
        action = policies[seat].choose(GAME, state, seat, GAME.legal_actions(state, seat))
        after, events = GAME.apply(state, seat, action)
        yield state, seat, action, after, events
        state = after
    raise AssertionError("the game did not end")


PUERTOMAS_OWN = ("Puertoma", "TieBreaker", "ReserveToken", "MarkerMoved")


def puertomas_own(event: Event) -> bool:
    """An event only the Puertoma makes: its data names some things in 1897's words already
    (``TieBreakerDrawn``'s ``for: property``), and every one of them is read back (the
    presentation's log reads them so), not only the kernel's."""
    return event.type.startswith(PUERTOMAS_OWN)


@pytest.mark.parametrize("options", OPTION_SETS, ids=["puertoma-all", "solo-hard", "all-5p"])
def test_the_kernel_view_read_back_is_the_kernels_own(options: dict[str, Any]) -> None:
    """Read back, an 1897 view is the view the kernel makes of the same state (every seat's
    and the public one), its options those the kernel plays with, its expansions also as the
    kernel's modules; put into 1897's words again it is the 1897 view; the same for every
    legal code, event and the final outcome."""
    for step, (before, seat, action, state, events) in enumerate(steps(options, 11)):
        kernel_events = PuertoRico.apply(GAME, before, seat, action)[1]
        assert [kernel_event(e) for e in events if not puertomas_own(e)] == [
            e for e in kernel_events if not puertomas_own(e)]
        assert [kernel_event(e.to_json()) for e in events] == [kernel_event(e) for e in events]
        if step % 7 and GAME.prompt(state) is not None:
            continue
        for viewer in (None, *range(state.n)):
            view = GAME.view(state, viewer)
            kernel = kernel_view(view)
            own = PuertoRico.view(GAME, state, viewer)
            assert {k: v for k, v in kernel.items() if k != "options"} == {
                k: v for k, v in own.items() if k != "options"}
            back = {k: v for k, v in kernel["options"].items() if k != "expansions"}
            assert back == state.options
            assert edition_view(kernel) == view
        prompt = GAME.prompt(state)
        for asked in prompt.seats if prompt else ():
            for legal in GAME.legal_actions(state, asked):
                code = GAME.encode_action(legal)
                assert kernel_code(code) == legal.code and edition_code(legal.code) == code
    outcome = GAME.outcome(state)
    assert outcome is not None
    kernel_scores = PuertoRico.outcome(GAME, state)
    assert kernel_scores is not None
    assert kernel_outcome(outcome.to_json()) == kernel_scores.to_json()


def test_kernel_options_names_the_modules_and_the_kernels_options() -> None:
    """1897's options read back: its expansions as the kernel's modules too, the §9.3 pairs
    under the kernel's names."""
    options = GAME.normalize_options({"players": 4, "expansions": [1, 2, 5, 4],
                                      "pair_hacienda_lumber_mill": True})
    kernel = kernel_options(options)
    assert kernel["modules"] == ["new_buildings", "nobles", "festival", "festival_activities"]
    assert kernel["exclusive_forest_house"] is True and "pair_hacienda_lumber_mill" not in kernel
    assert kernel["mayor_placement"] == options["recruiter_placement"]


def test_the_words_memo_starts_again_when_full_and_stays_exact() -> None:
    """``names.data`` keeps each word it met (at most ``MEMO_SIZE``): past that many distinct
    strings, renamed words still come out renamed and others unchanged, both ways."""
    from engine.puerto_rico_1897 import names

    strangers = [f"word{i}x" for i in range(names.MEMO_SIZE + 10)]
    view = {"doubloons": 3, "players": [{"island": ["corn"]}], "notes": strangers}
    for _ in range(2):
        out = names.data(view)
        assert out["coins"] == 3 and "field" in out["players"][0]
        assert out["notes"] == strangers
        assert names.data(out, reverse=True) == view
