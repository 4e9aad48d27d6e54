"""The work a move costs (issue #9, "Load"): images drawn once per board and off the event
loop, the story told without replaying the log, the end of the log kept in memory.  Each saving
must leave what players see exactly as it was."""

from __future__ import annotations

import asyncio
import os
import random
import threading
from collections.abc import AsyncIterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

import bot.history
from bot.changes import PhaseEnd, TableUpdate
from bot.gamelog import views_after
from bot.history import LOG_TAIL, History
from bot.rendering import IMAGE_PROCESSES, Drawing, _processes, default_renderer, draw_board
from bot.seats import Actor
from bot.service import GameService
from engine import get_game
from engine.core import Event
from engine.policies import make_policy
from render.sample import play
from storage import GameRecord, Storage

GAME = get_game("puerto-rico")


class Names:
    async def seat_names(self, record: GameRecord) -> dict[int, str]:
        return {s.seat: f"P{s.seat}" for s in record.seats}

    async def publish_table(self, update: TableUpdate) -> None:
        return None

    async def notify_turn(self, update: TableUpdate) -> None:
        return None


class Keep(random.Random):
    def shuffle(self, x: Any) -> None:
        return None


@pytest.fixture
async def storage(tmp_path: Path) -> AsyncIterator[Storage]:
    store = await Storage.open(tmp_path / "g.db", synchronous="OFF")
    yield store
    await store.close()


def told(phases: Sequence[PhaseEnd]) -> list[tuple[Any, ...]]:
    return [(p.seq, p.role, p.chooser, p.round, p.view, p.events, p.chosen) for p in phases]


