"""Puerto Rico with Exp. 1 (the New Buildings) on the offline Discord, end to end: the creator
turns it on in the lobby's menu of optional rules, three people draft the violet buildings from
their private panels (a menu per cost) and with ``/pr draft``, then play the whole game to the
score sheet by the table's role buttons, their panels and the slash commands; they lay forests
(the settling panel's Forest menu, ``/pr settle``), build with the Black market (its building
menu, then the payment menu; ``/pr build``), sell to the Trading post, ship with the Small wharf
(its multi-select of barrels; ``/pr ship``) and move guests (``/pr guest``, the panel's menu)
whenever they can, the engine's heuristic choosing the rest.  The table, its image
description, the story and the log show the draft, the forests and the new buildings (rules
spec §10)."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Any

import pytest

from bot.games import presenter_for
from engine.core import get_game
from storage import GameRecord
from tests.e2e.conftest import OfflineGovernor, World
from tests.e2e.game_play import Players, black_market, load, settled, table_at
from tests.e2e.test_bot_lobby import open_lobby, press
from tests.e2e.test_game_full import check_the_end
from tests.offline_discord import ScriptedUser, StoredMessage

GAME = get_game("puerto-rico")
PR = presenter_for("puerto-rico")
EXP1_COMMANDS = {  # slash command and option for each kind of Exp. 1 code
    "d": ("pr draft", "building"), "f": ("pr settle", "tile"), "bm": ("pr build", "building"),
    "tp": ("pr sell", "good"), "sw": ("pr ship", "cargo"), "g": ("pr guest", "where"),
}
WANTED = ("forest_house", "black_market", "guest_house", "trading_post", "small_wharf",
          "church", "storehouse", "library", "aqueduct", "lighthouse", "union_hall",
          "specialty_factory", "cloister", "statue")
"""The buildings the people draft and build first (Exp. 1's), so the game shows them."""


def gallery_text(message: StoredMessage) -> str:
    return " ".join(str(item.get("description") or "") for comp in message.iter_components()
                    for item in comp.get("items") or ())


class NewBuildingPlayers(Players):
    """The scripted people of game_play, who prefer Exp. 1's buildings in the draft and in the
    Builder phase and use every Exp. 1 choice when they have one (forests, the Black market,
    the Trading post, the Small wharf, guests), half by their panel, half by commands."""

    after_draft: str = ""
    """The table's text right after the last pick of the draft."""

    def prefer(self, legal: list[str], code: str) -> str:
        code = super().prefer(legal, code)
        rng = self.rng
        for name in WANTED:
            for head in ("d.", "b."):
                if f"{head}{name}" in legal and (head == "d." or rng.random() < 0.7):
                    return f"{head}{name}"
        for prefix, share in (("f.", 0.8), ("o.forest", 0.6), ("bm.", 0.5), ("tp.", 0.6),
                              ("sw.", 0.6), ("g.", 0.5)):
            options = [c for c in legal if c.startswith(prefix) and c != "sw.none"]
            if options and rng.random() < share:
                return rng.choice(options)
        return code

    async def make(self, user: ScriptedUser, code: str) -> None:
        head = code.split(".", 1)[0]
        if head not in EXP1_COMMANDS:
            await super().make(user, code)
            return
        record, _ = await load(self.bot, self.game_id)
        if self.rng.random() < 0.35:
            await self.exp1_command(user, code)
        else:
            await self.exp1_panel(user, code, record)
        await settled(self.world, self.bot, self.game_id, record.version)
        _, state = await load(self.bot, self.game_id)
        if head == "d" and GAME.view(state, None)["phase"] != "draft":
            table = await table_at(self.world, self.bot, self.game_id)
            self.after_draft = f"{table.text()}\n{gallery_text(table)}"

    async def exp1_command(self, user: ScriptedUser, code: str) -> None:
        """``/pr <decision> <option>:<code>``: the autocomplete, given the code typed, offers
        it (a Black market build among hundreds too)."""
        command, option = EXP1_COMMANDS[code.split(".", 1)[0]]
        typed = await user.autocomplete(command, {option: code}, focused=option,
                                        channel=self.world.general)
        offered = [c["value"] for c in await typed.choices()]
        assert code in offered, (code, offered)
        handle = await user.run(f"/{command} {option}:{code}", channel=self.world.general)
        reply = await handle.response()
        assert reply.type == 5 and reply.ephemeral
        self.count(f"/{command}")

    async def exp1_panel(self, user: ScriptedUser, code: str, record: GameRecord) -> None:
        head = code.split(".", 1)[0]
        panel = await self.open_panel(user)
        if head == "bm":
            handle = await black_market(user, panel, self.game_id, code)
        elif head == "sw" and code != "sw.none":  # sw.none: its button
            menu = panel.component(custom_id=f"gs:{self.game_id}:{record.version}:sw")
            values = PR.decompose("sw", code, [o["value"] for o in menu["options"]])
            assert values is not None, (code, menu["options"])
            handle = await user.select(panel, values, custom_id=menu["custom_id"])
        else:
            await self.in_panel(user, code, record)
            self.count(f"panel {head}")
            return
        assert (await handle.response()).type == 6
        self.count(f"panel {head}")


def events(log: list[Any]) -> Iterator[dict[str, Any]]:
    for action in log:
        yield from action.events


async def test_a_whole_game_with_the_new_buildings(
        world: World, governor: OfflineGovernor, caplog: pytest.LogCaptureFixture) -> None:
    server = world.server
    carol = server.add_user("carol", guild=world.guild)
    people = [world.alice, world.bob, carol]
    lobby = await open_lobby(world, world.alice, "game:puerto-rico max_players:3")
    menu = next(s for s in lobby.selects() if str(s["custom_id"]).startswith("lr:"))
    assert [o["value"] for o in menu["options"]] == [
        "new_buildings", "random_buildings", "exclusive_forest_house", "nobles", "buccaneer",
        "festival"]
    mark = server.mark()
    handle = await world.alice.select(lobby, ["new_buildings"], custom_id=menu["custom_id"])
    assert (await handle.response()).type == 6
    lobby = await server.wait_for_message(
        world.general, lambda m: m.id == lobby.id and "The New Buildings (Exp. 1)" in m.text(),
        since=mark)
    for person in people[1:]:
        def joined(m: StoredMessage, mention: str = f"<@{person.id}>") -> bool:
            return mention in m.text()

        _, lobby = await press(world, person, lobby, "Join", joined)
    mark = server.mark()
    await press(world, world.alice, lobby, "Start", lambda m: "has started" in m.text())
    await server.wait_for_message(world.general, lambda m: "round 1" in m.text(), since=mark)
    record = await governor.storage.games.find_by_channel(world.general.id)
    assert record is not None
    assert record.options["modules"] == ["new_buildings"]
    assert record.options["building_selection"] == "draft"

    table = await table_at(world, governor, record.id)
    assert "Expansions: New Buildings" in table.text() and "Building draft" in table.text()
    assert "Building draft" in gallery_text(table) and "17 spaces" in gallery_text(table)

    players = NewBuildingPlayers(world, governor, record.id, {p.id: p for p in people},
                                 command_share=0.2)
    with caplog.at_level(logging.WARNING, logger="bot"):
        await players.play()
        await governor.wait_idle()
    await check_the_end(world, governor, record.id, ["alice", "bob", "carol"])
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]

    log = await governor.storage.games.actions(record.id)
    happened = list(events(log))
    drafted = [a for a in log if a.code.startswith("d.")]
    assert len(drafted) == 17 and all(a.user_id is not None for a in drafted)
    assert sum(e["type"] == "DraftEnded" for e in happened) == 1
    used = players.used
    assert used.get("/pr draft", 0) >= 1 and used.get("panel d", 0) >= 1, used
    assert any(e["type"] == "ForestPlaced" for e in happened), used
    built = {e["data"]["building"] for e in happened if e["type"] == "BuildingBuilt"}
    assert built & set(WANTED), built
    exp1 = [a for a in log if a.code.split(".", 1)[0] in EXP1_COMMANDS]
    assert all(a.user_id is not None for a in exp1)
    ways = {f"panel {head}" for head in EXP1_COMMANDS} | {
        f"/{command}" for command, _ in EXP1_COMMANDS.values()}
    made = sum(n for how, n in used.items() if how in ways)
    assert made >= len(exp1) > 17, (made, len(exp1), used)

    # the table told the draft as it ended (its log, and its board's description the
    # buildings drafted); the story tells the forests
    assert "drafted the" in players.after_draft, players.after_draft
    assert "The draft is over: 17 violet buildings are on the board." in players.after_draft
    assert "on the board: " in players.after_draft
    record = await governor.storage.games.get(record.id)
    thread = server.messages(record.messages["thread"], include_ephemeral=False)
    story = "\n".join(m.text() for m in thread)
    assert "face down as a forest" in story
