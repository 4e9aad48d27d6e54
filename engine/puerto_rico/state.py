"""The mutable game state of Puerto Rico (its save format: ``save``).

The rules mutate a private copy (``State.clone``); ``apply`` never touches its input.  Everything is
plain ints and lists so that cloning is cheap.  Island tiles of one kind are interchangeable, so an
island is kept as counts per tile kind (``tiles``) with the occupied count per kind (``workers``).
A city is ``bw`` (colonists per building index of the catalog, -1 when not owned) plus ``city``,
the building indices in the order they were built.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:  # the ruleset module imports this one
    from .ruleset import Ruleset

# Exp. 4 Festival board (``State.festival``): the plantation kind, the building, the 3 barrels
FEST_TILE: Final = 0
FEST_BUILDING: Final = 1
FEST_GOODS: Final = slice(2, 5)
# the three goals, indices of ``State.festival_won``
FEST_PLANTATION_GOAL, FEST_PRODUCTION_GOAL, FEST_CONSTRUCTION_GOAL = range(3)
FESTIVAL_GOALS: Final = ("plantation", "production", "construction")

# Exp. 1: ``State.draft_left`` has one entry per printed cost 0-10
DRAFT_COSTS: Final = 11

# phases
ROLE_SELECTION: Final = 0
SETTLER_PHASE: Final = 1
MAYOR_PHASE: Final = 2
BUILDER_PHASE: Final = 3
CRAFTSMAN_PHASE: Final = 4
TRADER_PHASE: Final = 5
CAPTAIN_PHASE: Final = 6
BUCCANEER_PHASE: Final = 7  # Exp. 3
DRAFT_PHASE: Final = 8  # Exp. 1: the violet buildings are drafted before the first round
GAME_OVER: Final = 9
PROSPECTOR_PHASE: Final = 10  # only while an Exp. 1 interlude holds the Prospector's privilege
# 1897 Exp. VI (X6-2): the Achievement cards drafted before play (its owner:
# engine/puerto_rico_1897/achievements.py; numbered here, with the kernel's phases)
ACHIEVEMENT_DRAFT_PHASE: Final = 11
PHASE_NAMES: Final = {
    ROLE_SELECTION: "role_selection",
    SETTLER_PHASE: "settler",
    MAYOR_PHASE: "mayor",
    BUILDER_PHASE: "builder",
    CRAFTSMAN_PHASE: "craftsman",
    TRADER_PHASE: "trader",
    CAPTAIN_PHASE: "captain",
    BUCCANEER_PHASE: "buccaneer",
    DRAFT_PHASE: "draft",
    PROSPECTOR_PHASE: "prospector",
    ACHIEVEMENT_DRAFT_PHASE: "achievement_draft",
    GAME_OVER: "game_over",
}

# steps inside a phase
STEP_TURN: Final = 0  # the seat in ``turn`` takes its turn of the phase
STEP_PRIVILEGE: Final = 1  # the chooser decides on a privilege (Mayor colonist, Craftsman barrel)
STEP_ARRANGE: Final = 2  # Mayor: seats flagged in ``pending`` arrange their colonists
STEP_KEEP: Final = 3  # Captain: seats flagged in ``pending`` choose the barrels they keep
STEP_RAID: Final = 4  # Exp. 3 Buccaneer: the chooser places the colonists kept by a Raid
STEP_INTERLUDE: Final = 5  # Exp. 1: seats flagged in ``pending`` move Guest House guests

# a bit of ``State.flags`` kept for the whole phase: the Settler took a quarry this phase (Exp. 1
# Library's second pick, ruling A45)
F_CHOOSER_QUARRY: Final = 4
# the interlude in progress is the Captain's, before the storage (Exp. 1 Guest House)
F_INTERLUDE_STORAGE: Final = 16

# Exp. 3 (``State.buccaneer``): the seat holding the token (-1: on the card), the captured role
# card (-1: none this round), the seat that captured it, colonists of a Raid still to place
BUC_TOKEN, BUC_CAPTURED, BUC_CAPTOR, BUC_RAID = range(4)

# Exp. 2 (``State.nobles``, empty without the module): nobles in the supply, on the colonist ship
# (``colonist_ship`` counts the colonists only), among the pieces of an Exp. 3 Raid still to
# place (``BUC_RAID`` counts every piece), and the Hunting Lodge owners handled so far at the end
# of a Settler phase (0 outside it)
NOB_SUPPLY, NOB_SHIP, NOB_RAID, NOB_LODGE = range(4)


class Player:
    __slots__ = (
        "bw",
        "city",
        "doubloons",
        "forests",
        "goods",
        "nobles",
        "san_juan",
        "tiles",
        "vp",
        "workers",
    )

    # the defaults serve ``clone``: compiled by mypyc (``engine.native``), ``Player.__new__``
    # runs ``__init__`` too, without arguments
    def __init__(self, ngoods: int = 0, ntiles: int = 0, nbuildings: int = 0) -> None:
        self.doubloons = 0
        self.vp = 0  # VP chips, including VP recorded on paper after the chips ran out
        self.goods = [0] * ngoods
        self.tiles = [0] * ntiles
        self.workers = [0] * ntiles
        self.bw = [-1] * nbuildings
        self.city: list[int] = []
        self.san_juan = 0
        # Exp. 1 Forest House: forests on the island, by the kind of the face-down plantation
        # (it returns to that stack's discards when removed); they fill island spaces
        self.forests = [0] * ngoods
        # Exp. 2 (empty without the module): the nobles among the pieces of each place, indexed
        # by tile kind, then ntiles + building index, then San Juan last.  ``workers``, ``bw``
        # and ``san_juan`` keep counting every piece (colonists and nobles) on a place, so that
        # every "occupied" test of the rules holds for nobles as it does for colonists.
        self.nobles: list[int] = []

    def clone(self) -> Player:
        p = Player.__new__(Player)
        p.doubloons = self.doubloons
        p.vp = self.vp
        p.goods = self.goods[:]
        p.tiles = self.tiles[:]
        p.workers = self.workers[:]
        p.bw = self.bw[:]
        p.city = self.city[:]
        p.san_juan = self.san_juan
        p.forests = self.forests[:]
        p.nobles = self.nobles[:]
        return p

    def island(self) -> int:
        """Filled island spaces: plantations, quarries and (Exp. 1) forests."""
        return sum(self.tiles) + sum(self.forests)

    def colonists(self) -> int:
        """Every colonist the player owns: on tiles, on buildings and in San Juan (with Exp. 2,
        his nobles too: they are used like colonists, A19)."""
        # (``bw`` counts the pieces of the city's buildings, -1 for a building not his)
        return sum(self.workers) + sum(map(self.bw.__getitem__, self.city)) + self.san_juan


# the type of ``State.activity_open``: 1897 Exp. V's open cards, by task and in card order
OpenActivities = tuple[dict[str, tuple[int, ...]], tuple[tuple[int, str], ...]]


class State:
    """Everything about one game.  ``offers`` holds optional follow-ups a building grants (e.g.
    the Hospice colonist) as ``[seat, name, arg]``; they are decided before play goes on."""

    __slots__ = (
        "achievement_mark",
        "achievement_open",
        "achievement_owner",
        "achievement_status",
        "achievement_tally",
        "activities",
        "activity_loads",
        "activity_open",
        "anytime_listed",
        "bank",
        "buccaneer",
        "card",
        "card_doubloons",
        "card_taken",
        "cards",
        "chooser",
        "chooser_crates",
        "colonist_ship",
        "colonist_supply",
        "colonists_out",
        "deck",
        "discard",
        "draft_left",
        "drafted",
        "end_reasons",
        "face_up",
        "festival",
        "festival_won",
        "flags",
        "game_name",
        "goods",
        "governor",
        "house",
        "legal_memo",
        "market",
        "n",
        "no_load",
        "nobles",
        "offers",
        "options",
        "pending",
        "phase",
        "picks",
        "players",
        "produced",
        "puertoma",
        "quarries",
        "rng",
        "round",
        "rs",
        "ship_cap",
        "ship_kind",
        "ship_load",
        "step",
        "turn",
        "turns_taken",
        "vp_supply",
        "wharf_cargo",
        "wharf_used",
    )

    # the compiled Ruleset for these options (derived, never dumped), set by the setup and by
    # ``load``: typed, so that the rules compiled by mypyc (``engine.native``) read it directly
    rs: Ruleset

    def __init__(self) -> None:
        self.game_name = "puerto-rico"
        self.options: dict[str, Any] = {}
        self.n = 0
        self.rng = 0
        self.round = 1
        self.governor = 0
        self.picks = 0  # role picks made this round
        self.phase = ROLE_SELECTION
        self.step = STEP_TURN
        self.turn = 0
        self.chooser = -1
        self.card = -1  # index of the role card being resolved
        self.turns_taken = 0  # seats that had their turn in this phase
        self.cards: list[int] = []
        self.card_doubloons: list[int] = []
        self.card_taken: list[int] = []
        self.colonist_supply = 0
        self.colonist_ship = 0
        self.vp_supply = 0  # may go below 0: VP recorded on paper (§7.1 E3)
        self.bank = 0  # may go below 0: the bank is unlimited (ruling A2)
        self.deck: list[int] = []  # face-down plantations by kind (the order is drawn at random)
        self.discard: list[int] = []
        self.face_up: list[int] = []
        self.quarries = 0
        self.market: list[int] = []  # copies left per building index
        self.goods: list[int] = []  # goods supply by kind
        self.house: list[int] = []  # trading house, kinds in the order sold
        self.ship_cap: list[int] = []
        self.ship_kind: list[int] = []  # -1 when empty
        self.ship_load: list[int] = []
        self.players: list[Player] = []
        self.pending: list[bool] = []
        self.offers: list[list[int | str]] = []
        self.no_load = 0  # consecutive Captain turns without a load
        self.flags = 0  # per-phase scratch bits (see rules.F_*)
        self.wharf_used = 0  # bit per seat
        self.produced = 0  # bit per kind the Craftsman received this phase
        self.end_reasons: list[str] = []
        # Exp. 4 (empty without the module): the goals on the Festival board, FEST_* indices,
        # and by goal (FEST_PLANTATION_GOAL...) the seat that achieved it, -1 while open
        self.festival: list[int] = []
        self.festival_won: list[int] = []
        self.buccaneer: list[int] = []  # Exp. 3, BUC_* indices (empty without the module)
        # Exp. 1 (empty without the module): the board's empty violet spaces by printed cost
        # (index 0-10) and the buildings drafted onto it, in the order they were placed
        self.draft_left: list[int] = []
        self.drafted: list[int] = []
        self.nobles: list[int] = []  # Exp. 2, NOB_* indices (empty without the module)
        # 1897 (B-18, D-12; empty in the classic editions): the barrels on the Wharves' private
        # ships by good, back in the supply at the end of the Captain phase
        self.wharf_cargo: list[int] = []
        # 1897 (X3-C, A-19): the colonists a Raid discarded, out of the game
        self.colonists_out = 0
        # 1897 (B-34): the Craftsman's crates this Craftsman phase, privilege included
        self.chooser_crates: list[int] = []
        # The fields below marked with an owner belong to 1897's own modules and seats
        # (engine/puerto_rico_1897/: their layout, rules and save there); they are held here
        # so that ``clone`` copies them with the rest, and the kernel reads none of them.
        # Owner festival_activities.py (Exp. V; empty without the module): the three Festival
        # Activity cards (ACT_* records), and the crates each seat loaded this Captain phase by
        # good (seat * NGOODS + good; all 0 outside it: Festival Goods Delivery)
        self.activities: list[int] = []
        self.puertoma: list[int] = []  # owner puertoma.py (§8): the action board and boards
        self.activity_loads: list[int] = []
        # owner festival_activities.py, a cache (never dumped): the cards not completed yet, by
        # task, and as (index, task) in card order; None: to be listed (``open_cards``)
        self.activity_open: OpenActivities | None = None
        # owner achievements.py (Exp. VI), caches (never dumped) of its position checks: the
        # held cards whose objective is a state of a board, not met yet, by seat, all together,
        # and by seat those about workers (empty: to be listed), and where play stood at the
        # last check (phase, step, role picks, round, offers; (): every board to be checked)
        self.achievement_open: tuple[Any, ...] = ()
        self.achievement_mark: tuple[int, ...] = ()
        # a cache (never dumped) of the hook point ``anytime``: by seat, the actions he may take
        # at any moment; () when no seat has one; None: to be listed again (a module clears it
        # whenever what its handlers return may have changed: ``buildings.anytime_changed``)
        self.anytime_listed: tuple[tuple[Any, ...], ...] | None = None
        # a cache (never dumped, never cloned) for the simulation path (``legality.legal_fast``):
        # (seat, his legal actions) of the decision waiting, or None; every ``apply_unchecked``
        # clears it before changing anything, and sets it again when it computed that list
        self.legal_memo: tuple[int, list[Any]] | None = None
        # owner achievements.py (empty without the module): by card, its holder and status
        # (ACH_*), and by seat the VP gained and (seat + n) the goods loaded (a bit per good)
        # in the Captain phase in progress (all 0 outside it: Trade Strategist, Dock Tycoon)
        self.achievement_owner: list[int] = []
        self.achievement_status: list[int] = []
        self.achievement_tally: list[int] = []

    def clone(self) -> State:
        s = State.__new__(State)
        s.game_name = self.game_name
        s.options = self.options  # never mutated after setup
        s.rs = self.rs
        s.n = self.n
        s.rng = self.rng
        s.round = self.round
        s.governor = self.governor
        s.picks = self.picks
        s.phase = self.phase
        s.step = self.step
        s.turn = self.turn
        s.chooser = self.chooser
        s.card = self.card
        s.turns_taken = self.turns_taken
        s.cards = self.cards  # never mutated after setup
        s.card_doubloons = self.card_doubloons[:]
        s.card_taken = self.card_taken[:]
        s.colonist_supply = self.colonist_supply
        s.colonist_ship = self.colonist_ship
        s.vp_supply = self.vp_supply
        s.bank = self.bank
        s.deck = self.deck[:]
        s.discard = self.discard[:]
        s.face_up = self.face_up[:]
        s.quarries = self.quarries
        s.market = self.market[:]
        s.goods = self.goods[:]
        s.house = self.house[:]
        s.ship_cap = self.ship_cap  # never mutated after setup
        s.ship_kind = self.ship_kind[:]
        s.ship_load = self.ship_load[:]
        s.players = [p.clone() for p in self.players]
        s.pending = self.pending[:]
        s.offers = [o[:] for o in self.offers]
        s.no_load = self.no_load
        s.flags = self.flags
        s.wharf_used = self.wharf_used
        s.produced = self.produced
        s.end_reasons = self.end_reasons[:]
        s.festival = self.festival[:]  # the construction goal is drawn after an Exp. 1 draft
        s.festival_won = self.festival_won[:]
        s.buccaneer = self.buccaneer[:]
        s.draft_left = self.draft_left[:]
        s.drafted = self.drafted[:]
        s.nobles = self.nobles[:]
        s.wharf_cargo = self.wharf_cargo[:]
        s.colonists_out = self.colonists_out
        s.chooser_crates = self.chooser_crates[:]
        s.activities = self.activities[:]
        s.puertoma = self.puertoma[:]
        s.activity_loads = self.activity_loads[:]
        s.activity_open = self.activity_open  # never changed in place
        s.achievement_open = self.achievement_open  # rebuilt, never changed in place
        s.achievement_mark = self.achievement_mark
        s.anytime_listed = self.anytime_listed  # the same: tuples
        s.legal_memo = None
        s.achievement_owner = self.achievement_owner[:]
        s.achievement_status = self.achievement_status[:]
        s.achievement_tally = self.achievement_tally[:]
        return s

    @property
    def over(self) -> bool:
        return self.phase == GAME_OVER
