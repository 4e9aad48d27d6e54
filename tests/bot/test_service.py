"""GameService on a real SQLite file with a fake publisher: starting, submitting, the AI seats,
outdated and simultaneous decisions."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

from bot.changes import TableUpdate
from bot.errors import UserError
from bot.seats import Actor
from bot.service import GameService
from engine import get_game
from engine.core import Event
from engine.policies import make_policy
from storage import GameRecord, GameStatus, NotSeated, StaleVersion, Storage

GAME = get_game("puerto-rico")


class FakePublisher:
    def __init__(self) -> None:
        self.tables: list[TableUpdate] = []
        self.notified: list[tuple[int, ...]] = []

    async def seat_names(self, record: GameRecord) -> dict[int, str]:
        return {s.seat: f"P{s.seat}" for s in record.seats}

    async def publish_table(self, update: TableUpdate) -> None:
        self.tables.append(update)

    async def notify_turn(self, update: TableUpdate) -> None:
        self.notified.append(update.newly_waiting)


class Reverse(random.Random):
    def shuffle(self, x: Any) -> None:
        x.reverse()


class Keep(random.Random):
    def shuffle(self, x: Any) -> None:
        return None


def fake_render(view: Mapping[str, Any], events: Sequence[Event], names: Mapping[int, str],
                labels: Mapping[str, str]) -> bytes:
    assert labels["role.settler"] in ("Settler", "Colonizador")
    return b"\x89PNG fake"


@pytest.fixture
async def storage(tmp_path: Path) -> AsyncIterator[Storage]:
    store = await Storage.open(tmp_path / "g.db", synchronous="OFF")
    yield store
    await store.close()


def service(
    storage: Storage, rng: random.Random | None = None
) -> tuple[GameService, FakePublisher]:
    publisher = FakePublisher()
    return GameService(storage, publisher, rng=rng or Keep(1), renderer=fake_render), publisher


async def lobby(svc: GameService, humans: int, ai: int = 0, size: int | None = None) -> GameRecord:
    record = await svc.create_lobby(creator_id=1, guild_id=5, channel_id=10, language="en",
                                    max_players=size or max(2, humans + ai), ai_seats=ai)
    for user in range(2, humans + 1):
        record = await svc.join(record.id, user)
    return record


async def test_start_seats_randomly_stores_the_seed_and_runs_the_ai(storage: Storage) -> None:
    """Reverse seating puts the two AI seats first: they play (each action logged with no user)
    until the human's first decision; the table is published once, the human notified."""
    svc, publisher = service(storage, Reverse(4))
    record = await lobby(svc, humans=1, ai=2)
    update = await svc.start(record.id, Actor(1), record.version)
    record = update.record
    assert [s.user_id for s in record.seats] == [None, None, 1]
    assert record.seed is not None and record.status is GameStatus.ACTIVE
    actions = await storage.games.actions(record.id)
    assert actions and all(a.user_id is None and a.seat in (0, 1) for a in actions)
    assert record.to_act == (2,)
    assert publisher.notified == [(1,)]
    assert [t.image for t in publisher.tables] == [b"\x89PNG fake"]
    assert update.view["prompt"]["seats"] == [2] and update.names[0] == "P0"


async def test_start_rules(storage: Storage) -> None:
    svc, _ = service(storage)
    record = await lobby(svc, humans=1, size=5)
    with pytest.raises(UserError) as few:
        await svc.start(record.id, Actor(1), record.version)
    assert few.value.key == "err.too_few_players"
    record = await svc.join(record.id, 2)
    with pytest.raises(UserError) as early:
        await svc.start(record.id, Actor(2), record.version)  # not full (5 seats), not creator
    assert early.value.key == "err.start_early"
    with pytest.raises(StaleVersion):
        await svc.start(record.id, Actor(1), record.version - 1)
    update = await svc.start(record.id, Actor(99, can_manage=True), record.version)
    assert update.record.status is GameStatus.ACTIVE


