"""Whole games of Puerto Rico 1897 on the offline Discord, from ``/game new`` to the score sheet.

The people are the 1897 play-through's (:class:`tests.e2e.playthrough_1897.Table1897`: the
engine's heuristic chooses, they make each choice as a person does, by the table's role
buttons, **My turn** and its buttons and menus, the Recruiter's draft, ``/pr1897 ...`` with
autocomplete), quiet here: their notes stay in memory.  The games:

* one person against two Puertomas, 1897's automated opponent (standard, then hard): the
  lobby's menu of seats to add seats them, they sit last and are never asked anything (the
  person is asked again at once after each move); the story tells their tie-breaker cards and
  the arrows of the action board; no DM goes to them; the score sheet names them;
* tables the Puertoma may not sit at (2 people + 1): Start is refused privately and the lobby
  stays open; Puertomas of two difficulties are not offered (a forged pick is refused), a
  Puertoma is removed from the lobby; then 1 person + 1 Puertoma (easy);
* two people, no Puertoma;
* four seats with Expansions I-VI picked in the lobby's menu: two people and two AI seats;
  three people and a Puertoma.
"""

from __future__ import annotations

import asyncio
import logging
import random
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from storage import GameRecord, GameStatus
from tests.e2e.conftest import OfflineGovernor, World
from tests.e2e.game_play import load, table_at
from tests.e2e.playthrough import Recorder
from tests.e2e.playthrough_1897 import (
    EXPANSIONS_I_IV,
    GAME,
    GAME_NAME,
    Table1897,
    command_of,
    decision_of,
)
from tests.e2e.test_bot_lobby import menu_labels, open_lobby, pick, press, seat_menu, seats_of
from tests.offline_discord import ScriptedUser, StoredMessage

EXPANSIONS_I_VI = [*EXPANSIONS_I_IV, "festival_activities", "achievements"]
"""The lobby's optional rules that are 1897's six expansions."""
PUERTOMA_CHOICES = {"puertoma": "Puertoma", "puertoma_easy": "Puertoma (easy)",
                    "puertoma_hard": "Puertoma (hard)"}
"""The lobby's add menu's options seating a Puertoma, by its seat kind (the option's value)."""
AI_CHOICES = ["AI (easy)", "AI (normal)", "AI (strong)"]
"""The add menu's options seating an AI, by level."""
MAX_MOVES = 1500
"""The people's decisions in one game at most (a guard: every game here ends well before)."""
DM_ROUTE = "/users/@me/channels"
"""Where the bot opens a DM channel (its JSON names the recipient)."""


# ----------------------------------------------------------------------------------------------
# The people
# ----------------------------------------------------------------------------------------------


@dataclass
class People(Table1897):
    """The play-through's people, who check after each of their moves that the game waits for
    a person again (the Puertomas and the AI seats acted at once, nobody else is asked), and
    announce a met Achievement (Expansion VI) as soon as they may."""

    waiting_line: str = ""
    """With a name: the table says "Waiting for <name>" after each move (one person's game)."""
    made: int = 0
    """Moves made (a move may be several actions: a whole arrangement of workers)."""
    asked_again: int = 0
    """Moves after which a person was asked again (the game not over)."""

    async def table(self) -> StoredMessage:
        return await table_at(self.world, self.bot, self.game_id)

    def prefer(self, legal: list[str], code: str) -> str:
        if self.view_now.get("citizens") is None:  # the play-through reads Exp. II's Citizens
            self.view_now = {**self.view_now, "citizens": {}}
        announce = [c for c in legal if c.startswith("ach.")]
        return announce[0] if announce else super().prefer(legal, code)

    async def by_command(self, user: ScriptedUser, code: str) -> None:
        """``/pr1897 <decision>`` as the play-through types it, except that when the
        suggestions for nothing typed (Discord shows 25) miss the choice, as in a long
        building draft, the person types a part of its name."""
        decision = decision_of(code)
        assert decision is not None, code
        command, option = command_of(decision)
        offered: list[str] = []
        for typed in ("", code.split(".", 1)[-1].replace("_", " ")):
            handle = await user.autocomplete(command, {option: typed}, focused=option,
                                             channel=self.ch)
            offered = [c["value"] for c in await handle.choices()]
            assert len(offered) <= 25
            if code in offered:
                break
        assert code in offered, (code, offered)
        handle = await user.run(f"/{command} {option}:{code}", channel=self.ch)
        reply = await handle.response()
        assert reply.type == 5 and reply.ephemeral
        self.count(f"/{command}")

    async def make(self, user: ScriptedUser, code: str) -> None:
        await super().make(user, code)
        self.made += 1
        record, state = await load(self.bot, self.game_id)
        prompt = GAME.prompt(state)
        if prompt is None:
            assert record.status is GameStatus.FINISHED, record.status
            return
        asked = [record.seat(s) for s in prompt.seats]
        assert all(s is not None and s.user_id for s in asked), (prompt, record.seats)
        if self.waiting_line:
            table = await self.table()
            assert f"Waiting for {self.waiting_line}" in table.text(), table.text()
        self.asked_again += 1


