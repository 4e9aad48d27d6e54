"""Display names by seat, now and at any point of a game's history.

A seat of a running game may change hands (its player leaves, the clock vote lets an AI take
it: :mod:`storage.handovers`).  What shows the table *now* (the board, whose turn it is) names
the current occupant; the history names whoever held the seat at the time: a person's moves
keep their name after they left, the AI's moves after the hand-over name the AI, and the final
standings name everyone who played the seat ("bob → AI 2 (normal)").

:class:`SeatNames` is a ``dict`` of the current names by seat (so everything that wants only
those keeps working unchanged) that also knows who held each seat before.  Pure.

**Names are escaped where they are read.**  A display name, a nickname, a server's or a
channel's name is chosen by people: ``@everyone``, ``<@&role>``, ``**bold**`` or ``# heading``
must show as typed, never ping nor format.  Every such name goes through :func:`escape_name`
the moment the bot reads it from Discord, so all the text built from it (the table, the log, the
story, the standings, DMs, replies) carries it escaped.  The few places Discord does not read as
markdown (button labels, an image's description, the names drawn on the images) take it back
with :func:`plain`: the escape is exactly reversible.  (The client's default
``AllowedMentions.none()`` makes sure nothing pings anyway; see :mod:`bot.client`.)
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from storage.handovers import SeatHandover

from .i18n import CATALOG, Catalog

ARROW = " → "
"""Between the successive occupants of one seat in the final standings and the score sheet."""

MARKUP = "\\*_~|`<>@#[]-"
"""The characters escaped in a name: the escape itself; bold, italics, underline, strikethrough,
spoilers, code; ``<`` opens every mention (``<@id>``, ``<@&id>``, ``<#id>``, ``</cmd:id>``,
``<t:…>``, custom emoji) and ``@`` starts ``@everyone``/``@here``; ``>`` quotes, ``#`` and
``-#`` make headings and small print, ``-`` a list, ``[...]`` a masked link.  Discord shows a
backslashed punctuation mark as the mark itself."""
_ESCAPE = re.compile("[" + re.escape(MARKUP) + "]")
_UNESCAPE = re.compile(r"\\([" + re.escape(MARKUP) + "])")
_HIDDEN = re.compile("[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
"""Control characters (a name stays on one line) and the bidirectional overrides and isolates
(which would turn the text after the name around)."""


def escape_name(name: str) -> str:
    """A user-chosen name as text for Discord: shown literally (markdown and mentions escaped),
    on one line.  ``plain(escape_name(n))`` is ``n`` on one line."""
    return _ESCAPE.sub(lambda m: "\\" + m.group(), _HIDDEN.sub(" ", name).strip())


def plain(text: str) -> str:
    """``text`` with the escapes of :func:`escape_name` taken back: for what Discord does not
    read as markdown (button labels, an image's description) and for the images' own text."""
    return _UNESCAPE.sub(r"\1", text)


@dataclass(frozen=True, slots=True)
class Former:
    """Someone who held a seat before a hand-over."""

    seat: int
    after_seq: int
    """They held the seat for the actions up to this one (``storage.handovers``)."""
    name: str
    human: bool
    successor: str
    """The name of whoever took the seat over then."""
    reason: str
    """Why the seat changed hands (:data:`storage.handovers.REASONS`)."""
    user_id: int | None = None
    """The person (``None``: an AI)."""


class SeatNames(dict[int, str]):
    """The current display names by seat, with the seats' former occupants (oldest first)."""

    def __init__(self, current: Mapping[int, str], formers: Iterable[Former] = ()) -> None:
        super().__init__(current)
        self.formers: tuple[Former, ...] = tuple(sorted(formers, key=lambda f: f.after_seq))

    def holder(self, seat: int, seq: int | None) -> Former | None:
        """The former occupant who held ``seat`` for the action ``seq``; ``None`` when it was
        the current one (or ``seq`` is ``None``: now)."""
        if seq is None:
            return None
        for former in self.formers:
            if former.seat == seat and former.after_seq >= seq:
                return former
        return None

    def at(self, seat: int, seq: int | None) -> str | None:
        """The name of whoever held ``seat`` for the action ``seq`` (``None``: unknown seat)."""
        former = self.holder(seat, seq)
        return former.name if former is not None else self.get(seat)

    def person(self, user_id: int) -> str | None:
        """The name of a person who held a seat before (``None``: never did)."""
        return next((f.name for f in self.formers if f.user_id == user_id), None)

    def everyone(self) -> dict[int, str]:
        """Every seat with all who held it, in order: "bob → AI 2 (normal)"."""
        out = dict(self)
        for seat in sorted({f.seat for f in self.formers}):
            chain = [f.name for f in self.formers if f.seat == seat]
            out[seat] = ARROW.join([*chain, self.get(seat, "?")])
        return out


def everyone(names: Mapping[int, str]) -> Mapping[int, str]:
    """The names of all who held each seat (for the final standings and the score sheet)."""
    return names.everyone() if isinstance(names, SeatNames) else names


def occupant_name(user_id: int | None, ai_policy: str | None, seat: int, lang: str,
                  catalog: Catalog, people: Mapping[int, str]) -> str:
    """A person's display name (a mention when unknown), "AI 2 (normal)", or a seat the game
    plays itself by its own name (``seat.<kind>`` in the game's catalog: "Puertoma 3")."""
    if user_id is not None:
        return people.get(user_id) or f"<@{user_id}>"
    own = f"seat.{ai_policy}"
    if catalog.has(own):
        return catalog.t(lang, own, n=seat + 1)
    key = f"level.{ai_policy}"
    level = catalog.t(lang, key) if catalog.has(key) else (ai_policy or "?")
    return catalog.t(lang, "table.ai_name", n=seat + 1, level=level)


def with_history(current: Mapping[int, str], handovers: Iterable[SeatHandover], lang: str,
                 catalog: Catalog = CATALOG, people: Mapping[int, str] | None = None
                 ) -> SeatNames:
    """``current`` (the names of the seats' occupants now) with who held them before:
    ``people`` names the users (user id -> display name), including those who left."""
    known = people or {}
    steps = sorted(handovers, key=lambda h: h.after_seq)
    formers = []
    def stand_in(user_id: int | None) -> str:
        return catalog.t(lang, "table.stand_in_name",
                         name=known.get(user_id or 0) or f"<@{user_id}>")

    for index, handover in enumerate(steps):
        seat = handover.seat
        # an AI that stood in for a person out of time is named for them ("AI for bob")
        name = (stand_in(handover.to_user_id) if handover.reason == "returned" else
                occupant_name(handover.from_user_id, handover.from_ai_policy, seat, lang,
                              catalog, known))
        later = [h for h in steps[index + 1 :] if h.seat == seat]
        if not later and seat in current:
            successor = current[seat]
        elif handover.reason == "timeout":
            successor = stand_in(handover.from_user_id)
        else:
            successor = occupant_name(handover.to_user_id, handover.to_ai_policy, seat, lang,
                                      catalog, known)
        formers.append(Former(seat, handover.after_seq, name, handover.from_human, successor,
                              handover.reason, handover.from_user_id))
    return SeatNames(current, formers)
