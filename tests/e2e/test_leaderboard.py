"""``/game leaderboard``: this server's ratings in a game, paged, in the reader's language; a
game without ratings and a page past the end say so.  The ratings themselves come from
finished games (storage/ratings.py, tests/storage/test_ratings.py, the final post in
tests/e2e/test_game_full.py); here they are written straight into the bot's database."""

from __future__ import annotations

from storage.sql import Tx
from tests.e2e.conftest import OfflineGovernor, World


async def _rate(governor: OfflineGovernor, guild_id: int, game: str,
                people: dict[int, int]) -> None:
    async def body(tx: Tx) -> None:
        for user_id, points in people.items():
            await tx.execute(
                "INSERT INTO ratings (guild_id, game, user_id, mu, sigma, points, games,"
                " updated_at) VALUES (?, ?, ?, 25.0, 5.0, ?, 3, 0)",
                (guild_id, game, user_id, points))

    await governor.storage.db.write(body)


async def test_the_leaderboard_pages_this_servers_ratings(world: World,
                                                          governor: OfflineGovernor) -> None:
    empty = await (await world.bob.run("/game leaderboard", channel=world.general)
                   ).wait_for_followup()
    assert "Nobody has a Puerto Rico rating in this server yet" in empty.text(), empty.text()

    people = {world.alice.id: 1620, world.bob.id: 1510, world.manager.id: 1510}
    people |= {900_000 + n: 1400 - n for n in range(20)}  # 23 people: two pages of 15
    await _rate(governor, world.guild.id, "san-juan", people)
    await _rate(governor, world.guild.id + 1, "san-juan", {world.bob.id: 2000})  # elsewhere

    first = await (await world.bob.run("/game leaderboard game:san-juan", channel=world.general)
                   ).wait_for_followup()
    text = first.text()
    assert first.ephemeral
    assert "San Juan · leaderboard" in text and "page 1 of 2, 23 people" in text, text
    lines = [ln for ln in text.splitlines() if ln.lstrip("*")[:1].isdigit()]
    assert len(lines) == 15
    assert lines[0] == f"1. <@{world.alice.id}>: 1620 (3 rated games)"
    # equal ratings share a place; the reader's own line is bold; other servers do not count
    assert sorted(lines[1:3]) == sorted([f"**2. <@{world.bob.id}>: 1510 (3 rated games)**",
                                         f"2. <@{world.manager.id}>: 1510 (3 rated games)"])
    assert "2000" not in text

    second = await (await world.bob.run("/game leaderboard game:san-juan page:2",
                                        channel=world.general)).wait_for_followup()
    lines = [ln for ln in second.text().splitlines() if ln.lstrip("*")[:1].isdigit()]
    assert len(lines) == 8 and lines[0].startswith("16. ")

    past = await (await world.bob.run("/game leaderboard game:san-juan page:3",
                                      channel=world.general)).wait_for_followup()
    assert "There is no page 3: the leaderboard has 2." in past.text(), past.text()
    assert past.ephemeral

    spanish = world.server.add_user("lucia", guild=world.guild, locale="es-ES")
    reply = await (await spanish.run("/game leaderboard game:san-juan", channel=world.general)
                   ).wait_for_followup()
    assert "San Juan · clasificación" in reply.text() and "23 personas" in reply.text(), \
        reply.text()
