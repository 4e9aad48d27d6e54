"""Format 1 of the kernel's saves (issue #34: every game stored before format 2), read by turning
it into format 2 (``save``).  Format 1 stored buildings, role cards, goods, tiles, Activity and
Achievement cards and Puertoma skills as indices into the tables of its time: those tables are
frozen here, copied as they were, so that no later change of a table (a building inserted, a
card added) changes how an old save reads.  Nothing here may ever change.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from ..core import CorruptState

# The tables of format 1, in their order of the time (engine/puerto_rico/actions.py CATALOG,
# data.ALL_ROLES, GOODS, TILES; achievements.CARDS; festival_activities.ACTIVITIES;
# puertoma.SKILLS), frozen.
BUILDINGS: Final = (
    "small_indigo_plant", "small_sugar_mill", "indigo_plant", "sugar_mill", "tobacco_storage",
    "coffee_roaster", "small_market", "hacienda", "construction_hut", "small_warehouse",
    "hospice", "office", "large_market", "large_warehouse", "factory", "university", "harbor",
    "wharf", "guild_hall", "residence", "fortress", "customs_house", "city_hall",
    # Exp. 1
    "aqueduct", "forest_house", "black_market", "storehouse", "guest_house", "church",
    "trading_post", "small_wharf", "lighthouse", "library", "specialty_factory", "union_hall",
    "cloister", "statue",
    # Exp. 2
    "land_office", "chapel", "hunting_lodge", "zoning_office", "royal_supplier", "villa",
    "jeweler", "royal_garden",
)
BASE_BUILDINGS: Final = 23  # a market without the expansions' entries stopped there
ROLES: Final = (
    "settler", "mayor", "builder", "craftsman", "trader", "captain", "prospector", "buccaneer"
)
GOODS: Final = ("corn", "indigo", "sugar", "tobacco", "coffee")
TILES: Final = (*GOODS, "quarry")
HOSPICE_TILES: Final = (*TILES, "forest")  # the Hospice's offer: index 6 was a forest
ACHIEVEMENTS: Final = (
    "big_spender", "caramel_popcorn_inventor", "coffee_dispatcher", "confectionery_supplier",
    "corn_dispatcher", "deal_closer", "dock_tycoon", "fruit_dispatcher", "head_administrator",
    "independent_shipper", "leading_employer", "leading_producer", "luxury_crop_trader",
    "luxury_goods_provider", "major_investor", "major_landowner", "master_agronomist",
    "master_architect", "master_collector", "pastry_maker", "prudent_merchant",
    "senior_bureaucrat", "specialised_shipper", "sugar_dispatcher", "tavern_supplier",
    "tobacco_dispatcher", "tobacco_and_fruit_broker", "trade_strategist", "trade_tycoon",
    "tropical_produce_magnate",
)
ACHIEVEMENT_STATUSES: Final = ("held", "met", "announced", "pick")
ACTIVITIES: Final = (
    "annual_harvest_weigh_in", "carnival_cocktail", "closing_the_work", "specialists_prize",
    "agriculture_festival", "festival_goods_delivery", "twin_farmers_game", "two_baskets_game",
    "solemn_shipping_ceremony", "a_toast_to_the_pioneer", "inauguration_ceremony",
    "traditional_shipping_ceremony",
)
SKILLS: Final = (
    ("trader_any_good", "trader_coin", "builder_worker"),
    ("captain_keep_good", "builder_coin", "craftsman_crate"),
    ("craftsman_coins", "recruiter_worker", "planter_crate"),
    ("captain_vp_per_crate", "captain_discard", "recruiter_coins"),
)
SKILL_STATES: Final = ("face_down", "active", "discarded")
CRAFTSMAN_PHASE: Final = 4  # a Puertoma's phase tally was a goods mask in this phase
# the layouts of format 1's flat lists: a Festival Activity card (9 ints), the Puertomas' action
# board (10 ints) and each Puertoma's board (36 ints)
ACT_SIZE: Final = 9
PTM_HEADER, PTM_BOARD = 10, 36

_Value = Any


def upgrade(data: Mapping[str, Any]) -> dict[str, Any]:
    """A format-1 save as format 2 (``CorruptState`` when it is malformed)."""
    try:
        return _upgrade(data)
    except CorruptState:
        raise
    except KeyError as exc:
        raise CorruptState("missing_field", field=str(exc.args[0])) from None
    except (IndexError, TypeError, ValueError, AttributeError):
        raise CorruptState("bad_field", field="format_1") from None


def _name(table: tuple[str, ...], i: _Value, key: str) -> str:
    if type(i) is not int or not 0 <= i < len(table):
        raise CorruptState("bad_field", field=key)
    return table[i]


def _names(table: tuple[str, ...], values: _Value, key: str) -> list[str]:
    if not isinstance(values, list):
        raise CorruptState("bad_field", field=key)
    return [_name(table, i, key) for i in values]


def _optional(table: tuple[str, ...], i: _Value, key: str) -> str | None:
    return None if i == -1 and type(i) is int else _name(table, i, key)


def _counts(table: tuple[str, ...], values: _Value, key: str) -> dict[str, int]:
    if not isinstance(values, list) or len(values) != len(table):
        raise CorruptState("bad_length", field=key)
    return {table[i]: v for i, v in enumerate(values) if v != 0 or type(v) is not int}


def _bits(table: tuple[str, ...], mask: _Value, key: str) -> list[str]:
    if type(mask) is not int or not 0 <= mask < 1 << len(table):
        raise CorruptState("bad_field", field=key)
    return [table[i] for i in range(len(table)) if mask >> i & 1]


def _upgrade(data: Mapping[str, Any]) -> dict[str, Any]:
    out = {k: v for k, v in data.items() if k not in _CONVERTED}
    out["format"] = 2
    out["produced"] = _bits(GOODS, data["produced"], "produced")
    out["cards"] = _names(ROLES, data["cards"], "cards")
    for key in ("deck", "discard", "goods"):
        out[key] = _counts(GOODS, data[key], key)
    out["face_up"] = _names(TILES, data["face_up"], "face_up")
    market = data["market"]
    if isinstance(market, list) and len(market) == BASE_BUILDINGS:
        market = market + [0] * (len(BUILDINGS) - BASE_BUILDINGS)  # stored without Exp. 1, 2
    out["market"] = _counts(BUILDINGS, market, "market")
    out["house"] = _names(GOODS, data["house"], "house")
    kinds = data["ship_kind"]
    if not isinstance(kinds, list):
        raise CorruptState("bad_field", field="ship_kind")
    out["ship_kind"] = [_optional(GOODS, k, "ship_kind") for k in kinds]
    players = data["players"]
    if not isinstance(players, list):
        raise CorruptState("bad_field", field="players")
    out["players"] = [_player(p) for p in players]
    offers = data["offers"]
    if not isinstance(offers, list):
        raise CorruptState("bad_field", field="offers")
    out["offers"] = [_offer(o) for o in offers]
    if "festival" in data:
        f = data["festival"]
        if not isinstance(f, list) or len(f) != 5:
            raise CorruptState("bad_field", field="festival")
        out["festival"] = {
            "tile": _name(TILES, f[0], "festival"),
            "building": _optional(BUILDINGS, f[1], "festival"),
            "goods": _names(GOODS, f[2:5], "festival"),
            "won": data["festival_won"],
        }
    if "draft_left" in data:
        out["draft"] = {
            "left": data["draft_left"],
            "drafted": _names(BUILDINGS, data["drafted"], "drafted"),
        }
    for key in ("wharf_cargo", "chooser_crates"):
        if key in data:
            out[key] = _counts(GOODS, data[key], key)
    if "puertoma" in data:
        out["puertoma"] = _puertoma(data["puertoma"], data["phase"])
    if "festival_activities" in data:
        out["festival_activities"] = _activities(data)
    if "achievement_owner" in data:
        out["achievements"] = _achievements(data)
    return out


# format 1's keys that format 2 writes otherwise (the others are copied as they are)
_CONVERTED: Final = frozenset({
    "format", "produced", "cards", "deck", "discard", "goods", "face_up", "market", "house",
    "ship_kind", "players", "offers", "festival", "festival_won", "draft_left", "drafted",
    "wharf_cargo", "chooser_crates", "puertoma", "festival_activities", "activity_loads",
    "achievement_owner", "achievement_status", "achievement_tally",
})


def _player(raw: _Value) -> dict[str, Any]:
    if not isinstance(raw, Mapping):
        raise CorruptState("bad_field", field="players")
    out = {k: v for k, v in raw.items() if k in ("doubloons", "vp", "san_juan")}
    out["goods"] = _counts(GOODS, raw["goods"], "goods")
    out["tiles"] = _counts(TILES, raw["tiles"], "tiles")
    out["workers"] = _counts(TILES, raw["workers"], "workers")
    if "forests" in raw:
        out["forests"] = _counts(GOODS, raw["forests"], "forests")
    out["city"] = [[_name(BUILDINGS, b, "city"), w] for b, w in raw["city"]]
    if "nobles" in raw:
        nobles = raw["nobles"]
        if not isinstance(nobles, Mapping):
            raise CorruptState("bad_field", field="nobles")
        city: dict[str, Any] = {}
        for b, n in nobles["city"]:
            name = _name(BUILDINGS, b, "nobles")
            if name in city:
                raise CorruptState("bad_field", field="nobles")
            city[name] = n
        out["nobles"] = {
            "tiles": _counts(TILES, nobles["tiles"], "nobles"),
            "city": city,
            "san_juan": nobles["san_juan"],
        }
    return out


def _offer(raw: _Value) -> list[Any]:
    if not isinstance(raw, list) or len(raw) != 3:
        raise CorruptState("bad_field", field="offers")
    seat, name, arg = raw
    table = {"hospice": HOSPICE_TILES, "forest": TILES, "university": BUILDINGS}.get(name)
    return [seat, name, arg if table is None else _name(table, arg, "offers")]


def _puertoma(raw: _Value, phase: _Value) -> dict[str, Any]:
    """1897's Puertomas: the action board (marker, the next card's position, the deck of 8)
    and each Puertoma's board of 36 ints: 10 property spaces (two per good, -1 empty), the
    quarries and workers of its VP area, the skill tile of each level and its state, its
    Reserve building (-1 none, -2 removed), its phase tally, its Citizens, its 8 building
    spaces, the third properties of each good."""
    if not isinstance(raw, list) or len(raw) < PTM_HEADER or (len(raw) - PTM_HEADER) % PTM_BOARD:
        raise CorruptState("bad_length", field="puertoma")
    boards = []
    for at in range(PTM_HEADER, len(raw), PTM_BOARD):
        b = raw[at:at + PTM_BOARD]
        properties = {}
        for g, good in enumerate(GOODS):
            pair = b[2 * g:2 * g + 2]
            if pair != [-1, -1]:
                properties[good] = [None if w == -1 else w for w in pair]
        reserve = b[20]
        tally = b[21]
        boards.append({
            "properties": properties,
            "vp_quarries": b[10],
            "vp_workers": b[11],
            "skills": [[_name(SKILLS[level], b[12 + level], "puertoma"),
                        _name(SKILL_STATES, b[16 + level], "puertoma")] for level in range(4)],
            "reserve": "removed" if reserve == -2 else _optional(BUILDINGS, reserve, "puertoma"),
            "phase": _bits(GOODS, tally, "puertoma") if phase == CRAFTSMAN_PHASE else tally,
            "citizens": b[22],
            "spaces": [_optional(BUILDINGS, x, "puertoma") for x in b[23:31]],
            "third": _counts(GOODS, b[31:36], "puertoma"),
        })
    return {
        "marker": _name(ROLES, raw[0], "puertoma"),
        "drawn": raw[1],
        "deck": raw[2:PTM_HEADER],
        "boards": boards,
    }


def _activities(data: Mapping[str, Any]) -> dict[str, Any]:
    """1897 Exp. V: three cards of 9 ints (the card, the seat that completed it, 2 property
    slots, 3 crate slots, the building, whether its tile is on the card) and the crates each
    seat loaded this Captain phase (seat * 5 + good)."""
    raw, loads = data["festival_activities"], data["activity_loads"]
    if not isinstance(raw, list) or len(raw) % ACT_SIZE or not isinstance(loads, list):
        raise CorruptState("bad_length", field="festival_activities")
    cards = []
    for at in range(0, len(raw), ACT_SIZE):
        r = raw[at:at + ACT_SIZE]
        if r[8] not in (0, 1):
            raise CorruptState("bad_field", field="festival_activities")
        cards.append({
            "card": _name(ACTIVITIES, r[0], "festival_activities"),
            "completed_by": r[1],
            "tiles": [_optional(TILES, t, "festival_activities") for t in r[2:4]],
            "goods": [_optional(GOODS, g, "festival_activities") for g in r[4:7]],
            "building": _optional(BUILDINGS, r[7], "festival_activities"),
            "held": r[8] == 1,
        })
    n = len(GOODS)
    if len(loads) % n:
        raise CorruptState("bad_length", field="activity_loads")
    return {"cards": cards,
            "loads": [_counts(GOODS, loads[at:at + n], "activity_loads")
                      for at in range(0, len(loads), n)]}


def _achievements(data: Mapping[str, Any]) -> dict[str, Any]:
    """1897 Exp. VI: by card its holder (-1: the deck) and status; by seat the VP gained, then
    by seat the goods loaded (a bit each) in the Captain phase in progress."""
    owner, status, tally = (data["achievement_owner"], data["achievement_status"],
                            data["achievement_tally"])
    if (not isinstance(owner, list) or not isinstance(status, list)
            or len(owner) != len(ACHIEVEMENTS) or len(status) != len(ACHIEVEMENTS)
            or not isinstance(tally, list) or len(tally) % 2):
        raise CorruptState("bad_length", field="achievements")
    cards = {
        name: [owner[c], _name(ACHIEVEMENT_STATUSES, status[c], "achievements")]
        for c, name in enumerate(ACHIEVEMENTS)
        if owner[c] != -1 or status[c] != 0
    }
    n = len(tally) // 2
    return {"cards": cards,
            "tally": {"vp": tally[:n],
                      "loaded": [_bits(GOODS, mask, "achievements") for mask in tally[n:]]}}
