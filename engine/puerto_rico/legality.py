"""Who must decide what, and the legal actions: the one source of legality.

``apply`` refuses anything not in ``legal``; the bot builds its buttons from it and the policies
choose from it.  ``check`` raises the specific error for an action that is not legal.
Section numbers (§) and ruling ids (A1-A55) refer to ``docs/rules/puerto-rico.md``; [C] is the
classic Spanish rulebook (the seed), which wins where the two disagree.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations, compress
from operator import ge, gt
from typing import Final

from ..core import GameOver, IllegalAction, NotYourTurn, Prompt
from . import actions as A
from .actions import CATALOG, Action
from .buildings import (
    ANYTIME_REFUSALS,
    MODULE_PHASES,
    OFFER_ACTION_KINDS,
    OFFER_LEGAL,
    in_play,
)
from .data import (
    CITY_SPACES,
    CORN,
    ISLAND_SPACES,
    NGOODS,
    NTILES,
    QUARRY,
    TRADE_PRICE,
    TRADING_HOUSE_CAPACITY,
)
from .ruleset import Ruleset
from .state import (
    BUILDER_PHASE,
    CAPTAIN_PHASE,
    CRAFTSMAN_PHASE,
    DRAFT_PHASE,
    F_CHOOSER_QUARRY,
    GAME_OVER,
    MAYOR_PHASE,
    ROLE_SELECTION,
    SETTLER_PHASE,
    STEP_ARRANGE,
    STEP_INTERLUDE,
    STEP_KEEP,
    STEP_PRIVILEGE,
    STEP_TURN,
    TRADER_PHASE,
    Player,
    State,
)

_CIRCLES: Final = [b.circles for b in CATALOG]
_SIZE: Final = [b.size for b in CATALOG]
_VIOLET: Final = [b.violet for b in CATALOG]
# the violet buildings' order of the suggested arrangement: the dearest first
_VIOLET_RANK: Final = [(-b.cost, i) for i, b in enumerate(CATALOG)]
_NEGATIVE: Final = (0).__gt__  # n -> n < 0

# prompt kinds; an offer's prompt kind is its name ("hospice", "university")
P_ROLE: Final = "role"
P_SETTLE: Final = "settle"
P_MAYOR_PRIVILEGE: Final = "mayor_privilege"
P_ARRANGE: Final = "arrange"
P_BUILD: Final = "build"
P_CRAFT_PRIVILEGE: Final = "craft_privilege"
P_PRODUCE: Final = "produce"  # 1897: take one's whole production, or decline it
P_SELL: Final = "sell"
P_SHIP: Final = "ship"
P_KEEP: Final = "keep"
P_INTERLUDE: Final = "interlude"  # Exp. 1: Guest House guests may move (a phase's start, storage)


def actor(s: State) -> int:
    """The first seat the prompt names (-1 when the game is over): the simulation fast path."""
    if s.phase == GAME_OVER:
        return -1
    if s.offers:
        return int(s.offers[0][0])
    step = s.step
    if step in (STEP_ARRANGE, STEP_KEEP, STEP_INTERLUDE):
        if step == STEP_ARRANGE and s.rs.sequential_mayor:
            return next(i for i in clockwise(s, s.chooser) if s.pending[i])
        return s.pending.index(True)
    module = MODULE_PHASES.get(s.phase)
    if module is not None and module.seats is not None:  # 1897 Exp. VI's draft
        return int(module.seats(s)[0])
    return s.turn


def current_prompt(s: State) -> Prompt | None:
    if s.phase == GAME_OVER:
        return None
    if s.offers:
        seat, name, _ = s.offers[0]
        # a base offer is accept-or-pass; a module's decision may be forced (one action)
        forced = str(name) in OFFER_LEGAL and _forced(s, int(seat))
        return Prompt((int(seat),), str(name), forced)
    if s.step in (STEP_ARRANGE, STEP_KEEP, STEP_INTERLUDE):
        kind = {STEP_ARRANGE: P_ARRANGE, STEP_KEEP: P_KEEP, STEP_INTERLUDE: P_INTERLUDE}[s.step]
        seats = tuple(i for i in range(s.n) if s.pending[i])
        if kind == P_ARRANGE and s.rs.sequential_mayor:
            seats = (next(i for i in clockwise(s, s.chooser) if s.pending[i]),)
        forced = len(seats) == 1 and _forced(s, seats[0])
        return Prompt(seats, kind, forced)
    module = MODULE_PHASES.get(s.phase)
    if module is not None and module.seats is not None:  # 1897 Exp. VI's draft: all at once
        seats = tuple(module.seats(s))
        return Prompt(seats, str(module.prompt_kind(s)), len(seats) == 1 and _forced(s, seats[0]))
    kind = _turn_kind(s)
    return Prompt((s.turn,), kind, _forced(s, s.turn))


def _forced(s: State, seat: int) -> bool:
    """The seat's decision has one action, and he cannot come to have an ``anytime`` one (1897
    Exp. VI: he holds no card face down, which everyone sees; whether a card is met is his
    secret, so ``forced`` does not depend on it)."""
    if len(turn_legal(s, seat)) != 1:
        return False
    return not any(fn(s, seat) for _, fn in s.rs.anytime_open)


def _turn_kind(s: State) -> str:
    phase = s.phase
    if phase == ROLE_SELECTION:
        return P_ROLE
    module = MODULE_PHASES.get(phase)
    if module is not None:
        return str(module.prompt_kind(s))
    if s.step == STEP_PRIVILEGE:
        return P_MAYOR_PRIVILEGE if phase == MAYOR_PHASE else P_CRAFT_PRIVILEGE
    if phase == CRAFTSMAN_PHASE:
        return P_PRODUCE
    return {
        SETTLER_PHASE: P_SETTLE,
        BUILDER_PHASE: P_BUILD,
        TRADER_PHASE: P_SELL,
        CAPTAIN_PHASE: P_SHIP,
    }[phase]


def legal(s: State, seat: int) -> list[Action]:
    """The legal actions of ``seat`` now (empty when it has nothing to decide): those of the
    decision the prompt asks of him, and the ones he may take at any moment (1897 Exp. VI:
    announcing an Achievement, prompted or not)."""
    out = _legal(s, seat)
    if s.rs.adds_actions:  # the hook points turn_extras and anytime (none in the base game)
        out = _with_anytime(s, seat, _with_turn_extras(s, seat, out))
    return out


def legal_fast(s: State, seat: int) -> list[Action]:
    """``legal`` for the simulation path (the caller must not change the list): the decision's
    own list is the one the last ``apply_unchecked`` computed on its way, when it did, or the
    one the last call computed (``State.legal_memo``); a module's actions are added to it."""
    memo = s.legal_memo
    if memo is not None and memo[0] == seat:
        out = memo[1]
    else:
        out = _legal(s, seat)
        s.legal_memo = (seat, out)
    if s.rs.adds_actions:  # the hook points turn_extras and anytime (none in the base game)
        out = _with_anytime(s, seat, _with_turn_extras(s, seat, out))
    return out


