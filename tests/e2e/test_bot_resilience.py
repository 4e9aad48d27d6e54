"""Governor under the conditions of real life: restarts, closed DMs, rate limits, failures,
AI seats, outdated and foreign clicks on game buttons."""

from __future__ import annotations

import logging
import random
from collections.abc import Callable
from typing import Any

import discord
import pytest

from bot.components import GameSelect
from bot.notify import TurnNotice
from storage import GameStatus
from tests.e2e.conftest import OfflineGovernor, World
from tests.e2e.test_bot_lobby import open_lobby, press, seats_of
from tests.offline_discord import running_client


class Reverse(random.Random):
    """Seats the lobby in reverse order (the AI seats added last play first)."""

    def shuffle(self, x: Any) -> None:
        x.reverse()


async def start_game(world: World, governor: OfflineGovernor, creator=None, args: str = ""):
    creator = creator or world.alice
    lobby = await open_lobby(world, creator, args)
    mark = world.server.mark()
    await press(world, creator, lobby, "Start", lambda m: "has started" in m.text())
    table = await world.server.wait_for_message(
        world.general, lambda m: "round 1" in m.text(), since=mark
    )
    game = await governor.storage.games.find_by_channel(world.general.id)
    assert game is not None and game.status is GameStatus.ACTIVE
    return game, table


async def test_old_buttons_work_after_a_restart(
    world: World, make_governor: Callable[..., OfflineGovernor]
) -> None:
    """Two bots on the same database one after the other: the lobby posted by the first still
    works with the second (the buttons carry everything; nothing was kept in memory)."""
    server = world.server
    first = make_governor()
    async with running_client(server, first):
        lobby = await open_lobby(world, world.alice)
    assert first.is_closed()
    second = make_governor()
    async with running_client(server, second):
        _, lobby = await press(world, world.bob, lobby, "Join", lambda m: "2 of 5" in m.text())
        assert f"<@{world.bob.id}>" in seats_of(lobby)
        mark = server.mark()
        await press(world, world.alice, lobby, "Start", lambda m: "has started" in m.text())
        await server.wait_for_message(world.general, lambda m: "round 1" in m.text(), since=mark)
        await second.wait_idle()
    assert len(server.gateway_events("identify")) == 2
    server.assert_no_failed_interactions()


async def test_closed_dms_fall_back_to_a_mention_and_are_remembered(
    world: World, governor: OfflineGovernor
) -> None:
    """Bob refuses DMs (403/50007): he is mentioned in the game channel instead, and the bot
    stops trying to DM him until he turns notifications on again."""
    server = world.server
    game, _ = await start_game(world, governor, world.bob, "ai_seats:1")
    ping = await server.wait_for_message(world.general, lambda m: "it is your turn" in m.text())
    assert ping.content.startswith(f"<@{world.bob.id}>: it is your turn in game #{game.id}")
    assert (await governor.storage.settings.user(world.bob.id)).dm_blocked
    assert world.bob.dms == []

    notice = TurnNotice(game.id, world.general.id, "en", {"en": "choose a role"}, None)
    dm_opens = len(server.requests_to("POST", "/users/@me/channels"))
    report = await governor.notifier.turn(notice, [world.bob.id])
    assert report.mentioned == [world.bob.id] and report.sent == []
    assert len(server.requests_to("POST", "/users/@me/channels")) == dm_opens
    # one standing turn mention for bob: the new one replaced the first
    pings = [m for m in server.messages(world.general) if "it is your turn" in m.text()]
    assert [m.id for m in pings] != [] and ping.id not in [m.id for m in pings]
    assert len(pings) == 1 and pings[0].content.startswith(f"<@{world.bob.id}>")

    handle = await world.bob.run("/game notify enabled:True", channel=world.general)
    assert "direct message" in (await handle.wait_for_followup()).content
    assert not (await governor.storage.settings.user(world.bob.id)).dm_blocked


async def test_opted_out_player_gets_no_dm(world: World, governor: OfflineGovernor) -> None:
    handle = await world.alice.run("/game notify enabled:False", channel=world.general)
    assert "not send you direct messages" in (await handle.wait_for_followup()).content
    await start_game(world, governor, world.alice, "ai_seats:1")
    await governor.wait_idle()
    assert world.alice.dms == []


async def test_a_429_is_survived(world: World, governor: OfflineGovernor) -> None:
    """Discord answers the lobby post with 429 twice: discord.py waits and retries, the lobby
    and then the table are posted, and every interaction is still acknowledged in time."""
    server = world.server
    route = "/channels/{channel_id}/messages"
    posts = server.inject_rate_limit("POST", route, retry_after=0.3, count=2)
    _, table = await start_game(world, governor, world.alice, "ai_seats:1")
    assert len(posts.hits) == 2
    posted_here = f"/channels/{world.general.id}/messages"
    # (the turn DM goes to the same route template, to the DM channel, at its own pace)
    assert [r.status for r in server.requests_to("POST", posted_here)] == [429, 429, 200, 200]
    assert table.attachments


