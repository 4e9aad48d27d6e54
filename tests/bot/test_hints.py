"""``/game hint`` through the game service and the real worker processes (issue #33): the choices
read in the order of the figures they show, each says how sure it is, a low budget shows no
percentage, the hint thinks in a worker of its own with a budget larger than a move's, and it
reads nothing the seat cannot see.  Budgets are counted in engine actions; the hint's time bound
is left out (``hint_seconds=None``) or already spent, never raced."""

from __future__ import annotations

import asyncio
import dataclasses
import re
from collections.abc import AsyncIterator
from concurrent.futures import ProcessPoolExecutor
from multiprocessing.managers import SyncManager
from pathlib import Path
from typing import Any

import pytest

from bot.hints import hint_text
from bot.seats import Actor
from bot.service import GameService
from bot.thinking import HINT_FACTOR, Thinker, hint
from bot.turns import Hint, TurnService, hint_seed
from engine import get_game
from engine.advice import MIN_PLAYOUTS, advise
from engine.search import Search
from storage import Storage
from tests.bot.test_service import FakePublisher, Keep

GAMES = ("puerto-rico", "san-juan", "puerto-rico-1897")
PERCENT = {"en": r"wins (\d+)% ±(\d+)", "es": r"gana el (\d+) % ±(\d+)",
           "pt": r"vence (\d+)% ±(\d+)"}
SURE = {
    "en": ("Clearly the best.", "Probably the best.", "About as good as the next one.",
           "Clearly worse than the first.", "Probably worse than the first.",
           "About as good as the first."),
    "es": ("Claramente la mejor.", "Probablemente la mejor.",
           "Más o menos igual de buena que la siguiente.", "Claramente peor que la primera.",
           "Probablemente peor que la primera.", "Más o menos igual de buena que la primera."),
    "pt": ("Claramente a melhor.", "Provavelmente a melhor.",
           "Mais ou menos tão boa quanto a seguinte.", "Claramente pior que a primeira.",
           "Provavelmente pior que a primeira.", "Mais ou menos tão boa quanto a primeira."),
}
TOO_FEW = {"en": "could not look far enough ahead", "es": "no pudo mirar lo bastante lejos",
           "pt": "não conseguiu olhar longe o bastante"}


@pytest.fixture
async def storage(tmp_path: Path) -> AsyncIterator[Storage]:
    store = await Storage.open(tmp_path / "g.db", synchronous="OFF")
    yield store
    await store.close()


def no_render(*_: Any) -> bytes:
    return b"\x89PNG fake"


async def asked_hint(storage: Storage, thinker: Thinker, name: str) -> tuple[Hint, Any]:
    """A 3-seat table of ``name`` with hints on, two heuristic seats, and the person's hint
    at their first decision (with the stored position, to compare).  The caller closes the
    thinker."""
    svc = GameService(storage, FakePublisher(), rng=Keep(1), renderer=no_render,
                      thinker=thinker)
    record = await svc.create_lobby(creator_id=1, guild_id=5, channel_id=10, language="en",
                                    game=name, max_players=3, ai_seats=2, hints=True)
    await svc.start(record.id, Actor(1), record.version)
    await svc.settled()
    given = await TurnService(svc).hint(record.id, 1)
    return given, await storage.games.load(record.id)


def shown(text: str, lang: str) -> list[tuple[int, int]]:
    return [(int(a), int(b)) for a, b in re.findall(PERCENT[lang], text)]