def _with_anytime(s: State, seat: int, out: list[Action]) -> list[Action]:
    """``out`` and the seat's actions of the hook point ``anytime``, unless the game is over."""
    listed = s.anytime_listed
    if listed is None:  # (read here without a call: this runs before every decision)
        listed = _list_anytime(s)
    if listed and s.phase != GAME_OVER:
        more = listed[seat]
        if more:
            out = [*out, *more]
    return out


def anytime_actions(s: State, seat: int) -> list[Action]:
    """The actions ``seat`` may take at any moment (hook point ``anytime``)."""
    listed = s.anytime_listed
    if listed is None:
        listed = _list_anytime(s)
    return list(listed[seat]) if listed else []


def _list_anytime(s: State) -> tuple[tuple[Action, ...], ...]:
    """By seat, the actions of the hook point ``anytime`` (() when no seat has one), kept in
    ``State.anytime_listed`` until a module says they changed (``anytime_changed``): asked
    before every decision, listed far less often."""
    hooks = s.rs.anytime
    by_seat = tuple(tuple(a for _, fn in hooks for a in fn(s, seat)) for seat in range(s.n))
    listed = by_seat if any(by_seat) else ()
    s.anytime_listed = listed
    return listed


def turn_legal(s: State, seat: int) -> list[Action]:
    """The legal actions of the decision the prompt asks of ``seat`` (empty when it asks him
    nothing)."""
    out = _legal(s, seat)
    if s.rs.turn_extras:
        out = _with_turn_extras(s, seat, out)
    return out


