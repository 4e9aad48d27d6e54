"""The Mayor arrangement on a phone: accept the suggestion in one click, or adjust a draft.

The engine places colonists one at a time (``m.<slot>``) or all at once as it suggests
(``m.auto``).  The private panel shows the suggestion preselected in two multi-select menus, one
for the island (plantations and quarries, at most 12 circles) and one for the city (at most 19
circles), each well inside Discord's 25 options.  Changing a menu redraws the panel and its
image, the draft placed on the board (:func:`drafted`): the draft (colonists per place) travels in
the custom_ids of the panel's components, so nothing is kept in memory and a restart loses
nothing.  **Confirm** submits the whole draft as one sequence
of placements in one service call, validated by the engine and committed together.

Why a draft rather than one placement per click: a typical arrangement is four to ten
colonists; menus with the suggestion preselected let a player change two circles with two taps,
see the result, and send it once.
"""

from __future__ import annotations

import string
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

TILE_ORDER = ("corn", "indigo", "sugar", "tobacco", "coffee", "quarry")
DIGITS = string.digits + string.ascii_lowercase  # one base-36 digit per place
MAX_PLACES = 40


@dataclass(frozen=True, slots=True)
class Place:
    """Somewhere a colonist can go now: a tile kind of the island or a building of the city."""

    name: str
    island: bool
    free: int


@dataclass(frozen=True, slots=True)
class Arrangement:
    """The places of one player's board with free circles, and how many colonists to place."""

    places: tuple[Place, ...]
    to_place: int
    suggested: tuple[int, ...]

    def valid(self, draft: Sequence[int]) -> bool:
        return len(draft) == len(self.places) and all(
            0 <= n <= p.free for n, p in zip(draft, self.places, strict=True)
        )

    def complete(self, draft: Sequence[int]) -> bool:
        return self.valid(draft) and sum(draft) == self.to_place

    def codes(self, draft: Sequence[int]) -> list[str]:
        """The placements of ``draft``, in the order of the places."""
        return [f"m.{p.name}" for p, n in zip(self.places, draft, strict=True) for _ in range(n)]

    def options(self, island: bool, draft: Sequence[int]) -> list[tuple[str, str, int, bool]]:
        """``(value, place name, circle number, selected)`` for every free circle of the island
        (``island``) or of the city."""
        out = []
        for index, (place, chosen) in enumerate(zip(self.places, draft, strict=True)):
            if place.island != island:
                continue
            for circle in range(place.free):
                out.append((f"{index}.{circle}", place.name, circle + 1, circle < chosen))
        return out

    def with_values(self, island: bool, values: Sequence[str], draft: Sequence[int]
                    ) -> tuple[int, ...]:
        """``draft`` with the island (or city) part replaced by the circles picked in a menu."""
        counts = [0 if p.island == island else n
                  for p, n in zip(self.places, draft, strict=True)]
        for value in values:
            index, _, _ = value.partition(".")
            if index.isdigit() and int(index) < len(counts) and \
                    self.places[int(index)].island == island:
                counts[int(index)] += 1
        return tuple(min(n, p.free) for n, p in zip(counts, self.places, strict=True))


def free_places(player: Mapping[str, Any]) -> tuple[Place, ...]:
    """The places of a player (from a view) that can take a colonist now, in a fixed order:
    tile kinds, then buildings in city order."""
    places = []
    for tile in TILE_ORDER:
        free = sum(1 for t in player.get("island", ()) if t["tile"] == tile and not t["occupied"])
        if free:
            places.append(Place(tile, True, free))
    for building in player.get("city", ()):
        free = int(building["circles"]) - int(building["colonists"])
        if free > 0:
            places.append(Place(str(building["building"]), False, free))
    return tuple(places)


def occupied(player: Mapping[str, Any]) -> dict[str, int]:
    """Colonists per place (tile kind or building) on a player's board."""
    counts: dict[str, int] = {}
    for tile in player.get("island", ()):
        if tile["occupied"]:
            counts[str(tile["tile"])] = counts.get(str(tile["tile"]), 0) + 1
    for building in player.get("city", ()):
        counts[str(building["building"])] = int(building["colonists"])
    return counts


def arrangement(now: Mapping[str, Any], suggested: Mapping[str, Any] | None) -> Arrangement:
    """The arrangement to make for ``now`` (a player of a seat view), with the engine's
    suggestion (the same player after ``m.auto``) as the starting draft."""
    places = free_places(now)[:MAX_PLACES]
    total = sum(p.free for p in places)
    to_place = min(int(now.get("san_juan", 0)), total)
    have = occupied(now)
    want = occupied(suggested) if suggested is not None else {}
    draft = [min(p.free, max(0, want.get(p.name, 0) - have.get(p.name, 0))) for p in places]
    extra = sum(draft) - to_place
    for index in reversed(range(len(draft))):  # too many: drop from the last places
        while extra > 0 and draft[index] > 0:
            draft[index] -= 1
            extra -= 1
    for index, place in enumerate(places):  # too few: fill the first free circles
        while extra < 0 and draft[index] < place.free:
            draft[index] += 1
            extra += 1
    return Arrangement(places, to_place, tuple(draft))


def encode(draft: Sequence[int]) -> str:
    return "".join(DIGITS[min(n, len(DIGITS) - 1)] for n in draft)


def decode(text: str) -> tuple[int, ...] | None:
    if len(text) > MAX_PLACES or any(c not in DIGITS for c in text):
        return None
    return tuple(DIGITS.index(c) for c in text)


def drafted(view: Mapping[str, Any], seat: int, plan: Arrangement, draft: str | None = None
            ) -> dict[str, Any]:
    """``view`` with ``seat``'s colonists placed as the draft says (``draft`` as it travels in
    the custom_ids; the suggestion when it is missing or no longer valid): what the private
    panel's image shows while the player arranges.  At the start of the arrangement the engine
    has taken every colonist back to San Juan; the image shows the draft being made instead."""
    counts = decode(draft) if draft is not None else None
    if counts is None or not plan.valid(counts):
        counts = plan.suggested
    player = dict(view["players"][seat])
    island = [dict(tile) for tile in player.get("island", ())]
    city = [dict(building) for building in player.get("city", ())]
    placed = 0
    for place, count in zip(plan.places, counts, strict=True):
        n = count
        if place.island:
            for tile in island:
                if n and tile["tile"] == place.name and not tile["occupied"]:
                    tile["occupied"] = True
                    n -= 1
                    placed += 1
            continue
        for building in city:
            if n and building["building"] == place.name:
                room = int(building["circles"]) - int(building["colonists"])
                moved = min(n, room)
                building["colonists"] = int(building["colonists"]) + moved
                n -= moved
                placed += moved
    player.update(island=island, city=city, san_juan=int(player.get("san_juan", 0)) - placed)
    players = list(view["players"])
    players[seat] = player
    return {**view, "players": players}
