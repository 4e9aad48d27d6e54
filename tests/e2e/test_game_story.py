"""The story of a game on the offline Discord (issue #9): the table stays in the channel, the
story posts go to a thread of the game's own ("Game #1 · story", started from the table
message); each phase is told once, under its own round, with an image that says what ended;
where the story cannot have a thread (no Create Public Threads, a game in a thread) the channel
gets one post per round; a thread archived meanwhile comes back, a deleted one is started again;
an undone phase end takes its post with it."""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from PIL import Image

from engine.core import Event
from storage import GameRecord
from tests.e2e.conftest import OfflineGovernor, World
from tests.e2e.game_play import GAME, Players, table_at
from tests.e2e.test_bot_lobby import open_lobby, press
from tests.e2e.test_game_controls import drive
from tests.offline_discord import (
    Channel,
    MessageFlag,
    Perm,
    StoredMessage,
    running_client,
)

TITLE = re.compile(r"^### (Round \d+ · .+)$", re.M)


def tiny_png() -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (4, 4), "white").save(buf, format="PNG")
    return buf.getvalue()


class Boards:
    """A quick renderer that keeps what each image was asked to say (its status line)."""

    def __init__(self) -> None:
        self.png = tiny_png()
        self.statuses: list[str] = []

    def __call__(self, view: Mapping[str, Any], events: Sequence[Event],
                 names: Mapping[int, str], labels: Mapping[str, str]) -> bytes:
        if labels.get("status"):
            self.statuses.append(labels["status"])
        return self.png


def bot_posts(world: World, channel: Channel | int, *, deleted: bool = False
              ) -> list[StoredMessage]:
    return [m for m in world.server.messages(channel, include_ephemeral=False,
                                             include_deleted=deleted)
            if m.author.id == world.server.bot_user.id]


def titles(posts: Sequence[StoredMessage]) -> list[str]:
    """The phase titles of story posts, in order."""
    return [t for m in posts for t in TITLE.findall(m.text())]


def round_of(title: str) -> int:
    return int(title.split()[1])


async def with_ai(world: World, bot: OfflineGovernor, channel: Channel | None = None
                  ) -> GameRecord:
    """Alice and two AI seats, started."""
    if channel is None:
        lobby = await open_lobby(world, world.alice, "max_players:3 ai_seats:2")
    else:
        mark = world.server.mark()
        handle = await world.alice.run("/game new max_players:3 ai_seats:2", channel=channel)
        assert "is open" in (await handle.wait_for_followup()).content
        lobby = await world.server.wait_for_message(
            channel, lambda m: bool(m.embeds) and not m.ephemeral, since=mark)
    await press(world, world.alice, lobby, "Start", lambda m: "has started" in m.text())
    record = await bot.storage.games.find_by_channel((channel or world.general).id)
    assert record is not None
    await table_at(world, bot, record.id)
    return record


async def rounds_ended(bot: OfflineGovernor, game_id: int) -> int:
    log = await bot.storage.games.actions(game_id)
    return sum(any(e["type"] == "RoundEnded" for e in a.events) for a in log)


async def play_rounds(bot: OfflineGovernor, game_id: int, rounds: int) -> None:
    """The people's heuristic choices through the service until ``rounds`` rounds ended (the
    AI seats play by themselves)."""
    await drive(bot, game_id, lambda s: GAME.prompt(s) is None
                or GAME.view(s, None)["round"] > rounds, limit=600)
    await bot.wait_idle()


