"""Random-playout properties (ARCHITECTURE.md, testing layer 2) for every registered game and
each of its option sets (``game.option_sets()``): a game added to the catalog gets them free.

Many games on the fast path check the end state (invariants, bounded length, a winner, replay
reproducing the final state); fewer games go through the validating path with every invariant
checked after every action: a prompt exists until the end, prompted seats have legal actions,
apply never mutates its input, codes and dumps round-trip, conservation of every component.
The Puerto Rico specific properties follow at the end.
"""

from __future__ import annotations

import json
import os
from typing import Any

import pytest

from engine import game_names, get_game, replay
from engine.policies import make_policy
from engine.simulate import MAX_ACTIONS, canonical_json, play_game, policy_seed, simulate
from tests.tiers import first_and_last

# scale with GOVERNOR_PROPERTY_GAMES for a longer soak; the default keeps CI within minutes.
# It is a budget per game and policy, shared by the game's option sets (4 sets' worth each).
# 120 since issue #34 (400 before, half of the engine suite's time), and the checked games a
# 20th of it (one game a set and policy where a game has many sets): the seeds are fixed, so a
# run replays the same games; the fast path is proved to apply what the checked path applies
# (test_checked_and_fast_paths_make_the_same_games), and the invariants after every action are
# also held by the module sets' playouts (tests/engine/puerto_rico/), the Puertoma's properties
# and San Juan's card conservation.  GOVERNOR_PROPERTY_GAMES=400 or more for a soak.
FAST_GAMES = int(os.environ.get("GOVERNOR_PROPERTY_GAMES", "120"))
CHECKED_GAMES = max(4, FAST_GAMES // 20)


def option_label(options: dict[str, Any]) -> str:
    return "-".join(f"{k}={v}" for k, v in sorted(options.items()))


CASES = first_and_last(
    pytest.param(name, options, id=f"{name}-{option_label(options)}")
    for name in game_names()
    for options in get_game(name).option_sets()
)
"""Every option set of every game; the fast tier plays each game's first and last."""


def share(budget: int, name: str, least: int = 2) -> int:
    """A game's per-option-set share of ``budget`` (at least ``least`` games)."""
    return max(least, budget * 4 // len(get_game(name).option_sets()))


@pytest.mark.parametrize(("name", "options"), CASES)
@pytest.mark.parametrize("policy", ["random", "heuristic"])
def test_fast_playouts_end_cleanly(name: str, options: dict[str, Any], policy: str) -> None:
    """Seeded games per option set and policy: every game ends within the bound, with an end
    reason, at least one winner, all invariants holding at the end, and (for every tenth game)
    the replay of its action log reproducing the final state exactly."""
    game = get_game(name)
    opts = game.normalize_options(options)
    players = opts["players"]
    invariants = getattr(game, "invariants", None)
    for i in range(share(FAST_GAMES, name)):
        seed = 10_000 * players + i
        policies = [make_policy(policy, name, policy_seed(seed, s)) for s in range(players)]
        result = play_game(game, opts, seed, policies)
        assert result.failures == []
        assert len(result.actions) < MAX_ACTIONS
        if invariants is not None:
            assert invariants(result.final) == []
        outcome = game.outcome(result.final)
        assert outcome is not None and outcome.winners and outcome.end_reasons
        assert game.prompt(result.final) is None
        if i % 10 == 0:
            replayed, _ = replay(name, opts, seed, result.actions)
            assert canonical_json(game.dump(replayed)) == canonical_json(game.dump(result.final))


@pytest.mark.parametrize(("name", "options"), CASES)
@pytest.mark.parametrize("policy", ["random", "heuristic"])
def test_checked_playouts_hold_every_invariant_after_every_action(
    name: str, options: dict[str, Any], policy: str
) -> None:
    """The validating path with ``--check``: zero invariant failures."""
    players = options["players"]
    count = share(CHECKED_GAMES, name, least=1)
    result = simulate(name, players, count, 500 * players, [policy], check=True, options=options)
    assert result["failures"] == []
    assert result["invariant_failures"] == 0


@pytest.mark.parametrize("name", game_names())
def test_checked_and_fast_paths_make_the_same_games(name: str) -> None:
    """The unchecked simulation path applies exactly what the validating path applies."""
    options = get_game(name).option_sets()[-1]
    fast = simulate(name, options["players"], 4, 77, ["random"], options=options)
    checked = simulate(name, options["players"], 4, 77, ["random"], check=True, options=options)
    assert fast["digest"] == checked["digest"]


@pytest.mark.parametrize("name", game_names())
def test_simulation_is_reproducible(name: str) -> None:
    """Equal inputs give equal digests; another seed gives another digest."""
    policies = ["heuristic", "random", "random"]
    a = simulate(name, 3, 5, 3, policies)
    b = simulate(name, 3, 5, 3, policies)
    c = simulate(name, 3, 5, 4, policies)
    assert a["digest"] == b["digest"] != c["digest"]


@pytest.mark.parametrize(("name", "options"), CASES)
def test_views_carry_the_generic_keys_and_are_json(name: str, options: dict[str, Any]) -> None:
    """Every view, public or a seat's, is JSON-safe and carries what the bot reads of any game:
    ``game``, ``round``, ``prompt`` (the prompt's seats and kind), ``game_over`` and, once the
    game is over, ``outcome``.  Every event is JSON-safe and round-trips."""
    from engine.core import Event

    game = get_game(name)
    opts = game.normalize_options(options)
    players = opts["players"]
    policies = [make_policy("random", name, 40 + s) for s in range(players)]
    state = game.setup(opts, 5)
    step = 0
    while True:
        prompt = game.prompt(state)
        if step % 7 == 0 or prompt is None:
            for viewer in [None, *range(players)]:
                view = game.view(state, viewer)
                json.dumps(view)
                assert view["game"] == name and isinstance(view["round"], int)
                assert view["game_over"] is (prompt is None)
                if prompt is None:
                    assert view["prompt"] is None
                    assert view["outcome"] == game.outcome(state).to_json()  # type: ignore[union-attr]
                else:
                    assert view["prompt"]["seats"] == list(prompt.seats)
                    assert view["prompt"]["kind"] == prompt.kind
        if prompt is None:
            break
        seat = prompt.seats[0]
        action = policies[seat].choose(game, state, seat, game.legal_actions(state, seat))
        state, events = game.apply(state, seat, action)
        for event in events:
            assert Event.from_json(json.loads(json.dumps(event.to_json()))) == event
        step += 1


# --- Puerto Rico -------------------------------------------------------------------------------


def test_heuristic_beats_three_random_players() -> None:
    """Puerto Rico: a heuristic seat wins at least 80% of 4-player games against three random
    seats."""
    result = simulate("puerto-rico", 4, 200, 2024, ["heuristic", "random", "random", "random"])
    assert result["wins_by_seat"][0] >= 0.8 * 200


def test_views_of_finished_games_are_json_and_public_hides_chips() -> None:
    """Puerto Rico: views are JSON-safe; the public view never shows a player's VP chips, a
    seat view shows exactly its own."""
    game = get_game("puerto-rico")
    options = game.normalize_options({"players": 4})
    policies = [make_policy("random", "puerto-rico", s) for s in range(4)]
    state = game.setup(options, 5)
    for _ in range(150):
        prompt = game.prompt(state)
        assert prompt is not None
        seat = prompt.seats[0]
        state, _ = game.apply(
            state, seat, policies[seat].choose(game, state, seat, game.legal_actions(state, seat))
        )
    public = game.view(state, None)
    json.dumps(public)
    assert all(p["vp"] is None for p in public["players"])
    for seat in range(4):
        own = game.view(state, seat)
        assert [p["vp"] is not None for p in own["players"]] == [s == seat for s in range(4)]
