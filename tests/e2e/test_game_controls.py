"""The controls of a game one by one, on the offline Discord: undo accepted and refused, stale
clicks, a restart between drawing a button and clicking it, the Mayor draft with simultaneous
decisions, autocomplete, leaving a game."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.i18n import CATALOG
from engine.policies import make_policy
from storage import GameRecord
from tests.e2e.conftest import OfflineGovernor, World
from tests.e2e.game_play import GAME, Players, load, settled, start, table_at
from tests.e2e.test_bot_lobby import open_lobby, pick, press, seats_of
from tests.offline_discord import ScriptedUser, StoredMessage, running_client


async def three(world: World, bot: OfflineGovernor) -> tuple[GameRecord, list[ScriptedUser]]:
    carol = world.server.add_user("carol", guild=world.guild)
    people = [world.alice, world.bob, carol]
    return await start(world, bot, world.alice, people[1:], "max_players:3"), people


def asked(state: Any, kind: str, seats: tuple[int, ...]) -> bool:
    prompt = GAME.prompt(state)
    return prompt is not None and prompt.kind == kind and prompt.seats == seats


async def drive(bot: OfflineGovernor, game_id: int, until: Callable[[Any], bool],
                limit: int = 400) -> None:
    """Play the people's heuristic choices straight through the service until ``until(state)``
    (quicker than clicking, for getting to the position a test is about)."""
    for _ in range(limit):
        record, state = await load(bot, game_id)
        if until(state):
            return
        prompt = GAME.prompt(state)
        assert prompt is not None
        seat = prompt.seats[0]
        action = make_policy("heuristic", "puerto-rico", record.version).choose(
            GAME, state, seat, GAME.legal_actions(state, seat))
        user = record.seat(seat).user_id  # type: ignore[union-attr]
        assert user is not None
        await bot.service.submit(game_id, user, record.version, GAME.encode_action(action))
    raise AssertionError("the position was never reached")


async def click_role(world: World, bot: OfflineGovernor, user: ScriptedUser, game_id: int,
                     code: str) -> Any:
    record = await bot.storage.games.get(game_id)
    table = await table_at(world, bot, game_id)
    handle = await user.click(table, custom_id=f"g:{game_id}:{record.version}:{code}")
    assert (await handle.response()).type == 6
    await settled(world, bot, game_id, record.version)
    return handle


def menu_with(panel: StoredMessage, prefix: str) -> tuple[str, str]:
    """(custom_id, first option) of the first enabled menu offering a code with ``prefix``."""
    for select in panel.selects():
        values = [o["value"] for o in select.get("options", ())]
        if not select.get("disabled") and values and values[0].startswith(prefix):
            return select["custom_id"], values[0]
    raise AssertionError(f"no menu of {prefix} in {panel.text()}")


async def test_undo_accepted_then_refused_once_another_player_moved(
    world: World, governor: OfflineGovernor
) -> None:
    """Alice chooses the Builder (her panel opens by itself), builds from a menu, then takes
    it back from her panel: the log keeps the action marked undone, the table says so and it
    is her decision again.  Once Bob has built after her, her undo is refused."""
    server = world.server
    record, (alice, bob, _) = await three(world, governor)
    role = await click_role(world, governor, alice, record.id, "r.builder")
    panel = await role.wait_for_followup(lambda m: "Your turn:** build" in m.text())
    assert panel.ephemeral and "VP chips (only you see them)" in panel.text()
    custom_id, building = menu_with(panel, "b.")
    before = await governor.storage.games.get(record.id)
    pick = await alice.select(panel, [building], custom_id=custom_id)
    assert (await pick.response()).type == 6
    await settled(world, governor, record.id, before.version)
    panel = await pick.original_message(lambda m: "Waiting for bob" in m.text())
    undo = await alice.click(panel, label="Undo")  # a double click: the panel was drawn once
    again = await alice.click(panel, label="Undo")
    assert (await undo.response()).type == 6 and (await again.response()).type == 6
    await world.server.wait_for(lambda: [m for m in (undo.original_message_or_none,)
                                         if m and "taken back" in m.text()] or None)
    await governor.wait_idle()
    effective = await governor.storage.games.actions(record.id)
    everything = await governor.storage.games.actions(record.id, include_undone=True)
    assert [a.code for a in effective] == ["r.builder"]
    assert [a.code for a in everything] == ["r.builder", building]
    table = await table_at(world, governor, record.id)
    assert "alice took back: alice built the" in table.text()
    assert "Waiting for alice: build." in table.text()

    typed = await alice.run(f"/pr build building:{building}", channel=world.general)
    assert "Waiting for bob" in (await typed.wait_for_followup()).text()
    bob_panel = await (await bob.click(await table_at(world, governor, record.id),
                                       label="My turn")).original_message()
    custom_id, choice = menu_with(bob_panel, "b.")
    now = await governor.storage.games.get(record.id)
    await bob.select(bob_panel, [choice], custom_id=custom_id)
    await settled(world, governor, record.id, now.version)
    refused = await alice.run("/game undo", channel=world.general)
    reply = await refused.wait_for_followup()
    assert reply.ephemeral and reply.content.startswith("Another player has decided")
    assert len(await governor.storage.games.actions(record.id)) == 3
    server.assert_no_failed_interactions()


async def test_undo_refused_after_a_reveal(world: World, governor: OfflineGovernor) -> None:
    """The last settler's choice turns new plantations face up: it can never be taken back."""
    record, (_, _, carol) = await three(world, governor)
    await drive(governor, record.id, lambda s: asked(s, "settle", (2,)))
    before = await governor.storage.games.get(record.id)
    panel = await (await carol.click(await table_at(world, governor, record.id),
                                     label="My turn")).original_message()
    code = next(c for c in ("s.corn", "s.indigo", "s.sugar", "s.tobacco", "s.coffee", "pass")
                if panel.find_component(custom_id=f"g:{record.id}:{before.version}:{c}"))
    await carol.click(panel, custom_id=f"g:{record.id}:{before.version}:{code}")
    moved = await settled(world, governor, record.id, before.version)
    refused = await carol.run("/game undo", channel=world.general)
    assert "revealed something hidden or random" in (await refused.wait_for_followup()).content
    assert (await governor.storage.games.get(record.id)).version == moved.version


