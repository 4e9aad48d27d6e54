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


def event_keys(event: Event) -> list[str]:
    data = event.data
    player = f"player:{event.seat}"
    kind = event.type
    if kind == "RoleChosen":
        return [f"role:{data.get('role', data.get('name'))}"]
    if kind == "BuildingBuilt":
        card = data.get("card", data.get("building"))
        return [f"{player}:card:{card}", f"{player}:buildings"]
    if kind in ("GoodsProduced", "GoodsSold", "GoodsPaid"):
        keys = [f"{player}:card:{b}" for b in data.get("buildings") or ()]
        if kind == "GoodsSold":
            keys.append("trading_house")
        return keys or [f"{player}:area"]
    if kind in ("CardsDrawn", "CardsKept", "CardsDiscarded", "CardsPaid", "CardTaken",
                "HandLimitDiscarded"):
        return [f"{player}:hand"]
    if kind == "ChapelCardPlaced":
        return [f"{player}:chapel", f"{player}:hand"]
    if kind == "TileRevealed":
        return ["trading_house", "trading_house:tile"]
    if kind == "GoldMineRevealed":
        return ["gold_mine"]
    if kind == "GovernorPassed":
        return ["governor", f"{player}:governor"]
    if kind == "Reshuffled":
        return ["draw_pile", "discard_pile"]
    return []


def highlight_keys(events: Iterable[EventLike] | None, viewer: int | None) -> frozenset[str]:
    """Region keys to frame for ``events`` as ``viewer`` (``None``: the public) may see them."""
    return _highlight_keys(events, viewer, event_keys)


__all__ = ["EventLike", "event_keys", "highlight_keys"]
