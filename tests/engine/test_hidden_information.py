"""Hidden information stays hidden (ARCHITECTURE.md): changing only what a viewer cannot see
changes none of its views and none of the events as redacted for it.

The generic properties walk the registry: ``game.determinize(state, viewer, seed)`` resamples
everything hidden from ``viewer`` (another seat's hand, the order of a pile, the generator...),
so the viewer's view must not change, and an action that reveals nothing must give the viewer
the same redacted events and the same view afterwards.  The Puerto Rico specific tests follow
(its VP chips).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from engine import game_names, get_game
from engine.core import EngineError, Event
from engine.policies import make_policy
from tests.engine.puerto_rico.scenario import Scenario
from tests.tiers import first_and_last

GAME = get_game("puerto-rico")
CASES = first_and_last(
    pytest.param(name, options, id=f"{name}-{i}")
    for name in game_names()
    for i, options in enumerate(get_game(name).option_sets())
)
"""Every option set of every game; the fast tier plays each game's first and last."""


def _positions(name: str, options: dict[str, Any], seed: int, every: int) -> list[Any]:
    """Every ``every``-th position of a random game (and its last)."""
    game = get_game(name)
    opts = game.normalize_options(options)
    policies = [make_policy("random", name, seed * 13 + s) for s in range(opts["players"])]
    state = game.setup(opts, seed)
    out = []
    step = 0
    while (prompt := game.prompt(state)) is not None:
        if step % every == 0:
            out.append(state)
        seat = prompt.seats[step % len(prompt.seats)]
        action = policies[seat].choose(game, state, seat, game.legal_actions(state, seat))
        state, _ = game.apply(state, seat, action)
        step += 1
    out.append(state)
    return out


@pytest.mark.parametrize(("name", "options"), CASES)
def test_determinize_keeps_every_view_of_its_viewer(name: str, options: dict[str, Any]) -> None:
    """``determinize(state, viewer, seed)`` keeps ``view(., viewer)`` (the public's too), is a
    function of its seed, keeps the invariants and leaves a playable position."""
    game = get_game(name)
    invariants = getattr(game, "invariants", None)
    for state in _positions(name, options, 3, 9):
        players = game.players(state)
        for viewer in [None, *range(players)]:
            resampled = game.determinize(state, viewer, 11)
            assert game.view(resampled, viewer) == game.view(state, viewer)
            assert game.dump(game.determinize(state, viewer, 11)) == game.dump(resampled)
            if invariants is not None:
                assert invariants(resampled) == []
            prompt = game.prompt(resampled)
            if prompt is not None:
                assert all(game.legal_actions(resampled, seat) for seat in prompt.seats)


@pytest.mark.parametrize(("name", "options"), CASES)
def test_determinize_depends_on_what_its_viewer_knows_only(name: str, options: dict[str, Any],
                                                          ) -> None:
    """Issue #13's fairness at its root: two positions that differ only in what ``viewer``
    cannot see (the second is the first resampled for it) are resampled alike by the same seed,
    so nothing a search draws from them can tell them apart."""
    game = get_game(name)
    for state in _positions(name, options, 5, 23):
        for viewer in [None, *range(game.players(state))]:
            other = game.determinize(state, viewer, 77)
            for seed in (3, 4):
                assert game.dump(game.determinize(other, viewer, seed)) == game.dump(
                    game.determinize(state, viewer, seed))


@pytest.mark.parametrize(("name", "options"), CASES)
def test_actions_tell_a_viewer_nothing_it_cannot_see(name: str, options: dict[str, Any]) -> None:
    """No leak: at every position of a random game, for every viewer other than the actor,
    the position with everything hidden from that viewer resampled gives the viewer the same
    redacted events and the same view after the same action, whenever the action is legal
    there too and reveals nothing (a draw legitimately differs)."""
    game = get_game(name)
    opts = game.normalize_options(options)
    players = opts["players"]
    policies = [make_policy("random", name, 900 + s) for s in range(players)]
    state = game.setup(opts, 21)
    step = compared = 0
    while (prompt := game.prompt(state)) is not None:
        actor = prompt.seats[step % len(prompt.seats)]
        action = policies[actor].choose(game, state, actor, game.legal_actions(state, actor))
        after, events = game.apply(state, actor, action)
        for viewer in [None, *range(players)]:
            if viewer == actor:
                continue
            other = game.determinize(state, viewer, step)
            try:
                other_after, other_events = game.apply(other, actor, action)
            except EngineError:
                continue  # the actor's hidden cards differ there: not the same action
            if game.reveals(state, after) or game.reveals(other, other_after):
                continue
            assert game.view(other_after, viewer) == game.view(after, viewer)
            assert [e.for_viewer(viewer) for e in other_events] == [
                e.for_viewer(viewer) for e in events
            ]
            compared += 1
        state = after
        step += 1
    assert compared > 20