def _with_turn_extras(s: State, seat: int, out: list[Action]) -> list[Action]:
    """Exp. 1 Guest House (A30): the owner's moves before each of his own decisions, but not in
    the Mayor phase."""
    extras = s.rs.turn_extras
    if not out or not extras:
        return out
    bw = s.players[seat].bw
    if not any(bw[b] > 0 for b, _ in extras):
        return out
    if s.offers or s.phase in _NO_EXTRAS or s.step in (STEP_INTERLUDE, STEP_ARRANGE):
        return out
    out = out[:]
    for b, fn in extras:
        if bw[b] > 0:
            fn(s, seat, out)
    return out


def interlude_options(s: State, seat: int) -> list[Action]:
    out: list[Action] = []
    bw = s.players[seat].bw
    for b, fn in s.rs.hooks["interlude"]:
        if bw[b] > 0:
            fn(s, seat, out)
    return out


def _legal(s: State, seat: int) -> list[Action]:
    if s.phase == GAME_OVER:
        return []
    if s.offers:
        o_seat, name, arg = s.offers[0]
        if seat != o_seat:
            return []
        custom = OFFER_LEGAL.get(str(name))  # a module's decision with its own actions (Exp. 2)
        if custom is not None:
            return list(custom(s, seat, arg))
        return [A.OFFER_ACTIONS[str(name)], A.PASS_ACTION]
    step = s.step
    if step == STEP_ARRANGE:
        if not s.pending[seat]:
            return []
        if s.rs.sequential_mayor and seat != next(
            i for i in clockwise(s, s.chooser) if s.pending[i]
        ):
            return []
        return arrange_options(s, seat)
    if step == STEP_KEEP:
        return keep_options(s, seat) if s.pending[seat] else []
    if step == STEP_INTERLUDE:
        return [*interlude_options(s, seat), A.PASS_ACTION] if s.pending[seat] else []
    module = MODULE_PHASES.get(s.phase)
    if module is not None and module.seats is not None:  # several seats at once (Exp. VI draft)
        return list(module.legal(s, seat)) if seat in module.seats(s) else []
    if seat != s.turn:
        return []
    phase = s.phase
    if phase == ROLE_SELECTION:
        taken = s.card_taken
        refused = 0
        for _, fn in s.rs.hooks["roles_refused"]:  # Exp. 3: the Buccaneer token
            refused |= fn(s, seat)
        if not refused:
            return free_roles(s)
        return [a for i, a in enumerate(s.rs.card_actions) if taken[i] < 0 and not refused >> i & 1]
    if phase == SETTLER_PHASE:
        return settler_options(s, seat)
    if phase == MAYOR_PHASE:  # STEP_PRIVILEGE
        return [A.PRIVILEGE_ACTION, A.PASS_ACTION]
    if phase == BUILDER_PHASE:
        return build_options(s, seat)
    if phase == CRAFTSMAN_PHASE:
        if s.step == STEP_TURN:  # 1897: production is a decision
            return [A.PRODUCE_ACTION, A.PASS_ACTION]
        return craft_privilege_options(s)
    if phase == TRADER_PHASE:
        return sell_options(s, seat)
    if phase == CAPTAIN_PHASE:
        return load_options(s, seat)
    module = MODULE_PHASES.get(phase)
    return [] if module is None else list(module.legal(s, seat))


def free_roles(s: State) -> list[Action]:
    """The role cards nobody took this round."""
    return list(compress(s.rs.card_actions, map(_NEGATIVE, s.card_taken)))


_NO_EXTRAS: Final = frozenset({ROLE_SELECTION, MAYOR_PHASE, DRAFT_PHASE})


def clockwise(s: State, first: int) -> list[int]:
    """Every seat once, clockwise from ``first`` (turn order within a phase)."""
    n = s.n
    return [(first + i) % n for i in range(n)]


# --- Settler (§4.1) ---------------------------------------------------------------------------


def settler_options(s: State, seat: int) -> list[Action]:
    p = s.players[seat]
    if p.island() >= ISLAND_SPACES:  # full island: nothing, not even the Hacienda (§4.1)
        return []
    out: list[Action] = []
    for b, fn in s.rs.hooks["settler_options"]:
        if p.bw[b] > 0:
            fn(s, seat, out)
    seen = 0
    for kind in s.face_up:
        if not seen & (1 << kind):
            seen |= 1 << kind
            out.append(A.SETTLE_ACTIONS[kind])
    if s.quarries > 0:
        if s.turns_taken < s.n:
            quarry = seat == s.chooser or _any_hook(s, seat, "quarry_allowed")
        else:  # Exp. 1 Library's second pick: with a Construction Hut, one quarry a phase (A45;
            # 1897's Press Center, PLN-3 and B-33: a second quarry, the exception to the rule)
            quarry = (
                not s.flags & F_CHOOSER_QUARRY or s.rs.edition.library_second_quarry
            ) and _any_hook(s, seat, "quarry_allowed")
        if quarry:
            out.append(A.SETTLE_ACTIONS[QUARRY])
    if out:
        out.append(A.PASS_ACTION)
    return out


