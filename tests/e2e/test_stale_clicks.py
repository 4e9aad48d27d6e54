"""A click on a control drawn for an older version: one answer for every game.

The answer says that the game moved on and that nothing was done; it never words what happened
since as if it were the clicked move (an action's events carry more than its own move: in 1897
the Puertomas' moves ride on the person's action, in San Juan a simultaneous step reveals
everyone's choice in its last action).  Where the clicker has a decision now, the fresh panel
comes with it: the old panel is redrawn in place; under the table, a **My turn** button.

Each game is set up through the service (what matters here is the click), with a seat that
acts inside the person's actions where the game has one (1897's Puertomas, classic's AI)."""

from __future__ import annotations

import pytest

from bot.seats import Actor
from engine.core import get_game
from engine.policies import make_policy
from storage import GameRecord
from tests.e2e.conftest import OfflineGovernor, World
from tests.e2e.game_play import settled, table_at
from tests.offline_discord import ScriptedUser, StoredMessage

MOVED_ON = "Game #{game} has moved on since this was drawn; nothing was done."
SETUPS = {  # game -> (people, the extra seats' kind, how many)
    "puerto-rico": (2, "heuristic", 1),
    "puerto-rico-1897": (1, "puertoma", 2),
    "san-juan": (2, "heuristic", 1),
}


async def setup(world: World, governor: OfflineGovernor, game: str) -> tuple[
        GameRecord, list[ScriptedUser]]:
    people_count, kind, extra = SETUPS[game]
    people = [world.alice, world.server.add_user("carol", guild=world.guild)][:people_count]
    service = governor.service
    record = await service.create_lobby(
        creator_id=people[0].id, guild_id=world.guild.id, channel_id=world.general.id,
        language="en", game=game, max_players=people_count + extra)
    for person in people[1:]:
        record = await service.join(record.id, person.id)
    for _ in range(extra):
        record = await service.add_ai(record.id, Actor(people[0].id), record.version, kind)
    await service.start(record.id, Actor(people[0].id), record.version)
    await table_at(world, governor, record.id)
    return await governor.storage.games.get(record.id), people


def first_button(panel: StoredMessage, game_id: int, version: int) -> str:
    prefix = f"g:{game_id}:{version}:"
    return next(str(b["custom_id"]) for b in panel.buttons()
                if str(b.get("custom_id", "")).startswith(prefix) and not b.get("disabled"))


async def until_asked(governor: OfflineGovernor, game: str, game_id: int, seat: int) -> None:
    """The other people play their heuristic choices through the service until ``seat`` is
    asked again."""
    rules = get_game(game)
    for _ in range(100):
        loaded = await governor.storage.games.load(game_id)
        prompt = rules.prompt(loaded.state)
        assert prompt is not None
        if seat in prompt.seats:
            return
        other = next(s for s in prompt.seats if loaded.record.seat(s).user_id)  # type: ignore[union-attr]
        legal = rules.legal_actions(loaded.state, other)
        action = make_policy("heuristic", game, loaded.record.version).choose(
            rules, loaded.state, other, legal)
        await governor.service.submit(game_id, loaded.record.seat(other).user_id or 0,  # type: ignore[union-attr]
                                      loaded.record.version, rules.encode_action(action))
    raise AssertionError("the seat was not asked again")


@pytest.mark.parametrize("game", list(SETUPS))
async def test_an_old_panels_button_says_the_game_moved_on(
    world: World, governor: OfflineGovernor, game: str
) -> None:
    """Two panels drawn for one version: a move in the first, then the same button in the
    second, which is redrawn as the game stands with the one line.  Twice: the person's
    second decision is where an action of 1897 carries the Puertomas' moves (the old answer
    was "Already done: Puertoma 2 placed its workers...")."""
    record, people = await setup(world, governor, game)
    seat = record.to_act[0]
    user = next(p for p in people if record.seat(seat).user_id == p.id)  # type: ignore[union-attr]
    for _ in range(2):
        await until_asked(governor, game, record.id, seat)
        record = await governor.storage.games.get(record.id)
        table = await table_at(world, governor, record.id)
        first = await (await user.click(table, label="My turn")).original_message()
        second = await (await user.click(table, label="My turn")).original_message()
        custom_id = first_button(first, record.id, record.version)
        assert second.find_component(custom_id=custom_id) is not None
        await user.click(first, custom_id=custom_id)
        moved = await settled(world, governor, record.id, record.version)
        handle = await user.click(second, custom_id=custom_id)
        assert (await handle.response()).type == 6
        redrawn = await handle.original_message(lambda m: "moved on" in m.text())
        text = redrawn.text()
        assert MOVED_ON.format(game=record.id) in text
        assert "Already done" not in text, text
        now = await governor.storage.games.get(record.id)
        assert now.version == moved.version  # nothing was done
        prompt = get_game(game).prompt((await governor.storage.games.load(record.id)).state)
        if prompt is not None and seat in prompt.seats:  # the fresh panel: today's controls
            assert any(str(c.get("custom_id", "")).startswith(f"g{s}:{record.id}:{now.version}:")
                       for c in redrawn.iter_components() for s in ("", "s"))
    world.server.assert_no_failed_interactions()


@pytest.mark.parametrize("game", list(SETUPS))
async def test_a_double_click_on_the_table_says_the_game_moved_on(
    world: World, governor: OfflineGovernor, game: str
) -> None:
    """A role button clicked twice before the table is redrawn: one move, and the second
    click's private line says the game moved on, with My turn when the clicker decides next."""
    record, people = await setup(world, governor, game)
    seat = record.to_act[0]
    user = next(p for p in people if record.seat(seat).user_id == p.id)  # type: ignore[union-attr]
    table = await table_at(world, governor, record.id)
    custom_id = first_button(table, record.id, record.version)
    first = await user.click(table, custom_id=custom_id)
    second = await user.click(table, custom_id=custom_id)
    line = MOVED_ON.format(game=record.id)

    def answer() -> StoredMessage | None:
        return next((m for m in (*first.followups, *second.followups) if line in m.text()),
                    None)

    late = await world.server.wait_for(answer, what="the outdated click's line")
    await governor.wait_idle()
    assert late.ephemeral and late.text() == line
    assert not any("Already done" in m.text() for m in (*first.followups, *second.followups))
    log = await governor.storage.games.actions(record.id)
    assert sum(1 for a in log if a.user_id == user.id) == 1
    now = await governor.storage.games.load(record.id)
    prompt = get_game(game).prompt(now.state)
    if prompt is not None and seat in prompt.seats:
        my_turn = late.find_component(custom_id=f"t:{record.id}:{now.record.version}:panel")
        assert my_turn is not None and my_turn["label"] == "My turn"
        panel = await (await user.click(late, custom_id=my_turn["custom_id"])).original_message(
            lambda m: "Your turn" in m.text())
        assert panel.ephemeral
    world.server.assert_no_failed_interactions()
