"""Hidden information stays hidden (ARCHITECTURE.md): changing only another seat's secrets (its
VP chips) or the hidden future (generator state, order of the face-down plantations) changes no
public view, no other seat's view and no redacted event."""

from __future__ import annotations

from engine import get_game
from engine.core import Event
from tests.engine.scenario import Scenario

GAME = get_game("puerto-rico")


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


def test_vp_events_are_private_to_their_seat() -> None:
    """Shipping VP reach only the shipper's log; everyone sees the goods shipped."""
    sc = Scenario(players=3)
    sc.player(0, goods={"corn": 2})
    state = sc.choose("captain", 0)
    state = sc.act(state, 0, "ship.corn.0")
    vp_events = [e for e in sc.events if e.type == "VpEarned"]
    assert vp_events and all(e.private_to == 0 for e in vp_events)
    for event in vp_events:
        assert event.for_viewer(1) is None and event.for_viewer(None) is None
        assert event.for_viewer(0) is event
    shipped = [e for e in sc.events if e.type == "GoodsShipped"]
    assert shipped and shipped[0].for_viewer(None) == shipped[0]
    assert Event.from_json(shipped[0].to_json()) == shipped[0]
