"""What just changed in San Juan: an event -> the keys of the regions to frame on the image
(``role:builder``, ``player:2:card:smithy``, ``trading_house``, ``gold_mine``...).  A key the
layout does not have is simply ignored; :mod:`render.highlights` reduces each event to what the
image's viewer may see first, so a private event (the cards a seat drew) frames in public only
what its public form says (that seat's hand count)."""

from __future__ import annotations

from collections.abc import Iterable

from engine.core import Event

from ..highlights import EventLike
from ..highlights import highlight_keys as _highlight_keys

HAND_EVENTS = ("CardsDrawn", "CardsKept", "CardsDiscarded", "CardsPaid", "GoldMineCardTaken")
"""Events that change a seat's hand (private: in public, their counts only)."""


def event_keys(event: Event) -> list[str]:
    data = event.data
    player = f"player:{event.seat}"
    kind = event.type
    if kind == "RoleChosen":
        return [f"role:{data.get('role')}"]
    if kind == "BuildingBuilt":
        index = data.get("index")
        where = f"building:{index}" if isinstance(index, int) else f"card:{data.get('card')}"
        return [f"{player}:{where}", f"{player}:buildings"]
    if kind == "GoodsProduced":
        return [f"{player}:building:{i}" for i in data.get("buildings") or ()]
    if kind == "GoodsSold":
        return ["trading_house"]
    if kind in HAND_EVENTS:
        return [f"{player}:hand"]
    if kind == "ChapelCardPlaced":
        return [f"{player}:chapel"]
    if kind == "TileRevealed":
        return ["trading_house:tile", "trading_house"]
    if kind == "GoldMineRevealed":  # the cards while they lie there, and the mine itself
        return ["gold_mine", f"{player}:card:gold_mine"]
    if kind == "RoundStarted":
        governor = data.get("governor")
        return ["governor", f"player:{governor}:governor"]
    if kind == "PileReshuffled":
        return ["draw_pile"]
    return []


def highlight_keys(events: Iterable[EventLike] | None, viewer: int | None) -> frozenset[str]:
    """Region keys to frame for ``events`` as ``viewer`` (``None``: the public) may see them."""
    return _highlight_keys(events, viewer, event_keys)


__all__ = ["EventLike", "event_keys", "highlight_keys"]
