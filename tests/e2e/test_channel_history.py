"""A channel's finished game stays its game (issue #33): ``/game status``, ``/game log show``,
``/game log export`` and ``/game log replay`` find it with one lookup (the channel's open game,
else the one that ended there last), and ``/game leaderboard`` without its option shows the
ratings of that game, else Puerto Rico's."""

from __future__ import annotations

import random

from storage import GameStatus
from tests.e2e.conftest import OfflineGovernor, World
from tests.e2e.game_play import start
from tests.storage.helpers import play_to_end


async def test_a_finished_game_is_still_the_channels_game(world: World,
                                                           governor: OfflineGovernor) -> None:
    general = world.general
    record = await start(world, governor, world.alice, [world.bob],
                         "game:san-juan max_players:2")
    finished = await play_to_end(governor.storage, record.id, random.Random(4))
    assert finished.status is GameStatus.FINISHED
    assert await governor.storage.games.find_by_channel(general.id) is None

    # carol never sat at the table: the channel's game is hers to ask about all the same
    carol = world.server.add_user("carol", guild=world.guild)
    status = await (await carol.run("/game status", channel=general)).wait_for_followup()
    assert f"Game #{record.id} is over" in status.text(), status.text()
    shown = await (await carol.run("/game log show lines:5", channel=general)
                   ).wait_for_followup()
    lines = shown.text().splitlines()
    assert shown.ephemeral and lines[0] == f"**Game #{record.id}: the log**", shown.text()
    assert len(lines) == 6 and "no open game" not in shown.text()
    exported = await (await carol.run("/game log export", channel=general)).wait_for_followup()
    assert [a.filename for a in exported.attachments] == [f"game-{record.id}.json"]

    # the leaderboard of the channel's game (both people were rated by the game's end)
    board = await (await carol.run("/game leaderboard", channel=general)).wait_for_followup()
    assert "San Juan · leaderboard" in board.text(), board.text()
    assert f"<@{world.alice.id}>" in board.text() and f"<@{world.bob.id}>" in board.text()

    # a channel that never had a game: Puerto Rico's, and no game to show
    quiet = world.server.add_text_channel(world.guild, "quiet")
    empty = await (await carol.run("/game leaderboard", channel=quiet)).wait_for_followup()
    assert "Nobody has a Puerto Rico rating in this server yet" in empty.text(), empty.text()
    nothing = await (await carol.run("/game log show", channel=quiet)).wait_for_followup()
    assert "There is no open game in this channel" in nothing.text(), nothing.text()

    # an 1897 table open in its channel: 1897's leaderboard, even before anyone is rated
    tables = world.server.add_text_channel(world.guild, "tables")
    await governor.storage.games.create_lobby(
        "puerto-rico-1897", creator_id=world.bob.id, guild_id=world.guild.id,
        channel_id=tables.id, options={"players": 2})
    other = await (await carol.run("/game leaderboard", channel=tables)).wait_for_followup()
    assert "Nobody has a Puerto Rico 1897 rating in this server yet" in other.text(), \
        other.text()
    chosen = await (await carol.run("/game leaderboard game:puerto-rico", channel=general)
                    ).wait_for_followup()
    assert "Nobody has a Puerto Rico rating" in chosen.text(), chosen.text()
