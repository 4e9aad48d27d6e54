"""Each person's notification settings (issue #35, ``/game notify``): the private panel and its
components, the options with their refusals, and what each setting does to the messages a
person gets: quiet hours hold and then catch up, the digest comes once a day at its hour in the
person's zone, a heads-up comes when the seat before theirs is asked, a muted game is silent."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta

from tests.e2e.conftest import OfflineGovernor, World
from tests.e2e.game_play import private_reply
from tests.e2e.test_game_notify import (
    FakeClock,
    click_code,
    clocked,
    play_one,
    prompted_people,
    seated_game,
)
from tests.offline_discord import ScriptedUser, StoredMessage, running_client


async def panel(world: World, user: ScriptedUser, options: str = "") -> StoredMessage:
    handle = await user.run(f"/game notify {options}".strip(), channel=world.general)
    assert (await handle.response()).type == 5
    reply = await handle.wait_for_followup()
    assert reply.ephemeral
    return reply


async def test_the_panel_shows_and_changes_ones_own_settings(
    world: World, make_governor: Callable[..., OfflineGovernor]
) -> None:
    server = world.server
    bot = make_governor(renderer=None, reminder_period=None, dm_interval=0)
    async with running_client(server, bot):
        await server.wait_for_command_sync(world.guild)
        game, _ = await seated_game(world, bot, [world.alice, world.bob], "max_players:2")
        shown = await panel(world, world.alice)
        assert shown.content == (
            "**🔔 Your notifications**\n"
            "• Direct messages: on\n"
            "• Time zone: UTC (/game notify timezone: to change)\n"
            "• Quiet hours: no quiet hours (nothing is sent then; what waits is sent when they "
            "end)\n"
            "• Digest: off (a DM for each turn)\n"
            "• Heads-up when you are next: off\n"
            "• Reminders: the game's spacing\n"
            "• Muted games: —")
        assert [b["label"] for b in shown.buttons()] == ["DMs: on", "Heads-up: off",
                                                         "Digest: off"]
        assert [s["placeholder"] for s in shown.selects()] == [
            "Digest hour", "Reminder spacing", "Quiet hours", "Muted games"]

        handle = await world.alice.click(shown, label="Heads-up: off")
        assert (await handle.response()).type == 6
        shown = await handle.original_message(lambda m: "Heads-up: on" in str(m.buttons()))
        assert "• Heads-up when you are next: on" in shown.content
        handle = await world.alice.select(shown, ["Digest at 07:00"], placeholder="Digest hour")
        shown = await handle.original_message(lambda m: "Digest: on" in str(m.buttons()))
        assert "• Digest: one DM a day at 07:00, instead of one per turn" in shown.content
        handle = await world.alice.select(shown, ["22:00–08:00"], placeholder="Quiet hours")
        shown = await handle.original_message(lambda m: "22:00–08:00 (nothing" in m.content)
        handle = await world.alice.select(shown, ["after 12 hours"],
                                          placeholder="Reminder spacing")
        shown = await handle.original_message(lambda m: "after 12 hours" in m.content)
        handle = await world.alice.select(shown, [str(game.id)], placeholder="Muted games")
        shown = await handle.original_message(lambda m: f"Muted games: #{game.id}" in m.content)
        prefs = await bot.storage.settings.user(world.alice.id)
        assert (prefs.heads_up, prefs.digest_hour, prefs.quiet_window, prefs.reminder_hours) == (
            True, 7, (22 * 60, 8 * 60), 12)
        assert await bot.storage.settings.muted(world.alice.id) == {game.id}
        handle = await world.alice.select(shown, [], placeholder="Muted games")
        await handle.original_message(lambda m: "Muted games: —" in m.content)
        assert await bot.storage.settings.muted(world.alice.id) == set()
        # DMs off from the panel, and on again
        handle = await world.alice.click(shown, label="DMs: on")
        shown = await handle.original_message(lambda m: "DMs: off" in str(m.buttons()))
        assert not (await bot.storage.settings.user(world.alice.id)).dm_notifications
        handle = await world.alice.click(shown, label="DMs: off")
        await handle.original_message(lambda m: "DMs: on" in str(m.buttons()))
        assert (await bot.storage.settings.user(world.alice.id)).dm_notifications

        # bob's DMs are closed: his panel says so (a DM refused is remembered)
        await bot.storage.settings.update_user(world.bob.id, dm_blocked=True)
        assert ("• Direct messages: on, but Discord refuses my DMs to you: allow direct "
                "messages from this server's members, then press DMs twice") in (
            await panel(world, world.bob)).content

        # the options, with their refusals
        reply = await panel(world, world.alice, "timezone:europe/madrid quiet_hours:23-07 "
                                                "digest_hour:9 heads_up:false")
        assert reply.content.startswith("Saved.\n\n**🔔 Your notifications**")
        assert "• Time zone: Europe/Madrid" in reply.content
        assert "• Quiet hours: 23:00–07:00" in reply.content
        assert (await panel(world, world.alice, "timezone:Mars/Base")).content == (
            "“Mars/Base” is not a time zone I know: choose one of the list, like Europe/Madrid "
            "or America/Sao_Paulo.")
        assert (await panel(world, world.alice, "quiet_hours:25-3")).content.startswith(
            "“25-3” is not a daily window")
        prefs = await bot.storage.settings.user(world.alice.id)
        assert (prefs.zone, prefs.quiet_window, prefs.digest_hour, prefs.heads_up) == (
            "Europe/Madrid", (23 * 60, 7 * 60), 9, False)
        await bot.wait_idle()
    server.assert_no_failed_interactions()


async def test_quiet_hours_digest_heads_up_and_mute_shape_the_messages(
    world: World, make_governor: Callable[..., OfflineGovernor]
) -> None:
    server = world.server
    carol = server.add_user("carol", guild=world.guild)
    dave = server.add_user("dave", guild=world.guild)
    clock = FakeClock()
    clock.now = datetime(2026, 3, 1, 21, 0, tzinfo=UTC)  # a Sunday
    async with clocked(world, make_governor, clock) as (bot, _):
        # dave: quiet 22:00-08:00 in Madrid (21:00-07:00 UTC in winter); carol: a heads-up
        await panel(world, dave, "timezone:Europe/Madrid quiet_hours:22-08")
        await panel(world, carol, "heads_up:true")
        game, _ = await seated_game(world, bot, [world.alice, dave, carol],
                                    "max_players:3")
        assert await prompted_people(bot, game.id) == (world.alice.id,)
        dave_dms, carol_dms = len(dave.dms), len(carol.dms)
        heads = [m.content for m in dave.dms if "probably next" in m.content]
        assert heads == []  # dave did not ask for one

        # alice chooses the Builder: every seat builds in turn, dave first - in his quiet hours
        await click_code(world, bot, world.alice, game.id, "r.builder")
        assert await prompted_people(bot, game.id) == (world.alice.id,)  # (the chooser first)
        await click_code(world, bot, world.alice, game.id, "pass")
        assert await prompted_people(bot, game.id) == (dave.id,)
        await bot.wait_idle()
        assert len(dave.dms) == dave_dms  # held
        assert (await bot.storage.settings.user(dave.id)).held_at == clock.now
        # carol sits after dave: a heads-up, once
        told = [m.content for m in carol.dms[carol_dms:]]
        assert told == [f"👀 Game #{game.id} (#general, Offline Table): you are probably next; "
                        "dave is deciding now (build)."], told

        clock.advance(hours=9, minutes=59)  # 06:59 UTC: still quiet
        report = await bot.reminders.tick()
        assert report.caught_up == [] and len(dave.dms) == dave_dms
        clock.advance(minutes=2)
        report = await bot.reminders.tick()
        assert report.caught_up == [dave.id]
        caught = dave.dms[-1].content
        assert caught.startswith("🔔 Your quiet hours are over. Waiting for you:\n"
                                 f"Game #{game.id} (#general, Offline Table) has been waiting "
                                 "for you for 10 hours: build.")
        assert (await bot.reminders.tick()).caught_up == []
        # the catch-up reminded him: no reminder on top of it the same day
        clock.advance(hours=15)
        assert dave.id not in (await bot.reminders.tick()).nudged

        # carol mutes the game, dave passes: carol is asked and gets no DM
        await bot.storage.settings.mute(carol.id, [game.id], True)
        carol_dms = len(carol.dms)
        await click_code(world, bot, dave, game.id, "pass")
        assert await prompted_people(bot, game.id) == (carol.id,)
        await bot.wait_idle()
        assert len(carol.dms) == carol_dms

        # alice: a digest at 08:00 in her zone (UTC): no turn DM, one digest a day
        await panel(world, world.alice, "digest_hour:8")
        await bot.storage.settings.mute(carol.id, [game.id], False)
        alice_dms = len(world.alice.dms)
        await click_code(world, bot, carol, game.id, "pass")
        people = {u.id: u for u in (world.alice, carol, dave)}
        for _ in range(20):  # on until the game asks alice
            if world.alice.id in await prompted_people(bot, game.id):
                break
            await play_one(world, bot, game.id, people, click=False)
        await bot.wait_idle()
        assert world.alice.id in await prompted_people(bot, game.id)
        assert len(world.alice.dms) == alice_dms
        day = clock.now.date() + timedelta(days=1)
        clock.now = datetime(day.year, day.month, day.day, 7, 59, tzinfo=UTC)
        assert (await bot.reminders.tick()).digests == []
        clock.advance(minutes=1)
        report = await bot.reminders.tick()
        assert report.digests == [world.alice.id] and world.alice.id not in report.nudged
        assert world.alice.dms[-1].content.startswith(
            f"🗞 Your daily digest. Waiting for you:\nGame #{game.id} (#general, Offline "
            "Table) has been waiting for you for")
        clock.advance(hours=5)
        assert (await bot.reminders.tick()).digests == []
        await bot.wait_idle()
    server.assert_no_failed_interactions()


async def test_a_turn_dm_says_when_its_turn_is_over(
    world: World, make_governor: Callable[..., OfflineGovernor]
) -> None:
    """carol's turn DM stays live while her decision waits; once she has played it says the
    turn is over (it does not stay a call to act), in her language."""
    server = world.server
    carol = server.add_user("carol", guild=world.guild)
    bot = make_governor(renderer=None, reminder_period=None, dm_interval=0)
    async with running_client(server, bot):
        await server.wait_for_command_sync(world.guild)
        game, _ = await seated_game(world, bot, [world.alice, carol], "max_players:2")
        await click_code(world, bot, world.alice, game.id, "r.builder")
        await click_code(world, bot, world.alice, game.id, "pass")
        assert await prompted_people(bot, game.id) == (carol.id,)
        await bot.wait_idle()
        [dm] = [m for m in carol.dms if "your turn" in m.content]
        assert not dm.edited
        await click_code(world, bot, carol, game.id, "pass")
        await bot.wait_idle()
        done = server.get_message(dm.id)
        assert done is not None and done.edited
        assert done.content == (f"✔️ Done: this turn in game #{game.id} has been played (or the "
                                "game moved on).")
        rows = await bot.storage.db.fetchall("SELECT message_id FROM turn_messages")
        assert dm.id not in {int(r["message_id"]) for r in rows}  # forgotten once edited
    server.assert_no_failed_interactions()


async def test_a_person_not_seated_follows_a_game_and_stops(
    world: World, make_governor: Callable[..., OfflineGovernor]
) -> None:
    server = world.server
    carol = server.add_user("carol", guild=world.guild)
    erin = server.add_user("erin", guild=world.guild)
    bot = make_governor(renderer=None, reminder_period=None, dm_interval=0)

    async def say(user: ScriptedUser, command: str) -> str:
        return await private_reply(user, command, world.general)

    async with running_client(server, bot):
        await server.wait_for_command_sync(world.guild)
        game, _ = await seated_game(world, bot, [world.alice, carol], "max_players:2")
        assert await say(erin, "/game follow") == (
            f"You follow game #{game.id}: a DM at the end of each phase (a mention in its story "
            "thread if your DMs are closed). /game unfollow to stop.")
        assert await say(erin, "/game follow") == f"You already follow game #{game.id}."
        assert await say(world.bob, f"/game follow game:{game.id}") == (
            f"You follow game #{game.id}: a DM at the end of each phase (a mention in its story "
            "thread if your DMs are closed). /game unfollow to stop.")
        assert await say(world.alice, "/game follow") == (
            f"You play in game #{game.id}: you hear of your own turns already.")
        assert await say(erin, "/game follow game:99999") == "Game #99999 does not exist."

        erin_dms = len(erin.dms)
        await click_code(world, bot, world.alice, game.id, "r.builder")
        assert len(erin.dms) == erin_dms  # nothing before the phase ends
        await click_code(world, bot, world.alice, game.id, "pass")
        await click_code(world, bot, carol, game.id, "pass")
        await bot.wait_idle()
        told = [m.content for m in erin.dms[erin_dms:]]
        table = (await bot.storage.games.get(game.id)).messages.get("table")
        assert told == [
            f"👁 Game #{game.id} (#general, Offline Table): Round 1 · the Builder phase (chosen "
            f"by alice) ended. https://discord.com/channels/{world.guild.id}/{world.general.id}/"
            f"{table}"], told
        # bob's DMs are closed: a mention where the story is told, pinging him alone
        pinged = [m for m in server.all_messages() if world.bob.id in
                  {u.id for u in m.mentions} and "the Builder phase" in m.content]
        assert len(pinged) == 1 and {u.id for u in pinged[0].mentions} == {world.bob.id}

        assert await say(erin, "/game unfollow") == f"You no longer follow game #{game.id}."
        assert await say(erin, "/game unfollow") == (
            f"You do not follow game #{game.id}; nothing was changed.")
        erin_dms = len(erin.dms)
        for _ in range(6):  # on to the next phase's end
            await play_one(world, bot, game.id, {world.alice.id: world.alice, carol.id: carol},
                           click=False)
        assert len(erin.dms) == erin_dms
        await bot.wait_idle()
    server.assert_no_failed_interactions()
