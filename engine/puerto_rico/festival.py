"""Expansion 4, the Festival (rules spec §13, rulings §14.4 A36; the seed [A], p. 18).

Three goals are set up at random before the game; each is achieved once, by the first player who
meets it, in any order.  The module is data plus handlers on the hook points ``island_gained``,
``produced`` and ``built`` (run after the buildings' handlers of the same point, Appendix C); no
role code names it.  Its state is ``State.festival`` (the goals) and ``State.festival_won``.

Order of setup: the goals are drawn in ``setup`` after the supplies are laid out and the starting
plantations dealt, before the first face-up plantations are turned up: plantation goal, then
production goal, then construction goal (the construction draw depends on the barrels).  The seed
says: with Expansion 1, choose the construction goal only after the Expansion 1 draft is finished
("no escojáis el edificio ... hasta que hayáis completado la preparación de la Expansión 1"), so
when the draft lands, ``_draw_construction_goal`` moves to the draft's end (the two other goals
stay here).  With 2 players the seed applies the Festival setup first, then the 2-player changes
("empezad aplicando esas reglas y luego las arriba mencionadas"): the engine removes the 2-player
barrels and plantations first, which gives the same counts (3 barrels of each kind are always
there to draw from; the goal tile is taken from stacks of at least 5).
"""

from __future__ import annotations

from typing import Final

from ..core import Event
from ..rng import below
from .actions import CATALOG
from .buildings import MODULE_SETUP, in_play, module_effect, owned_tiles
from .data import GOODS, NGOODS, TILES
from .ops import Events, gain_vp, pay
from .state import (
    FEST_BUILDING,
    FEST_CONSTRUCTION_GOAL,
    FEST_GOODS,
    FEST_PLANTATION_GOAL,
    FEST_PRODUCTION_GOAL,
    FEST_TILE,
    FESTIVAL_GOALS,
    State,
)

MODULE: Final = "festival"
GOAL_BARRELS_PER_KIND: Final = 3  # §13: 3 barrels of each kind are mixed, 3 drawn
GOAL_BARRELS: Final = 3
GOAL_PLANTATIONS: Final = 3  # §13: three plantations of the shown kind
REWARD_COLONISTS: Final = 3
REWARD_DOUBLOONS: Final = 3
REWARD_VP: Final = 3
GOAL_COLUMN: Final = 3  # §13: the buildings worth 3 VP (the third column)


def construction_candidates(s: State, goods: list[int]) -> list[int]:
    """§13: one of each column-3 building in play, minus the production buildings that process a
    kind shown in the production goal; in catalog order.  1897 (X4-3, A-16): the 3-VP
    commercial buildings in play of which the tray holds two copies (with 2 players, none: the
    building goal is left out)."""
    if s.rs.edition.festival_1897:
        copies = s.rs.copies
        return [b for b in in_play(s) if CATALOG[b].violet and CATALOG[b].vp == 3 and copies[b] > 1]
    return [
        b
        for b in in_play(s)
        if CATALOG[b].column == GOAL_COLUMN
        and not (CATALOG[b].production and CATALOG[b].good in goods)
    ]


def setup_festival(s: State, ev: Events) -> None:
    # Plantation goal: one tile of each kind, face down, one drawn (each kind equally likely);
    # the drawn tile leaves the stacks until the goal is achieved.
    s.rng, tile = below(s.rng, NGOODS)
    s.deck[tile] -= 1
    # Production goal: 3 barrels of each kind mixed, 3 drawn without putting back (duplicates
    # possible); they are out of the supply until the goal is achieved.
    bag = [GOAL_BARRELS_PER_KIND] * NGOODS
    goods: list[int] = []
    for _ in range(GOAL_BARRELS):
        s.rng, pick = below(s.rng, sum(bag))
        for kind, count in enumerate(bag):
            if pick < count:
                bag[kind] -= 1
                s.goods[kind] -= 1
                goods.append(kind)
                break
            pick -= count
    goods.sort()
    s.festival = [tile, -1, *goods]
    s.festival_won = [-1, -1, -1]
    if not any(s.draft_left):  # with the Exp. 1 draft still to play: at its end
        _draw_construction_goal(s, None)


@module_effect(MODULE, "draft_ended")
def _draw_construction_goal(s: State, ev: Events) -> None:
    """Construction goal: drawn from the candidates.  Ruling A36: the Festival tile stays one of
    the market's available copies (``market`` is not changed), so building it or any copy on
    the board achieves the goal."""
    candidates = construction_candidates(s, s.festival[FEST_GOODS])
    if not candidates:  # 1897 with 2 players: no building goal
        return
    s.rng, k = below(s.rng, len(candidates))
    s.festival[FEST_BUILDING] = candidates[k]
    if s.rs.edition.festival_1897:  # the tile leaves the tray until the goal is met
        s.market[candidates[k]] -= 1