@pytest.mark.parametrize("name", GAMES)
async def test_a_hint_ranks_by_the_figures_it_shows_and_says_how_sure(
        storage: Storage, name: str) -> None:
    """The percentages read down in order (they were 59% then 66%), each from the same
    playouts, with a margin of error and a sureness in words, in every language; the figures
    are the engine's advice at the hint's budget (``HINT_FACTOR`` moves) from the position with
    everything the seat cannot see dealt again."""
    budget = 5_000
    thinker = Thinker(budget=budget, hint_seconds=None)
    try:
        given, loaded = await asked_hint(storage, thinker, name)
    finally:
        thinker.close()
    assert thinker.hint_budget == HINT_FACTOR * budget
    game = get_game(name)
    seat = given.panel.seat
    resampled = game.determinize(loaded.state, seat, 777)
    expected = advise(Search(game, HINT_FACTOR * budget), resampled, seat,
                      game.legal_actions(resampled, seat),
                      hint_seed(loaded.record.id, loaded.record.seq, seat), keep=3)
    assert given.advice == expected
    assert given.advice.enough
    for lang in ("en", "es", "pt"):
        text = hint_text(given, lang)
        assert len(text) <= 2000
        lines = text.splitlines()
        figures = shown(text, lang)
        assert len(figures) == len(lines) - 1 == len(given.advice.choices) >= 2
        percents = [p for p, _ in figures]
        assert percents == sorted(percents, reverse=True), text
        assert all(err >= 1 for _, err in figures)
        firsts, others = SURE[lang][:3], SURE[lang][3:]
        assert lines[1].endswith(firsts), lines[1]
        assert all(line.endswith(others) for line in lines[2:]), text
        assert all(f"({given.advice.playouts} " in line for line in lines[1:])
    # among very many choices (San Juan's discards) the race takes a sample: the hint says so
    total = given.advice.entrants + 40
    sampled = dataclasses.replace(given, advice=dataclasses.replace(given.advice, legal=total))
    for lang, words in (("en", "Of your"), ("es", "De tus"), ("pt", "Das suas")):
        last = hint_text(sampled, lang).splitlines()[-1]
        assert words in last and f"{total} " in last and f"{given.advice.entrants}:" in last


@pytest.mark.parametrize("name", GAMES)
async def test_a_low_budget_shows_no_percentage(storage: Storage, name: str) -> None:
    """A lowered ``AI_BUDGET`` (120 engine actions a move) gave "wins 0%" from 2-5 playouts:
    now the hint says it could not look far enough, in every language, and shows no figure."""
    thinker = Thinker(budget=120, hint_seconds=None)
    try:
        given, _ = await asked_hint(storage, thinker, name)
    finally:
        thinker.close()
    for lang in ("en", "es", "pt"):
        text = hint_text(given, lang)
        assert "%" not in text, text
        assert TOO_FEW[lang] in text
        assert str(MIN_PLAYOUTS) in text


def test_the_hints_time_bound_stops_between_deals() -> None:
    """The hint's worker job stops at its time bound (here, already spent): after one deal,
    its choices compared on it, and too few playouts to be shown."""
    game = get_game("san-juan")
    state = game.setup(game.normalize_options({"players": 3}), 2)
    prompt = game.prompt(state)
    assert prompt is not None
    seat = prompt.seats[0]
    advice = hint("san-juan", game.dump(state), seat, 9, 10**6, 3, 0.0)
    assert advice.stopped and advice.playouts == 1
    assert not advice.enough


def wait_for(event: Any) -> bool:
    """A worker job that holds its process until ``event`` is set."""
    return bool(event.wait(120))


async def test_a_hint_does_not_wait_behind_the_strong_seats(storage: Storage) -> None:
    """While the strong seats' worker is busy, a hint is thought in a worker of its own."""
    thinker = Thinker(budget=200, hint_seconds=None)
    manager = SyncManager()
    manager.start()
    try:
        release = manager.Event()
        busy = thinker._executor()
        assert isinstance(busy, ProcessPoolExecutor)
        held = asyncio.get_running_loop().run_in_executor(busy, wait_for, release)
        given, _ = await asyncio.wait_for(asked_hint(storage, thinker, "puerto-rico"), 120)
        assert given.advice.playouts >= 1
        assert not held.done()  # the seats' worker was held all along
        release.set()
        assert await held
    finally:
        thinker.close()
        manager.shutdown()
