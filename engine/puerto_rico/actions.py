"""Puerto Rico actions and their canonical text codes.

Every action is a small immutable value whose ``code`` is its canonical text; two actions are equal
exactly when their codes are.  Codes are short (the longest is under 40 characters), use only
``[a-z0-9._]`` and round-trip: ``decode(a.code) == a``.

=====================  =================================================================
code                   meaning
=====================  =================================================================
``r.<card>``           choose a role card: settler, mayor, builder, craftsman, trader,
                       captain, prospector, prospector2 (the second Prospector card)
``s.<tile>``           Settler: take a face-up plantation (corn, indigo, sugar, tobacco,
                       coffee) or ``s.quarry``
``s.hacienda``         Settler: draw the extra face-down plantation of the Hacienda
``o.<offer>``          accept an optional follow-up: ``o.hospice``, ``o.university``
``m.privilege``        Mayor: take the privilege colonist from the supply
``m.auto``             Mayor: arrange all own colonists as suggested, in one action
``m.<slot>``           Mayor: put one colonist from San Juan on a plantation kind,
                       ``m.quarry`` or a building (``m.small_market``)
``b.<building>``       Builder: build (``b.harbor``)
``c.<good>``           Craftsman: take the privilege barrel of that good
``t.<good>``           Trader: sell one barrel of that good
``ship.<good>.<i>``    Captain: load that good on cargo ship ``i`` (0-based, as in the view)
``wharf.<good>``       Captain: ship every barrel of that good with the Wharf
``keep.<good><n>...``  Captain: barrels kept after loading, e.g. ``keep.indigo1.tobacco4``;
                       ``keep.none`` keeps nothing
``bu.piracy.<i>.<n>``  Exp. 3 Buccaneer: empty cargo ship ``i``, keeping ``n`` (0-3) barrels
``bu.plunder``         Exp. 3 Buccaneer: empty the trading house, 1 VP per barrel
``bu.raid``            Exp. 3 Buccaneer: reduce the colonist ship to N colonists
``bu.capture.<card>``  Exp. 3 Buccaneer: capture an unused role card (``bu.capture.mayor``)
``raid.<slot>``        Exp. 3 Raid: place one kept colonist (``raid.corn``, ``raid.harbor``)
``n.noble``            Exp. 2 Mayor: take the noble from the ship (``n.colonist``: a colonist)
``mn.<slot>``          Exp. 2 Mayor: put one noble from San Juan there (``mn.chapel``)
``lo.buy``             Exp. 2 Land Office (colonist): buy the top face-down plantation for 1
``lo.sell.<tile>``     Exp. 2 Land Office (noble): sell a plantation (or ``lo.sell.forest``)
``hl.<tile>``          Exp. 2 Hunting Lodge (colonist): discard a plantation (or ``hl.forest``)
``rs.<good>...``       Exp. 2 Royal Supplier: trade one barrel of each kind named for 1 VP each
                       (``rs.corn.sugar``; kinds in table order)
``fw.<slot>``          1897 Festival: place a reward worker at once (``fw.corn``, ``fw.harbor``)
``ach.<card>``         1897 Exp. VI: announce a met Achievement card (``ach.deal_closer``), at
                       any moment, prompted or not
``ad.<card>``          1897 Exp. VI draft: keep that card of the hand one picks from
``pass``               decline: take no tile, build nothing, sell nothing, refuse an offer
                       or a privilege, take no more from the Wharf
=====================  =================================================================
"""

from __future__ import annotations

from typing import Final

from ..core import InvalidAction
from .data import (
    BASE_BUILDINGS,
    GOOD_INDEX,
    GOODS,
    NEW_BUILDINGS,
    NGOODS,
    NOBLES_BUILDINGS,
    NTILES,
    TILES,
)

