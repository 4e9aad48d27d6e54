"""The strong AI level on the bot's side (issue #13): its decisions are thought in a worker
process after the table of the change that led to them is shown, applied under the game's lock
only if the game is still where it was, and the same as the engine's search from the stored
position (so replays and restarts hold).  A seat taken over plays the table's level."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from bot.ai_turns import Thought
from bot.seats import Actor, takeover_level
from bot.service import GameService
from bot.thinking import Thinker, think
from engine import get_game
from storage import GameRecord, GameStatus, SeatRecord, Storage
from tests.bot.test_service import FakePublisher, Keep, Reverse, fake_render

BUDGET = 120  # engine actions per decision: the flow is tested here, the strength elsewhere
HINT_BUDGET = 20_000  # a hint's: enough playouts for figures at a Puerto Rico opening


@pytest.fixture
async def storage(tmp_path: Path) -> AsyncIterator[Storage]:
    store = await Storage.open(tmp_path / "g.db", synchronous="OFF")
    yield store
    await store.close()


class CountingThinker(Thinker):
    """The real search in the real worker process, counting the decisions asked of it; with
    ``hold``, the first decision waits until the test lets it go."""

    def __init__(self, hold: asyncio.Event | None = None) -> None:
        super().__init__(budget=BUDGET)
        self.asked: list[tuple[int, int]] = []
        self.hold = hold
        self.waiting = asyncio.Event()

    async def choose(self, game_name: str, data: Mapping[str, Any], seat: int,
                     seed: int) -> str:
        self.asked.append((seat, seed))
        code = await super().choose(game_name, data, seat, seed)
        if self.hold is not None and len(self.asked) == 1:
            self.waiting.set()
            await self.hold.wait()
        return code


async def test_strong_seats_play_after_the_table_is_shown_and_as_the_search_says(
        storage: Storage) -> None:
    thinker = CountingThinker()
    publisher = FakePublisher()
    svc = GameService(storage, publisher, rng=Reverse(4), renderer=fake_render,
                      thinker=thinker)
    try:
        record = await svc.create_lobby(creator_id=1, guild_id=5, channel_id=10, language="en",
                                        max_players=3, ai_seats=2, ai_level="strong")
        assert record.ai_level == "strong"
        assert [s.ai_policy for s in record.seats] == [None, "strong", "strong"]
        update = await svc.start(record.id, Actor(1), record.version)
        # the strong seats sit first (reversed order): the table is shown before they think
        assert update.record.seq == 0 or not thinker.asked
        await svc.settled()
        loaded = await storage.games.load(record.id)
        assert loaded.record.status is GameStatus.ACTIVE
        human = loaded.record.seat_of(1)
        assert human is not None
        assert loaded.record.to_act == (human.seat,)  # the people's turn now
        assert thinker.asked  # the strong seats thought...
        actions = await storage.games.actions(record.id)
        assert all(a.user_id is None for a in actions)  # ...and played, before the person
        assert len(publisher.tables) >= 2  # the start, then each strong move's table
        # every strong decision is the search's from the stored position before it
        game = get_game("puerto-rico")
        state = game.setup(loaded.record.options, loaded.record.seed or 0)
        for seq, action in enumerate(actions):
            seat = loaded.record.seat(action.seat)
            assert seat is not None and seat.ai_policy == "strong"
            legal = game.legal_actions(state, action.seat)
            if len(legal) > 1:
                seed = ((loaded.record.seed or 0) * 1_000_003 + seq * 31 + action.seat) % 2**63
                assert (action.seat, seed) in thinker.asked
                assert think("puerto-rico", game.dump(state), action.seat, seed,
                             BUDGET) == action.code
            state, _ = game.apply(state, action.seat, game.decode_action(action.code))
    finally:
        svc.close()


async def test_a_thought_for_a_position_that_moved_on_is_thought_again(
        storage: Storage) -> None:
    """While the strong seat thinks, its seat changes hands (the version moves): its answer is
    dropped and the game is looked at again; the seat, now a person's, waits for them."""
    hold = asyncio.Event()
    thinker = CountingThinker(hold)
    svc = GameService(storage, FakePublisher(), rng=Reverse(4), renderer=fake_render,
                      thinker=thinker)
    try:
        record = await svc.create_lobby(creator_id=1, guild_id=5, channel_id=10, language="en",
                                        max_players=3, ai_seats=2, ai_level="strong")
        await svc.start(record.id, Actor(1), record.version)
        await asyncio.wait_for(thinker.waiting.wait(), 60)
        before = await storage.games.get(record.id)
        seat, _ = thinker.asked[0]
        await storage.games.replace_seat(record.id, seat, user_id=42,
                                         expected_version=before.version)
        hold.set()
        await svc.settled()
        after = await storage.games.get(record.id)
        assert after.seq == before.seq  # the dropped thought played nothing
        assert after.to_act == (seat,)  # the new person's decision now
        assert len(thinker.asked) == 1
    finally:
        svc.close()


async def test_the_automatic_choice_of_a_strong_seat_is_a_thought(storage: Storage) -> None:
    svc = GameService(storage, FakePublisher(), rng=Keep(1), renderer=fake_render,
                      thinker=Thinker(budget=BUDGET))
    try:
        record = await svc.create_lobby(creator_id=1, guild_id=5, channel_id=10, language="en",
                                        max_players=2, ai_seats=1, ai_level="strong")
        record = await storage.games.start(record.id, seed=3, expected_version=record.version)
        loaded = await storage.games.load(record.id)
        game = get_game("puerto-rico")
        state = loaded.state
        assert svc.ai.choice(game, loaded.record, state, (0,), False) is None  # a person
        while (prompt := game.prompt(state)) is not None and prompt.seats == (0,):
            state, _ = game.apply(state, 0, game.legal_actions(state, 0)[0])
        assert prompt is not None and prompt.seats == (1,)
        choice = svc.ai.choice(game, loaded.record, state, prompt.seats, prompt.forced)
        assert isinstance(choice, Thought)
        assert choice.seat == 1
    finally:
        svc.close()