def _any_hook(s: State, seat: int, hook: str) -> bool:
    bw = s.players[seat].bw
    return any(bw[b] > 0 and fn(s, seat) for b, fn in s.rs.hooks[hook])


# --- Mayor (§4.2) -----------------------------------------------------------------------------


def free_slots(p: Player) -> list[tuple[int, int]]:
    """(PLACE arg, free circles) for every place that can take a colonist now."""
    tiles, workers = p.tiles, p.workers
    out = [(k, tiles[k] - workers[k]) for k in range(NTILES) if tiles[k] > workers[k]]
    bw = p.bw
    for b in p.city:
        free = _CIRCLES[b] - bw[b]
        if free > 0:
            out.append((A.BUILDING_SLOT + b, free))
    return out


_PLACE_TILE: Final = A.PLACE_TILE_ACTIONS
_BUILD: Final = A.BUILD_ACTIONS
_PLACE_BUILDING: Final = A.PLACE_BUILDING_ACTIONS


def arrange_options(s: State, seat: int) -> list[Action]:
    """``m.auto`` and one placement per place with a free circle (the same places as
    ``free_slots``, built directly: this is the hottest path of a random playout)."""
    for _, fn in s.rs.arrange_hooks:  # Exp. 2: nobles
        options: list[Action] | None = fn(s, seat)
        if options is not None:
            return options
    p = s.players[seat]
    tiles, workers, bw = p.tiles, p.workers, p.bw
    out = [A.AUTO_ACTION]
    out.extend(compress(_PLACE_TILE, map(gt, tiles, workers)))  # the kinds with a free circle
    out.extend([_PLACE_BUILDING[b] for b in p.city if _CIRCLES[b] > bw[b]])
    return out


def circles(p: Player) -> int:
    return sum(p.tiles) + sum(map(_CIRCLES.__getitem__, p.city))


def has_free_circle(p: Player) -> bool:
    """A place holds fewer colonists than it has circles (it never holds more: the island's
    occupied tiles are at most its tiles, a building's colonists at most its circles)."""
    city = p.city
    return sum(p.tiles) > sum(p.workers) or sum(map(_CIRCLES.__getitem__, city)) > sum(
        map(p.bw.__getitem__, city)
    )


def empty_building_circles(p: Player) -> int:
    city = p.city
    return sum(map(_CIRCLES.__getitem__, city)) - sum(map(p.bw.__getitem__, city))


def lift_colonists(p: Player, total: int | None = None) -> None:
    """Take every colonist back to San Juan (the Mayor lets each player rearrange freely);
    ``total``: ``p.colonists()`` when the caller knows it."""
    if total is None:
        total = p.colonists()
    p.workers = [0] * len(p.workers)
    for b in p.city:
        p.bw[b] = 0
    p.san_juan = total


def place_colonist(p: Player, arg: int) -> None:
    """One colonist from San Juan onto ``arg`` (a tile kind, or ``BUILDING_SLOT`` + a building)."""
    p.san_juan -= 1
    if arg < A.BUILDING_SLOT:
        p.workers[arg] += 1
    else:
        p.bw[arg - A.BUILDING_SLOT] += 1


# Suggested arrangement (one click, "m.auto"): value-ordered greedy.


_PAIR_ORDER: Final = (4, 3, 2, 1)  # coffee, tobacco, sugar, indigo: plantation + processing circle
_FILL_ORDER: Final = (CORN, QUARRY, *range(NTILES))  # corn, quarries, then every kind in order


