"""Format 1 of San Juan's saves (issue #34: every game stored before format 2), read by turning
it into format 2 (``save``).  Format 1 stored card kinds and roles as indices into the tables of
its time, frozen here as they were, so that no later change of ``data.CARDS`` (a card kind
inserted) changes how an old save reads.  Nothing here may ever change.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from ..core import CorruptState

# data.CARDS and data.ROLES of format 1's time, frozen
CARDS: Final = (
    "indigo_plant", "sugar_mill", "tobacco_storage", "coffee_roaster", "silver_smelter",
    "smithy", "gold_mine", "archive", "poor_house", "black_market", "trading_post", "well",
    "market_stand", "crane", "chapel", "tower", "aqueduct", "carpenter", "prefecture",
    "market_hall", "quarry", "library", "statue", "victory_column", "hero", "guild_hall",
    "city_hall", "triumphal_arch", "palace",
)
ROLES: Final = ("builder", "producer", "trader", "councillor", "prospector")


def upgrade(data: Mapping[str, Any]) -> dict[str, Any]:
    """A format-1 save as format 2 (``CorruptState`` when it is malformed)."""
    try:
        return _upgrade(data)
    except CorruptState:
        raise
    except KeyError as exc:
        raise CorruptState("missing_field", field=str(exc.args[0])) from None
    except (IndexError, TypeError, ValueError, AttributeError):
        raise CorruptState("bad_field", field="format_1") from None


def _name(table: tuple[str, ...], i: Any, key: str) -> str:
    if type(i) is not int or not 0 <= i < len(table):
        raise CorruptState("bad_card" if table is CARDS else "bad_field", field=key)
    return table[i]


def _names(values: Any, key: str) -> list[str]:
    if not isinstance(values, list):
        raise CorruptState("bad_field", field=key)
    return [_name(CARDS, k, key) for k in values]


def _optional(table: tuple[str, ...], i: Any, key: str) -> str | None:
    return None if i == -1 and type(i) is int else _name(table, i, key)


def _upgrade(data: Mapping[str, Any]) -> dict[str, Any]:
    out = {k: v for k, v in data.items() if k not in _CONVERTED}
    out["format"] = 2
    out.setdefault("waiting", 0)  # came with ``councillor_draw``: 0 in the saves made before
    for key in ("pile", "discard", "gm_cards"):
        out[key] = _names(data[key], key)
    out["role"] = _optional(ROLES, data["role"], "role")
    out["b_kind"] = _optional(CARDS, data["b_kind"], "b_kind")
    taken = data["taken"]
    if not isinstance(taken, list) or len(taken) != len(ROLES):
        raise CorruptState("bad_field", field="taken")
    out["taken"] = {ROLES[r]: seat for r, seat in enumerate(taken) if seat != -1}
    players = data["players"]
    if not isinstance(players, list):
        raise CorruptState("bad_field", field="players")
    out["players"] = [_player(p) for p in players]
    return out


# format 1's keys that format 2 writes otherwise (the others are copied as they are)
_CONVERTED: Final = frozenset(
    {"format", "pile", "discard", "gm_cards", "role", "b_kind", "taken", "players"})


def _player(raw: Any) -> dict[str, Any]:
    """A hand was a sorted list of card kinds (with repeats); the rest lists of kinds."""
    if not isinstance(raw, Mapping):
        raise CorruptState("bad_field", field="players")
    hand: dict[str, int] = {}
    for name in _names(raw["hand"], "hand"):
        hand[name] = hand.get(name, 0) + 1
    area = raw["area"]
    if not isinstance(area, list):
        raise CorruptState("bad_field", field="area")
    goods = raw["goods"]
    if not isinstance(goods, list):
        raise CorruptState("bad_field", field="goods")
    return {
        "hand": hand,
        "area": [_names(stack, "area") for stack in area],
        "goods": [_optional(CARDS, g, "goods") for g in goods],
        "chapel": _names(raw["chapel"], "chapel"),
        "drawn": _names(raw["drawn"], "drawn"),
        "fresh": raw["fresh"],
    }
