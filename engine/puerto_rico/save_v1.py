"""Format 1 of the kernel's saves (issue #34: every game stored before format 2), read by turning
it into format 2 (``save``).  Format 1 stored buildings, role cards, goods, tiles, Activity and
Achievement cards and Puertoma skills as indices into the tables of its time: those tables are
frozen here, copied as they were, so that no later change of a table (a building inserted, a
card added) changes how an old save reads.  Nothing here may ever change.  An edition's own
fields are upgraded by its package (``UPGRADES``: 1897's in ``engine.puerto_rico_1897.save_v1``,
with the frozen tables of its cards and skills).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Final

from ..core import CorruptState

# The tables of format 1, in their order of the time (engine/puerto_rico/actions.py CATALOG,
# data.ALL_ROLES, GOODS, TILES), frozen.
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

_Value = Any

Upgrade = Callable[[Mapping[str, Any]], dict[str, Any]]
UPGRADES: Final[list[tuple[frozenset[str], Upgrade]]] = []
"""An edition's own fields of format 1: (the keys it reads, (data) -> its fields in format 2);
the keys it reads are not copied as they are."""


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


def name_at(table: tuple[str, ...], i: _Value, key: str) -> str:
    if type(i) is not int or not 0 <= i < len(table):
        raise CorruptState("bad_field", field=key)
    return table[i]


def names_at(table: tuple[str, ...], values: _Value, key: str) -> list[str]:
    if not isinstance(values, list):
        raise CorruptState("bad_field", field=key)
    return [name_at(table, i, key) for i in values]


def optional_at(table: tuple[str, ...], i: _Value, key: str) -> str | None:
    return None if i == -1 and type(i) is int else name_at(table, i, key)


def counts_of(table: tuple[str, ...], values: _Value, key: str) -> dict[str, int]:
    if not isinstance(values, list) or len(values) != len(table):
        raise CorruptState("bad_length", field=key)
    return {table[i]: v for i, v in enumerate(values) if v != 0 or type(v) is not int}


def bits_of(table: tuple[str, ...], mask: _Value, key: str) -> list[str]:
    if type(mask) is not int or not 0 <= mask < 1 << len(table):
        raise CorruptState("bad_field", field=key)
    return [table[i] for i in range(len(table)) if mask >> i & 1]


def _upgrade(data: Mapping[str, Any]) -> dict[str, Any]:
    out = {k: v for k, v in data.items() if k not in _CONVERTED}
    out["format"] = 2
    out["produced"] = bits_of(GOODS, data["produced"], "produced")
    out["cards"] = names_at(ROLES, data["cards"], "cards")
    for key in ("deck", "discard", "goods"):
        out[key] = counts_of(GOODS, data[key], key)
    out["face_up"] = names_at(TILES, data["face_up"], "face_up")
    market = data["market"]
    if isinstance(market, list) and len(market) == BASE_BUILDINGS:
        market = market + [0] * (len(BUILDINGS) - BASE_BUILDINGS)  # stored without Exp. 1, 2
    out["market"] = counts_of(BUILDINGS, market, "market")
    out["house"] = names_at(GOODS, data["house"], "house")
    kinds = data["ship_kind"]
    if not isinstance(kinds, list):
        raise CorruptState("bad_field", field="ship_kind")
    out["ship_kind"] = [optional_at(GOODS, k, "ship_kind") for k in kinds]
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
            "tile": name_at(TILES, f[0], "festival"),
            "building": optional_at(BUILDINGS, f[1], "festival"),
            "goods": names_at(GOODS, f[2:5], "festival"),
            "won": data["festival_won"],
        }
    if "draft_left" in data:
        out["draft"] = {
            "left": data["draft_left"],
            "drafted": names_at(BUILDINGS, data["drafted"], "drafted"),
        }
    for key in ("wharf_cargo", "chooser_crates"):
        if key in data:
            out[key] = counts_of(GOODS, data[key], key)
    for keys, own in UPGRADES:
        for key in keys:
            out.pop(key, None)
        out.update(own(data))
    return out


# format 1's keys that format 2 writes otherwise (the others are copied as they are)
_CONVERTED: Final = frozenset({
    "format", "produced", "cards", "deck", "discard", "goods", "face_up", "market", "house",
    "ship_kind", "players", "offers", "festival", "festival_won", "draft_left", "drafted",
    "wharf_cargo", "chooser_crates",
})


def _player(raw: _Value) -> dict[str, Any]:
    if not isinstance(raw, Mapping):
        raise CorruptState("bad_field", field="players")
    out = {k: v for k, v in raw.items() if k in ("doubloons", "vp", "san_juan")}
    out["goods"] = counts_of(GOODS, raw["goods"], "goods")
    out["tiles"] = counts_of(TILES, raw["tiles"], "tiles")
    out["workers"] = counts_of(TILES, raw["workers"], "workers")
    if "forests" in raw:
        out["forests"] = counts_of(GOODS, raw["forests"], "forests")
    out["city"] = [[name_at(BUILDINGS, b, "city"), w] for b, w in raw["city"]]
    if "nobles" in raw:
        nobles = raw["nobles"]
        if not isinstance(nobles, Mapping):
            raise CorruptState("bad_field", field="nobles")
        city: dict[str, Any] = {}
        for b, n in nobles["city"]:
            name = name_at(BUILDINGS, b, "nobles")
            if name in city:
                raise CorruptState("bad_field", field="nobles")
            city[name] = n
        out["nobles"] = {
            "tiles": counts_of(TILES, nobles["tiles"], "nobles"),
            "city": city,
            "san_juan": nobles["san_juan"],
        }
    return out


def _offer(raw: _Value) -> list[Any]:
    if not isinstance(raw, list) or len(raw) != 3:
        raise CorruptState("bad_field", field="offers")
    seat, name, arg = raw
    table = {"hospice": HOSPICE_TILES, "forest": TILES, "university": BUILDINGS}.get(name)
    return [seat, name, arg if table is None else name_at(table, arg, "offers")]
