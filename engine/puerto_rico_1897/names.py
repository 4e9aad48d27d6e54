"""1897's names at the boundary of the engine contract (rules spec §1, §5, §6).

The kernel speaks classic Puerto Rico internally (indices, and the classic words in its codes,
events, views and prompts); an 1897 game speaks the English Special Edition's words everywhere a
caller sees one: ``s.indigo`` is ``p.fruit``, ``ColonistGained`` is ``WorkerGained``, a view's
``san_juan`` is ``portrait``.  Translation is word by word (whole strings, the tokens of a code,
a trailing count kept: ``prospector2`` is ``adventurer2``), through one table and its inverse,
so every classic word that 1897 renames is gone and nothing else changes.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from functools import cache, lru_cache
from typing import Any, Final

from ..core import Event, Outcome, Prompt, ScoreLine

WORDS: Final[dict[str, str]] = {
    # goods and properties (D-2), roles (§1)
    "indigo": "fruit",
    "settler": "planter",
    "mayor": "recruiter",
    "prospector": "adventurer",
    "buccaneer": "smuggler",
    # buildings (§5.2, §5.3; Exp. I §5.4 and Exp. II §5.5: 1897 swaps Land and Zoning Office)
    "small_indigo_plant": "small_fruit_depot",
    "indigo_plant": "large_fruit_depot",
    "sugar_mill": "large_sugar_mill",
    "tobacco_storage": "large_tobacco_storage",
    "coffee_roaster": "large_coffee_roaster",
    "construction_hut": "builders_yard",
    "hospice": "hospital",
    "university": "school",
    "guild_hall": "fire_station",
    "aqueduct": "canal",
    "black_market": "hidden_market",
    "forest_house": "lumber_mill",
    "storehouse": "depot",
    "guest_house": "shack",
    "trading_post": "merchants_post",
    "library": "press_center",
    "specialty_factory": "distillery",
    "union_hall": "assembly_hall",
    "cloister": "cathedral",
    "statue": "monument",
    "land_office": "zoning_office",
    "zoning_office": "notary",
    "hunting_lodge": "park_administration",
    "royal_supplier": "rescue_post",
    "villa": "country_house",
    "jeweler": "large_tailor_shop",
    "royal_garden": "town_square",
    "guest": "shack_worker",
    "guests": "shack_workers",
    "small_violet": "common_commercial",
    "large_violet": "expanded_commercial",
    # pieces, places, money
    "colonist": "worker",
    "colonists": "workers",
    "noble": "citizen",
    "noble_or_colonist": "citizen_or_worker",
    "nobles_among": "citizens_among",
    "nobles": "citizens",
    "san_juan": "portrait",
    "doubloons": "coins",
    "doubloons_on": "coins_on",
    "island": "field",
    "island_used": "field_used",
    "plantation": "property",
    "plantations": "properties",
    "plantation_stack": "property_bag",
    "plantation_discard": "property_discard",
    "vp_chips": "vp_tokens",
    "vp_chips_left": "vp_tokens_left",
    "chips": "tokens",
    "column": "level",
    "privilege": "advantage",
    "shares_from_mayor": "shares_from_recruiter",
    "mayor_placement": "recruiter_placement",
    "exclusive_forest_house": "pair_hacienda_lumber_mill",
    "exclusive_villa_jeweler": "pair_country_house_tailor",
    # prompt kinds
    "settle": "plant",
    "mayor_privilege": "recruiter_advantage",
    "craft_privilege": "craftsman_advantage",
    # events
    "ColonistGained": "WorkerGained",
    "ColonistShipRefilled": "AgencyRefilled",
    "ColonistsArranged": "WorkersArranged",
    "ColonistsDistributed": "WorkersDistributed",
    "DoubloonsEarned": "CoinsEarned",
    "PlantationTaken": "PropertyTaken",
    "PlantationsRevealed": "PropertiesRevealed",
    "PrivilegeGoodTaken": "AdvantageGoodTaken",
    "NobleGained": "CitizenGained",
    "ColonistPlaced": "WorkerPlaced",
    "ColonistShipRaided": "AgencyLured",
    "ShipPirated": "ShipRaided",
    "RoleCaptured": "RoleHijacked",
    "CaptureFeePaid": "HijackFeePaid",
    "CapturedRolePlayed": "HijackedRolePlayed",
    "GuestMoved": "ShackWorkerMoved",
    "PlantationSold": "PropertySold",
    "BuccaneerTokenTaken": "SmugglerTokenTaken",
    "piracy": "raid_ship",
    "raid": "lure",
    "raid_place": "lure_place",
    "raid_to_place": "lure_to_place",
    "capture": "hijack",
    "colonists_out": "workers_discarded",
}
"""Classic word -> 1897 word.  A word 1897 also uses for something else (Zoning Office) is
itself renamed, so the table is a bijection on the words it touches."""

IN_CONTEXT: Final[dict[tuple[str, str], str]] = {
    ("colonists", "ship"): "agency",  # a view's {"ship": n, "supply": n} of colonists
    ("source", "ship"): "agency",  # a colonist (or noble) taken from the colonist ship
    ("nobles", "ship"): "agency",  # a view's nobles on the colonist ship
}
"""(key, classic word) -> 1897 word: words whose 1897 name depends on where they stand."""

PREFIXES: Final[dict[str, str]] = {
    "s": "p",
    "m": "w",
    "mn": "wc",  # a Citizen's placement
    "bu": "sm",
    "lo": "zo",  # the Zoning Office (classic Land Office)
    "hl": "pa",  # the Park Administration (Hunting Lodge)
    "rs": "rp",  # the Rescue Post (Royal Supplier)
    "bm": "hm",  # the Hidden Market (Black Market)
    "tp": "mp",  # the Merchants' Post (Trading Post)
    "g": "sh",  # a Shack's guest (Guest House)
}
"""A code's first token, where it is an abbreviation: the Settler's pick is a planting, the
Mayor's a worker placement, the Buccaneer's option the Smuggler's (other first tokens are
words of ``WORDS``: ``raid.<place>`` is ``lure.<place>``)."""

REVERSE: Final = {new: old for old, new in WORDS.items()}
RENAMED: Final = frozenset(WORDS) - frozenset(WORDS.values())
"""The classic words 1897 calls otherwise and never uses itself."""
REVERSE_CONTEXT: Final = {(WORDS.get(key, key), new): old for (key, old), new in IN_CONTEXT.items()}
REVERSE_PREFIXES: Final = {new: old for old, new in PREFIXES.items()}
_COUNTED: Final = re.compile(r"([a-z_]+?)(\d+)")


def word(text: str, table: Mapping[str, str] = WORDS) -> str:
    """One word, with a trailing count kept (``prospector2``)."""
    if table is WORDS:
        return _forward(text)
    if table is REVERSE:
        return _backward(text)
    return _word(text, table)


@lru_cache(maxsize=4096)
def _forward(text: str) -> str:
    return _word(text, WORDS)


@lru_cache(maxsize=4096)
def _backward(text: str) -> str:
    return _word(text, REVERSE)


def _word(text: str, table: Mapping[str, str]) -> str:
    found = table.get(text)
    if found is not None:
        return found
    counted = _COUNTED.fullmatch(text)
    if counted is not None and counted[1] in table:
        return table[counted[1]] + counted[2]
    return text


@cache
def code(classic: str) -> str:
    """An action code in 1897's words."""
    first, *rest = classic.split(".")
    return ".".join([PREFIXES.get(first) or word(first), *(word(t) for t in rest)])