async def test_a_stale_click_changes_nothing(world: World, governor: OfflineGovernor) -> None:
    """A role button clicked twice before the table is redrawn: the second click is outdated,
    nothing more happens, and the clicker privately gets one short line saying the game moved
    on (not the board again; My turn, since the Builder is hers to play).  A panel drawn before
    the player moved by command is redrawn with that line instead of acting twice."""
    server = world.server
    record, (alice, _, _) = await three(world, governor)
    table = await table_at(world, governor, record.id)
    custom_id = f"g:{record.id}:{record.version}:r.builder"
    first = await alice.click(table, custom_id=custom_id)
    second = await alice.click(table, custom_id=custom_id)
    [late] = await server.wait_for(lambda: [
        m for m in (*first.followups, *second.followups) if "moved on" in m.text()] or None)
    assert late.ephemeral and not late.embeds and not late.attachments
    assert late.text() == (f"Game #{record.id} has moved on since this was drawn; nothing was "
                           "done.")
    assert [b["label"] for b in late.buttons()] == ["My turn"]
    log = await governor.storage.games.actions(record.id)
    assert [a.code for a in log] == ["r.builder"]

    table = await table_at(world, governor, record.id)
    panel = await (await alice.click(table, label="My turn")).original_message()
    custom_id, building = menu_with(panel, "b.")
    typed = await alice.run(f"/pr build building:{building}", channel=world.general)
    await typed.wait_for_followup()
    old = await alice.select(panel, [building], custom_id=custom_id)
    assert (await old.response()).type == 6
    redrawn = await old.original_message(lambda m: "has moved on" in m.text())
    assert "Waiting for bob" in redrawn.text()
    assert [a.code for a in await governor.storage.games.actions(record.id)] == [
        "r.builder", building]


async def test_an_old_button_works_after_a_restart(
    world: World, make_governor: Callable[..., OfflineGovernor]
) -> None:
    """The table drawn by one bot process is clicked after a restart: the role button and My
    turn work with the new process (everything is in the custom_id and the database)."""
    server = world.server
    first = make_governor()
    async with running_client(server, first):
        await server.wait_for_command_sync(world.guild)
        record = await start(world, first, world.alice, [world.bob], "max_players:2")
        old_table = await table_at(world, first, record.id)
        await first.wait_idle()
    second = make_governor()
    async with running_client(server, second):
        handle = await world.alice.click(
            old_table, custom_id=f"g:{record.id}:{record.version}:r.builder")
        assert (await handle.response()).type == 6
        panel = await handle.wait_for_followup(lambda m: "Your turn:** build" in m.text())
        assert panel.ephemeral
        moved = await settled(world, second, record.id, record.version)
        assert moved.messages["table"] == old_table.id
        table = await table_at(world, second, record.id)
        assert "Builder phase" in table.text()
        await second.wait_idle()
    assert len(server.gateway_events("identify")) == 2
    server.assert_no_failed_interactions()