def people_of(world: World, bot: OfflineGovernor, record: GameRecord,
              people: list[ScriptedUser], seed: int, share: float = 0.25,
              policy_shift: int = 0) -> People:
    return People(world, bot, record.id, {p.id: p for p in people}, rng=random.Random(seed),
                  command_share=share, rec=Recorder(world.server, Path("unused")),
                  channel=world.general,
                  waiting_line=people[0].username if len(people) == 1 else "",
                  policy_shift=policy_shift)


HANDLING = ("discord-ui-", "CommandTree-invoker")
"""The names of discord.py's tasks handling an interaction (a click, a select, a command)."""


async def handled(world: World) -> None:
    """Until the bot has finished handling every interaction (the last move's reply and panel
    come after the score sheet)."""

    def idle() -> bool | None:
        busy = [t for t in asyncio.all_tasks()
                if not t.done() and t.get_name().startswith(HANDLING)]
        return None if busy else True

    await world.server.wait_for(idle, what="the interactions handled")


async def play_out(players: People, bot: OfflineGovernor) -> None:
    assert await players.play(MAX_MOVES) < MAX_MOVES
    await bot.wait_idle()
    await handled(players.world)


# ----------------------------------------------------------------------------------------------
# The lobby
# ----------------------------------------------------------------------------------------------


async def lobby_of(world: World, creator: ScriptedUser, others: Sequence[ScriptedUser],
                   seats: int, *, rules: Sequence[str] = (), puertomas: Sequence[str] = (),
                   ai_seats: int = 0) -> StoredMessage:
    """``/game new game:puerto-rico-1897``: the creator picks ``rules`` in the menu of optional
    rules and ``puertomas`` (their labels) in the menu of seats to add, the ``others`` join."""
    server = world.server
    extra = f" ai_seats:{ai_seats}" if ai_seats else ""
    lobby = await open_lobby(world, creator, f"game:{GAME_NAME} max_players:{seats}{extra}")
    assert [b["label"] for b in lobby.buttons()] == ["Join", "Leave", "Add AI", "Start", "Cancel"]
    add = seat_menu(lobby, "add")
    assert add is not None
    assert {str(o["value"]): o["label"] for o in add["options"]
            if str(o["value"]).startswith("puertoma")} == PUERTOMA_CHOICES
    if not ai_seats:
        assert menu_labels(lobby, "add") == [*AI_CHOICES, *PUERTOMA_CHOICES.values()]
    if rules:
        menu = next(s for s in lobby.selects() if str(s["custom_id"]).startswith("lr:"))
        assert set(rules) <= {o["value"] for o in menu["options"]}, menu["options"]
        mark = server.mark()
        handle = await creator.select(lobby, list(rules), custom_id=menu["custom_id"])
        assert (await handle.response()).type == 6

        def chosen(m: StoredMessage) -> bool:
            return m.id == lobby.id and set(rules) == {
                o["value"] for s in m.selects() for o in s["options"] if o.get("default")}

        lobby = await server.wait_for_message(world.general, chosen, since=mark)
    for n, label in enumerate(puertomas, start=1):
        def seated(m: StoredMessage, n: int = n) -> bool:
            return seats_of(m).count("Puertoma") == n

        _, lobby = await pick(world, creator, lobby, "add", label, seated)
    for person in others:
        def joined(m: StoredMessage, mention: str = f"<@{person.id}>") -> bool:
            return mention in seats_of(m)

        _, lobby = await press(world, person, lobby, "Join", joined)
    return lobby


async def start(world: World, bot: OfflineGovernor, creator: ScriptedUser,
                lobby: StoredMessage) -> GameRecord:
    """The creator clicks Start: the table is posted."""
    mark = world.server.mark()
    await press(world, creator, lobby, "Start", lambda m: "has started" in m.text())
    await world.server.wait_for_message(world.general, lambda m: "round 1" in m.text(),
                                        since=mark)
    record = await bot.storage.games.find_by_channel(world.general.id)
    assert record is not None and record.status is GameStatus.ACTIVE
    return record