@cache
def classic_code(text: str) -> str:
    """An 1897 code in the kernel's words (the inverse of :func:`code`)."""
    first, *rest = text.split(".")
    head = REVERSE_PREFIXES.get(first) or word(first, REVERSE)
    return ".".join([head, *(word(t, REVERSE) for t in rest)])


def data(obj: Any, key: str = "", reverse: bool = False) -> Any:
    """A JSON-like value (view, event data, options) in 1897's words (or, ``reverse``, back in
    the kernel's): dict keys and string values, recursively; ``key``: the key ``obj`` stands
    under, in the words of the input."""
    return (_backward_data if reverse else _forward_data)(obj, key)


_CONTEXT_KEYS: Final = frozenset(k for k, _ in IN_CONTEXT)
_REVERSE_CONTEXT_KEYS: Final = frozenset(k for k, _ in REVERSE_CONTEXT)
_PLAIN: Final = frozenset({int, float, bool, type(None)})


def _translator(
    say: Callable[[str], str], context: Mapping[tuple[str, str], str], keys: frozenset[str]
) -> Callable[[Any, str], Any]:
    """:func:`data` in one direction.  A view is translated on every call of the contract, so
    this is the edition's hot path: the views' own types are tested first, by exact type, and
    a number (most of a view) is kept where it stands, without a call."""
    plain = _PLAIN
    say = _Memo(say).__getitem__  # a word met before: one lookup, no call of Python's

    def data(obj: Any, key: str) -> Any:
        kind = type(obj)
        if kind is dict:
            if key in keys:
                return {context.get((key, k)) or say(k): v if type(v) in plain else data(v, k)
                        for k, v in obj.items()}
            return {say(k): v if type(v) in plain else data(v, k) for k, v in obj.items()}
        if kind is list:
            return [v if type(v) in plain else data(v, key) for v in obj]
        if kind is str:
            return (key in keys and context.get((key, obj))) or say(obj)
        if kind in plain:
            return obj
        if isinstance(obj, str):
            return (key in keys and context.get((key, obj))) or say(obj)
        if isinstance(obj, Mapping):
            return {(key in keys and context.get((key, k))) or say(k): data(v, k)
                    for k, v in obj.items()}
        if isinstance(obj, tuple):
            return tuple(data(v, key) for v in obj)
        if isinstance(obj, list):
            return [data(v, key) for v in obj]
        return obj

    return data


MEMO_SIZE: Final = 4096


class _Memo(dict[str, str]):
    """Each word ``say`` gives, kept on first use (the words of views are few; at most
    :data:`MEMO_SIZE`, then it starts again)."""

    def __init__(self, say: Callable[[str], str]) -> None:
        super().__init__()
        self.say = say

    def __missing__(self, text: str) -> str:
        if len(self) >= MEMO_SIZE:
            self.clear()
        found = self[text] = self.say(text)
        return found


_forward_data: Final = _translator(_forward, IN_CONTEXT, _CONTEXT_KEYS)
_backward_data: Final = _translator(_backward, REVERSE_CONTEXT, _REVERSE_CONTEXT_KEYS)


def event(e: Event, reverse: bool = False) -> Event:
    """An event in 1897's words (or, ``reverse``, back in the kernel's)."""
    return Event(
        word(e.type, REVERSE if reverse else WORDS),
        e.seat,
        data(e.data, reverse=reverse),
        e.private_to,
        None if e.public_data is None else data(e.public_data, reverse=reverse),
    )


def prompt(p: Prompt | None) -> Prompt | None:
    return None if p is None else Prompt(p.seats, word(p.kind), p.forced)


def outcome(o: Outcome | None) -> Outcome | None:
    if o is None:
        return None
    lines = tuple(
        ScoreLine(s.seat, s.total, data(s.breakdown), s.tiebreak, s.rank) for s in o.scores
    )
    return Outcome(lines, o.winners, tuple(word(r) for r in o.end_reasons))