def suggest_arrangement(s: State, seat: int) -> None:
    """Arrange ``seat``'s colonists sensibly: production pairs of the most valuable goods first,
    then violet buildings by cost, corn, quarries, and every remaining circle (the must-fill rule
    of §4.2 holds whatever the order).  Counted per place, not colonist by colonist."""
    p = s.players[seat]
    lift_colonists(p)
    left = p.san_juan
    tiles, workers, bw = p.tiles, p.workers, p.bw
    rs: Ruleset = s.rs
    for good in _PAIR_ORDER:
        for b in rs.processors[good]:
            if bw[b] < 0:
                continue
            pairs = min(left >> 1, _CIRCLES[b] - bw[b], tiles[good] - workers[good])
            if pairs > 0:
                workers[good] += pairs
                bw[b] += pairs
                left -= 2 * pairs
    if left:
        for b in sorted(filter(_VIOLET.__getitem__, p.city), key=_VIOLET_RANK.__getitem__):
            put = min(left, _CIRCLES[b] - bw[b])
            if put > 0:
                bw[b] += put
                left -= put
    for kind in _FILL_ORDER:
        put = min(left, tiles[kind] - workers[kind])
        if put > 0:
            workers[kind] += put
            left -= put
    for b in p.city:
        put = min(left, _CIRCLES[b] - bw[b])
        if put > 0:
            bw[b] += put
            left -= put
    p.san_juan = left
    for _, fn in rs.hooks["arranged"]:  # Exp. 2: where the nobles among them go
        fn(s, seat)


# --- Builder (§4.3, §6) -----------------------------------------------------------------------


def city_used(p: Player) -> int:
    return sum(map(_SIZE.__getitem__, p.city))


COLUMNS: Final = 5  # a building's column is 1-4 (index 0 unused)
# by occupied quarries, the doubloons they take off a building of each column (§6)
_QUARRY_OFF: Final = [tuple(min(q, c) for c in range(COLUMNS)) for q in range(ISLAND_SPACES + 1)]


def reductions(s: State, seat: int) -> Sequence[int]:
    """By a building's column, the doubloons off its cost for ``seat`` (§6): his occupied
    quarries up to the column, and the extra discounts of his occupied buildings."""
    p = s.players[seat]
    off: Sequence[int] = _QUARRY_OFF[p.workers[QUARRY]]
    if s.rs.build_discounts:
        bw = p.bw
        for hb, fn in s.rs.hooks["build_discount"]:
            if bw[hb] > 0:
                extra = fn(s, seat)
                off = [off[0], *(off[c] + extra[c - 1] for c in range(1, COLUMNS))]
    return off


def price(s: State, seat: int, b: int) -> int:
    """§6: cost − Builder privilege − occupied quarries (capped by column) − hook discounts,
    never below 0."""
    rs: Ruleset = s.rs
    value = rs.cost[b] - reductions(s, seat)[rs.column[b]]
    if seat == s.chooser and s.phase == BUILDER_PHASE:
        value -= rs.privilege(s, seat)
    return max(0, value)


def build_options(s: State, seat: int, complete: bool = True) -> list[Action]:
    """The Builder's choices of ``seat``: each building he can place and pay, the ways to build
    a building adds (Exp. 1 Black Market), and ``pass``.  With ``complete`` False (``advance``
    only asks whether the seat has a decision) the added ways are left out once a plain build is
    found."""
    p = s.players[seat]
    free = CITY_SPACES - city_used(p)
    if free <= 0:
        return []
    rs: Ruleset = s.rs
    budget = p.doubloons
    if rs.build_discounts:
        if seat == s.chooser and s.phase == BUILDER_PHASE:
            budget += rs.privilege(s, seat)
        bw = p.bw
        for hb, _ in rs.hooks["build_options"]:
            if bw[hb] > 0:  # Exp. 1 Black Market
                out = _priced_builds(s, seat, free, budget, complete)
                break
        else:
            out = _plain_builds(rs, s.market, bw, free, reductions(s, seat), budget)
    else:
        if seat == s.chooser:
            budget += rs.privilege(s, seat)
        off = _QUARRY_OFF[p.workers[QUARRY]]
        out = _plain_builds(rs, s.market, p.bw, free, off, budget)
    if out:
        out.append(A.PASS_ACTION)
    return out


def _plain_builds(
    rs: Ruleset, market: list[int], bw: list[int], free: int, off: Sequence[int], budget: int
) -> list[Action]:
    """The buildings in the market that he does not own, has room for and can pay: the cost
    less ``off`` (``reductions``) of its column (§6; the privilege is in ``budget``).  One copy
    per player (§4.3); ruling A15: a large building needs 2 empty spaces, since buildings may be
    moved in the city to make two of them adjacent ([C])."""
    size, cost, column = rs.size, rs.cost, rs.column
    return [
        _BUILD[b]
        for b in rs.buildings_upto[min(budget + max(off), rs.max_cost)]
        if market[b] > 0 and bw[b] < 0 and size[b] <= free and cost[b] - off[column[b]] <= budget
    ]


