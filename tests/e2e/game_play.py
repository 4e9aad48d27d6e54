"""Scripted players for whole games through the offline Discord: they read the table message,
click role buttons, open their private panel with **My turn**, click its buttons and menus, and
run the slash commands, exactly as a person would.  The choice itself comes from the engine's
heuristic policy (seeded), the way it is made is the test's."""

from __future__ import annotations

import asyncio
import random
from dataclasses import dataclass, field
from typing import Any

from engine.core import get_game
from engine.policies import make_policy
from storage import GameRecord, GameStatus
from tests.e2e.conftest import OfflineGovernor, World
from tests.e2e.test_bot_lobby import open_lobby, press
from tests.offline_discord import WAIT_TIMEOUT, InteractionHandle, ScriptedUser, StoredMessage

GAME = get_game("puerto-rico")
COMMANDS = {  # slash command and option for each kind of code
    "r": ("pr role", "role"), "s": ("pr settle", "tile"), "b": ("pr build", "building"),
    "t": ("pr sell", "good"), "ship": ("pr ship", "cargo"), "wharf": ("pr ship", "cargo"),
    "m": ("pr place", "where"), "keep": ("pr keep", "goods"), "o": ("pr take", "choice"),
    "c": ("pr take", "choice"),
}


async def private_reply(user: ScriptedUser, command: str, channel: Any) -> str:
    """``user`` types ``command`` in ``channel``; the private answer, whether the bot answered
    at once (a refusal before any work) or after deferring."""
    handle = await user.run(command, channel=channel)
    response = await handle.response()
    if response.type == 4:
        assert response.ephemeral, command
        return response.content or ""
    assert response.type == 5, (command, response.type)
    reply = await handle.wait_for_followup()
    assert reply.ephemeral, command
    return reply.content


async def load(bot: OfflineGovernor, game_id: int) -> tuple[GameRecord, Any]:
    loaded = await bot.storage.games.load(game_id)
    return loaded.record, loaded.state


def table_message(world: World, record: GameRecord) -> StoredMessage:
    message = world.server.get_message(record.messages["table"])
    assert message is not None
    return message


def shown_version(message: StoredMessage, game_id: int) -> int:
    """The game version the table message was drawn for (its buttons carry it)."""
    for comp in message.iter_components():
        custom_id = str(comp.get("custom_id", ""))
        if custom_id.startswith(f"t:{game_id}:"):
            return int(custom_id.split(":")[2])
    return -1


async def table_at(world: World, bot: OfflineGovernor, game_id: int) -> StoredMessage:
    """The table message once it shows the game as stored now or later (the bot publishes
    after each change and its automatic moves; the buttons carry the version)."""
    record = await bot.storage.games.get(game_id)

    def check() -> StoredMessage | None:
        table_id = record.messages.get("table")
        message = world.server.get_message(table_id) if table_id else None
        if message is None:
            return None
        done = record.status is not GameStatus.ACTIVE and "final scores" in message.text()
        return message if done or shown_version(message, game_id) >= record.version else None

    return await world.server.wait_for(check, what=f"table of v{record.version}")


async def settled(world: World, bot: OfflineGovernor, game_id: int, version: int) -> GameRecord:
    """Until the game moved past ``version`` and its table shows it (60 s only guard against a
    hang: it returns as soon as the move is stored)."""
    loop = asyncio.get_running_loop()
    guard = loop.time() + WAIT_TIMEOUT
    while (record := await bot.storage.games.get(game_id)).version == version:
        assert loop.time() < guard, "the move was not applied"
        await asyncio.sleep(0.01)
    if record.status is GameStatus.ACTIVE:
        await table_at(world, bot, game_id)
    return record


