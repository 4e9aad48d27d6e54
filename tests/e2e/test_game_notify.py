"""Turn notifications end to end: who is DMed at each hand-over, exactly once, with what; the
DM interval defers a hand-over instead of dropping it; reminders across games.

Moves are made by the scripted players clicking game buttons (``g:`` custom ids, the same road
as the table's controls), so every DM here went through the real client and the offline
Discord."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from datetime import UTC, datetime, timedelta
from typing import Any

import discord

from bot.components import GameButton
from bot.notify import TokenBucket
from engine import get_game
from storage import GameRecord, GameStatus
from tests.e2e.conftest import OfflineGovernor, World
from tests.e2e.test_bot_lobby import press, seats_of
from tests.manual_time import ManualTime
from tests.offline_discord import ScriptedUser, StoredMessage, running_client

GAME = get_game("puerto-rico")
ROLE_ORDER = ("mayor", "builder", "settler", "craftsman", "trader", "captain", "prospector")


class FakeClock:
    """The bot's "now" (storage, reminders, the game clock), moved by the test."""

    def __init__(self) -> None:
        self.now = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> None:
        self.now += timedelta(**delta)


# --- helpers shared with test_game_clock.py ------------------------------------------------------


@asynccontextmanager
async def clocked(world: World, make_governor: Callable[..., OfflineGovernor],
                  clock: FakeClock | None = None
                  ) -> AsyncIterator[tuple[OfflineGovernor, FakeClock]]:
    """A governor on ``clock`` (a new fake clock by default), with no reminder loop (the test
    ticks it) and no spacing between DMs, connected with its commands synced."""
    clock = clock or FakeClock()
    bot = make_governor(renderer=None, clock=clock, reminder_period=None, dm_interval=0)
    async with running_client(world.server, bot):
        await world.server.wait_for_command_sync(world.guild)
        yield bot, clock


async def seated_game(
    world: World,
    governor: OfflineGovernor,
    people: Sequence[ScriptedUser],
    args: str = "",
    channel: Any = None,
) -> tuple[GameRecord, StoredMessage]:
    """``people[0]`` opens a lobby for exactly these people (plus ``args``), the others join
    in order, and the creator starts (seats keep the lobby order: the e2e rng never shuffles)."""
    channel = channel or world.general
    mark = world.server.mark()
    handle = await people[0].run(f"/game new {args}".strip(), channel=channel)
    assert (await handle.response()).type == 5
    await handle.wait_for_followup()
    lobby = await world.server.wait_for_message(
        channel, lambda m: m.find_component(custom_id_prefix="l:") is not None, since=mark
    )
    for person in people[1:]:
        mention = f"<@{person.id}>"
        def seated(m: StoredMessage, mention: str = mention) -> bool:
            return mention in seats_of(m)

        _, lobby = await press(world, person, lobby, "Join", seated)
    mark = world.server.mark()
    await press(world, people[0], lobby, "Start", lambda m: "has started" in m.text())
    table = await world.server.wait_for_message(
        channel, lambda m: "round 1" in m.text(), since=mark
    )
    game = await governor.storage.games.find_by_channel(channel.id)
    assert game is not None and game.status is GameStatus.ACTIVE
    await governor.wait_idle()
    return game, table


def choose(state: Any, seat: int) -> str:
    """The scripted players' move: roles in ROLE_ORDER, colonists arranged at once, otherwise
    the first legal action other than passing."""
    codes = [GAME.encode_action(a) for a in GAME.legal_actions(state, seat)]
    for role in ROLE_ORDER:
        if f"r.{role}" in codes:
            return f"r.{role}"
    if "m.auto" in codes:
        return "m.auto"
    return next((c for c in codes if c != "pass"), codes[0])


async def prompted_people(governor: OfflineGovernor, game_id: int) -> tuple[int, ...]:
    """The people (user ids) the engine's prompt names now, in seat order."""
    loaded = await governor.storage.games.load(game_id)
    if loaded.record.status is not GameStatus.ACTIVE:
        return ()
    prompt = GAME.prompt(loaded.state)
    assert prompt is not None
    users = (loaded.record.seat(s) for s in prompt.seats)
    return tuple(s.user_id for s in users if s is not None and s.user_id is not None)


