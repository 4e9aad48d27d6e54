"""The app installed to a person's account (issue #35; Discord's integration types and
contexts): ``/game games``, ``status``, ``away``, ``notify`` and ``rejoin`` work in the bot's
DMs and in a server without the bot; the rest answers that it happens at a game's table.  The
offline Discord knows user installs: the interaction's context and its authorizing owners."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tests.e2e.conftest import OfflineGovernor, World
from tests.e2e.game_play import private_reply
from tests.e2e.test_game_notify import seated_game
from tests.offline_discord import ScriptedUser, running_client
from tests.offline_discord.scripted import ScriptError

TABLE_ONLY = ("Here I can tell you about your games: /game games, /game status, /game away, "
              "/game notify and /game rejoin. The rest happens at a game's table, in a server "
              "where Governor plays.")


async def ask(user: ScriptedUser, command: str, channel: object) -> str:
    return await private_reply(user, command, channel)


async def test_the_commands_of_ones_games_work_wherever_one_is(
    world: World, make_governor: Callable[..., OfflineGovernor]
) -> None:
    server = world.server
    carol = server.add_user("carol", guild=world.guild)
    elsewhere = server.add_guild("Elsewhere", with_bot=False)
    lounge = server.add_text_channel(elsewhere, "lounge")
    server.add_member(elsewhere, world.alice)
    server.add_member(elsewhere, carol)
    bot = make_governor(renderer=None, reminder_period=None, dm_interval=0)
    async with running_client(server, bot):
        await server.wait_for_command_sync(world.guild)
        await bot.tree.sync()  # the global commands: where the bot's DMs and user installs see
        game, _ = await seated_game(world, bot, [world.alice, carol], "max_players:2")
        world.alice.user.app_installed = True

        for channel in (world.alice.dm_channel, lounge):
            games = await ask(world.alice, "/game games", channel)
            assert f"#{game.id}" in games and "Puerto Rico" in games, games
            assert await ask(world.alice, "/game status", channel) == games
            assert (await ask(world.alice, "/game notify", channel)).startswith(
                "**🔔 Your notifications**")
            assert (await ask(world.alice, "/game away", channel)).startswith("You are not away.")
            assert (await ask(world.alice, "/game rejoin", channel)).startswith(
                "No AI is keeping a seat for you")
            for command in ("/game show", "/game board", "/game leave", "/game hint",
                            "/game new", "/game pause", "/game follow"):
                assert await ask(world.alice, command, channel) == TABLE_ONLY, (command, channel)

        # carol has not installed the app: nothing of it in a server without the bot
        with pytest.raises(ScriptError, match="not available"):
            await carol.run("/game games", channel=lounge)
        # in a server with the bot nothing changes: the table's commands answer as ever
        assert "Puerto Rico" in await ask(world.alice, "/game status", world.general)
        await bot.wait_idle()
    server.assert_no_failed_interactions()
