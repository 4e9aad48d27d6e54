"""A pause the table agrees on (issue #35): more than half of the people seated ask
(``/game pause``), then no time bank runs and nobody is reminded, warned or stood in for, until
any one of them types ``/game unpause``; the table shows it both ways."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from storage.timebank import DAY_MS, left
from tests.e2e.conftest import OfflineGovernor, World
from tests.e2e.game_play import private_reply
from tests.e2e.test_game_notify import clocked, prompted_people, seated_game
from tests.offline_discord import ScriptedUser


async def say(world: World, user: ScriptedUser, command: str, channel: Any = None) -> str:
    return await private_reply(user, command, channel or world.general)


async def test_a_paused_game_spends_no_bank_until_one_unpauses_it(
    world: World, make_governor: Callable[..., OfflineGovernor]
) -> None:
    server = world.server
    carol = server.add_user("carol", guild=world.guild)
    dave = server.add_user("dave", guild=world.guild)
    async with clocked(world, make_governor) as (bot, clock):
        game, _ = await seated_game(world, bot, [world.alice, carol, dave],
                                    "max_players:3 pace:normal")
        assert await prompted_people(bot, game.id) == (world.alice.id,)
        clock.advance(days=1)

        mark = server.mark()
        assert await say(world, carol, "/game pause") == (
            f"Your ask to pause game #{game.id} is counted: 1 of the 2 needed.")
        asked = await server.wait_for_message(
            world.general, lambda m: "asked to pause" in m.text(), since=mark)
        assert asked.content == (
            f"⏸ Game #{game.id}: <@{carol.id}> asked to pause the game (1 of the 2 needed); "
            "/game pause to agree.")
        assert not asked.mentions  # told, not pinged
        assert (await say(world, carol, "/game pause")).endswith("1 of the 2 needed.")
        assert await say(world, world.bob, "/game pause") == (
            f"You are not playing in game #{game.id}.")
        assert not (await bot.storage.games.get(game.id)).paused

        mark = server.mark()
        assert await say(world, dave, "/game pause") == (
            f"Game #{game.id} is paused: no time bank runs until one of you types /game "
            "unpause.")
        table = await server.wait_for_message(
            world.general, lambda m: "agreed to pause" in m.text(), since=mark)
        assert "⏸ Paused, no time bank runs (normal): alice 2d · carol 3d · dave 3d" in table.text()
        record = await bot.storage.games.get(game.id)
        assert record.paused
        assert await say(world, world.alice, "/game pause") == (
            f"Game #{game.id} is already paused; /game unpause ends the pause.")

        # Ten days of pause: nobody is reminded, warned or stood in for; the bank holds.
        clock.advance(days=10)
        report = await bot.reminders.tick()
        assert (report.nudged, report.warned, report.stood_in) == ({}, [], [])
        seat = record.seats[0]
        assert seat.bank_ms is not None
        assert left(seat.bank_ms, seat.waiting_since, clock.now, record.quiet,
                    record.pauses) == 2 * DAY_MS

        mark = server.mark()
        assert await say(world, dave, "/game unpause") == (
            f"The pause of game #{game.id} is over: the time banks run again.")
        table = await server.wait_for_message(
            world.general, lambda m: "The pause is over" in m.text(), since=mark)
        assert "⏳ Time banks (normal): alice: runs out <t:" in table.text()
        assert await say(world, dave, "/game unpause") == (
            f"Game #{game.id} is not paused; nothing was changed.")
        record = await bot.storage.games.get(game.id)
        assert not record.paused and len(record.pauses) == 1

        # alice's two days left run from the unpause
        clock.advance(days=2, minutes=-1)
        assert (await bot.reminders.tick()).stood_in == []
        clock.advance(minutes=2)
        assert (await bot.reminders.tick()).stood_in == [game.id]
        await bot.wait_idle()
    server.assert_no_failed_interactions()
