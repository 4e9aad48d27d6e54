"""Simultaneous decisions through GameService: three people arranging colonists (the Mayor) or
choosing the barrels to keep (after the Captain) all confirm panels drawn for the same version,
in every order and all at once.  Each confirmation is accepted, the last one included (it is
named alone by then), and a double click or a panel drawn before the seat was asked is refused.
"""

from __future__ import annotations

import asyncio
import itertools
import shutil
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.service import GameService
from engine import get_game
from engine.policies import make_policy
from storage import GameRecord, StaleVersion, Storage
from tests.bot.test_service import FakePublisher, Keep, fake_render

GAME = get_game("puerto-rico")
USERS = (101, 102, 103)
SEEDS = {"arrange": 1, "keep": 2}
"""Game seeds whose heuristic play reaches the decision with all three seats asked."""


async def reach(path: Path, kind: str) -> None:
    """A 3-person game played (heuristic, seeded) up to ``kind`` naming every seat."""
    storage = await Storage.open(path, synchronous="OFF")
    try:
        record = await storage.games.create_lobby("puerto-rico", creator_id=USERS[0],
                                                  channel_id=10, guild_id=5, language="en")
        for user in USERS[1:]:
            await storage.games.join(record.id, user)
        record = await storage.games.start(record.id, seed=SEEDS[kind])
        for n in range(400):
            loaded = await storage.games.load(record.id)
            prompt = GAME.prompt(loaded.state)
            assert prompt is not None
            if prompt.kind == kind and len(prompt.seats) == 3:
                return
            seat = prompt.seats[0]
            action = make_policy("heuristic", "puerto-rico", n).choose(
                GAME, loaded.state, seat, GAME.legal_actions(loaded.state, seat))
            await storage.games.play(record.id, seat, GAME.encode_action(action),
                                     expected_version=loaded.record.version)
        raise AssertionError(f"no {kind} decision naming three seats")
    finally:
        await storage.close()


@pytest.fixture(scope="module")
def positions(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """One database file per kind of decision, copied by each test."""
    folder = tmp_path_factory.mktemp("positions")
    files = {kind: folder / f"{kind}.db" for kind in SEEDS}
    for kind, path in files.items():
        asyncio.run(reach(path, kind))
    return files


@pytest.fixture
async def opened(tmp_path: Path, positions: dict[str, Path],
                 request: pytest.FixtureRequest) -> AsyncIterator[Storage]:
    path = tmp_path / "game.db"
    shutil.copy(positions[request.param], path)
    storage = await Storage.open(path, synchronous="OFF")
    yield storage
    await storage.close()


def decision(state: Any, seat: int) -> list[str]:
    """What the seat's panel submits: a whole arrangement (one placement after another, as the
    Mayor draft's Confirm sends it) or the first choice of barrels to keep."""
    prompt = GAME.prompt(state)
    assert prompt is not None and seat in prompt.seats
    if prompt.kind != "arrange":
        return [GAME.encode_action(GAME.legal_actions(state, seat)[0])]
    codes: list[str] = []
    while (now := GAME.prompt(state)) is not None and seat in now.seats and now.kind == "arrange":
        legal = [a for a in GAME.legal_actions(state, seat) if GAME.encode_action(a) != "m.auto"]
        codes.append(GAME.encode_action(legal[0]))
        state, _ = GAME.apply(state, seat, legal[0])
    return codes


async def drawn(storage: Storage) -> tuple[GameRecord, dict[int, list[str]]]:
    """The game and each seat's decision as their panels show it now."""
    loaded = await storage.games.load(1)
    prompt = GAME.prompt(loaded.state)
    assert prompt is not None and prompt.seats == (0, 1, 2)
    return loaded.record, {seat: decision(loaded.state, seat) for seat in prompt.seats}


async def check_done(storage: Storage, record: GameRecord, kind: str,
                     drafts: dict[int, list[str]]) -> None:
    """Every seat's whole decision is in the log, by its person, and the game went on."""
    log = await storage.games.actions(record.id, after_seq=record.seq)
    for seat, codes in drafts.items():
        mine = [a.code for a in log if a.seat == seat and a.user_id == USERS[seat]]
        assert mine == codes, (seat, mine, codes)
    loaded = await storage.games.load(record.id)
    prompt = GAME.prompt(loaded.state)
    assert prompt is None or prompt.kind != kind


def service(storage: Storage) -> tuple[GameService, FakePublisher]:
    publisher = FakePublisher()
    return GameService(storage, publisher, rng=Keep(1), renderer=fake_render), publisher


ORDERS = list(itertools.permutations(range(3)))


@pytest.mark.parametrize("opened", list(SEEDS), indirect=True)
@pytest.mark.parametrize("order", ORDERS, ids=["".join(map(str, o)) for o in ORDERS])
async def test_every_order_of_confirmation_is_accepted(
    opened: Storage, order: tuple[int, ...]
) -> None:
    """Three panels drawn for one version, confirmed one after the other in ``order``: each is
    accepted although the version moved on, the last one (then named alone) included."""
    storage = opened
    svc, _ = service(storage)
    record, drafts = await drawn(storage)
    kind = str(GAME.prompt((await storage.games.load(record.id)).state).kind)  # type: ignore[union-attr]
    for seat in order:
        result = await svc.submit(record.id, USERS[seat], record.version, drafts[seat])
        assert result.seat == seat
    await check_done(storage, record, kind, drafts)


@pytest.mark.parametrize("opened", list(SEEDS), indirect=True)
async def test_all_at_once(opened: Storage) -> None:
    """The three confirmations arrive together: all accepted, each applied once."""
    storage = opened
    svc, _ = service(storage)
    record, drafts = await drawn(storage)
    kind = str(GAME.prompt((await storage.games.load(record.id)).state).kind)  # type: ignore[union-attr]
    results = await asyncio.gather(*(
        svc.submit(record.id, USERS[seat], record.version, drafts[seat]) for seat in (2, 0, 1)))
    assert sorted(r.seat for r in results) == [0, 1, 2]
    await check_done(storage, record, kind, drafts)


@pytest.mark.parametrize("opened", list(SEEDS), indirect=True)
async def test_a_double_click_and_an_older_panel_are_refused(opened: Storage) -> None:
    """A seat confirming twice is refused the second time (its own decision since changed its
    board), and so is a panel drawn before the seat was asked; nothing changes."""
    storage = opened
    svc, _ = service(storage)
    record, drafts = await drawn(storage)
    for seat in range(3):
        with pytest.raises(StaleVersion):  # drawn before this decision began
            await svc.submit(record.id, USERS[seat], record.version - 1, drafts[seat])
    await svc.submit(record.id, USERS[1], record.version, drafts[1])
    after = await storage.games.get(record.id)
    with pytest.raises(StaleVersion):
        await svc.submit(record.id, USERS[1], record.version, drafts[1])
    assert (await storage.games.get(record.id)).version == after.version
