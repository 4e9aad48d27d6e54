"""The five roles (§4) and the buildings that act in their phases (§5): the builder (with the
payment, the Carpenter and the Poor house), the producer, the trader, the councillor, the
prospector and the Gold mines.

Every function mutates the state it is given.  Section numbers (§), rulings (A-n) and tests
(S-n, D-n) refer to ``docs/rules/san-juan.md``.

Ruling A-12 (simultaneous actions): the seed lets producing, selling and the Councillor's keep
happen at once.  A-12 recommends resolving them one player at a time only so that seeded games
are reproducible; here the action log already fixes the order in which the decisions (and
their draws) happen, so those steps prompt every seat that still has to decide at once.  The
Councillor's phase prompts everyone at once too, with the spec's outcome (§4.4, A-15, A-1):
each seat first draws or passes without seeing a card, and a seat's draw waits for the seats
before it (clockwise from the Councillor) only when the pile could not serve them all, so that a
short pile reshuffles the earlier seats' discards for the later ones.  The builder phase and
the Prospector/Gold mine stay one player at a time, clockwise from the chooser.
"""

from __future__ import annotations

from typing import Final

from ..core import Event
from . import actions as A
from .actions import Action
from .data import (
    CARPENTER,
    COST,
    END_BUILDINGS,
    GOLD_MINE,
    GOLD_MINE_CARDS,
    GOOD_OF,
    GOODS,
    IS_PRODUCTION,
    MARKET_HALL,
    MARKET_STAND,
    POOR_HOUSE,
    ROLES,
    TILE_PRICES,
    WELL,
)
from .flow import (
    ask,
    done_simultaneous,
    game_over,
    keep_from_drawn,
    next_pick,
    passed,
    phase_ended,
)
from .legality import pay_needs_prompt
from .ops import (
    NAMES,
    Events,
    cards_drawn,
    discard_from_hand,
    draw,
    draw_many,
    draw_to_hand,
    names,
    private,
)
from .rules import build_cost, can_draw, councillor_draws, has_active, has_empty
from .state import (
    END_TWELVE,
    ROLE_PHASES,
    STEP_CARPENTER,
    STEP_GOLD_MINE,
    STEP_GOLD_TAKE,
    STEP_MAIN,
    STEP_PAY,
    STEP_POOR_HOUSE,
    State,
)

# --- role choice (§3, §4) ---------------------------------------------------------------------


def choose_role(s: State, seat: int, action: Action, ev: Events) -> None:
    role = action.a
    library = action.b == 1
    s.taken[role] = seat
    s.picks += 1
    s.chooser = seat
    s.role = role
    s.library = library
    if library:
        s.lib_used |= 1 << seat
    s.acted = 0
    s.turns = 0
    s.step = STEP_MAIN
    s.phase = ROLE_PHASES[role]
    if ev is not None:
        ev.append(Event("RoleChosen", seat, {"role": ROLES[role], "library": library}))
    _START[role](s, ev)


# --- builder (§4.1) -----------------------------------------------------------------------------


def _start_builder(s: State, ev: Events) -> None:
    _builder_next(s, ev)


def _builder_next(s: State, ev: Events) -> None:
    """The next seat clockwise from the builder that holds a card (a seat without one has
    nothing to place; hand sizes are public)."""
    n = s.n
    players = s.players
    while s.turns < n:
        seat = (s.chooser + s.turns) % n
        if any(players[seat].hand):
            s.turn = seat
            s.step = STEP_MAIN
            return
        s.turns += 1
    _end_builder(s, ev)


def builder_seat_done(s: State, ev: Events) -> None:
    s.turns += 1
    s.step = STEP_MAIN
    s.b_kind = -1
    s.b_target = -1
    s.b_cost = 0
    _builder_next(s, ev)


