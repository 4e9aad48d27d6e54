"""The save format of the Puerto Rico kernel (``Game.dump`` / ``Game.load``; both editions).

Format 2 names every catalog entry it stores (buildings, role cards, goods, tiles; 1897's
Activity and Achievement cards and Puertoma skills in their modules' fields) by the engine's id
words, as the action codes do: the state in memory keeps table indices for speed, and this
module translates at the edge, so a building added anywhere in a table changes no save
(docs/adding-a-building.md).  Format 1 (indices) is still read, through the frozen tables of
``save_v1``.  Numbers that are no catalog's (seats, counts, phases and steps, a card's place in
the game's own row of role cards) stay numbers; a count per entry is ``{name: count}`` without
the zeros.

A module of another edition keeps the layout of its own fields beside its rules and registers
how they are saved (:func:`register_field`); the kernel's modules' fields are written here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Final

from ..core import CorruptState
from ..fields import Names, bool_list, int_field, int_list, mapping_field, str_list
from .actions import CATALOG, OFFERS
from .data import ALL_ROLES, GOODS, TILES
from .save_v1 import upgrade
from .state import BUC_RAID, DRAFT_COSTS, Player, State

DUMP_VERSION: Final = 2

BUILDINGS: Final = Names("building", tuple(b.name for b in CATALOG))
ROLES: Final = Names("role", ALL_ROLES)
GOOD_NAMES: Final = Names("good", GOODS)
TILE_NAMES: Final = Names("tile", TILES)
# the Hospice's offer names a tile kind or (Exp. 1) a forest: ``buildings.FOREST_TILE``, the
# index after the tiles
_TILE_OR_FOREST: Final = Names("tile", (*TILES, "forest"))
# what the argument of each offer (``State.offers``) names; the others' are counts
OFFER_ARGS: Final[dict[str, Names]] = {
    "hospice": _TILE_OR_FOREST,
    "forest": TILE_NAMES,
    "university": BUILDINGS,
}
assert set(OFFER_ARGS) <= set(OFFERS)

SavedField = tuple[Callable[[State], Any], Callable[[State, Any], None]]
FIELDS: Final[dict[str, SavedField]] = {}
"""The fields a module saves: key -> (dump: the value, None when the game has none; load: set it
on the state, whose other fields are read already, or raise ``CorruptState``)."""


def register_field(
    key: str, dump: Callable[[State], Any], load: Callable[[State, Any], None]
) -> None:
    if key in FIELDS:
        raise ValueError(f"saved field {key} registered twice")
    FIELDS[key] = (dump, load)


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
)
_INT_LISTS: Final = ("card_doubloons", "card_taken", "ship_cap", "ship_load")


def stored_options(options: Mapping[str, Any]) -> dict[str, Any]:
    """Normalized options as a dump stores them: games without modules keep the form they had
    before issue #11 (``"expansions": []``, no ``modules``); ``normalize_options`` reads both."""
    if options.get("modules"):
        return dict(options)
    return {("expansions" if k == "modules" else k): v for k, v in options.items()}


def dump_state(s: State) -> dict[str, Any]:
    """The whole state, secrets included, as JSON-safe data (for storage, never for players)."""
    goods = GOOD_NAMES
    out: dict[str, Any] = {
        "format": DUMP_VERSION,
        "game": s.game_name,
        "options": stored_options(s.options),
        "players": [_dump_player(p) for p in s.players],
        "pending": s.pending,
        "offers": [_dump_offer(o) for o in s.offers],
        "end_reasons": s.end_reasons,
        "produced": goods.bits(s.produced),
        "cards": ROLES.list_of(s.cards),
        "deck": goods.counts(s.deck),
        "discard": goods.counts(s.discard),
        "face_up": TILE_NAMES.list_of(s.face_up),
        "market": BUILDINGS.counts(s.market),
        "goods": goods.counts(s.goods),
        "house": goods.list_of(s.house),
        "ship_kind": [goods.name_or_none(k) for k in s.ship_kind],
    }
    for name in _SCALARS:
        out[name] = getattr(s, name)
    for name in _INT_LISTS:
        out[name] = getattr(s, name)
    # the modules' and editions' fields, only in the games that have them
    if s.festival:  # Exp. 4
        f = s.festival
        out["festival"] = {
            "tile": TILES[f[0]],
            "building": BUILDINGS.name_or_none(f[1]),
            "goods": goods.list_of(f[2:5]),
            "won": s.festival_won,
        }
    if s.buccaneer:  # Exp. 3: seats and counts, and the captured card's place in ``cards``
        out["buccaneer"] = s.buccaneer
    if s.draft_left:  # Exp. 1: the board's empty spaces by printed cost, the drafted buildings
        out["draft"] = {"left": s.draft_left, "drafted": BUILDINGS.list_of(s.drafted)}
    if s.nobles:  # Exp. 2: counts
        out["nobles"] = s.nobles
    if s.wharf_cargo:  # 1897
        out["wharf_cargo"] = goods.counts(s.wharf_cargo)
    if s.colonists_out:
        out["colonists_out"] = s.colonists_out
    if s.chooser_crates:
        out["chooser_crates"] = goods.counts(s.chooser_crates)
    for key, (dump, _) in FIELDS.items():
        value = dump(s)
        if value is not None:
            out[key] = value
    return out


