"""Puerto Rico's refusals with the numbers (issue #9): "You cannot afford the City hall: it
costs 8 doubloons for you, you have 5 doubloons."  The generic part (whose turn it is, not now,
an unknown code) is :mod:`bot.refusals`; this module words the engine's Puerto Rico codes
(``IllegalAction.code``) from the refused seat's view.  Pure.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.puerto_rico.nobles import LAND_OFFICE_PRICE
from engine.puerto_rico.view import CityBuilding, IslandTile, PlayerEntry, RoleCard, Ship

from ..contract import Refusing
from . import new_buildings as nb
from . import nobles
from .choices import Chooser, family, keep_counts

CITY_SPACES = 12
ISLAND_SPACES = 12
WAREHOUSES = {"small_warehouse": 1, "large_warehouse": 2}


PROMPT_FAMILIES = {
    "role": "role", "settle": "settle", "hospice": "offer", "university": "offer",
    "mayor_privilege": "mayor", "arrange": "mayor", "build": "build",
    "craft_privilege": "craft", "sell": "sell", "ship": "ship", "keep": "keep",
    "buccaneer": "buccaneer", "raid_place": "raid",
    "draft": "draft", "forest": "offer", "interlude": "guest",
    "noble_or_colonist": "offer", "hunting_lodge": "offer", "royal_supplier": "offer",
}
EXCLUSIVE = ("hacienda", "forest_house")  # ruling A22's 2004 rule keeps them apart


def goods(w: Refusing, counts: Mapping[str, Any]) -> str:
    chooser = w.chooser
    assert isinstance(chooser, Chooser)
    text = chooser.goods_words({str(g): int(n) for g, n in counts.items() if n})
    return text or w.t("ui.no_goods")


def building_of(w: Refusing, name: str) -> CityBuilding | None:
    me = me_of(w)
    return next((e for e in (me["city"] if me else ()) if e["building"] == name), None)


def chooser_of(w: Refusing) -> Chooser:
    chooser = w.chooser
    assert isinstance(chooser, Chooser)
    return chooser


def me_of(w: Refusing) -> PlayerEntry | None:
    """The refused seat's own entry of its view (``None``: a public view)."""
    return chooser_of(w).player()


def island_of(w: Refusing) -> list[IslandTile]:
    me = me_of(w)
    return [] if me is None else me["island"]


def held(w: Refusing) -> dict[str, int]:
    """The refused seat's goods (none in a public view)."""
    me = me_of(w)
    return {} if me is None else me["goods"]


def doubloons(w: Refusing) -> int:
    me = me_of(w)
    return 0 if me is None else me["doubloons"]


