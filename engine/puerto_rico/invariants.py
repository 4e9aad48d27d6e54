"""What the rules conserve: every component is somewhere, nothing is negative.  Used by
``simulate --check``, the property tests and ``load`` (a corrupted save fails these)."""

from __future__ import annotations

from typing import Final

from . import actions as A
from .buildings import FOREST_TILE, OFFER_CHECK, in_play
from .data import (
    BUCCANEER,
    BUILDER,
    CAPTAIN,
    CITY_SPACES,
    CRAFTSMAN,
    GOODS_TOTAL,
    ISLAND_SPACES,
    MAYOR,
    NGOODS,
    PLANTATIONS_TOTAL,
    PROSPECTOR,
    QUARRY,
    SETTLER,
    TRADER,
    TRADING_HOUSE_CAPACITY,
)
from .extensions import FAILURES, HELD
from .festival import (
    construction_candidates,
    goal_barrels_left,
    goal_tiles_left,
    reserved_tile,
)
from .legality import city_used, current_prompt, legal
from .nobles import board_nobles, colonists_total, nobles_failures
from .ruleset import Ruleset
from .state import (
    ACHIEVEMENT_DRAFT_PHASE,
    BUC_CAPTOR,
    BUC_CAPTURED,
    BUC_RAID,
    BUC_TOKEN,
    BUCCANEER_PHASE,
    BUILDER_PHASE,
    CAPTAIN_PHASE,
    CRAFTSMAN_PHASE,
    DRAFT_PHASE,
    FEST_BUILDING,
    FEST_CONSTRUCTION_GOAL,
    FEST_GOODS,
    FEST_TILE,
    GAME_OVER,
    MAYOR_PHASE,
    NOB_RAID,
    PROSPECTOR_PHASE,
    ROLE_SELECTION,
    SETTLER_PHASE,
    STEP_ARRANGE,
    STEP_INTERLUDE,
    STEP_KEEP,
    STEP_PRIVILEGE,
    STEP_RAID,
    STEP_TURN,
    TRADER_PHASE,
    Player,
    State,
)

# the steps each phase can be in
_PHASE_STEPS: Final = {
    ROLE_SELECTION: (STEP_TURN,),
    SETTLER_PHASE: (STEP_TURN, STEP_INTERLUDE),
    MAYOR_PHASE: (STEP_PRIVILEGE, STEP_ARRANGE),
    BUILDER_PHASE: (STEP_TURN, STEP_INTERLUDE),
    CRAFTSMAN_PHASE: (STEP_PRIVILEGE, STEP_INTERLUDE, STEP_TURN),  # 1897: production
    TRADER_PHASE: (STEP_TURN, STEP_INTERLUDE),
    CAPTAIN_PHASE: (STEP_TURN, STEP_KEEP, STEP_INTERLUDE),
    PROSPECTOR_PHASE: (STEP_INTERLUDE,),  # Exp. 1: only while guests may move
    BUCCANEER_PHASE: (STEP_TURN, STEP_RAID, STEP_INTERLUDE),
    DRAFT_PHASE: (STEP_TURN,),
    ACHIEVEMENT_DRAFT_PHASE: (STEP_TURN,),  # 1897 Exp. VI (X6-2)
    GAME_OVER: (STEP_TURN,),
}
# the role each phase resolves (-1: none)
_PHASE_ROLE: Final = {
    ROLE_SELECTION: -1,
    SETTLER_PHASE: SETTLER,
    MAYOR_PHASE: MAYOR,
    BUILDER_PHASE: BUILDER,
    CRAFTSMAN_PHASE: CRAFTSMAN,
    TRADER_PHASE: TRADER,
    CAPTAIN_PHASE: CAPTAIN,
    BUCCANEER_PHASE: BUCCANEER,
    PROSPECTOR_PHASE: PROSPECTOR,
    DRAFT_PHASE: -1,
    ACHIEVEMENT_DRAFT_PHASE: -1,
    GAME_OVER: -1,
}


def counts_fingerprint(s: State) -> dict[str, int]:
    """Totals that the rules conserve (used by --check and by load validation)."""
    total_colonists = (
        s.colonist_supply
        + s.colonist_ship
        + sum(p.colonists() for p in s.players)
        + (s.buccaneer[BUC_RAID] if s.buccaneer else 0)
        + s.colonists_out
    )
    if s.nobles:  # Exp. 2: the pieces counted above include the nobles (nobles_failures)
        total_colonists -= sum(board_nobles(p) for p in s.players) + s.nobles[NOB_RAID]
    total_goods = (
        sum(s.goods)
        + sum(sum(p.goods) for p in s.players)
        + sum(s.ship_load)
        + sum(s.wharf_cargo)
        + len(s.house)
        + sum(goal_barrels_left(s))
    )
    total_plantations = (
        goal_tiles_left(s)
        + sum(s.deck)
        + sum(s.discard)
        + len(s.face_up)
        + sum(sum(p.tiles[:QUARRY]) + sum(p.forests) for p in s.players)
    )
    totals = {
        "doubloons": s.bank + sum(s.card_doubloons) + sum(p.doubloons for p in s.players),
        "colonists": total_colonists,
        "goods": total_goods,
        "vp": s.vp_supply + sum(p.vp for p in s.players),
        "plantations": total_plantations,
        "quarries": s.quarries + sum(p.tiles[QUARRY] for p in s.players),
        "buildings": sum(s.market) + sum(len(p.city) for p in s.players) + reserved_tile(s),
    }
    for held in HELD:  # the pieces an edition's own parts hold (1897: Exp. V's cards, §8)
        for key, count in held(s).items():
            totals[key] += count
    return totals