async def click_code(
    world: World, governor: OfflineGovernor, user: ScriptedUser, game_id: int, code: str
) -> None:
    """``user`` clicks a game button for ``code`` drawn for the current version; returns when
    the move, the automatic moves after it and the notifications are done."""
    record = await governor.storage.games.get(game_id)
    channel = governor.get_channel(world.general.id)
    assert isinstance(channel, discord.TextChannel)
    view = discord.ui.View(timeout=None)
    view.add_item(GameButton(game_id, record.version, code, label="Play"))
    sent = await channel.send(f"{user.username}: {code}", view=view)
    message = await world.server.wait_for_message(world.general, lambda m: m.id == sent.id)
    handle = await user.click(message, label="Play")
    assert (await handle.response()).type == 6
    loop = asyncio.get_running_loop()
    guard = loop.time() + 60  # against a hang only: the loop ends as soon as the move is stored
    while (await governor.storage.games.get(game_id)).version <= record.version:
        if loop.time() > guard:
            replies = [f.text() for f in handle.followups]
            raise AssertionError(f"{code} by {user.username} was not applied: {replies}")
        await asyncio.sleep(0.01)
    async with governor.service.lock(game_id):
        pass  # the submission (automatic moves, table, notifications spawned) is complete
    await governor.wait_idle()


async def play_one(
    world: World,
    governor: OfflineGovernor,
    game_id: int,
    people: dict[int, ScriptedUser],
    *,
    click: bool = True,
) -> ScriptedUser:
    """The first person the prompt names makes the scripted move (by clicking, or straight
    through the service when ``click`` is false, to get on faster); returns who acted."""
    loaded = await governor.storage.games.load(game_id)
    prompt = GAME.prompt(loaded.state)
    assert prompt is not None
    seat = next(s for s in prompt.seats if (r := loaded.record.seat(s)) and r.user_id)
    user_id = loaded.record.seats[seat].user_id
    assert user_id is not None
    person = people[user_id]
    code = choose(loaded.state, seat)
    if click:
        await click_code(world, governor, person, game_id, code)
    else:
        await governor.service.submit(game_id, user_id, loaded.record.version, code)
        await governor.wait_idle()
    return person


def dm_text(game: GameRecord, world: World, table_id: int, what: str, lang: str = "en") -> str:
    link = f"https://discord.com/channels/{world.guild.id}/{world.general.id}/{table_id}"
    where = "#general, Offline Table"
    if lang == "es":
        return f"Es tu turno en la partida n.º {game.id} de Puerto Rico ({where}): {what}. {link}"
    return f"It is your turn in Puerto Rico game #{game.id} ({where}): {what}. {link}"


def new_dms(people: Sequence[ScriptedUser], seen: dict[int, int]) -> dict[int, list[str]]:
    """The turn line (the first: a recap of the others' moves may follow) of the DMs each
    person received since ``seen`` (updated)."""
    out: dict[int, list[str]] = {}
    for person in people:
        dms = person.dms
        if len(dms) > seen.get(person.id, 0):
            out[person.id] = [m.content.split("\n")[0] for m in dms[seen.get(person.id, 0):]]
        seen[person.id] = len(dms)
    return out


# --- tests --------------------------------------------------------------------------------------


async def test_the_dm_sequence_of_a_full_round(
    world: World, make_governor: Callable[..., OfflineGovernor]
) -> None:
    """Three people play round 1 by clicking.  At every step, exactly the people the engine's
    prompt newly names get one DM (game, place, link, what is asked; in their language); the
    one who just acted gets none even when the next decision is theirs again (the Mayor's
    privilege after choosing the Mayor, the first settler after choosing the Settler, the last
    settler who opens round 2 as governor)."""
    server = world.server
    carol = server.add_user("carol", guild=world.guild)
    dave = server.add_user("dave", guild=world.guild)
    people = [world.alice, carol, dave]
    by_id = {p.id: p for p in people}
    bot = make_governor(renderer=None, dm_interval=0)
    async with running_client(server, bot):
        await server.wait_for_command_sync(world.guild)
        await bot.storage.settings.update_user(dave.id, language="es")
        game, table = await seated_game(world, bot, people, "max_players:3")
        what = {"en": {"role": "choose a role", "build": "build", "settle": "take a plantation"},
                "es": {"role": "elegir un personaje", "build": "construir",
                       "settle": "tomar una plantación"}}

        def expected(user: ScriptedUser, kind: str) -> str:
            lang = "es" if user is dave else "en"
            return dm_text(game, world, table.id, what[lang][kind], lang)

        seen: dict[int, int] = {}
        assert new_dms(people, seen) == {world.alice.id: [expected(world.alice, "role")]}
        steps: list[tuple[str, dict[int, list[str]]]] = []
        while (view := GAME.view((await bot.storage.games.load(game.id)).state, None))[
            "round"
        ] == 1:
            before = set(await prompted_people(bot, game.id))
            kind = str(view["prompt"]["kind"])
            actor = await play_one(world, bot, game.id, by_id)
            after = await prompted_people(bot, game.id)
            got = new_dms(people, seen)
            # The oracle, from the engine's prompts alone: newly named, minus the actor.
            oracle = [u for u in after if u not in before and u != actor.id]
            assert sorted(got) == sorted(oracle), (kind, actor.username, got, oracle)
            assert all(len(texts) == 1 for texts in got.values())
            steps.append((f"{actor.username}:{kind}", got))
        await bot.wait_idle()

    alice, c, d = world.alice, carol, dave
    assert steps == [
        ("alice:role", {}),                                   # the Mayor's privilege: alice
        ("alice:mayor_privilege", {c.id: [expected(c, "role")]}),
        ("carol:role", {}),                                   # carol builds first
        ("carol:build", {d.id: [expected(d, "build")]}),
        ("dave:build", {alice.id: [expected(alice, "build")]}),
        ("alice:build", {d.id: [expected(d, "role")]}),
        ("dave:role", {}),                                    # dave settles first
        ("dave:settle", {alice.id: [expected(alice, "settle")]}),
        ("alice:settle", {c.id: [expected(c, "settle")]}),
        ("carol:settle", {}),                                 # carol is round 2's governor
    ]
    totals = {p.username: len(p.dms) for p in people}
    assert totals == {"alice": 3, "carol": 2, "dave": 2}
    # Since your last turn (issue #35): the others' moves, public lines, in the reader's
    # language; the first DM of the game has none (nothing happened yet).
    # (as sent: a DM whose turn is over since says so, :func:`test_notify_settings`)
    assert "\n" not in world.alice.dms[0].sent_content
    assert carol.dms[0].sent_content.split("\n")[1:3] == [
        "Since your last turn:", "- alice chose the Mayor."]
    assert dave.dms[0].sent_content.split("\n")[1] == "Desde tu último turno:"
    since = world.alice.dms[2].sent_content.split("\n")[2:]  # after her build: dave's moves
    assert since and all(line.startswith("- dave") for line in since), since
    server.assert_no_failed_interactions()