# ----------------------------------------------------------------------------------------------
# What everyone saw
# ----------------------------------------------------------------------------------------------


def bot_posts(world: World, channel: int) -> list[StoredMessage]:
    return [m for m in world.server.messages(channel, include_ephemeral=False)
            if m.author.id == world.server.bot_user.id]


async def story_of(world: World, bot: OfflineGovernor, game_id: int) -> str:
    """Every post of the bot in the game's channel and in its story thread."""
    record = await bot.storage.games.get(game_id)
    places = [world.general.id, record.messages["thread"]]
    return "\n".join(m.text() for p in places for m in bot_posts(world, p))


def board_text(message: StoredMessage) -> str:
    """The message's text and its images' descriptions (the board in words)."""
    return message.text() + "\n" + "\n".join(
        str(item.get("description")) for c in message.iter_components()
        for item in c.get("items", ()))


def events(log: Sequence[Any]) -> Iterator[dict[str, Any]]:
    for action in log:
        yield from action.events


def dm_recipients(world: World) -> set[int]:
    """Everyone the bot opened a DM with."""
    return {int(r.json["recipient_id"]) for r in world.server.requests_to("POST", DM_ROUTE)}


def check_limits(world: World) -> None:
    """Everything the bot sent fit Discord's limits: the offline server, which validates as
    Discord does (2,000 characters, embeds, components, descriptions), refused nothing."""
    refused = [r for r in world.server.requests if r.error_code in (50035, 50006)]
    assert not refused, [(r.method, r.route, r.error_code) for r in refused]
    assert not world.server.unhandled_requests
    for channel in list(world.server.channels.values()):
        for message in world.server.messages(channel):
            assert len(message.content) <= 2000


async def check_the_end(world: World, bot: OfflineGovernor, game_id: int,
                        names: Sequence[str]) -> StoredMessage:
    """Finished with its results; the log replays; the table shows the final board; the last
    post in the channel is the score sheet, its image and every seat's standing by name."""
    record = await bot.storage.games.get(game_id)
    assert record.status is GameStatus.FINISHED and record.outcome is not None
    assert len(await bot.storage.games.results(game_id)) == len(record.seats)
    assert (await bot.storage.verify([game_id])).ok
    final = await world.server.wait_for_message(
        world.general, lambda m: "final scores" in m.text() and any(
            a.filename.endswith("-scores.png") for a in m.attachments))
    await bot.wait_idle()
    assert final.id == bot_posts(world, world.general.id)[-1].id
    assert all(a.is_png for a in final.attachments)
    text = final.text()
    assert ("Winner:" in text or "Shared victory:" in text) and "Tie-break:" in text, text
    for name in names:
        assert re.search(rf"\*\*{re.escape(name)}\*\*: \d+ VP \(VP tokens \d+ · Building VP \d+",
                         text), (name, text)
    assert len(re.findall(r"tie-break \d+", text)) == len(record.seats)
    table = world.server.get_message(record.messages["table"])
    assert table is not None and "final scores" in table.text()
    assert not [b for b in table.buttons() if str(b.get("custom_id", "")).startswith("g:")]
    check_limits(world)
    return final


def no_errors(caplog: pytest.LogCaptureFixture) -> None:
    assert not [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]


# ----------------------------------------------------------------------------------------------
# One person and two Puertomas
# ----------------------------------------------------------------------------------------------


async def solo_game(world: World, bot: OfflineGovernor, label: str, difficulty: str,
                    seed: int) -> tuple[GameRecord, People, str]:
    """alice alone with two Puertomas seated by ``label``, played to the end; the table's
    board in words at the start."""
    alice = world.alice
    lobby = await lobby_of(world, alice, [], 3, puertomas=[label, label])
    assert "The table is full (3 seats taken)" in lobby.text()
    record = await start(world, bot, alice, lobby)
    assert record.options["puertomas"] == 2
    assert record.options["puertoma_difficulty"] == difficulty
    assert record.seats[0].user_id == alice.id
    kinds = {s.ai_policy for s in record.seats[1:]}
    assert len(kinds) == 1 and all(s.user_id is None for s in record.seats[1:])
    table = await table_at(world, bot, record.id)
    assert table.attachments and table.attachments[0].is_png  # the board, with theirs
    assert "Waiting for alice" in table.text()
    first = board_text(table)
    players = people_of(world, bot, record, [alice], seed)
    await play_out(players, bot)
    return await bot.storage.games.get(record.id), players, first