def build(s: State, seat: int, action: Action, ev: Events) -> None:
    s.acted |= 1 << seat
    if action.kind == A.PASS:
        passed(s, seat, "build", ev)
        builder_seat_done(s, ev)
        return
    p = s.players[seat]
    kind, target = action.a, action.b
    cost = build_cost(s, seat, kind, target)  # before placing: the covered one counts for
    # nothing, the new one is not active yet (§5.0)
    p.hand[kind] -= 1
    covered = -1
    if target >= 0:
        # E1: the new card covers the old one; its good is lost (§5.9; A-18: the seed's
        # "construction building" carrying a good is a production building); Chapel cards stay
        covered = p.area[target][-1]
        p.cover(target, kind)
        good = p.goods[target]
        if good >= 0:
            p.goods[target] = -1
            s.discard.append(good)
            if ev is not None:
                ev.append(
                    Event("GoodLost", seat, {"index": target, "good": GOODS[GOOD_OF[covered]]})
                )
        p.fresh = target
    else:
        p.fresh = p.add_building(kind)
    s.b_kind = kind
    s.b_target = target
    s.b_cost = cost
    if ev is not None:
        ev.append(
            Event(
                "BuildingBuilt",
                seat,
                {
                    "card": NAMES[kind],
                    "index": p.fresh,
                    "over": None if covered < 0 else NAMES[covered],
                    "cost": cost,
                },
            )
        )
    if pay_needs_prompt(s, seat):
        s.step = STEP_PAY
        return
    if cost:  # the whole hand, the one way to pay
        paid = p.hand_cards()
        discard_from_hand(s, seat, paid, "CardsPaid", "build", None)
        if ev is not None:
            private(ev, "CardsPaid", seat, {"count": len(paid), "goods": [], "cards": names(paid)})
    _after_pay(s, seat, ev)


def pay(s: State, seat: int, action: Action, ev: Events) -> None:
    """E2: the cards from the hand, and goods (A-3: discarded unseen, not a sale)."""
    p = s.players[seat]
    discard_from_hand(s, seat, action.cards, "CardsPaid", "build", None)
    area, goods = p.area, p.goods
    for good in action.goods:
        for i in range(len(area)):
            if goods[i] >= 0 and GOOD_OF[area[i][-1]] == good:
                s.discard.append(goods[i])
                goods[i] = -1
                break
    if ev is not None:
        private(
            ev,
            "CardsPaid",
            seat,
            {
                "count": len(action.cards) + len(action.goods),
                "goods": [GOODS[g] for g in action.goods],
                "cards": names(action.cards),
            },
        )
    _after_pay(s, seat, ev)


def _after_pay(s: State, seat: int, ev: Events) -> None:
    """E3: the Carpenter's draw after a violet building (A-4: before the Poor house)."""
    top = s.players[seat].top
    if (
        not IS_PRODUCTION[s.b_kind]
        and CARPENTER in top
        and has_active(s.players[seat], CARPENTER)
        and (s.pile or s.discard)  # can_draw
    ):
        s.step = STEP_CARPENTER
        return
    poor_house(s, seat, ev)


def poor_house(s: State, seat: int, ev: Events) -> None:
    """E4: the Poor house's draw with 0 or 1 hand card after building (§5.4, A-4)."""
    p = s.players[seat]
    if (
        POOR_HOUSE in p.top
        and has_active(p, POOR_HOUSE)
        and sum(p.hand) <= 1
        and (s.pile or s.discard)  # can_draw
    ):
        s.step = STEP_POOR_HOUSE
        return
    builder_seat_done(s, ev)


def _end_builder(s: State, ev: Events) -> None:
    """Every building built this phase becomes active (§5.0); the game ends right after a
    builder phase in which somebody reached 12 buildings (§6.1, A-2)."""
    for p in s.players:
        p.fresh = -1
    s.step = STEP_MAIN
    s.turns = 0
    phase_ended(s, ev)
    if any(len(p.area) >= END_BUILDINGS for p in s.players):
        game_over(s, END_TWELVE, ev)
    else:
        next_pick(s, ev)


# --- producer (§4.2) ----------------------------------------------------------------------------


def _start_producer(s: State, ev: Events) -> None:
    if not ask(s, [has_empty(p) for p in s.players]):
        next_pick(s, ev)


def produce(s: State, seat: int, action: Action, ev: Events) -> None:
    p = s.players[seat]
    if action.kind == A.PASS:
        passed(s, seat, "produce", ev)
    else:
        area, goods = p.area, p.goods
        made: list[int] = []
        where: list[int] = []
        for good in action.goods:
            for i in range(len(area)):
                if goods[i] < 0 and GOOD_OF[area[i][-1]] == good:
                    card = draw(s, ev)
                    if card >= 0:  # both piles empty, no good
                        goods[i] = card
                        made.append(good)
                        where.append(i)
                    break
        if ev is not None:
            ev.append(
                Event(
                    "GoodsProduced", seat, {"goods": [GOODS[g] for g in made], "buildings": where}
                )
            )
        if len(made) >= 2 and WELL in p.top and has_active(p, WELL):  # §5.7, A-17
            draw_to_hand(s, seat, 1, "well", ev)
    if done_simultaneous(s, seat):
        next_pick(s, ev)


# --- trader (§4.3) ------------------------------------------------------------------------------