async def test_a_whole_game_tells_its_story_in_a_thread_of_its_own(
    world: World, make_governor: Callable[..., OfflineGovernor]
) -> None:
    """Alice and two AI seats play a whole game by clicks and commands.  The channel keeps the
    lobby, the table and the final standings; every phase is told once in the game's thread,
    in order, under its own round, with an image saying what ended; the standings end the
    story too; My turn on a story post opens the panel."""
    server, boards = world.server, Boards()
    bot = make_governor(renderer=boards)
    async with running_client(server, bot):
        await server.wait_for_command_sync(world.guild)
        record = await with_ai(world, bot)
        people = Players(world, bot, record.id, {world.alice.id: world.alice})
        while await rounds_ended(bot, record.id) < 1:  # My turn from the story, mid-game
            move = await people.next_move()
            assert move is not None
            await people.make(move[0], move[2])
        await bot.wait_idle()
        record = await bot.storage.games.get(record.id)
        thread_id = record.messages["thread"]
        story = bot_posts(world, thread_id)[-1]
        click = await world.alice.click(story, label="My turn")
        panel = await click.original_message()
        assert panel.ephemeral and "VP chips (only you see them)" in panel.text(), panel.text()
        await people.play()
        for place in (world.general, thread_id):  # the standings: in the channel, then here
            await server.wait_for_message(place, lambda m: any(
                a.filename.endswith("-scores.png") for a in m.attachments))
        await bot.wait_idle()
        record = await bot.storage.games.get(record.id)
        log = await bot.storage.games.actions(record.id)
        rounds = await rounds_ended(bot, record.id)
    server.assert_no_failed_interactions()
    assert record.outcome is not None
    table = server.get_message(record.messages["table"])
    assert table is not None and table.flags & MessageFlag.HAS_THREAD
    # The channel: the lobby, the table, the standings; no story post.
    channel = bot_posts(world, world.general)
    assert [m.id for m in channel][-2:] == [table.id, record.messages["final"]]
    assert len(channel) == 3 and not titles(channel)
    # The thread: started from the table, named for the game, every phase once, in order.
    thread = server.channels[thread_id]
    assert thread_id == table.id and thread.parent_id == world.general.id
    assert thread.name == f"Game #{record.id} · story"
    posts = bot_posts(world, thread)
    told = titles(posts)
    phases = [e for a in log for e in a.events if e["type"] == "PhaseEnded"]
    assert len(told) == len(phases) == len(set(told)), told
    assert [round_of(t) for t in told] == sorted(round_of(t) for t in told)
    assert {round_of(t) for t in told} == set(range(1, rounds + 1))
    images = [a for m in posts for a in m.attachments if "-phase-" in a.filename]
    assert len(images) == len(phases)
    # Each image says what ended, once per phase, with the post's round and role.
    said = [re.sub(r"^(Round \d+) · (\w+) \((.+)\)$", r"\1 · the \2 phase (\3) ended", t)
            for t in told]
    assert sorted(boards.statuses) == sorted(said)
    # The standings end the story as well.
    assert "final scores" in posts[-1].text() and "Tie-break:" in posts[-1].text()


async def test_without_thread_permissions_the_channel_gets_one_post_per_round(
    world: World, make_governor: Callable[..., OfflineGovernor]
) -> None:
    """/game new asks for Create Public Threads; once started, a channel that takes it away gets
    the story as one post per round: the round's phases in order, one image (the board at the
    round's end), nothing told twice, no thread."""
    server = world.server
    bot = make_governor(renderer=Boards())
    async with running_client(server, bot):
        await server.wait_for_command_sync(world.guild)
        server.set_overwrite(world.general, server.bot_user, deny=Perm.CREATE_PUBLIC_THREADS)
        refused = await world.alice.run("/game new", channel=world.general)
        reply = await refused.wait_for_followup()
        assert reply.ephemeral and "I need Create Public Threads" in reply.content
        server.set_overwrite(world.general, server.bot_user, deny=0)
        record = await with_ai(world, bot)
        server.set_overwrite(world.general, server.bot_user, deny=Perm.CREATE_PUBLIC_THREADS)
        channel = bot.get_channel(world.general.id)
        await server.wait_for(
            lambda: not channel.permissions_for(channel.guild.me).create_public_threads  # type: ignore
            or None, what="the permission gone from the bot's cache")
        await play_rounds(bot, record.id, 3)
        record = await bot.storage.games.get(record.id)
        rounds = await rounds_ended(bot, record.id)
        log = await bot.storage.games.actions(record.id)
    assert "thread" not in record.messages
    assert not [c for c in server.channels.values() if c.is_thread]
    posts = [m for m in bot_posts(world, world.general) if m.text().startswith("### Round")]
    assert [m.text().splitlines()[0] for m in posts] == [
        f"### Round {n}" for n in range(1, rounds + 1)]
    for number, post in enumerate(posts, 1):
        phases = re.findall(rf"^\*\*Round {number} · .+\*\*$", post.text(), re.M)
        assert len(phases) == len(set(phases)) == 3, post.text()  # three seats, three roles
        assert [a.filename for a in post.attachments] == [
            f"game-{record.id}-round-{number}-{a.seq}.png" for a in log
            if any(e["type"] == "RoundEnded" and e["data"]["round"] == number
                   for e in a.events)]


