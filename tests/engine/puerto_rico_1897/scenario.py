"""The rule-test scenario builder (``tests.engine.puerto_rico.scenario``) for Puerto Rico
1897: positions are described, played and read in 1897's words (``fruit``, ``hospital``,
``r.planter``)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from engine.core import Prompt
from engine.puerto_rico.state import GAME_OVER, State
from engine.puerto_rico_1897.game import PUERTO_RICO_1897
from engine.puerto_rico_1897.names import REVERSE, data, word
from tests.engine.puerto_rico.scenario import Scenario


def classic(obj: Any) -> Any:
    """1897 words back in the kernel's (the scenario builder's own tables are the kernel's)."""
    return data(obj, reverse=True)


class Scenario1897(Scenario):
    game = PUERTO_RICO_1897

    def player(self, seat: int, **parts: Any) -> Scenario1897:
        super().player(seat, **{k: classic(v) for k, v in parts.items()})
        return self

    def face_up(self, names: Iterable[str]) -> Scenario1897:
        super().face_up([word(n, REVERSE) for n in names])
        return self

    def stacks(
        self, deck: Mapping[str, int], discard: Mapping[str, int] | None = None
    ) -> Scenario1897:
        super().stacks(classic(deck), None if discard is None else classic(discard))
        return self

    def ships(self, ships: Iterable[tuple[int, str | None, int]]) -> Scenario1897:
        super().ships([(c, None if g is None else word(g, REVERSE), n) for c, g, n in ships])
        return self

    def house(self, goods: Iterable[str]) -> Scenario1897:
        super().house([word(g, REVERSE) for g in goods])
        return self

    def market(self, **copies: int) -> Scenario1897:
        super().market(**classic(copies))
        return self

    def set_goods_supply(self, **counts: int) -> Scenario1897:
        super().set_goods_supply(**classic(counts))
        return self

    def role_doubloons(self, card: str, doubloons: int) -> Scenario1897:
        super().role_doubloons(word(card, REVERSE), doubloons)
        return self

    def festival(
        self,
        plantation: str | None = None,
        goods: Iterable[str] | None = None,
        building: str | None = None,
    ) -> Scenario1897:
        """Expansion IV's goals in 1897's words; the building goal's tile off the tray (A-16)."""
        s = self.state
        old = s.festival[1]
        super().festival(
            None if plantation is None else word(plantation, REVERSE),
            None if goods is None else [word(g, REVERSE) for g in goods],
            None if building is None else word(building, REVERSE),
        )
        if building is not None:
            if old >= 0:
                s.market[old] += 1
            s.market[s.festival[1]] -= 1
        return self

    def achievements(
        self,
        seat: int,
        names: Iterable[str],
        *,
        met: Iterable[str] = (),
        announced: Iterable[str] = (),
    ) -> Scenario1897:
        """Expansion VI: give ``seat`` these Achievement cards (kept, their objective not met
        unless named in ``met`` or ``announced``), and as many of ``HARD_ACHIEVEMENTS`` as make
        four; a card another seat held is replaced there by one from the deck, and the seat's
        other cards go back to the deck."""
        from engine.puerto_rico_1897.achievements import (
            ACH_ANNOUNCED,
            ACH_HELD,
            ACH_MET,
            CARD_INDEX,
        )

        s = self.state
        owner, status = s.achievement_owner, s.achievement_status
        wanted = [CARD_INDEX[n] for n in names]
        fillers = [CARD_INDEX[n] for n in HARD_ACHIEVEMENTS if CARD_INDEX[n] not in wanted]
        hand = [*wanted, *fillers][:4]
        for c in hand:
            other = owner[c]
            if other not in (-1, seat):
                spare = next(d for d in range(len(owner)) if owner[d] == -1 and d not in hand)
                owner[spare], status[spare] = other, ACH_HELD
        for c in range(len(owner)):
            if owner[c] == seat and c not in hand:
                owner[c], status[c] = -1, ACH_HELD
        met_cards = {CARD_INDEX[n] for n in met}
        announced_cards = {CARD_INDEX[n] for n in announced}
        for c in hand:
            owner[c] = seat
            status[c] = (
                ACH_ANNOUNCED if c in announced_cards else ACH_MET if c in met_cards else ACH_HELD
            )
        return self

    def choose(
        self,
        role: str,
        seat: int,
        *,
        governor: int | None = None,
        earlier: Iterable[str] | None = None,
    ) -> State:
        return super().choose(
            word(role, REVERSE),
            seat,
            governor=governor,
            earlier=None if earlier is None else [word(c, REVERSE) for c in earlier],
        )


# Expansion VI's cards no scenario meets by accident (12 workers on buildings, 7 common
# commercial buildings, a full field and town, 12 field tiles): a hand's fillers
HARD_ACHIEVEMENTS = (
    "head_administrator",
    "senior_bureaucrat",
    "major_landowner",
    "master_agronomist",
)
GOODS = ("corn", "fruit", "sugar", "tobacco", "coffee")
NO_GOODS = dict.fromkeys(GOODS, 0)


def view(sc: Scenario1897, state: State, viewer: int | None = None) -> dict[str, Any]:
    """The view of ``state`` (the public one by default), in 1897's words."""
    return dict(sc.game.view(state, viewer))


def coins(sc: Scenario1897, state: State) -> list[int]:
    return [p["coins"] for p in view(sc, state)["players"]]


def goods(sc: Scenario1897, state: State, seat: int) -> dict[str, int]:
    out: dict[str, int] = view(sc, state)["players"][seat]["goods"]
    return out


def held(**counts: int) -> dict[str, int]:
    """A player's goods: these counts, 0 of every other good."""
    return {**NO_GOODS, **counts}


def field(sc: Scenario1897, state: State, seat: int) -> list[tuple[str, bool]]:
    return [(t["tile"], t["occupied"]) for t in view(sc, state)["players"][seat]["field"]]


def score_parts(sc: Scenario1897, seat: int) -> dict[str, int]:
    """``seat``'s final score parts if the game ended now (their sum is his total)."""
    state = sc.state
    state.phase = GAME_OVER
    outcome = sc.game.outcome(state)
    assert outcome is not None
    line = outcome.scores[seat]
    assert line.total == sum(line.breakdown.values())
    return dict(line.breakdown)


def role(seat: int) -> Prompt:
    """The next role pick, by ``seat``: the phase is over."""
    return Prompt((seat,), "role", False)