def test_public_and_other_views_ignore_a_seats_chips_and_the_generator() -> None:
    """VP chips are face down ([C]): how many chips are left is public (the pile is on the
    table), but not how they are split among the players.  The generator and the order of the
    face-down plantations are not anyone's to see."""
    sc = Scenario(players=3)
    sc.player(1, vp=7)
    sc.player(2, vp=12)
    base = sc.state
    other = base.clone()
    other.players[1].vp = 19
    other.players[2].vp = 0
    other.rng ^= 0xDEADBEEF
    assert GAME.view(base, None) == GAME.view(other, None)
    assert GAME.view(base, 0) == GAME.view(other, 0)
    assert GAME.view(base, 1) != GAME.view(other, 1)
    assert GAME.view(base, 1)["players"][1]["vp"] == 7


def test_vp_amounts_are_public_and_the_totals_stay_hidden() -> None:
    """Ruling (issue #9, beside ``gain_vp`` in engine/puerto_rico/ops.py): VP chips lie face
    down ([C]), so a seat's total is hidden; but the chips are taken in front of everyone from
    a public supply, so the amount and reason of each VpEarned are public.  The owner's form of
    the event is unchanged; everyone else sees exactly the amount and the reason."""
    sc = Scenario(players=3)
    sc.player(0, goods={"corn": 2}, vp=5)
    state = sc.choose("captain", 0)
    state = sc.act(state, 0, "ship.corn.0")
    vp_events = [e for e in sc.events if e.type == "VpEarned"]
    assert vp_events and all(e.private_to == 0 for e in vp_events)
    assert sum(int(e.data["amount"]) for e in vp_events) == 3  # 2 corn + the privilege
    for event in vp_events:
        assert event.for_viewer(0) is event
        for viewer in (1, 2, None):
            seen = event.for_viewer(viewer)
            assert seen is not None and seen.private_to is None
            assert dict(seen.data) == {
                "amount": event.data["amount"],
                "reason": event.data["reason"],
            }
        assert Event.from_json(event.to_json()) == event
    # the total (5 + 3) stays the shipper's own
    assert GAME.view(state, 0)["players"][0]["vp"] == 8
    assert all(GAME.view(state, v)["players"][0]["vp"] is None for v in (1, 2, None))
    shipped = [e for e in sc.events if e.type == "GoodsShipped"]
    assert shipped and shipped[0].for_viewer(None) == shipped[0]
    assert Event.from_json(shipped[0].to_json()) == shipped[0]


def test_a_shipments_redacted_events_ignore_every_seats_total() -> None:
    """No leak: the same shipment from positions that differ only in the seats' VP totals
    (the shipper's own too) gives the same redacted events and the same views to others:
    here seat 1 watches while the totals of seats 0 and 2 change."""

    def ship(vps: tuple[int, int, int]) -> tuple[list[list[Event | None]], list[Mapping[str, Any]]]:
        sc = Scenario(players=3)
        sc.player(0, goods={"corn": 2}, buildings={"harbor": 1})
        for seat, vp in enumerate(vps):
            sc.player(seat, vp=vp)
        sc.set_vp_supply(60)
        state = sc.choose("captain", 0)
        state = sc.act(state, 0, "ship.corn.0")
        redacted = [[e.for_viewer(v) for e in sc.events] for v in (1, None)]
        views = [GAME.view(state, v) for v in (1, None)]
        return redacted, views

    base = ship((0, 4, 9))
    assert base == ship((13, 4, 9)) == ship((0, 4, 1))
    amounts = [e.data["amount"] for e in base[0][1] if e is not None and e.type == "VpEarned"]
    assert amounts == [3, 1]  # 2 corn + the Captain's privilege, then the Harbor
