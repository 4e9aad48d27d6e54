"""San Juan views written by hand, in the engine's view contract (``SanJuanView``, every key:
mypy checks them): a quiet start, a crowded mid-game (every area full, covered piles, Chapels,
goods, new buildings, the Gold mine's cards on the table, a big hand) and finished games'
outcomes."""

from __future__ import annotations

import copy

from engine.core import OutcomeJSON, ScoreLineJSON
from engine.san_juan.view import Building, SanJuanView, Seat
from render.san_juan.cards import KINDS

ROLES = ("builder", "producer", "trader", "councillor", "prospector")
PRICES = {1: (1, 1, 1, 2, 2), 2: (1, 1, 2, 2, 2), 3: (1, 1, 2, 2, 3), 4: (1, 2, 2, 2, 3),
          5: (1, 2, 2, 3, 3)}
GOODS = ("indigo", "sugar", "tobacco", "coffee", "silver")

LONG_NAMES = [
    "Maximilian von Habsburg-Lothringen-Österreich 🎲🎲",
    "Zoë Ñúñez Çãó",
    "🎲🎲",
    "Bérénice d'Artagnan-Montmorency",
]

BIG_HAND = sorted([
    "palace", "palace", "guild_hall", "triumphal_arch", "victory_column", "silver_smelter",
    "silver_smelter", "coffee_roaster", "tobacco_storage", "black_market", "smithy", "market_hall",
    "prefecture", "library", "crane", "indigo_plant", "indigo_plant", "well", "aqueduct",
])
"""19 cards of 16 kinds (the view sends a hand sorted)."""

HAND_ONLY = ("palace", "guild_hall", "black_market", "market_hall", "prefecture", "library")
"""Kinds in seat 0's big hand that no area, Gold mine or other seat's hand of the crowded view
shows."""


def building(card: str, good: bool = False, active: bool = True,
             covered: tuple[str, ...] = ()) -> Building:
    return {"card": card, "good": good, "active": active, "covered": list(covered)}


def prices(tile: int) -> dict[str, int]:
    return dict(zip(GOODS, PRICES[tile], strict=True))


def seat(i: int, buildings: list[Building], hand: int = 4, chapel: int | None = None,
         vp: int | None = None) -> Seat:
    return {
        "seat": i,
        "hand": hand,
        "drawn": 0,
        "waiting": False,
        "buildings": buildings,
        "building_count": len(buildings),
        "goods": sum(1 for b in buildings if b["good"]),
        "chapel": chapel,
        "vp": len(buildings) if vp is None else vp,
        "library": False,
        "library_used": False,
    }


def start(players: int, viewer: int | None = None) -> SanJuanView:
    """Round 1, the Governor (seat 0) chooses the first role."""
    view: SanJuanView = {
        "game": "san-juan",
        "view_version": 1,
        "options": {"players": players, "variant_start": False, "councillor_draw": "clockwise"},
        "players": players,
        "viewer": viewer,
        "round": 1,
        "governor": 0,
        "phase": "role",
        "role": None,
        "roles": [{"name": r, "taken_by": None} for r in ROLES],
        "prompt": {"seats": [0], "kind": "role"},
        "done": [],
        "trading_house": {"face_up": None, "prices": None, "stack": 5, "revealed": []},
        "draw_pile": 110 - 5 * players,
        "discard_pile": 0,
        "gold_mine": None,
        "seats": [seat(i, [building("indigo_plant")], vp=1) for i in range(players)],
        "game_over": False,
        "end_reasons": [],
        "outcome": None,
    }
    if viewer is not None:
        view.update({"hand": ["archive", "chapel", "smithy", "sugar_mill"], "drawn": [],
                     "chapel_cards": 0, "chapel_names": [], "pending": None})
    return view


AREAS: list[list[Building]] = [
    [
        building("indigo_plant", good=True),
        building("sugar_mill", good=True),
        building("tobacco_storage"),
        building("coffee_roaster", good=True),
        building("silver_smelter", good=True),
        building("chapel"),
        building("statue", covered=("coffee_roaster",)),
        building("city_hall"),
        building("gold_mine"),
        building("crane"),
        building("hero", active=False),
        building("quarry"),
    ],
    [
        building("indigo_plant"),
        building("victory_column", covered=("chapel", "smithy")),
        building("triumphal_arch"),
        building("carpenter"),
        building("poor_house"),
        building("archive"),
        building("trading_post"),
        building("market_stand"),
        building("tower"),
        building("silver_smelter", good=True, active=False),
        building("crane"),
        building("sugar_mill", good=True),
    ],
    [
        building("indigo_plant", good=True),
        building("smithy"),
        building("tobacco_storage", good=True),
        building("aqueduct"),
        building("sugar_mill", good=True, covered=("chapel",)),
    ],
    [
        building("indigo_plant"),
        building("gold_mine"),
        building("coffee_roaster"),
        building("chapel"),
        building("tower", covered=("archive",)),
        building("crane"),
        building("silver_smelter"),
    ],
]