def _start_trader(s: State, ev: Events) -> None:
    """The top tile is turned up even if nobody can sell (A-7, D-09)."""
    tile = s.tiles.pop(0)
    s.face_up = tile
    if tile not in s.revealed:
        s.revealed.append(tile)
    s.reveals += 1
    if ev is not None:
        ev.append(
            Event(
                "TileRevealed",
                None,
                {"tile": tile, "prices": dict(zip(GOODS, TILE_PRICES[tile], strict=True))},
            )
        )
    if not ask(s, [p.goods.count(-1) < len(p.goods) for p in s.players]):  # any good
        _end_trader(s, ev)


def sell(s: State, seat: int, action: Action, ev: Events) -> None:
    p = s.players[seat]
    if action.kind == A.PASS:
        passed(s, seat, "sell", ev)
    else:
        area, goods = p.area, p.goods
        price_of = TILE_PRICES[s.face_up]
        price = 0
        for good in action.goods:
            for i in range(len(area)):
                if goods[i] >= 0 and GOOD_OF[area[i][-1]] == good:
                    s.discard.append(goods[i])  # face down, unseen
                    goods[i] = -1
                    break
            price += price_of[good]
        sold = len(action.goods)
        top = p.top
        stand = 1 if sold >= 2 and MARKET_STAND in top and has_active(p, MARKET_STAND) else 0
        hall = 1 if sold >= 1 and MARKET_HALL in top and has_active(p, MARKET_HALL) else 0
        # (§5.8 the Market stand; §5.15 and A-6 the Market hall, once a phase)
        if ev is not None:
            ev.append(
                Event(
                    "GoodsSold",
                    seat,
                    {
                        "goods": [GOODS[g] for g in action.goods],
                        "price": price,
                        "market_stand": stand,
                        "market_hall": hall,
                    },
                )
            )
        draw_to_hand(s, seat, price + stand + hall, "trade", ev)
    if done_simultaneous(s, seat):
        _end_trader(s, ev)


def _end_trader(s: State, ev: Events) -> None:
    """The trader's last act: the tile goes face down to the bottom of the stack (§4.3)."""
    tile = s.face_up
    s.tiles.append(tile)
    s.face_up = 0
    if ev is not None:
        ev.append(Event("TileReturned", None, {"tile": tile}))
    next_pick(s, ev)


# --- councillor (§4.4) --------------------------------------------------------------------------


def _start_councillor(s: State, ev: Events) -> None:
    """§4.4: every seat decides to draw or pass (A-15; the Councillor draws all or nothing,
    A-7); nothing is drawn yet.  With both piles empty nobody could draw: the phase ends."""
    if s.options.get("councillor_draw") == "at_once":
        _start_councillor_at_once(s, ev)
        return
    s.waiting = 0
    if not ask(s, [bool(s.pile or s.discard)] * s.n):
        next_pick(s, ev)


def _deal_councillor_draws(s: State, ev: Events) -> None:
    """The waiting draws that the spec's clockwise order from the Councillor allows now: a
    seat draws when the pile holds its cards besides those of every seat before it that may
    still draw (no reshuffle can then happen before or during its draw), or when every seat
    before it is done (its draw then reshuffles exactly the discards the spec's order would,
    A-1).  A seat that drew nothing (both piles empty) is done."""
    waiting = s.waiting
    if not waiting:
        return
    n = s.n
    pending = s.pending
    owed = 0  # the cards still owed to the seats before this one
    before_done = True
    for offset in range(n):
        seat = (s.chooser + offset) % n
        bit = 1 << seat
        count = councillor_draws(s, seat)
        p = s.players[seat]
        if waiting & bit:
            if before_done or len(s.pile) >= owed + count:
                waiting &= ~bit
                p.drawn = draw_many(s, count, ev)
                if ev is not None:
                    cards_drawn(ev, seat, p.drawn, "councillor")
                if p.drawn:
                    pending[seat] = True
                    before_done = False
            else:
                owed += count
                before_done = False
        elif pending[seat]:
            before_done = False
            if not p.drawn:  # may still choose to draw
                owed += count
    s.waiting = waiting


def _start_councillor_at_once(s: State, ev: Events) -> None:
    """Games stored before ``councillor_draw`` existed: every seat's cards drawn at the start,
    clockwise from the Councillor; a seat that drew nothing has nothing to decide."""
    n = s.n
    pending = s.pending
    anyone = False
    chooser = s.chooser
    for offset in range(n):
        seat = (chooser + offset) % n
        p = s.players[seat]
        # councillor_draws: 2, 5 for the councillor, 8 with the Library
        p.drawn = draw_many(s, 2 if offset else 8 if s.library else 5, ev)
        if ev is not None:
            cards_drawn(ev, seat, p.drawn, "councillor")
        flag = bool(p.drawn)
        pending[seat] = flag
        anyone = anyone or flag
    if not anyone:
        next_pick(s, ev)


