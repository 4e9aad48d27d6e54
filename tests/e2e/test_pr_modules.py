"""Puerto Rico with Exp. 3 (the Buccaneer) and Exp. 4 (the Festival) on the offline Discord,
end to end: the creator turns both on in the lobby's menu of optional rules, three people
play a whole game to the score sheet by the table's role buttons, their private panels (the
Buccaneer's menus and buttons, the raided colonists' places) and the slash commands
(``/pr buccaneer``, ``/pr raid`` with autocomplete); the token holder's click on the
Buccaneer card is refused with the reason; the table, its image description, the story and
the log show both modules (rules spec §12, §13)."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Any

import pytest

from engine.core import get_game
from storage import GameRecord
from tests.e2e.conftest import OfflineGovernor, World
from tests.e2e.game_play import Players, begin, load, settled, table_at
from tests.e2e.test_bot_lobby import open_lobby, press
from tests.e2e.test_game_full import check_the_end
from tests.offline_discord import ScriptedUser, StoredMessage

GAME = get_game("puerto-rico")
MODULE_COMMANDS = {"bu": ("pr buccaneer", "option"), "raid": ("pr raid", "where")}


def gallery_text(message: StoredMessage) -> str:
    """The descriptions of a message's images (the board in words, for screen readers)."""
    return " ".join(
        str(item.get("description") or "")
        for comp in message.iter_components()
        for item in comp.get("items") or ()
    )


class ModulePlayers(Players):
    """The scripted people of game_play, who also make the Buccaneer's decisions (half by
    their panel, half by ``/pr buccaneer`` and ``/pr raid``) and try the Buccaneer card once
    while holding its token."""

    refused: str = ""

    async def make(self, user: ScriptedUser, code: str) -> None:
        record, state = await load(self.bot, self.game_id)
        head = code.split(".", 1)[0]
        if head == "r" and not self.refused:
            await self.try_the_token_rule(user, record, state)
        if head not in MODULE_COMMANDS:
            await super().make(user, code)
            return
        if self.rng.random() < 0.5:
            await self.module_command(user, code)
        else:
            await self.in_panel(user, code, record)
            self.count(f"panel {head}")
        await settled(self.world, self.bot, self.game_id, record.version)

    async def try_the_token_rule(self, user: ScriptedUser, record: GameRecord, state: Any) -> None:
        """§12: a player holding the token may not choose the Buccaneer; the click on its
        button is refused privately with the reason, and nothing changes."""
        seat = GAME.prompt(state).seats[0]  # type: ignore[union-attr]
        buccaneer = GAME.view(state, None).get("buccaneer")
        if not buccaneer or buccaneer["token"] != seat:
            return
        table = await table_at(self.world, self.bot, self.game_id)
        handle = await user.click(table, custom_id=f"g:{self.game_id}:{record.version}:r.buccaneer")
        self.refused = (await handle.wait_for_followup()).content
        assert (await self.bot.storage.games.get(self.game_id)).version == record.version

    async def module_command(self, user: ScriptedUser, code: str) -> None:
        command, option = MODULE_COMMANDS[code.split(".", 1)[0]]
        typed = await user.autocomplete(
            command, {option: ""}, focused=option, channel=self.world.general
        )
        offered = [c["value"] for c in await typed.choices()]
        _record, state = await load(self.bot, self.game_id)
        seat = GAME.prompt(state).seats[0]  # type: ignore[union-attr]
        legal = [GAME.encode_action(a) for a in GAME.legal_actions(state, seat)]
        assert offered == [c for c in legal if c.startswith(code.split(".", 1)[0] + ".")][:25]
        handle = await user.run(f"/{command} {option}:{code}", channel=self.world.general)
        reply = await handle.response()
        assert reply.type == 5 and reply.ephemeral
        self.count(f"/{command}")


def events(log: list[Any]) -> Iterator[dict[str, Any]]:
    for action in log:
        yield from action.events