def crowded(players: int, viewer: int | None = None) -> SanJuanView:
    """Round 12, the Prospector's Gold mine turned four cards; seat 1 still to decide; full
    areas for seats 0 and 1, Chapels (one covered), a hand of 19 for seat 0, two-digit
    counts, a tile face up."""
    view = start(players)
    view.update({
        "round": 12,
        "governor": 1 % players,
        "phase": "prospector",
        "role": {"name": "prospector", "chooser": 0, "library": False},
        "roles": [{"name": r, "taken_by": (k % players if k < players else None)}
                  for k, r in enumerate(ROLES)],
        "prompt": {"seats": [1], "kind": "gold_mine_take"},
        "done": [0],
        "trading_house": {"face_up": 4, "prices": prices(4), "stack": 4,
                          "revealed": [2, 5, 1, 4]},
        "draw_pile": 38,
        "discard_pile": 27,
        "gold_mine": {"seat": 1,
                      "cards": ["quarry", "smithy", "tobacco_storage", "silver_smelter"]},
    })
    hands = [19, 13, 7, 0]
    vps = [35, 28, 6, 12]
    seats = []
    for i in range(players):
        chapel: int | None = None
        if i == viewer:
            chapel = 3 if any(b["card"] == "chapel" or "chapel" in b["covered"]
                              for b in AREAS[i]) else 0
        seats.append(seat(i, copy.deepcopy(AREAS[i]), hand=hands[i], chapel=chapel, vp=vps[i]))
    view["seats"] = seats
    view["viewer"] = viewer
    if viewer is not None:
        hand = BIG_HAND if viewer == 0 else sorted(["well", "archive", "hero", "sugar_mill"][
            : hands[viewer]])
        seats[viewer]["hand"] = len(hand)
        chapel = seats[viewer]["chapel"] or 0
        view.update({"hand": list(hand), "drawn": [], "chapel_cards": chapel,
                     "chapel_names": BIG_HAND[:chapel], "pending": None})
    return view


def councillor(players: int, viewer: int) -> SanJuanView:
    """Seat ``viewer`` chose the Councillor: five cards drawn, one to keep."""
    view = crowded(players, viewer)
    view.update({"phase": "councillor",
                 "role": {"name": "councillor", "chooser": viewer, "library": False},
                 "prompt": {"seats": list(range(players)), "kind": "councillor"}, "done": [],
                 "gold_mine": None})
    view["drawn"] = ["palace", "well", "indigo_plant", "hero", "coffee_roaster"]
    view["pending"] = {"decision": "councillor", "archive": False, "keep": 1, "drawn": 5}
    for seat in view["seats"]:
        seat["drawn"] = 5 if seat["seat"] == viewer else 2
    return view


def every_kind(viewer: int = 0) -> SanJuanView:
    """Seat 0 holds one card of each of the 29 kinds (the widest hand of distinct cards)."""
    view = crowded(4, viewer)
    view["hand"] = sorted(KINDS)
    view["seats"][viewer]["hand"] = len(KINDS)
    return view


def doubles(viewer: int = 0) -> SanJuanView:
    """Seat ``viewer`` holds two cards of each of the 29 kinds (every card with its ×2)."""
    view = crowded(4, viewer)
    view["hand"] = sorted([*KINDS, *KINDS])
    view["seats"][viewer]["hand"] = len(view["hand"])
    return view


def outcome(players: int, shared: bool = False) -> OutcomeJSON:
    """A finished game's outcome: every part of the score, two winners when ``shared``."""
    scores: list[ScoreLineJSON] = []
    parts = [
        {"buildings": 19, "chapel": 5, "guild_hall": 8, "city_hall": 8, "triumphal_arch": 6,
         "palace": 11},
        {"buildings": 24, "chapel": 0, "city_hall": 9},
        {"buildings": 30, "chapel": 2},
        {"buildings": 12, "chapel": 0, "triumphal_arch": 4},
    ]
    for i in range(players):
        breakdown = parts[i]
        scores.append({"seat": i, "breakdown": breakdown, "total": sum(breakdown.values()),
                       "tiebreak": 3 + i, "rank": 0})
    if shared:
        scores[1]["breakdown"] = {"buildings": 48, "chapel": 9}
        scores[1]["total"] = 57
        scores[1]["tiebreak"] = scores[0]["tiebreak"]
    order = sorted(scores, key=lambda s: (-s["total"], -s["tiebreak"]))
    for s in scores:
        s["rank"] = 1 + sum(1 for o in order if (o["total"], o["tiebreak"]) >
                            (s["total"], s["tiebreak"]))
    winners = [s["seat"] for s in scores if s["rank"] == 1]
    return {"scores": scores, "winners": winners, "end_reasons": ["twelve_buildings"]}
