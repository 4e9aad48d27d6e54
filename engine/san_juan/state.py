"""The mutable game state of San Juan (its save format: ``save``).

The rules mutate a private copy (``State.clone``); ``apply`` never touches its input.  Cards of
one kind are interchangeable, so a hand is a count per card kind; a player's area is a list of
stacks (tuples of card kinds, bottom first: the last is the top-level building, the ones under
it were covered with the Crane), each with the card kind lying face down on it as a good (-1:
none).  The draw pile is a list of card kinds whose last element is the top card; the discard
pile is a list too (its order only matters to the next reshuffle, which the seeded generator
does).  Everything is plain ints and lists so that cloning is cheap.
"""

from __future__ import annotations

from typing import Any, Final

from .data import NKINDS

# phases (the view's "phase" names them)
VARIANT_KEEP: Final = 0
CHAPEL: Final = 1
HAND_LIMIT: Final = 2
ROLE: Final = 3
BUILDER: Final = 4
PRODUCER: Final = 5
TRADER: Final = 6
COUNCILLOR: Final = 7
PROSPECTOR: Final = 8
OVER: Final = 9
PHASE_NAMES: Final = {
    VARIANT_KEEP: "variant_keep",
    CHAPEL: "chapel",
    HAND_LIMIT: "hand_limit",
    ROLE: "role",
    BUILDER: "builder",
    PRODUCER: "producer",
    TRADER: "trader",
    COUNCILLOR: "councillor",
    PROSPECTOR: "prospector",
    OVER: "over",
}
# the phase each role starts (data.ROLES order)
ROLE_PHASES: Final = (BUILDER, PRODUCER, TRADER, COUNCILLOR, PROSPECTOR)

# steps inside a phase (STEP_MAIN: the phase's own decision, a build, the Prospector's draw or a
# simultaneous one)
STEP_MAIN: Final = 0
STEP_PAY: Final = 1  # builder: the seat in ``turn`` pays for ``b_kind``
STEP_CARPENTER: Final = 2  # builder: the Carpenter's optional draw
STEP_POOR_HOUSE: Final = 3  # builder: the Poor house's optional draw
STEP_GOLD_MINE: Final = 4  # prospector: the Gold mine owner in ``turn`` decides to use it
STEP_GOLD_TAKE: Final = 5  # prospector: he takes one of the 4 face-up cards

END_TWELVE: Final = "twelve_buildings"  # §6.1
END_NO_CARDS: Final = "no_cards_left"  # ruling beside flow.stalled


class Player:
    __slots__ = ("area", "chapel", "drawn", "fresh", "goods", "hand", "top")

    def __init__(self) -> None:
        self.hand = [0] * NKINDS  # count per card kind
        self.area: list[tuple[int, ...]] = []  # stacks, bottom first; [-1] is top-level
        self.top: list[int] = []  # per stack: its top-level card (``area[i][-1]``, kept in step)
        self.goods: list[int] = []  # per stack: the card lying on it as a good, -1 for none
        self.chapel: list[int] = []  # cards under the Chapel(s), in the order placed
        self.drawn: list[int] = []  # drawn but not yet kept or discarded (Councillor, variant)
        self.fresh = -1  # the stack built on in the builder phase still running (inactive)

    def clone(self) -> Player:
        p = Player.__new__(Player)
        p.hand = self.hand[:]
        p.area = self.area[:]  # stacks are tuples: never mutated
        p.top = self.top[:]
        p.goods = self.goods[:]
        p.chapel = self.chapel[:]
        p.drawn = self.drawn[:]
        p.fresh = self.fresh
        return p

    def add_building(self, kind: int) -> int:
        """Place ``kind`` in a new place of the area (no good on it); returns its index."""
        self.area.append((kind,))
        self.top.append(kind)
        self.goods.append(-1)
        return len(self.area) - 1

    def cover(self, index: int, kind: int) -> None:
        """Build ``kind`` over the stack at ``index`` (the Crane); its good is the caller's."""
        self.area[index] = (*self.area[index], kind)
        self.top[index] = kind

    def hand_size(self) -> int:
        return sum(self.hand)

    def hand_cards(self) -> list[int]:
        """The hand as a sorted list of card kinds (with repeats)."""
        out: list[int] = []
        for kind, count in enumerate(self.hand):
            if count:
                out.extend([kind] * count)
        return out



