"""What a person may see of a game: ``view(state, viewer)``.

The public view (``viewer=None``) shows counts only for hands, piles, goods and drawn cards;
which production buildings carry a good is public, their faces are not (nobody sees them, the
owner included); the Chapel cards of others are hidden, count included (A-10); the face-up
trading-house tile, the tiles revealed so far and the Gold mine's face-up cards are public.  A
seat's view adds only that seat's own hand, its drawn-but-undecided cards, its Chapel cards and
the context of its pending decision.  At the end of the game everything a score sheet needs is
public.  Its shape is :class:`SanJuanView` below (docs/engine-san-juan.md tells it too).
"""

from __future__ import annotations

from typing import Any, Final, NotRequired, Required, TypedDict

from ..core import OutcomeJSON, PromptJSON
from .data import CARDS, CHAPEL, CRANE, GOODS, LIBRARY, ROLES, TILE_PRICES, VARIANT_KEEP
from .legality import current_prompt
from .rules import (
    active_index,
    build_cost,
    build_options,
    councillor_draws,
    councillor_keeps,
    councillor_rule,
    hand_limit,
    has_active,
    payable_goods,
    privilege,
    produce_capacity,
    sell_capacity,
)
from .scoring import final_scores, score_parts
from .state import PHASE_NAMES, Player, State

VIEW_VERSION: Final = 1
NAMES: Final = tuple(card.name for card in CARDS)


# --- the view's shape (engine, render and bot read it through these types) --------------------


class Role(TypedDict):
    """The role whose phase is under way, who chose it and whether with their Library."""

    name: str
    chooser: int
    library: bool


class RoleCard(TypedDict):
    """One of the five roles and who took it this round (``None``: still free)."""

    name: str
    taken_by: int | None


class TradingHouse(TypedDict):
    """The face-up tile (``None`` outside a trader phase) and its prices by good, the tiles
    face down, and the tiles revealed so far in the order first revealed."""

    face_up: int | None
    prices: dict[str, int] | None
    stack: int
    revealed: list[int]


class GoldMine(TypedDict):
    """The Gold mine's face-up cards while they lie on the table, and whose they are."""

    seat: int
    cards: list[str]


class Building(TypedDict):
    """A pile of a player's area: its top card, whether it carries a good (face down), whether
    it is active (not built this builder phase), the cards it covers (Crane), bottom first."""

    card: str
    good: bool
    active: bool
    covered: list[str]


class Seat(TypedDict):
    """A player as everyone sees them: counts for hand, drawn cards and goods; ``chapel``:
    the cards under their Chapel (``None``: hidden from this viewer)."""

    seat: int
    hand: int
    drawn: int
    waiting: bool
    buildings: list[Building]
    building_count: int
    goods: int
    chapel: int | None
    vp: int
    library: bool
    library_used: bool


class Pending(TypedDict, total=False):
    """A seat's own pending decision (``decision``: the prompt's kind) and its context; which
    keys come with which kind is docs/engine-san-juan.md's table."""

    decision: Required[str]
    costs: dict[str, int]
    """build: each build code's cost."""
    privilege: int
    prices: dict[str, int]
    """build: what each card of the hand would cost (by build code); sell: price by good."""
    goods_allowed: int
    building: str
    index: int
    over: str | None
    cost: int
    draw: int
    capacity: int
    keep: int
    archive: bool
    discard: int
    drawn: int
    limit: int
    cards: list[str]


class SanJuanView(TypedDict):
    """``view(state, viewer)``: the public keys, and a seat's own (``viewer`` a seat) marked
    ``NotRequired``: present exactly in a seat's view."""

    game: str
    view_version: int
    options: dict[str, Any]
    players: int
    viewer: int | None
    round: int
    governor: int
    phase: str
    role: Role | None
    roles: list[RoleCard]
    prompt: PromptJSON | None
    done: list[int]
    trading_house: TradingHouse
    draw_pile: int
    discard_pile: int
    gold_mine: GoldMine | None
    seats: list[Seat]
    game_over: bool
    end_reasons: list[str]
    outcome: OutcomeJSON | None
    # a seat's view only
    hand: NotRequired[list[str]]
    drawn: NotRequired[list[str]]
    chapel_cards: NotRequired[int]
    chapel_names: NotRequired[list[str]]
    pending: NotRequired[Pending | None]



def _names(cards: list[int]) -> list[str]:
    return [NAMES[c] for c in cards]


def _prices(tile: int) -> dict[str, int]:
    return dict(zip(GOODS, TILE_PRICES[tile], strict=True))


def _seat(s: State, seat: int, p: Player, viewer: int | None) -> Seat:
    own = viewer == seat or s.over
    buildings: list[Building] = [
        {
            "card": NAMES[stack[-1]],
            "good": p.goods[i] >= 0,
            "active": i != p.fresh,
            "covered": _names(list(stack[:-1])),
        }
        for i, stack in enumerate(p.area)
    ]
    if own:
        chapel: int | None = len(p.chapel)
    else:
        # without a Chapel, covered or not, there can be no Chapel cards: 0 tells nothing
        had_chapel = any(CHAPEL in stack for stack in p.area)
        chapel = None if had_chapel else 0
    parts = score_parts(p, chapel=own)
    return {
        "seat": seat,
        "hand": sum(p.hand),
        "drawn": len(p.drawn),
        "waiting": bool(s.waiting >> seat & 1),  # chose the Councillor's draw, not dealt yet
        "buildings": buildings,
        "building_count": len(p.area),
        "goods": sum(1 for g in p.goods if g >= 0),
        "chapel": chapel,
        "vp": sum(parts.values()),
        "library": has_active(p, LIBRARY),
        "library_used": bool(s.lib_used >> seat & 1),
    }


