"""Paces and time banks end to end (issue #35): ``/game new pace:`` through the offline Discord,
a refused pace saying why, the lobby naming the pace, the table, ``/game status`` and the
private panel showing the banks, a move spending its wait and adding the increment."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

from storage.timebank import DAY_MS, HOUR_MS, PRESETS
from tests.e2e.conftest import OfflineGovernor, World
from tests.e2e.game_play import table_at
from tests.e2e.test_game_notify import click_code, clocked, prompted_people, seated_game


def deadline(moment_ms: float) -> str:
    return f"<t:{int(moment_ms // 1000)}:R>"


async def test_a_pace_is_chosen_shown_and_spent(
    world: World, make_governor: Callable[..., OfflineGovernor]
) -> None:
    server = world.server
    async with clocked(world, make_governor) as (bot, clock):

        # a preset with custom figures: refused, privately, saying why; no lobby
        handle = await world.alice.run("/game new pace:fast bank_days:2", channel=world.general)
        refusal = await handle.wait_for_followup()
        assert refusal.ephemeral and "the fast pace has its own" in refusal.content
        assert await bot.storage.games.find_by_channel(world.general.id) is None
        assert server.messages(world.general, include_ephemeral=False) == []

        game, _ = await seated_game(world, bot, [world.alice, world.bob],
                                    "max_players:2 pace:fast")
        assert game.pace == PRESETS["fast"]
        lobby = server.get_message(game.messages["lobby"])
        assert lobby is not None
        shown = [str(r.get("embeds")) for r in lobby.revisions]  # the lobby before the start
        assert any("Pace: fast: 1d to start, +8h a move, at most 2d" in s for s in shown)

        start = clock.now.timestamp() * 1000
        assert await prompted_people(bot, game.id) == (world.alice.id,)
        table = await table_at(world, bot, game.id)
        assert (f"⏳ Time banks (fast): alice: runs out {deadline(start + DAY_MS)} · bob 1d"
                in table.text())
        status = await world.bob.run("/game status", channel=world.general)
        assert f"alice: runs out {deadline(start + DAY_MS)}" in (
            await status.wait_for_followup()).content

        handle = await world.alice.click(table, label="My turn")
        panel = await handle.original_message()
        assert (f"⏳ Your time bank runs out {deadline(start + DAY_MS)} unless you play"
                in panel.text())

        clock.advance(hours=5)
        await click_code(world, bot, world.alice, game.id, "r.builder")
        record = await bot.storage.games.get(game.id)
        alice = record.seat_of(world.alice.id)
        assert alice is not None and alice.bank_ms == DAY_MS - 5 * HOUR_MS + 8 * HOUR_MS
        assert alice.waiting_since == clock.now  # the Builder's chooser builds first: anew
        moment = alice.waiting_since + timedelta(milliseconds=alice.bank_ms)
        table = await table_at(world, bot, game.id)
        assert f"alice: runs out {deadline(moment.timestamp() * 1000)} · bob 1d" in table.text()

        # her time to move (issue #35): in /game stats, and in a new lobby beside her name
        stats = await world.bob.run(f"/game stats player:{world.alice.id}", channel=world.general)
        assert ("Time to move: 5 hours, the median of 1 move · time banks run out: 0"
                in (await stats.wait_for_followup()).content)
        other = server.add_channel(world.guild, "other")
        handle = await world.alice.run("/game new", channel=other)
        await handle.wait_for_followup()
        lobby = await server.wait_for_message(
            other, lambda m: m.find_component(custom_id_prefix="l:") is not None)
        assert f"1. <@{world.alice.id}> · 5h a move" in str(lobby.embeds[0])
        await bot.wait_idle()
    server.assert_no_failed_interactions()