def illegal(w: Refusing, code: str, action: str) -> tuple[str, dict[str, Any]] | None:
    """The words of the Puerto Rico refusal ``code`` of ``action`` (``None``: the plain text)."""
    rest = action.partition(".")[2]
    chooser = chooser_of(w)
    view, me = chooser.view, me_of(w)
    if code == "role_taken":
        role: RoleCard | None = next((r for r in view["roles"] if r["card"] == rest), None)
        name = chooser.role_of(rest)
        taken = None if role is None else role["taken_by"]
        if taken == w.s.seat:
            return "why.role_taken_by_you", {"role": name}
        return "why.role_taken", {"role": name, "name": w.name(taken)}
    if code == "role_not_allowed":  # §12: the token holder may not choose the Buccaneer
        return "why.role_not_allowed", {"role": chooser.word("role", "buccaneer")}
    if code == "illegal_now":
        return module_refusal(w, action)
    if code == "role_not_in_game":
        return "why.role_not_in_game", {"role": chooser.word("role", rest.rstrip("2")),
                                        "n": view["players_count"]}
    if code == "island_full":
        return "why.island_full", {"used": (me["island_used"] if me else 0) or ISLAND_SPACES,
                                   "total": ISLAND_SPACES}
    if code == "no_quarries_left":
        return "why.no_quarries_left", {}
    if code == "quarry_not_allowed":
        return "why.quarry_not_allowed", {"name": w.name(view["chooser"])}
    if code == "plantation_not_available":
        tiles = [chooser.tile(t) for t in view["face_up"]]
        return "why.plantation_not_available", {
            "tile": chooser.tile(rest), "tiles": w.catalog.join(w.lang, tiles) or w.t(
                "table.empty")}
    if code == "hacienda_not_available":
        return "why.hacienda_not_available", {}
    if code in ("building_not_in_game", "already_owned", "sold_out", "no_city_space",
                "not_enough_doubloons"):
        return building_refusal(w, code, rest)
    if code == "no_such_good":
        good = rest.partition(".")[0]
        return "why.no_such_good", {"good": chooser.tile(good), "goods": goods(w, held(w))}
    if code in ("trading_house_full", "kind_already_in_trading_house"):
        house = [chooser.tile(g) for g in view["trading_house"]]
        return f"why.{code}", {"good": chooser.tile(rest), "goods": w.catalog.join(w.lang, house),
                               "n": len(house), "capacity": view["trading_house_capacity"]}
    if code == "no_such_ship":
        index = rest.partition(".")[2]
        return "why.no_such_ship", {"ship": int(index) + 1 if index.isdigit() else index,
                                    "n": len(view["ships"])}
    if code == "ship_not_allowed":
        return ship_refusal(w, rest)
    if code == "wharf_not_available":
        wharf = building_of(w, "wharf")
        if wharf is None or not wharf["colonists"]:
            return "why.no_wharf", {}
        return "why.wharf_used", {}
    if code == "privilege_good_not_available":
        return "why.privilege_good_not_available", {
            "good": chooser.tile(rest), "n": view["goods_supply"].get(rest, 0)}
    if code == "no_free_circle":
        return nobles_first(w, action) or circle_refusal(w, rest)
    if code == "keep_not_allowed":
        kinds = sum(n for b, n in WAREHOUSES.items()
                    if (entry := building_of(w, b)) is not None and entry["colonists"])
        return "why.keep_not_allowed", {"n": kinds, "goods": goods(w, held(w)),
                                        "kept": chooser.goods_words(keep_counts(rest))
                                        or w.t("why.nothing")}
    if code == "must_load":
        loads = [c for c in w.s.legal if family(c) == "ship"]
        options = w.catalog.join(w.lang, [chooser.label(c) for c in loads[:4]], "or")
        return "why.must_load", {"options": options or "?"}
    return None


def module_refusal(w: Refusing, action: str) -> tuple[str, dict[str, Any]] | None:
    """Why a Buccaneer option, a raid place or an expansion's choice is not open now (the
    engine says only ``illegal_now``), with the numbers of the refused seat's view; ``None`` for
    the rest."""
    chooser = chooser_of(w)
    head, _, rest = action.partition(".")
    if head == "raid":
        return circle_refusal(w, rest)
    if head in nb.HEADS:
        return exp1_refusal(w, action)
    if head in nobles.HEADS:
        return exp2_refusal(w, action)
    view = chooser.view
    if head != "bu" or view["prompt"] is None or view["prompt"]["kind"] != "buccaneer":
        return None
    option, _, tail = rest.partition(".")
    if option == "plunder" and not view["trading_house"]:
        return "why.nothing_to_plunder", {}
    if option == "piracy":
        ship, count, _, kept = chooser.piracy_parts(tail)
        if not count:
            return "why.piracy_empty_ship", {"ship": ship}
        return "why.piracy_keep", {"ship": ship, "count": count, "n": kept,
                                   "most": min(count, 3)}
    if option == "capture":
        role = next((r for r in view["roles"] if r["card"] == tail), None)
        if role is None:
            return "why.role_not_in_game", {"role": chooser.role_of(tail),
                                            "n": view["players_count"]}
        if role["role"] == "buccaneer":
            return "why.capture_buccaneer", {}
        if role["taken_by"] is not None:
            return "why.capture_taken", {"role": chooser.role_of(tail),
                                         "name": w.name(role["taken_by"])}
    return None


def owns(w: Refusing, building: str) -> bool:
    """Whether the refused seat owns ``building`` occupied."""
    entry = building_of(w, building)
    return entry is not None and bool(entry["colonists"])


