"""A person away from all their games (issue #35, ``/game away``): their banks stop and nobody
reminds them, the tables say so, the allowance of days in a year holds, and coming back (by
``days:0`` or by playing) ends it."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta

from storage.timebank import DAY_MS, HOUR_MS, left
from tests.e2e.conftest import OfflineGovernor, World
from tests.e2e.test_game_notify import click_code, clocked, prompted_people, seated_game
from tests.e2e.test_game_pause import say


async def test_away_stops_the_banks_and_the_reminders_within_the_allowance(
    world: World, make_governor: Callable[..., OfflineGovernor]
) -> None:
    server = world.server
    carol = server.add_user("carol", guild=world.guild)
    async with clocked(world, make_governor) as (bot, clock):
        game, _ = await seated_game(world, bot, [world.alice, carol],
                                    "max_players:2 pace:normal")
        assert await prompted_people(bot, game.id) == (world.alice.id,)
        assert await say(world, world.alice, "/game away") == (
            "You are not away.\nDays of absence left in the last 365 days: 21 days of 21 days.")
        for wrong, said in (("start:tomorrow days:2", "“tomorrow” is not a date: write it like "
                                                      "2026-12-24."),
                            ("start:2020-01-01 days:2", "2020-01-01 is past or more than a year "
                                                        "away: choose a day from today on, within "
                                                        "a year."),
                            ("reason:beach", "Say for how many days (days:) or until when "
                                             "(until:), or days:0 when you are back."),
                            ("until:someday", "“someday” is not a date: write it like "
                                              "2026-12-24."),
                            ("days:0", "You are not away; nothing was changed."),
                            ("days:22", "That is more than what is left of your absences: 21 days "
                                        "of 21 days in any 365 days.")):
            assert await say(world, world.alice, f"/game away {wrong}") == said, wrong
        soon = (clock.now + timedelta(days=2)).date().isoformat()
        assert await say(world, world.alice, f"/game away days:2 until:{soon}") == (
            "Say how many days (days:) or the day you are back (until:), not both.")
        assert await say(world, world.alice, f"/game away start:{soon} until:{soon}") == (
            f"{soon} is not after the day your absence begins: choose the day you are back.")
        assert await bot.storage.absences.current(world.alice.id) is None

        clock.advance(hours=1)
        mark = server.mark()
        handle = await world.alice.slash("game away", {"days": 5, "reason": "**beach** @everyone"},
                                         channel=world.general)
        reply = (await handle.wait_for_followup()).content
        since, until = clock.now, clock.now + timedelta(days=5)
        assert reply == (
            f"You are away from <t:{int(since.timestamp())}:F> until "
            f"<t:{int(until.timestamp())}:F> in all your games (#{game.id}): your time banks "
            "stop and nobody reminds you. /game away days:0 when you are back earlier.")
        table = await server.wait_for_message(
            world.general, lambda m: "is away until" in m.text(), since=mark)
        text = table.text()
        assert f"🏖 Away: alice until <t:{int(until.timestamp())}:D>" in text
        assert (f"alice is away until <t:{int(until.timestamp())}:D> (\\*\\*beach\\*\\* "
                "\\@everyone): their time bank stops meanwhile.") in text
        assert not table.mentions and not table.mention_everyone

        # four days away: no reminder, no warning, no stand-in; the bank holds
        clock.advance(days=4)
        report = await bot.reminders.tick()
        assert (report.nudged, report.warned, report.stood_in) == ({}, [], [])
        assert (await say(world, world.alice, "/game away")).startswith(
            f"You are away until <t:{int(until.timestamp())}:F> (\\*\\*beach\\*\\* \\@everyone)."
            "\nDays of absence left in the last 365 days: 16 days of 21 days.")  # (planned)
        # a new absence would replace this one, cut at four days: 17 days for it
        assert (await say(world, world.alice, "/game away days:20")).startswith(
            "That is more than what is left of your absences: 17 days of 21 days")
        record = await bot.storage.games.get(game.id)
        seat = record.seats[0]
        assert seat.bank_ms is not None
        assert left(seat.bank_ms, seat.waiting_since, clock.now, record.quiet,
                    record.stops(seat)) == 3 * DAY_MS - HOUR_MS

        mark = server.mark()
        assert await say(world, world.alice, "/game away days:0") == (
            f"Welcome back: your time banks run again (#{game.id}).")
        table = await server.wait_for_message(
            world.general, lambda m: "is back" in m.text(), since=mark)
        assert "🏖 Away:" not in table.text()
        assert "alice is back: their time bank runs again." in table.text()
        record = await bot.storage.games.get(game.id)
        seat = record.seats[0]
        assert seat.bank_ms is not None
        assert left(seat.bank_ms, seat.waiting_since, clock.now, record.quiet,
                    record.stops(seat)) == 3 * DAY_MS - HOUR_MS
        assert (await say(world, world.alice, "/game away")).endswith(
            "Days of absence left in the last 365 days: 17 days of 21 days.")

        # away again, then a move: she is back
        await say(world, world.alice, "/game away days:2")
        mark = server.mark()
        await click_code(world, bot, world.alice, game.id, "r.builder")
        await server.wait_for_message(world.general, lambda m: "is back" in m.text(), since=mark)
        absence = await bot.storage.absences.current(world.alice.id)
        assert absence is None

        # a planned absence: from a later day (midnight, in the server's zone: UTC here)
        later = (clock.now + timedelta(days=3)).date()
        mark = server.mark()
        reply = await say(world, carol, f"/game away days:2 start:{later.isoformat()}")
        begins = datetime(later.year, later.month, later.day, tzinfo=UTC)
        assert reply.startswith(f"You are away from <t:{int(begins.timestamp())}:F> until "
                                f"<t:{int((begins + timedelta(days=2)).timestamp())}:F>")
        table = await server.wait_for_message(
            world.general, lambda m: "will be away" in m.text(), since=mark)
        assert (f"carol will be away from <t:{int(begins.timestamp())}:D> until "
                f"<t:{int((begins + timedelta(days=2)).timestamp())}:D>: their time bank "
                "stops then.") in table.text()
        assert "🏖 Away:" not in table.text()  # not yet
        assert (await say(world, carol, "/game away")).startswith("You will be away from")
        # the same absence asked by the day she is back (until:), replacing it
        back = later + timedelta(days=2)
        assert await say(world, carol, f"/game away start:{later.isoformat()} "
                                       f"until:{back.isoformat()}") == reply
        absence = await bot.storage.absences.current(carol.id)
        assert absence is not None and (absence.since, absence.until) == (
            begins, begins + timedelta(days=2))

        # a server's allowance (the planned absence is replaced: 3 days of 3)
        await say(world, world.manager, "/game server away_days:3")
        assert (await say(world, carol, "/game away days:4")).startswith(
            "That is more than what is left of your absences: 3 days of 3 days")
        assert (await say(world, carol, "/game away days:3")).startswith("You are away from")
        await bot.wait_idle()
    server.assert_no_failed_interactions()