# action kinds
ROLE: Final = 0
SETTLE: Final = 1
HACIENDA: Final = 2
OFFER: Final = 3
PASS: Final = 4
PRIVILEGE: Final = 5
AUTO: Final = 6
PLACE: Final = 7
BUILD: Final = 8
CRAFT: Final = 9
SELL: Final = 10
SHIP: Final = 11
WHARF: Final = 12
KEEP: Final = 13
# Exp. 3 Buccaneer (§12): the four options and the Raid's placement
PIRACY: Final = 14
PLUNDER: Final = 15
RAID: Final = 16
CAPTURE: Final = 17
RAID_PLACE: Final = 18
# Exp. 1 New Buildings (§10): the draft, forests, the Trading Post, the Small Wharf, the Black
# Market and the Guest House
DRAFT: Final = 19
FOREST: Final = 20
TRADING_POST: Final = 21
SMALL_WHARF: Final = 22
BLACK_MARKET: Final = 23
GUEST: Final = 24
# Exp. 2 The Nobles (§11): the Mayor's noble-or-colonist take, a noble's placement, the Land
# Office, the Hunting Lodge, the Royal Supplier
NOBLE_TAKE: Final = 25
NOBLE_PLACE: Final = 26
LAND_OFFICE: Final = 27
HUNTING_LODGE: Final = 28
ROYAL_SUPPLIER: Final = 29
# 1897 (its rule option ``production``: full_or_decline, A-28): a player's production taken
PRODUCE: Final = 30
# The kinds of 1897's own modules' actions (numbered here with the others; their actions are
# registered by their owners in engine/puerto_rico_1897/): the Festival's reward worker placed
# at once (X4, ``festival_workers``); an Achievement announced at any moment (X6-3) and one kept
# in the draft (X6-2, ``achievements``)
FESTIVAL_PLACE: Final = 31
ANNOUNCE: Final = 32
ACHIEVEMENT_KEEP: Final = 33

# Role cards are named by role; a second copy of a role (the 5-player Prospector) adds "2".
CARD_CODES: Final = (
    "settler",
    "mayor",
    "builder",
    "craftsman",
    "trader",
    "captain",
    "prospector",
    "buccaneer",  # Exp. 3
)
OFFERS: Final = ("hospice", "university", "forest")
MAX_SHIPS: Final = 5
# Catalog of every building the game knows; indices are stable (expansions append): the base
# game's 23, then Exp. 1's 14, then Exp. 2's 8.
CATALOG: Final = (*BASE_BUILDINGS, *NEW_BUILDINGS, *NOBLES_BUILDINGS)
NBASE_BUILDINGS: Final = len(BASE_BUILDINGS)
BUILDING_INDEX: Final = {b.name: i for i, b in enumerate(CATALOG)}
BUILDING_SLOT: Final = 100  # PLACE arg = BUILDING_SLOT + building index; tile kinds are below it


class Action:
    """One Puerto Rico action.  ``kind`` is one of the constants above; ``a``/``b`` its
    arguments (card index, tile, building index, good, ship); ``keep`` the kept barrels."""

    __slots__ = ("a", "b", "code", "keep", "kind")

    def __init__(
        self, kind: int, code: str, a: int = 0, b: int = 0, keep: tuple[int, ...] = ()
    ) -> None:
        self.kind = kind
        self.code = code
        self.a = a
        self.b = b
        self.keep = keep

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Action) and other.code == self.code

    def __hash__(self) -> int:
        return hash(self.code)

    def __repr__(self) -> str:
        return f"Action({self.code!r})"

    def __reduce__(self) -> tuple[type[Action], tuple[object, ...]]:
        # pickled as a call of the constructor (the bot's worker processes): the one way a class
        # compiled by mypyc (``engine.native``) can be rebuilt
        return Action, (self.kind, self.code, self.a, self.b, self.keep)


_TABLE: Final[dict[str, Action]] = {}


def _add(action: Action) -> Action:
    _TABLE[action.code] = action
    return action


def register(action: Action) -> Action:
    """A module's action with a code of its own, added to the table ``decode`` reads (1897's
    modules register theirs when their package is imported: the Festival's ``fw.<slot>``, one
    ``ach.<card>`` and ``ad.<card>`` per Achievement card)."""
    if action.code in _TABLE:
        raise ValueError(f"action code {action.code} registered twice")
    return _add(action)