def exp1_refusal(w: Refusing, action: str) -> tuple[str, dict[str, Any]] | None:
    """Why an Exp. 1 choice is not open now (the engine says only ``illegal_now``)."""
    chooser = chooser_of(w)
    head, _, rest = action.partition(".")
    if head == "d" and rest in nb.buildings():
        part = chooser.view["draft"]
        building = chooser.building(rest)
        cost = int(nb.facts(rest)["cost"])
        drafted = [] if part is None else part["drafted"]
        if rest in drafted:
            reason = w.t("why.draft_taken")
        elif not (0 if part is None else part["spaces_left"].get(str(cost), 0)):
            reason = w.t("why.draft_no_space", cost=cost)
        elif rest in EXCLUSIVE and chooser.view["options"].get("exclusive_forest_house"):
            reason = w.t("why.draft_exclusive")
        else:
            return None
        return "why.draft_not_candidate", {"building": building, "reason": reason}
    if head == "f":
        if not owns(w, "forest_house"):
            return "why.no_forest_house", {}
        return illegal(w, "plantation_not_available", f"s.{rest}")
    if head == "tp":
        if not owns(w, "trading_post"):
            return "why.no_trading_post", {}
        return illegal(w, "no_such_good", f"t.{rest}")
    if head == "sw":
        if not owns(w, "small_wharf"):
            return "why.no_small_wharf", {}
        prompt = chooser.view["prompt"]
        if prompt is not None and prompt["kind"] == "ship" and not any(
                c.startswith("sw.") for c in w.s.legal):
            return "why.small_wharf_used", {}
        return "why.no_such_good", {"good": chooser.goods_words(nb.counts(rest)) or "?",
                                    "goods": goods(w, held(w))}
    if head == "bm":
        building = nb.black_market_parts(action)[0]
        if not owns(w, "black_market"):
            return "why.no_black_market", {}
        price, have = chooser.price(building), doubloons(w)
        if building in chooser.market and price <= have:
            return "why.black_market_rich", {"building": chooser.building(building)}
        return "why.black_market_items", {"building": chooser.building(building),
                                          "have": have, "need": max(price - have, 0)}
    if head == "g":
        guests = building_of(w, "guest_house")
        if guests is None or not guests["colonists"]:
            return "why.no_guest", {}
        return circle_refusal(w, rest)
    return None


def nobles_first(w: Refusing, action: str) -> tuple[str, dict[str, Any]] | None:
    """Exp. 2: a colonist's place refused while nobles wait in San Juan: only nobles wait, or
    (without a building with a noble function) the nobles are placed first."""
    me = me_of(w)
    _, waiting = nobles.nobles_of(me)
    if me is None or not action.startswith("m.") or not waiting or not has_room(w, action[2:]):
        return None
    if waiting >= me["san_juan"]:
        return "why.only_nobles_waiting", {"n": waiting}
    return "why.nobles_first", {"n": waiting}


def has_room(w: Refusing, place: str) -> bool:
    """Whether the refused seat has an empty circle on ``place`` (a building or a tile kind)."""
    entry = building_of(w, place)
    if entry is not None:
        return entry["colonists"] < entry["circles"]
    return any(t["tile"] == place and not t["occupied"] for t in island_of(w))


def exp2_refusal(w: Refusing, action: str) -> tuple[str, dict[str, Any]] | None:
    """Why an Exp. 2 choice is not open now (the engine says only ``illegal_now``): a noble's
    place, the Land office, the Hunting lodge's tile, the Royal supplier's barrels."""
    chooser = chooser_of(w)
    head, _, rest = action.partition(".")
    if head == "mn":
        if not nobles.nobles_of(me_of(w))[1]:
            return "why.no_noble_waiting", {}
        return circle_refusal(w, rest)
    if head == "lo":
        return land_office_refusal(w, rest)
    if head == "hl":
        return missing_tile(w, rest)
    if head == "rs":
        kinds = rest.split(".")
        most = nobles.nobles_of(me_of(w))[0]
        if len(kinds) > most:
            return "why.supplier_most", {"n": most}
        have = held(w)
        lacking = [g for g in kinds if not have.get(g)]
        if lacking:
            return "why.no_such_good", {
                "good": w.catalog.join(w.lang, [chooser.tile(g) for g in lacking]),
                "goods": goods(w, have)}
    return None