async def check_solo(world: World, bot: OfflineGovernor, record: GameRecord, players: People
                     ) -> str:
    """What a game of one person against two Puertomas shows; its story."""
    log = await bot.storage.games.actions(record.id)
    # The Puertomas are never asked: every action is the person's (hers, or forced), and she
    # was asked again after every move of hers.
    assert {a.seat for a in log} == {0}
    assert {a.user_id for a in log} <= {world.alice.id, None}
    assert players.asked_again == players.made - 1 and players.made > 20
    happened = list(events(log))
    assert {e.get("seat") for e in happened if e["type"] == "PuertomaChoseRole"} == {1, 2}
    assert any(e["type"] == "TieBreakerDrawn" for e in happened)
    # No DM to a Puertoma (they have no user): the person's only.
    assert dm_recipients(world) <= {world.alice.id}
    story = await story_of(world, bot, record.id)
    # The story tells the Puertomas' reasons: the tie-breaker cards, the action board's arrows.
    assert re.search(r"Puertoma [23] drew tie-breaker card \d", story), story[-2000:]
    assert re.search(r"Puertoma [23] (moved the action marker along the arrow from the|weighs "
                     r"the roles and takes the \w+: it is profitable, and an arrow)", story)
    await check_the_end(world, bot, record.id, ["alice", "Puertoma 2", "Puertoma 3"])
    return story


async def test_one_person_against_two_puertomas(
        world: World, governor: OfflineGovernor, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="bot"):
        record, players, first = await solo_game(world, governor, "Puertoma", "standard",
                                                 3)
        story = await check_solo(world, governor, record, players)
    assert "**Puertoma 2**" in first and "**Puertoma 3**" in first
    assert first.count("no buildings") == 3, first
    assert "moved the action marker along the arrow" in story
    # why a Puertoma chose its role, on the line of its choice ("chose the Builder: ...")
    assert re.search(r"Puertoma \d chose the \w+( and took [^:]+)?: ", story), story[-2000:]
    used = players.used
    assert used.get("role button", 0) > 3 and used.get("panel button", 0) > 10, used
    assert sum(n for how, n in used.items() if how.startswith("/pr1897")) > 3, used
    no_errors(caplog)


async def test_one_person_against_two_hard_puertomas(
        world: World, governor: OfflineGovernor, caplog: pytest.LogCaptureFixture) -> None:
    """§8.14's hard difficulty: each Puertoma starts with its level-1 skill face up and a
    building of its own; the game as above."""
    with caplog.at_level(logging.WARNING, logger="bot"):
        record, players, first = await solo_game(world, governor, "Puertoma (hard)",
                                                 "hard", 8)
        await check_solo(world, governor, record, players)
    assert all(s.ai_policy == "puertoma_hard" for s in record.seats[1:])
    assert first.count("no buildings") == 1, first  # alice's: each Puertoma has one
    _, state = await load(governor, record.id)
    boards = GAME.view(state, None)["puertoma"]["boards"]
    assert [b["skills"][0]["state"] for b in boards.values()] == ["active", "active"]
    log = await governor.storage.games.actions(record.id)
    happened = list(events(log))
    assert any(e["type"] == "PuertomaSkillUnlocked" for e in happened)
    no_errors(caplog)


# ----------------------------------------------------------------------------------------------
# Tables the Puertoma may not sit at
# ----------------------------------------------------------------------------------------------


async def refused_start(world: World, bot: OfflineGovernor, lobby: StoredMessage) -> str:
    """Start clicked by the creator: refused privately, the lobby open and unchanged."""
    before = await bot.storage.games.find_by_channel(world.general.id)
    assert before is not None
    handle, _ = await press(world, world.alice, lobby, "Start")
    refusal = await handle.wait_for_followup()
    assert refusal.ephemeral
    after = await bot.storage.games.get(before.id)
    assert after.status is GameStatus.LOBBY
    assert after.seats == before.seats and after.options == before.options
    shown = world.server.get_message(lobby.id)
    assert shown is not None and shown.find_component(label="Start") is not None
    return refusal.content