def _priced_builds(s: State, seat: int, free: int, budget: int, complete: bool) -> list[Action]:
    """``_plain_builds``, then the ways to build his occupied buildings add (Exp. 1 Black
    Market) for the buildings short of money (all of them only when ``complete`` or when
    nothing else is found)."""
    rs: Ruleset = s.rs
    bw = s.players[seat].bw
    market, off = s.market, reductions(s, seat)
    size, cost, column = rs.size, rs.cost, rs.column
    out: list[Action] = []
    short: list[tuple[int, int]] = []  # (building, doubloons missing), for the adders
    for b in rs.buildings:
        if market[b] > 0 and bw[b] < 0 and size[b] <= free:
            value = cost[b] - off[column[b]]
            if value <= budget:
                out.append(_BUILD[b])
            else:
                short.append((b, value - budget))
    if short and (complete or not out):
        for hb, fn in rs.hooks["build_options"]:  # Exp. 1 Black Market
            if bw[hb] > 0:
                fn(s, seat, out, short)
    return out


# --- Craftsman (§4.4, §5) ---------------------------------------------------------------------


def receivable(s: State, seat: int) -> list[int]:
    """What ``seat`` would receive of each good now: his production, as far as the supply
    goes."""
    return list(map(min, production(s, seat), s.goods))


def production(s: State, seat: int) -> list[int]:
    """What ``seat`` can produce of each good, before the supply limit (§5)."""
    p = s.players[seat]
    workers, bw = p.workers, p.bw
    out = [0] * NGOODS
    out[CORN] = workers[CORN]
    processors = s.rs.processors
    for good in _PROCESSED:
        need = workers[good]
        if need:
            cap = 0
            for b in processors[good]:
                if bw[b] > 0:
                    cap += bw[b]
            out[good] = need if need < cap else cap
    return out


_PROCESSED: Final = tuple(k for k in range(NGOODS) if k != CORN)  # the goods a building makes


def craft_privilege_options(s: State) -> list[Action]:
    # Ruling A11: a kind the Craftsman received this phase and still in the supply.
    out = [A.CRAFT_ACTIONS[k] for k in range(NGOODS) if s.produced & (1 << k) and s.goods[k]]
    if out:
        out.append(A.PASS_ACTION)
    return out


# --- Trader (§4.5) ----------------------------------------------------------------------------


def sell_options(s: State, seat: int) -> list[Action]:
    goods = s.players[seat].goods
    out: list[Action] = []
    if len(s.house) < TRADING_HOUSE_CAPACITY:
        any_kind: bool | None = None
        for k in range(NGOODS):
            if goods[k]:
                if k in s.house:
                    if any_kind is None:
                        any_kind = _any_hook(s, seat, "sale_any_kind")
                    if not any_kind:
                        continue
                out.append(A.SELL_ACTIONS[k])
    hooks = s.rs.hooks["sell_options"]
    if hooks:  # Exp. 1 Trading Post (a full trading house does not stop it, A24)
        bw = s.players[seat].bw
        for b, fn in hooks:
            if bw[b] > 0:
                fn(s, seat, out)
    if out:
        out.append(A.PASS_ACTION)
    return out


def sale_price(s: State, seat: int, good: int) -> int:
    value = TRADE_PRICE[good]
    if seat == s.chooser:
        value += s.rs.privilege(s, seat)
    bw = s.players[seat].bw
    for b, fn in s.rs.hooks["sale_bonus"]:
        if bw[b] > 0:
            value += fn(s, seat)
    return value


# --- Captain (§4.6) ---------------------------------------------------------------------------


def cargo_options(s: State, seat: int) -> list[Action]:
    """The formal generator of §4.6.1: the ship already holding a kind, else the empty ship(s)
    taking the most barrels (ties are a free choice, ruling A7)."""
    goods = s.players[seat].goods
    out: list[Action] = []
    kinds = s.ship_kind
    for k in range(NGOODS):
        have = goods[k]
        if not have:
            continue
        if k in kinds:
            i = kinds.index(k)
            if s.ship_load[i] < s.ship_cap[i]:
                out.append(A.SHIP_ACTIONS[k][i])
            continue
        best = 0
        empties: list[int] = []
        for i, kind in enumerate(kinds):
            if kind < 0:
                fit = min(have, s.ship_cap[i])
                if fit > best:
                    best = fit
                    empties = [i]
                elif fit == best:
                    empties.append(i)
        for i in empties:
            out.append(A.SHIP_ACTIONS[k][i])
    return out


