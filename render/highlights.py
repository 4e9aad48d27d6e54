"""What just changed: engine events -> the keys of the regions to frame on the image (each game's
renderer says which keys an event marks: e.g. ``render.puerto_rico.highlights``).

The bot passes the events of the last phase (``engine.core.Event`` objects, or their JSON form
from storage).  Each event is first reduced to what the image's viewer may see
(``Event.for_viewer``), so a private event (``VpEarned``) can never mark the public image.
Keys name regions of the layout (``role:captain``, ``market:harbor``, ``ship:1``,
``player:2:city:harbor``...); a key the layout does not have is simply ignored.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from engine.core import Event

EventLike = Event | Mapping[str, Any]


def _as_event(event: EventLike) -> Event:
    if isinstance(event, Event):
        return event
    return Event.from_json(event)


EventKeys = Callable[[Event], list[str]]
"""A game's mapping of one (already redacted) event to region keys."""


def highlight_keys(events: Iterable[EventLike] | None, viewer: int | None,
                   keys: EventKeys) -> frozenset[str]:
    """Region keys to frame for ``events`` as ``viewer`` (``None``: the public) may see them."""
    if not events:
        return frozenset()
    found: set[str] = set()
    for raw in events:
        event = _as_event(raw).for_viewer(viewer)
        if event is not None:
            found.update(keys(event))
    return frozenset(found)
