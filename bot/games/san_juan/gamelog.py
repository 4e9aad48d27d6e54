"""San Juan's log in words: its events, as everybody may see them, in short localized lines.

The lines come from public events only (:func:`bot.gamelog.public_events`): a draw says how
many cards and why, never which; a payment or a discard says how many; a Chapel card makes no
line at all (A-10: nobody else learns that one was placed).  The generic part (hand-overs,
moves played for a person, which events belong to a phase) is :mod:`bot.gamelog`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from engine.core import Event
from engine.san_juan.view import SanJuanView
from storage import ActionRecord

from ...gamelog import LogWriter, public_events, roles_taken

QUIET = frozenset({"PhaseEnded", "TileReturned", "CardsPaid", "CardsKept", "ChapelCardPlaced"})
"""Events that make no line: those the next lines already tell (a payment's count is the
building's cost), and those nobody else may learn of."""


def view_at_phase_end(view: SanJuanView, actions: Sequence[ActionRecord], end: int
                      ) -> SanJuanView:
    """The public board as it stood when the role phase ended by ``actions[end]`` ended, from
    ``view``, the public view right after that action: the role just played and its chooser
    (the view already asks for the next role), and, when the same action ended the round (the
    view shows the next round: a new Governor, the roles back, maybe its Chapel or hand-limit
    step), that round's number, Governor and roles as taken.  Nobody is asked; the game is not
    over yet on the image (the score sheet follows)."""
    out = view.copy()
    events = public_events(actions[end])
    ended = next((e for e in events if e.type == "PhaseEnded"), None)
    if ended is None:
        return out
    assert ended.seat is not None  # the phase's chooser
    role = str(ended.data.get("role"))
    out.update({"phase": role, "role": {"name": role, "chooser": ended.seat,
                                        "library": bool(ended.data.get("library"))},
                "prompt": None, "done": [], "game_over": False, "outcome": None,
                "gold_mine": None})
    rounded = next((e for e in events if e.type == "RoundEnded"), None)
    if rounded is None:
        return out
    out["round"] = int(rounded.data.get("round", view["round"]))
    if any(e.type == "RoundStarted" for e in events):
        out["governor"] = (view["governor"] - 1) % view["players"]
    taken = roles_taken(actions, end, "role")
    out["roles"] = [{"name": r["name"], "taken_by": taken.get(r["name"])} for r in view["roles"]]
    return out


class SanJuanLogWriter(LogWriter):
    def event_line(self, event: Event) -> str | None:
        """One event in words (its kind's builder in :data:`LINES`); ``None`` for events that
        make no line."""
        if event.type in QUIET:
            return None
        line = LINES.get(event.type)
        return None if line is None else line(self, event.data, self.name(event.seat))

    def goods(self, goods: object) -> str:
        names = [str(g) for g in goods] if isinstance(goods, list | tuple) else []
        counts: dict[str, int] = {}
        for good in names:
            counts[good] = counts.get(good, 0) + 1
        return ", ".join(self.thing("good", g) if n == 1 else f"{self.thing('good', g)} ×{n}"
                         for g, n in counts.items()) or "—"


Data = Mapping[str, Any]
Line = Callable[[SanJuanLogWriter, Data, str], str | None]
"""A line builder: the writer, the event's (public) data and the name of its seat."""


def role_chosen(w: SanJuanLogWriter, data: Data, name: str) -> str:
    key = "log.role_library" if data.get("library") else "log.role"
    return w.t(key, name=name, role=w.thing("role", data.get("role")))


def building_built(w: SanJuanLogWriter, data: Data, name: str) -> str:
    card = w.thing("card", data.get("card"))
    if data.get("over"):
        return w.t("log.built_over", name=name, card=card, n=data.get("cost", 0),
                   over=w.thing("card", data["over"]))
    return w.t("log.built", name=name, card=card, n=data.get("cost", 0))


def cards_counted(base: str) -> Line:
    """Cards drawn (``base`` ``log.drew``) or discarded: the line of their reason, else the
    plain one; how many, never which."""

    def line(w: SanJuanLogWriter, data: Data, name: str) -> str:
        key = f"{base}_{data.get('reason')}"
        return w.t(key if w.catalog.has(key) else base, name=name, n=int(data.get("count", 0)))

    return line


def tile_revealed(w: SanJuanLogWriter, data: Data, name: str) -> str:
    prices = data.get("prices") or {}
    return w.t("log.tile", prices=", ".join(f"{w.thing('good', g)} {n}"
                                            for g, n in prices.items()))


def gold_mine_revealed(w: SanJuanLogWriter, data: Data, name: str) -> str:
    cards = ", ".join(w.thing("card", c) for c in data.get("cards", ()))
    key = "log.gold_mine_hit" if data.get("success") else "log.gold_mine_miss"
    return w.t(key, name=name, cards=cards)


def passed(w: SanJuanLogWriter, data: Data, name: str) -> str | None:
    key = f"log.passed_{data.get('decision')}"
    return w.t(key, name=name) if w.catalog.has(key) else None


def game_ended(w: SanJuanLogWriter, data: Data, name: str) -> str:
    reasons = ", ".join(w.thing("end", r) for r in data.get("reasons", ()))
    winners = w.catalog.join(w.lang, [w.name(seat) for seat in data.get("winners", ())])
    return w.t("log.game_over", reasons=reasons, winners=winners)


LINES: dict[str, Line] = {
    "RoleChosen": role_chosen,
    "BuildingBuilt": building_built,
    "GoodLost": lambda w, data, name: w.t(
        "log.good_lost", name=name, good=w.thing("good", data.get("good"))),
    "CardsDrawn": cards_counted("log.drew"),
    "CardsDiscarded": cards_counted("log.discarded"),
    "GoodsProduced": lambda w, data, name: w.t(
        "log.produced", name=name, goods=w.goods(data.get("goods"))),
    "GoodsSold": lambda w, data, name: w.t(
        "log.sold", name=name, goods=w.goods(data.get("goods"))),
    "TileRevealed": tile_revealed,
    "GoldMineRevealed": gold_mine_revealed,
    "GoldMineCardTaken": lambda w, data, name: w.t(
        "log.gold_mine_took", name=name, card=w.thing("card", data.get("card"))),
    "Passed": passed,
    "PileReshuffled": lambda w, data, name: w.t("log.reshuffled", n=int(data.get("cards", 0))),
    "RoundStarted": lambda w, data, name: w.t(
        "log.round", round=data.get("round", 1), name=w.name(data.get("governor"))),
    "GameEnded": game_ended,
}
"""San Juan's lines by event kind (``RoundEnded`` has none: the next round's line says it)."""