async def test_the_mayor_draft_and_simultaneous_arrangements(
    world: World, governor: OfflineGovernor
) -> None:
    """Everybody arranges colonists at once.  Bob accepts the suggestion; Alice, whose panel
    was drawn before Bob's move, changes one circle in a menu and confirms: accepted (the other
    seat's decision does not change hers), and her board is her draft."""
    record, (alice, bob, _) = await three(world, governor)

    def arranging(state: Any) -> bool:
        prompt = GAME.prompt(state)
        return prompt is not None and prompt.kind == "arrange" and {0, 1} <= set(prompt.seats)

    await drive(governor, record.id, arranging)
    table = await table_at(world, governor, record.id)
    alice_panel = await (await alice.click(table, label="My turn")).original_message()
    bob_panel = await (await bob.click(table, label="My turn")).original_message()
    assert "Suggested:" in alice_panel.text()
    players = Players(world, governor, record.id, {alice.id: alice, bob.id: bob})
    before = await governor.storage.games.get(record.id)
    await bob.click(bob_panel, custom_id=f"g:{record.id}:{before.version}:m.auto")
    await settled(world, governor, record.id, before.version)
    bob_done = await governor.storage.games.get(record.id)
    confirm = await players.arrange(alice, alice_panel, before.version)
    assert (await confirm.response()).type == 6
    await settled(world, governor, record.id, bob_done.version)
    log = await governor.storage.games.actions(record.id)
    mine = [a for a in log if a.seat == 0 and a.code.startswith("m.") and a.user_id == alice.id]
    assert mine and all(a.code != "m.auto" for a in mine)
    arranged = [e for a in log for e in a.events
                if e["type"] == "ColonistsArranged" and e["seat"] == 0]
    assert arranged
    assert players.used.get("mayor confirm") == 1


async def test_autocomplete_offers_exactly_the_legal_choices(
    world: World, governor: OfflineGovernor
) -> None:
    """/pr build suggests the buildings Alice can build now, with her price; nothing for Bob,
    whose turn it is not, and nothing from /pr sell during the Builder phase.  A typed name
    works as well as the suggested value."""
    record, (alice, bob, _) = await three(world, governor)
    await click_role(world, governor, alice, record.id, "r.builder")
    _, state = await load(governor, record.id)
    legal = {GAME.encode_action(a) for a in GAME.legal_actions(state, 0)} - {"pass"}
    typed = await alice.autocomplete("pr build", {"building": ""}, focused="building",
                                     channel=world.general)
    choices = await typed.choices()
    assert {c["value"] for c in choices} == legal
    market = {f"b.{b['building']}": b["price"] for b in GAME.view(state, 0)["market"]}
    assert all(f"— costs {market[c['value']]} doubloon" in c["name"] for c in choices)
    narrowed = await alice.autocomplete("pr build", {"building": "market"},
                                        focused="building", channel=world.general)
    assert {c["value"] for c in await narrowed.choices()} <= {"b.small_market",
                                                              "b.large_market"}
    nobody = await bob.autocomplete("pr build", {"building": ""}, focused="building",
                                    channel=world.general)
    assert await nobody.choices() == []
    wrong = await alice.autocomplete("pr sell", {"good": ""}, focused="good",
                                     channel=world.general)
    assert await wrong.choices() == []
    handle = await alice.run('/pr build building:"Small market"', channel=world.general)
    await handle.wait_for_followup()
    log = await governor.storage.games.actions(record.id)
    assert log[-1].code == "b.small_market" or "b.small_market" not in legal


async def test_leaving_hands_the_seat_to_an_ai(world: World, governor: OfflineGovernor) -> None:
    """Bob leaves with /game leave and a confirmation: an AI takes his seat and, the game
    waiting on it, plays at once."""
    record, (alice, bob, _) = await three(world, governor)
    await click_role(world, governor, alice, record.id, "r.builder")
    await drive(governor, record.id, lambda s: asked(s, "build", (1,)))
    handle = await bob.run("/game leave", channel=world.general)
    confirm = await handle.wait_for_followup()
    assert "An AI will play your seat" in confirm.text()
    click = await bob.click(confirm, label="Leave the game")
    assert (await click.response()).type == 6
    await click.original_message(lambda m: "an AI plays your seat" in m.text())
    after = await governor.storage.games.get(record.id)
    assert after.seat(1).ai_policy == "heuristic" and after.seat(1).user_id is None  # type: ignore[union-attr]
    log = await governor.storage.games.actions(record.id)
    assert log[-1].seat != 1 or log[-1].user_id is None
    assert 1 not in after.to_act