PASS_ACTION: Final = _add(Action(PASS, "pass"))
HACIENDA_ACTION: Final = _add(Action(HACIENDA, "s.hacienda"))
PRIVILEGE_ACTION: Final = _add(Action(PRIVILEGE, "m.privilege"))
AUTO_ACTION: Final = _add(Action(AUTO, "m.auto"))
PRODUCE_ACTION: Final = _add(Action(PRODUCE, "produce"))

# ROLE_ACTIONS[role][copy]
ROLE_ACTIONS: Final[list[list[Action]]] = []
for _role, _name in enumerate(CARD_CODES):
    ROLE_ACTIONS.append(
        [_add(Action(ROLE, f"r.{_name}", _role, 0)), _add(Action(ROLE, f"r.{_name}2", _role, 1))]
    )

SETTLE_ACTIONS: Final = [_add(Action(SETTLE, f"s.{t}", i)) for i, t in enumerate(TILES)]
OFFER_ACTIONS: Final = {name: _add(Action(OFFER, f"o.{name}", i)) for i, name in enumerate(OFFERS)}
PLACE_TILE_ACTIONS: Final = [_add(Action(PLACE, f"m.{t}", i)) for i, t in enumerate(TILES)]
PLACE_BUILDING_ACTIONS: Final = [
    _add(Action(PLACE, f"m.{b.name}", BUILDING_SLOT + i)) for i, b in enumerate(CATALOG)
]
BUILD_ACTIONS: Final = [_add(Action(BUILD, f"b.{b.name}", i)) for i, b in enumerate(CATALOG)]
CRAFT_ACTIONS: Final = [_add(Action(CRAFT, f"c.{g}", i)) for i, g in enumerate(GOODS)]
SELL_ACTIONS: Final = [_add(Action(SELL, f"t.{g}", i)) for i, g in enumerate(GOODS)]
SHIP_ACTIONS: Final = [
    [_add(Action(SHIP, f"ship.{g}.{k}", i, k)) for k in range(MAX_SHIPS)]
    for i, g in enumerate(GOODS)
]
WHARF_ACTIONS: Final = [_add(Action(WHARF, f"wharf.{g}", i)) for i, g in enumerate(GOODS)]
# Exp. 3: PIRACY_ACTIONS[ship][kept], CAPTURE_ACTIONS[role][copy], RAID_PLACE_ACTIONS[slot]
PIRACY_KEEP_MAX: Final = 3
PIRACY_ACTIONS: Final = [
    [_add(Action(PIRACY, f"bu.piracy.{k}.{n}", k, n)) for n in range(PIRACY_KEEP_MAX + 1)]
    for k in range(MAX_SHIPS)
]
PLUNDER_ACTION: Final = _add(Action(PLUNDER, "bu.plunder"))
RAID_ACTION: Final = _add(Action(RAID, "bu.raid"))
CAPTURE_ACTIONS: Final = [
    [_add(Action(CAPTURE, f"bu.capture.{a.code[2:]}", a.a, a.b)) for a in copies]
    for copies in ROLE_ACTIONS
]
RAID_PLACE_ACTIONS: Final = {
    **{i: _add(Action(RAID_PLACE, f"raid.{t}", i)) for i, t in enumerate(TILES)},
    **{
        BUILDING_SLOT + i: _add(Action(RAID_PLACE, f"raid.{b.name}", BUILDING_SLOT + i))
        for i, b in enumerate(CATALOG)
    },
}

# Exp. 1: DRAFT_ACTIONS[building], FOREST_ACTIONS[good], TRADING_POST_ACTIONS[good],
# GUEST_ACTIONS[slot]; Small Wharf and Black Market codes are built on demand like ``keep``
DRAFT_ACTIONS: Final = {i: _add(Action(DRAFT, f"d.{b.name}", i)) for i, b in enumerate(CATALOG)}
FOREST_ACTIONS: Final = [_add(Action(FOREST, f"f.{g}", i)) for i, g in enumerate(GOODS)]
TRADING_POST_ACTIONS: Final = [
    _add(Action(TRADING_POST, f"tp.{g}", i)) for i, g in enumerate(GOODS)
]
GUEST_ACTIONS: Final = {
    **{i: _add(Action(GUEST, f"g.{t}", i)) for i, t in enumerate(TILES)},
    **{
        BUILDING_SLOT + i: _add(Action(GUEST, f"g.{b.name}", BUILDING_SLOT + i))
        for i, b in enumerate(CATALOG)
    },
}
SAN_JUAN_SLOT: Final = 99  # a Black Market colonist taken from San Juan

