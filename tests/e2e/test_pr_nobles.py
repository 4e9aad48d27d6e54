"""Puerto Rico with Exp. 2 (the Nobles) on the offline Discord, end to end, alone and with all
four expansions: the creator turns the modules on in the lobby's menu of optional rules, the
people play the whole game to the score sheet by the table's role buttons, their private panels
and the slash commands.  They take nobles or colonists from the ship (``/pr take`` or the
panel), place their nobles in the Mayor draft (its menu of the circles that get nobles, or
``/pr place``), use the Land Office in their Trader turn (``/pr sell``), the Hunting Lodge and
the Royal Supplier (``/pr take``) whenever they can, the engine's heuristic choosing the rest.
The table, the story and the score sheet show the nobles (rules spec §11)."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Any

import pytest

from engine.core import get_game
from storage import GameRecord
from tests.e2e.conftest import OfflineGovernor, World
from tests.e2e.game_play import Players, begin, load, settled, table_at
from tests.e2e.test_game_full import check_the_end
from tests.e2e.test_pr_modules import ModulePlayers
from tests.e2e.test_pr_new_buildings import NewBuildingPlayers, gallery_text
from tests.offline_discord import InteractionHandle, ScriptedUser, StoredMessage

GAME = get_game("puerto-rico")
EXP2_COMMANDS = {  # slash command and option for each kind of Exp. 2 code
    "n": ("pr take", "choice"), "hl": ("pr take", "choice"), "rs": ("pr take", "choice"),
    "lo": ("pr sell", "good"), "mn": ("pr place", "where"),
}
EXP2_BUILDINGS = ("villa", "land_office", "chapel", "hunting_lodge", "zoning_office",
                  "royal_supplier", "jeweler", "royal_garden")


class NoblePlayers(Players):
    """The scripted people of game_play, who build Exp. 2's buildings when they can, use the
    Land Office, the Hunting Lodge and the Royal Supplier, take nobles, and place them in the
    Mayor draft's nobles menu: by their panel, or by the slash commands."""

    def prefer(self, legal: list[str], code: str) -> str:
        code = super().prefer(legal, code)
        rng = self.rng
        for name in EXP2_BUILDINGS:
            if f"b.{name}" in legal and rng.random() < 0.7:
                return f"b.{name}"
        for prefix, share in (("n.noble", 0.6), ("lo.", 0.5), ("hl.", 0.5), ("rs.", 0.7)):
            options = [c for c in legal if c.startswith(prefix)]
            if options and rng.random() < share:
                return rng.choice(options)
        return code

    async def make(self, user: ScriptedUser, code: str) -> None:
        head = code.split(".", 1)[0]
        record, _ = await load(self.bot, self.game_id)
        if head == "m" and code != "m.privilege" and await self.nobles_waiting(user):
            head = "mn"  # an arrangement with nobles: the draft rather than a button
        if head not in EXP2_COMMANDS:
            await super().make(user, code)
            return
        if self.rng.random() < 0.4 and code.startswith(tuple(f"{h}." for h in EXP2_COMMANDS)):
            await self.exp2_command(user, code)
        elif head == "mn":  # the Mayor draft
            handle = await self.arrange(user, await self.open_panel(user), record.version)
            assert (await handle.response()).type == 6
        else:
            await self.in_panel(user, code, record)
            self.count(f"panel {head}")
        await settled(self.world, self.bot, self.game_id, record.version)

    async def nobles_waiting(self, user: ScriptedUser) -> bool:
        _, state = await load(self.bot, self.game_id)
        prompt = GAME.prompt(state)
        if prompt is None or prompt.kind != "arrange":
            return False
        seat = prompt.seats[0]
        return bool(GAME.view(state, seat)["players"][seat]["nobles"]["san_juan"])

    async def exp2_command(self, user: ScriptedUser, code: str) -> None:
        """``/pr <decision> <option>:<code>``: the autocomplete offers the code."""
        command, option = EXP2_COMMANDS[code.split(".", 1)[0]]
        typed = await user.autocomplete(command, {option: code}, focused=option,
                                        channel=self.world.general)
        offered = [c["value"] for c in await typed.choices()]
        assert code in offered, (code, offered)
        handle = await user.run(f"/{command} {option}:{code}", channel=self.world.general)
        reply = await handle.response()
        assert reply.type == 5 and reply.ephemeral
        self.count(f"/{command} {code.split('.', 1)[0]}")

    async def arrange(self, user: ScriptedUser, panel: StoredMessage, version: int
                      ) -> InteractionHandle:
        """The Mayor draft with nobles: move one noble to another drafted circle in the
        nobles' menu when there is one, then let the base draft confirm."""
        menu = next((s for s in panel.selects() if s["custom_id"].startswith("ma:")
                     and s["custom_id"].split(":")[3] == "n"), None)
        if menu is not None:
            chosen = [o["value"] for o in menu["options"] if o.get("default")]
            places = {v.split(".")[0] for v in chosen[:1]}
            free = [o["value"] for o in menu["options"]
                    if not o.get("default") and o["value"].split(".")[0] not in places]
            if chosen and free:  # a noble from the first place with one to another place
                before = panel.component(custom_id_prefix="mb:")["custom_id"]
                handle = await user.select(panel, [*chosen[1:], free[-1]],
                                           custom_id=menu["custom_id"])
                assert (await handle.response()).type == 6
                panel = await handle.original_message(
                    lambda m: m.component(custom_id_prefix="mb:")["custom_id"] != before)
                self.count("nobles menu")
                confirm = panel.component(custom_id_prefix=f"mb:{self.game_id}:")
                assert not confirm.get("disabled"), panel.text()
                self.count("mayor confirm")
                return await user.click(panel, custom_id=confirm["custom_id"])
        return await super().arrange(user, panel, version)