async def test_the_story_without_replay_is_the_replayed_story(
    storage: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Over 40 decisions of one person and three AI seats (long enough for the log to outgrow
    the end the service keeps), every story is told from the views kept when its phases ended
    and the end of the log, never replaying the game, and it is the story the replay of the
    whole log tells: the same boards, rounds, choosers and highlights."""
    replayed: list[int] = []
    real = views_after

    def counting(game: Any, options: Any, seed: int, actions: Any, indexes: Any) -> Any:
        replayed.extend(indexes)
        return real(game, options, seed, actions, indexes)

    monkeypatch.setattr(bot.history, "views_after", counting)
    svc = GameService(storage, Names(), rng=Keep(3), renderer=None)
    record = await svc.create_lobby(creator_id=1, guild_id=5, channel_id=10, language="en",
                                    max_players=4, ai_seats=3)
    await svc.start(record.id, Actor(1), record.version)
    stories = 0
    for step in range(40):
        loaded = await storage.games.load(record.id)
        prompt = GAME.prompt(loaded.state)
        assert prompt is not None
        seat = next(s for s in prompt.seats if loaded.record.seat(s).user_id)  # type: ignore[union-attr]
        action = make_policy("heuristic", "puerto-rico", step).choose(
            GAME, loaded.state, seat, GAME.legal_actions(loaded.state, seat))
        update = (await svc.submit(record.id, 1, loaded.record.version,
                                   GAME.encode_action(action))).update
        assert update.recent == tuple(await storage.games.actions(
            record.id, after_seq=max(0, update.record.seq - LOG_TAIL)))
        if update.story is None:
            continue
        fast = await update.story()
        assert replayed == [] and fast
        ended = sum(1 for e in update.events if e.type == "PhaseEnded")  # replayed, nothing kept
        reference = await History(storage).phase_ends(update.record, GAME, ended, update.view)
        assert told(fast) == told(reference)
        replayed.clear()
        stories += 1
    assert update.record.seq > LOG_TAIL and stories >= 10


async def test_the_end_of_the_log_is_read_again_after_an_undo(storage: Storage) -> None:
    """The end of the log kept in memory belongs to one version: an undo (a change the service
    did not commit itself) makes the next update read the log again, without the action taken
    back."""
    svc = GameService(storage, Names(), rng=Keep(1), renderer=None)
    record = await svc.create_lobby(creator_id=1, guild_id=5, channel_id=10, language="en",
                                    max_players=2, ai_seats=0)
    record = await svc.join(record.id, 2)
    update = await svc.start(record.id, Actor(1), record.version)
    loaded = await storage.games.load(record.id)
    seat = GAME.prompt(loaded.state).seats[0]  # type: ignore[union-attr]
    user = loaded.record.seat(seat).user_id  # type: ignore[union-attr]
    code = GAME.encode_action(GAME.legal_actions(loaded.state, seat)[0])
    update = (await svc.submit(record.id, user or 0, loaded.record.version, code)).update
    assert update.recent[-1].code == code
    undone = await storage.games.undo_last(record.id, 1, user_id=user)
    recent = await svc.recent(undone.record)
    assert code not in [a.code for a in recent]
    assert recent == tuple(await storage.games.actions(record.id))


def recording() -> tuple[list[Mapping[str, Any]], Any]:
    drawn: list[Mapping[str, Any]] = []

    def draw(view: Mapping[str, Any], events: Sequence[Event], names: Mapping[int, str],
             labels: Mapping[str, str]) -> bytes:
        drawn.append(view)
        if view.get("broken"):
            raise RuntimeError("cannot draw")
        return repr(sorted(view.items())).encode()

    return drawn, draw


async def test_the_same_board_is_drawn_once() -> None:
    """Asked twice at once or one after the other, a board is drawn once; another view, other
    names, another language or a story's status line make another image."""
    drawn, draw = recording()
    drawing = Drawing(draw)
    view = {"viewer": None, "round": 2}
    first, second = await asyncio.gather(drawing.board(view, [], {0: "a"}, "en"),
                                         drawing.board(dict(view), [], {0: "a"}, "en"))
    assert first == second and first is not None
    assert await drawing.board(view, [], {0: "a"}, "en") == first
    assert len(drawn) == 1
    await drawing.board({"viewer": None, "round": 3}, [], {0: "a"}, "en")
    await drawing.board(view, [], {0: "b"}, "en")
    await drawing.board(view, [], {0: "a"}, "es")
    await drawing.board(view, [], {0: "a"}, "en", status="Round 2 ended")
    assert len(drawn) == 5
    drawing.close()


async def test_a_failed_board_is_drawn_again() -> None:
    """A board that could not be drawn is a text table this time, and drawn again when asked
    again (a failure is not kept)."""
    drawn, draw = recording()
    drawing = Drawing(draw)
    broken = {"viewer": None, "broken": True}
    assert await drawing.board(broken, [], {}, "en") is None
    assert await drawing.board(broken, [], {}, "en") is None
    assert len(drawn) == 2
    drawing.close()


async def test_the_bots_renderer_draws_in_a_worker_process() -> None:
    """The bot's own renderer runs in a worker process (Pillow holds the GIL: in a thread it
    would stop the event loop) and gives the very bytes a direct call gives; a renderer passed
    in (a test's) stays in the bot's threads."""
    assert default_renderer() is draw_board
    drawing = Drawing(draw_board)
    assert drawing.in_processes and not Drawing(recording()[1]).in_processes
    played = play("puerto-rico", 3, 5, 60)
    for viewer in (None, 1):
        view, events = played.view(viewer), played.highlights()
        image = await drawing.board(view, events, {0: "ana"}, "es")
        assert image == draw_board(view, events, {0: "ana"}, drawing.labels("es", view["game"]))
    assert drawing.in_processes
    drawing.close()


async def test_panels_and_story_images_wait_while_a_table_is_drawn() -> None:
    """The bot orders its images itself: a panel's or a story's image (not urgent) starts only
    once no table is being drawn, so a crowd of panels never delays the table everybody waits
    for.  This order is the only priority the images have (see the next test)."""
    started: list[str] = []
    table_may_finish = threading.Event()

    def draw(view: Mapping[str, Any], events: Sequence[Event], names: Mapping[int, str],
             labels: Mapping[str, str]) -> bytes:
        kind = str(view["kind"])
        started.append(kind)
        if kind == "table":
            assert table_may_finish.wait(60)
        return kind.encode()

    drawing = Drawing(draw)
    table = asyncio.ensure_future(drawing.board({"viewer": None, "kind": "table"}, [], {}, "en"))
    while not started:  # the table is being drawn
        await asyncio.sleep(0.01)
    panel = asyncio.ensure_future(drawing.board({"viewer": 1, "kind": "panel"}, [], {}, "en"))
    story = asyncio.ensure_future(drawing.board({"viewer": None, "kind": "story"}, [], {}, "en",
                                                urgent=False))
    for _ in range(20):  # every chance to start
        await asyncio.sleep(0.01)
    assert started == ["table"]
    table_may_finish.set()
    assert list(await asyncio.gather(table, panel, story)) == [b"table", b"panel", b"story"]
    assert started[0] == "table" and sorted(started[1:]) == ["panel", "story"]
    drawing.close()


def _niceness() -> int:
    return os.nice(0)


async def test_image_processes_keep_the_bots_priority() -> None:
    """Every image process runs at the bot's own priority.  Panels and story images once ran at
    niceness 10: beside other busy processes on a shared host they got almost no CPU, and the
    next table, waiting in the game's lock behind the story's images, came seconds late."""
    loop = asyncio.get_running_loop()
    for kind in IMAGE_PROCESSES:
        assert await loop.run_in_executor(_processes(kind), _niceness) == os.nice(0), kind