async def test_a_simultaneous_decision_tells_each_named_person_once(
    world: World, make_governor: Callable[..., OfflineGovernor]
) -> None:
    """Arranging colonists names several people at once: each gets one DM, and one of them
    arranging does not tell the others again (their decision is still the same)."""
    server = world.server
    carol = server.add_user("carol", guild=world.guild)
    dave = server.add_user("dave", guild=world.guild)
    people = [world.alice, carol, dave]
    by_id = {p.id: p for p in people}
    bot = make_governor(renderer=None, dm_interval=0)
    async with running_client(server, bot):
        await server.wait_for_command_sync(world.guild)
        bot.notifier.bucket = TokenBucket(1000, 1.0)  # no global DM budget in this test
        game, _ = await seated_game(world, bot, people, "max_players:3")
        seen: dict[int, int] = {}
        new_dms(people, seen)
        opened = answered = 0
        for _ in range(60):  # a few rounds, until a prompt names several people
            before = set(await prompted_people(bot, game.id))
            actor = await play_one(world, bot, game.id, by_id, click=len(before) >= 2)
            after = await prompted_people(bot, game.id)
            got = new_dms(people, seen)
            assert sorted(got) == sorted(u for u in after if u not in before and u != actor.id)
            if len(after) >= 2 and (before - {actor.id}).isdisjoint(after):
                opened += 1  # everyone named but the actor is told, once
                assert set(got) == set(after) - {actor.id}
                assert all(len(t) == 1 and ("place colonists" in t[0] or "goods to keep" in t[0])
                           for t in got.values())
            if len(before) >= 2:
                answered += 1  # one of them decided: the others are not told again
                assert set(got).isdisjoint(before)
            if answered >= 2:
                break
        assert opened >= 1 and answered >= 2, "no simultaneous decision was reached"
        await bot.wait_idle()
    server.assert_no_failed_interactions()


async def prompt_is(governor: OfflineGovernor, game_id: int, user: ScriptedUser, kind: str
                    ) -> bool:
    loaded = await governor.storage.games.load(game_id)
    prompt = GAME.prompt(loaded.state)
    return prompt is not None and prompt.kind == kind and (
        await prompted_people(governor, game_id)) == (user.id,)


