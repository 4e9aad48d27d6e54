"""San Juan's save format (``Game.dump`` / ``Game.load``).

Format 2 names every card kind and role by its id (``data.CARDS``, ``data.ROLES``), as the
action codes do; the state in memory keeps their indices, translated here, so a card kind added
anywhere in the table changes no save.  A hand is ``{card: count}``; piles, stacks and the
Chapel's cards are lists of names; trading-house tiles keep their printed numbers.  Format 1
(indices) is still read through the frozen tables of ``save_v1``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from ..core import CorruptState
from ..fields import Names, bool_list, int_field, int_list, mapping_field, str_list
from .data import CARDS, ROLES
from .save_v1 import upgrade
from .state import Player, State

DUMP_VERSION: Final = 2

CARD_NAMES: Final = Names("card", tuple(card.name for card in CARDS))
ROLE_NAMES: Final = Names("role", ROLES)

_SCALARS: Final = (
    "n",
    "rng",
    "round",
    "governor",
    "phase",
    "step",
    "turn",
    "turns",
    "chooser",
    "picks",
    "lib_used",
    "acted",
    "waiting",
    "face_up",
    "b_target",
    "b_cost",
    "reveals",
)
_CARD_LISTS: Final = ("pile", "discard", "gm_cards")
_TILE_LISTS: Final = ("tiles", "revealed")  # trading-house tiles by their numbers


def dump_state(s: State) -> dict[str, Any]:
    """The whole state, secrets included, as JSON-safe data (for storage, never for players)."""
    cards = CARD_NAMES
    out: dict[str, Any] = {
        "format": DUMP_VERSION,
        "game": s.game_name,
        "options": s.options,
        "library": s.library,
        "pending": s.pending,
        "end_reasons": s.end_reasons,
        "role": ROLE_NAMES.name_or_none(s.role),
        "b_kind": cards.name_or_none(s.b_kind),
        "taken": {ROLES[r]: seat for r, seat in enumerate(s.taken) if seat >= 0},
        "players": [_dump_player(p) for p in s.players],
    }
    for name in _SCALARS:
        out[name] = getattr(s, name)
    for name in _CARD_LISTS:
        out[name] = cards.list_of(getattr(s, name))
    for name in _TILE_LISTS:
        out[name] = getattr(s, name)
    return out


def _dump_player(p: Player) -> dict[str, Any]:
    cards = CARD_NAMES
    names = cards.names
    return {
        "hand": cards.counts(p.hand),
        "area": [[names[k] for k in stack] for stack in p.area],
        "goods": [cards.name_or_none(g) for g in p.goods],
        "chapel": cards.list_of(p.chapel),
        "drawn": cards.list_of(p.drawn),
        "fresh": p.fresh,
    }


def load_state(data: Mapping[str, Any]) -> State:
    """Inverse of :func:`dump_state`, format 1 too.  Raises :class:`CorruptState` on any
    malformed field (the game's ``load`` then checks every invariant)."""
    if not isinstance(data, Mapping):
        raise CorruptState("not_an_object")
    version = data.get("format")
    if version == 1 and type(version) is int:
        data = upgrade(data)  # a game stored before format 2
    elif version != DUMP_VERSION or type(version) is not int:
        raise CorruptState("unsupported_format", format=repr(version)[:20])
    try:
        return _read(data)
    except KeyError as exc:
        raise CorruptState("missing_field", field=str(exc.args[0])) from None


def _read(data: Mapping[str, Any]) -> State:
    cards = CARD_NAMES
    s = State()
    s.game_name = str(data["game"])
    s.options = mapping_field(data, "options")
    for name in _SCALARS:
        setattr(s, name, int_field(data, name))
    for name in _CARD_LISTS:
        setattr(s, name, cards.read_list(data[name], name))
    for name in _TILE_LISTS:
        setattr(s, name, int_list(data, name))
    library = data["library"]
    if type(library) is not bool:
        raise CorruptState("bad_field", field="library")
    s.library = library
    s.pending = bool_list(data, "pending")
    s.end_reasons = str_list(data, "end_reasons")
    s.role = ROLE_NAMES.optional(data["role"], "role")
    s.b_kind = cards.optional(data["b_kind"], "b_kind")
    taken = data["taken"]
    if not isinstance(taken, dict):
        raise CorruptState("bad_field", field="taken")
    s.taken = [-1] * len(ROLES)
    for role, seat in taken.items():
        if type(seat) is not int or seat < 0:
            raise CorruptState("bad_field", field="taken")
        s.taken[ROLE_NAMES.of(role, "taken")] = seat
    players = data["players"]
    if not isinstance(players, list):
        raise CorruptState("bad_field", field="players")
    s.players = [_read_player(raw) for raw in players]
    return s


def _read_player(raw: Any) -> Player:
    if not isinstance(raw, dict):
        raise CorruptState("bad_field", field="players")
    cards = CARD_NAMES
    p = Player()
    p.hand = cards.read_counts(raw["hand"], "hand")
    area = raw["area"]
    if not isinstance(area, list):
        raise CorruptState("bad_field", field="area")
    for stack in area:
        kinds = cards.read_list(stack, "area")
        if not kinds:
            raise CorruptState("bad_field", field="area")
        p.area.append(tuple(kinds))
        p.top.append(kinds[-1])
    goods = raw["goods"]
    if not isinstance(goods, list) or len(goods) != len(p.area):
        raise CorruptState("bad_field", field="goods")
    p.goods = [cards.optional(g, "goods") for g in goods]
    p.chapel = cards.read_list(raw["chapel"], "chapel")
    p.drawn = cards.read_list(raw["drawn"], "drawn")
    p.fresh = int_field(raw, "fresh")
    return p