class State:
    """Everything about one game, secrets included (views decide what a person sees)."""

    __slots__ = (
        "acted",
        "b_cost",
        "b_kind",
        "b_target",
        "chooser",
        "discard",
        "end_reasons",
        "face_up",
        "game_name",
        "gm_cards",
        "governor",
        "lib_used",
        "library",
        "n",
        "options",
        "pending",
        "phase",
        "picks",
        "pile",
        "players",
        "revealed",
        "reveals",
        "rng",
        "role",
        "round",
        "step",
        "taken",
        "tiles",
        "turn",
        "turns",
        "variant",
        "waiting",
    )

    def __init__(self) -> None:
        self.game_name = "san-juan"
        self.options: dict[str, Any] = {}
        self.n = 0
        self.variant = False
        self.rng = 0
        self.round = 1
        self.governor = 0
        self.phase = ROLE
        self.step = STEP_MAIN
        self.turn = 0  # the seat deciding in a one-at-a-time phase (role, builder, prospector)
        self.turns = 0  # seats that have had their turn in this phase
        self.chooser = -1
        self.role = -1
        self.library = False  # the chooser doubles the current role's privilege
        self.picks = 0  # roles chosen this round
        self.taken = [-1] * 5  # who took each role this round
        self.lib_used = 0  # bit per seat: used the Library this round (2 players: once, §5.17)
        self.pending: list[bool] = []  # seats still to decide in a simultaneous step
        self.acted = 0  # bit per seat: decided something in the current phase
        self.waiting = 0  # bit per seat: chose the Councillor's draw, not dealt yet (§4.4)
        self.pile: list[int] = []  # draw pile, top = last
        self.discard: list[int] = []
        self.tiles: list[int] = []  # face-down trading-house tiles, top first
        self.face_up = 0  # the face-up tile during a trader phase (0: none)
        self.revealed: list[int] = []  # tiles revealed so far, in the order first revealed
        self.gm_cards: list[int] = []  # the Gold mine's face-up cards (owner: ``turn``)
        self.b_kind = -1  # builder: the card being paid for by ``turn``
        self.b_target = -1  # ... built over this stack (-1: a new place)
        self.b_cost = 0  # ... its cost after every reduction
        self.reveals = 0  # cards drawn or turned and tiles turned so far (see Game.reveals)
        self.end_reasons: list[str] = []
        self.players: list[Player] = []

    def clone(self) -> State:
        s = State.__new__(State)
        s.game_name = self.game_name
        s.options = self.options  # never mutated after setup
        s.n = self.n
        s.variant = self.variant
        s.rng = self.rng
        s.round = self.round
        s.governor = self.governor
        s.phase = self.phase
        s.step = self.step
        s.turn = self.turn
        s.turns = self.turns
        s.chooser = self.chooser
        s.role = self.role
        s.library = self.library
        s.picks = self.picks
        s.taken = self.taken[:]
        s.lib_used = self.lib_used
        s.pending = self.pending[:]
        s.acted = self.acted
        s.waiting = self.waiting
        s.pile = self.pile[:]
        s.discard = self.discard[:]
        s.tiles = self.tiles[:]
        s.face_up = self.face_up
        s.revealed = self.revealed[:]
        s.gm_cards = self.gm_cards[:]
        s.b_kind = self.b_kind
        s.b_target = self.b_target
        s.b_cost = self.b_cost
        s.reveals = self.reveals
        s.end_reasons = self.end_reasons[:]
        s.players = [p.clone() for p in self.players]
        return s

    @property
    def over(self) -> bool:
        return self.phase == OVER
