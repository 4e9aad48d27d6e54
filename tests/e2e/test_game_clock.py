"""The clock end to end: a custom pace of N days a move (``/game new bank_days:N
increment_hours:24N cap_days:N``, the clock a game had before the time banks).  When a bank
runs out an AI stands in for the player until they come back (a click, ``/game rejoin``); a
table of stand-ins only waits, and is abandoned after the server's ``abandon_days``.  The
table's vote (``/game kick``): who may open it and when, who may vote, majority and ties, the
AI taking the seat over for good (and playing at once), abandoning, the late player's move
cancelling the vote, and a restart in the middle of a vote.  An undo gives the bank back."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

from storage import GameStatus
from storage.timebank import DAY_MS, per_move
from tests.e2e.conftest import OfflineGovernor, World
from tests.e2e.game_play import private_reply, table_at
from tests.e2e.test_game_notify import FakeClock, click_code, clocked, prompted_people, seated_game
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


async def kick(world: World, by: ScriptedUser, player: ScriptedUser, channel: Any = None
               ) -> str:
    """``by`` types ``/game kick player`` in the game's channel; the private reply."""
    return await private_reply(by, f"/game kick player:{player.id}", channel or world.general)


async def rejoin(world: World, user: ScriptedUser, args: str = "") -> str:
    return await private_reply(user, f"/game rejoin {args}".strip(), world.general)


async def test_a_kick_vote_lets_an_ai_take_the_seat(
    world: World, make_governor: Callable[..., OfflineGovernor]
) -> None:
    server = world.server
    carol = server.add_user("carol", guild=world.guild)
    dave = server.add_user("dave", guild=world.guild)
    async with clocked(world, make_governor) as (bot, clock):
        game, _ = await seated_game(world, bot, [world.alice, carol, dave],
                                    f"max_players:3 {TWO_DAYS_A_MOVE}")
        assert (await bot.storage.reminders.timers(game.id)).pace == per_move(2)
        assert await prompted_people(bot, game.id) == (world.alice.id,)

        # The vote opens only on a seat that kept the game waiting the reminder interval (24 h).
        clock.advance(hours=23)
        early = await kick(world, carol, world.alice)
        assert early.startswith(
            f"Game #{game.id} has waited for <@{world.alice.id}> less than 24 hours; you can ask "
            "for a vote <t:")
        assert await kick(world, carol, carol) == (
            f"You cannot vote yourself out of game #{game.id}; /game leave hands your seat to an "
            "AI.")
        assert await kick(world, carol, dave) == (
            f"Game #{game.id} is not waiting for <@{dave.id}> now: a vote can only be opened on a "
            "player the game is waiting for.")
        assert await kick(world, carol, world.bob) == (
            f"<@{world.bob.id}> does not hold a seat in game #{game.id}.")
        assert not [m for m in server.messages(world.general) if is_vote(m)]

        clock.advance(hours=1, minutes=1)
        mark = server.mark()
        assert await kick(world, carol, world.alice) == (
            f"The vote is open in the channel of game #{game.id}; vote with its buttons like the "
            "others.")
        vote = await server.wait_for_message(world.general, is_vote, since=mark)
        text = vote.text()
        assert text.startswith(
            f"⏰ Game #{game.id}: <@{carol.id}> asks to replace <@{world.alice.id}>, who has kept "
            "the game waiting for 1 day on one decision (choose a role)."
        ), text
        assert f"<@{carol.id}> <@{dave.id}>: you may vote" in text
        assert "A choice needs 2 of 2 votes" in text and "Votes: AI 0 · abandon 0" in text
        assert [b["label"] for b in vote.buttons()] == [AI, ABANDON]
        assert {u.id for u in vote.mentions} == {world.alice.id, carol.id, dave.id}
        assert await kick(world, dave, world.alice) == (  # one vote per wait
            f"A vote on <@{world.alice.id}>'s seat in game #{game.id} is already open: use its "
            "buttons.")

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
        game, _ = await seated_game(world, first, [world.alice, carol, dave], "max_players:3")
        clock.advance(days=1, minutes=1)  # an unlimited game: only the table's vote helps
        mark = server.mark()
        await kick(world, dave, world.alice)
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
        table = server.get_message((await second.storage.games.get(game.id)).messages["table"])
        assert table is not None and not table.buttons()  # the table is closed
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
    async with clocked(world, make_governor) as (bot, clock):
        game, _ = await seated_game(world, bot, [world.alice, carol],
                                    f"max_players:3 ai_seats:1 {TWO_DAYS_A_MOVE}")
        clock.advance(days=1, minutes=1)
        mark = server.mark()
        await kick(world, carol, world.alice)
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
        # alice must now take the Mayor's privilege: a new wait, which may be voted on again
        # once it has lasted the reminder interval.
        assert await prompted_people(bot, game.id) == (world.alice.id,)
        clock.advance(hours=23)
        assert (await kick(world, carol, world.alice)).startswith(
            f"Game #{game.id} has waited for <@{world.alice.id}> less than 24 hours")
        clock.advance(hours=1, minutes=1)
        mark = server.mark()
        await kick(world, carol, world.alice)
        await server.wait_for_message(world.general, is_vote, since=mark)
        await bot.wait_idle()
    server.assert_no_failed_interactions()