def test_a_seat_taken_over_plays_the_tables_level() -> None:
    """The table's level (``/game new ai_level``), else normal, as docs/commands.md and
    docs/bot.md say (issue #33): never the level of the table's AI seats (the lobby seats each at
    any level), nor a seat kind the game plays itself (a Puertoma)."""
    at = datetime(2026, 11, 26, tzinfo=UTC)

    def table(game: str, seats: list[str | None], level: str | None) -> GameRecord:
        return GameRecord(7, game, {"players": len(seats)}, 1, GameStatus.ACTIVE, 4, 3, 1, 2,
                          100, "en", at, at, at, at, None,
                          tuple(SeatRecord(n, None if kind else 100 + n, kind, at)
                                for n, kind in enumerate(seats)), ai_level=level)

    assert takeover_level(table("puerto-rico", [None, None], "strong")) == "strong"
    assert takeover_level(table("puerto-rico", [None, "random"], None)) == "heuristic"
    assert takeover_level(table("puerto-rico", [None, None, "strong"], None)) == "heuristic"
    assert takeover_level(table("puerto-rico", [None, None, "strong"], "random")) == "random"
    assert takeover_level(table("puerto-rico", [None, None], None)) == "heuristic"
    assert takeover_level(table("puerto-rico-1897", [None, "puertoma", "puertoma"],
                                None)) == "heuristic"
    assert takeover_level(table("puerto-rico-1897", [None, None, "puertoma"],
                                "random")) == "random"


async def test_a_hint_is_the_searchs_advice_from_what_the_seat_sees(storage: Storage) -> None:
    """``/game hint``: refused at a table without hints and out of turn; otherwise the best
    three choices of the advice at the hint's budget, the same as the engine gives from the
    position with everything the seat cannot see dealt again (a hint reads nothing hidden),
    worded in each language within Discord's limits (the figures: tests/bot/test_hints.py)."""
    from bot.errors import UserError
    from bot.hints import hint_text
    from bot.turns import TurnService, hint_seed
    from engine.advice import advise
    from engine.search import Search

    svc = GameService(storage, FakePublisher(), rng=Keep(1), renderer=fake_render,
                      thinker=Thinker(budget=BUDGET, hint_budget=HINT_BUDGET, hint_seconds=None))
    turns = TurnService(svc)
    try:
        plain = await svc.create_lobby(creator_id=1, guild_id=5, channel_id=10, language="en",
                                       max_players=3, ai_seats=2)
        await svc.start(plain.id, Actor(1), plain.version)
        with pytest.raises(UserError) as off:
            await turns.hint(plain.id, 1)
        assert off.value.key == "err.hints_off"
        await storage.games.abandon(plain.id)

        record = await svc.create_lobby(creator_id=1, guild_id=5, channel_id=11, language="en",
                                        max_players=3, ai_seats=2, ai_level="strong",
                                        hints=True)
        assert record.hints
        await svc.start(record.id, Actor(1), record.version)
        loaded = await storage.games.load(record.id)
        game = get_game("puerto-rico")
        assert loaded.record.to_act == (0,)  # the person (kept first) chooses a role
        hint = await turns.hint(record.id, 1)
        legal = game.legal_actions(loaded.state, 0)
        resampled = game.determinize(loaded.state, 0, 12345)
        expected = advise(Search(game, HINT_BUDGET), resampled, 0, legal,
                          hint_seed(record.id, loaded.record.seq, 0), keep=3)
        assert hint.advice == expected and hint.advice.enough
        for lang in ("en", "es", "pt"):
            text = hint_text(hint, lang)
            assert len(text) <= 2000
            # the title and the best three choices
            assert text.count("\n") == len(hint.advice.choices) == 3
        assert "wins" in hint_text(hint, "en")
        # a seat that is not asked gets no hint: the person plays until a strong seat thinks
        while (now := await storage.games.load(record.id)).record.to_act == (0,):
            first = game.legal_actions(now.state, 0)[0]
            await svc.submit(record.id, 1, None, game.encode_action(first))
        with pytest.raises(UserError) as waiting:
            await turns.hint(record.id, 1)
        assert waiting.value.key == "err.hint_not_your_turn"
        await svc.settled()
    finally:
        svc.close()


def test_how_to_play_says_what_each_ai_level_does() -> None:
    """``/game rules`` without a topic (how to play) ends with a sentence on each AI level, in
    every game and language, within Discord's 2,000 characters."""
    from bot.games import presenters
    from bot.help import find_topic, help_text

    for presenter in presenters():
        for lang in ("en", "es", "pt"):
            found, topic, _ = find_topic(None, lang, first=presenter.name)
            assert found is presenter
            text = help_text(found, topic, lang)
            assert text.endswith(presenter.catalog.t(lang, "help.ai_levels"))
            assert len(text) <= 2000
            for level in ("random", "heuristic", "strong"):
                name = presenter.catalog.t(lang, f"level.{level}")
                assert name.casefold() in text.casefold(), (presenter.name, lang, level)
