"""Format 1 of 1897's own fields (issue #34), read by turning them into format 2 (its
modules' ``register_field``): the kernel's ``save_v1`` upgrades the rest and calls this through
``UPGRADES``.  Format 1 stored Activity and Achievement cards and Puertoma skills as indices
into the tables of its time: those tables are frozen here, copied as they were.  Nothing here
may ever change.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from ..core import CorruptState
from ..puerto_rico import save_v1 as v1

# The tables of format 1, in their order of the time (achievements.CARDS,
# festival_activities.ACTIVITIES, puertoma.SKILLS), frozen.
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


def _puertoma(raw: Any, phase: Any) -> dict[str, Any]:
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
        for g, good in enumerate(v1.GOODS):
            pair = b[2 * g:2 * g + 2]
            if pair != [-1, -1]:
                properties[good] = [None if w == -1 else w for w in pair]
        reserve = b[20]
        tally = b[21]
        boards.append({
            "properties": properties,
            "vp_quarries": b[10],
            "vp_workers": b[11],
            "skills": [[v1.name_at(SKILLS[level], b[12 + level], "puertoma"),
                        v1.name_at(SKILL_STATES, b[16 + level], "puertoma")] for level in range(4)],
            "reserve": "removed" if reserve == -2
            else v1.optional_at(v1.BUILDINGS, reserve, "puertoma"),
            "phase": v1.bits_of(v1.GOODS, tally, "puertoma") if phase == CRAFTSMAN_PHASE else tally,
            "citizens": b[22],
            "spaces": [v1.optional_at(v1.BUILDINGS, x, "puertoma") for x in b[23:31]],
            "third": v1.counts_of(v1.GOODS, b[31:36], "puertoma"),
        })
    return {
        "marker": v1.name_at(v1.ROLES, raw[0], "puertoma"),
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
            "card": v1.name_at(ACTIVITIES, r[0], "festival_activities"),
            "completed_by": r[1],
            "tiles": [v1.optional_at(v1.TILES, t, "festival_activities") for t in r[2:4]],
            "goods": [v1.optional_at(v1.GOODS, g, "festival_activities") for g in r[4:7]],
            "building": v1.optional_at(v1.BUILDINGS, r[7], "festival_activities"),
            "held": r[8] == 1,
        })
    n = len(v1.GOODS)
    if len(loads) % n:
        raise CorruptState("bad_length", field="activity_loads")
    return {"cards": cards,
            "loads": [v1.counts_of(v1.GOODS, loads[at:at + n], "activity_loads")
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
        name: [owner[c], v1.name_at(ACHIEVEMENT_STATUSES, status[c], "achievements")]
        for c, name in enumerate(ACHIEVEMENTS)
        if owner[c] != -1 or status[c] != 0
    }
    n = len(tally) // 2
    return {"cards": cards,
            "tally": {"vp": tally[:n],
                      "loaded": [v1.bits_of(v1.GOODS, mask, "achievements") for mask in tally[n:]]}}


def _upgrade(data: Mapping[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if "puertoma" in data:
        out["puertoma"] = _puertoma(data["puertoma"], data["phase"])
    if "festival_activities" in data:
        out["festival_activities"] = _activities(data)
    if "achievement_owner" in data:
        out["achievements"] = _achievements(data)
    return out


KEYS: Final = frozenset({
    "puertoma", "festival_activities", "activity_loads", "achievement_owner",
    "achievement_status", "achievement_tally",
})
"""Format 1's keys of 1897's own fields (format 2 writes them otherwise)."""
v1.UPGRADES.append((KEYS, _upgrade))
