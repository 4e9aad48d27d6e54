"""A smoke game of every game the bot presents (``bot.games.PACKAGES``), so a game added later
gets one for free: ``/game new game:<game>`` at its smallest table, one person and AI seats;
the person plays every decision from the private panel (**My turn**), by its buttons, menus
and multi-selects — the heuristic's choice when the panel offers it, else the panel's own
suggestion — to the score sheet.  Each game's own end-to-end tests (whole games by commands,
restarts, undo, hidden information) are written beside it."""

from __future__ import annotations

import pytest

from bot.games import PACKAGES, presenter_for
from engine.core import get_game
from engine.policies import make_policy
from storage import GameStatus
from tests.e2e.conftest import OfflineGovernor, World
from tests.e2e.game_play import load, settled, table_at
from tests.e2e.test_bot_lobby import open_lobby, press
from tests.offline_discord import InteractionHandle, ScriptedUser, StoredMessage

MAX_MOVES = 1500


async def open_panel(world: World, governor: OfflineGovernor, game_id: int, user: ScriptedUser
                     ) -> StoredMessage:
    table = await table_at(world, governor, game_id)
    handle = await user.click(table, custom_id_prefix=f"t:{game_id}:", label="My turn")
    return await handle.original_message()


async def move(user: ScriptedUser, panel: StoredMessage, game: str, game_id: int, version: int,
               code: str) -> InteractionHandle:
    """Make ``code`` with the panel's control for it; when the panel has none (a decision it
    draws its own way), its first suggestion: a preselected multi-select, else its first move
    button."""
    presenter = presenter_for(game)
    button = f"g:{game_id}:{version}:{code}"
    if panel.find_component(custom_id=button) is not None:
        return await user.click(panel, custom_id=button)
    menus = [s for s in panel.selects() if not s.get("disabled")]
    for menu in menus:
        values = [str(o["value"]) for o in menu.get("options", ())]
        chosen = presenter.decompose(str(menu["custom_id"]).split(":")[3], code, values)
        if chosen is not None:
            return await user.select(panel, chosen, custom_id=menu["custom_id"])
    for menu in menus:
        defaults = [str(o["value"]) for o in menu.get("options", ()) if o.get("default")]
        if menu.get("min_values", 1) > 1 and len(defaults) == menu["min_values"]:
            return await user.select(panel, defaults, custom_id=menu["custom_id"])
    moves = [b for b in panel.buttons() if str(b.get("custom_id", "")).startswith(
        f"g:{game_id}:{version}:") and not b.get("disabled")]
    assert moves, (code, panel.text())
    return await user.click(panel, custom_id=moves[0]["custom_id"])


@pytest.mark.parametrize("game", list(PACKAGES))
async def test_a_smoke_game_of_every_game(world: World, governor: OfflineGovernor, game: str
                                          ) -> None:
    low, _ = presenter_for(game).players
    lobby = await open_lobby(world, world.alice, f"game:{game} max_players:{low} "
                                                 f"ai_seats:{low - 1}")
    await press(world, world.alice, lobby, "Start", lambda m: "has started" in m.text())
    found = await governor.storage.games.find_by_channel(world.general.id)
    assert found is not None and found.game == game
    game_id = found.id
    mine = found.seat_of(world.alice.id)
    assert mine is not None
    made = 0
    while True:
        record, state = await load(governor, game_id)
        if record.status is not GameStatus.ACTIVE:
            break
        engine = get_game(game)
        prompt = engine.prompt(state)
        assert prompt is not None
        if mine.seat not in prompt.seats:
            await settled(world, governor, game_id, record.version)  # the AI seats move
            continue
        policy = make_policy("heuristic", game, record.version)
        code = engine.encode_action(policy.choose(engine, state, mine.seat,
                                                  engine.legal_actions(state, mine.seat)))
        panel = await open_panel(world, governor, game_id, world.alice)
        handle = await move(world.alice, panel, game, game_id, record.version, code)
        assert (await handle.response()).type == 6
        await settled(world, governor, game_id, record.version)
        made += 1
        assert made < MAX_MOVES
    await governor.wait_idle()
    record = await governor.storage.games.get(game_id)
    assert record.status is GameStatus.FINISHED and record.outcome is not None and made > 10
    assert (await governor.storage.verify([game_id])).ok
    final = await world.server.wait_for_message(
        world.general, lambda m: "final scores" in m.text() and any(
            a.filename.endswith("-scores.png") for a in m.attachments))
    assert final.attachments[0].is_png
    log = await governor.storage.games.actions(game_id)
    assert any(a.user_id == world.alice.id for a in log)
    assert all(a.user_id is None for a in log if a.seat != mine.seat)
