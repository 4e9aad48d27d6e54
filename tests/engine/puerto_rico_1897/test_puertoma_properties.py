"""Issue #33: property tests of the Puertoma's procedures (rules spec §8, Appendix D.2, D.3).

Random games (the persons play at random) with 1 or 2 Puertomas -- every seat count and
Puertoma count the options allow (PTM-MODE: 1 with 2, 4 or 5 players, 2 with 3; a third is
refused) -- at each difficulty (§8.14), without and with every expansion (§8.13).  The
engine's Puertoma procedures are watched as they run (``AUTOMATON``'s entries wrapped by a
spy that calls them unchanged): before each, the position is copied; after it, what the
Puertoma did is held to an oracle written here from the spec alone -- the arrows of D.3, the
cards of D.2, the worker spaces of §8.2, PTM-PROF, PTM-CHO's three conditions, PTM-BLD's
candidates and order, PTM-PLN, PTM-REC, PTM-CRF, PTM-TRD, PTM-CAP.  Where an expansion
changes a procedure (§8.13's Festival priorities, a Shipping Ceremony, Closing the Work) the
oracle holds only the rules left (legal, commercial, its level's spaces, its price).  After
every action: the engine's invariants (conservation of coins, workers, Citizens, goods, tiles,
VP), no Puertoma is ever asked, a Puertoma's placed workers never move (PTM-GEN-6), its board
stays in its bounds, the marker moves only along an arrow (PTM-MOV-2); every game ends."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from engine.core import Event
from engine.policies import make_policy
from engine.puerto_rico.actions import BUILDING_INDEX, CATALOG
from engine.puerto_rico.buildings import AUTOMATON
from engine.puerto_rico.data import ALL_ROLES, NGOODS
from engine.puerto_rico.state import BUC_TOKEN, NOB_SHIP, State
from engine.puerto_rico_1897 import puertoma as ptm
from engine.puerto_rico_1897.festival_activities import (
    DISPATCH_LARGEST,
    DISPATCH_SMALLEST,
    FILL_HOUSE,
    open_cards,
)
from engine.puerto_rico_1897.game import PUERTO_RICO_1897 as GAME
from engine.puerto_rico_1897.names import REVERSE, word
from engine.simulate import MAX_ACTIONS, policy_seed

# --- the spec, written out (not read from the engine) -------------------------------------------

SPACES_UNDER = (1, 2, 2, 3, 3)  # §8.2: worker spaces under a Corn, Fruit, Sugar, Tobacco, Coffee
PRICE = (0, 1, 2, 3, 4)  # §3.7
HOUSE = 4  # TRD-1
ARROWS = {  # D.3: the out-neighbours of each role on the action board
    "builder": {"prospector", "settler", "trader", "mayor"},
    "settler": {"prospector", "builder", "mayor"},
    "prospector": {"builder", "settler"},
    "trader": {"builder", "craftsman", "captain", "buccaneer"},
    "mayor": {"trader", "craftsman"},
    "craftsman": {"trader", "captain", "buccaneer"},
    "captain": {"trader", "craftsman", "builder", "settler", "buccaneer"},
    "buccaneer": {"captain", "craftsman", "trader", "builder", "settler"},
}
B, S, M, C, T, K, P = "builder", "settler", "mayor", "craftsman", "trader", "captain", "prospector"
CARDS = {  # D.2: the tie-breaker cards, each a full role order
    1: (B, M, C, T, K, S, P), 2: (K, T, M, B, S, P, C), 3: (T, C, M, B, P, S, K),
    4: (C, B, M, P, T, K, S), 5: (M, B, P, K, C, T, S), 6: (B, P, M, T, K, C, S),
    7: (P, B, M, K, T, C, S), 8: (B, K, M, T, C, S, P),
}
SMUGGLER_COINS = 2  # §8.13
LEVELS, PER_LEVEL = 4, 2  # §8.2: 4 levels of 2 spaces


# --- reading a Puertoma's board (its layout is the engine's; only reads) -----------------------


def props(s: State, seat: int) -> list[int]:
    at = ptm.board_at(s, seat) + ptm.PROPS
    return s.puertoma[at:at + 2 * NGOODS]


def owned(s: State, seat: int, good: int) -> int:
    return sum(1 for w in props(s, seat)[2 * good:2 * good + 2] if w >= 0)


def active(s: State, seat: int, good: int) -> int:
    return sum(1 for w in props(s, seat)[2 * good:2 * good + 2] if w == SPACES_UNDER[good])


def levels(s: State, seat: int) -> list[int]:
    at = ptm.board_at(s, seat) + ptm.SPACES
    spaces = s.puertoma[at:at + LEVELS * PER_LEVEL]
    return [sum(1 for b in spaces[k * PER_LEVEL:(k + 1) * PER_LEVEL] if b >= 0)
            for k in range(LEVELS)]


def reserve(s: State, seat: int) -> int:
    return s.puertoma[ptm.board_at(s, seat) + ptm.RESERVE]


def festival(s: State) -> bool:
    return bool(s.festival)


def role_of(s: State, card: int) -> str:
    return ALL_ROLES[s.cards[card]]


# --- the oracle -------------------------------------------------------------------------------


def candidates(s: State, seat: int, coins: int) -> list[int]:
    """PTM-BLD-2: commercial, in stock, not owned, a free space on its level, cost <= coins;
    level 4 only the building under its own Reserve token."""
    p = s.players[seat]
    free = levels(s, seat)
    out = []
    for b, c in enumerate(CATALOG):
        level = s.rs.column[b]
        if c.production or s.market[b] <= 0 or p.bw[b] >= 0 or not 1 <= level <= LEVELS:
            continue
        if free[level - 1] >= PER_LEVEL or s.rs.cost[b] > coins:
            continue
        if level == LEVELS and b != reserve(s, seat):
            continue
        out.append(b)
    return out


def loads(s: State, seat: int) -> list[tuple[int, int, int]]:
    """CAP-1, CAP-2: (good, ship, crates) of every legal cargo load."""
    goods = s.players[seat].goods
    out = []
    for g in range(NGOODS):
        if not goods[g]:
            continue
        if g in s.ship_kind:
            i = s.ship_kind.index(g)
            if s.ship_load[i] < s.ship_cap[i]:
                out.append((g, i, min(goods[g], s.ship_cap[i] - s.ship_load[i])))
            continue
        empty = [i for i, k in enumerate(s.ship_kind) if k < 0]
        if empty:
            most = max(min(goods[g], s.ship_cap[i]) for i in empty)
            out += [(g, i, most) for i in empty if min(goods[g], s.ship_cap[i]) == most]
    return out


def sale(s: State, seat: int, chooser: bool) -> int:
    """PTM-TRD: the best good it may legally sell for 1 coin or more in total, or -1."""
    if len(s.house) >= HOUSE:
        return -1
    p = s.players[seat]
    bonus = int(chooser) + int(ptm.skill(s, seat, "trader_coin"))
    any_good = ptm.skill(s, seat, "trader_any_good")
    for g in reversed(range(NGOODS)):
        if p.goods[g] and (any_good or g not in s.house) and PRICE[g] + bonus >= 1:
            return g
    return -1


def smuggler_gain(s: State) -> int:
    """§8.13 Exp. III: the largest of workers lured (the Agency over N, at most 3), crates
    plundered, crates kept from a ship (at most 3)."""
    agency = s.colonist_ship + (s.nobles[NOB_SHIP] if s.nobles else 0)
    return max(min(3, max(0, agency - s.n)), len(s.house), min(3, max(s.ship_load, default=0)))


def profitable(s: State, seat: int, card: int) -> bool:
    """PTM-PROF, role by role."""
    role = role_of(s, card)
    p = s.players[seat]
    if role == B:
        coins = p.doubloons + s.card_doubloons[card] + int(ptm.skill(s, seat, "builder_coin"))
        return bool(candidates(s, seat, coins + 1))
    if role == S:
        return any(owned(s, seat, t) < 2 for t in s.face_up if t < NGOODS)
    if role == M:
        return any(0 <= w < SPACES_UNDER[i // 2] for i, w in enumerate(props(s, seat)))
    if role == C:
        return any(active(s, seat, g) and s.goods[g] and not p.goods[g] for g in range(NGOODS))
    if role == T:
        return sale(s, seat, True) >= 0
    if role == K:
        return bool(loads(s, seat))
    if role == "buccaneer":
        return smuggler_gain(s) >= 1
    return True  # the Adventurer


def expected_role(s: State, seat: int, drawn: list[int]) -> tuple[str, int]:
    """PTM-CHO (§8.6, A-7, A-44, §8.13): the role it must choose, and how many tie-breaker
    cards that takes (``drawn``: the numbers of the cards it drew, in order)."""
    token = s.buccaneer[BUC_TOKEN] if s.buccaneer else -1
    available = [c for c in range(len(s.cards)) if s.card_taken[c] < 0
                 and not (role_of(s, c) == "buccaneer" and token == seat)]
    cand = [c for c in available if profitable(s, seat, c)] or available
    marker = ALL_ROLES[s.puertoma[ptm.MARKER]]
    cand = [c for c in cand if role_of(s, c) in ARROWS[marker]] or cand
    if len(cand) == 1:
        return role_of(s, cand[0]), 0

    def coins(c: int) -> int:
        return SMUGGLER_COINS if role_of(s, c) == "buccaneer" else s.card_doubloons[c]

    most = max(coins(c) for c in cand)
    cand = [c for c in cand if coins(c) == most]  # the tiles (5 players: 2 Adventurers)
    if len(cand) == 1:
        return role_of(s, cand[0]), 0
    roles = {role_of(s, c) for c in cand}
    if "buccaneer" in roles:
        return "buccaneer", 0
    for used, number in enumerate(drawn, start=1):
        named = [r for r in CARDS[number] if r in roles]
        if named:
            return named[0], used
    raise AssertionError(f"no card named a candidate among {roles}: drawn {drawn}")


# --- the spy -----------------------------------------------------------------------------------


class Spy:
    """Wraps the Puertoma's procedures; each check runs on the engine's own copy while it
    applies an action (an ``AssertionError`` fails the test there)."""

    def __init__(self) -> None:
        self.produced: dict[int, set[int]] = {}
        self.calls: dict[str, int] = {}

    def count(self, name: str) -> None:
        self.calls[name] = self.calls.get(name, 0) + 1

    def choose_role(self, real: Callable[..., Any], s: State, ev: list[Event]) -> None:
        self.count("choose_role")
        seat, before, start = s.turn, s.clone(), len(ev)
        real(s, ev)
        new = ev[start:]
        drawn = [e.data["card"] for e in new if e.type == "TieBreakerDrawn"
                 and e.data["for"] == "role"]
        [choice] = [e.data["role"] for e in new if e.type == "PuertomaChoseRole"]
        role, used = expected_role(before, seat, drawn)
        assert choice == role, (choice, role, drawn)
        assert len(drawn) == used, (drawn, used)

    def turn(self, real: Callable[..., Any], s: State, ev: list[Event]) -> None:
        seat, before, start = s.turn, s.clone(), len(ev)
        role = role_of(s, s.card)
        self.count(role)
        real(s, ev)
        new = [e for e in ev[start:] if e.seat == seat]
        if role == B:
            self.builder(before, s, seat, new)
        elif role == S:
            self.planter(before, s, seat, new)
        elif role == T:
            self.trader(before, s, seat, new)

    def builder(self, before: State, s: State, seat: int, new: list[Event]) -> None:
        """PTM-BLD-1...8."""
        coins = before.players[seat].doubloons + int(ptm.skill(before, seat, "builder_coin"))
        discount = int(seat == before.chooser)
        built = [BUILDING_INDEX[e.data["building"]] for e in new if e.type == "BuildingBuilt"]
        options = candidates(before, seat, coins + discount)
        if not built:
            assert festival(before) or not options, "PTM-BLD-8: it could build"
            return
        [b] = built
        assert not CATALOG[b].production and before.players[seat].bw[b] < 0  # PTM-GEN-3
        price = max(0, before.rs.cost[b] - discount)  # PTM-GEN-4: no quarry discount
        assert next(e.data["price"] for e in new if e.type == "BuildingBuilt") == price
        assert price <= coins
        gained = sum(e.data["amount"] for e in new if e.type == "DoubloonsEarned")
        assert s.players[seat].doubloons == before.players[seat].doubloons + gained - price
        level = before.rs.column[b]
        if level == LEVELS:
            assert b == reserve(before, seat), "level 4 only its Reserve token's building"
        space = next(k for k in range(LEVELS) if levels(s, seat)[k] != levels(before, seat)[k])
        assert space + 1 >= level and levels(before, seat)[space] < PER_LEVEL
        if not festival(before):  # PTM-BLD-3: the highest level, then the highest cost
            assert b in options
            top = max(before.rs.column[o] for o in options)
            assert level == top and before.rs.cost[b] == max(
                before.rs.cost[o] for o in options if before.rs.column[o] == top)
            assert space + 1 == level
        if reserve(before, seat) == ptm.NO_RESERVE:  # PTM-BLD-6: placed at the first purchase
            assert reserve(s, seat) != ptm.NO_RESERVE

    def planter(self, before: State, s: State, seat: int, new: list[Event]) -> None:
        """PTM-PLN (A-11): a fitting property (one it has exactly one of, then the best good),
        else a quarry, else nothing."""
        taken = [e.data for e in new if e.type in ("PlantationTaken", "QuarryTaken")]
        assert len(taken) <= 1
        fits = sorted({t for t in before.face_up if t < NGOODS and owned(before, seat, t) < 2})
        if festival(before):
            return
        if fits:
            want = max(fits, key=lambda t: (owned(before, seat, t) == 1, t))
            assert [d["tile"] for d in taken] == [ALL_GOODS[want]]
            assert owned(s, seat, want) == owned(before, seat, want) + 1
        elif before.quarries:
            assert [d["tile"] for d in taken] == ["quarry"]
            assert ptm.vp_area_quarries(s, seat) == ptm.vp_area_quarries(before, seat) + 1
        else:
            assert not taken

    def trader(self, before: State, s: State, seat: int, new: list[Event]) -> None:
        """PTM-TRD-1: the best good it may sell for 1 coin or more."""
        sold = [e.data for e in new if e.type == "GoodSold"]
        chooser = seat == before.chooser
        want = sale(before, seat, chooser)
        if festival(before) and open_cards(before, (FILL_HOUSE,)):  # §8.13: its good may win
            if sold:
                good = ALL_GOODS.index(sold[0]["good"])
                assert before.players[seat].goods[good] and len(before.house) < HOUSE
                assert good not in before.house or ptm.skill(before, seat, "trader_any_good")
            else:
                assert want < 0
            return
        if want < 0:
            assert not sold
            return
        assert [d["good"] for d in sold] == [ALL_GOODS[want]]
        assert sold[0]["price"] == PRICE[want] + int(chooser)

    def produce(self, real: Callable[..., Any], s: State, seat: int, ev: list[Event]) -> None:
        """PTM-CRF-1: each active property a crate, as long as the supply lasts."""
        self.count("produce")
        before = s.clone()
        real(s, seat, ev)
        for g in range(NGOODS):
            got = s.players[seat].goods[g] - before.players[seat].goods[g]
            assert got == min(active(before, seat, g), before.goods[g]), (g, got)
        self.produced[seat] = {g for g in range(NGOODS)
                               if s.players[seat].goods[g] > before.players[seat].goods[g]}

    def craftsman_advantage(self, real: Callable[..., Any], s: State, ev: list[Event]) -> None:
        """PTM-CRF-2 (A-46): one crate of the best good it produced that is still in stock."""
        self.count("craftsman_advantage")
        seat, before = s.chooser, s.clone()
        real(s, ev)
        stock = [g for g in self.produced.get(seat, set()) if before.goods[g]]
        diff = [s.players[seat].goods[g] - before.players[seat].goods[g] for g in range(NGOODS)]
        expected = [0] * NGOODS
        if stock:
            expected[max(stock)] = 1
        assert diff == expected

    def load(self, real: Callable[..., Any], s: State, seat: int, ev: list[Event]) -> bool:
        """PTM-CAP-1: the good of the most crates (ties: the worst), onto the legal ship taking
        that many with the fewest free spaces."""
        self.count("load")
        before, start = s.clone(), len(ev)
        loaded: bool = real(s, seat, ev)
        options = loads(before, seat)
        assert loaded == bool(options)
        shipped = [e.data for e in ev[start:] if e.type == "GoodsShipped" and e.seat == seat]
        if not loaded:
            assert not shipped
            return loaded
        [d] = shipped
        good = ALL_GOODS.index(d["good"])
        made = (good, d["ship"], d["count"])
        assert made in options
        if not (festival(before) and open_cards(before, (DISPATCH_LARGEST, DISPATCH_SMALLEST))):
            most = max(n for _, _, n in options)
            worst = min(g for g, _, n in options if n == most)
            ships = [i for g, i, n in options if g == worst and n == most]
            free = min(before.ship_cap[i] - before.ship_load[i] for i in ships)
            assert good == worst and d["count"] == most
            assert before.ship_cap[d["ship"]] - before.ship_load[d["ship"]] == free
        return loaded

    def store(self, real: Callable[..., Any], s: State, seat: int, ev: Events) -> None:
        """PTM-CAP-3, PTM-CAP-4: L4-Captain's VP first, then 1 crate of its best good kept
        (L2-Captain: every crate of its best good and one more crate)."""
        self.count("store")
        before = s.clone()
        real(s, seat, ev)
        goods = before.players[seat].goods[:]
        vp = 0
        if sum(goods) and ptm.skill(before, seat, "captain_vp_per_crate"):
            vp += sum(goods)
        if ptm.skill(before, seat, "captain_discard"):
            worst = next((g for g in range(NGOODS) if goods[g]), -1)
            if worst >= 0:
                n = min(2, goods[worst])
                goods[worst] -= n
                vp += n
        kept = [0] * NGOODS
        held = [g for g in reversed(range(NGOODS)) if goods[g]]
        if held and ptm.skill(before, seat, "captain_keep_good"):
            kept[held[0]] = goods[held[0]]
            held = held[1:]
        if held:
            kept[held[0]] = 1
        assert s.players[seat].goods == kept
        assert s.players[seat].vp == before.players[seat].vp + vp

    def arrange(self, real: Callable[..., Any], s: State, seat: int, ev: Events) -> None:
        """PTM-REC-2, PTM-REC-3: one worker at a time onto the inactive property with the
        fewest empty spaces (ties: the best good), its leftmost empty space; all active: the
        VP area."""
        self.count("arrange")
        before = s.clone()
        count = before.players[seat].san_juan
        real(s, seat, ev)
        if festival(before):
            placed = sum(max(0, now) - max(0, was)
                         for was, now in zip(props(before, seat), props(s, seat), strict=True))
            area = ptm.board_at(s, seat) + ptm.VP_WORKERS
            assert placed + s.puertoma[area] - before.puertoma[area] == count
            return
        spaces = props(before, seat)
        area = 0
        for _ in range(count):
            open_ = [i for i, w in enumerate(spaces) if 0 <= w < SPACES_UNDER[i // 2]]
            if not open_:
                area += 1
                continue
            i = min(open_, key=lambda i: (SPACES_UNDER[i // 2] - spaces[i], -(i // 2), i))
            spaces[i] += 1
        assert props(s, seat) == spaces
        at = ptm.board_at(s, seat) + ptm.VP_WORKERS
        assert s.puertoma[at] == before.puertoma[at] + area


Events = list[Event]
ALL_GOODS = ("corn", "indigo", "sugar", "tobacco", "coffee")  # the kernel's words in its events


@contextmanager
def spying(monkeypatch: pytest.MonkeyPatch) -> Iterator[Spy]:
    spy = Spy()
    for name in ("choose_role", "turn", "produce", "craftsman_advantage", "load", "store",
                 "arrange"):
        real = AUTOMATON[name]
        method = getattr(spy, name)
        monkeypatch.setitem(AUTOMATON, name,
                            lambda *args, _m=method, _r=real: _m(_r, *args))
    yield spy


# --- after every action ------------------------------------------------------------------------


def check_boards(before: State, after: State, events: list[Event]) -> None:
    """What holds for the Puertomas after every action."""
    assert GAME.invariants(after) == []
    prompt = GAME.prompt(after)
    for seat in after.rs.automata:
        assert prompt is None or seat not in prompt.seats  # never asked
        assert not GAME.legal_actions(after, seat)
        p = after.players[seat]
        assert not any(p.tiles) and not any(p.workers)  # its board, not a person's field
        assert all(not CATALOG[b].production and p.bw[b] == 0 for b in p.city)  # PTM-GEN-3
        assert all(n <= PER_LEVEL for n in levels(after, seat)) and len(p.city) <= 8
        for i, (was, now) in enumerate(zip(props(before, seat), props(after, seat),
                                           strict=True)):
            assert now >= was  # PTM-GEN-6: never moved, never removed
            assert now <= SPACES_UNDER[i // 2]
    marker = ALL_ROLES[before.puertoma[ptm.MARKER]]
    for e in events:
        if e.type == "MarkerMoved":  # PTM-MOV-2, D.3
            src, dst = (word(e.data[k], REVERSE) for k in ("from", "to"))
            assert e.seat in after.rs.automata and src == marker and dst in ARROWS[src]
            marker = dst
    assert ALL_ROLES[after.puertoma[ptm.MARKER]] == marker


def play(options: dict[str, Any], seed: int, monkeypatch: pytest.MonkeyPatch) -> Spy:
    opts = GAME.normalize_options(options)
    with spying(monkeypatch) as spy:
        state = GAME.setup(opts, seed)
        policies = [make_policy("random", GAME.name, policy_seed(seed, s))
                    for s in range(opts["players"])]
        actions = 0
        while (prompt := GAME.prompt(state)) is not None:
            seat = prompt.seats[0]
            legal = GAME.legal_actions(state, seat)
            assert legal
            action = policies[seat].choose(GAME, state, seat, legal)
            after, events = GAME.apply(state, seat, action)
            check_boards(state, after, events)
            state = after
            actions += 1
            assert actions < MAX_ACTIONS
        outcome = GAME.outcome(state)
        assert outcome is not None and outcome.winners
        for seat in state.rs.automata:  # PTM-SCR: its parts, each from its board
            parts = outcome.scores[seat].breakdown
            assert parts["vp_area_quarries"] == 3 * ptm.vp_area_quarries(state, seat)
    return spy


CONFIGS = [(2, 1), (3, 2), (4, 1), (5, 1)]
DIFFICULTIES = ("standard", "easy", "hard")
EXPANSIONS: list[list[int]] = [[], [1, 2, 3, 4, 5, 6]]


@pytest.mark.parametrize("expansions", EXPANSIONS, ids=["base", "all-expansions"])
@pytest.mark.parametrize("difficulty", DIFFICULTIES)
@pytest.mark.parametrize(("players", "puertomas"), CONFIGS)
def test_PTM_procedures_hold_in_random_games(players: int, puertomas: int, difficulty: str,
                                             expansions: list[int],
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """PTM-MODE-1, PTM-MODE-2, PTM-GEN-3, PTM-GEN-4, PTM-GEN-6, PTM-MOV-2, PTM-BLD-2,
    PTM-BLD-3, PTM-BLD-6, PTM-BLD-8, A-9, A-11, A-44, A-46, A-7, §8.14, §8.13: seeded random
    games; every Puertoma decision held to the spec's oracle, every action to the board
    properties; the games end and every procedure was exercised."""
    calls: dict[str, int] = {}
    for seed in range(3):
        spy = play({"players": players, "puertomas": puertomas,
                    "puertoma_difficulty": difficulty, "expansions": expansions},
                   1000 * players + seed, monkeypatch)
        for name, n in spy.calls.items():
            calls[name] = calls.get(name, 0) + n
    assert {"choose_role", "builder", "settler", "trader", "produce", "load", "store",
            "arrange"} <= set(calls)
