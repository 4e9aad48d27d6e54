"""What players see besides the controls: hidden VP chips never in the channel, the board on
request, whose turn and since when, the log, one's games across servers, the rules."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from bot.rendering import default_renderer
from engine.core import Event
from tests.e2e.conftest import OfflineGovernor, World
from tests.e2e.game_play import GAME, Players, load, start
from tests.offline_discord import running_client

COUNTED_VP = re.compile(r"\d+\s*VP chips|VP chips[:\s]+\d")


async def test_hidden_vp_chips_never_reach_the_channel(
    world: World, make_governor: Callable[..., OfflineGovernor]
) -> None:
    """Three people play by clicks and commands past two Captain phases.  Every image posted
    in the channel was drawn from the public view (no player's VP chips in it), no channel text
    counts anyone's chips, and each player's private panel shows their own."""
    real = default_renderer()
    assert real is not None
    drawn: dict[bytes, Mapping[str, Any]] = {}

    def recording(view: Mapping[str, Any], events: Sequence[Event], names: Mapping[int, str],
                  labels: Mapping[str, str]) -> bytes:
        png = real(view, events, names, labels)
        drawn[png] = view
        return png

    server = world.server
    bot = make_governor(renderer=recording)
    async with running_client(server, bot):
        await server.wait_for_command_sync(world.guild)
        carol = server.add_user("carol", guild=world.guild)
        people = [world.alice, world.bob, carol]
        record = await start(world, bot, world.alice, people[1:], "max_players:3")
        players = Players(world, bot, record.id, {p.id: p for p in people})
        captains = 0
        while captains < 2:
            await players.play(max_moves=1)
            log = await bot.storage.games.actions(record.id)
            captains = sum(e["type"] == "PhaseEnded" and e["data"].get("role") == "captain"
                           for a in log for e in a.events)
        _, state = await load(bot, record.id)
        chips = {seat: GAME.view(state, seat)["players"][seat]["vp"] for seat in range(3)}
        assert any(chips.values())
        panel = await (await world.alice.click(
            record.messages["table"], label="My turn")).original_message()
        assert f"{chips[0]} VP chips (only you see them)" in panel.text() and panel.ephemeral
        await bot.wait_idle()
        thread_id = (await bot.storage.games.get(record.id)).messages["thread"]

    places = [world.general, server.channels[thread_id]]  # the story's thread
    public = [m for place in places for m in server.messages(place, include_ephemeral=False)]
    images = [a for m in public for a in m.attachments]
    assert len(images) > 5
    for attachment in images:
        view = drawn[attachment.data]
        assert view["viewer"] is None
        assert all(p["vp"] is None for p in view["players"])
    for message in public:
        assert not COUNTED_VP.search(message.text()), message.text()
        for comp in message.iter_components():
            for item in comp.get("items", ()):
                assert not COUNTED_VP.search(str(item.get("description", "")))
    server.assert_no_failed_interactions()


async def test_board_status_log_games_and_rules(world: World, governor: OfflineGovernor
                                                ) -> None:
    server = world.server
    record = await start(world, governor, world.alice, [world.bob], "max_players:2")
    players = Players(world, governor, record.id, {world.alice.id: world.alice,
                                                   world.bob.id: world.bob}, command_share=0)
    await players.play(max_moves=3)
    record = await governor.storage.games.get(record.id)
    waiting = next(s for s in record.seats if s.waiting_since is not None)
    name = "alice" if waiting.user_id == world.alice.id else "bob"

    status = await (await world.bob.run("/game status", channel=world.general)).wait_for_followup()
    assert status.ephemeral
    assert f"· {name}: waiting <t:{int(waiting.waiting_since.timestamp())}:R>" in status.text()  # type: ignore[union-attr]
    assert "Last move <t:" in status.text()

    log = await (await world.bob.run("/game log show lines:3", channel=world.general)
                 ).wait_for_followup()
    lines = log.content.splitlines()
    assert lines[0] == f"**Game #{record.id}: the log**" and 1 <= len(lines) - 1 <= 3

    mine = await (await world.alice.run("/game games", channel=world.general)).wait_for_followup()
    table_link = (f"https://discord.com/channels/{world.guild.id}/{world.general.id}/"
                  f"{record.messages['table']}")
    assert f"#{record.id} Puerto Rico · Offline Table · <#{world.general.id}>" in mine.content
    assert table_link in mine.content
    expected = "**waiting on you**" if name == "alice" else "waiting on others"
    assert expected in mine.content

    rules = await (await world.bob.run("/game rules topic:harbor", channel=world.general)
                   ).wait_for_followup()
    assert rules.content.startswith("**Harbor** · cost 8 · 3 VP")
    typed = await world.bob.autocomplete("game rules", {"topic": "ware"}, focused="topic",
                                         channel=world.general)
    assert {c["value"] for c in await typed.choices()} == {"puerto-rico:small_warehouse",
        "puerto-rico:large_warehouse", "puerto-rico-1897:small_warehouse",
        "puerto-rico-1897:large_warehouse"}
    lucia = server.add_user("lucia", guild=world.guild, locale="es-ES")
    overview = await (await lucia.run("/game rules", channel=world.general)).wait_for_followup()
    assert overview.content.startswith("**Puerto Rico en un minuto.**")

    board = await world.bob.run("/game board", channel=world.general)
    posted = await board.original_message()
    assert not posted.ephemeral and posted.attachments and posted.attachments[0].is_png
    assert f"game #{record.id}" in posted.text()
