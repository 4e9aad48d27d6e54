"""The round of San Juan: options and setup (§2), the role choices (§3.1, §3.2), the end of a
role phase and of the round, the start-of-round steps (Chapel, hand limit: §3.3), the variant
start's keep (§2.7) and the end of the game (§6.1 and the ruling beside :func:`stalled`).

Every function mutates the state it is given (``SanJuan.apply`` clones first).  Section numbers
(§), rulings (A-n) and tests (S-n, D-n) refer to ``docs/rules/san-juan.md``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from ..core import Event, InvalidSetup
from ..rng import seed_state
from . import actions as A
from .actions import Action
from .data import CHAPEL as CHAPEL_CARD
from .data import (
    COPIES,
    COST,
    INDIGO_PLANT,
    IS_PRODUCTION,
    LIBRARY,
    NKINDS,
    QUARRY,
    ROLES,
    SMITHY,
    START_HAND,
    TILES,
    VARIANT_DRAWS,
)
from .data import CRANE as CRANE_CARD
from .data import HAND_LIMIT as HAND_LIMIT_CARDS
from .ops import NAMES, Events, discard_from_hand, draw_many, draw_to_hand, names, private, shuffle
from .rules import hand_limit
from .scoring import final_scores
from .state import (
    CHAPEL,
    END_NO_CARDS,
    HAND_LIMIT,
    OVER,
    ROLE,
    STEP_MAIN,
    VARIANT_KEEP,
    Player,
    State,
)

OPTION_TYPES: Final[dict[str, type]] = {"players": int, "variant_start": bool,
                                         "councillor_draw": str}
COUNCILLOR_DRAWS: Final = ("clockwise", "at_once")
"""How the Councillor's draws are dealt (§4.4, A-12, A-15): ``clockwise`` (the default), each
seat first chooses to draw or to pass, without seeing a card, and the draws come off the pile
as the spec's clockwise order from the chooser would deal them; ``at_once``: every seat's cards
were drawn when the phase opened (how games stored before the option existed were played)."""
LEGACY_OPTIONS: Final[dict[str, Any]] = {"councillor_draw": "at_once"}
"""The values a game stored before an option existed was played with (``Game.legacy_options``)."""


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
    councillor = options.get("councillor_draw", COUNCILLOR_DRAWS[0])
    if councillor not in COUNCILLOR_DRAWS:
        raise InvalidSetup("bad_councillor_draw", option="councillor_draw", value=str(councillor))
    return {"players": players, "variant_start": bool(options.get("variant_start", False)),
            "councillor_draw": councillor}


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
        start_roles(s)  # no start-of-round steps before round 1
    s.reveals = 0
    return s


def passed(s: State, seat: int, decision: str, ev: Events) -> None:
    if ev is not None:
        ev.append(Event("Passed", seat, {"decision": decision}))


def ask(s: State, flags: list[bool]) -> bool:
    """Prompt at once every seat whose flag is set (a simultaneous step); whether anyone is."""
    s.pending = flags
    return True in flags


def done_simultaneous(s: State, seat: int) -> bool:
    """Mark ``seat`` as done in a simultaneous step; True when nobody is left."""
    pending = s.pending
    pending[seat] = False
    s.acted |= 1 << seat
    return True not in pending


# --- the round (§3) -----------------------------------------------------------------------------


def start_roles(s: State) -> None:
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


def phase_ended(s: State, ev: Events) -> None:
    """A role phase is over (``PhaseEnded``, the event every game's log and story use); the
    role tile stays with its chooser until the round ends (``taken``)."""
    if s.role < 0:
        return
    if ev is not None:
        ev.append(Event("PhaseEnded", s.chooser, {"role": ROLES[s.role], "library": s.library}))
    s.role = -1
    s.chooser = -1
    s.library = False


def next_pick(s: State, ev: Events) -> None:
    phase_ended(s, ev)
    if not (s.pile or s.discard) and stalled(s):
        game_over(s, END_NO_CARDS, ev)
    elif s.picks >= (3 if s.n == 2 else s.n):  # picks_per_round
        end_round(s, ev)
    else:
        start_roles(s)


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


def end_round(s: State, ev: Events) -> None:
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
    # §5.10: the owner of an active Chapel may place one hand card under it
    if not ask(
        s,
        [
            CHAPEL_CARD in p.top and p.top.index(CHAPEL_CARD) != p.fresh and any(p.hand)
            for p in s.players
        ],
    ):
        _start_hand_limit(s)


def _start_hand_limit(s: State) -> None:
    """§3.3 step 2 (after every Chapel decision): more than 7 cards (12 with an active Tower)
    must be discarded down to the limit; the only moment the limit is checked (D-03)."""
    s.phase = HAND_LIMIT
    s.acted = 0
    sizes = [sum(p.hand) for p in s.players]  # the Tower's 12 only matters above 7
    if not ask(
        s,
        [
            size > HAND_LIMIT_CARDS and size > hand_limit(p)
            for size, p in zip(sizes, s.players, strict=True)
        ],
    ):
        start_roles(s)


def chapel_decision(s: State, seat: int, action: Action, ev: Events) -> None:
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
    if done_simultaneous(s, seat):
        _start_hand_limit(s)


def hand_limit_decision(s: State, seat: int, action: Action, ev: Events) -> None:
    discard_from_hand(s, seat, action.cards, "CardsDiscarded", "hand_limit", ev)
    if done_simultaneous(s, seat):
        start_roles(s)


def variant_keep_decision(s: State, seat: int, action: Action, ev: Events) -> None:
    p = s.players[seat]
    rest = keep_from_drawn(s, p, action.cards)
    if ev is not None:
        private(ev, "CardsKept", seat, {"count": len(action.cards), "cards": names(action.cards)})
        private(
            ev,
            "CardsDiscarded",
            seat,
            {"count": len(rest), "reason": "variant_start", "cards": names(rest)},
        )
    if done_simultaneous(s, seat):
        start_roles(s)


def keep_from_drawn(s: State, p: Player, kept: tuple[int, ...]) -> list[int]:
    """Move ``kept`` from ``p``'s drawn cards to the hand and the rest to the discard pile;
    returns the discarded kinds."""
    rest = p.drawn
    for card in kept:
        rest.remove(card)
        p.hand[card] += 1
    s.discard.extend(rest)
    p.drawn = []
    return rest


def may_draw(s: State, seat: int, action: Action, reason: str, count: int, ev: Events) -> None:
    s.acted |= 1 << seat
    if action.kind == A.DRAW:
        draw_to_hand(s, seat, count, reason, ev)
    else:
        passed(s, seat, reason, ev)


def game_over(s: State, reason: str, ev: Events) -> None:
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