class AllModulePlayers(NoblePlayers, NewBuildingPlayers, ModulePlayers):
    """Every module's decisions at once: Exp. 2's (this file's), Exp. 1's draft and
    buildings, Exp. 3's Buccaneer."""


def events(log: list[Any]) -> Iterator[dict[str, Any]]:
    for action in log:
        yield from action.events


def story_of(world: World, record: GameRecord) -> str:
    thread = world.server.messages(record.messages["thread"], include_ephemeral=False)
    return "\n".join(m.text() for m in thread)


def check_nobles(happened: list[dict[str, Any]], log: list[Any], used: dict[str, int]) -> None:
    """People took nobles, placed them through the draft's menu and the commands, and made
    the Exp. 2 buildings' decisions; every such decision logged as theirs."""
    assert any(e["type"] == "NobleGained" for e in happened)
    exp2 = [a for a in log if a.code.split(".", 1)[0] in EXP2_COMMANDS]
    assert exp2 and all(a.user_id is not None for a in exp2)
    assert used.get("nobles menu", 0) >= 1, used
    assert sum(n for how, n in used.items() if how.startswith("/pr ")) >= 1, used


async def test_a_whole_game_with_the_nobles(
        world: World, governor: OfflineGovernor, caplog: pytest.LogCaptureFixture) -> None:
    carol = world.server.add_user("carol", guild=world.guild)
    people = [world.alice, world.bob, carol]
    record = await begin(world, governor, people, ["nobles"], "The Nobles (Exp. 2)")
    assert record.options["modules"] == ["nobles"]
    table = await table_at(world, governor, record.id)
    assert "Expansions: Nobles" in table.text()

    players = NoblePlayers(world, governor, record.id, {p.id: p for p in people},
                           command_share=0.2)
    with caplog.at_level(logging.WARNING, logger="bot"):
        await players.play()
        await governor.wait_idle()
    await check_the_end(world, governor, record.id, ["alice", "bob", "carol"])
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]

    log = await governor.storage.games.actions(record.id)
    happened = list(events(log))
    check_nobles(happened, log, players.used)
    built = {e["data"]["building"] for e in happened if e["type"] == "BuildingBuilt"}
    assert built & set(EXP2_BUILDINGS), built
    record = await governor.storage.games.get(record.id)
    assert "noble" in story_of(world, record).lower()


async def test_a_whole_game_with_all_four_expansions(
        world: World, governor: OfflineGovernor, caplog: pytest.LogCaptureFixture) -> None:
    carol = world.server.add_user("carol", guild=world.guild)
    dave = world.server.add_user("dave", guild=world.guild)
    people = [world.alice, world.bob, carol, dave]
    record = await begin(world, governor, people,
                         ["new_buildings", "nobles", "buccaneer", "festival"],
                         "The Festival (Exp. 4)")
    assert record.options["modules"] == ["new_buildings", "nobles", "buccaneer", "festival"]
    assert record.options["building_selection"] == "draft"
    table = await table_at(world, governor, record.id)
    assert "Expansions: New Buildings, Nobles, Buccaneer, and Festival" in table.text()
    assert "Building draft" in gallery_text(table)

    players = AllModulePlayers(world, governor, record.id, {p.id: p for p in people},
                               command_share=0.2)
    with caplog.at_level(logging.WARNING, logger="bot"):
        await players.play()
        await governor.wait_idle()
    await check_the_end(world, governor, record.id, ["alice", "bob", "carol", "dave"])
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]

    log = await governor.storage.games.actions(record.id)
    happened = list(events(log))
    check_nobles(happened, log, players.used)
    drafted = [a for a in log if a.code.startswith("d.")]
    # 17 violet spaces and, with Exp. 2, one red space per Exp. 2 violet building (A21)
    assert len(drafted) == 17 + 7 and all(a.user_id is not None for a in drafted)
    # red spaces with Exp. 2: the draft fills them with the Nobles' buildings too
    assert {a.code[2:] for a in drafted} & set(EXP2_BUILDINGS)
    assert any(a.code.startswith("bu.") and a.user_id is not None for a in log)
    assert any(e["type"] == "FestivalGoalAchieved" for e in happened)
    story = story_of(world, await governor.storage.games.get(record.id))
    assert "Buccaneer (chosen by" in story and "noble" in story.lower()