def _dump_player(p: Player) -> dict[str, Any]:
    tiles = TILE_NAMES
    names = BUILDINGS.names
    out: dict[str, Any] = {
        "doubloons": p.doubloons,
        "vp": p.vp,
        "goods": GOOD_NAMES.counts(p.goods),
        "tiles": tiles.counts(p.tiles),
        "workers": tiles.counts(p.workers),
        "city": [[names[b], p.bw[b]] for b in p.city],
        "san_juan": p.san_juan,
    }
    if any(p.forests):  # Exp. 1
        out["forests"] = GOOD_NAMES.counts(p.forests)
    if p.nobles:  # Exp. 2: by tile kind, then building, then San Juan
        ntiles = len(p.tiles)
        out["nobles"] = {
            "tiles": tiles.counts(p.nobles[:ntiles]),
            "city": {names[b]: n for b in p.city if (n := p.nobles[ntiles + b])},
            "san_juan": p.nobles[-1],
        }
    return out


def _dump_offer(offer: list[int | str]) -> list[int | str]:
    seat, name, arg = offer
    names = OFFER_ARGS.get(str(name))
    return [seat, name, names.names[int(arg)] if names is not None else arg]


# ----------------------------------------------------------------------------------------------
# Reading
# ----------------------------------------------------------------------------------------------


def load_state(data: Mapping[str, Any]) -> State:
    """Inverse of :func:`dump_state`, format 1 too.  Raises :class:`CorruptState` on any
    malformed field (the game's ``load`` then checks every invariant)."""
    if not isinstance(data, Mapping):
        raise CorruptState("not_an_object")
    version = data.get("format")
    if version == 1 and type(version) is int:
        data = upgrade(data)  # a game stored before format 2
    elif version != DUMP_VERSION or type(version) is not int:
        raise CorruptState("unsupported_format", format=repr(version)[:20])
    try:
        return _read(data)
    except KeyError as exc:
        raise CorruptState("missing_field", field=str(exc.args[0])) from None


def _read(data: Mapping[str, Any]) -> State:
    goods = GOOD_NAMES
    s = State()
    s.game_name = str(data["game"])
    s.options = mapping_field(data, "options")
    for name in _SCALARS:
        setattr(s, name, int_field(data, name))
    for name in _INT_LISTS:
        setattr(s, name, int_list(data, name))
    if len(s.card_doubloons) != len(s.card_taken) or len(s.ship_cap) != len(s.ship_load):
        raise CorruptState("bad_length", field="cards" if s.ship_cap else "ships")
    s.produced = goods.read_bits(data["produced"], "produced")
    s.cards = ROLES.read_list(data["cards"], "cards")
    if len(s.cards) != len(s.card_taken):
        raise CorruptState("bad_length", field="cards")
    s.deck = goods.read_counts(data["deck"], "deck")
    s.discard = goods.read_counts(data["discard"], "discard")
    s.face_up = TILE_NAMES.read_list(data["face_up"], "face_up")
    s.market = BUILDINGS.read_counts(data["market"], "market")
    s.goods = goods.read_counts(data["goods"], "goods")
    s.house = goods.read_list(data["house"], "house")
    kinds = data["ship_kind"]
    if not isinstance(kinds, list) or len(kinds) != len(s.ship_cap):
        raise CorruptState("bad_field", field="ship_kind")
    s.ship_kind = [goods.optional(k, "ship_kind") for k in kinds]
    players = data["players"]
    if not isinstance(players, list) or len(players) != s.n:
        raise CorruptState("bad_field", field="players")
    s.players = [_read_player(raw) for raw in players]
    s.pending = bool_list(data, "pending")
    if len(s.pending) != s.n:
        raise CorruptState("bad_field", field="pending")
    offers = data["offers"]
    if not isinstance(offers, list):
        raise CorruptState("bad_field", field="offers")
    s.offers = [_read_offer(o) for o in offers]
    s.end_reasons = str_list(data, "end_reasons")
    if "festival" in data:
        _read_festival(s, data["festival"])
    if "buccaneer" in data:
        s.buccaneer = int_list(data, "buccaneer", BUC_RAID + 1)
    if "draft" in data:
        draft = data["draft"]
        if not isinstance(draft, dict):
            raise CorruptState("bad_field", field="draft")
        s.draft_left = int_list(draft, "left", DRAFT_COSTS)
        s.drafted = BUILDINGS.read_list(draft["drafted"], "drafted")
    if "nobles" in data:
        s.nobles = int_list(data, "nobles", 4)
    if "wharf_cargo" in data:
        s.wharf_cargo = goods.read_counts(data["wharf_cargo"], "wharf_cargo")
    if "colonists_out" in data:
        s.colonists_out = int_field(data, "colonists_out")
    if "chooser_crates" in data:
        s.chooser_crates = goods.read_counts(data["chooser_crates"], "chooser_crates")
    for key, (_, load) in FIELDS.items():
        if key in data:
            load(s, data[key])
    return s


