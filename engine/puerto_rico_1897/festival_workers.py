"""1897's Expansion IV (X4): the property goal's 3 reward workers are placed at once, on empty
spaces of the winner's board, or stay on his portrait (San Juan): an exception to REC-3.  The
goal (``festival``) queues the decision; one placement a decision (``fw.<place>``), ``pass``
leaving the rest for the next Recruiter phase."""

from __future__ import annotations

from ..core import Event
from ..puerto_rico import actions as A
from ..puerto_rico.actions import BUILDING_SLOT, CATALOG, Action
from ..puerto_rico.buildings import (
    OFFER_ACTION_KINDS,
    OFFER_ACTS,
    OFFER_CHECK,
    OFFER_LEGAL,
    OFFER_VALID,
)
from ..puerto_rico.data import NTILES, TILES
from ..puerto_rico.extensions import ACTION_VALUES
from ..puerto_rico.festival import P_FESTIVAL_WORKERS, REWARD_COLONISTS
from ..puerto_rico.legality import has_free_circle, place_colonist
from ..puerto_rico.ops import Events
from ..puerto_rico.state import State

# FESTIVAL_PLACE_ACTIONS[slot]: a reward worker onto a tile kind or a building (``fw.<slot>``)
FESTIVAL_PLACE_ACTIONS = {
    **{i: A.register(Action(A.FESTIVAL_PLACE, f"fw.{t}", i)) for i, t in enumerate(TILES)},
    **{
        BUILDING_SLOT + i: A.register(Action(A.FESTIVAL_PLACE, f"fw.{b.name}", BUILDING_SLOT + i))
        for i, b in enumerate(CATALOG)
    },
}


def _legal(s: State, seat: int, left: int) -> list[Action]:
    """A place with an empty circle for the next of the ``left`` reward workers, or ``pass``."""
    p = s.players[seat]
    places = FESTIVAL_PLACE_ACTIONS
    out = [places[k] for k in range(NTILES) if p.tiles[k] > p.workers[k]]
    out.extend(places[BUILDING_SLOT + b] for b in p.city if CATALOG[b].circles > p.bw[b])
    out.append(A.PASS_ACTION)
    return out


def _place_one(s: State, seat: int, left: int, action: Action, ev: Events) -> None:
    if action.kind != A.FESTIVAL_PLACE:
        return  # pass: the rest stay in San Juan, placed in the next Mayor phase
    p = s.players[seat]
    slot = action.a
    place_colonist(p, slot)
    if ev is not None:
        where = TILES[slot] if slot < BUILDING_SLOT else CATALOG[slot - BUILDING_SLOT].name
        ev.append(Event("ColonistPlaced", seat, {"target": where, "by": "festival"}))
    if left > 1:
        s.offers.insert(0, [seat, P_FESTIVAL_WORKERS, left - 1])


def _still_placeable(s: State) -> bool:
    """The decision is asked only while the winner has an empty circle (else the workers stay
    in San Juan without a question)."""
    return has_free_circle(s.players[int(s.offers[0][0])])


OFFER_LEGAL[P_FESTIVAL_WORKERS] = _legal
OFFER_ACTS[P_FESTIVAL_WORKERS] = _place_one
OFFER_VALID[P_FESTIVAL_WORKERS] = _still_placeable
OFFER_ACTION_KINDS[P_FESTIVAL_WORKERS] = frozenset({A.FESTIVAL_PLACE, A.PASS})
OFFER_CHECK[P_FESTIVAL_WORKERS] = lambda s, seat, left: (
    s.rs.edition.festival_1897
    and 1 <= left <= REWARD_COLONISTS
    and s.players[seat].san_juan >= left
    and has_free_circle(s.players[seat])
)
ACTION_VALUES[A.FESTIVAL_PLACE] = lambda s, seat, a: 1.0  # at once beats aside (X4-3)