@dataclass
class Players:
    """The people of one game and how they make their moves."""

    world: World
    bot: OfflineGovernor
    game_id: int
    people: dict[int, ScriptedUser]
    rng: random.Random = field(default_factory=lambda: random.Random(5))
    command_share: float = 0.2
    """How often a decision is made with its slash command instead of a click."""
    used: dict[str, int] = field(default_factory=dict)

    def count(self, how: str) -> None:
        self.used[how] = self.used.get(how, 0) + 1

    async def next_move(self) -> tuple[ScriptedUser, int, str] | None:
        """Who decides next and what (the heuristic's choice); ``None`` at the end."""
        record, state = await load(self.bot, self.game_id)
        prompt = GAME.prompt(state)
        if prompt is None:
            return None
        seat = next(s for s in prompt.seats if (r := record.seat(s)) and r.user_id)
        user_id = record.seat(seat).user_id  # type: ignore[union-attr]
        policy = make_policy("heuristic", "puerto-rico", record.version)
        legal = GAME.legal_actions(state, seat)
        code = GAME.encode_action(policy.choose(GAME, state, seat, legal))
        return self.people[int(user_id or 0)], seat, self.prefer(
            [GAME.encode_action(a) for a in legal], code
        )

    def prefer(self, legal: list[str], code: str) -> str:
        """The code played instead of the heuristic's ``code`` (a subclass's taste for a
        module's decisions: it calls ``super().prefer`` first, then may draw on ``rng``)."""
        return code

    async def play(self, max_moves: int = 5000) -> int:
        moves = 0
        while moves < max_moves and (move := await self.next_move()) is not None:
            user, _, code = move
            await self.make(user, code)
            moves += 1
        return moves

    async def make(self, user: ScriptedUser, code: str) -> None:
        record = await self.bot.storage.games.get(self.game_id)
        head = code.split(".", 1)[0]
        if head in COMMANDS and self.rng.random() < self.command_share:
            await self.by_command(user, code)
        elif code == "pass" and self.rng.random() < self.command_share:
            handle = await user.run("/pr pass", channel=self.world.general)
            await handle.response()
            self.count("/pr pass")
        elif head == "r":
            table = await table_at(self.world, self.bot, self.game_id)
            handle = await user.click(table, custom_id=f"g:{self.game_id}:{record.version}:{code}")
            assert (await handle.response()).type == 6
            self.count("role button")
        else:
            await self.in_panel(user, code, record)
        await settled(self.world, self.bot, self.game_id, record.version)

    async def open_panel(self, user: ScriptedUser) -> StoredMessage:
        table = await table_at(self.world, self.bot, self.game_id)
        handle = await user.click(table, label="My turn")
        return await handle.original_message()

    async def in_panel(self, user: ScriptedUser, code: str, record: GameRecord) -> None:
        panel = await self.open_panel(user)
        version = record.version
        button = panel.find_component(custom_id=f"g:{self.game_id}:{version}:{code}")
        if button is not None:
            handle = await user.click(panel, custom_id=button["custom_id"])
            self.count("panel button")
        elif code.startswith("m."):
            handle = await self.arrange(user, panel, version)
        else:
            select = next(s for s in panel.selects()
                          if any(o["value"] == code for o in s.get("options", ())))
            handle = await user.select(panel, [code], custom_id=select["custom_id"])
            self.count("panel menu")
        assert (await handle.response()).type == 6

    async def arrange(self, user: ScriptedUser, panel: StoredMessage, version: int
                      ) -> InteractionHandle:
        """The Mayor draft: move one colonist in a menu when possible, then confirm."""
        menus = [s for s in panel.selects() if s["custom_id"].startswith("ma:")]
        before = panel.component(custom_id_prefix="mb:")["custom_id"]
        for menu in menus:
            chosen = [o["value"] for o in menu["options"] if o.get("default")]
            place = chosen[0].split(".")[0] if chosen else None
            free = [o["value"] for o in menu["options"]
                    if not o.get("default") and o["value"].split(".")[0] != place]
            if chosen and free:  # one colonist to a circle of another place of the same menu
                handle = await user.select(panel, [*chosen[1:], free[0]],
                                           custom_id=menu["custom_id"])
                assert (await handle.response()).type == 6
                panel = await handle.original_message(
                    lambda m: m.component(custom_id_prefix="mb:")["custom_id"] != before)
                self.count("mayor menu")
                break
        confirm = panel.find_component(custom_id_prefix=f"mb:{self.game_id}:")
        assert confirm is not None and not confirm.get("disabled"), panel.text()
        self.count("mayor confirm")
        return await user.click(panel, custom_id=confirm["custom_id"])

    async def by_command(self, user: ScriptedUser, code: str) -> None:
        head = "o" if code == "m.privilege" else code.split(".", 1)[0]
        command, option = COMMANDS[head]
        typed = await user.autocomplete(command, {option: ""}, focused=option,
                                        channel=self.world.general)
        offered = [c["value"] for c in await typed.choices()]
        assert code in offered, (code, offered)
        handle = await user.run(f"/{command} {option}:{code}", channel=self.world.general)
        reply = await handle.response()
        assert reply.type == 5 and reply.ephemeral
        self.count(f"/{command}")