# Exp. 2: NOBLE_TAKE_ACTIONS[noble] (1: the noble, 0: a colonist), NOBLE_PLACE_ACTIONS[slot],
# LAND_OFFICE_SELL[tile] and HUNTING_LODGE_ACTIONS[tile] (tile NTILES: a forest, Exp. 1),
# ROYAL_SUPPLIER_ACTIONS[kinds] (a tuple of 0/1 per good, one barrel of each kind named)
FOREST_CODE_TILE: Final = NTILES
NOBLE_TAKE_ACTIONS: Final = (
    _add(Action(NOBLE_TAKE, "n.colonist", 0)),
    _add(Action(NOBLE_TAKE, "n.noble", 1)),
)
NOBLE_PLACE_ACTIONS: Final = {
    **{i: _add(Action(NOBLE_PLACE, f"mn.{t}", i)) for i, t in enumerate(TILES)},
    **{
        BUILDING_SLOT + i: _add(Action(NOBLE_PLACE, f"mn.{b.name}", BUILDING_SLOT + i))
        for i, b in enumerate(CATALOG)
    },
}
_REMOVABLE: Final = {**dict(enumerate(GOODS)), FOREST_CODE_TILE: "forest"}
LAND_OFFICE_BUY: Final = _add(Action(LAND_OFFICE, "lo.buy", -1, 0))
LAND_OFFICE_SELL: Final = {
    k: _add(Action(LAND_OFFICE, f"lo.sell.{t}", k, 1)) for k, t in _REMOVABLE.items()
}
HUNTING_LODGE_ACTIONS: Final = {
    k: _add(Action(HUNTING_LODGE, f"hl.{t}", k)) for k, t in _REMOVABLE.items()
}
ROYAL_SUPPLIER_ACTIONS: Final[dict[tuple[int, ...], Action]] = {}
for _mask in range(1, 1 << NGOODS):
    _kinds = tuple((_mask >> k) & 1 for k in range(NGOODS))
    ROYAL_SUPPLIER_ACTIONS[_kinds] = _add(
        Action(
            ROYAL_SUPPLIER,
            "rs." + ".".join(GOODS[k] for k in range(NGOODS) if _kinds[k]),
            keep=_kinds,
        )
    )

_KEEP_CACHE: Final[dict[tuple[int, ...], Action]] = {}
_SMALL_WHARF_CACHE: Final[dict[tuple[int, ...], Action]] = {}


def _goods_code(counts: tuple[int, ...]) -> str:
    parts = [f"{GOODS[k]}{n}" for k, n in enumerate(counts) if n]
    return ".".join(parts) if parts else "none"


def small_wharf_action(counts: tuple[int, ...]) -> Action:
    """Exp. 1 Small Wharf: ship ``counts[k]`` barrels of each good ``k`` (``sw.corn2.sugar1``,
    ``sw.none``)."""
    action = _SMALL_WHARF_CACHE.get(counts)
    if action is None:
        action = Action(SMALL_WHARF, "sw." + _goods_code(counts), keep=counts)
        _SMALL_WHARF_CACHE[counts] = action
    return action


def slot_name(slot: int) -> str:
    """A place's name in codes: ``san_juan``, a tile kind or a building."""
    if slot == SAN_JUAN_SLOT:
        return "san_juan"
    return TILES[slot] if slot < BUILDING_SLOT else CATALOG[slot - BUILDING_SLOT].name


_SLOT_INDEX: Final = {
    "san_juan": SAN_JUAN_SLOT,
    **{t: i for i, t in enumerate(TILES)},
    **{b.name: BUILDING_SLOT + i for i, b in enumerate(CATALOG)},
}