def councillor_decision(s: State, seat: int, action: Action, ev: Events) -> None:
    p = s.players[seat]
    kind = action.kind
    if kind == A.DRAW:  # dealt when the clockwise order allows (``_deal_councillor_draws``)
        s.waiting |= 1 << seat
        s.pending[seat] = False
        s.acted |= 1 << seat
    elif kind == A.PASS and not p.drawn:  # declined before seeing a card
        passed(s, seat, "councillor_draw", ev)
        done_simultaneous(s, seat)
    elif kind == A.KEEP:
        rest = keep_from_drawn(s, p, action.cards)
        if ev is not None:
            private(
                ev, "CardsKept", seat, {"count": len(action.cards), "cards": names(action.cards)}
            )
            private(
                ev,
                "CardsDiscarded",
                seat,
                {"count": len(rest), "reason": "councillor", "cards": names(rest)},
            )
        done_simultaneous(s, seat)
    elif kind == A.DISCARD:
        # §5.3 Archive: every drawn card joins the hand, then the discards from the whole hand
        drawn = p.drawn
        for card in drawn:
            p.hand[card] += 1
        p.drawn = []
        if ev is not None:
            private(ev, "CardsKept", seat, {"count": len(drawn), "cards": names(drawn)})
        discard_from_hand(s, seat, action.cards, "CardsDiscarded", "councillor", ev)
        done_simultaneous(s, seat)
    else:  # ``at_once``: kept none of the cards drawn at the start
        rest = keep_from_drawn(s, p, ())
        passed(s, seat, "councillor", ev)
        if ev is not None:
            private(
                ev,
                "CardsDiscarded",
                seat,
                {"count": len(rest), "reason": "councillor", "cards": names(rest)},
            )
        done_simultaneous(s, seat)
    _deal_councillor_draws(s, ev)
    if True not in s.pending:
        next_pick(s, ev)


# --- prospector (§4.5) and the Gold mine (§5.2) -------------------------------------------------


def _start_prospector(s: State, ev: Events) -> None:
    """A-7: the prospector may decline his privilege; the Gold mines work either way."""
    s.turn = s.chooser
    if can_draw(s):
        s.step = STEP_MAIN
        return
    gold_next(s, ev)


def gold_next(s: State, ev: Events) -> None:
    """The next Gold mine owner clockwise from the prospector (A-9.1), the prospector
    included; ``turns`` counts the seats already considered.  A-9.5: fewer than 4 cards in the
    two piles together and the Gold mine cannot be used."""
    n = s.n
    players = s.players
    while s.turns < n:
        seat = (s.chooser + s.turns) % n
        s.turns += 1
        p = players[seat]
        if GOLD_MINE in p.top and has_active(p, GOLD_MINE) and can_draw(s, GOLD_MINE_CARDS):
            s.turn = seat
            s.step = STEP_GOLD_MINE
            return
    s.step = STEP_MAIN
    s.turns = 0
    next_pick(s, ev)


def gold_mine(s: State, seat: int, action: Action, ev: Events) -> None:
    s.acted |= 1 << seat
    if action.kind == A.PASS:
        passed(s, seat, "gold_mine", ev)
        gold_next(s, ev)
        return
    cards = draw_many(s, GOLD_MINE_CARDS, ev)  # face up: public
    success = len({COST[c] for c in cards}) == GOLD_MINE_CARDS  # printed costs
    if ev is not None:
        ev.append(Event("GoldMineRevealed", seat, {"cards": names(cards), "success": success}))
    if success:
        s.gm_cards = cards
        s.step = STEP_GOLD_TAKE
        return
    s.discard.extend(cards)
    gold_next(s, ev)


def gold_take(s: State, seat: int, action: Action, ev: Events) -> None:
    """A-9.2: any one of the four, the owner's choice; the other three are discarded."""
    card = action.a
    rest = s.gm_cards
    rest.remove(card)
    s.players[seat].hand[card] += 1
    s.discard.extend(rest)
    s.gm_cards = []
    if ev is not None:
        ev.append(Event("GoldMineCardTaken", seat, {"card": NAMES[card], "discarded": names(rest)}))
    gold_next(s, ev)


_START: Final = (
    _start_builder, _start_producer, _start_trader, _start_councillor, _start_prospector
)
