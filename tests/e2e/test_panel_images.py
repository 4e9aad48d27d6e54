"""The private panel's image on Discord (issue #9): drawn around the decision (the panel
layout, not the whole table), and during the Mayor draft from the draft being arranged (it
showed every colonist in San Juan), redrawn when a menu changes the draft."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from bot.games.puerto_rico.arrange import decode
from bot.rendering import default_renderer
from engine.core import Event
from render.puerto_rico.panel import PANEL_WIDTH
from tests.e2e.conftest import OfflineGovernor, World
from tests.e2e.game_play import GAME, load, table_at
from tests.e2e.test_game_controls import drive, three
from tests.offline_discord import running_client


async def test_the_mayor_panel_image_shows_the_draft(
    world: World, make_governor: Callable[..., OfflineGovernor]
) -> None:
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
        record, (alice, _, _) = await three(world, bot)

        def arranging(state: Any) -> bool:
            prompt = GAME.prompt(state)
            return (prompt is not None and prompt.kind == "arrange" and 0 in prompt.seats
                    and GAME.view(state, 0)["players"][0]["san_juan"] >= 2)

        await drive(bot, record.id, arranging)
        table = await table_at(world, bot, record.id)
        panel = await (await alice.click(table, label="My turn")).original_message()
        first = drawn[panel.attachments[0].data]
        assert first["viewer"] == 0
        me = first["players"][0]
        colonists = sum(t["occupied"] for t in me["island"]) + sum(
            b["colonists"] for b in me["city"])
        _, state = await load(bot, record.id)
        in_san_juan = GAME.view(state, 0)["players"][0]["san_juan"]  # the engine's view: all
        assert colonists > 0 and colonists + me["san_juan"] == in_san_juan  # the suggestion
        confirm = panel.component(custom_id_prefix="mb:")["custom_id"]
        menu = next(s for s in panel.selects() if s["custom_id"].startswith("ma:"))
        chosen = [o["value"] for o in menu["options"] if o.get("default")]
        assert chosen
        handle = await alice.select(panel, chosen[1:], custom_id=menu["custom_id"])
        assert (await handle.response()).type == 6
        edited = await handle.original_message(
            lambda m: m.component(custom_id_prefix="mb:")["custom_id"] != confirm)
        draft = decode(edited.component(custom_id_prefix="mb:")["custom_id"].split(":")[-1])
        assert draft is not None
        second = drawn[edited.attachments[0].data]["players"][0]
        placed = sum(t["occupied"] for t in second["island"]) + sum(
            b["colonists"] for b in second["city"])
        assert placed == colonists - 1  # one colonist taken off the board in the menu
        assert second["san_juan"] == me["san_juan"] + 1
        await bot.wait_idle()
    for attachment in edited.attachments:
        assert attachment.data.startswith(b"\x89PNG")
    assert int.from_bytes(edited.attachments[0].data[16:20], "big") == PANEL_WIDTH
    server.assert_no_failed_interactions()