def _pending(s: State, seat: int, kind: str) -> Pending:
    """The context of ``seat``'s own pending decision (only in that seat's view)."""
    p = s.players[seat]
    out: Pending = {"decision": kind}
    if kind == "build":
        out["costs"] = {
            a.code: build_cost(s, seat, a.a, a.b) for a in build_options(s, seat) if a.a >= 0
        }
        out["privilege"] = privilege(s, seat)
        # what each card of the hand would cost, affordable or not (in a new place, and over
        # each building with an active Crane), and the goods a Black market may add: a
        # refusal gives the numbers (issue #33)
        targets = [-1]
        if active_index(p, CRANE) >= 0:
            targets.extend(range(len(p.area)))
        out["prices"] = {
            f"b.{NAMES[k]}" + ("" if t < 0 else f"@{t}"): build_cost(s, seat, k, t)
            for k in range(len(p.hand)) if p.hand[k] for t in targets
        }
        out["goods_allowed"] = payable_goods(p, -1)
    elif kind == "pay":
        out.update({
            "building": NAMES[s.b_kind],
            "index": p.fresh,
            "over": None if s.b_target < 0 else NAMES[p.area[s.b_target][-2]],
            "cost": s.b_cost,
            "goods_allowed": payable_goods(p, -1),
        })
    elif kind in ("carpenter", "poor_house"):
        out["draw"] = 1
    elif kind == "prospector":
        out["draw"] = privilege(s, seat)
    elif kind == "produce":
        out["capacity"] = produce_capacity(s, seat)
    elif kind == "sell":
        out["capacity"] = sell_capacity(s, seat)
        out["prices"] = _prices(s.face_up)
    elif kind == "councillor" and not p.drawn:  # draw or pass, before seeing a card
        out.update({"draw": councillor_draws(s, seat), "keep": councillor_keeps(s, seat)})
    elif kind == "councillor":
        archive, count = councillor_rule(s, seat)
        if archive:
            out.update({"archive": True, "discard": count, "drawn": len(p.drawn)})
        else:
            out.update({"archive": False, "keep": count, "drawn": len(p.drawn)})
    elif kind == "hand_limit":
        limit = hand_limit(p)
        out.update({"limit": limit, "discard": sum(p.hand) - limit})
    elif kind == "variant_keep":
        out.update({"keep": VARIANT_KEEP, "drawn": len(p.drawn)})
    elif kind == "gold_mine_take":
        out["cards"] = _names(s.gm_cards)
    return out


def view(s: State, viewer: int | None) -> SanJuanView:
    if viewer is not None and not (type(viewer) is int and 0 <= viewer < s.n):
        raise ValueError(f"no seat {viewer!r}")
    prompt = current_prompt(s)
    role: Role | None = None
    if s.role >= 0:
        role = {"name": ROLES[s.role], "chooser": s.chooser, "library": s.library}
    gold_mine: GoldMine | None = None
    if s.gm_cards:
        gold_mine = {"seat": s.turn, "cards": _names(s.gm_cards)}
    out: SanJuanView = {
        "game": s.game_name,
        "view_version": VIEW_VERSION,
        "options": dict(s.options),
        "players": s.n,
        "viewer": viewer,
        "round": s.round,
        "governor": s.governor,
        "phase": PHASE_NAMES[s.phase],
        "role": role,
        "roles": [
            {"name": name, "taken_by": None if s.taken[r] < 0 else s.taken[r]}
            for r, name in enumerate(ROLES)
        ],
        "prompt": None if prompt is None else {"seats": list(prompt.seats), "kind": prompt.kind},
        "done": [seat for seat in range(s.n) if s.acted >> seat & 1],
        "trading_house": {
            "face_up": s.face_up or None,
            "prices": _prices(s.face_up) if s.face_up else None,
            "stack": len(s.tiles),
            "revealed": list(s.revealed),
        },
        "draw_pile": len(s.pile),
        "discard_pile": len(s.discard),
        "gold_mine": gold_mine,
        "seats": [_seat(s, seat, p, viewer) for seat, p in enumerate(s.players)],
        "game_over": s.over,
        "end_reasons": list(s.end_reasons),
        "outcome": final_scores(s).to_json() if s.over else None,
    }
    if viewer is not None:
        p = s.players[viewer]
        out["hand"] = _names(p.hand_cards())
        out["drawn"] = _names(sorted(p.drawn))
        out["chapel_cards"] = len(p.chapel)
        out["chapel_names"] = _names(sorted(p.chapel))  # §3.4: the owner knows which ones
        out["pending"] = (
            _pending(s, viewer, prompt.kind)
            if prompt is not None and viewer in prompt.seats
            else None
        )
    return out
