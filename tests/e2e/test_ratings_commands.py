"""``/game leaderboard``: this server's ratings in a game, paged, in the reader's language; a
game without ratings and a page past the end say so.  ``/game stats``: a person's finished
games in this server, with their rating and its trend.  The ratings themselves come from
finished games (storage/ratings.py, tests/storage/test_ratings.py, the final post in
tests/e2e/test_game_full.py); here they are written straight into the bot's database."""

from __future__ import annotations

from bot.table import signed
from storage.ratings import rate_game
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


async def _finished(governor: OfflineGovernor, game_id: int, guild_id: int, game: str,
                    hours: float, results: list[tuple[int | None, int, int, int]]) -> None:
    """A finished game written straight into the database: (user or None, total, rank, winner)
    by seat."""
    start = 1_700_000_000_000 + game_id * 1_000_000_000  # a later id finishes later here

    async def body(tx: Tx) -> None:
        await tx.execute(
            "INSERT INTO games (id, game, status, guild_id, created_at, updated_at, started_at,"
            " finished_at) VALUES (?, ?, 'finished', ?, 0, 0, ?, ?)",
            (game_id, game, guild_id, start, start + int(hours * 3_600_000)))
        for seat, (user, total, rank, winner) in enumerate(results):
            await tx.execute(
                "INSERT INTO results (game_id, seat, user_id, ai_policy, total, rank, winner,"
                " tiebreak, breakdown) VALUES (?, ?, ?, ?, ?, ?, ?, 0, '{}')",
                (game_id, seat, user, None if user else "heuristic", total, rank, winner))
        await rate_game(tx, game_id)

    await governor.storage.db.write(body)


async def test_stats_of_a_player_in_this_server(world: World, governor: OfflineGovernor) -> None:
    alice, bob, guild = world.alice.id, world.bob.id, world.guild.id
    none = await (await world.bob.run("/game stats", channel=world.general)).wait_for_followup()
    assert "No finished game here yet." in none.text() and none.ephemeral

    await _finished(governor, 501, guild, "san-juan", 50,
                    [(alice, 40, 1, 1), (bob, 30, 2, 0), (None, 20, 3, 0)])
    await _finished(governor, 502, guild, "san-juan", 3,
                    [(alice, 25, 2, 0), (bob, 35, 1, 1)])
    await _finished(governor, 503, guild, "puerto-rico", 26,
                    [(alice, 50, 1, 1), (None, 45, 2, 0)])  # unrated: one person
    await _finished(governor, 504, guild + 1, "san-juan", 1,
                    [(alice, 60, 1, 1), (bob, 10, 2, 0)])  # another server

    async def favourites(tx: Tx) -> None:
        await tx.executemany(
            "INSERT INTO choices (game_id, user_id, kind, name, count) VALUES (?, ?, ?, ?, ?)",
            [(501, alice, "role", "builder", 5), (502, alice, "role", "builder", 4),
             (501, alice, "role", "prospector", 2), (503, alice, "role", "captain", 6),
             (502, alice, "role", "councillor", 1), (503, alice, "role", "mayor", 1),
             (501, alice, "building", "smithy", 1), (503, alice, "building", "harbor", 1),
             (504, alice, "role", "trader", 50)])  # another server

    await governor.storage.db.write(favourites)

    mine = await (await world.alice.run("/game stats", channel=world.general)).wait_for_followup()
    text = mine.text()
    assert f"<@{alice}> · every game · this server" in text, text
    assert "3 finished games, 2 wins (67%)" in text
    assert "Score: 38.3 VP on average, best 50 VP · average place 1.3" in text
    assert "Longest game: #501, 2 days and 2 hours · fastest: #502, 3 hours" in text
    rated = [*(await governor.storage.ratings.changes(501)),
             *(await governor.storage.ratings.changes(502))]
    changes = {c.game_id: c for c in rated if c.user_id == alice}
    rating = await governor.storage.ratings.rating(guild, "san-juan", alice)
    assert rating is not None
    assert (f"San Juan rating: {rating.points} (#{rating.position}, 2 rated games) · last games:"
            f" {signed(changes[501].delta)}, {signed(changes[502].delta)}") in text, text
    assert "Puerto Rico rating" not in text  # never rated there
    # the favourites, most first, each with its game when they come from several
    assert ("Favourite roles: Builder ×9 (San Juan), Captain ×6 (Puerto Rico),"
            " Prospector ×2 (San Juan)") in text, text
    assert "Favourite buildings: Harbor ×1 (Puerto Rico), Smithy ×1 (San Juan)" in text, text

    theirs = await (await world.alice.run(f"/game stats player:{bob} game:san-juan",
                                          channel=world.general)).wait_for_followup()
    text = theirs.text()
    assert f"<@{bob}> · San Juan · this server" in text
    assert "2 finished games, 1 win (50%)" in text and "average place 1.5" in text, text
    assert "Favourite" not in text  # bob's choices were not counted here
    sj = await (await world.alice.run("/game stats game:san-juan", channel=world.general)
                ).wait_for_followup()
    assert "Favourite roles: Builder ×9, Prospector ×2, Councillor ×1" in sj.text(), sj.text()

    lucia = world.server.add_user("lucia", guild=world.guild, locale="es-ES")
    spanish = await (await lucia.run(f"/game stats player:{alice}", channel=world.general)
                     ).wait_for_followup()
    assert "3 partidas terminadas, 2 victorias (67 %)" in spanish.text(), spanish.text()
    assert "Roles favoritos: Constructor ×9 (San Juan)" in spanish.text(), spanish.text()

    # a rating without rated games left to show (rebuilt under another policy, say): no trend
    await _rate(governor, guild, "puerto-rico", {alice: 1620})
    again = await (await world.alice.run("/game stats game:puerto-rico", channel=world.general)
                   ).wait_for_followup()
    assert again.text().splitlines()[-1] == "Puerto Rico rating: 1620 (#1, 3 rated games)", \
        again.text()
