"""Hidden information stays hidden (ARCHITECTURE.md): changing only another seat's secrets (its
VP chips) or the hidden future (generator state, order of the face-down plantations) changes no
public view, no other seat's view and no redacted event."""

from __future__ import annotations

from typing import Any

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
            assert dict(seen.data) == {"amount": event.data["amount"],
                                       "reason": event.data["reason"]}
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
    def ship(vps: tuple[int, int, int]) -> tuple[list[list[Event | None]], list[dict[str, Any]]]:
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
