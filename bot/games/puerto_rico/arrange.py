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

Exp. 2's nobles (§11, A19): the engine places a noble with ``mn.<slot>``.  A player whose
nobles' places change nothing (no Land Office, Chapel, Hunting Lodge or Zoning Office) places
them first, as the engine asks: the draft's first pieces are his nobles.  A player owning such a
building chooses which of the drafted circles get nobles in a third menu; the nobles' draft
travels beside the pieces' draft in the custom_id (``<pieces>-<nobles>``).
"""

from __future__ import annotations

import string
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from engine.puerto_rico.view import PlayerEntry, PuertoRicoView

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
    nobles: int = 0
    """Exp. 2: the nobles waiting in San Juan (every other piece waiting is a colonist)."""
    colonists: int = 0
    """The colonists waiting in San Juan."""
    noble_choice: bool = False
    """Whether the player chooses which circles get nobles (else they are placed first)."""
    suggested_nobles: tuple[int, ...] = ()
    """The engine's suggestion: nobles per place (the pieces per place are ``suggested``)."""

    def valid(self, draft: Sequence[int]) -> bool:
        return len(draft) == len(self.places) and all(
            0 <= n <= p.free for n, p in zip(draft, self.places, strict=True)
        )

    def complete(self, draft: Sequence[int], nobles: Sequence[int] | None = None) -> bool:
        if not self.valid(draft) or sum(draft) != self.to_place:
            return False
        return not self.nobles or nobles is None or self.nobles_valid(draft, nobles)

    def noble_range(self, draft: Sequence[int]) -> tuple[int, int]:
        """How many of the ``draft``'s pieces are nobles, at least and at most: all the
        nobles the draft can hold when they go first; with a choice, at most that and at least
        the pieces the colonists waiting cannot fill."""
        placed = sum(draft)
        most = min(self.nobles, placed)
        # an over-full draft (not complete) may need more nobles than there are: capped
        return (min(most, max(0, placed - self.colonists)) if self.noble_choice else most), most

    def nobles_valid(self, draft: Sequence[int], nobles: Sequence[int]) -> bool:
        low, high = self.noble_range(draft)
        return len(nobles) == len(draft) and low <= sum(nobles) <= high and all(
            0 <= k <= n for k, n in zip(nobles, draft, strict=True))

    def fit_nobles(self, draft: Sequence[int], wanted: Sequence[int] | None = None
                   ) -> tuple[int, ...]:
        """Nobles per place for the pieces of ``draft``: ``wanted`` (the suggestion's when
        missing) as far as it fits, then the first places' pieces, then the last dropped."""
        wanted = self.suggested_nobles if wanted is None else wanted
        if len(wanted) != len(draft):
            wanted = (0,) * len(draft)
        out = [min(k, n) for k, n in zip(wanted, draft, strict=True)]
        low, high = self.noble_range(draft)
        for index in range(len(out)):  # too few
            while sum(out) < low and out[index] < draft[index]:
                out[index] += 1
        for index in reversed(range(len(out))):  # too many
            while sum(out) > high and out[index]:
                out[index] -= 1
        return tuple(out)

    def codes(self, draft: Sequence[int], nobles: Sequence[int] | None = None) -> list[str]:
        """The placements of ``draft``, in the order of the places: the nobles first
        (``mn.<slot>``, Exp. 2), then the colonists (``m.<slot>``)."""
        nobles = self.fit_nobles(draft, nobles) if self.nobles else (0,) * len(draft)
        zipped = list(zip(self.places, draft, nobles, strict=True))
        return [*(f"mn.{p.name}" for p, _, k in zipped for _ in range(k)),
                *(f"m.{p.name}" for p, n, k in zipped for _ in range(n - k))]

    def noble_options(self, draft: Sequence[int], nobles: Sequence[int]
                      ) -> list[tuple[str, str, int, bool]]:
        """``(value, place name, circle number, selected)`` for every circle of the draft: the
        circles a noble may take (the selected ones hold nobles)."""
        out = []
        for index, (place, count, chosen) in enumerate(zip(self.places, draft, nobles,
                                                           strict=True)):
            for circle in range(count):
                out.append((f"{index}.{circle}", place.name, circle + 1, circle < chosen))
        return out

    def with_nobles(self, values: Sequence[str], draft: Sequence[int]) -> tuple[int, ...]:
        """The nobles of ``draft`` in the circles picked in the nobles' menu (fitted)."""
        counts = [0] * len(draft)
        for value in values:
            index, _, _ = value.partition(".")
            if index.isdigit() and int(index) < len(counts):
                counts[int(index)] += 1
        return self.fit_nobles(draft, counts)

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


def free_places(player: PlayerEntry) -> tuple[Place, ...]:
    """The places of a player (from a view) that can take a colonist now, in a fixed order:
    tile kinds, then buildings in city order."""
    places = []
    for tile in TILE_ORDER:
        free = sum(1 for t in player["island"] if t["tile"] == tile and not t["occupied"])
        if free:
            places.append(Place(tile, True, free))
    for building in player["city"]:
        free = building["circles"] - building["colonists"]
        if free > 0:
            places.append(Place(building["building"], False, free))
    return tuple(places)


def occupied(player: PlayerEntry) -> dict[str, int]:
    """Colonists per place (tile kind or building) on a player's board."""
    counts: dict[str, int] = {}
    for tile in player["island"]:
        if tile["occupied"]:
            counts[tile["tile"]] = counts.get(tile["tile"], 0) + 1
    for building in player["city"]:
        counts[building["building"]] = building["colonists"]
    return counts


