"""Play whole games with policies: the simulator behind ``python -m engine simulate`` and the
benchmarks.

Game ``i`` of a run uses seed ``seed + i``; the policy of each seat is seeded from the game seed
and the seat, so a run is reproducible on any machine.  Without ``check`` the fast, unchecked path
is used (``apply_fast``); with ``check`` every action goes through the validating ``apply`` and
the invariants are verified after each one.  Both paths make the same choices, so their digests
are equal.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from .core import Game, get_game, replay
from .policies import Policy, make_policy

MAX_ACTIONS = 20_000  # a bound no real game comes near; hitting it is reported as a failure


@dataclass
class GameResult:
    seed: int
    actions: list[tuple[int, str]]
    final: Any
    rounds: int
    failures: list[str] = field(default_factory=list)


def policy_seed(game_seed: int, seat: int) -> int:
    return game_seed * 1_000_003 + 7919 * (seat + 1)


def canonical_json(data: Any) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


def play_game(
    game: Game[Any],
    options: dict[str, Any],
    seed: int,
    policies: Sequence[Policy],
    check: bool = False,
    invariants: Callable[[Any], list[str]] | None = None,
) -> GameResult:
    """Play one game to its end with one policy per seat."""
    state = game.setup(options, seed)
    log: list[tuple[int, str]] = []
    failures: list[str] = []
    fast_apply = getattr(game, "apply_fast", None)
    fast_actor = getattr(game, "actor", None)
    # the fast path may read the engine's own list (never mutated here) instead of a copy
    legal_of = game.legal_actions if check else getattr(game, "legal_fast", game.legal_actions)
    while True:
        if check or fast_actor is None:
            prompt = game.prompt(state)
            if prompt is None:
                break
            seat = prompt.seats[0]
        else:
            seat = fast_actor(state)
            if seat < 0:
                break
        legal = legal_of(state, seat)
        if not legal:
            failures.append(f"no legal action for prompted seat {seat} at {len(log)}")
            break
        action = policies[seat].choose(game, state, seat, legal)
        code = game.encode_action(action)
        log.append((seat, code))
        if check:
            failures.extend(_check_step(game, state, seat, action, code, prompt, legal))
            before = canonical_json(game.dump(state))
            previous = state
            state, _ = game.apply(state, seat, action)
            if canonical_json(game.dump(previous)) != before:
                failures.append(f"apply mutated its input at action {len(log) - 1}")
            if canonical_json(game.dump(state)) == before:
                failures.append(f"action {len(log) - 1} changed nothing")
            if invariants is not None:
                failures.extend(f"{len(log) - 1}: {f}" for f in invariants(state))
        elif fast_apply is not None:
            fast_apply(state, seat, action)
        else:
            state, _ = game.apply(state, seat, action)
        if len(log) >= MAX_ACTIONS:
            failures.append("game did not end within the action bound")
            break
    if check and not failures:
        replayed, _ = replay(game.name, options, seed, log)
        if canonical_json(game.dump(replayed)) != canonical_json(game.dump(state)):
            failures.append("replay does not reproduce the final state")
    rounds = getattr(state, "round", None)
    if rounds is None:
        rounds = game.view(state, None).get("round", 0)
    return GameResult(seed, log, state, int(rounds), failures)


def _check_step(
    game: Game[Any],
    state: Any,
    seat: int,
    action: Any,
    code: str,
    prompt: Any,
    legal: list[Any],
) -> list[str]:
    out = []
    for other in prompt.seats:
        if not game.legal_actions(state, other):
            out.append(f"prompted seat {other} has no legal action")
    # forced implies one seat with one legal action; a game may leave it unset when saying so
    # would reveal hidden information (San Juan: a hand that allows one build only)
    if prompt.forced and not (len(prompt.seats) == 1 and len(legal) == 1):
        out.append("forced flag wrong")
    if game.decode_action(code) != action or game.encode_action(game.decode_action(code)) != code:
        out.append(f"action code does not round-trip: {code}")
    dumped = canonical_json(game.dump(state))
    if canonical_json(game.dump(game.load(json.loads(dumped)))) != dumped:
        out.append("dump/load does not round-trip")
    return out


def simulate(
    game_name: str,
    players: int,
    games: int,
    seed: int,
    policies: Sequence[str],
    check: bool = False,
    options: dict[str, Any] | None = None,
    budget: int | None = None,
    hasher: Any = None,
) -> dict[str, Any]:
    """Play ``games`` games and summarize them (the JSON of ``simulate --json``); ``budget``:
    the strong seats' engine actions per decision; ``hasher``: a ``hashlib`` object the games'
    digest goes on from (``bench.engine`` plays a run in chunks: the digest is the same)."""
    game = get_game(game_name)
    opts = game.normalize_options({**(options or {}), "players": players})
    if len(policies) == 1:
        policies = list(policies) * players
    if len(policies) != players:
        raise ValueError(f"{len(policies)} policies for {players} players")
    invariants = getattr(game, "invariants", None) if check else None
    digest = hashlib.sha256() if hasher is None else hasher
    end_reasons: Counter[str] = Counter()
    wins = [0.0] * players
    total_actions = 0
    total_rounds = 0
    winning_scores: list[int] = []
    failures: list[str] = []
    started = time.perf_counter()
    for i in range(games):
        game_seed = seed + i
        seats = [
            make_policy(policies[s], game_name, policy_seed(game_seed, s), budget)
            for s in range(players)
        ]
        result = play_game(game, opts, game_seed, seats, check, invariants)
        failures.extend(f"game {game_seed}: {f}" for f in result.failures)
        total_actions += len(result.actions)
        total_rounds += result.rounds
        digest.update(canonical_json(game.dump(result.final)).encode())
        outcome = game.outcome(result.final)
        if outcome is None:
            continue
        for reason in outcome.end_reasons:
            end_reasons[reason] += 1
        for winner in outcome.winners:
            wins[winner] += 1 / len(outcome.winners)
        winning_scores.append(outcome.scores[outcome.winners[0]].total)
    seconds = time.perf_counter() - started
    return {
        "game": game_name,
        "players": players,
        "policies": list(policies),
        "games": games,
        "actions": total_actions,
        "seconds": round(seconds, 4),
        "games_per_s": round(games / seconds, 2) if seconds else None,
        "actions_per_s": round(total_actions / seconds, 1) if seconds else None,
        "mean_rounds": round(total_rounds / games, 3) if games else None,
        "end_reasons": dict(sorted(end_reasons.items())),
        "wins_by_seat": [round(w, 4) for w in wins],
        "mean_winning_score": round(sum(winning_scores) / len(winning_scores), 3)
        if winning_scores
        else None,
        "digest": digest.hexdigest(),
        "invariant_failures": len(failures),
        "failures": failures[:20],
    }
