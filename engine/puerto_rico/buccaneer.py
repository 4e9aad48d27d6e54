"""Expansion 3, the Buccaneer (rules spec §12, rulings A33-A35 of §14.4, Appendix C; the seed
[A] p. 17-18).

An eighth role card (at every player count, 2 players included: [A]).  Its chooser alone acts:
he takes the Buccaneer token and performs one of four options.  The module is data (the card in
``data.MODULE_ROLE_CARDS``, no end-of-round doubloon: ``data.NO_DOUBLOON_ROLES``) plus a role
phase (``buildings.module_role``) and handlers on the structural hook points ``roles_refused``
(the token rule), ``role_chosen`` (the token moves; the Capture bonus) and ``round_ending`` (the
captured role played by the Buccaneer): the round code never names it.

Engine choices where the rules leave room (documented here, tested in tests/engine):

* Options offered: Piracy on each loaded cargo ship, keeping 0 to min(3, load) barrels ("up to
  3"); Plunder when the trading house holds a barrel; Raid always (the seed's rule "nothing
  happens if it already holds N or fewer" makes a Raid without effect a legal choice, and it
  keeps the phase from ever having no option); Capture of every role card not yet chosen this
  round.
* Raid (A34): the ship keeps N colonists; of the removed ones the Buccaneer keeps at most
  min(3, his empty circles) and places them at once, one decision each (``raid.<slot>``), on
  empty circles of his island or city, never San Juan; ``pass`` sends the rest to the supply
  ("up to 3").
* Capture (A33): the captured card stays choosable.  An opponent who chooses it resolves it
  normally and the Buccaneer gets 3 doubloons from the bank; the Buccaneer himself may choose
  it too (2 players: three picks each), without the bonus.  Still unchosen after the round's
  last pick, it is played by the Buccaneer as its chooser (his privilege, then everybody's
  action clockwise from him); then the round ends.
"""

from __future__ import annotations

from typing import Final, TypedDict

from ..core import Event
from . import actions as A
from .actions import BUILDING_SLOT, CATALOG, Action
from .buildings import MODULE_SETUP, RolePhase, module_effect, module_role
from .data import ALL_ROLES, BUCCANEER, GOODS, TILES
from .legality import free_slots, has_free_circle
from .nobles import raid_place, raid_return, raid_split
from .ops import Events, gain_vp, pay
from .phases import end_phase, passed, start_phase
from .state import (
    BUC_CAPTOR,
    BUC_CAPTURED,
    BUC_RAID,
    BUC_TOKEN,
    BUCCANEER_PHASE,
    NOB_RAID,
    NOB_SHIP,
    STEP_RAID,
    STEP_TURN,
    Player,
    State,
)

MODULE: Final = "buccaneer"
CAPTURE_BONUS: Final = 3  # §12 Capture: from the bank when an opponent chooses the captured role
RAID_KEEP_MAX: Final = 3  # §12 Raid: keep up to 3 of the removed colonists
P_BUCCANEER: Final = "buccaneer"  # prompt kinds
P_RAID_PLACE: Final = "raid_place"


def setup_buccaneer(s: State, ev: Events) -> None:
    # §12 setup: the token lies on the Buccaneer card (-1), nothing captured
    s.buccaneer = [-1, -1, -1, 0]


MODULE_SETUP[MODULE] = setup_buccaneer


# --- the round ----------------------------------------------------------------------------------


@module_effect(MODULE, "roles_refused")
def _token_rule(s: State, seat: int) -> int:
    """§12: a player holding the token may not choose the Buccaneer (the bit of its card);
    1897 (X3-D, A-18): an opponent with fewer than 3 doubloons may not choose the captured
    role, which he would have to pay for."""
    b = s.buccaneer
    refused = 1 << s.cards.index(BUCCANEER) if b[BUC_TOKEN] == seat else 0
    captured = b[BUC_CAPTURED]
    if (
        captured >= 0
        and seat != b[BUC_CAPTOR]
        and s.rs.edition.capture_paid_by_chooser
        and s.players[seat].doubloons < CAPTURE_BONUS
    ):
        refused |= 1 << captured
    return refused