async def test_a_game_in_a_thread_tells_its_story_there_one_post_per_round(
    world: World, make_governor: Callable[..., OfflineGovernor]
) -> None:
    server = world.server
    place = server.add_channel(world.guild, "game night", type=11, parent=world.general)
    bot = make_governor(renderer=Boards())
    async with running_client(server, bot):
        await server.wait_for_command_sync(world.guild)
        await server.wait_for(lambda: bot.get_channel(place.id) or None,
                              what="the thread in the bot's cache")
        record = await with_ai(world, bot, place)
        await play_rounds(bot, record.id, 2)
        record = await bot.storage.games.get(record.id)
    assert "thread" not in record.messages
    assert [c.id for c in server.channels.values() if c.is_thread] == [place.id]
    posts = bot_posts(world, place)
    assert [m.text().splitlines()[0] for m in posts if m.text().startswith("### ")] == [
        "### Round 1", "### Round 2"]
    assert not bot_posts(world, world.general)


async def test_the_thread_comes_back_archived_or_deleted_and_an_undone_phase_end_is_untold(
    world: World, make_governor: Callable[..., OfflineGovernor]
) -> None:
    """Alice and Bob: Discord archives the thread: the next story post brings it back.  A
    moderator deletes it: the next one starts another from the table.  Bob's pass that ended
    the Builder phase is taken back: its post goes; passing again tells the phase once."""
    server = world.server
    bot = make_governor(renderer=Boards())
    async with running_client(server, bot):
        await server.wait_for_command_sync(world.guild)
        lobby = await open_lobby(world, world.alice, "max_players:2")
        _, lobby = await press(world, world.bob, lobby, "Join",
                               lambda m: f"<@{world.bob.id}>" in m.text())
        await press(world, world.alice, lobby, "Start", lambda m: "has started" in m.text())
        found = await bot.storage.games.find_by_channel(world.general.id)
        assert found is not None
        record, alice, bob = found, world.alice.id, world.bob.id

        async def submit(user: int, code: str) -> None:
            now = await bot.storage.games.get(found.id)
            await bot.service.submit(found.id, user, now.version, code)
            await bot.wait_idle()

        await submit(alice, "r.builder")
        await submit(alice, "pass")
        await submit(bob, "pass")  # the Builder phase ends: its story starts the thread
        record = await bot.storage.games.get(record.id)
        thread = server.channels[record.messages["thread"]]
        [told] = bot_posts(world, thread)
        assert titles([told]) == ["Round 1 · Builder (chosen by alice)"]

        # Commands typed in the story thread act on its game; a second game is refused there.
        status = await (await world.bob.run("/game status", channel=thread)).wait_for_followup()
        assert f"#{record.id}" in status.text() and "no open game" not in status.text()
        again_new = await (await world.bob.run("/game new", channel=thread)).wait_for_followup()
        assert f"already has a game: #{record.id}" in again_new.text()
        assert await bot.storage.games.find_by_channel(thread.id) == await bot.storage.games.get(
            record.id)

        # Bob takes his pass back: the phase has not ended after all.
        undo = await world.bob.run("/game undo", channel=world.general)
        await undo.wait_for_followup()
        await server.wait_for(lambda: server.get_message(told.id).deleted or None,  # type: ignore
                              what="the untold phase's post deleted")
        assert bot_posts(world, thread) == []
        await submit(bob, "pass")
        [again] = bot_posts(world, thread)
        assert again.id != told.id and titles([again]) == titles([told])

        # Archived for inactivity: the next story post brings it back.
        server.update_thread(thread, archived=True)
        await drive(bot, record.id, lambda _: len(titles(bot_posts(world, thread))) >= 2)
        assert not thread.archived

        # Deleted by a moderator: the next story post starts another from the table.
        server.delete_channel(thread)
        table_id = record.messages["table"]
        await drive(bot, record.id, lambda _: table_id in server.channels)
        await bot.wait_idle()
        record = await bot.storage.games.get(record.id)
    fresh = server.channels[record.messages["thread"]]
    assert fresh is not thread and fresh.id == table_id and fresh.is_thread
    assert len(titles(bot_posts(world, fresh))) == 1
    server.assert_no_failed_interactions()
