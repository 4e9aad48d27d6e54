"""The strong AI level through the offline Discord server (issue #13): the lobby offers it and
hints, the strong seats think in their worker process and play after the table is shown, and
``/game hint`` advises the person privately, in their language (in the order of its figures, or
no figure at all from too few playouts)."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from typing import Any

from engine import get_game
from storage import GameStatus
from tests.e2e.conftest import OfflineGovernor, World
from tests.e2e.game_play import COMMANDS
from tests.e2e.test_bot_lobby import open_lobby, press
from tests.offline_discord import running_client


class Reverse(random.Random):
    """Seats the lobby in reverse order: the strong seats play first."""

    def shuffle(self, x: Any) -> None:
        x.reverse()


async def test_strong_seats_think_and_play_and_hints_advise_privately(
    world: World, make_governor: Callable[..., OfflineGovernor]
) -> None:
    bot = make_governor(rng=Reverse(3))
    async with running_client(world.server, bot):
        await world.server.wait_for_command_sync(world.guild)
        lobby = await open_lobby(world, world.alice, "ai_seats:2 ai_level:strong hints:true")
        assert "AI level: strong" in lobby.text() and "Hints: on" in lobby.text()
        mark = world.server.mark()
        await press(world, world.alice, lobby, "Start", lambda m: "has started" in m.text())
        await world.server.wait_for_message(world.general, lambda m: "round 1" in m.text(),
                                            since=mark)
        await bot.wait_idle()
        game = await bot.storage.games.find_by_channel(world.general.id)
        assert game is not None and game.status is GameStatus.ACTIVE
        assert game.ai_level == "strong" and game.hints
        assert [s.ai_policy for s in game.seats] == ["strong", "strong", None]
        # the strong seats sat first: they thought and played, then the person's turn
        actions = await bot.storage.games.actions(game.id)
        assert actions and all(a.user_id is None for a in actions)
        assert game.to_act == (2,)
        table = await world.server.wait_for_message(
            world.general, lambda m: "Hints are on" in m.text() and "Waiting for alice" in m.text(),
            since=mark)
        assert table.attachments

        choices = len(get_game("puerto-rico").legal_actions(
            (await bot.storage.games.load(game.id)).state, 2))
        # at the tests' small budget a hint plays each choice out a handful of times: it says
        # it could not look far enough, and shows no figure
        hint = await world.alice.run("/game hint", channel=world.general)
        reply = await hint.wait_for_followup()
        assert reply.ephemeral
        assert f"Game #{game.id}" in reply.content
        assert "could not look far enough" in reply.content and "%" not in reply.content
        # with a hint's budget worth the name (and no time bound: the test counts playouts),
        # the best three choices, in the order of their figures, each saying how sure it is
        bot.service.thinker.hint_budget = 40_000
        bot.service.thinker.hint_seconds = None
        hint = await world.alice.run("/game hint", channel=world.general)
        reply = await hint.wait_for_followup()
        assert reply.ephemeral
        lines = reply.content.splitlines()
        assert f"Game #{game.id}" in lines[0]
        assert [line[:2] for line in lines[1:]] == ["1.", "2.", "3."][:len(lines) - 1]
        assert 2 <= len(lines) - 1 <= min(3, choices)
        shown = [re.search(r"wins (\d+)% ±\d+;.*\(\d+ games played out\)\. (\w+)", line)
                 for line in lines[1:]]
        assert all(shown), lines
        percents = [int(m.group(1)) for m in shown if m]
        assert percents == sorted(percents, reverse=True), lines
        assert all(m.group(2) in ("Clearly", "Probably", "About") for m in shown if m)

        spanish = await world.bob.run("/game hint", channel=world.general, locale="es-ES")
        # (bob sits at no table: the refusal in his language)
        assert "No juegas" in (await spanish.wait_for_followup()).content  # not seated

        # the person plays; the strong seats answer after the table of the move is shown
        seq = game.seq
        loaded = await bot.storage.games.load(game.id)
        code = get_game("puerto-rico").encode_action(
            get_game("puerto-rico").legal_actions(loaded.state, 2)[0])
        if code == "pass":
            typed = "/pr pass"
        else:
            command, option = COMMANDS[code.split(".", 1)[0]]
            typed = f"/{command} {option}:{code}"
        move = await world.alice.run(typed, channel=world.general)
        await move.wait_for_followup()
        await bot.wait_idle()
        after = await bot.storage.games.get(game.id)
        assert after.seq > seq + 1
        logged = await bot.storage.games.actions(game.id)
        assert any(a.user_id is None for a in logged[seq + 1:])
    world.server.assert_no_failed_interactions()


async def test_hints_are_off_unless_the_table_turns_them_on(
    world: World, governor: OfflineGovernor
) -> None:
    lobby = await open_lobby(world, world.alice, "ai_seats:1")
    assert "Hints" not in lobby.text()
    await press(world, world.alice, lobby, "Start", lambda m: "has started" in m.text())
    refused = await world.alice.run("/game hint", channel=world.general)
    assert "Hints are off" in (await refused.wait_for_followup()).content
    world.server.assert_no_failed_interactions()