async def test_a_table_the_puertoma_may_not_sit_at_is_refused(
        world: World, governor: OfflineGovernor) -> None:
    """2 people + 1 Puertoma (a person joined): Start says at which tables it may sit, the
    lobby stays open.  Issue #33's lobby with no way out (a standard Puertoma, then a hard one
    at a table of 3): once a Puertoma is seated the lobby offers no other difficulty (§8.14)
    nor an AI seat the start would refuse, a forged pick is refused, and the creator removes
    the Puertoma from the menu of AI seats to seat another.  Then 1 person + 1 easy Puertoma
    (the 2-player rules) is started by its creator before the table is full, and played out."""
    lobby = await lobby_of(world, world.alice, [world.bob], 3, puertomas=["Puertoma"])
    assert "The table is full (3 seats taken)" in lobby.text()
    assert seat_menu(lobby, "add") is None and menu_labels(lobby, "remove") == ["2. Puertoma"]
    assert await refused_start(world, governor, lobby) == (
        "At Puerto Rico 1897, a Puertoma may only sit at these tables (other seats + "
        "Puertoma): 1 + 2, 1 + 1, 3 + 1, 4 + 1.")
    bob = f"<@{world.bob.id}>"
    _, lobby = await press(world, world.bob, lobby, "Leave", lambda m: bob not in seats_of(m))
    # 1 + 1 of 3 seats: only a second standard Puertoma reaches a table (1 + 2)
    assert menu_labels(lobby, "add") == ["Puertoma"]
    assert lobby.component(label="Add AI").get("disabled")
    shown = world.server.get_message(lobby.id)  # a modified client's menu offers more
    add = seat_menu(shown, "add") if shown else None
    assert shown is not None and add is not None
    add["options"].append({"label": "forged", "value": "puertoma_hard"})
    try:
        handle = await world.alice.select(shown, ["puertoma_hard"], custom_id=add["custom_id"])
        forged = await handle.wait_for_followup()
    finally:
        add["options"].pop()
    assert forged.ephemeral and forged.content == (
        "Every Puertoma at one table plays at the same difficulty: seat them all alike.")
    record = await governor.storage.games.find_by_channel(world.general.id)
    assert record is not None and [s.ai_policy for s in record.seats] == [None, "puertoma"]

    _, lobby = await pick(world, world.alice, lobby, "remove", "2. Puertoma",
                          lambda m: "Puertoma" not in seats_of(m))
    assert menu_labels(lobby, "add") == [*AI_CHOICES, *PUERTOMA_CHOICES.values()]
    assert seat_menu(lobby, "remove") is None
    _, lobby = await pick(world, world.alice, lobby, "add", "Puertoma (easy)",
                          lambda m: "Puertoma (easy)" in seats_of(m))
    assert menu_labels(lobby, "add") == ["Puertoma (easy)"]
    assert not dm_recipients(world)
    record = await start(world, governor, world.alice, lobby)
    assert record.options["players"] == 2 and record.options["puertomas"] == 1
    assert record.options["puertoma_difficulty"] == "easy"
    assert [s.user_id for s in record.seats] == [world.alice.id, None]
    players = people_of(world, governor, record, [world.alice], 13)
    await play_out(players, governor)
    log = await governor.storage.games.actions(record.id)
    assert {a.seat for a in log} == {0} and dm_recipients(world) <= {world.alice.id}
    # the Puertoma chooses 3 roles a round (the 2-player rules), the person too
    chosen = [e for e in events(log) if e["type"] == "RoleChosen"]
    rounds = sum(e["type"] == "RoundEnded" for e in events(log))
    assert len(chosen) >= 6 * rounds
    await check_the_end(world, governor, record.id, ["alice", "Puertoma 2"])


# ----------------------------------------------------------------------------------------------
# People only, and the six expansions
# ----------------------------------------------------------------------------------------------


async def test_a_two_player_game(world: World, governor: OfflineGovernor,
                                 caplog: pytest.LogCaptureFixture) -> None:
    """Two people (bob's DMs closed), no Puertoma, half their decisions by ``/pr1897``."""
    lobby = await lobby_of(world, world.alice, [world.bob], 2)
    record = await start(world, governor, world.alice, lobby)
    assert record.options["players"] == 2 and "puertomas" not in record.options
    players = people_of(world, governor, record, [world.alice, world.bob], 21, share=0.5)
    with caplog.at_level(logging.WARNING, logger="bot"):
        await play_out(players, governor)
        await check_the_end(world, governor, record.id, ["alice", "bob"])
    log = await governor.storage.games.actions(record.id)
    assert {a.user_id for a in log} == {world.alice.id, world.bob.id, None}
    assert sum(n for how, n in players.used.items() if how.startswith("/pr1897")) > 20
    assert players.used.get("role button", 0) > 5 and players.used.get("panel button", 0) > 20
    no_errors(caplog)


