"""San Juan actions and their canonical text codes.

An action is a small immutable value whose ``code`` is its canonical text; two actions are equal
exactly when their codes are.  Cards of one kind are interchangeable, so actions name card
kinds (and goods by their kind), never physical cards: a code tells no more than the kinds
involved.  Codes use only ``[a-z0-9._,*+@]`` and round-trip: ``decode(a.code) == a``.

A *multiset* of card kinds (or goods) is written as the names in catalog order, each once,
joined by ``,``, with ``*n`` (n >= 2, no leading zero) for repeats: ``indigo_plant*2,well``.

===========================  ===================================================================
code                         meaning (prompt kind)
===========================  ===================================================================
``r.<role>``                 choose a role: builder, producer, trader, councillor, prospector
``r.<role>.lib``             choose it and double its privilege with an active Library (role)
``b.<kind>``                 build that card from the hand in a new place (build)
``b.<kind>@<i>``             build it over one's own top-level building at area index ``i``
                             with an active Crane (build)
``p.<cards>``                pay the building cost with these hand cards (pay)
``p.<cards>+g.<goods>``      ... and up to 2 goods with an active Black market (pay)
``p+g.<goods>``              pay with goods only (pay)
``draw``                     take the optional draw: Carpenter, Poor house, the Prospector's
                             privilege (carpenter, poor_house, prospector)
``reveal``                   use the Gold mine: turn up 4 cards (gold_mine)
``gm.<kind>``                take that card of the 4 the Gold mine turned up (gold_mine_take)
``pr.<goods>``               produce these goods on empty production buildings (produce)
``s.<goods>``                sell these goods (sell)
``k.<cards>``                keep these of the drawn cards (councillor, variant_keep)
``d.<cards>``                discard these cards: the Archive's discard from the whole hand
                             (councillor) or down to the hand limit (hand_limit)
``c.<kind>``                 put one hand card of that kind under the Chapel (chapel)
``pass``                     decline (build nothing, produce or sell nothing, no draw, no
                             Gold mine, no Chapel card, keep none of the drawn cards)
===========================  ===================================================================
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

from ..core import InvalidAction
from .data import CARDS, GOOD_INDEX, GOODS, KIND_INDEX, NKINDS, ROLE_INDEX, ROLES

# action kinds
ROLE: Final = 0
BUILD: Final = 1
PAY: Final = 2
DRAW: Final = 3
REVEAL: Final = 4
TAKE: Final = 5
PRODUCE: Final = 6
SELL: Final = 7
KEEP: Final = 8
DISCARD: Final = 9
CHAPEL: Final = 10
PASS: Final = 11

KIND_NAMES: Final = tuple(card.name for card in CARDS)
MAX_MULTISET: Final = 120  # more cards than the game has: a code naming more is malformed
MAX_CODE: Final = 400


class Action:
    """One San Juan action.  ``a``/``b`` are small arguments (role and Library flag; card kind
    and Crane target, -1 for none); ``cards`` and ``goods`` are sorted tuples of card kinds and
    good indices (with repeats) for multiset actions."""

    __slots__ = ("a", "b", "cards", "code", "goods", "kind")

    def __init__(
        self,
        kind: int,
        code: str,
        a: int = -1,
        b: int = -1,
        cards: tuple[int, ...] = (),
        goods: tuple[int, ...] = (),
    ) -> None:
        self.kind = kind
        self.code = code
        self.a = a
        self.b = b
        self.cards = cards
        self.goods = goods

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Action) and other.code == self.code

    def __hash__(self) -> int:
        return hash(self.code)

    def __repr__(self) -> str:
        return f"Action({self.code!r})"

    def __reduce__(self) -> tuple[type[Action], tuple[object, ...]]:
        # pickled as a call of the constructor (the bot's worker processes): the one way a class
        # compiled by mypyc (``engine.native``) can be rebuilt
        return Action, (self.kind, self.code, self.a, self.b, self.cards, self.goods)


def multiset_text(items: Sequence[int], names: Sequence[str]) -> str:
    """``(0, 0, 11)`` -> ``indigo_plant*2,well`` (``items`` sorted)."""
    parts: list[str] = []
    i = 0
    count = len(items)
    while i < count:
        item = items[i]
        j = i + 1
        while j < count and items[j] == item:
            j += 1
        parts.append(names[item] if j - i == 1 else f"{names[item]}*{j - i}")
        i = j
    return ",".join(parts)


def _parse_multiset(text: str, index: dict[str, int]) -> tuple[int, ...] | None:
    """Inverse of :func:`multiset_text` for canonical text only; ``None`` when malformed."""
    if not text:
        return None
    out: list[int] = []
    last = -1
    for part in text.split(","):
        name, star, digits = part.partition("*")
        item = index.get(name, -1)
        if item <= last:
            return None
        if star:
            if not digits.isdigit() or digits[0] == "0" or len(digits) > 3:
                return None
            repeat = int(digits)
            if repeat < 2:
                return None
        else:
            repeat = 1
        out.extend([item] * repeat)
        if len(out) > MAX_MULTISET:
            return None
        last = item
    return tuple(out)


_TABLE: Final[dict[str, Action]] = {}


def _add(action: Action) -> Action:
    _TABLE[action.code] = action
    return action


PASS_ACTION: Final = _add(Action(PASS, "pass"))
DRAW_ACTION: Final = _add(Action(DRAW, "draw"))
REVEAL_ACTION: Final = _add(Action(REVEAL, "reveal"))
# ROLE_ACTIONS[role][library]
ROLE_ACTIONS: Final = [
    (_add(Action(ROLE, f"r.{name}", r, 0)), _add(Action(ROLE, f"r.{name}.lib", r, 1)))
    for r, name in enumerate(ROLES)
]
BUILD_ACTIONS: Final = [
    _add(Action(BUILD, f"b.{name}", k, -1)) for k, name in enumerate(KIND_NAMES)
]
TAKE_ACTIONS: Final = [_add(Action(TAKE, f"gm.{name}", k)) for k, name in enumerate(KIND_NAMES)]
CHAPEL_ACTIONS: Final = [_add(Action(CHAPEL, f"c.{name}", k)) for k, name in enumerate(KIND_NAMES)]

_BUILD_OVER: Final[dict[tuple[int, int], Action]] = {}


def build_over(kind: int, target: int) -> Action:
    """``b.<kind>@<target>``."""
    key = (kind, target)
    action = _BUILD_OVER.get(key)
    if action is None:
        action = _BUILD_OVER[key] = Action(BUILD, f"b.{KIND_NAMES[kind]}@{target}", kind, target)
    return action


_MULTI: Final[dict[tuple[int, tuple[int, ...], tuple[int, ...]], Action]] = {}
_PREFIX: Final = {PRODUCE: "pr.", SELL: "s.", KEEP: "k.", DISCARD: "d."}


def multi(kind: int, cards: tuple[int, ...] = (), goods: tuple[int, ...] = ()) -> Action:
    """The multiset action of ``kind`` (PAY, PRODUCE, SELL, KEEP, DISCARD) naming sorted
    ``cards`` (card kinds) and ``goods`` (good indices)."""
    key = (kind, cards, goods)
    action = _MULTI.get(key)
    if action is None:
        if kind == PAY:
            code = "p." + multiset_text(cards, KIND_NAMES) if cards else "p"
            if goods:
                code += "+g." + multiset_text(goods, GOODS)
        elif kind in (PRODUCE, SELL):
            code = _PREFIX[kind] + multiset_text(goods, GOODS)
        else:
            code = _PREFIX[kind] + multiset_text(cards, KIND_NAMES)
        if len(_MULTI) > 200_000:  # a cache, not a registry: keep it bounded
            _MULTI.clear()
        action = _MULTI[key] = Action(kind, code, cards=cards, goods=goods)
    return action


def _decode_build(code: str) -> Action | None:
    body = code[2:]
    name, at, target = body.partition("@")
    kind = KIND_INDEX.get(name, -1)
    if kind < 0 or not at:
        return None
    if not target.isdigit() or (target[0] == "0" and target != "0") or len(target) > 3:
        return None
    return build_over(kind, int(target))


def _decode_pay(code: str) -> Action | None:
    cards_text, plus, goods_text = code.partition("+")
    if cards_text == "p":
        cards: tuple[int, ...] | None = ()
    elif cards_text.startswith("p."):
        cards = _parse_multiset(cards_text[2:], KIND_INDEX)
    else:
        return None
    if cards is None:
        return None
    goods: tuple[int, ...] | None = ()
    if plus:
        if not goods_text.startswith("g."):
            return None
        goods = _parse_multiset(goods_text[2:], GOOD_INDEX)
    if goods is None or not (cards or goods):
        return None
    return multi(PAY, cards, goods)


def decode(code: str) -> Action:
    """The action named by ``code``; :class:`InvalidAction` for anything else."""
    if not isinstance(code, str):
        raise InvalidAction(action=repr(code)[:80])
    action = _TABLE.get(code)
    if action is not None:
        return action
    found: Action | None = None
    if len(code) <= MAX_CODE:
        head = code[:2]
        if head == "b.":
            found = _decode_build(code)
        elif code[:1] == "p" and code[:3] != "pr.":
            found = _decode_pay(code)
        elif code[:3] == "pr.":
            goods = _parse_multiset(code[3:], GOOD_INDEX)
            found = None if goods is None else multi(PRODUCE, goods=goods)
        elif head == "s.":
            goods = _parse_multiset(code[2:], GOOD_INDEX)
            found = None if goods is None else multi(SELL, goods=goods)
        elif head in ("k.", "d."):
            cards = _parse_multiset(code[2:], KIND_INDEX)
            if cards is not None:
                found = multi(KEEP if head == "k." else DISCARD, cards=cards)
    if found is None or found.code != code:
        raise InvalidAction(action=code[:80])
    return found


def all_simple_codes() -> list[str]:
    """Every code outside the open-ended multiset families (for tests and documentation)."""
    return sorted(_TABLE)


def sorted_items(items: Iterable[int]) -> tuple[int, ...]:
    return tuple(sorted(items))


assert len(ROLE_INDEX) == 5 and len(KIND_NAMES) == NKINDS
