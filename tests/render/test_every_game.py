"""Every game the renderer's catalog lists (and the engine registers) gets these for free: seeded
random games of each of its option sets drawn as real PNGs (the public table, each seat's
panel, the score sheet), each a valid palette image of its scene's size, within the size budget
and at least a phone's width, with no text under 11 px on a phone and no overlapping or
off-canvas text; and the public table blind to what the public may not see (the same bytes
whatever the hidden cards or orders are, none of the words of a hidden id drawn)."""

from __future__ import annotations

import io
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import pytest
from PIL import Image

from engine import game_names, get_game
from engine.core import Event, Game
from engine.policies import make_policy
from engine.simulate import policy_seed
from render import (
    layout_panel,
    layout_scoresheet,
    layout_table,
    render_png,
    renderer_for,
)
from render import theme as T
from render.games import PACKAGES
from render.scene import Scene
from tests.render.helpers import problems
from tests.tiers import first_and_last

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
BUDGET = 400_000  # bytes, as tests/render/test_png.py
GAMES = sorted(set(PACKAGES) & set(game_names()))
MAX_ACTIONS = 5000
SAMPLES = 3  # positions drawn per game, besides its end


def test_every_drawn_game_is_walked() -> None:
    """Nothing is skipped silently: every game of the catalog is an engine's game."""
    assert sorted(PACKAGES) == GAMES and len(GAMES) >= 2


@dataclass(frozen=True)
class Position:
    label: str
    game: Game[Any]
    state: Any
    players: int
    events: tuple[Event, ...]
    """The events of the last few actions (what the table frames)."""

    def highlights(self, viewer: int | None) -> list[Event]:
        seen = (e.for_viewer(viewer) for e in self.events)
        return [e for e in seen if e is not None]


def _play(name: str, index: int, seed: int) -> Iterator[tuple[Any, list[Event]]]:
    """A game of option set ``index`` played by seeded random seats: each state and the events
    that led to it."""
    game = get_game(name)
    options = game.option_sets()[index]
    state = game.setup(options, seed)
    players = int(options["players"])
    policies = [make_policy("random", name, policy_seed(seed, s)) for s in range(players)]
    yield state, []
    for _ in range(MAX_ACTIONS):
        prompt = game.prompt(state)
        if prompt is None:
            return
        seat = prompt.seats[0]
        action = policies[seat].choose(game, state, seat, game.legal_actions(state, seat))
        state, events = game.apply(state, seat, action)
        yield state, events
    raise AssertionError(f"{name} {options}: no end after {MAX_ACTIONS} actions")


def positions(name: str, index: int, seed: int) -> list[Position]:
    """A few positions spread over one random game, and its end."""
    steps = list(_play(name, index, seed))
    total = len(steps)
    wanted = {total * (k + 1) // (SAMPLES + 1) for k in range(SAMPLES)} | {total - 1}
    game = get_game(name)
    players = int(game.option_sets()[index]["players"])
    out: list[Position] = []
    recent: list[Event] = []
    for step, (state, events) in enumerate(steps):
        recent = [*recent, *events][-12:]
        if step in wanted:
            label = "end" if step == total - 1 else f"action {step}"
            out.append(Position(label, game, state, players, tuple(recent)))
    assert game.prompt(out[-1].state) is None and game.outcome(out[-1].state) is not None
    return out


def option_sets() -> list[tuple[str, int]]:
    return [(name, k) for name in GAMES for k in range(len(get_game(name).option_sets()))]


def check_png(scene: Scene, what: str) -> bytes:
    png = render_png(scene)
    assert png.startswith(PNG_SIGNATURE), what
    Image.open(io.BytesIO(png)).verify()
    image = Image.open(io.BytesIO(png))
    assert image.mode == "P" and image.size == (scene.width, scene.height), what
    assert T.PHONE_WIDTH <= image.width <= T.WIDTH, (what, image.width)
    assert len(png) < BUDGET, (what, len(png))
    assert problems(scene) == [], what
    return png


@pytest.mark.parametrize(("name", "index"), first_and_last(option_sets()))
def test_every_image_of_random_games_is_a_valid_png_within_budget(name: str, index: int) -> None:
    """The public table, every seat's panel (in its default focus; seat 0's in every focus
    once) and the final score sheet of a seeded random game of every option set."""
    renderer = renderer_for(name)
    drawn = 0
    for position in positions(name, index, seed=100 + index):
        what = f"{name} {get_game(name).option_sets()[index]} {position.label}"
        view = position.game.view(position.state, None)
        check_png(layout_table(view, position.highlights(None)), f"{what} table")
        for seat in range(position.players):
            mine = position.game.view(position.state, seat)
            check_png(layout_panel(mine, seat, None, position.highlights(seat)),
                      f"{what} panel {seat}")
            drawn += 1
        if drawn == position.players:
            mine = position.game.view(position.state, 0)
            for focus in renderer.focuses:
                check_png(layout_panel(mine, 0, focus), f"{what} panel 0 {focus}")
    outcome = position.game.outcome(position.state)
    assert outcome is not None
    check_png(layout_scoresheet(outcome.to_json(), game=name), f"{what} scores")


def strings(value: Any) -> set[str]:
    """Every string value inside a view (not the keys: those name fields, not things)."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, Mapping):
        return {s for v in value.values() for s in strings(v)}
    if isinstance(value, list | tuple):
        return {s for v in value for s in strings(v)}
    return set()


def hidden_words(position: Position) -> dict[str, str]:
    """The English words of every id that some seat sees and the public does not (neither in
    the public view nor in the public events framed: a Gold mine's reveal is public): a card in
    a hand, a card drawn but not kept.  word -> the key it comes from."""
    game, state = position.game, position.state
    public = strings(game.view(state, None))
    public |= set().union(*(strings(e.to_json()) for e in position.highlights(None)))
    hidden = set().union(*(strings(game.view(state, s)) for s in range(position.players)))
    hidden -= public
    english = renderer_for(game.name).english
    return {word: key for key, word in english.items()
            if key.rsplit(".", 1)[-1] in hidden and word not in public}


def drawn_word(word: str, drawn: str) -> bool:
    return re.search(rf"(?<!\w){re.escape(word)}(?!\w)", drawn) is not None


@pytest.mark.parametrize(("name", "index"), first_and_last(option_sets()))
def test_the_public_table_shows_nothing_hidden(name: str, index: int) -> None:
    """The public table's PNG is the same whatever the public cannot see (the hidden part of
    the state resampled by ``determinize``), and draws the name of no id that only a seat's
    own view holds."""
    game = get_game(name)
    leaks, checked, control = [], 0, 0
    for position in positions(name, index, seed=200 + index)[:-1]:
        view = game.view(position.state, None)
        highlights = position.highlights(None)
        scene = layout_table(view, highlights)
        other = game.determinize(position.state, None, seed=index)
        assert game.view(other, None) == view, (name, index, position.label)
        assert render_png(layout_table(game.view(other, None), highlights)) == render_png(
            scene)
        drawn = " ".join(t.text for t in scene.texts)
        for word, key in hidden_words(position).items():
            checked += 1
            if drawn_word(word, drawn):
                leaks.append((index, position.label, key, word))
        if hidden_words(position):  # the control: seat 0's own table names its secrets
            own = " ".join(t.text for t in layout_table(game.view(position.state, 0)).texts)
            control += any(drawn_word(w, own) for w in hidden_words(position))
    assert leaks == []
    # A game that hides named things (San Juan's hands) has them found on the owner's own
    # table; Puerto Rico hides only orders (the plantations, the seed), nothing named.
    assert checked == 0 or control > 0, (checked, control)