async def test_a_whole_game_with_the_buccaneer_and_the_festival(
    world: World, governor: OfflineGovernor, caplog: pytest.LogCaptureFixture
) -> None:
    server = world.server
    carol = server.add_user("carol", guild=world.guild)
    people = [world.alice, world.bob, carol]
    lobby = await open_lobby(world, world.alice, "game:puerto-rico max_players:3 variant:buccaneer")
    assert "Rules: The Buccaneer (Exp. 3)" in lobby.text()
    menu = next(s for s in lobby.selects() if str(s["custom_id"]).startswith("lr:"))
    assert [(o["value"], o.get("default", False)) for o in menu["options"]] == [
        ("new_buildings", False),
        ("random_buildings", False),
        ("exclusive_forest_house", False),
        ("nobles", False),
        ("buccaneer", True),
        ("festival", False),
    ]
    mark = server.mark()
    handle = await world.alice.select(lobby, ["buccaneer", "festival"], custom_id=menu["custom_id"])
    assert (await handle.response()).type == 6
    lobby = await server.wait_for_message(
        world.general,
        lambda m: m.id == lobby.id and "The Festival (Exp. 4)" in m.text(),
        since=mark,
    )
    for person in people[1:]:

        def joined(m: StoredMessage, mention: str = f"<@{person.id}>") -> bool:
            return mention in m.text()

        _, lobby = await press(world, person, lobby, "Join", joined)
    mark = server.mark()
    await press(world, world.alice, lobby, "Start", lambda m: "has started" in m.text())
    await server.wait_for_message(world.general, lambda m: "round 1" in m.text(), since=mark)
    record = await governor.storage.games.find_by_channel(world.general.id)
    assert record is not None
    assert record.options["players"] == 3  # normalized by the engine at the start
    assert record.options["modules"] == ["buccaneer", "festival"]

    table = await table_at(world, governor, record.id)
    assert "Expansions: Buccaneer and Festival" in table.text()
    assert "Buccaneer" in gallery_text(table) and "Festival goals" in gallery_text(table)
    assert table.find_component(custom_id=f"g:{record.id}:{record.version}:r.buccaneer")

    players = ModulePlayers(
        world, governor, record.id, {p.id: p for p in people}, command_share=0.2
    )
    with caplog.at_level(logging.WARNING, logger="bot"):
        await players.play()
        await governor.wait_idle()
    await check_the_end(world, governor, record.id, ["alice", "bob", "carol"])
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]

    log = await governor.storage.games.actions(record.id)
    happened = list(events(log))
    chosen = [a for a in log if a.code == "r.buccaneer"]
    assert chosen and all(a.user_id is not None for a in chosen)  # people chose it
    options = [a for a in log if a.code.startswith("bu.")]
    assert options and all(a.user_id is not None for a in options)
    assert any(e["type"] == "BuccaneerTokenTaken" for e in happened)
    used = players.used
    assert used.get("/pr buccaneer", 0) + used.get("panel bu", 0) == len(options)
    assert used.get("/pr buccaneer", 0) >= 1 and used.get("panel bu", 0) >= 1, used
    assert "You hold the Buccaneer token" in players.refused

    # the story tells the Buccaneer's phases and the Festival's goals in words
    record = await governor.storage.games.get(record.id)
    thread = server.messages(record.messages["thread"], include_ephemeral=False)
    story = "\n".join(m.text() for m in thread)
    assert "Buccaneer (chosen by" in story and "takes the Buccaneer token" in story
    goals = [e for e in happened if e["type"] == "FestivalGoalAchieved"]
    assert goals and story.count("Festival: ") >= len(goals)  # the goals reached, told


@pytest.mark.parametrize("module", ["buccaneer", "festival"])
async def test_a_whole_game_with_one_module(
    world: World, governor: OfflineGovernor, caplog: pytest.LogCaptureFixture, module: str
) -> None:
    """Each module alone, chosen in the lobby's menu, to the score sheet: the table names it
    and only it, its board shows it, and its decisions or goals happen (rules spec §12, §13)."""
    carol = world.server.add_user("carol", guild=world.guild)
    people = [world.alice, world.bob, carol]
    names = {"buccaneer": ("Buccaneer", "The Buccaneer (Exp. 3)"),
             "festival": ("Festival", "The Festival (Exp. 4)")}
    name, rule = names[module]
    record = await begin(world, governor, people, [module], rule)
    assert record.options["modules"] == [module]
    table = await table_at(world, governor, record.id)
    assert f"Expansions: {name}\n" in table.text() + "\n"
    on_button = table.find_component(custom_id=f"g:{record.id}:{record.version}:r.buccaneer")
    assert (on_button is not None) == (module == "buccaneer")
    assert ("Festival goals" in gallery_text(table)) == (module == "festival")

    players = ModulePlayers(world, governor, record.id, {p.id: p for p in people},
                            command_share=0.2)
    with caplog.at_level(logging.WARNING, logger="bot"):
        await players.play()
        await governor.wait_idle()
    await check_the_end(world, governor, record.id, ["alice", "bob", "carol"])
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    happened = list(events(await governor.storage.games.actions(record.id)))
    buccaneer = any(e["type"] == "BuccaneerTokenTaken" for e in happened)
    festival = any(e["type"] == "FestivalGoalAchieved" for e in happened)
    assert (buccaneer, festival) == (module == "buccaneer", module == "festival")
