"""The game clock end to end: a custom pace of N days a move (``/game new bank_days:N
increment_hours:24N cap_days:N``, the clock a game had before the time banks), the vote posted
when a player's bank ran out, who may vote, majority and ties, the AI taking the seat over (and
playing at once), abandoning, the late player's move cancelling the vote, and a restart in the
middle of a vote."""

from __future__ import annotations

from collections.abc import Callable

from storage import GameStatus
from storage.timebank import per_move
from tests.e2e.conftest import OfflineGovernor, World
from tests.e2e.test_game_notify import FakeClock, click_code, prompted_people, seated_game
from tests.offline_discord import ScriptedUser, StoredMessage, running_client

DAY_A_MOVE = "bank_days:1 increment_hours:24 cap_days:1"
TWO_DAYS_A_MOVE = "bank_days:2 increment_hours:48 cap_days:2"
AI = "Let an AI take over"
ABANDON = "Abandon the game"


def is_vote(message: StoredMessage) -> bool:
    return message.find_component(custom_id_prefix="cv:") is not None


async def vote_click(world: World, user: ScriptedUser, vote: StoredMessage, label: str) -> str:
    """``user`` presses ``label`` on the vote; returns the private reply (empty if none)."""
    handle = await user.click(vote, label=label)
    assert (await handle.response()).type == 6  # a deferred update of the vote message
    reply = await handle.wait_for_followup()
    assert reply.ephemeral
    return reply.content


async def test_the_clock_runs_out_and_an_ai_takes_the_seat(
    world: World, make_governor: Callable[..., OfflineGovernor]
) -> None:
    server = world.server
    carol = server.add_user("carol", guild=world.guild)
    dave = server.add_user("dave", guild=world.guild)
    clock = FakeClock()
    bot = make_governor(renderer=None, clock=clock, reminder_period=None, dm_interval=0)
    async with running_client(server, bot):
        await server.wait_for_command_sync(world.guild)
        game, _ = await seated_game(world, bot, [world.alice, carol, dave],
                                    f"max_players:3 {TWO_DAYS_A_MOVE}")
        assert (await bot.storage.reminders.timers(game.id)).pace == per_move(2)
        assert await prompted_people(bot, game.id) == (world.alice.id,)

        clock.advance(days=1, hours=23)
        assert (await bot.reminders.tick()).votes == []
        mark = server.mark()
        clock.advance(hours=1, minutes=1)
        assert (await bot.reminders.tick()).votes == [game.id]
        vote = await server.wait_for_message(world.general, is_vote, since=mark)
        text = vote.text()
        assert text.startswith(
            f"⏰ Game #{game.id}: <@{world.alice.id}>'s time bank has run out, waiting for 2 days "
            "on one decision (choose a role)."
        )
        assert f"<@{carol.id}> <@{dave.id}>: you may vote" in text
        assert "A choice needs 2 of 2 votes" in text and "Votes: AI 0 · abandon 0" in text
        assert [b["label"] for b in vote.buttons()] == [AI, ABANDON]
        assert (await bot.reminders.tick()).votes == []  # one vote per wait

        refusal = f"Only the other players of game #{game.id} can vote on this."
        assert await vote_click(world, world.alice, vote, AI) == refusal
        assert await vote_click(world, world.bob, vote, ABANDON) == refusal
        reply = await vote_click(world, carol, vote, AI)
        assert reply.startswith("Your vote is counted: let an AI take over.")
        vote = await server.wait_for_message(
            world.general, lambda m: m.id == vote.id and "Votes: AI 1" in m.text()
        )
        assert (await bot.storage.games.get(game.id)).seats[0].user_id == world.alice.id

        dms = {p.id: len(p.dms) for p in (carol, dave)}
        handle = await dave.click(vote, label=AI)
        assert (await handle.response()).type == 6
        decided = await server.wait_for_message(
            world.general, lambda m: m.id == vote.id and "now plays" in m.text()
        )
        assert decided.content == (
            f"Game #{game.id}: by vote, an AI (normal) now plays <@{world.alice.id}>'s seat."
        )
        assert not decided.buttons()
        await bot.wait_idle()
        record = await bot.storage.games.get(game.id)
        assert record.status is GameStatus.ACTIVE
        assert (record.seats[0].user_id, record.seats[0].ai_policy) == (None, "heuristic")
        # The AI played alice's pending decision at once, each move logged without a user.
        actions = await bot.storage.games.actions(game.id)
        assert actions and actions[0].seat == 0 and actions[0].code.startswith("r.")
        assert all(a.user_id is None for a in actions)
        waiting = await prompted_people(bot, game.id)
        assert waiting and set(waiting) <= {carol.id, dave.id}
        for person in (carol, dave):  # whoever the game now waits on was told
            assert len(person.dms) == dms[person.id] + (person.id in waiting)
        assert await bot.storage.reminders.open_votes(game.id) == []
        assert (await bot.storage.reminders.vote(1)).status == "takeover"
    server.assert_no_failed_interactions()