@module_effect(MODULE, "role_chosen")
def _role_chosen(s: State, seat: int, card: int, ev: Events) -> None:
    b = s.buccaneer
    if s.cards[card] == BUCCANEER:
        # §12: the chooser takes the token (from the card or from its holder) and keeps it
        previous = b[BUC_TOKEN]
        b[BUC_TOKEN] = seat
        if ev is not None:
            ev.append(
                Event("BuccaneerTokenTaken", seat, {"from": None if previous < 0 else previous})
            )
    elif card == b[BUC_CAPTURED] and seat != b[BUC_CAPTOR]:
        if s.rs.edition.capture_paid_by_chooser:  # 1897 X3-D: the chooser pays the captor
            s.players[seat].doubloons -= CAPTURE_BONUS
            s.bank += CAPTURE_BONUS
            if ev is not None:
                ev.append(Event("CaptureFeePaid", seat, {"amount": CAPTURE_BONUS}))
        pay(s, b[BUC_CAPTOR], CAPTURE_BONUS, "capture", ev)  # §12 Capture, A33


@module_effect(MODULE, "round_ending")
def _play_captured_role(s: State, ev: Events) -> bool:
    """Appendix C end of round, step 1 (A33): a captured role still unchosen is played by the
    Buccaneer as its chooser; the capture ends with the round either way."""
    b = s.buccaneer
    card, captor = b[BUC_CAPTURED], b[BUC_CAPTOR]
    b[BUC_CAPTURED] = b[BUC_CAPTOR] = -1
    if card < 0 or s.card_taken[card] >= 0:
        return False
    s.card_taken[card] = captor
    s.card = card
    s.chooser = captor
    role = s.cards[card]
    if ev is not None:
        ev.append(
            Event(
                "CapturedRolePlayed",
                captor,
                {"role": ALL_ROLES[role], "card": s.rs.card_actions[card].code[2:]},
            )
        )
    start_phase(s, role, ev)
    return True


# --- the phase ----------------------------------------------------------------------------------


def _start(s: State, ev: Events) -> None:
    s.step = STEP_TURN  # the chooser picks one option (only he acts, §12)


def _free_circles(p: Player) -> int:
    return sum(free for _, free in free_slots(p))


def _legal(s: State, seat: int) -> list[Action]:
    if seat != s.chooser:
        return []
    if s.step == STEP_RAID:
        places = [A.RAID_PLACE_ACTIONS[arg] for arg, _ in free_slots(s.players[seat])]
        return [*places, A.PASS_ACTION]
    return buccaneer_options(s)


def buccaneer_options(s: State) -> list[Action]:
    """The four options (§12) open now; never empty (a Raid is always allowed)."""
    out: list[Action] = []
    for ship, load in enumerate(s.ship_load):
        if load:
            out.extend(A.PIRACY_ACTIONS[ship][: min(A.PIRACY_KEEP_MAX, load) + 1])
    if s.house:
        out.append(A.PLUNDER_ACTION)
    out.append(A.RAID_ACTION)
    if s.rs.automata:  # 1897 §8.13: no Hijack (Capture) for anyone at a table with Puertomas
        return out
    for card, taken in enumerate(s.card_taken):
        if taken < 0 and s.cards[card] != BUCCANEER:
            role_action = s.rs.card_actions[card]
            out.append(A.CAPTURE_ACTIONS[role_action.a][role_action.b])
    return out


def _prompt_kind(s: State) -> str:
    return P_RAID_PLACE if s.step == STEP_RAID else P_BUCCANEER