class BlackMarketActions(dict[tuple[int, int, int], Action]):
    """The Black Market actions of one building by their payment (colonist slot, good, vp),
    each made on first use: the Builder's options look a building's up in one dict."""

    def __init__(self, building: int) -> None:
        super().__init__()
        self.building = building

    def __missing__(self, payment: tuple[int, int, int]) -> Action:
        colonist, good, vp = payment
        code = f"bm.{CATALOG[self.building].name}"
        if colonist >= 0:
            code += f".c.{slot_name(colonist)}"
        if good >= 0:
            code += f".g.{GOODS[good]}"
        if vp:
            code += ".vp"
        # a: building, b: colonist slot; keep: (good, vp)
        action = Action(BLACK_MARKET, code, self.building, colonist, keep=(good, vp))
        self[payment] = action
        return action


# BLACK_MARKET_ACTIONS[building][(colonist, good, vp)]
BLACK_MARKET_ACTIONS: Final = [BlackMarketActions(b) for b in range(len(CATALOG))]


def black_market_action(building: int, colonist: int, good: int, vp: int) -> Action:
    """Exp. 1 Black Market: build ``building`` paying every doubloon plus up to one colonist
    (from ``colonist``, a slot, -1 for none), one barrel (``good``, -1 for none) and one VP chip
    (``vp`` 0 or 1): ``bm.factory.c.san_juan.g.sugar.vp``."""
    return BLACK_MARKET_ACTIONS[building][(colonist, good, vp)]


def _decode_black_market(code: str) -> Action:
    parts = code.split(".")[1:]
    b = BUILDING_INDEX.get(parts[0] if parts else "", -1)
    if b < 0:
        raise InvalidAction(action=code)
    rest = parts[1:]
    colonist, good, vp = -1, -1, 0
    if rest[:1] == ["c"] and len(rest) >= 2 and rest[1] in _SLOT_INDEX:
        colonist = _SLOT_INDEX[rest[1]]
        rest = rest[2:]
    if rest[:1] == ["g"] and len(rest) >= 2 and rest[1] in GOOD_INDEX:
        good = GOOD_INDEX[rest[1]]
        rest = rest[2:]
    if rest == ["vp"]:
        vp, rest = 1, []
    if rest or (colonist < 0 and good < 0 and not vp):
        raise InvalidAction(action=code)
    return black_market_action(b, colonist, good, vp)


def keep_action(counts: tuple[int, ...]) -> Action:
    """The action keeping ``counts[k]`` barrels of each good ``k``."""
    action = _KEEP_CACHE.get(counts)
    if action is None:
        action = Action(KEEP, "keep." + _goods_code(counts), keep=counts)
        _KEEP_CACHE[counts] = action
    return action


def _decode_counts(code: str, body: str) -> tuple[int, ...]:
    counts = [0] * NGOODS
    if body != "none":
        last = -1
        for part in body.split("."):
            name = part.rstrip("0123456789")
            digits = part[len(name) :]
            k = GOOD_INDEX.get(name, -1)
            # canonical form: goods in table order, each once, a positive count without
            # leading zeros
            if k <= last or not digits or digits[0] == "0" or len(digits) > 2:
                raise InvalidAction(action=code)
            counts[k] = int(digits)
            last = k
    return tuple(counts)


def decode(code: str) -> Action:
    """The action named by ``code``; :class:`InvalidAction` for anything else."""
    if not isinstance(code, str):
        raise InvalidAction(action=repr(code))
    action = _TABLE.get(code)
    if action is not None:
        return action
    if code.startswith("keep.") and len(code) < 64:
        return keep_action(_decode_counts(code, code[5:]))
    if code.startswith("sw.") and len(code) < 64:
        return small_wharf_action(_decode_counts(code, code[3:]))
    if code.startswith("bm.") and len(code) < 80:
        return _decode_black_market(code)
    raise InvalidAction(action=code[:80])


def all_simple_codes() -> list[str]:
    """Every code except the open-ended ``keep``, ``sw`` and ``bm`` families (for tests and
    documentation)."""
    return sorted(_TABLE)


assert len(TILES) == NTILES