async def test_lobby_refusals(storage: Storage) -> None:
    svc, _ = service(storage)
    record = await lobby(svc, humans=1)
    with pytest.raises(UserError) as busy:
        await svc.create_lobby(creator_id=2, guild_id=5, channel_id=10, language="en")
    assert busy.value.key == "err.channel_busy" and busy.value.fields["game"] == record.id
    with pytest.raises(UserError) as many:
        await svc.create_lobby(creator_id=2, guild_id=5, channel_id=11, language="en",
                               max_players=3, ai_seats=3)
    assert many.value.key == "err.too_many_ai"
    with pytest.raises(UserError) as stranger:
        await svc.add_ai(record.id, Actor(7), record.version, "random")
    assert stranger.value.key == "err.not_allowed"


async def test_submit_refuses_strangers_turns_and_outdated_versions(storage: Storage) -> None:
    svc, publisher = service(storage)
    record = await lobby(svc, humans=2)
    record = (await svc.start(record.id, Actor(1), record.version)).record
    with pytest.raises(NotSeated):
        await svc.submit(record.id, 99, record.version, "r.settler")
    with pytest.raises(UserError) as turn:
        await svc.submit(record.id, 2, record.version, "r.settler")
    assert turn.value.key == "err.not_your_turn"
    result = await svc.submit(record.id, 1, record.version, "r.settler")
    assert result.record.version == record.version + 1 and result.code == "r.settler"
    with pytest.raises(StaleVersion):  # the same click again: applied once
        await svc.submit(record.id, 1, record.version, "r.settler")
    assert [a.code for a in await storage.games.actions(record.id)] == ["r.settler"]
    assert publisher.notified[-1] == ()  # user 1 acts again (settle) and is not pinged


async def play_until_simultaneous(svc: GameService, record: GameRecord) -> tuple[Any, GameRecord]:
    """Play heuristic moves for the people until a prompt names several seats."""
    for step in range(2000):
        loaded = await svc.storage.games.load(record.id)
        state, record = loaded.state, loaded.record
        prompt = GAME.prompt(state)
        assert prompt is not None
        if len(prompt.seats) > 1:
            return state, record
        seat = prompt.seats[0]
        action = make_policy("heuristic", "puerto-rico", step).choose(
            GAME, state, seat, GAME.legal_actions(state, seat)
        )
        user = record.seat(seat).user_id  # type: ignore[union-attr]
        assert user is not None
        await svc.submit(record.id, user, record.version, GAME.encode_action(action))
    raise AssertionError("no simultaneous prompt")


async def test_simultaneous_prompt_accepts_a_stale_but_still_legal_action(
    storage: Storage,
) -> None:
    """Several seats decide at once (Mayor arrangement, goods to keep): another seat's action
    does not outdate this seat's buttons, but a seat's own second click on them is refused."""
    svc, _ = service(storage)
    record = await lobby(svc, humans=4)
    record = (await svc.start(record.id, Actor(1), record.version)).record
    state, record = await play_until_simultaneous(svc, record)
    first, second = GAME.prompt(state).seats[:2]  # type: ignore[union-attr]
    seen = record.version
    code_a = GAME.encode_action(GAME.legal_actions(state, first)[0])
    code_b = GAME.encode_action(GAME.legal_actions(state, second)[0])
    user_a, user_b = (record.seat(s).user_id for s in (first, second))  # type: ignore[union-attr]
    assert user_a is not None and user_b is not None
    await svc.submit(record.id, user_a, seen, code_a)
    result = await svc.submit(record.id, user_b, seen, code_b)  # stale, yet still legal
    assert result.seat == second
    with pytest.raises(StaleVersion):
        await svc.submit(record.id, user_a, seen, code_a)


async def test_resume_plays_ai_turns_left_over_by_a_restart(storage: Storage) -> None:
    """A game started without its AI turns (the process died) is moved on at start-up."""
    svc, publisher = service(storage)
    record = await storage.games.create_lobby("puerto-rico", creator_id=None, channel_id=3,
                                              seat_creator=False)
    await storage.games.add_ai(record.id, "heuristic")
    await storage.games.join(record.id, 1)
    started = await storage.games.start(record.id, seed=9)
    assert started.to_act == (0,)
    assert await svc.resume_all() == 1
    record = await storage.games.get(record.id)
    assert record.to_act == (1,) and publisher.notified == [(1,)]
    assert await svc.resume_all() == 0