def _act(s: State, seat: int, action: Action, ev: Events) -> None:
    kind = action.kind
    b = s.buccaneer
    p = s.players[seat]
    if s.step == STEP_RAID:
        if kind == A.RAID_PLACE:
            slot = action.a
            if slot < BUILDING_SLOT:
                p.workers[slot] += 1
                target = TILES[slot]
            else:
                p.bw[slot - BUILDING_SLOT] += 1
                target = CATALOG[slot - BUILDING_SLOT].name
            b[BUC_RAID] -= 1
            # Exp. 2 (A34): the kept nobles are placed first (NobleGained)
            if not raid_place(s, seat, slot, ev) and ev is not None:
                ev.append(
                    Event(
                        "ColonistGained", seat, {"target": target, "source": "ship", "by": "raid"}
                    )
                )
        else:
            passed(s, seat, ev)
        if kind != A.RAID_PLACE or b[BUC_RAID] == 0 or not has_free_circle(p):
            _end_raid(s, ev)
        return
    if kind == A.PIRACY:
        ship, kept = action.a, action.b
        good, load = s.ship_kind[ship], s.ship_load[ship]
        p.goods[good] += kept
        s.goods[good] += load - kept  # A35: the rest to the supply
        s.ship_kind[ship] = -1
        s.ship_load[ship] = 0
        if ev is not None:
            ev.append(
                Event(
                    "ShipPirated",
                    seat,
                    {"ship": ship, "good": GOODS[good], "count": load, "kept": kept},
                )
            )
    elif kind == A.PLUNDER:
        goods = [GOODS[g] for g in s.house]
        for g in s.house:
            s.goods[g] += 1
        s.house = []
        if ev is not None:
            ev.append(Event("TradingHousePlundered", seat, {"goods": goods}))
        gain_vp(s, seat, len(goods), "plunder", ev)
    elif kind == A.RAID:
        # Exp. 2 (A34): a noble on the ship counts as one of the pieces
        ship_nobles = s.nobles[NOB_SHIP] if s.nobles else 0
        removed = max(0, s.colonist_ship + ship_nobles - s.n)
        kept = min(RAID_KEEP_MAX, removed, _free_circles(p))  # A34
        colonists, kept_colonists = raid_split(s, removed, kept) if ship_nobles else (removed, kept)
        s.colonist_ship -= colonists
        if s.rs.raid_discards:  # 1897 X3-C: the surplus leaves the game
            s.colonists_out += colonists - kept_colonists
        else:
            s.colonist_supply += colonists - kept_colonists
        b[BUC_RAID] = kept
        if ev is not None:
            data = {"removed": removed, "kept": kept}
            if s.nobles:
                data["nobles"] = s.nobles[NOB_RAID]
            ev.append(Event("ColonistShipRaided", seat, data))
        if kept:
            s.step = STEP_RAID
            return
    else:  # CAPTURE
        card = s.rs.card_of["r." + action.code[len("bu.capture.") :]]
        coins = s.card_doubloons[card]
        s.card_doubloons[card] = 0
        p.doubloons += coins
        b[BUC_CAPTURED] = card
        b[BUC_CAPTOR] = seat
        if ev is not None:
            ev.append(
                Event(
                    "RoleCaptured",
                    seat,
                    {
                        "role": ALL_ROLES[s.cards[card]],
                        "card": s.rs.card_actions[card].code[2:],
                        "doubloons": coins,
                    },
                )
            )
    end_phase(s, ev)


def _end_raid(s: State, ev: Events) -> None:
    b = s.buccaneer
    # the kept pieces that found no place go to their supply (Exp. 2: nobles to theirs);
    # 1897 (X3-C, A-19): they are discarded like the rest of the surplus
    unplaced = b[BUC_RAID] - raid_return(s)
    if s.rs.raid_discards:
        s.colonists_out += unplaced
    else:
        s.colonist_supply += unplaced
    b[BUC_RAID] = 0
    end_phase(s, ev)


module_role(
    BUCCANEER,
    RolePhase(
        BUCCANEER_PHASE,
        _start,
        _act,
        _legal,
        _prompt_kind,
        {
            P_BUCCANEER: frozenset({A.PIRACY, A.PLUNDER, A.RAID, A.CAPTURE}),
            P_RAID_PLACE: frozenset({A.RAID_PLACE, A.PASS}),
        },
    ),
)


class BuccaneerPart(TypedDict):
    """The view's ``buccaneer``: the token's seat (``None``: on its card), the role card it
    captured and who holds it, and the Raid's colonists still to place."""

    token: int | None
    captured: str | None
    captured_by: int | None
    raid_to_place: int


def view_part(s: State) -> BuccaneerPart | None:
    """The public Buccaneer key of the view (``None`` without the module)."""
    if not s.buccaneer:
        return None
    b = s.buccaneer
    captured = b[BUC_CAPTURED]
    return {
        "token": None if b[BUC_TOKEN] < 0 else b[BUC_TOKEN],
        "captured": None if captured < 0 else s.rs.card_actions[captured].code[2:],
        "captured_by": None if b[BUC_CAPTOR] < 0 else b[BUC_CAPTOR],
        "raid_to_place": b[BUC_RAID],
    }