async def test_a_leavers_seat_plays_the_tables_level_never_its_ai_seats(
    world: World, governor: OfflineGovernor
) -> None:
    """Issue #33: the seat of a person who leaves goes to the level the lobby says (and
    docs/commands.md and docs/bot.md): the table's (``/game new ai_level``), else normal,
    whatever level the lobby seated its AI seats at (here a strong one beside a normal table,
    then an easy table)."""
    bob = f"<@{world.bob.id}>"
    for args, level, name in (("", "heuristic", "normal"), (" ai_level:random", "random",
                                                             "easy")):
        lobby = await open_lobby(world, world.alice, f"max_players:3{args}")
        assert f"an AI ({name}) takes the seat." in lobby.text()
        _, lobby = await pick(world, world.alice, lobby, "add", "AI (strong)",
                              lambda m: "AI (strong)" in seats_of(m))
        _, lobby = await press(world, world.bob, lobby, "Join", lambda m: bob in seats_of(m))
        mark = world.server.mark()
        await press(world, world.alice, lobby, "Start", lambda m: "has started" in m.text())
        await world.server.wait_for_message(world.general, lambda m: "round 1" in m.text(),
                                            since=mark)
        record = await governor.storage.games.find_by_channel(world.general.id)
        assert record is not None
        assert [s.ai_policy for s in record.seats] == [None, "strong", None]
        handle = await world.bob.run("/game leave", channel=world.general)
        click = await world.bob.click(await handle.wait_for_followup(), label="Leave the game")
        await click.original_message(lambda m: "an AI plays your seat" in m.text())
        after = await governor.storage.games.get(record.id)
        assert [s.ai_policy for s in after.seats] == [None, "strong", level], args
        [handover] = await governor.storage.games.handovers(record.id)
        assert handover.to_ai_policy == level
        names = await governor.publisher.seat_names(after)  # as the table and log name it
        assert names[2] == f"AI 3 ({name})"
        done = await world.alice.run("/game abandon", channel=world.general)
        await done.wait_for_followup()


async def test_abandoning_closes_the_table(world: World, governor: OfflineGovernor) -> None:
    """/game abandon by the creator: the game ends without a result and its table keeps no
    button to press."""
    record, (alice, _, _) = await three(world, governor)
    handle = await alice.run("/game abandon", channel=world.general)
    assert "cancelled" in (await handle.wait_for_followup()).content
    table = await world.server.wait_for_message(
        world.general, lambda m: m.id == record.messages["table"] and "abandoned" in m.text())
    assert not table.buttons() and not table.attachments


async def test_the_last_person_leaving_abandons_the_game(world: World, governor: OfflineGovernor
                                                        ) -> None:
    """Issue #33: Bob leaves (an AI plays his seat on), then Alice, the last person: her
    confirmation says what will happen, in her language (the game ends at once without a
    result, nobody rated; not "an AI will play your seat"), and it does: the game is
    abandoned with no outcome, its table closed, no rating for anyone (Bob, who left first,
    neither)."""
    record = await start(world, governor, world.alice, [world.bob],
                         "max_players:3 ai_seats:1")
    table = await table_at(world, governor, record.id)
    handle = await world.bob.run("/game leave", channel=world.general)
    confirm = await handle.wait_for_followup()
    assert "An AI will play your seat" in confirm.text()
    click = await world.bob.click(confirm, label="Leave the game")
    await click.original_message(lambda m: "an AI plays your seat" in m.text())

    said = {}
    for locale, lang in (("en-US", "en"), ("es-ES", "es"), ("pt-BR", "pt")):
        handle = await world.alice.run("/game leave", channel=world.general, locale=locale)
        said[lang] = await handle.wait_for_followup()
        assert said[lang].ephemeral
    assert said["en"].content == (
        f"Leave game #{record.id}? You are the last person at the table: the game ends at once, "
        "without a result, and nobody is rated. This cannot be undone.")
    assert "termina ya, sin resultado, y no cuenta para la clasificación de nadie" in said[
        "es"].content
    assert "termina na hora, sem resultado, e não conta para a classificação de ninguém" in said[
        "pt"].content
    assert not any("IA" in said[lang].content for lang in ("es", "pt"))
    assert (await governor.storage.games.get(record.id)).status.value == "active"  # asked only

    # the click answers in the clicker's own Discord language (alice's: English)
    click = await world.alice.click(said["es"], label="Dejar la partida")
    done = await click.original_message(lambda m: "You left" in m.text())
    assert done.content == (
        f"You left game #{record.id}; no other person was playing, so the game ended without "
        "a result and nobody is rated.")
    assert "sin resultado y no cuenta para la clasificación de nadie" in CATALOG.t(
        "es", "reply.left_abandoned", game=record.id)
    assert "sem resultado e não conta para a classificação de ninguém" in CATALOG.t(
        "pt", "reply.left_abandoned", game=record.id)
    over = await governor.storage.games.get(record.id)
    assert over.status.value == "abandoned" and over.outcome is None
    assert await governor.storage.ratings.changes(record.id) == []
    assert await governor.storage.ratings.status(record.id) is None
    for person in (world.alice, world.bob):
        assert await governor.storage.ratings.rating(
            world.guild.id, "puerto-rico", person.id) is None
    closed = await world.server.wait_for_message(
        world.general, lambda m: m.id == table.id and "abandoned without a result" in m.text())
    assert not closed.buttons()