async def test_a_tie_keeps_waiting_a_changed_vote_decides_and_a_restart_loses_nothing(
    world: World, make_governor: Callable[..., OfflineGovernor]
) -> None:
    """Two voters split: nothing happens.  The bot restarts; a voter changes their mind on the
    old message and the game is abandoned by vote."""
    server = world.server
    carol = server.add_user("carol", guild=world.guild)
    dave = server.add_user("dave", guild=world.guild)
    clock = FakeClock()
    first = make_governor(renderer=None, clock=clock, reminder_period=None, dm_interval=0)
    async with running_client(server, first):
        await server.wait_for_command_sync(world.guild)
        game, _ = await seated_game(world, first, [world.alice, carol, dave],
                                    f"max_players:3 {DAY_A_MOVE}")
        clock.advance(days=1, minutes=1)
        mark = server.mark()
        assert (await first.reminders.tick()).votes == [game.id]
        vote = await server.wait_for_message(world.general, is_vote, since=mark)
        await vote_click(world, carol, vote, AI)
        reply = await vote_click(world, dave, vote, ABANDON)
        assert reply.startswith("Your vote is counted: abandon the game.")
        vote = await server.wait_for_message(
            world.general, lambda m: m.id == vote.id and "AI 1 · abandon 1" in m.text()
        )
        assert (await first.storage.games.get(game.id)).status is GameStatus.ACTIVE
        await first.wait_idle()

    second = make_governor(renderer=None, clock=clock, reminder_period=None, dm_interval=0)
    async with running_client(server, second):
        handle = await carol.click(vote, label=ABANDON)
        assert (await handle.response()).type == 6
        done = await server.wait_for_message(
            world.general, lambda m: m.id == vote.id and "abandoned by vote" in m.text()
        )
        assert done.content == f"Game #{game.id} was abandoned by vote." and not done.buttons()
        assert (await second.storage.games.get(game.id)).status is GameStatus.ABANDONED
        assert (await second.storage.reminders.vote(1)).status == "abandon"
        await second.wait_idle()
    server.assert_no_failed_interactions()


async def test_the_late_player_playing_cancels_the_vote(
    world: World, make_governor: Callable[..., OfflineGovernor]
) -> None:
    """With one other person at the table (and an AI seat), one vote decides; but alice plays
    first: the vote says so and is closed, and her next wait has a clock of its own."""
    server = world.server
    carol = server.add_user("carol", guild=world.guild)
    clock = FakeClock()
    bot = make_governor(renderer=None, clock=clock, reminder_period=None, dm_interval=0)
    async with running_client(server, bot):
        await server.wait_for_command_sync(world.guild)
        game, _ = await seated_game(world, bot, [world.alice, carol],
                                    f"max_players:3 ai_seats:1 {DAY_A_MOVE}")
        clock.advance(days=1, minutes=1)
        mark = server.mark()
        await bot.reminders.tick()
        vote = await server.wait_for_message(world.general, is_vote, since=mark)
        assert "A choice needs 1 of 1 vote" in vote.text()

        await click_code(world, bot, world.alice, game.id, "r.mayor")
        cancelled = await server.wait_for_message(
            world.general, lambda m: m.id == vote.id and "the vote is over" in m.text()
        )
        assert cancelled.content == (
            f"Game #{game.id}: <@{world.alice.id}> has played, so the vote is over and the game "
            "goes on."
        )
        assert not cancelled.buttons()
        assert await bot.storage.reminders.open_votes() == []
        # alice must now take the Mayor's privilege: a new wait, a new clock.
        assert await prompted_people(bot, game.id) == (world.alice.id,)
        clock.advance(hours=23)
        assert (await bot.reminders.tick()).votes == []
        clock.advance(hours=1, minutes=1)
        assert (await bot.reminders.tick()).votes == [game.id]
        await bot.wait_idle()
    server.assert_no_failed_interactions()


async def test_no_vote_without_anyone_else_and_votes_close_with_the_game(
    world: World, make_governor: Callable[..., OfflineGovernor]
) -> None:
    """alice alone with AI seats: her clock runs out but nobody can vote, so no vote is posted.
    In another game a vote is open when the creator abandons it: the next pass closes it."""
    server = world.server
    second = server.add_text_channel(world.guild, "second")
    clock = FakeClock()
    bot = make_governor(renderer=None, clock=clock, reminder_period=None, dm_interval=0)
    async with running_client(server, bot):
        await server.wait_for_command_sync(world.guild)
        await seated_game(world, bot, [world.alice], f"max_players:2 ai_seats:1 {DAY_A_MOVE}")
        other, _ = await seated_game(world, bot, [world.manager, world.alice],
                                     f"max_players:2 {DAY_A_MOVE}", channel=second)
        clock.advance(days=2)
        mark = server.mark()
        assert (await bot.reminders.tick()).votes == [other.id]
        assert not [m for m in server.messages(world.general) if is_vote(m)]
        vote = await server.wait_for_message(second, is_vote, since=mark)
        assert (await bot.reminders.tick()).votes == []

        handle = await world.manager.run("/game abandon", channel=second)
        await handle.wait_for_followup()
        report = await bot.reminders.tick()
        assert report.closed == 1
        closed = await server.wait_for_message(
            second, lambda m: m.id == vote.id and "no longer being played" in m.text()
        )
        assert not closed.buttons()
        await bot.wait_idle()
    server.assert_no_failed_interactions()