def expected_totals(s: State) -> dict[str, int]:
    rs: Ruleset = s.rs
    row = rs.row
    n = s.n
    colonists = row.colonist_supply + row.colonist_ship
    if "nobles" in rs.modules:  # Exp. 2: all 100 colonists (A20: 41 with 2 players)
        colonists = colonists_total(rs)
    return {
        "doubloons": rs.edition.doubloons,
        "colonists": colonists,
        "goods": sum(GOODS_TOTAL) - NGOODS * row.goods_removed,
        "vp": rs.edition.vp_chips[n],
        "plantations": sum(PLANTATIONS_TOTAL) - NGOODS * row.plantations_removed,
        "quarries": row.quarries,
        "buildings": sum(rs.copies[b] for b in in_play(s)),
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
    if (
        s.cards != list(rs.cards)
        or len(s.card_taken) != len(s.cards)
        or len(s.card_doubloons) != len(s.cards)
        or any(not -1 <= t < n for t in s.card_taken)
    ):
        out.append("role_cards")
    if s.ship_cap != list(rs.row.ships) or len(s.ship_kind) != len(s.ship_cap):
        out.append("ships")
    if len(s.ship_load) != len(s.ship_cap) or len(s.market) != len(A.CATALOG):
        out.append("lengths")
    if len(s.deck) != len(s.discard) or len(s.goods) != len(s.deck):
        out.append("lengths")
    for i, cap in enumerate(s.ship_cap):
        load, kind = s.ship_load[i], s.ship_kind[i]
        if load > cap or (kind < 0) != (load == 0) or kind >= NGOODS:
            out.append(f"ship:{i}")
    kinds = [k for k in s.ship_kind if k >= 0]
    if len(kinds) != len(set(kinds)):
        out.append("ship_kind_twice")
    # 1897: the Wharves' barrels exist with the rule only, and only in the Captain phase
    if s.chooser_crates and (len(s.chooser_crates) != NGOODS or s.phase != CRAFTSMAN_PHASE):
        out.append("chooser_crates")  # 1897: the Craftsman's crates, in his phase only
    if s.colonists_out < 0 or (s.colonists_out and not rs.raid_discards):
        out.append("colonists_out")  # 1897: only a Raid's discarded surplus
    cargo = s.wharf_cargo
    if (
        len(cargo) != (NGOODS if rs.wharf_holds_cargo else 0)
        or min(cargo, default=0) < 0
        or (any(cargo) and s.phase != CAPTAIN_PHASE)
    ):
        out.append("wharf_cargo")
    if len(s.house) > TRADING_HOUSE_CAPACITY or any(not 0 <= g < NGOODS for g in s.house):
        out.append("trading_house")
    if len(s.face_up) > n + 1 or any(not 0 <= t < NGOODS for t in s.face_up):
        out.append("face_up")
    if not 0 <= s.governor < n or not 0 <= s.turn < n or not -1 <= s.chooser < n:
        out.append("seat_range")
    if not -1 <= s.card < len(s.cards) or not 0 <= s.picks <= rs.picks_per_round:
        out.append("role_range")
    if s.step not in _PHASE_STEPS.get(s.phase, ()):
        out.append("phase")
    # Exp. 1: the draft lasts exactly while the board has an empty violet space
    if s.draft_left and (s.phase == DRAFT_PHASE) != any(s.draft_left):
        out.append("draft")
    if bool(s.draft_left) != rs.draft or min(s.draft_left, default=0) < 0:
        out.append("draft")
    elif _PHASE_ROLE[s.phase] >= 0 and (
        not 0 <= s.card < len(s.cards)
        or s.cards[s.card] != _PHASE_ROLE[s.phase]
        or s.card_taken[s.card] != s.chooser
        or not 0 <= s.chooser < n
    ):
        out.append("phase_role")
    playing = set(in_play(s))
    for seat, p in enumerate(s.players):
        if p.doubloons < 0 or p.vp < 0 or p.san_juan < 0:
            out.append(f"player:{seat}:negative")
        if any(g < 0 for g in p.goods) or any(t < 0 for t in p.tiles) or min(p.forests) < 0:
            out.append(f"player:{seat}:negative_goods")
        if any(w < 0 or w > t for w, t in zip(p.workers, p.tiles, strict=True)):
            out.append(f"player:{seat}:workers")
        if p.island() > ISLAND_SPACES or city_used(p) > CITY_SPACES:
            out.append(f"player:{seat}:spaces")
        for b in p.city:
            if b not in playing or p.bw[b] > A.CATALOG[b].circles:
                out.append(f"player:{seat}:building")
    out.extend(_festival_failures(s))
    for failures in FAILURES:  # an edition's own parts (1897: Exp. V, VI)
        out.extend(failures(s))
    out.extend(_buccaneer_failures(s))
    out.extend(nobles_failures(s, s.buccaneer[BUC_RAID] if s.buccaneer else 0))
    for offer in s.offers:
        who, name, arg = offer
        check = OFFER_CHECK.get(str(name))  # a module's decision (Exp. 2)
        if (name not in A.OFFERS and check is None) or not isinstance(who, int) or not 0 <= who < n:
            out.append("offers")
        elif not isinstance(arg, int) or not (
            check(s, who, arg) if check else _offer_target_ok(s.players[who], str(name), arg)
        ):
            out.append("offer_target")
    if not out and not s.over:
        out.extend(_playable(s))
    return out


def _festival_failures(s: State) -> list[str]:
    """Exp. 4: the goals exist exactly with the module, each a legal draw of §13, each won at
    most once by a seat; a won construction goal's winner owns the building."""
    if not s.rs.festival:
        return [] if not s.festival and not s.festival_won else ["festival:not_in_play"]
    if len(s.festival) != 5 or len(s.festival_won) != 3:
        return ["festival:shape"]
    tile, building, goods = s.festival[FEST_TILE], s.festival[FEST_BUILDING], s.festival[FEST_GOODS]
    if not 0 <= tile < NGOODS or any(not 0 <= g < NGOODS for g in goods) or goods != sorted(goods):
        return ["festival:goals"]
    drafting = s.phase == DRAFT_PHASE  # Exp. 1: the construction goal waits for the draft
    candidates = construction_candidates(s, goods)
    # (1897 with 2 players: no candidate, no building goal, A-16)
    drawn_ok = building in candidates if candidates else building == -1
    if (building != -1) if drafting else not drawn_ok:
        return ["festival:building"]
    if any(not -1 <= w < s.n for w in s.festival_won):
        return ["festival:winner"]
    won = s.festival_won[FEST_CONSTRUCTION_GOAL]
    if won >= 0 and s.players[won].bw[building] < 0:
        return ["festival:winner"]
    return []


def _buccaneer_failures(s: State) -> list[str]:
    """Exp. 3: the token held by a seat or on the card; a capture names an unused-or-taken card
    and its captor; Raid colonists only while they are being placed; never a doubloon on the
    Buccaneer card (§12)."""
    if BUCCANEER not in s.rs.cards:
        return [] if not s.buccaneer else ["buccaneer:not_in_play"]
    b = s.buccaneer
    if len(b) != 4:
        return ["buccaneer:shape"]
    out = []
    if not -1 <= b[BUC_TOKEN] < s.n:
        out.append("buccaneer:token")
    if (
        (b[BUC_CAPTURED] < 0) != (b[BUC_CAPTOR] < 0)
        or not (-1 <= b[BUC_CAPTURED] < len(s.cards) and -1 <= b[BUC_CAPTOR] < s.n)
        or (b[BUC_CAPTURED] >= 0 and s.cards[b[BUC_CAPTURED]] == BUCCANEER)
    ):
        out.append("buccaneer:capture")
    if b[BUC_RAID] < 0 or (b[BUC_RAID] > 0) != (s.step == STEP_RAID):
        out.append("buccaneer:raid")
    if any(s.card_doubloons[c] for c, role in enumerate(s.cards) if role == BUCCANEER):
        out.append("buccaneer:doubloons")
    return out


def _offer_target_ok(p: Player, name: str, arg: int) -> bool:
    """A Hospice offer names a tile kind with a free place (or, Exp. 1, a forest: San Juan), a
    University offer an owned building with a free circle (the tile or building just placed),
    an Exp. 1 forest offer a plantation kind on the island (the tile just drawn)."""
    if name == "hospice":
        if arg == FOREST_TILE:
            return any(p.forests)
        return 0 <= arg < len(p.tiles) and p.tiles[arg] > p.workers[arg]
    if name == "forest":
        return 0 <= arg < NGOODS and p.tiles[arg] > p.workers[arg]
    return 0 <= arg < len(p.bw) and 0 <= p.bw[arg] < A.CATALOG[arg].circles


def _playable(s: State) -> list[str]:
    """A state that is not over must prompt at least one seat, each with a legal action."""
    try:
        prompt = current_prompt(s)
        if prompt is None or not prompt.seats:
            return ["no_prompt"]
        if any(not legal(s, seat) for seat in prompt.seats):
            return ["prompted_seat_without_action"]
    except (IndexError, KeyError, ValueError, StopIteration, AssertionError, TypeError):
        return ["unplayable"]
    return []