def land_office_refusal(w: Refusing, rest: str) -> tuple[str, dict[str, Any]] | None:
    """Why a Land office purchase (``buy``) or sale (``sell.<tile>``) is refused (A41): no
    occupied Land office, the other piece on it, no doubloon, no room, no tile, or used."""
    office = building_of(w, "land_office")
    if office is None or not office["colonists"]:
        return "why.no_land_office", {}
    noble = bool(office.get("nobles"))
    if rest == "buy":
        if noble:
            return "why.land_office_sells", {}
        have = doubloons(w)
        if have < LAND_OFFICE_PRICE:
            return "why.land_office_money", {"price": LAND_OFFICE_PRICE, "have": have}
        me = me_of(w)
        if (me["island_used"] if me else 0) >= ISLAND_SPACES:
            return "why.island_full", {"used": ISLAND_SPACES, "total": ISLAND_SPACES}
        if not chooser_of(w).view["plantation_stack"]:
            return "why.no_plantation_left", {}
        return "why.land_office_used", {}
    if not noble:
        return "why.land_office_buys", {}
    return missing_tile(w, rest.removeprefix("sell.")) or ("why.land_office_used", {})


def missing_tile(w: Refusing, tile: str) -> tuple[str, dict[str, Any]] | None:
    """A plantation kind (or a forest) that is not on the refused seat's island."""
    if any(t["tile"] == tile for t in island_of(w)):
        return None
    if tile == nobles.FOREST:
        return "why.no_forest", {}
    return "why.no_such_tile", {"tile": chooser_of(w).tile(tile)}


def building_refusal(w: Refusing, code: str, name: str) -> tuple[str, dict[str, Any]]:
    entry = chooser_of(w).market.get(name)
    building = chooser_of(w).building(name)
    if code == "no_city_space":
        me = me_of(w)
        free = CITY_SPACES - (me["city_used"] if me else 0)
        return "why.no_city_space", {"building": building,
                                     "size": 1 if entry is None else entry["size"],
                                     "free": free, "total": CITY_SPACES}
    if code == "not_enough_doubloons":
        return "why.not_enough_doubloons", {"building": building,
                                            "price": chooser_of(w).price(name),
                                            "have": doubloons(w)}
    return f"why.{code}", {"building": building}


def ship_refusal(w: Refusing, rest: str) -> tuple[str, dict[str, Any]]:
    good, _, index = rest.partition(".")
    ships = chooser_of(w).view["ships"]
    number = int(index) if index.isdigit() else -1
    ship: Ship | None = ships[number] if 0 <= number < len(ships) else None
    fields: dict[str, Any] = {"good": chooser_of(w).tile(good), "ship": number + 1,
                              "count": 0 if ship is None else ship["count"],
                              "capacity": 0 if ship is None else ship["capacity"]}
    other_good = None if ship is None else ship["good"]
    if other_good and other_good != good:
        return "why.ship_other_good", {**fields, "other": chooser_of(w).tile(other_good)}
    if ship and fields["count"] >= fields["capacity"]:
        return "why.ship_full", fields
    for other, entry in enumerate(ships):
        if other != number and entry["good"] == good:
            return "why.ship_elsewhere", {**fields, "other": other + 1}
    return "illegal.ship_not_allowed", {}


def circle_refusal(w: Refusing, place: str) -> tuple[str, dict[str, Any]]:
    entry = building_of(w, place)
    if entry is not None or place in chooser_of(w).market:
        slot = chooser_of(w).building(place)
        if entry is None:
            return "why.no_such_place", {"slot": slot}
        return "why.no_free_circle", {"slot": slot, "taken": entry["colonists"],
                                      "total": entry["circles"]}
    tiles = [t for t in island_of(w) if t["tile"] == place]
    fields = {"tile": chooser_of(w).tile(place), "total": len(tiles),
              "taken": sum(1 for t in tiles if t["occupied"])}
    quarry = place == "quarry"
    if not tiles:
        return ("why.no_quarry" if quarry else "why.no_such_tile"), fields
    return ("why.no_free_quarry" if quarry else "why.no_free_tile"), fields
