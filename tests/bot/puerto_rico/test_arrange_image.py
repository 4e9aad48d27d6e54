"""The private panel's image while arranging colonists (issue #9): it showed every colonist back
in San Juan and every circle empty; it shows the draft being arranged (the suggestion, or the
player's adjusted draft) placed on the seat's board."""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any

from bot.games.contract import Panel
from bot.games.puerto_rico.arrange import drafted, encode, occupied
from bot.games.puerto_rico.catalog import CATALOG
from bot.games.puerto_rico.words import puerto_rico_view
from bot.turns import TurnService
from engine.core import Event
from tests.bot.puerto_rico.test_arrange import GAME, arrange_states, plan_for
from tests.bot.test_panels import panel_of


def test_the_suggestion_is_drawn_on_the_board() -> None:
    """Without a draft, the image's board is the engine's suggestion (``m.auto``): the same
    occupied circles, the same colonists left in San Juan; the view itself is untouched."""
    for state, seat in arrange_states():
        view = puerto_rico_view(GAME.view(state, seat))
        before = copy.deepcopy(view)
        plan = plan_for(state, seat)
        shown = drafted(view, seat, plan)["players"][seat]
        suggested, _ = GAME.apply(state, seat, GAME.decode_action("m.auto"))
        expected = GAME.view(suggested, seat)["players"][seat]
        assert occupied(shown) == occupied(expected)
        assert shown["san_juan"] == expected["san_juan"] == view["players"][seat]["san_juan"] - (
            plan.to_place)
        assert view == before
        others = [s for s in range(len(view["players"])) if s != seat]
        assert all(drafted(view, seat, plan)["players"][s] == view["players"][s] for s in others)


def test_an_adjusted_draft_is_drawn_as_adjusted() -> None:
    """A colonist moved in a menu moves on the image; an invalid draft shows the suggestion."""
    moved = 0
    for state, seat in arrange_states():
        view = puerto_rico_view(GAME.view(state, seat))
        plan = plan_for(state, seat)
        island = [v for v, _, _, chosen in plan.options(True, plan.suggested) if not chosen]
        city_chosen = [v for v, _, _, chosen in plan.options(False, plan.suggested) if chosen]
        if not island or not city_chosen:
            continue
        # one colonist from the city to a free plantation
        draft = plan.with_values(False, city_chosen[1:], plan.suggested)
        draft = plan.with_values(True, [*(v for v, _, _, c in plan.options(True, draft) if c),
                                        island[0]], draft)
        assert plan.complete(draft)
        shown = drafted(view, seat, plan, encode(draft))["players"][seat]
        placed = dict(zip((p.name for p in plan.places), draft, strict=True))
        now = occupied(view["players"][seat])
        for place, n in placed.items():
            assert occupied(shown).get(place, 0) == now.get(place, 0) + n, place
        assert drafted(view, seat, plan, "zz!") == drafted(view, seat, plan)
        moved += 1
    assert moved


class Recorder:
    """The service's drawing, recording the views it is asked to draw (no other part of the
    service is asked for a panel's image)."""

    def __init__(self) -> None:
        self.views: list[Mapping[str, Any]] = []
        self.languages: list[str | None] = []
        self.storage = self.history = self.publishing = self.play = self.thinker = None
        self.catalog = CATALOG
        self.drawing = self

    async def board(self, view: Mapping[str, Any], events: Sequence[Event],
                    names: Mapping[int, str], language: str | None) -> bytes:
        self.views.append(view)
        self.languages.append(language)
        return b"png"


async def test_the_panel_image_is_drawn_from_the_draft() -> None:
    """``TurnService.with_image(panel, draft)``: the view handed to the renderer has the draft's
    colonists on the board (it had them all in San Juan)."""
    state, seat = arrange_states(1)[0]
    panel: Panel = panel_of(state, seat, len(GAME.view(state, None)["players"]))
    plan = panel.extras["arrangement"]
    assert plan is not None and plan.to_place
    recorder = Recorder()
    turns = TurnService(recorder)  # type: ignore[arg-type]
    drawn = await turns.with_image(panel)
    assert drawn.image == b"png"
    shown = recorder.views[-1]["players"][seat]
    assert shown["san_juan"] == panel.view["players"][seat]["san_juan"] - plan.to_place
    assert shown == drafted(puerto_rico_view(panel.view), seat, plan)["players"][seat]
    other = tuple(reversed(plan.suggested)) if plan.valid(tuple(reversed(plan.suggested))) \
        else plan.suggested
    await turns.with_image(panel, encode(other))
    assert recorder.views[-1] == drafted(puerto_rico_view(panel.view), seat, plan, encode(other))


async def test_the_panel_image_speaks_the_readers_language() -> None:
    """Issue #9 play-through: a Spanish reader of an English game got Spanish panel words
    around an English image; the image is drawn in the reader's language."""
    state, seat = arrange_states(1)[0]
    panel: Panel = panel_of(state, seat, len(GAME.view(state, None)["players"]))
    recorder = Recorder()
    turns = TurnService(recorder)  # type: ignore[arg-type]
    await turns.with_image(panel, language="es")
    await turns.with_image(panel)
    assert recorder.languages == ["es", panel.record.language]
