"""Small state operations shared by the role code and the building effects.

Each keeps the accounting exact (every doubloon comes from or goes to the bank, every VP from the
chip supply) and records what happened as an event when an event list is given (the unchecked
simulation path passes ``None``).
"""

from __future__ import annotations

from typing import Final

from ..core import Event
from ..rng import below
from .state import State

Events = list[Event] | None

# end reasons (§7.1)
END_COLONISTS: Final = "colonists"  # E1
END_CITY: Final = "city_full"  # E2
END_VP: Final = "vp_chips"  # E3


def trigger_end(s: State, reason: str, ev: Events) -> None:
    """Record an end condition; the game still ends only after the round (§7.1), or in 1897
    after the phase (END-2, ``Ruleset.end_after_phase``)."""
    if reason not in s.end_reasons:
        s.end_reasons.append(reason)
        if ev is not None:  # 1897: "after": "phase" (the game ends once this phase is done)
            data = {"reason": reason, "after": "phase"} if s.rs.end_after_phase else {
                "reason": reason}
            ev.append(Event("EndTriggered", None, data))


def pay(s: State, seat: int, amount: int, reason: str, ev: Events) -> None:
    """The bank pays ``amount`` doubloons to ``seat`` (the bank is unlimited, ruling A2)."""
    if amount <= 0:
        return
    s.players[seat].doubloons += amount
    s.bank -= amount
    if ev is not None:
        ev.append(Event("DoubloonsEarned", seat, {"amount": amount, "reason": reason}))


def gain_vp(s: State, seat: int, amount: int, reason: str, ev: Events) -> None:
    """``seat`` takes ``amount`` VP chips; past the last chip they are recorded on paper, and the
    supply reaching 0 triggers the game end (E3, checked in any phase: ruling A3)."""
    if amount <= 0:
        return
    s.players[seat].vp += amount
    s.vp_supply -= amount
    if ev is not None:
        # Ruling (issue #9): the rulebook keeps VP chips face down ([C], rules spec "Money and
        # goods are public..." and §4.6), so a player's running total is hidden.  But taking
        # chips happens in front of everyone and the chip supply is public (the view shows
        # ``vp_chips_left``, so each amount is derivable anyway): the amount and reason of
        # every VpEarned are public.  Only the seat's total (``players[seat].vp`` in a view)
        # stays hidden.  ``private_to`` keeps the event's private form unchanged for its owner.
        ev.append(
            Event(
                "VpEarned",
                seat,
                {"amount": amount, "reason": reason},
                private_to=seat,
                public_data={"amount": amount, "reason": reason},
            )
        )
    for _, fn in s.rs.vp_gained:  # 1897 Exp. VI: Trade Strategist
        fn(s, seat, amount, ev)
    if s.vp_supply <= 0 and not s.rs.vp_end_at_captain:  # 1897: at the Captain's phase end
        trigger_end(s, END_VP, ev)


def colonist_from_supply_or_ship(s: State) -> str | None:
    """Take one colonist for a Hospice or University: from the supply, else from the ship
    (rulings A12 and §8.2); ``None`` when both are empty."""
    if s.colonist_supply > 0:
        s.colonist_supply -= 1
        return "supply"
    if s.colonist_ship > 0:
        s.colonist_ship -= 1
        return "ship"
    return None


def recycle_discard(s: State) -> bool:
    """The discarded plantations back into the face-down ones (§4.1's reshuffle); whether
    there were any."""
    if not sum(s.discard):
        return False
    s.deck = [a + b for a, b in zip(s.deck, s.discard, strict=True)]
    s.discard = [0] * len(s.discard)
    return True


def draw_plantation(s: State) -> int | None:
    """Draw one face-down plantation at random (ruling A6: one shuffled deck, drawn from the
    seeded generator); ``None`` when the face-down stacks are empty."""
    total = sum(s.deck)
    if total == 0:
        return None
    s.rng, pick = below(s.rng, total)
    for kind, count in enumerate(s.deck):
        if pick < count:
            s.deck[kind] -= 1
            return kind
        pick -= count
    raise AssertionError("unreachable")  # pragma: no cover