async def test_votes_close_with_the_game(
    world: World, make_governor: Callable[..., OfflineGovernor]
) -> None:
    """A vote is open when the creator abandons the game: the next pass closes it."""
    server = world.server
    second = server.add_text_channel(world.guild, "second")
    async with clocked(world, make_governor) as (bot, clock):
        other, _ = await seated_game(world, bot, [world.manager, world.alice],
                                     "max_players:2", channel=second)
        clock.advance(days=2)
        mark = server.mark()
        await kick(world, world.alice, world.manager, channel=second)
        vote = await server.wait_for_message(second, is_vote, since=mark)

        handle = await world.manager.run("/game abandon", channel=second)
        await handle.wait_for_followup()
        report = await bot.reminders.tick()
        assert report.closed == 1
        closed = await server.wait_for_message(
            second, lambda m: m.id == vote.id and "no longer being played" in m.text()
        )
        assert not closed.buttons()
        assert (await bot.storage.games.get(other.id)).status is GameStatus.ABANDONED
        await bot.wait_idle()
        # the turn DM of the manager's pending decision says its turn is over
        [told] = [m for m in world.manager.dms if "your turn" in m.sent_content]
        assert told.content.startswith("✔️ Done: this turn in game")
    server.assert_no_failed_interactions()


async def test_out_of_time_an_ai_stands_in_until_the_player_clicks(
    world: World, make_governor: Callable[..., OfflineGovernor]
) -> None:
    """alice's bank runs out: nobody votes, an AI plays her seat at once and she is told how to
    come back; the log names the stand-in.  Her next click gives her the seat back (the click
    itself decides nothing), with a bank of one move's increment."""
    server = world.server
    carol = server.add_user("carol", guild=world.guild)
    async with clocked(world, make_governor) as (bot, clock):
        game, _ = await seated_game(world, bot, [world.alice, carol], f"max_players:2 {DAY_A_MOVE}")
        assert await prompted_people(bot, game.id) == (world.alice.id,)
        clock.advance(hours=23)
        assert (await bot.reminders.tick()).stood_in == []
        dms = len(world.alice.dms)
        clock.advance(hours=1, minutes=1)
        report = await bot.reminders.tick()
        assert report.stood_in == [game.id]
        await bot.wait_idle()
        assert (await bot.reminders.tick()).stood_in == []  # once
        assert not [m for m in server.messages(world.general) if is_vote(m)]
        told = world.alice.dms[dms:]
        assert [m.content for m in told if "time bank ran out" in m.content] == [
            f"⌛ Game #{game.id} (#general, Offline Table): your time bank ran out, so an AI plays "
            "your seat for now. Come back whenever you like: any button of the game, or /game "
            "rejoin, gives you the seat back from its next decision."]
        record = await bot.storage.games.get(game.id)
        seat = record.seats[0]
        assert (seat.user_id, seat.ai_policy, seat.stand_in_for) == (
            None, "heuristic", world.alice.id)
        assert seat.stood_in_at == clock.now
        actions = await bot.storage.games.actions(game.id)
        assert actions[0].seat == 0 and actions[0].user_id is None  # the stand-in played
        table = server.messages(world.general)[-1]
        assert "alice's time bank ran out: AI for alice plays that seat until they come back." in (
            table.text())

        # /game games tells her; /game rejoin by someone else finds nothing.
        handle = await world.alice.run("/game games", channel=world.general)
        listing = (await handle.wait_for_followup()).text()
        assert "an AI plays for you (out of time): /game rejoin" in listing
        assert await rejoin(world, carol) == (
            "No AI is keeping a seat for you in any game: you only take a seat back after your "
            "time bank ran out.")

        # Any click of hers takes the seat back: from its next decision, with one move's bank.
        mark = server.mark()
        await click_code(world, bot, world.alice, game.id, "r.mayor")
        record = await bot.storage.games.get(game.id)
        seat = record.seats[0]
        assert (seat.user_id, seat.ai_policy, seat.stand_in_for) == (world.alice.id, None, None)
        assert seat.bank_ms is not None
        assert seat.bank_ms - (0 if seat.waiting_since is None else
                               (clock.now - seat.waiting_since).total_seconds() * 1000) == DAY_MS
        table = await server.wait_for_message(
            world.general, lambda m: "is back and plays their seat again" in m.text(), since=mark)
        assert "alice is back and plays their seat again." in table.text()
        assert await rejoin(world, world.alice) == (
            "No AI is keeping a seat for you in any game: you only take a seat back after your "
            "time bank ran out.")
        await bot.wait_idle()
    server.assert_no_failed_interactions()


