"""What a person may see of a game: ``view(state, viewer)``.

The public view (``viewer=None``) hides every player's VP chips (kept face down, [C]) and
everything random that is still to come (the generator state, the order of the face-down
plantations); it shows their counts.  A seat view adds that seat's own chips and the price of
each building after that seat's discounts.  An edition's own parts (``extensions.VIEW_PARTS``)
decide what they show (1897's Expansion VI: the Achievement cards face down, but a seat's
own).  The JSON shape is documented in ``docs/view.md``.
"""

from __future__ import annotations

from typing import Any, Final

from .actions import CATALOG
from .buccaneer import view_part as _buccaneer
from .buildings import in_play
from .data import ALL_ROLES, GOODS, NGOODS, NTILES, TILES, TRADING_HOUSE_CAPACITY
from .extensions import VIEW_PARTS
from .legality import city_used, current_prompt, price
from .new_buildings import draft_view
from .nobles import view_part as _nobles
from .nobles import view_players as _noble_places
from .scoring import final_scores
from .state import BUILDER_PHASE, FEST_BUILDING, FEST_GOODS, FEST_TILE, PHASE_NAMES, State

VIEW_VERSION: Final = 1


def _goods(values: list[int]) -> dict[str, int]:
    return {GOODS[k]: values[k] for k in range(NGOODS)}


def _festival(s: State) -> dict[str, Any] | None:
    """Exp. 4: the three goals on the Festival board (public) and the seat that achieved each
    (``None`` while open); ``None`` without the module."""
    if not s.festival:
        return None
    won = [None if w < 0 else w for w in s.festival_won]
    return {
        "plantation": {"tile": TILES[s.festival[FEST_TILE]], "achieved_by": won[0]},
        "production": {
            "goods": [GOODS[g] for g in s.festival[FEST_GOODS]],
            "achieved_by": won[1],
        },
        "construction": {
            # drawn when an Exp. 1 draft ends (-1 until then): no building yet
            "building": None
            if s.festival[FEST_BUILDING] < 0
            else CATALOG[s.festival[FEST_BUILDING]].name,
            "achieved_by": won[2],
        },
    }


def view(s: State, viewer: int | None) -> dict[str, Any]:
    if viewer is not None and not (isinstance(viewer, int) and 0 <= viewer < s.n):
        raise ValueError(f"no seat {viewer!r}")
    prompt = current_prompt(s)
    rs = s.rs
    roles = []
    for card, role in enumerate(s.cards):
        taken = s.card_taken[card]
        roles.append(
            {
                "card": rs.card_actions[card].code[2:],
                "role": ALL_ROLES[role],
                "doubloons": s.card_doubloons[card],
                "taken_by": None if taken < 0 else taken,
            }
        )
    market = []
    for b in in_play(s):
        building = CATALOG[b]
        entry: dict[str, Any] = {
            "building": building.name,
            "left": s.market[b],
            "cost": rs.cost[b],  # the game's (1897's Cost Swap, §9.3), not the printed one
            "vp": building.vp,
            "column": building.column,
            "circles": building.circles,
            "size": building.size,
            "kind": building.kind,
            "good": None if building.good is None else GOODS[building.good],
        }
        if viewer is not None:
            # ruling: the Builder privilege counts only during the Builder phase
            entry["price"] = price(s, viewer, b)
        market.append(entry)
    players = []
    for seat, p in enumerate(s.players):
        island = []
        for kind in range(NTILES):
            for i in range(p.tiles[kind]):
                island.append({"tile": TILES[kind], "occupied": i < p.workers[kind]})
        # Exp. 1: forests (face down: which plantation lies under one is not shown)
        island.extend({"tile": "forest", "occupied": False} for _ in range(sum(p.forests)))
        city = [
            {
                "building": CATALOG[b].name,
                "colonists": p.bw[b],
                "circles": CATALOG[b].circles,
                "size": CATALOG[b].size,
                "kind": CATALOG[b].kind,
                "vp": CATALOG[b].vp,
            }
            for b in p.city
        ]
        players.append(
            {
                "seat": seat,
                "doubloons": p.doubloons,
                "vp": p.vp if viewer == seat else None,
                "goods": _goods(p.goods),
                "san_juan": p.san_juan,
                "island": island,
                "island_used": p.island(),
                "city": city,
                "city_used": city_used(p),
                "colonists": p.colonists(),
                "is_governor": seat == s.governor,
            }
        )
    _noble_places(s, players)  # Exp. 2: each player's nobles (only with the module)
    out: dict[str, Any] = {
        "view_version": VIEW_VERSION,
        "game": s.game_name,
        "options": dict(s.options),
        "viewer": viewer,
        "players_count": s.n,
        "round": s.round,
        "governor": s.governor,
        "phase": PHASE_NAMES[s.phase],
        "chooser": None if s.chooser < 0 else s.chooser,
        "active_role": None if s.card < 0 else ALL_ROLES[s.cards[s.card]],
        "builder_phase": s.phase == BUILDER_PHASE,
        "prompt": None
        if prompt is None
        else {"seats": list(prompt.seats), "kind": prompt.kind, "forced": prompt.forced},
        "roles": roles,
        "colonists": {"ship": s.colonist_ship, "supply": s.colonist_supply},
        "vp_chips_left": max(0, s.vp_supply),
        "quarries_left": s.quarries,
        "face_up": [TILES[t] for t in s.face_up],
        "plantation_stack": sum(s.deck),
        "plantation_discard": sum(s.discard),
        "goods_supply": _goods(s.goods),
        "trading_house": [GOODS[g] for g in s.house],
        "trading_house_capacity": TRADING_HOUSE_CAPACITY,
        "ships": [
            {
                "capacity": cap,
                "good": None if s.ship_kind[i] < 0 else GOODS[s.ship_kind[i]],
                "count": s.ship_load[i],
            }
            for i, cap in enumerate(s.ship_cap)
        ],
        "market": market,
        "players": players,
        "festival": _festival(s),
        "buccaneer": _buccaneer(s),
        "draft": draft_view(s),
        "nobles": _nobles(s),
        "end_triggered": list(s.end_reasons),
        "game_over": s.over,
    }
    for key, part in VIEW_PARTS.items():  # an edition's own parts (1897: Exp. V, VI, §8)
        value = part(s, viewer)
        if value is not None:  # only in the games that have it: other views stay as they were
            out[key] = value
    if s.wharf_cargo:  # 1897: the Wharves' private ships' barrels, this Captain phase
        out["private_ships"] = _goods(s.wharf_cargo)
    if s.over:
        out["outcome"] = final_scores(s).to_json()
    return out