def load_options(s: State, seat: int) -> list[Action]:
    out = cargo_options(s, seat)
    compulsory = bool(out)
    bw = s.players[seat].bw
    for b, fn in s.rs.hooks["load_options"]:
        if bw[b] > 0:
            fn(s, seat, out)
    if out and not compulsory:
        out.append(A.PASS_ACTION)  # only a violet building could load: always optional (§4.0)
    return out


def storage_allowance(s: State, seat: int) -> tuple[int, int]:
    kinds, barrels = 0, 1  # §4.6.3: one barrel, plus the warehouses
    bw = s.players[seat].bw
    for b, fn in s.rs.hooks["storage"]:
        if bw[b] > 0:
            dk, db = fn(s, seat)
            kinds += dk
            barrels += db
    return kinds, barrels


def _singles(rest: list[tuple[int, int]], barrels: int) -> list[list[tuple[int, int]]]:
    """Every way to keep exactly ``barrels`` single barrels from ``rest`` [(good, count)]."""
    if barrels == 0:
        return [[]]
    if not rest:
        return []
    (good, count), tail = rest[0], rest[1:]
    out: list[list[tuple[int, int]]] = []
    for take in range(min(count, barrels), -1, -1):
        for more in _singles(tail, barrels - take):
            out.append([(good, take), *more] if take else more)
    return out


_NOTHING_KEPT: Final = A.keep_action((0,) * NGOODS)
# keeping a single barrel of a good, by good
_ONE_BARREL: Final = tuple(
    A.keep_action(tuple(int(k == good) for k in range(NGOODS))) for good in range(NGOODS))


def keep_options(s: State, seat: int) -> list[Action]:
    """The sets of barrels ``seat`` may keep after loading (§4.6.3).

    Ruling: only sets that no other allowed set contains are offered.  The rules let the owner
    of a Small Warehouse with 1 corn and 2 indigo protect the corn and keep 1 indigo, but that
    throws a barrel away for nothing when protecting the indigo keeps everything; offering it
    would only ask players a question whose answer is obvious.  Keeping fewer barrels than the
    rules allow is never offered either."""
    goods = s.players[seat].goods
    if not any(goods):  # nothing to store
        return [_NOTHING_KEPT]
    kinds, barrels = storage_allowance(s, seat)
    # the common case at once, the same choices in the same order as ``kept_sets`` gives
    if not kinds and barrels == 1:  # no warehouse: one barrel of any kind he has
        return list(compress(_ONE_BARREL, goods))
    key = (*goods, kinds, barrels)
    known = _KEPT_SETS.get(key)
    if known is None:
        if len(_KEPT_SETS) >= _KEPT_SETS_SIZE:
            _KEPT_SETS.clear()
        known = _KEPT_SETS[key] = tuple(kept_sets(goods, kinds, barrels))
    return list(known)


# ``kept_sets`` by goods held and allowance: a pure function of them, asked at every storage
_KEPT_SETS: Final[dict[tuple[int, ...], tuple[Action, ...]]] = {}
_KEPT_SETS_SIZE: Final = 4096


def kept_sets(goods: list[int], kinds: int, barrels: int) -> list[Action]:
    """``keep_options`` for ``goods`` with an allowance of ``kinds`` whole kinds and
    ``barrels`` single barrels, enumerated in full."""
    held = [k for k in range(NGOODS) if goods[k]]
    results: dict[tuple[int, ...], None] = {}
    for whole in combinations(held, min(kinds, len(held))):
        base = [goods[k] if k in whole else 0 for k in range(NGOODS)]
        rest = [(k, goods[k]) for k in held if k not in whole]
        take = min(barrels, sum(c for _, c in rest))
        for choice in _singles(rest, take):
            kept = base[:]
            for good, count in choice:
                kept[good] += count
            results[tuple(kept)] = None
    sets = list(results)
    best = [
        v
        for v in sets
        if not any(w != v and all(map(ge, w, v)) for w in sets)  # tuples of NGOODS
    ]
    return [A.keep_action(kept) for kept in best] or [A.keep_action(tuple(goods))]


# ----------------------------------------------------------------------------------------------
# Apply
# ----------------------------------------------------------------------------------------------


