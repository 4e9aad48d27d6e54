"""Whole games of classic Puerto Rico on the offline Discord, from ``/game new`` to the score
sheet: scripted people click the table's role buttons, open their private panel with **My
turn**, click its buttons and menus, and type the slash commands."""

from __future__ import annotations

import logging
import re

import pytest

from bot.table import signed
from storage import GameStatus
from tests.e2e.conftest import OfflineGovernor, World
from tests.e2e.game_play import Players, start
from tests.e2e.test_bot_lobby import open_lobby, press
from tests.offline_discord import ScriptedUser, StoredMessage


def channel_posts(world: World) -> list[StoredMessage]:
    return [m for m in world.server.messages(world.general, include_ephemeral=False)
            if m.author.id == world.server.bot_user.id]


async def finish(world: World, bot: OfflineGovernor, people: list[ScriptedUser], args: str,
                 *, share: float = 0.2) -> tuple[int, Players]:
    record = await start(world, bot, people[0], people[1:], args)
    players = Players(world, bot, record.id, {p.id: p for p in people}, command_share=share)
    await players.play()
    await bot.wait_idle()
    return record.id, players


async def check_the_end(world: World, bot: OfflineGovernor, game_id: int,
                        names: list[str]) -> None:
    """Finished in storage with its results; the log replays (verify); the table shows the
    final board; the last post is the score sheet with standings, breakdown and tie-break."""
    record = await bot.storage.games.get(game_id)
    assert record.status is GameStatus.FINISHED and record.outcome is not None
    assert len(await bot.storage.games.results(game_id)) == len(record.seats)
    assert (await bot.storage.verify([game_id])).ok
    final = await world.server.wait_for_message(
        world.general, lambda m: "final scores" in m.text() and any(
            a.filename.endswith("-scores.png") for a in m.attachments))
    posts = channel_posts(world)
    assert final.id == posts[-1].id and final.attachments[0].is_png
    # with the chart of the score by round (engine.story, render.chart), readable on a phone
    assert [a.filename for a in final.attachments] == [f"game-{game_id}-scores.png",
                                                       f"game-{game_id}-chart.png"]
    chart = final.attachments[1]
    size = chart.image_size()
    assert chart.is_png and size is not None and size[0] == 1000 and 700 < size[1] < 2200
    text = final.text()
    assert ("Winner:" in text or "Shared victory:" in text) and "Tie-break:" in text
    for name in names:
        assert re.search(rf"\*\*{re.escape(name)}\*\*: \d+ VP \(VP chips \d+ · Building VP \d+",
                         text), (name, text)
    assert len(re.findall(r"tie-break \d+", text)) == len(names)
    # every person's new rating and its change (rated among the people: at least two here)
    changes = await bot.storage.ratings.changes(game_id)
    assert len(changes) == sum(1 for s in record.seats if s.user_id is not None) >= 2
    assert "Ratings: " in text
    for change in changes:
        assert f"{change.points_after} ({signed(change.delta)})" in text, text
    table = world.server.get_message(record.messages["table"])
    assert table is not None and "final scores" in table.text()
    assert not [b for b in table.buttons() if str(b.get("custom_id", "")).startswith("g:")]
    # One board image per role phase, in the story posts (in the game's thread), in order.
    log = await bot.storage.games.actions(game_id)
    phases = sum(e["type"] == "PhaseEnded" for a in log for e in a.events)
    thread = world.server.messages(record.messages["thread"], include_ephemeral=False)
    stories = [m for m in thread if m.text().startswith("### Round")]
    images = [a for m in stories for a in m.attachments if "-phase-" in a.filename]
    assert len(images) == phases and all(a.is_png for a in images)


async def test_a_whole_three_player_game_by_clicks_and_commands(
    world: World, governor: OfflineGovernor, caplog: pytest.LogCaptureFixture
) -> None:
    """Three people play a whole game with nothing but clicks and slash commands; every
    decision is theirs (logged with their user id) or forced (logged as automatic)."""
    carol = world.server.add_user("carol", guild=world.guild)
    people = [world.alice, world.bob, carol]
    with caplog.at_level(logging.WARNING, logger="bot"):
        game_id, players = await finish(world, governor, people, "max_players:3")
    await check_the_end(world, governor, game_id, ["alice", "bob", "carol"])
    used = players.used
    assert used["role button"] > 10 and used["panel button"] > 10 and used["panel menu"] > 3
    assert len([k for k in used if k.startswith("/pr")]) >= 5, used
    log = await governor.storage.games.actions(game_id)
    ids = {p.id for p in people}
    assert all(a.user_id in ids or a.user_id is None for a in log)
    assert sum(a.user_id is not None for a in log) == sum(used.values()) - used.get(
        "mayor menu", 0)
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


async def test_a_two_player_game(world: World, governor: OfflineGovernor) -> None:
    """The two-player rules (§9) from lobby to score sheet, mostly by slash commands."""
    game_id, players = await finish(world, governor, [world.alice, world.bob], "max_players:2",
                                    share=0.6)
    await check_the_end(world, governor, game_id, ["alice", "bob"])
    assert sum(n for how, n in players.used.items() if how.startswith("/pr")) > 20
    record = await governor.storage.games.get(game_id)
    assert record.options["players"] == 2 and len(record.seats) == 2


async def test_a_five_player_game_with_ai_seats(world: World, governor: OfflineGovernor
                                                 ) -> None:
    """Two people and three AI seats: the AI seats play at once whenever it is their turn
    (logged without a user), to the score sheet."""
    server = world.server
    lobby = await open_lobby(world, world.alice, "max_players:5 ai_seats:3")
    _, lobby = await press(world, world.bob, lobby, "Join",
                           lambda m: "The table is full (5 seats taken)" in m.text())
    mark = server.mark()
    await press(world, world.alice, lobby, "Start", lambda m: "has started" in m.text())
    await server.wait_for_message(world.general, lambda m: "round 1" in m.text(), since=mark)
    record = await governor.storage.games.find_by_channel(world.general.id)
    assert record is not None and len(record.seats) == 5
    ai = {s.seat for s in record.seats if s.ai_policy}
    assert len(ai) == 3
    game = Players(world, governor, record.id, {world.alice.id: world.alice,
                                                world.bob.id: world.bob})
    await game.play()
    await governor.wait_idle()
    await check_the_end(world, governor, record.id, ["alice", "bob", "AI 2 (normal)",
                                                     "AI 3 (normal)", "AI 4 (normal)"])
    log = await governor.storage.games.actions(record.id)
    assert any(a.seat in ai for a in log)
    assert all(a.user_id is None for a in log if a.seat in ai)
