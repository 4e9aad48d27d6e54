"""San Juan's log in words: its events, as everybody may see them, in short localized lines.

The lines come from public events only (:func:`bot.gamelog.public_events`): a draw says how
many cards and why, never which; a payment or a discard says how many; a Chapel card makes no
line at all (A-10: nobody else learns that one was placed).  The generic part (hand-overs,
moves played for a person, which events belong to a phase) is :mod:`bot.gamelog`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.core import Event
from storage import ActionRecord

from ...gamelog import LogWriter, public_events, roles_taken

QUIET = frozenset({"PhaseEnded", "TileReturned", "CardsPaid", "CardsKept", "ChapelCardPlaced"})
"""Events that make no line: those the next lines already tell (a payment's count is the
building's cost), and those nobody else may learn of."""


def view_at_phase_end(view: Mapping[str, Any], actions: Sequence[ActionRecord], end: int
                      ) -> dict[str, Any]:
    """The public board as it stood when the role phase ended by ``actions[end]`` ended, from
    ``view``, the public view right after that action: the role just played and its chooser
    (the view already asks for the next role), and, when the same action ended the round (the
    view shows the next round: a new Governor, the roles back, maybe its Chapel or hand-limit
    step), that round's number, Governor and roles as taken.  Nobody is asked; the game is not
    over yet on the image (the score sheet follows)."""
    out = dict(view)
    events = public_events(actions[end])
    ended = next((e for e in events if e.type == "PhaseEnded"), None)
    if ended is None:
        return out
    role = str(ended.data.get("role"))
    out.update(phase=role, role={"name": role, "chooser": ended.seat,
                                 "library": bool(ended.data.get("library"))},
               prompt=None, done=[], game_over=False, outcome=None, gold_mine=None)
    rounded = next((e for e in events if e.type == "RoundEnded"), None)
    if rounded is None:
        return out
    out["round"] = int(rounded.data.get("round", view.get("round", 1)))
    if any(e.type == "RoundStarted" for e in events):
        out["governor"] = (int(view.get("governor", 0)) - 1) % int(view.get("players", 1))
    taken = roles_taken(actions, end, "role")
    out["roles"] = [{**r, "taken_by": taken.get(r.get("name"))} for r in view.get("roles", ())]
    return out


class SanJuanLogWriter(LogWriter):
    def event_line(self, event: Event) -> str | None:
        data = event.data
        if event.type in QUIET:
            return None
        name = self.name(event.seat)
        if event.type == "RoleChosen":
            key = "log.role_library" if data.get("library") else "log.role"
            return self.t(key, name=name, role=self.thing("role", data.get("role")))
        if event.type == "BuildingBuilt":
            card = self.thing("card", data.get("card"))
            if data.get("over"):
                return self.t("log.built_over", name=name, card=card, n=data.get("cost", 0),
                              over=self.thing("card", data["over"]))
            return self.t("log.built", name=name, card=card, n=data.get("cost", 0))
        if event.type == "GoodLost":
            return self.t("log.good_lost", name=name, good=self.thing("good", data.get("good")))
        if event.type in ("CardsDrawn", "CardsDiscarded"):
            base = "log.drew" if event.type == "CardsDrawn" else "log.discarded"
            key = f"{base}_{data.get('reason')}"  # the line of its reason, else the plain one
            return self.t(key if self.catalog.has(key) else base, name=name,
                          n=int(data.get("count", 0)))
        if event.type == "GoodsProduced":
            return self.t("log.produced", name=name, goods=self.goods(data.get("goods")))
        if event.type == "GoodsSold":
            return self.t("log.sold", name=name, goods=self.goods(data.get("goods")))
        if event.type == "TileRevealed":
            prices = data.get("prices") or {}
            text = ", ".join(f"{self.thing('good', g)} {n}" for g, n in prices.items())
            return self.t("log.tile", prices=text)
        if event.type == "GoldMineRevealed":
            cards = ", ".join(self.thing("card", c) for c in data.get("cards", ()))
            key = "log.gold_mine_hit" if data.get("success") else "log.gold_mine_miss"
            return self.t(key, name=name, cards=cards)
        if event.type == "GoldMineCardTaken":
            return self.t("log.gold_mine_took", name=name,
                          card=self.thing("card", data.get("card")))
        if event.type == "Passed":
            key = f"log.passed_{data.get('decision')}"
            return self.t(key, name=name) if self.catalog.has(key) else None
        if event.type == "PileReshuffled":
            return self.t("log.reshuffled", n=int(data.get("cards", 0)))
        if event.type == "RoundEnded":
            return None
        if event.type == "RoundStarted":
            return self.t("log.round", round=data.get("round", 1),
                          name=self.name(data.get("governor")))
        if event.type == "GameEnded":
            reasons = ", ".join(self.thing("end", r) for r in data.get("reasons", ()))
            winners = self.catalog.join(self.lang, [self.name(w) for w in data.get("winners", ())])
            return self.t("log.game_over", reasons=reasons, winners=winners)
        return None

    def goods(self, goods: object) -> str:
        names = [str(g) for g in goods] if isinstance(goods, list | tuple) else []
        counts: dict[str, int] = {}
        for good in names:
            counts[good] = counts.get(good, 0) + 1
        return ", ".join(self.thing("good", g) if n == 1 else f"{self.thing('good', g)} ×{n}"
                         for g, n in counts.items()) or "—"
