"""Setup, the round and the five roles: applying a legal action and running the automatic steps.

Every function mutates the state it is given (``SanJuan.apply`` clones first).  After each
action the state moves on to the next decision: a phase ends when every seat has acted or been
skipped, a round when every seat has chosen a role.  Section numbers (§), rulings (A-n) and
tests (S-n, D-n) refer to ``shared/rules/san-juan.md``.

Ruling A-12 (simultaneous actions): the seed lets producing, selling and the Councillor's keep
happen at once.  A-12 recommends resolving them one player at a time only so that seeded games
are reproducible; here the action log already fixes the order in which the decisions (and
their draws) happen, so those steps prompt every seat that still has to decide at once.  The
Councillor's draws all happen when the phase starts, clockwise from the Councillor; each
player's keep is then independent.  The builder phase and the Prospector/Gold mine stay one
player at a time, clockwise from the chooser.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..core import Event, InvalidSetup
from ..rng import seed_state
from . import actions as A
from .actions import Action
from .data import (
    CARDS,
    CARPENTER,
    COPIES,
    COST,
    END_BUILDINGS,
    GOLD_MINE,
    GOLD_MINE_CARDS,
    GOOD_OF,
    GOODS,
    INDIGO_PLANT,
    IS_PRODUCTION,
    LIBRARY,
    MARKET_HALL,
    MARKET_STAND,
    NKINDS,
    POOR_HOUSE,
    QUARRY,
    ROLES,
    SMITHY,
    START_HAND,
    TILE_PRICES,
    TILES,
    VARIANT_DRAWS,
    WELL,
)
from .data import (
    CHAPEL as CHAPEL_CARD,
)
from .data import (
    CRANE as CRANE_CARD,
)
from .legality import (
    build_cost,
    can_draw,
    councillor_draws,
    empty_by_good,
    goods_count,
    hand_limit,
    has_active,
    pay_needs_prompt,
    privilege,
)
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
    shuffle,
)
from .scoring import final_scores
from .state import (
    BUILDER,
    CHAPEL,
    COUNCILLOR,
    END_NO_CARDS,
    END_TWELVE,
    HAND_LIMIT,
    OVER,
    PHASE_NAMES,
    PRODUCER,
    PROSPECTOR,
    ROLE,
    ROLE_PHASES,
    STEP_CARPENTER,
    STEP_GOLD_MINE,
    STEP_GOLD_TAKE,
    STEP_MAIN,
    STEP_PAY,
    STEP_POOR_HOUSE,
    TRADER,
    VARIANT_KEEP,
    Player,
    State,
)

OPTION_TYPES: dict[str, type] = {"players": int, "variant_start": bool}


def normalize_options(options: Mapping[str, Any]) -> dict[str, Any]:
    """Validate options and fill defaults.  Raises :class:`InvalidSetup` with a specific code:
    ``options_not_an_object``, ``unknown_option``, ``players_required``, ``bad_option_type``,
    ``players_out_of_range``."""
    if not isinstance(options, Mapping):
        raise InvalidSetup("options_not_an_object")
    unknown = sorted(str(k) for k in options if k not in OPTION_TYPES)
    if unknown:
        raise InvalidSetup("unknown_option", option=unknown[0])
    if "players" not in options:
        raise InvalidSetup("players_required", option="players")
    for name, kind in OPTION_TYPES.items():
        if name in options and type(options[name]) is not kind:
            raise InvalidSetup("bad_option_type", option=name, expected=kind.__name__)
    players = options["players"]
    if not 2 <= players <= 4:  # §2.1
        raise InvalidSetup("players_out_of_range", option="players", value=players, min=2, max=4)
    return {"players": players, "variant_start": bool(options.get("variant_start", False))}


def picks_per_round(s: State) -> int:
    """§3.1 / §3.2: every seat chooses once; with 2 players Governor, opponent, Governor."""
    return 3 if s.n == 2 else s.n


# --- setup (§2) ---------------------------------------------------------------------------------


def setup(options: Mapping[str, Any], seed: int) -> State:
    if type(seed) is not int:
        raise InvalidSetup("bad_seed", option="seed")
    opts = normalize_options(options)
    n = opts["players"]
    s = State()
    s.options = opts
    s.n = n
    s.variant = opts["variant_start"]
    s.rng = seed_state(seed)
    s.governor = 0  # seat 0 starts; the application seats the players at random
    s.pending = [False] * n
    deck: list[int] = []
    for kind in range(NKINDS):
        deck.extend([kind] * (COPIES[kind] - (n if kind == INDIGO_PLANT else 0)))
    for _ in range(n):
        p = Player()
        p.add_building(INDIGO_PLANT)  # §2.5 step 4
        s.players.append(p)
    shuffle(s, deck)
    s.pile = deck
    tiles = list(TILES)
    shuffle(s, tiles)  # §2.5 step 3: the stack's order is hidden
    s.tiles = tiles
    if s.variant:
        # §2.7 / A-21: the starting player draws 5, the next (to his left) 6, then 7 and 8;
        # each keeps 4 (simultaneously) and discards the rest onto the discard pile.
        for offset in range(n):
            seat = (s.governor + offset) % n
            s.players[seat].drawn = draw_many(s, VARIANT_DRAWS[offset], None)
            s.pending[seat] = True
        s.phase = VARIANT_KEEP
    else:
        for offset in range(n):
            hand = s.players[(s.governor + offset) % n].hand
            for card in draw_many(s, START_HAND, None):
                hand[card] += 1
        _start_roles(s)
    s.reveals = 0
    return s


# --- applying an action ----------------------------------------------------------------------


def apply_unchecked(s: State, seat: int, action: Action, ev: Events = None) -> None:
    """Apply a legal action in place and move on to the next decision."""
    phase = s.phase
    if phase == ROLE:
        _choose_role(s, seat, action, ev)
    elif phase == BUILDER:
        step = s.step
        if step == STEP_MAIN:
            _build(s, seat, action, ev)
        elif step == STEP_PAY:
            _pay(s, seat, action, ev)
        elif step == STEP_CARPENTER:
            _may_draw(s, seat, action, "carpenter", 1, ev)
            _poor_house(s, seat, ev)
        else:
            _may_draw(s, seat, action, "poor_house", 1, ev)
            _builder_seat_done(s, ev)
    elif phase == PRODUCER:
        _produce(s, seat, action, ev)
    elif phase == TRADER:
        _sell(s, seat, action, ev)
    elif phase == COUNCILLOR:
        _councillor(s, seat, action, ev)
    elif phase == PROSPECTOR:
        step = s.step
        if step == STEP_MAIN:
            _may_draw(s, seat, action, "prospector", privilege(s, seat), ev)
            _gold_next(s, ev)
        elif step == STEP_GOLD_MINE:
            _gold_mine(s, seat, action, ev)
        else:
            _gold_take(s, seat, action, ev)
    elif phase == CHAPEL:
        _chapel(s, seat, action, ev)
    elif phase == HAND_LIMIT:
        _hand_limit(s, seat, action, ev)
    else:
        _variant_keep(s, seat, action, ev)


def _passed(s: State, seat: int, decision: str, ev: Events) -> None:
    if ev is not None:
        ev.append(Event("Passed", seat, {"decision": decision}))


def _done_simultaneous(s: State, seat: int) -> bool:
    """Mark ``seat`` as done in a simultaneous step; True when nobody is left."""
    s.pending[seat] = False
    s.acted |= 1 << seat
    return not any(s.pending)


# --- the round (§3) -----------------------------------------------------------------------------


def _start_roles(s: State) -> None:
    """The next role choice of the round: Governor first, then clockwise (§3.1); with 2 players
    Governor, opponent, Governor (§3.2)."""
    s.phase = ROLE
    s.step = STEP_MAIN
    s.turn = (s.governor + s.picks) % s.n
    s.turns = 0
    s.chooser = -1
    s.role = -1
    s.library = False
    s.acted = 0


def _phase_ended(s: State, ev: Events) -> None:
    """A role phase is over (``PhaseEnded``, the event every game's log and story use); the
    role tile stays with its chooser until the round ends (``taken``)."""
    if s.role < 0:
        return
    if ev is not None:
        ev.append(Event("PhaseEnded", s.chooser, {"role": ROLES[s.role], "library": s.library}))
    s.role = -1
    s.chooser = -1
    s.library = False


def _next_pick(s: State, ev: Events) -> None:
    _phase_ended(s, ev)
    if stalled(s):
        _game_over(s, END_NO_CARDS, ev)
    elif s.picks >= picks_per_round(s):
        _end_round(s, ev)
    else:
        _start_roles(s)


def stalled(s: State) -> bool:
    """Ruling (not in the rules): the game can never end by §6.1 any more, so it ends now and
    is scored as usual.  That is the case when both piles are empty (so nothing can be drawn:
    A-1 covers one empty draw, not a table that can never move), no good lies anywhere (no
    sale can refill the discard pile), no hand is over its limit (no start-of-round discard
    will) and no player could build any card of his hand even with every reduction he could
    ever have (the largest privilege, his Smithy or Quarry, his Crane over his dearest
    building): hands can then only shrink, so no building will ever be added.  Checked after
    every role phase.  Only long games with greedy Chapels or players who never build come
    here (random players do)."""
    if s.pile or s.discard:
        return False
    for p in s.players:
        if p.drawn or any(g >= 0 for g in p.goods):
            return False
        size = sum(p.hand)
        if size > hand_limit(p):
            return False
        if size and _could_build(p, size):
            return False
    return True


def _could_build(p: Player, size: int) -> bool:
    """Whether some card of the hand could be paid under the most favourable circumstances."""
    top = p.top
    privilege = 2 if LIBRARY in top else 1
    crane = max((COST[t] for t in top if t != CRANE_CARD), default=0) if CRANE_CARD in top else 0
    for kind in range(NKINDS):
        if not p.hand[kind] or (not IS_PRODUCTION[kind] and kind in top):
            continue
        reducer = SMITHY if IS_PRODUCTION[kind] else QUARRY
        cost = COST[kind] - privilege - (1 if reducer in top else 0) - crane
        if cost <= size - 1:
            return True
    return False


def _end_round(s: State, ev: Events) -> None:
    """§3.1 step 4: the roles go back, the Governor passes to the left, then the start-of-round
    steps (§3.3): Chapel, then the hand limit."""
    if ev is not None:
        ev.append(Event("RoundEnded", None, {"round": s.round}))
    s.governor = (s.governor + 1) % s.n
    s.round += 1
    s.picks = 0
    s.taken = [-1] * len(ROLES)
    s.lib_used = 0
    s.chooser = -1
    s.role = -1
    s.library = False
    if ev is not None:
        ev.append(Event("RoundStarted", None, {"round": s.round, "governor": s.governor}))
    s.phase = CHAPEL
    s.step = STEP_MAIN
    s.acted = 0
    pending = s.pending
    anyone = False
    for seat, p in enumerate(s.players):
        # §5.10: the owner of an active Chapel may place one hand card under it
        flag = has_active(p, CHAPEL_CARD) and any(p.hand)
        pending[seat] = flag
        anyone = anyone or flag
    if not anyone:
        _start_hand_limit(s)


def _start_hand_limit(s: State) -> None:
    """§3.3 step 2 (after every Chapel decision): more than 7 cards (12 with an active Tower)
    must be discarded down to the limit; the only moment the limit is checked (D-03)."""
    s.phase = HAND_LIMIT
    s.acted = 0
    pending = s.pending
    anyone = False
    for seat, p in enumerate(s.players):
        flag = sum(p.hand) > hand_limit(p)
        pending[seat] = flag
        anyone = anyone or flag
    if not anyone:
        _start_roles(s)


def _chapel(s: State, seat: int, action: Action, ev: Events) -> None:
    p = s.players[seat]
    if action.kind == A.CHAPEL:
        p.hand[action.a] -= 1
        p.chapel.append(action.a)
        if ev is not None:
            # nobody else learns which card, nor (from the event) that one was placed
            ev.append(
                Event(
                    "ChapelCardPlaced",
                    seat,
                    {"card": NAMES[action.a]},
                    private_to=seat,
                    public_data=None,
                )
            )
    elif ev is not None:
        ev.append(Event("Passed", seat, {"decision": "chapel"}, private_to=seat))
    if _done_simultaneous(s, seat):
        _start_hand_limit(s)


def _hand_limit(s: State, seat: int, action: Action, ev: Events) -> None:
    discard_from_hand(s, seat, action.cards, "CardsDiscarded", "hand_limit", ev)
    if _done_simultaneous(s, seat):
        _start_roles(s)


def _variant_keep(s: State, seat: int, action: Action, ev: Events) -> None:
    p = s.players[seat]
    rest = _keep_from_drawn(s, p, action.cards)
    if ev is not None:
        private(ev, "CardsKept", seat, {"count": len(action.cards), "cards": names(action.cards)})
        private(
            ev,
            "CardsDiscarded",
            seat,
            {"count": len(rest), "reason": "variant_start", "cards": names(rest)},
        )
    if _done_simultaneous(s, seat):
        _start_roles(s)


def _keep_from_drawn(s: State, p: Player, kept: tuple[int, ...]) -> list[int]:
    """Move ``kept`` from ``p``'s drawn cards to the hand and the rest to the discard pile;
    returns the discarded kinds."""
    rest = p.drawn
    for card in kept:
        rest.remove(card)
        p.hand[card] += 1
    s.discard.extend(rest)
    p.drawn = []
    return rest


# --- role choice (§3, §4) ---------------------------------------------------------------------


def _choose_role(s: State, seat: int, action: Action, ev: Events) -> None:
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
    while s.turns < n:
        seat = (s.chooser + s.turns) % n
        if any(s.players[seat].hand):
            s.turn = seat
            s.step = STEP_MAIN
            return
        s.turns += 1
    _end_builder(s, ev)


def _builder_seat_done(s: State, ev: Events) -> None:
    s.turns += 1
    s.step = STEP_MAIN
    s.b_kind = -1
    s.b_target = -1
    s.b_cost = 0
    _builder_next(s, ev)


def _build(s: State, seat: int, action: Action, ev: Events) -> None:
    s.acted |= 1 << seat
    if action.kind == A.PASS:
        _passed(s, seat, "build", ev)
        _builder_seat_done(s, ev)
        return
    p = s.players[seat]
    kind, target = action.a, action.b
    cost = build_cost(s, seat, kind, target)  # before placing: the covered one counts for
    # nothing, the new one is not active yet (§5.0)
    p.hand[kind] -= 1
    covered = -1
    if target >= 0:
        # E1: the new card covers the old one; its good is lost (§5.9); Chapel cards stay
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


def _pay(s: State, seat: int, action: Action, ev: Events) -> None:
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
    p = s.players[seat]
    if not IS_PRODUCTION[s.b_kind] and has_active(p, CARPENTER) and can_draw(s):
        s.step = STEP_CARPENTER
        return
    _poor_house(s, seat, ev)


def _poor_house(s: State, seat: int, ev: Events) -> None:
    """E4: the Poor house's draw with 0 or 1 hand card after building (§5.4, A-4)."""
    p = s.players[seat]
    if has_active(p, POOR_HOUSE) and sum(p.hand) <= 1 and can_draw(s):
        s.step = STEP_POOR_HOUSE
        return
    _builder_seat_done(s, ev)


def _may_draw(s: State, seat: int, action: Action, reason: str, count: int, ev: Events) -> None:
    s.acted |= 1 << seat
    if action.kind == A.DRAW:
        draw_to_hand(s, seat, count, reason, ev)
    else:
        _passed(s, seat, reason, ev)


def _end_builder(s: State, ev: Events) -> None:
    """Every building built this phase becomes active (§5.0); the game ends right after a
    builder phase in which somebody reached 12 buildings (§6.1, A-2)."""
    for p in s.players:
        p.fresh = -1
    s.step = STEP_MAIN
    s.turns = 0
    _phase_ended(s, ev)
    if any(len(p.area) >= END_BUILDINGS for p in s.players):
        _game_over(s, END_TWELVE, ev)
    else:
        _next_pick(s, ev)


def _game_over(s: State, reason: str, ev: Events) -> None:
    """§6.1: the rest of the round is not played (no more roles, no start-of-round steps); the
    round still ends, for the log (``RoundEnded``), then the game (``GameEnded``)."""
    if ev is not None:
        ev.append(Event("RoundEnded", None, {"round": s.round}))
    s.phase = OVER
    s.end_reasons = [reason]
    s.pending = [False] * s.n
    s.chooser = -1
    s.role = -1
    s.library = False
    if ev is not None:
        outcome = final_scores(s)
        ev.append(
            Event(
                "GameEnded",
                None,
                {
                    "reasons": list(s.end_reasons),
                    "winners": list(outcome.winners),
                    "scores": [line.total for line in outcome.scores],
                },
            )
        )


# --- producer (§4.2) ----------------------------------------------------------------------------


def _start_producer(s: State, ev: Events) -> None:
    pending = s.pending
    anyone = False
    for seat, p in enumerate(s.players):
        flag = any(empty_by_good(p))
        pending[seat] = flag
        anyone = anyone or flag
    if not anyone:
        _next_pick(s, ev)


def _produce(s: State, seat: int, action: Action, ev: Events) -> None:
    p = s.players[seat]
    if action.kind == A.PASS:
        _passed(s, seat, "produce", ev)
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
        if len(made) >= 2 and has_active(p, WELL):  # §5.7, A-17
            draw_to_hand(s, seat, 1, "well", ev)
    if _done_simultaneous(s, seat):
        _next_pick(s, ev)


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
    pending = s.pending
    anyone = False
    for seat, p in enumerate(s.players):
        flag = goods_count(p) > 0
        pending[seat] = flag
        anyone = anyone or flag
    if not anyone:
        _end_trader(s, ev)


def _sell(s: State, seat: int, action: Action, ev: Events) -> None:
    p = s.players[seat]
    if action.kind == A.PASS:
        _passed(s, seat, "sell", ev)
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
        stand = 1 if sold >= 2 and has_active(p, MARKET_STAND) else 0  # §5.8
        hall = 1 if sold >= 1 and has_active(p, MARKET_HALL) else 0  # §5.15: once per phase
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
    if _done_simultaneous(s, seat):
        _end_trader(s, ev)


def _end_trader(s: State, ev: Events) -> None:
    """The trader's last act: the tile goes face down to the bottom of the stack (§4.3)."""
    tile = s.face_up
    s.tiles.append(tile)
    s.face_up = 0
    if ev is not None:
        ev.append(Event("TileReturned", None, {"tile": tile}))
    _next_pick(s, ev)


# --- councillor (§4.4) --------------------------------------------------------------------------


def _start_councillor(s: State, ev: Events) -> None:
    n = s.n
    pending = s.pending
    anyone = False
    for offset in range(n):
        seat = (s.chooser + offset) % n
        p = s.players[seat]
        p.drawn = draw_many(s, councillor_draws(s, seat), ev)
        if ev is not None:
            cards_drawn(ev, seat, p.drawn, "councillor")
        flag = bool(p.drawn)
        pending[seat] = flag
        anyone = anyone or flag
    if not anyone:
        _next_pick(s, ev)


def _councillor(s: State, seat: int, action: Action, ev: Events) -> None:
    p = s.players[seat]
    kind = action.kind
    if kind == A.KEEP:
        rest = _keep_from_drawn(s, p, action.cards)
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
    elif kind == A.DISCARD:
        # §5.3 Archive: every drawn card joins the hand, then the discards from the whole hand
        drawn = p.drawn
        for card in drawn:
            p.hand[card] += 1
        p.drawn = []
        if ev is not None:
            private(ev, "CardsKept", seat, {"count": len(drawn), "cards": names(drawn)})
        discard_from_hand(s, seat, action.cards, "CardsDiscarded", "councillor", ev)
    else:
        rest = _keep_from_drawn(s, p, ())
        _passed(s, seat, "councillor", ev)
        if ev is not None:
            private(
                ev,
                "CardsDiscarded",
                seat,
                {"count": len(rest), "reason": "councillor", "cards": names(rest)},
            )
    if _done_simultaneous(s, seat):
        _next_pick(s, ev)


# --- prospector (§4.5) and the Gold mine (§5.2) -------------------------------------------------


def _start_prospector(s: State, ev: Events) -> None:
    """A-7: the prospector may decline his privilege; the Gold mines work either way."""
    s.turn = s.chooser
    if can_draw(s):
        s.step = STEP_MAIN
        return
    _gold_next(s, ev)


def _gold_next(s: State, ev: Events) -> None:
    """The next Gold mine owner clockwise from the prospector (A-9.1), the prospector
    included; ``turns`` counts the seats already considered.  A-9.5: fewer than 4 cards in the
    two piles together and the Gold mine cannot be used."""
    n = s.n
    while s.turns < n:
        seat = (s.chooser + s.turns) % n
        s.turns += 1
        if has_active(s.players[seat], GOLD_MINE) and can_draw(s, GOLD_MINE_CARDS):
            s.turn = seat
            s.step = STEP_GOLD_MINE
            return
    s.step = STEP_MAIN
    s.turns = 0
    _next_pick(s, ev)


def _gold_mine(s: State, seat: int, action: Action, ev: Events) -> None:
    s.acted |= 1 << seat
    if action.kind == A.PASS:
        _passed(s, seat, "gold_mine", ev)
        _gold_next(s, ev)
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
    _gold_next(s, ev)


def _gold_take(s: State, seat: int, action: Action, ev: Events) -> None:
    """A-9.2: any one of the four, the owner's choice; the other three are discarded."""
    card = action.a
    rest = s.gm_cards
    rest.remove(card)
    s.players[seat].hand[card] += 1
    s.discard.extend(rest)
    s.gm_cards = []
    if ev is not None:
        ev.append(Event("GoldMineCardTaken", seat, {"card": NAMES[card], "discarded": names(rest)}))
    _gold_next(s, ev)


_START = (_start_builder, _start_producer, _start_trader, _start_councillor, _start_prospector)

assert len(CARDS) == NKINDS and PHASE_NAMES[OVER] == "over"