_PROMPT_ACTION_KINDS: Final[dict[str, frozenset[int]]] = {
    P_ROLE: frozenset({A.ROLE}),
    # Exp. 1's forests, Black Market builds, Trading Post sales and Small Wharf loads are
    # decisions of those prompts: refused as illegal there, not as the wrong decision
    P_SETTLE: frozenset({A.SETTLE, A.HACIENDA, A.FOREST, A.PASS}),
    P_MAYOR_PRIVILEGE: frozenset({A.PRIVILEGE, A.PASS}),
    P_ARRANGE: frozenset({A.AUTO, A.PLACE, A.NOBLE_PLACE}),
    P_BUILD: frozenset({A.BUILD, A.BLACK_MARKET, A.PASS}),
    P_CRAFT_PRIVILEGE: frozenset({A.CRAFT, A.PASS}),
    P_PRODUCE: frozenset({A.PRODUCE, A.PASS}),
    P_SELL: frozenset({A.SELL, A.TRADING_POST, A.LAND_OFFICE, A.PASS}),
    P_SHIP: frozenset({A.SHIP, A.WHARF, A.SMALL_WHARF, A.PASS}),
    P_KEEP: frozenset({A.KEEP}),
    P_INTERLUDE: frozenset({A.GUEST, A.PASS}),
}


def check(s: State, seat: int, action: Action) -> None:
    """Raise the specific error when ``action`` is not legal for ``seat`` now."""
    if s.phase == GAME_OVER:
        raise GameOver()
    prompt = current_prompt(s)
    assert prompt is not None
    refusal = ANYTIME_REFUSALS.get(action.kind)
    if refusal is not None:  # any seat, prompted or not (1897 Exp. VI: an announcement)
        if type(seat) is not int or not 0 <= seat < s.n:
            raise NotYourTurn(seat=seat, expected=list(prompt.seats))
        if action in anytime_actions(s, seat):
            return
        raise IllegalAction(refusal(s, seat, action), action=action.code)
    if not isinstance(seat, int) or seat not in prompt.seats:
        raise NotYourTurn(seat=seat, expected=list(prompt.seats))
    if action in legal(s, seat):
        return
    allowed = _PROMPT_ACTION_KINDS.get(prompt.kind)
    if allowed is None:
        module = MODULE_PHASES.get(s.phase)
        allowed = None if module is None else module.action_kinds.get(prompt.kind)
    if allowed is None:
        allowed = OFFER_ACTION_KINDS.get(prompt.kind, frozenset({A.OFFER, A.PASS}))
    if action.kind not in allowed:
        raise IllegalAction("wrong_decision", action=action.code, expected=prompt.kind)
    raise IllegalAction(explain(s, seat, action), action=action.code)


def explain(s: State, seat: int, action: Action) -> str:
    """A machine-readable reason why a well-typed action is illegal."""
    p = s.players[seat]
    kind = action.kind
    if kind == A.ROLE:
        card = s.rs.card_of.get(action.code)
        if card is None:
            return "role_not_in_game"
        return "role_taken" if s.card_taken[card] >= 0 else "role_not_allowed"
    if kind == A.SETTLE:
        if p.island() >= ISLAND_SPACES:
            return "island_full"
        if action.a == QUARRY:
            return "no_quarries_left" if s.quarries == 0 else "quarry_not_allowed"
        return "plantation_not_available"
    if kind == A.HACIENDA:
        return "hacienda_not_available"
    if kind == A.BUILD:
        b = action.a
        if b not in in_play(s):
            return "building_not_in_game"
        if p.bw[b] >= 0:
            return "already_owned"
        if s.market[b] <= 0:
            return "sold_out"
        if CATALOG[b].size > CITY_SPACES - city_used(p):
            return "no_city_space"
        return "not_enough_doubloons"
    if kind == A.SELL:
        if p.goods[action.a] == 0:
            return "no_such_good"
        if len(s.house) >= TRADING_HOUSE_CAPACITY:
            return "trading_house_full"
        return "kind_already_in_trading_house"
    if kind == A.SHIP:
        if p.goods[action.a] == 0:
            return "no_such_good"
        if action.b >= len(s.ship_cap):
            return "no_such_ship"
        return "ship_not_allowed"
    if kind == A.WHARF:
        return "wharf_not_available"
    if kind == A.CRAFT:
        return "privilege_good_not_available"
    if kind == A.PLACE:
        return "no_free_circle"
    if kind == A.KEEP:
        return "keep_not_allowed"
    if kind == A.PASS:
        return "must_load" if s.phase == CAPTAIN_PHASE else "cannot_pass"
    return "illegal_now"