async def test_a_hand_over_too_soon_after_a_dm_is_deferred_not_dropped(
    world: World, make_governor: Callable[..., OfflineGovernor]
) -> None:
    """At most one DM per person per interval: a hand-over that comes sooner is sent when the
    interval has passed; one the person already took meanwhile is left out.  The interval's
    seconds are the test's (:class:`ManualTime`): they pass when the test says, so "sooner" and
    "meanwhile" hold however slow the machine is."""
    server = world.server
    carol = server.add_user("carol", guild=world.guild)
    people = [world.alice, carol]
    by_id = {p.id: p for p in people}
    interval = 60.0
    seconds = ManualTime()
    bot = make_governor(renderer=None, dm_interval=interval, dm_clock=seconds,
                        dm_sleep=seconds.sleep)
    async with running_client(server, bot):
        await server.wait_for_command_sync(world.guild)
        game, _ = await seated_game(world, bot, people, "max_players:2")
        assert len(world.alice.dms) == 1  # choose a role
        # alice takes the Mayor (and its privilege), carol the Builder and builds: alice must
        # build, a moment after her first DM.
        while not await prompt_is(bot, game.id, world.alice, "build"):
            await play_one(world, bot, game.id, by_id)
        assert len(world.alice.dms) == 1
        assert bot.notifier.pending() == {world.alice.id: 1}
        seconds.advance(interval - 1)
        await bot.wait_idle()
        assert bot.notifier.pending() == {world.alice.id: 1}  # not before the interval ends
        seconds.advance(1)
        late = await server.wait_for_dm(world.alice, lambda m: "build" in m.content)
        assert late.content.startswith(f"It is your turn in Puerto Rico game #{game.id}")
        assert bot.notifier.pending() == {}

        # Later carol must sell soon after her last DM; she sells before the interval ends, so
        # that hand-over is never sent.  (Everyone's interval has passed first, so the DM before
        # it is sent at once.)
        seconds.advance(interval)
        while not await prompt_is(bot, game.id, carol, "sell"):
            await play_one(world, bot, game.id, by_id)
        assert bot.notifier.pending().get(carol.id, 0) >= 1
        await play_one(world, bot, game.id, by_id)  # carol sells
        deferred = list(bot.notifier._timers.values())
        seconds.advance(interval)
        await asyncio.wait_for(asyncio.gather(*deferred), 60)
        await bot.wait_idle()
        assert bot.notifier.pending() == {}
        assert not [m for m in carol.dms if "sell a good" in m.sent_content]
    server.assert_no_failed_interactions()


async def test_reminders_once_per_wait_and_one_per_day_across_games(
    world: World, make_governor: Callable[..., OfflineGovernor]
) -> None:
    """alice is awaited in two games: after 24 h one DM reminds her of both, and not again;
    bob (DMs closed) is reminded by a mention in his game's channel; the server's own reminder
    interval is honoured."""
    server = world.server
    second = server.add_text_channel(world.guild, "second")
    third = server.add_text_channel(world.guild, "third")
    async with clocked(world, make_governor) as (bot, clock):
        one, _ = await seated_game(world, bot, [world.alice, world.manager], "max_players:2")
        two, _ = await seated_game(world, bot, [world.alice, world.manager], "max_players:2",
                                   channel=second)
        three, _ = await seated_game(world, bot, [world.bob, world.manager], "max_players:2",
                                     channel=third)
        await bot.wait_idle()
        alice_dms = len(world.alice.dms)
        assert alice_dms == 2 and world.bob.dms == []

        clock.advance(hours=23, minutes=59)
        report = await bot.reminders.tick()
        assert report.nudged == {} and len(world.alice.dms) == alice_dms

        clock.advance(minutes=2)
        mark = server.mark()
        report = await bot.reminders.tick()
        await bot.wait_idle()
        assert report.nudged == {world.alice.id: [one.id, two.id], world.bob.id: [three.id]}
        assert report.mentioned == [world.bob.id]
        [reminder] = world.alice.dms[alice_dms:]
        lines = reminder.content.split("\n")
        assert lines[0] == "A reminder from Governor: your move is awaited."
        assert lines[1].startswith(
            f"Game #{one.id} (#general, Offline Table) has been waiting for you for 24 hours: "
            "choose a role. https://discord.com/channels/"
        )
        assert lines[2].startswith(f"Game #{two.id} (#second, Offline Table)")
        ping = await server.wait_for_message(third, lambda m: "a reminder" in m.text(), since=mark)
        assert ping.content == (
            f"<@{world.bob.id}>: a reminder, game #{three.id} has been waiting for you for 24 "
            "hours: choose a role."
        )

        clock.advance(hours=30)  # the same waits: never again
        assert (await bot.reminders.tick()).nudged == {}
        assert len(world.alice.dms) == alice_dms + 1

        # The server wants reminders after 2 hours: the manager, newly awaited, gets one then.
        await bot.storage.settings.update_guild(world.guild.id, reminder_hours=2)
        by_id = {world.alice.id: world.alice, world.manager.id: world.manager}
        while not await prompt_is(bot, one.id, world.manager, "build"):
            await play_one(world, bot, one.id, by_id)
        clock.advance(hours=1)
        assert world.manager.id not in (await bot.reminders.tick()).nudged
        clock.advance(hours=1, minutes=1)
        assert (await bot.reminders.tick()).nudged == {world.manager.id: [one.id]}
        await bot.wait_idle()
        assert world.manager.dms[-1].content.startswith("A reminder from Governor")
    server.assert_no_failed_interactions()
