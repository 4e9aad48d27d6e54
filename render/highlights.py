"""What just changed: engine events -> the keys of the regions to frame on the image.

The bot passes the events of the last phase (``engine.core.Event`` objects, or their JSON form
from storage).  Each event is first reduced to what the image's viewer may see
(``Event.for_viewer``), so a private event (``VpEarned``) can never mark the public image.
Keys name regions of the layout (``role:captain``, ``market:harbor``, ``ship:1``,
``player:2:city:harbor``...); a key the layout does not have is simply ignored.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from engine.core import Event

EventLike = Event | Mapping[str, Any]


def _as_event(event: EventLike) -> Event:
    if isinstance(event, Event):
        return event
    return Event.from_json(event)


def _keys(event: Event) -> list[str]:
    data = event.data
    seat = event.seat
    player = f"player:{seat}"
    kind = event.type
    if kind == "RoleChosen":
        keys = [f"role:{data.get('card', data.get('role'))}"]
        if data.get("doubloons"):
            keys.append(f"{player}:doubloons")
        return keys
    if kind == "BuildingBuilt":
        return [f"{player}:city:{data['building']}", f"market:{data['building']}"]
    if kind in ("PlantationTaken", "QuarryTaken"):
        return [f"{player}:island:{data['tile']}"]
    if kind == "GoodsShipped":
        ship = data.get("ship")
        if isinstance(ship, int):
            return [f"ship:{ship}", f"{player}:goods"]
        return [f"{player}:goods"]
    if kind == "GoodSold":
        return [f"trading_house:last:{data['good']}", f"{player}:doubloons"]
    if kind in ("GoodsProduced", "PrivilegeGoodTaken", "GoodsDiscarded"):
        return [f"{player}:goods"]
    if kind == "DoubloonsEarned":
        return [f"{player}:doubloons"]
    if kind == "ColonistGained":
        by = data.get("by")
        if by == "university":
            return [f"{player}:city:{data.get('target')}"]
        if by == "hospice":
            return [f"{player}:island:{data.get('target')}"]
        return [f"{player}:san_juan"]
    if kind == "ColonistShipRefilled":
        return ["colonist_ship"]
    if kind == "TradingHouseEmptied":
        return ["trading_house"]
    if kind == "PlantationsRevealed":
        return ["face_up"]
    if kind == "GovernorPassed":
        return ["governor", f"{player}:governor"]
    if kind == "VpEarned":
        return [f"{player}:vp"]
    return []


def highlight_keys(events: Iterable[EventLike] | None, viewer: int | None) -> frozenset[str]:
    """Region keys to frame for ``events`` as ``viewer`` (``None``: the public) may see them."""
    if not events:
        return frozenset()
    keys: set[str] = set()
    for raw in events:
        event = _as_event(raw).for_viewer(viewer)
        if event is not None:
            keys.update(_keys(event))
    return frozenset(keys)
