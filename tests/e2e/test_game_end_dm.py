"""Issue #9: when a game ends every person gets one DM with the final standings (not those
with DMs off or blocked, and never twice), and ``/game status`` and ``/game games`` point to the
result: the winner and a link to the score sheet."""

from __future__ import annotations

from collections.abc import Callable

from bot.posting import FINAL
from engine import get_game
from engine.policies import make_policy
from storage import GameStatus
from tests.e2e.conftest import OfflineGovernor, World
from tests.e2e.game_play import start
from tests.manual_time import ManualTime
from tests.offline_discord import running_client

GAME = get_game("puerto-rico")


def final_dms(messages: list[str]) -> list[str]:
    return [m for m in messages if "is over" in m or "ha terminado" in m]


async def test_the_end_of_a_game(world: World, make_governor: Callable[..., OfflineGovernor]
                                 ) -> None:
    server = world.server
    carol = server.add_user("carol", guild=world.guild)
    people = [world.alice, world.bob, carol]
    # the DM rate limit's seconds pass at once: the game's turn DMs queue before the final
    # ones, in order, without waiting a minute of real time for them
    seconds = ManualTime()
    bot = make_governor(renderer=None, dm_interval=0, dm_clock=seconds, dm_sleep=seconds.skip)
    async with running_client(server, bot):
        await server.wait_for_command_sync(world.guild)
        await bot.storage.settings.update_user(world.bob.id, dm_notifications=False)
        await bot.storage.settings.update_user(carol.id, language="es")
        record = await start(world, bot, world.alice, [world.bob, carol], "max_players:3")
        policy = make_policy("heuristic", "puerto-rico", 3)
        # the whole game, decided through the service (each move published as usual)
        while True:
            loaded = await bot.storage.games.load(record.id)
            prompt = GAME.prompt(loaded.state)
            if prompt is None:
                break
            seat = prompt.seats[0]
            user = loaded.record.seat(seat).user_id  # type: ignore[union-attr]
            assert user is not None
            action = policy.choose(GAME, loaded.state, seat,
                                   GAME.legal_actions(loaded.state, seat))
            await bot.service.submit(record.id, user, None, GAME.encode_action(action))
        await bot.wait_idle()
        ended = await bot.storage.games.get(record.id)
        assert ended.status is GameStatus.FINISHED and FINAL in ended.messages
        link = (f"https://discord.com/channels/{world.guild.id}/{world.general.id}/"
                f"{ended.messages[FINAL]}")
        names = {p.id: p.user.username for p in people}
        winners = [names[int(ended.seat(int(w)).user_id or 0)]  # type: ignore[union-attr]
                   for w in (ended.outcome or {})["winners"]]

        [alice_dm] = final_dms([m.content for m in world.alice.dms])
        assert f"game #{record.id}" in alice_dm and link in alice_dm
        assert f"Winner: {winners[0]}" in alice_dm or len(winners) > 1
        for person in people:  # every score, in rank order
            assert person.user.username in alice_dm
        [carol_dm] = final_dms([m.content for m in carol.dms])
        assert "ha terminado" in carol_dm and "Clasificación final" in carol_dm
        assert final_dms([m.content for m in world.bob.dms]) == []  # DMs off

        # published again (a retry, a restart): no second DM
        await bot.publisher.publish_table(await bot.service.table(record.id))
        await bot.wait_idle()
        assert len(final_dms([m.content for m in world.alice.dms])) == 1
        again = await bot.storage.games.get(record.id)  # the score sheet posted last
        link = link.rsplit("/", 1)[0] + f"/{again.messages[FINAL]}"

        status = await world.bob.run("/game status", channel=world.general)
        reply = (await status.wait_for_followup()).text()
        assert f"Game #{record.id} is over" in reply and link in reply
        assert any(w in reply for w in winners)
        games = await carol.run("/game games", channel=world.general, locale="es-ES")
        listed = (await games.wait_for_followup()).text()
        assert f"#{record.id}" in listed and "terminada, gana:" in listed and link in listed