def _read_player(raw: Any) -> Player:
    if not isinstance(raw, dict):
        raise CorruptState("bad_field", field="players")
    tiles = TILE_NAMES
    p = Player(len(GOOD_NAMES), len(tiles), len(BUILDINGS))
    p.doubloons = int_field(raw, "doubloons")
    p.vp = int_field(raw, "vp")
    p.san_juan = int_field(raw, "san_juan")
    p.goods = GOOD_NAMES.read_counts(raw["goods"], "goods")
    p.tiles = tiles.read_counts(raw["tiles"], "tiles")
    p.workers = tiles.read_counts(raw["workers"], "workers")
    if "forests" in raw:
        p.forests = GOOD_NAMES.read_counts(raw["forests"], "forests")
    city = raw["city"]
    if not isinstance(city, list):
        raise CorruptState("bad_field", field="city")
    for entry in city:
        if not isinstance(entry, list) or len(entry) != 2 or type(entry[1]) is not int:
            raise CorruptState("bad_field", field="city")
        b = BUILDINGS.of(entry[0], "city")
        if entry[1] < 0 or p.bw[b] != -1:  # built once
            raise CorruptState("bad_field", field="city")
        p.bw[b] = entry[1]
        p.city.append(b)
    if "nobles" in raw:
        p.nobles = _read_nobles(raw["nobles"], p)
    return p


def _read_nobles(raw: Any, p: Player) -> list[int]:
    """A player's Exp. 2 nobles: on a tile kind, a building of his city, San Juan (the
    invariants check them against his pieces)."""
    if not isinstance(raw, dict):
        raise CorruptState("bad_field", field="nobles")
    ntiles = len(p.tiles)
    nobles = [0] * (ntiles + len(p.bw) + 1)
    nobles[:ntiles] = TILE_NAMES.read_counts(raw["tiles"], "nobles")
    nobles[-1] = int_field(raw, "san_juan")
    city = raw["city"]
    if not isinstance(city, dict):
        raise CorruptState("bad_field", field="nobles")
    for name, count in city.items():
        b = BUILDINGS.of(name, "nobles")
        if type(count) is not int or count <= 0 or p.bw[b] < 0:  # on a building of his city
            raise CorruptState("bad_field", field="nobles")
        nobles[ntiles + b] = count
    return nobles


def _read_offer(raw: Any) -> list[int | str]:
    if (
        not isinstance(raw, list)
        or len(raw) != 3
        or type(raw[0]) is not int
        or not isinstance(raw[1], str)
    ):
        raise CorruptState("bad_field", field="offers")
    names = OFFER_ARGS.get(raw[1])
    if names is not None:
        return [raw[0], raw[1], names.of(raw[2], "offers")]
    if type(raw[2]) is not int:
        raise CorruptState("bad_field", field="offers")
    return [raw[0], raw[1], raw[2]]


def _read_festival(s: State, raw: Any) -> None:
    """Exp. 4: the goals (``State.festival``: tile, building, three barrels) and by goal the
    seat that achieved it."""
    if not isinstance(raw, dict):
        raise CorruptState("bad_field", field="festival")
    goods = GOOD_NAMES.read_list(raw["goods"], "festival")
    if len(goods) != 3:
        raise CorruptState("bad_length", field="festival")
    s.festival = [
        TILE_NAMES.of(raw["tile"], "festival"),
        BUILDINGS.optional(raw["building"], "festival"),
        *goods,
    ]
    s.festival_won = int_list(raw, "won", 3)