async def six_expansions(world: World, bot: OfflineGovernor, people: list[ScriptedUser],
                         puertomas: Sequence[str], ai_seats: int, seed: int,
                         names: Sequence[str], policy_shift: int = 0
                         ) -> tuple[GameRecord, People, str]:
    """Four seats, Expansions I-VI picked in the lobby's menu, played to the end; the table's
    text at the start."""
    lobby = await lobby_of(world, people[0], people[1:], 4, rules=EXPANSIONS_I_VI,
                           puertomas=puertomas, ai_seats=ai_seats)
    record = await start(world, bot, people[0], lobby)
    assert record.options["expansions"] == [1, 2, 3, 4, 5, 6], record.options
    first = board_text(await table_at(world, bot, record.id))
    players = people_of(world, bot, record, people, seed, policy_shift=policy_shift)
    await play_out(players, bot)
    await check_the_end(world, bot, record.id, names)
    return await bot.storage.games.get(record.id), players, first


async def check_six(world: World, bot: OfflineGovernor, record: GameRecord, players: People,
                    first: str) -> list[dict[str, Any]]:
    """Every expansion was played and shown: the people drafted buildings (I), Citizens came
    out (II), the Smuggler was chosen (III), the Festival's pause came (IV), an Activity was
    completed (V), an Achievement announced and scored (VI); the table named them all."""
    log = await bot.storage.games.actions(record.id)
    happened = list(events(log))
    types = {e["type"] for e in happened}
    assert any(a.code.startswith("d.") and a.user_id is not None for a in log)  # I
    assert "CitizenGained" in types  # II
    assert "SmugglerTokenTaken" in types  # III
    assert players.used_kinds.get("interlude", 0) > 0  # IV: the Festival's pause
    assert "FestivalActivityCompleted" in types  # V
    assert "AchievementAnnounced" in types  # VI
    story = await story_of(world, bot, record.id)
    assert "Smuggler (chosen by" in story and "citizen" in story
    final = bot_posts(world, world.general.id)[-1].text()
    assert "Citizens" in final and "Achievements" in final, final  # II, VI
    assert "Building draft" in first and "Festival activities" in first, first  # I, V
    assert "Expansions: I, II, III, IV, V, and VI" in first, first
    return happened


async def test_four_seats_with_all_six_expansions(
        world: World, governor: OfflineGovernor, caplog: pytest.LogCaptureFixture) -> None:
    """Expansions I-VI with two people and two AI seats."""
    with caplog.at_level(logging.WARNING, logger="bot"):
        record, players, first = await six_expansions(
            world, governor, [world.alice, world.bob], [], 2, 34,
            ["alice", "AI 2 (normal)", "AI 3 (normal)", "bob"])
    log = await governor.storage.games.actions(record.id)
    ai = {s.seat for s in record.seats if s.ai_policy}
    assert len(ai) == 2 and all(a.user_id is None for a in log if a.seat in ai)
    await check_six(world, governor, record, players, first)
    no_errors(caplog)


async def test_three_people_and_a_puertoma_with_all_six_expansions(
        world: World, governor: OfflineGovernor, caplog: pytest.LogCaptureFixture) -> None:
    """Expansions I-VI with three people and a Puertoma (seated before they join: it still
    sits last)."""
    carol = world.server.add_user("carol", guild=world.guild)
    people = [world.alice, world.bob, carol]
    with caplog.at_level(logging.WARNING, logger="bot"):
        record, players, first = await six_expansions(
            world, governor, people, ["Puertoma"], 0, 55,
            ["alice", "bob", "carol", "Puertoma 4"],
            # the game this test was chosen for (it has the Festival's pause): the start,
            # one transaction now, reaches the first decision two versions earlier than then
            policy_shift=2)
    assert record.options["puertomas"] == 1
    assert [s.user_id for s in record.seats] == [*(p.id for p in people), None]
    log = await governor.storage.games.actions(record.id)
    assert 3 not in {a.seat for a in log}
    assert dm_recipients(world) <= {p.id for p in people}
    happened = await check_six(world, governor, record, players, first)
    assert any(e["type"] == "PuertomaChoseRole" and e.get("seat") == 3 for e in happened)
    assert "Puertoma 4 drew tie-breaker card" in await story_of(world, governor, record.id)
    no_errors(caplog)