async def test_no_traceback_reaches_a_user(
    world: World,
    governor: OfflineGovernor,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """An unexpected exception becomes one short, localized apology; the traceback goes to the
    log only."""
    lobby = await open_lobby(world, world.alice)

    async def broken(game_id: int, user_id: int) -> Any:
        raise RuntimeError("kaboom: an internal detail")

    monkeypatch.setattr(governor.service, "join", broken)
    with caplog.at_level(logging.ERROR):
        handle, _ = await press(world, world.bob, lobby, "Join")
        apology = await handle.wait_for_followup()
    assert apology.ephemeral
    assert apology.content.startswith("Something went wrong on my side and nothing was changed.")
    spanish = world.server.add_user("lucia", guild=world.guild, locale="es-419")
    handle, _ = await press(world, spanish, lobby, "Join")
    assert (await handle.wait_for_followup()).content.startswith("Algo falló por mi parte")
    for message in world.server.all_messages():
        assert "kaboom" not in message.text() and "Traceback" not in message.text()
    failures = [r for r in caplog.records if r.exc_info and "kaboom" in str(r.exc_info[1])]
    assert failures and failures[0].levelno == logging.ERROR


async def test_render_failure_falls_back_to_a_text_table(
    world: World, make_governor: Callable[..., OfflineGovernor]
) -> None:
    def broken(*args: Any) -> bytes:
        raise ValueError("no fonts today")

    bot = make_governor(renderer=broken)
    async with running_client(world.server, bot):
        await world.server.wait_for_command_sync(world.guild)
        _, table = await start_game(world, bot, world.alice, "ai_seats:2")
        await bot.wait_idle()
    assert not table.attachments
    text = table.text()
    for part in ("Roles", "Cargo ships", "Trading house", "Plantations on offer", "doubloons"):
        assert part in text
    world.server.assert_no_failed_interactions()


async def test_ai_seats_play_until_a_person_must_decide(
    world: World, make_governor: Callable[..., OfflineGovernor]
) -> None:
    """With the AI seats first at the table, the start runs their turns (each a logged action
    of its own) and stops at alice's first decision."""
    bot = make_governor(rng=Reverse(3))
    async with running_client(world.server, bot):
        await world.server.wait_for_command_sync(world.guild)
        game, table = await start_game(world, bot, world.alice, "ai_seats:2 ai_level:random")
        assert [s.ai_policy for s in game.seats] == ["random", "random", None]
        actions = await bot.storage.games.actions(game.id)
        assert actions and {a.seat for a in actions} <= {0, 1}
        assert all(a.user_id is None for a in actions)
        assert game.to_act == (2,)
        assert "Waiting for alice" in table.text()
        await bot.wait_idle()
    world.server.assert_no_failed_interactions()


async def test_game_buttons_submit_refuse_strangers_and_outdated_clicks(
    world: World, governor: OfflineGovernor
) -> None:
    """A g: button (the table's role buttons) goes through GameService.submit: a stranger is
    refused, the first click is applied, the same click again is outdated and answered with one
    short line."""
    server = world.server
    game, table = await start_game(world, governor, world.alice, "ai_seats:1")
    custom_id = f"g:{game.id}:{game.version}:r.settler"

    stranger = await world.bob.click(table, custom_id=custom_id)
    refusal = await stranger.wait_for_followup()
    assert refusal.ephemeral and refusal.content == f"You are not playing in game #{game.id}."

    first = await world.alice.click(table, custom_id=custom_id)
    second = await world.alice.click(table, custom_id=custom_id)

    def refusals() -> list[Any] | None:
        # the first click may also bring the chooser's panel (a followup without text): only
        # the outdated click's one short line is looked for, whichever comes first
        found = [m for m in (*first.followups, *second.followups)
                 if "has moved on" in m.text()]
        return found or None

    outdated = await server.wait_for(refusals)
    await governor.wait_idle()
    assert len(refusals() or ()) == 1 and not outdated[0].embeds
    assert all(not m.content or "has moved on" in m.text()
               for m in (*first.followups, *second.followups))
    actions = await governor.storage.games.actions(game.id)
    assert [(a.seat, a.code, a.user_id) for a in actions][:1] == [(0, "r.settler", world.alice.id)]
    assert sum(a.code == "r.settler" for a in actions) == 1
    await server.wait_for(
        lambda: "Settler phase" in (server.get_message(table.id) or table).text() or None
    )


async def test_game_select_is_refused_outside_a_private_panel(
    world: World, governor: OfflineGovernor
) -> None:
    """A gs: select (a panel's choice among action codes) on a public message is refused with
    a short private line and changes nothing (the panels' menus are played in game_play)."""
    game, _ = await start_game(world, governor, world.alice, "ai_seats:1")
    channel = governor.get_channel(world.general.id)
    assert isinstance(channel, discord.TextChannel)
    options = [discord.SelectOption(label=r.title(), value=f"r.{r}") for r in ("mayor", "trader")]
    view = discord.ui.View(timeout=None)
    view.add_item(GameSelect(game.id, game.version, "role", options, placeholder="Pick a role"))
    sent = await channel.send(view=view)
    message = await world.server.wait_for_message(world.general, lambda m: m.id == sent.id)
    pick = await world.alice.select(message, ["Trader"])
    assert (await pick.response()).type == 6
    refusal = await pick.wait_for_followup()
    assert refusal.ephemeral and "does not belong on this message" in refusal.content
    assert await governor.storage.games.actions(game.id) == []