MODULE_SETUP[MODULE] = setup_festival


def _achieved(s: State, seat: int, goal: int, ev: Events, **data: object) -> None:
    s.festival_won[goal] = seat
    if ev is not None:
        ev.append(Event("FestivalGoalAchieved", seat, {"goal": FESTIVAL_GOALS[goal], **data}))


@module_effect(MODULE, "island_gained")
def _plantation_goal(s: State, seat: int, tile: int, ev: Events) -> None:
    """§13 plantation goal: three plantations of the shown kind on the island (A36: occupied or
    not; checked whenever a plantation is gained, so the first in resolution order wins).
    Reward: 3 colonists from the supply (as many as are left) into San Juan; the goal tile goes
    to the plantation discards.  Appendix C puts the check after the Hospice; the Hospice's
    colonist is an offer decided after this check, so when the supply holds fewer than 4
    colonists the goal's colonists are taken first (the Hospice then falls back on the ship)."""
    goal_tile = s.festival[FEST_TILE]
    if (
        tile != goal_tile
        or s.festival_won[FEST_PLANTATION_GOAL] >= 0
        or owned_tiles(s, seat)[tile] < GOAL_PLANTATIONS
    ):
        return
    _achieved(s, seat, FEST_PLANTATION_GOAL, ev, tile=TILES[tile])
    fest_1897 = s.rs.edition.festival_1897
    if fest_1897:  # 1897 X4-1: back into the bag
        s.deck[goal_tile] += 1
    else:
        s.discard[goal_tile] += 1
    count = min(REWARD_COLONISTS, s.colonist_supply)
    s.colonist_supply -= count
    p = s.players[seat]
    p.san_juan += count
    if ev is not None and count:
        ev.append(
            Event(
                "ColonistGained",
                seat,
                {"target": "san_juan", "source": "supply", "by": "festival", "count": count},
            )
        )
    if fest_1897 and count:
        # 1897 X4 (an exception to REC-3): placed at once, on empty spaces or the portrait
        s.offers.append([seat, P_FESTIVAL_WORKERS, count])


@module_effect(MODULE, "produced")
def _production_goal(s: State, seat: int, received: list[int], ev: Events) -> None:
    """§13 production goal: the player's own production (A36: the Craftsman privilege barrel
    excluded) includes every barrel shown, duplicates counted ({indigo, indigo, coffee} needs 2
    indigo and 1 coffee).  Reward: 3 doubloons; the 3 barrels return to the supply."""
    if s.festival_won[FEST_PRODUCTION_GOAL] >= 0:
        return
    shown = s.festival[FEST_GOODS]
    for kind in set(shown):
        if received[kind] < shown.count(kind):
            return
    _achieved(s, seat, FEST_PRODUCTION_GOAL, ev, goods=[GOODS[k] for k in shown])
    for kind in shown:
        s.goods[kind] += 1
    pay(s, seat, REWARD_DOUBLOONS, "festival", ev)


@module_effect(MODULE, "built")
def _construction_goal(s: State, seat: int, building: int, ev: Events) -> None:
    """§13 construction goal: building the shown building (A36: the Festival tile or any copy
    from the board).  Reward: 3 VP from the VP supply."""
    if building != s.festival[FEST_BUILDING] or s.festival_won[FEST_CONSTRUCTION_GOAL] >= 0:
        return
    _achieved(s, seat, FEST_CONSTRUCTION_GOAL, ev, building=CATALOG[building].name)
    if s.rs.edition.festival_1897:  # the Festival's tile goes back to the tray
        s.market[building] += 1
    gain_vp(s, seat, REWARD_VP, "festival", ev)


P_FESTIVAL_WORKERS: Final = "festival_workers"
"""1897 (X4): the offer placing the reward workers at once, decided by 1897's package
(``engine.puerto_rico_1897.festival_workers``, on the ``OFFER_*`` registries)."""


def goal_barrels_left(s: State) -> list[int]:
    """The barrels still on the Festival board, by kind (for conservation)."""
    out = [0] * NGOODS
    if s.festival and s.festival_won[FEST_PRODUCTION_GOAL] < 0:
        for kind in s.festival[FEST_GOODS]:
            out[kind] += 1
    return out


def reserved_tile(s: State) -> int:
    """1897 (A-16): the building goal's tile, off the tray until the goal is met (0 or 1)."""
    if not s.festival or not s.rs.edition.festival_1897:
        return 0
    return int(s.festival[FEST_BUILDING] >= 0 and s.festival_won[FEST_CONSTRUCTION_GOAL] < 0)


def goal_tiles_left(s: State) -> int:
    """The plantation tiles still on the Festival board (0 or 1, for conservation)."""
    return 1 if s.festival and s.festival_won[FEST_PLANTATION_GOAL] < 0 else 0
