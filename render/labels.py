"""Words on the images.  The engine speaks English ids; only a game's label table (its renderer's
``english``) turns them into text for people, and the bot passes localized overrides.

Keys are flat and namespaced (``role.captain``, ``building.harbor``, ``ui.round``); a value may
hold ``str.format`` fields (``"Round {n}"``).  :class:`Labels` looks a key up in the overrides
first, then in the game's table (and :data:`COMMON`), and finally falls back to the id
itself made readable.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from . import fonts

COMMON: dict[str, str] = {
    "ui.seat": "Seat {n}",
    "score.title": "Final scores",
    "score.total": "Total",
    "score.tiebreak": "Tie-break",
    "score.rank": "Rank",
    "score.winner": "Winner",
    "score.winners": "Winner: {names}",
    "score.shared": "Shared victory: {names}",
    "score.ended": "Game over: {reasons}",
}
"""Words every game's images share; a game's own table (its ``english``) comes on top."""


class Labels:
    """Text for the images: ``labels("ui.round", n=3)`` -> ``"Round 3"``."""

    def __init__(self, overrides: Mapping[str, str] | None = None,
                 base: Mapping[str, str] | None = None) -> None:
        self._table: dict[str, str] = {**COMMON, **(base or {})}
        if overrides:
            self._table.update({str(k): str(v) for k, v in overrides.items()})

    def __call__(self, key: str, **fields: Any) -> str:
        text = self._table.get(key)
        if text is None:
            text = key.split(".", 1)[-1].replace("_", " ")
        return fonts.clean(text.format(**fields) if fields else text)

    def has(self, key: str) -> bool:
        return key in self._table

    def role(self, role: str) -> str:
        return self(f"role.{role}")

    def building(self, name: str) -> str:
        return self(f"building.{name}")

    def building_short(self, name: str) -> str:
        return self(f"short.{name}") if self.has(f"short.{name}") else self.building(name)

    def good(self, good: str) -> str:
        return self(f"good.{good}")

    def letter(self, tile: str) -> str:
        return self(f"letter.{tile}")


def as_labels(labels: Labels | Mapping[str, str] | None,
              base: Mapping[str, str] | None = None) -> Labels:
    """A :class:`Labels` over ``base`` (a game's English table) with ``labels`` as overrides;
    a ready :class:`Labels` is returned as it is."""
    if isinstance(labels, Labels):
        return labels
    return Labels(labels, base)


def seat_names(
    count: int, names: Sequence[str] | Mapping[int, str] | None, labels: Labels
) -> list[str]:
    """Display names by seat: the given ones, cleaned; ``Seat 1``... where missing or empty."""
    out = []
    for seat in range(count):
        given: str | None = None
        if isinstance(names, Mapping):
            given = names.get(seat)
        elif names is not None and seat < len(names):
            given = names[seat]
        text = fonts.clean(str(given), bold=True) if given else ""
        out.append(text or labels("ui.seat", n=seat + 1))
    return out