async def start(world: World, bot: OfflineGovernor, creator: ScriptedUser,
                others: list[ScriptedUser], args: str) -> GameRecord:
    """``/game new``, the others join, the creator starts; the table is posted."""
    lobby = await open_lobby(world, creator, args)
    for person in others:
        mention = f"<@{person.id}>"

        def joined(m: StoredMessage, mention: str = mention) -> bool:
            return mention in m.text()

        _, lobby = await press(world, person, lobby, "Join", joined)
    mark = world.server.mark()
    await press(world, creator, lobby, "Start", lambda m: "has started" in m.text())
    await world.server.wait_for_message(world.general, lambda m: "round 1" in m.text(),
                                        since=mark)
    record = await bot.storage.games.find_by_channel(world.general.id)
    assert record is not None and record.status is GameStatus.ACTIVE
    return record


async def begin(world: World, governor: OfflineGovernor, people: list[ScriptedUser],
                chosen: list[str], shown: str) -> GameRecord:
    """The lobby: the creator picks ``chosen`` in the optional rules' menu (the lobby then
    shows ``shown``), the others join, the creator starts."""
    server = world.server
    lobby = await open_lobby(world, people[0], f"game:puerto-rico max_players:{len(people)}")
    menu = next(s for s in lobby.selects() if str(s["custom_id"]).startswith("lr:"))
    assert [o["value"] for o in menu["options"]] == [
        "new_buildings", "random_buildings", "exclusive_forest_house", "nobles", "buccaneer",
        "festival"]
    mark = server.mark()
    handle = await people[0].select(lobby, chosen, custom_id=menu["custom_id"])
    assert (await handle.response()).type == 6
    lobby = await server.wait_for_message(
        world.general, lambda m: m.id == lobby.id and shown in m.text(), since=mark)
    for person in people[1:]:
        def joined(m: StoredMessage, mention: str = f"<@{person.id}>") -> bool:
            return mention in m.text()

        _, lobby = await press(world, person, lobby, "Join", joined)
    mark = server.mark()
    await press(world, people[0], lobby, "Start", lambda m: "has started" in m.text())
    await server.wait_for_message(world.general, lambda m: "round 1" in m.text(), since=mark)
    record = await governor.storage.games.find_by_channel(world.general.id)
    assert record is not None
    return record


async def black_market(user: ScriptedUser, panel: StoredMessage, game_id: int, code: str
                       ) -> InteractionHandle:
    """Exp. 1's Black market (1897's Hidden Market) in two steps, as a player builds with it:
    the building in its menu (the panel is redrawn with the ways to pay for it, the menu kept),
    then the payment; ``code`` in the kernel's words, which the menus hold."""
    building = code.split(".")[1]
    menu = panel.component(custom_id_prefix=f"bk:{game_id}:")
    before = menu["custom_id"]
    handle = await user.select(panel, [building], custom_id=before)
    assert (await handle.response()).type == 6

    def redrawn(m: StoredMessage) -> bool:
        return any(str(s.get("custom_id", "")).startswith(f"gs:{game_id}:")
                   and ":bmpay_" in str(s.get("custom_id")) for s in m.selects())

    panel = await handle.original_message(redrawn)
    assert panel.component(custom_id_prefix="bk:")["custom_id"] == before
    pay = next(s for s in panel.selects() if ":bmpay_" in str(s.get("custom_id", ""))
               and any(o["value"] == code for o in s["options"]))
    return await user.select(panel, [code], custom_id=pay["custom_id"])
