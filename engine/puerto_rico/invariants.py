"""What the rules conserve: every component is somewhere, nothing is negative.  Used by
``simulate --check``, the property tests and ``load`` (a corrupted save fails these)."""

from __future__ import annotations

from . import actions as A
from .actions import CATALOG
from .data import (
    CITY_SPACES,
    DOUBLOONS_TOTAL,
    GOODS_TOTAL,
    ISLAND_SPACES,
    NGOODS,
    PLANTATIONS_TOTAL,
    QUARRY,
    TRADING_HOUSE_CAPACITY,
)
from .legality import city_used
from .ruleset import Ruleset
from .state import (
    GAME_OVER,
    STEP_KEEP,
    State,
)


def counts_fingerprint(s: State) -> dict[str, int]:
    """Totals that the rules conserve (used by --check and by load validation)."""
    total_colonists = s.colonist_supply + s.colonist_ship + sum(p.colonists() for p in s.players)
    total_goods = (
        sum(s.goods) + sum(sum(p.goods) for p in s.players) + sum(s.ship_load) + len(s.house)
    )
    total_plantations = (
        sum(s.deck)
        + sum(s.discard)
        + len(s.face_up)
        + sum(sum(p.tiles[:QUARRY]) for p in s.players)
    )
    return {
        "doubloons": s.bank + sum(s.card_doubloons) + sum(p.doubloons for p in s.players),
        "colonists": total_colonists,
        "goods": total_goods,
        "vp": s.vp_supply + sum(p.vp for p in s.players),
        "plantations": total_plantations,
        "quarries": s.quarries + sum(p.tiles[QUARRY] for p in s.players),
        "buildings": sum(s.market) + sum(len(p.city) for p in s.players),
    }


def expected_totals(s: State) -> dict[str, int]:
    rs: Ruleset = s.rs
    row = rs.row
    n = s.n
    return {
        "doubloons": DOUBLOONS_TOTAL,
        "colonists": row.colonist_supply + row.colonist_ship,
        "goods": sum(GOODS_TOTAL) - NGOODS * row.goods_removed,
        "vp": rs.edition.vp_chips[n],
        "plantations": sum(PLANTATIONS_TOTAL) - NGOODS * row.plantations_removed,
        "quarries": row.quarries,
        "buildings": sum(
            CATALOG[b].copies_2p if n == 2 else CATALOG[b].copies for b in rs.buildings
        ),
    }


# ----------------------------------------------------------------------------------------------
# Prompt and legality
# ----------------------------------------------------------------------------------------------


def invariant_failures(s: State) -> list[str]:
    """Every broken invariant: conservation of each component, no negative count, structure in
    range.  Empty for every reachable state."""
    out: list[str] = []
    rs: Ruleset = s.rs
    n = s.n
    if n != rs.n:
        return ["player_count"]
    got = counts_fingerprint(s)
    for key, value in expected_totals(s).items():
        if got[key] != value:
            out.append(f"conservation:{key}:{got[key]}!={value}")
    if len(s.players) != n or len(s.pending) != n:
        out.append("players")
    scalars = (s.colonist_supply, s.colonist_ship, s.quarries, s.no_load, s.picks, s.turns_taken)
    if min(scalars) < 0:
        out.append("negative_counter")
    lists = (s.deck, s.discard, s.market, s.goods, s.ship_load, s.card_doubloons)
    if any(v < 0 for values in lists for v in values):
        out.append("negative_count")
    if len(s.cards) != len(rs.row.roles) or len(s.card_taken) != len(s.cards):
        out.append("role_cards")
    if len(s.ship_cap) != len(rs.row.ships) or len(s.ship_kind) != len(s.ship_cap):
        out.append("ships")
    for i, cap in enumerate(s.ship_cap):
        load, kind = s.ship_load[i], s.ship_kind[i]
        if load > cap or (kind < 0) != (load == 0) or kind >= NGOODS:
            out.append(f"ship:{i}")
    kinds = [k for k in s.ship_kind if k >= 0]
    if len(kinds) != len(set(kinds)):
        out.append("ship_kind_twice")
    if len(s.house) > TRADING_HOUSE_CAPACITY or any(not 0 <= g < NGOODS for g in s.house):
        out.append("trading_house")
    if len(s.face_up) > n + 1 or any(not 0 <= t < NGOODS for t in s.face_up):
        out.append("face_up")
    if not 0 <= s.governor < n or not 0 <= s.turn < n or s.chooser >= n:
        out.append("seat_range")
    if s.phase not in (0, 1, 2, 3, 4, 5, 6, GAME_OVER) or not 0 <= s.step <= STEP_KEEP:
        out.append("phase")
    for seat, p in enumerate(s.players):
        if p.doubloons < 0 or p.vp < 0 or p.san_juan < 0:
            out.append(f"player:{seat}:negative")
        if any(g < 0 for g in p.goods) or any(t < 0 for t in p.tiles):
            out.append(f"player:{seat}:negative_goods")
        if any(w < 0 or w > t for w, t in zip(p.workers, p.tiles, strict=True)):
            out.append(f"player:{seat}:workers")
        if sum(p.tiles) > ISLAND_SPACES or city_used(p) > CITY_SPACES:
            out.append(f"player:{seat}:spaces")
        for b in p.city:
            if b not in rs.buildings or p.bw[b] > A.CATALOG[b].circles:
                out.append(f"player:{seat}:building")
    for offer in s.offers:
        who, name = offer[0], offer[1]
        if name not in A.OFFERS or not isinstance(who, int) or not 0 <= who < n:
            out.append("offers")
    return out