def nobles_on(player: PlayerEntry) -> dict[str, int]:
    """Exp. 2: nobles per place (tile kind or building) on a player's board."""
    counts: dict[str, int] = {}
    for tile in player["island"]:
        if tile.get("noble"):
            counts[tile["tile"]] = counts.get(tile["tile"], 0) + 1
    for building in player["city"]:
        nobles = building.get("nobles")
        if nobles:
            counts[building["building"]] = nobles
    return counts


def nobles_waiting(player: PlayerEntry) -> int:
    nobles = player.get("nobles")
    return 0 if nobles is None else nobles["san_juan"]


def _added(places: Sequence[Place], have: Mapping[str, int], want: Mapping[str, int]
           ) -> list[int]:
    return [min(p.free, max(0, want.get(p.name, 0) - have.get(p.name, 0))) for p in places]


def arrangement(now: PlayerEntry, suggested: PlayerEntry | None,
                codes: Sequence[str] = ()) -> Arrangement:
    """The arrangement to make for ``now`` (a player of a seat view), with the engine's
    suggestion (the same player after ``m.auto``) as the starting draft; ``codes`` (the legal
    codes) say whether the nobles' circles are a choice (``m.*`` beside ``mn.*``)."""
    places = free_places(now)[:MAX_PLACES]
    total = sum(p.free for p in places)
    waiting = now["san_juan"]
    to_place = min(waiting, total)
    draft = _added(places, occupied(now), occupied(suggested) if suggested is not None else {})
    extra = sum(draft) - to_place
    for index in reversed(range(len(draft))):  # too many: drop from the last places
        while extra > 0 and draft[index] > 0:
            draft[index] -= 1
            extra -= 1
    for index, place in enumerate(places):  # too few: fill the first free circles
        while extra < 0 and draft[index] < place.free:
            draft[index] += 1
            extra += 1
    nobles = nobles_waiting(now)
    if not nobles:
        return Arrangement(places, to_place, tuple(draft))
    choice = any(c.startswith("m.") and c != "m.auto" for c in codes)
    want = _added(places, nobles_on(now), nobles_on(suggested) if suggested is not None else {})
    plan = Arrangement(places, to_place, tuple(draft), nobles, waiting - nobles, choice)
    return replace(plan, suggested_nobles=plan.fit_nobles(draft, want))


def encode(draft: Sequence[int]) -> str:
    return "".join(DIGITS[min(n, len(DIGITS) - 1)] for n in draft)


def decode(text: str) -> tuple[int, ...] | None:
    if len(text) > MAX_PLACES or any(c not in DIGITS for c in text):
        return None
    return tuple(DIGITS.index(c) for c in text)


def write(draft: Sequence[int], nobles: Sequence[int] | None = None) -> str:
    """A draft as it travels in custom_ids: ``<pieces>`` or, with nobles, ``<pieces>-<nobles>``."""
    return encode(draft) if nobles is None else f"{encode(draft)}-{encode(nobles)}"


def read(plan: Arrangement, text: str | None) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The draft (pieces per place) and its nobles per place that ``text`` says, fitted to
    ``plan``; the suggestion when ``text`` is missing or no longer valid."""
    pieces_text, _, nobles_text = (text or "").partition("-")
    draft = decode(pieces_text) if text is not None else None
    if draft is None or not plan.valid(draft):
        return plan.suggested, plan.fit_nobles(plan.suggested)
    if not plan.nobles:
        return draft, (0,) * len(draft)
    nobles = decode(nobles_text) if nobles_text else None
    return draft, plan.fit_nobles(draft, nobles)


def drafted(view: PuertoRicoView, seat: int, plan: Arrangement, draft: str | None = None
            ) -> PuertoRicoView:
    """``view`` with ``seat``'s colonists placed as the draft says (``draft`` as it travels in
    the custom_ids; the suggestion when it is missing or no longer valid): what the private
    panel's image shows while the player arranges.  At the start of the arrangement the engine
    has taken every colonist back to San Juan; the image shows the draft being made instead,
    Exp. 2's nobles where the draft puts them."""
    counts, nobles = read(plan, draft)
    player = view["players"][seat].copy()
    island = [tile.copy() for tile in player["island"]]
    city = [building.copy() for building in player["city"]]
    placed = 0
    for place, count, noble_count in zip(plan.places, counts, nobles, strict=True):
        n, noble = count, noble_count
        if place.island:
            for tile in island:
                if n and tile["tile"] == place.name and not tile["occupied"]:
                    tile["occupied"] = True
                    if noble:
                        tile["noble"] = True
                        noble -= 1
                    n -= 1
                    placed += 1
            continue
        for building in city:
            if n and building["building"] == place.name:
                room = building["circles"] - building["colonists"]
                moved = min(n, room)
                building["colonists"] += moved
                if noble:
                    building["nobles"] = building.get("nobles", 0) + min(noble, moved)
                n -= moved
                placed += moved
    player.update({"island": island, "city": city, "san_juan": player["san_juan"] - placed})
    own = player.get("nobles")
    if plan.nobles and own is not None:
        player["nobles"] = {"total": own["total"], "san_juan": own["san_juan"] - sum(nobles)}
    players = list(view["players"])
    players[seat] = player
    out = view.copy()
    out["players"] = players
    return out
