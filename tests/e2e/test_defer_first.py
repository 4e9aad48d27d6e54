"""Discord's 3 s rule, kept by order instead of by the clock: the bot answers every interaction
(a deferral) before it does any work for it.

The offline server's deadline in tests is generous (``TEST_ACK_TIMEOUT``), so that an event
loop stalled on a loaded machine does not fail a correct bot; what keeps the real rule
(``DISCORD_ACK_TIMEOUT``, 3 s) safe is this test.  Every storage call (a query, a transaction)
and every drawing made on behalf of an interaction is recorded with the callback the server
had received for that interaction at that moment: it must already be there, and be a
deferral.  Autocomplete is the one exception: its answer *is* the choices, read from storage.

An interaction's work is told apart from the bot's other work (publishing, reminders) by a
context variable set while discord.py parses the INTERACTION_CREATE event: the tasks it starts
for the handler (and the tasks those start) carry it."""

from __future__ import annotations

import contextvars
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from bot.rendering import Drawing
from storage import SqliteDatabase
from tests.e2e.conftest import OfflineGovernor, World
from tests.e2e.game_play import Players, start
from tests.manual_time import ManualTime
from tests.offline_discord import (
    DISCORD_ACK_TIMEOUT,
    TEST_ACK_TIMEOUT,
    CallbackType,
    InteractionType,
    OfflineDiscordServer,
    running_client,
)

INTERACTION: contextvars.ContextVar[int | None] = contextvars.ContextVar(
    "interaction", default=None)
DEFERRALS = (CallbackType.DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE,
             CallbackType.DEFERRED_UPDATE_MESSAGE)


@dataclass(frozen=True)
class Work:
    interaction: int
    kind: int
    """The interaction's type (2 command, 3 component, 4 autocomplete, 5 modal)."""
    what: str
    answer: int | None
    """The server's record of the bot's callback when the work began (None: not answered)."""


class OrderWatch:
    """Records the work done on behalf of each interaction and what the bot had answered."""

    def __init__(self, server: OfflineDiscordServer) -> None:
        self.server = server
        self.work: list[Work] = []

    def seen(self, what: str) -> None:
        interaction = INTERACTION.get()
        if interaction is None:
            return  # not on behalf of an interaction
        handle = self.server.interactions[interaction]
        answer = handle.callback.type if handle.callback is not None else None
        self.work.append(Work(interaction, handle.type, what, answer))

    def install(self, bot: OfflineGovernor, monkeypatch: pytest.MonkeyPatch) -> None:
        parsers: dict[str, Callable[[Any], None]] = bot._connection.parsers
        parse = parsers["INTERACTION_CREATE"]

        def marked(data: Any) -> None:
            token = INTERACTION.set(int(data["id"]))
            try:
                parse(data)  # creates the handler's task: it copies the context
            finally:
                INTERACTION.reset(token)

        monkeypatch.setitem(parsers, "INTERACTION_CREATE", marked)
        for owner, name in ((SqliteDatabase, "write"), (SqliteDatabase, "snapshot_read"),
                            (SqliteDatabase, "fetchall"), (Drawing, "board"),
                            (Drawing, "scores")):
            self.watch(monkeypatch, owner, name)

    def watch(self, monkeypatch: pytest.MonkeyPatch, owner: type, name: str) -> None:
        real = getattr(owner, name)

        async def watched(*args: Any, **kwargs: Any) -> Any:
            self.seen(f"{owner.__name__}.{name}")
            return await real(*args, **kwargs)

        monkeypatch.setattr(owner, name, watched)

    def before_the_answer(self) -> list[Work]:
        """Work begun before the interaction was answered with a deferral (autocomplete
        excepted)."""
        return [w for w in self.work if w.kind != InteractionType.AUTOCOMPLETE
                and w.answer not in DEFERRALS]

    def kinds(self) -> set[int]:
        return {w.kind for w in self.work}


@pytest.fixture
def watched(world: World, monkeypatch: pytest.MonkeyPatch,
            make_governor: Callable[..., OfflineGovernor]) -> Iterator[tuple[OfflineGovernor,
                                                                              OrderWatch]]:
    seconds = ManualTime()  # the DM rate limit's waits pass at once (the same DMs, in order)
    bot = make_governor(renderer=None, dm_interval=0, dm_clock=seconds, dm_sleep=seconds.skip)
    watch = OrderWatch(world.server)
    watch.install(bot, monkeypatch)
    yield bot, watch


def test_the_real_deadline_is_discords_and_the_tests_one_is_generous() -> None:
    assert DISCORD_ACK_TIMEOUT == 3.0
    assert OfflineDiscordServer().ack_timeout == TEST_ACK_TIMEOUT >= 30
    assert OfflineDiscordServer(ack_timeout=DISCORD_ACK_TIMEOUT).ack_timeout == 3.0


async def test_every_interaction_is_deferred_before_any_work(
    world: World, watched: tuple[OfflineGovernor, OrderWatch]
) -> None:
    """A game started from the lobby and played on by clicks (role buttons, My turn, the
    private panel's buttons and menus, the Mayor's draft) and slash commands with their
    autocomplete, then the questions (/game status, board, log, games, rules, show, notify)."""
    bot, watch = watched
    server = world.server
    carol = server.add_user("carol", guild=world.guild)
    people = [world.alice, carol]
    async with running_client(server, bot):
        await server.wait_for_command_sync(world.guild)
        record = await start(world, bot, world.alice, [carol], "max_players:2")
        players = Players(world, bot, record.id, {p.id: p for p in people}, command_share=0.3)
        await players.play(max_moves=40)
        for command in ("/game status", "/game board", "/game log show", "/game games",
                        "/game rules", "/game show", "/game notify enabled:true"):
            handle = await world.alice.run(command, channel=world.general)
            assert (await handle.response()).type in DEFERRALS, command
        topics = await world.alice.autocomplete("game rules", {"topic": "har"}, focused="topic",
                                                channel=world.general)
        assert await topics.choices()
        await bot.wait_idle()
    assert watch.before_the_answer() == []
    # The watch saw the work of every kind of interaction the game used.
    assert {InteractionType.APPLICATION_COMMAND, InteractionType.MESSAGE_COMPONENT,
            InteractionType.AUTOCOMPLETE} <= watch.kinds()
    assert {"role button", "panel button", "panel menu"} <= set(players.used)
    answered = [h for h in server.interactions.values()
                if h.type != InteractionType.AUTOCOMPLETE]
    assert len(answered) > 50
    assert all(h.callback is not None and h.callback.type in DEFERRALS for h in answered)
    server.assert_no_failed_interactions()


async def test_the_watch_sees_work_done_before_the_deferral(
    world: World, watched: tuple[OfflineGovernor, OrderWatch]
) -> None:
    """The negative control: a handler that reads storage before deferring is caught (with
    the generous test deadline nothing else would notice)."""
    bot, watch = watched
    async with running_client(world.server, bot):
        await world.server.wait_for_command_sync(world.guild)
        show = bot.play.show

        async def slow_show(interaction: Any) -> None:
            await bot.storage.games.find_by_channel(world.general.id)  # work first: wrong
            await show(interaction)

        bot.play.show = slow_show  # type: ignore[method-assign]
        handle = await world.alice.run("/game show", channel=world.general)
        assert (await handle.response()).type in DEFERRALS
        await handle.original_message()  # the reply: the handler is done
        await bot.wait_idle()
    early = watch.before_the_answer()
    assert early and {w.interaction for w in early} == {handle.id}
    assert {(w.what, w.answer) for w in early} == {("SqliteDatabase.fetchall", None)}