async def test_a_table_of_stand_ins_waits_then_is_abandoned(
    world: World, make_governor: Callable[..., OfflineGovernor]
) -> None:
    """alice alone with an AI seat runs out of time: the stand-in does not play the game to its
    end alone, it waits.  ``/game rejoin`` brings her back; out of time again, the game is
    abandoned once she has been out for the server's ``abandon_days`` (3 here)."""
    server = world.server
    async with clocked(world, make_governor) as (bot, clock):
        handle = await world.manager.run("/game server abandon_days:3", channel=world.general)
        assert "is abandoned after 3 days." in (await handle.wait_for_followup()).content
        game, _ = await seated_game(world, bot, [world.alice], f"max_players:2 ai_seats:1 "
                                                               f"{DAY_A_MOVE}")
        clock.advance(days=1, minutes=1)
        assert (await bot.reminders.tick()).stood_in == [game.id]
        await bot.wait_idle()
        assert await bot.storage.games.actions(game.id) == []  # the stand-in waits
        clock.advance(days=2, hours=23)
        report = await bot.reminders.tick()
        assert report.abandoned == [] and report.resumed == 0
        assert await rejoin(world, world.alice) == (
            f"Welcome back: your seat in game #{game.id} is yours again from its next decision.")
        record = await bot.storage.games.get(game.id)
        assert record.seats[0].user_id == world.alice.id and record.present
        assert await prompted_people(bot, game.id) == (world.alice.id,)

        clock.advance(days=1, minutes=1)  # out of time again
        assert (await bot.reminders.tick()).stood_in == [game.id]
        clock.advance(days=2, hours=23)
        assert (await bot.reminders.tick()).abandoned == []
        mark = server.mark()
        clock.advance(hours=1)
        assert (await bot.reminders.tick()).abandoned == [game.id]
        assert (await bot.storage.games.get(game.id)).status is GameStatus.ABANDONED
        said = await server.wait_for_message(
            world.general, lambda m: "is abandoned" in m.text(), since=mark)
        assert said.content == (
            f"Game #{game.id} is abandoned: every player has been out of time for 3 days. No "
            f"result, and nobody's rating changes. <@{world.alice.id}>")
        assert [u.id for u in said.mentions] == [world.alice.id]
        assert (await bot.reminders.tick()).abandoned == []
        await bot.wait_idle()
    server.assert_no_failed_interactions()


async def test_the_tables_my_turn_button_gives_the_seat_back(
    world: World, make_governor: Callable[..., OfflineGovernor]
) -> None:
    """Any click of hers on the game: the table's **My turn** gives alice her seat back (and
    says so) as a game button does."""
    server = world.server
    carol = server.add_user("carol", guild=world.guild)
    async with clocked(world, make_governor) as (bot, clock):
        game, _ = await seated_game(world, bot, [world.alice, carol], f"max_players:2 {DAY_A_MOVE}")
        clock.advance(days=1, minutes=1)
        assert (await bot.reminders.tick()).stood_in == [game.id]
        await bot.wait_idle()
        table = await table_at(world, bot, game.id)
        handle = await world.alice.click(table, label="My turn")
        reply = await handle.wait_for_followup()
        assert reply.ephemeral and reply.content == (
            f"Welcome back: your seat in game #{game.id} is yours again from its next decision "
            "(the AI played the decision this button was for).")
        record = await bot.storage.games.get(game.id)
        assert record.seat_of(world.alice.id) is not None and record.stand_in_of(
            world.alice.id) is None
        await bot.wait_idle()
    server.assert_no_failed_interactions()


async def test_an_undo_gives_the_time_bank_back(
    world: World, make_governor: Callable[..., OfflineGovernor]
) -> None:
    """alice picks the Prospector two hours into her wait and takes it back an hour later: her
    bank runs out when it would have without the move (no increment kept), and carol, asked
    by the move, spent nothing of hers."""
    server = world.server
    carol = server.add_user("carol", guild=world.guild)
    async with clocked(world, make_governor) as (bot, clock):
        game, _ = await seated_game(world, bot, [world.alice, carol],
                                    "max_players:2 pace:normal")
        assert await prompted_people(bot, game.id) == (world.alice.id,)
        before = await bot.storage.games.get(game.id)
        hers, theirs = before.seat_of(world.alice.id), before.seat_of(carol.id)
        assert hers is not None and theirs is not None and hers.waiting_since is not None
        assert hers.bank_ms is not None
        runs_out = hers.waiting_since + timedelta(milliseconds=hers.bank_ms)
        clock.advance(hours=2)
        await click_code(world, bot, world.alice, game.id, "r.prospector")
        assert await prompted_people(bot, game.id) == (carol.id,)
        clock.advance(hours=1)
        mark = server.mark()
        await (await world.alice.run("/game undo", channel=world.general)).wait_for_followup()
        table = await server.wait_for_message(
            world.general, lambda m: "⏳ Time banks" in m.text(), since=mark)
        assert f"alice: runs out <t:{int(runs_out.timestamp())}:R>" in table.text()
        after = await bot.storage.games.get(game.id)
        mine, other = after.seat_of(world.alice.id), after.seat_of(carol.id)
        assert mine is not None and other is not None
        assert (mine.waiting_since, mine.bank_ms) == (hers.waiting_since, hers.bank_ms)
        assert (other.waiting_since, other.bank_ms) == (None, theirs.bank_ms)
        await bot.wait_idle()
    server.assert_no_failed_interactions()
