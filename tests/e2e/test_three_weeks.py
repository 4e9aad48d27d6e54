"""Three simulated weeks of one game (issue #35), through the offline Discord to the score sheet.

Three people play Puerto Rico at the fast pace (a day to start, +8 hours a move, at most two):

* **alice** takes an away week's worth of days in the first week, goes silent in the second
  until her bank runs out (an AI stands in for her), and comes back by clicking a button of the
  game;
* **carol** has quiet hours (22:00-08:00 in Madrid): nothing reaches her then, and what waited
  comes in one DM when they end;
* **dave** takes a daily digest at 18:00 UTC instead of a DM per turn.

The clock moves twenty minutes at a time; the reminder pass runs at every step, and each person
plays their decisions a while after they are asked, as their life allows.  The DMs each one
received are then counted against what their settings allow."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

from engine import get_game
from engine.policies import make_policy
from storage import GameStatus
from tests.e2e.conftest import OfflineGovernor, World
from tests.e2e.game_play import private_reply
from tests.e2e.test_game_notify import FakeClock, click_code, clocked, seated_game
from tests.offline_discord import ScriptedUser

GAME = get_game("puerto-rico")
START = datetime(2026, 3, 2, 8, 0, tzinfo=UTC)  # a Monday
STEP = timedelta(minutes=20)
MADRID = ZoneInfo("Europe/Madrid")
AWAY_AT = START + timedelta(days=2, hours=1)  # alice: away for three days
SILENT_AT = START + timedelta(days=8)  # alice stops playing ...
BACK_AT = START + timedelta(days=11, hours=2)  # ... and clicks a button of the game again
END = START + timedelta(days=21)


def quiet_for_carol(moment: datetime) -> bool:
    local = moment.astimezone(MADRID)
    return local.hour >= 22 or local.hour < 8


async def test_three_weeks_of_a_game_with_an_absence_a_time_out_a_digest_and_quiet_hours(
    world: World, make_governor: Callable[..., OfflineGovernor]
) -> None:
    server = world.server
    carol = server.add_user("carol", guild=world.guild)
    dave = server.add_user("dave", guild=world.guild)
    alice = world.alice
    clock = FakeClock()
    clock.now = START
    delay = {alice.id: timedelta(minutes=50), carol.id: timedelta(minutes=80),
             dave.id: timedelta(minutes=150)}

    async def say(user: ScriptedUser, command: str) -> str:
        return await private_reply(user, command, world.general)

    async with clocked(world, make_governor, clock) as (bot, _):
        await say(carol, "/game notify timezone:Europe/Madrid quiet_hours:22-08")
        await say(dave, "/game notify digest_hour:18")
        game, _ = await seated_game(world, bot, [alice, carol, dave], "max_players:3 pace:fast")
        policy = make_policy("heuristic", "puerto-rico", 7)
        carol_quiet_dms = 0
        digests: list[datetime] = []
        catch_ups = 0
        away_until: datetime | None = None
        back = False
        while clock.now < END:
            if clock.now == AWAY_AT:
                assert (await say(alice, "/game away days:3")).startswith("You are away from")
                away_until = clock.now + timedelta(days=3)
            if clock.now == BACK_AT:
                record = await bot.storage.games.get(game.id)
                assert record.stand_in_of(alice.id) is not None  # the AI has stood in
                await click_code(world, bot, alice, game.id, "r.builder")  # any button
                record = await bot.storage.games.get(game.id)
                assert record.seat_of(alice.id) is not None
                back = True
            loaded = await bot.storage.games.load(game.id)
            if loaded.record.status is not GameStatus.ACTIVE:
                break
            prompt = GAME.prompt(loaded.state)
            assert prompt is not None
            for number in prompt.seats:
                seat = loaded.record.seat(number)
                if seat is None or seat.user_id is None or seat.waiting_since is None:
                    continue
                user = seat.user_id
                if clock.now - seat.waiting_since < delay[user]:
                    continue
                if user == carol.id and quiet_for_carol(clock.now):
                    continue  # asleep
                if user == alice.id and (
                        (away_until is not None and AWAY_AT <= clock.now < away_until)
                        or (clock.now >= SILENT_AT and not back)):
                    continue  # away, then silent
                legal = GAME.legal_actions(loaded.state, number)
                code = GAME.encode_action(policy.choose(GAME, loaded.state, number, legal))
                await bot.service.submit(game.id, user, None, code)
                break  # one move a step: the others look at the new position next step
            await bot.wait_idle()
            before = len(carol.dms)
            report = await bot.reminders.tick()
            await bot.wait_idle()
            if dave.id in report.digests:
                digests.append(clock.now)
            catch_ups += carol.id in report.caught_up
            if quiet_for_carol(clock.now):
                carol_quiet_dms += len(carol.dms) - before
            clock.advance(minutes=20)
        await bot.wait_idle()
        record = await bot.storage.games.get(game.id)
        assert record.status is GameStatus.FINISHED, f"still playing at {clock.now}"
        assert "final" in record.messages
        finished_at = clock.now
        handovers = await bot.storage.games.handovers(game.id)

    # --- the story of alice's seat ---------------------------------------------------------------
    assert [(h.reason, h.from_user_id, h.to_user_id) for h in handovers] == [
        ("timeout", alice.id, None), ("returned", None, alice.id)]
    assert SILENT_AT < handovers[0].at < BACK_AT and handovers[1].at == BACK_AT
    assert not AWAY_AT <= handovers[0].at < AWAY_AT + timedelta(days=3)

    def kinds(user: ScriptedUser) -> dict[str, int]:
        counted: dict[str, int] = {}
        for message in user.dms:
            text = message.sent_content
            kind = ("turn" if "It is your turn" in text else
                    "reminder" if text.startswith("A reminder") else
                    "digest" if text.startswith("🗞") else
                    "caught_up" if text.startswith("🔔") else
                    "warning" if text.startswith(("⏳", "⚠️")) else
                    "stood_in" if text.startswith("⌛") else
                    "final" if "is over" in text else
                    "heads_up" if text.startswith("👀") else "other")
            counted[kind] = counted.get(kind, 0) + 1
        return counted

    # dave: a digest a day at most, at its hour, never a turn DM or a reminder
    dave_kinds = kinds(dave)
    assert "turn" not in dave_kinds and "reminder" not in dave_kinds, dave_kinds
    assert dave_kinds.get("digest") == len(digests) > 5, dave_kinds
    assert len({d.date() for d in digests}) == len(digests)
    assert all(d.hour == 18 for d in digests)
    # carol: nothing in her quiet hours; what waited came in one DM as they ended
    carol_kinds = kinds(carol)
    assert carol_quiet_dms == 0
    assert carol_kinds.get("caught_up") == catch_ups > 0, carol_kinds
    assert carol_kinds.get("turn", 0) > 0
    # alice: told once that an AI stood in for her; no reminder while away
    alice_kinds = kinds(alice)
    assert alice_kinds.get("stood_in") == 1, alice_kinds
    for person in (alice, carol, dave):
        assert kinds(person).get("final") == 1, person
        assert "other" not in kinds(person), [m.sent_content for m in person.dms]
    assert finished_at <= END
