"""The mutable game state of Puerto Rico and its versioned JSON form.

The rules mutate a private copy (``State.clone``); ``apply`` never touches its input.  Everything is
plain ints and lists so that cloning is cheap.  Island tiles of one kind are interchangeable, so an
island is kept as counts per tile kind (``tiles``) with the occupied count per kind (``workers``).
A city is ``bw`` (colonists per building index of the catalog, -1 when not owned) plus ``city``,
the building indices in the order they were built.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Final

from ..core import CorruptState
from ..fields import bool_list, int_field, int_list, mapping_field, str_list

if TYPE_CHECKING:  # the ruleset module imports this one
    from .ruleset import Ruleset

DUMP_VERSION: Final = 1

# Exp. 4 Festival board (``State.festival``): the plantation kind, the building, the 3 barrels
FEST_TILE: Final = 0
FEST_BUILDING: Final = 1
FEST_GOODS: Final = slice(2, 5)
# the three goals, indices of ``State.festival_won``
FEST_PLANTATION_GOAL, FEST_PRODUCTION_GOAL, FEST_CONSTRUCTION_GOAL = range(3)
FESTIVAL_GOALS: Final = ("plantation", "production", "construction")

# 1897 Exp. V, the Festival Activities (``State.activities``): three cards, each a record of
# ACT_SIZE ints: the card (``festival_activities.ACTIVITIES`` index), the seat that completed it
# (-1 while open), its property slots (tile kinds), its crate slots (goods), its building (-1:
# none, or not drawn yet during an Exp. 1 draft) and whether that building's tile is on the card
# (1: off the tray until the card is completed; 0: the card only names the type, A-17); unused
# slots hold -1
ACT_CARD, ACT_WON = 0, 1
ACT_TILES: Final = slice(2, 4)
ACT_GOODS: Final = slice(4, 7)
ACT_BUILDING, ACT_HELD = 7, 8
ACT_SIZE: Final = 9
ACTIVITY_CARDS: Final = 3  # X5-1

# 1897 Exp. VI, the Achievements (``State.achievement_owner`` / ``achievement_status``, one entry
# per card of ``achievements.CARDS``): the seat holding the card (-1: in the deck, never dealt)
# and its status: kept with its objective not met yet, met (hidden), announced (X6-3: face up,
# its VP hidden until the end), or (X6-2's draft) in the hand its holder picks from
ACH_HELD, ACH_MET, ACH_ANNOUNCED, ACH_PICK = range(4)
ACHIEVEMENT_CARDS: Final = 30  # Appendix D.1
ACHIEVEMENTS_DEALT: Final = 4  # X6-1, X6-2: four cards each

# 1897 §8, the Puertomas (``State.puertoma``, laid out in ``puertoma.py``): the action board's
# ints, then each Puertoma's board
PUERTOMA_HEADER, PUERTOMA_BOARD = 10, 36

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
# 1897 Exp. VI (X6-2): the Achievement cards drafted before play
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
        return sum(self.workers) + sum(c for c in self.bw if c > 0) + self.san_juan

    def to_json(self) -> dict[str, Any]:
        out = {
            "doubloons": self.doubloons,
            "vp": self.vp,
            "goods": self.goods,
            "tiles": self.tiles,
            "workers": self.workers,
            "city": [[b, self.bw[b]] for b in self.city],
            "san_juan": self.san_juan,
        }
        if any(self.forests):  # Exp. 1; absent otherwise, so older dumps stay as they were
            out["forests"] = self.forests
        if self.nobles:  # Exp. 2, only with the module
            ntiles = len(self.tiles)
            out["nobles"] = {
                "tiles": self.nobles[:ntiles],
                "city": [[b, n] for b in self.city if (n := self.nobles[ntiles + b])],
                "san_juan": self.nobles[-1],
            }
        return out


# 1897 Exp. V: the Festival Activity cards not completed yet, by task and in card order
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
        # 1897 Exp. V (empty without the module): the three Festival Activity cards, ACT_*
        # records, and the crates each seat loaded this Captain phase by good (seat * NGOODS +
        # good; all 0 outside it: Festival Goods Delivery)
        self.activities: list[int] = []
        self.puertoma: list[int] = []  # 1897 §8: the action board and the Puertomas' boards
        self.activity_loads: list[int] = []
        # 1897 Exp. V, a cache (never dumped): the Festival Activity cards not completed yet, by
        # task, and as (index, task) in card order; None: to be listed
        # (``festival_activities.open_cards``)
        self.activity_open: OpenActivities | None = None
        # 1897 Exp. VI, caches (never dumped) of the Achievements' position checks
        # (``achievements._positions``): the held cards whose objective is a state of a board,
        # not met yet, by seat, all together, and by seat those about workers (empty: to be
        # listed), and where play stood at the last check (phase, step, role picks, round,
        # offers; (): every board to be checked)
        self.achievement_open: tuple[Any, ...] = ()
        self.achievement_mark: tuple[int, ...] = ()
        # a cache (never dumped) of the hook point ``anytime``: by seat, the actions he may take
        # at any moment; () when no seat has one; None: to be listed again (a module clears it
        # whenever what its handlers return may have changed: ``buildings.anytime_changed``)
        self.anytime_listed: tuple[tuple[Any, ...], ...] | None = None
        # 1897 Exp. VI (empty without the module): by card, its holder and status (ACH_*), and
        # by seat the VP gained and (seat + n) the goods loaded (a bit per good) in the Captain
        # phase in progress (all 0 outside it: Trade Strategist, Dock Tycoon)
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
        s.achievement_owner = self.achievement_owner[:]
        s.achievement_status = self.achievement_status[:]
        s.achievement_tally = self.achievement_tally[:]
        return s

    @property
    def over(self) -> bool:
        return self.phase == GAME_OVER


# ----------------------------------------------------------------------------------------------
# JSON
# ----------------------------------------------------------------------------------------------

_SCALARS: Final = (
    "n",
    "rng",
    "round",
    "governor",
    "picks",
    "phase",
    "step",
    "turn",
    "chooser",
    "card",
    "turns_taken",
    "colonist_supply",
    "colonist_ship",
    "vp_supply",
    "bank",
    "quarries",
    "no_load",
    "flags",
    "wharf_used",
    "produced",
)
_INT_LISTS: Final = (
    "cards",
    "card_doubloons",
    "card_taken",
    "deck",
    "discard",
    "face_up",
    "market",
    "goods",
    "house",
    "ship_cap",
    "ship_kind",
    "ship_load",
)


def dump_state(s: State, nbase: int) -> dict[str, Any]:
    """The whole state, secrets included, as JSON-safe data (for storage, never for players).
    ``nbase`` is the number of base-game buildings at the head of the catalog (see
    :func:`stored_market`)."""
    out: dict[str, Any] = {
        "format": DUMP_VERSION,
        "game": s.game_name,
        "options": stored_options(s.options),
        "players": [p.to_json() for p in s.players],
        "pending": s.pending,
        "offers": s.offers,
        "end_reasons": s.end_reasons,
    }
    for name in _SCALARS:
        out[name] = getattr(s, name)
    for name in _INT_LISTS:
        out[name] = getattr(s, name)
    out["market"] = stored_market(s.market, nbase)
    if s.festival:  # module fields only when the module is in play: older dumps stay as they were
        out["festival"] = s.festival
        out["festival_won"] = s.festival_won
    if s.buccaneer:
        out["buccaneer"] = s.buccaneer
    if s.draft_left:
        out["draft_left"] = s.draft_left
        out["drafted"] = s.drafted
    if s.nobles:
        out["nobles"] = s.nobles
    if s.wharf_cargo:
        out["wharf_cargo"] = s.wharf_cargo
    if s.colonists_out:
        out["colonists_out"] = s.colonists_out
    if s.chooser_crates:
        out["chooser_crates"] = s.chooser_crates
    if s.puertoma:  # 1897 §8 (only with Puertomas)
        out["puertoma"] = s.puertoma
    if s.activities:  # 1897 Exp. V
        out["festival_activities"] = s.activities
        out["activity_loads"] = s.activity_loads
    if s.achievement_owner:  # 1897 Exp. VI
        out["achievement_owner"] = s.achievement_owner
        out["achievement_status"] = s.achievement_status
        out["achievement_tally"] = s.achievement_tally
    return out


def stored_options(options: Mapping[str, Any]) -> dict[str, Any]:
    """Normalized options as a dump stores them.  Games without modules keep the form they had
    before issue #11 (``"expansions": []``, no ``modules``), so that their dumps, snapshots and
    golden hashes stay byte for byte what they were; ``normalize_options`` reads both forms."""
    if options.get("modules"):
        return dict(options)
    return {("expansions" if k == "modules" else k): v for k, v in options.items()}


def stored_market(market: list[int], nbase: int) -> list[int]:
    """The market as a dump stores it: without the expansions' entries while they are all 0, so
    that the dumps of games without them stay byte for byte what they were before the catalog
    grew (``load_state`` pads them back)."""
    if any(market[nbase:]):
        return market
    return market[:nbase]


def load_state(
    data: Mapping[str, Any], ngoods: int, ntiles: int, nbuildings: int, nbase: int
) -> State:
    """Inverse of :func:`dump_state`.  Raises :class:`CorruptState` on any malformed field."""
    if not isinstance(data, Mapping):
        raise CorruptState("not_an_object")
    try:
        if data.get("format") != DUMP_VERSION:
            raise CorruptState("unsupported_format", format=data.get("format"))
        s = State()
        s.game_name = str(data["game"])
        s.options = mapping_field(data, "options")
        for name in _SCALARS:
            setattr(s, name, int_field(data, name))
        for name in _INT_LISTS:
            setattr(s, name, int_list(data, name))
        for group in (
            ("cards", "card_doubloons", "card_taken"),
            ("ship_cap", "ship_kind", "ship_load"),
        ):
            if len({len(getattr(s, name)) for name in group}) != 1:
                raise CorruptState("bad_length", field=group[0])
        if len(s.market) == nbase:
            s.market += [0] * (nbuildings - nbase)
        if len(s.market) != nbuildings:
            raise CorruptState("bad_length", field="market")
        for name in ("deck", "discard", "goods"):
            if len(getattr(s, name)) != ngoods:
                raise CorruptState("bad_length", field=name)
        players = data["players"]
        if not isinstance(players, list) or len(players) != s.n:
            raise CorruptState("bad_field", field="players")
        for raw in players:
            if not isinstance(raw, Mapping):
                raise CorruptState("bad_field", field="players")
            p = Player(ngoods, ntiles, nbuildings)
            p.doubloons = int_field(raw, "doubloons")
            p.vp = int_field(raw, "vp")
            p.goods = int_list(raw, "goods", ngoods)
            p.tiles = int_list(raw, "tiles", ntiles)
            p.workers = int_list(raw, "workers", ntiles)
            p.san_juan = int_field(raw, "san_juan")
            if "forests" in raw:
                p.forests = int_list(raw, "forests", ngoods)
            nobles_raw = raw.get("nobles")
            city = raw["city"]
            if not isinstance(city, list):
                raise CorruptState("bad_field", field="city")
            for entry in city:
                if (
                    not isinstance(entry, list)
                    or len(entry) != 2
                    or any(type(v) is not int for v in entry)
                    or not 0 <= entry[0] < nbuildings
                    or entry[1] < 0
                    or p.bw[entry[0]] != -1
                ):
                    raise CorruptState("bad_field", field="city")
                p.bw[entry[0]] = entry[1]
                p.city.append(entry[0])
            if nobles_raw is not None:
                p.nobles = _load_nobles(nobles_raw, p, ntiles, nbuildings)
            s.players.append(p)
        s.pending = bool_list(data, "pending")
        if len(s.pending) != s.n:
            raise CorruptState("bad_field", field="pending")
        offers = data["offers"]
        if not isinstance(offers, list) or any(
            not isinstance(o, list)
            or len(o) != 3
            or type(o[0]) is not int
            or not isinstance(o[1], str)
            or type(o[2]) is not int
            for o in offers
        ):
            raise CorruptState("bad_field", field="offers")
        s.offers = [list(o) for o in offers]
        s.end_reasons = str_list(data, "end_reasons")
        if "festival" in data:
            s.festival = int_list(data, "festival", 5)
            s.festival_won = int_list(data, "festival_won", 3)
        if "buccaneer" in data:
            s.buccaneer = int_list(data, "buccaneer", 4)
        if "draft_left" in data:
            s.draft_left = int_list(data, "draft_left", DRAFT_COSTS)
            s.drafted = int_list(data, "drafted")
            if any(not 0 <= b < nbuildings for b in s.drafted):
                raise CorruptState("bad_field", field="drafted")
        if "nobles" in data:
            s.nobles = int_list(data, "nobles", 4)
        if "wharf_cargo" in data:
            s.wharf_cargo = int_list(data, "wharf_cargo", ngoods)
        if "colonists_out" in data:
            s.colonists_out = int_field(data, "colonists_out")
        if "chooser_crates" in data:
            s.chooser_crates = int_list(data, "chooser_crates", ngoods)
        if "puertoma" in data:
            s.puertoma = int_list(
                data, "puertoma",
                PUERTOMA_HEADER + PUERTOMA_BOARD * int(s.options.get("puertomas", 0)))
        if "festival_activities" in data:
            s.activities = int_list(data, "festival_activities", ACTIVITY_CARDS * ACT_SIZE)
            s.activity_loads = int_list(data, "activity_loads", s.n * ngoods)
        if "achievement_owner" in data:
            s.achievement_owner = int_list(data, "achievement_owner", ACHIEVEMENT_CARDS)
            s.achievement_status = int_list(data, "achievement_status", ACHIEVEMENT_CARDS)
            s.achievement_tally = int_list(data, "achievement_tally", 2 * s.n)
    except KeyError as exc:
        raise CorruptState("missing_field", field=str(exc.args[0])) from None
    return s


def _load_nobles(raw: Any, p: Player, ntiles: int, nbuildings: int) -> list[int]:
    """A player's Exp. 2 nobles (the inverse of the ``nobles`` key of ``Player.to_json``); the
    invariants check them against his pieces."""
    if not isinstance(raw, Mapping):
        raise CorruptState("bad_field", field="nobles")
    nobles = [0] * (ntiles + nbuildings + 1)
    nobles[:ntiles] = int_list(raw, "tiles", ntiles)
    nobles[-1] = int_field(raw, "san_juan")
    city = raw["city"]
    if not isinstance(city, list):
        raise CorruptState("bad_field", field="nobles")
    for entry in city:
        if (
            not isinstance(entry, list)
            or len(entry) != 2
            or any(type(v) is not int for v in entry)
            or not 0 <= entry[0] < nbuildings
            or p.bw[entry[0]] < 0  # a building of his city
            or entry[1] <= 0
            or nobles[ntiles + entry[0]]  # once
        ):
            raise CorruptState("bad_field", field="nobles")
        nobles[ntiles + entry[0]] = entry[1]
    return nobles
