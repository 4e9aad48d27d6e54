"""The Puerto Rico lobby end to end: the real bot, the real database, the offline Discord."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable
from typing import Any

import pytest

from bot.errors import UserError
from bot.seats import Actor
from storage import GameStatus
from tests.e2e.conftest import OfflineGovernor, World
from tests.offline_discord import InteractionHandle, ScriptedUser, StoredMessage


def is_lobby(game_id: int | None = None):
    def check(m: StoredMessage) -> bool:
        return m.find_component(custom_id_prefix="l:") is not None and (
            game_id is None or f"#{game_id}" in m.text()
        )

    return check


async def open_lobby(world: World, user: ScriptedUser, args: str = "") -> StoredMessage:
    mark = world.server.mark()
    handle = await user.run(f"/game new {args}".strip(), channel=world.general)
    response = await handle.response()
    assert response.type == 5 and response.ephemeral  # deferred first, always
    reply = await handle.wait_for_followup()
    assert "is open" in reply.content or "está abierta" in reply.content
    return await world.server.wait_for_message(world.general, is_lobby(), since=mark)


def seats_of(message: StoredMessage) -> str:
    fields = message.embeds[0]["fields"]
    return str(fields[0]["value"])


async def press(
    world: World,
    user: ScriptedUser,
    message: StoredMessage,
    label: str,
    until: Callable[[StoredMessage], bool] | None = None,
) -> tuple[InteractionHandle, StoredMessage]:
    """Click ``label``; with ``until``, wait for the message to be edited into that state."""
    mark = world.server.mark()
    handle = await user.click(message, label=label)
    assert (await handle.response()).type == 6  # deferred update, then the edit
    if until is None:
        return handle, message
    edited = await world.server.wait_for_message(
        message.channel_id, lambda m: m.id == message.id and until(m), since=mark
    )
    return handle, edited


def seat_menu(message: StoredMessage, which: str) -> dict[str, Any] | None:
    """The lobby's ``add`` or ``remove`` seat menu as the message shows it now."""
    return next((s for s in message.selects()
                 if re.fullmatch(rf"ls:\d+:\d+:{which}", str(s["custom_id"]))), None)


def menu_labels(message: StoredMessage, which: str) -> list[str]:
    menu = seat_menu(message, which)
    return [] if menu is None else [str(o["label"]) for o in menu["options"]]


async def pick(
    world: World,
    user: ScriptedUser,
    message: StoredMessage,
    which: str,
    value: str,
    until: Callable[[StoredMessage], bool] | None = None,
) -> tuple[InteractionHandle, StoredMessage]:
    """Pick ``value`` (an option's value or label) in the lobby's ``which`` seat menu; with
    ``until``, wait for the message to be edited into that state."""
    shown = world.server.get_message(message.id)
    assert shown is not None
    menu = seat_menu(shown, which)
    assert menu is not None, f"no {which} menu: {[s['custom_id'] for s in shown.selects()]}"
    mark = world.server.mark()
    handle = await user.select(shown, [value], custom_id=menu["custom_id"])
    assert (await handle.response()).type == 6  # deferred update, then the edit
    if until is None:
        return handle, shown
    edited = await world.server.wait_for_message(
        message.channel_id, lambda m: m.id == message.id and until(m), since=mark
    )
    return handle, edited


async def test_create_join_leave_add_ai_and_start(world: World, governor: OfflineGovernor) -> None:
    """The whole lobby: create, join, leave, add an AI, rejoin, start; the table is posted
    with its image and the first player gets a DM with a link to it."""
    server = world.server
    lobby = await open_lobby(world, world.alice, "max_players:3")
    assert "1 of 3 seats" in lobby.text() and f"<@{world.alice.id}>" in seats_of(lobby)
    assert [b["label"] for b in lobby.buttons()] == ["Join", "Leave", "Add AI", "Start", "Cancel"]
    assert all(len(b["custom_id"]) <= 100 for b in lobby.buttons())

    bob = f"<@{world.bob.id}>"
    _, lobby = await press(world, world.bob, lobby, "Join", lambda m: bob in seats_of(m))
    _, lobby = await press(world, world.bob, lobby, "Leave", lambda m: bob not in seats_of(m))
    _, lobby = await press(world, world.alice, lobby, "Add AI", lambda m: "AI (" in seats_of(m))
    assert "AI (normal)" in seats_of(lobby)
    _, lobby = await press(world, world.bob, lobby, "Join",
                           lambda m: "The table is full (3 seats taken)" in m.text())
    assert "press **Join**" not in lobby.text() and "Start" in lobby.text()

    game = await governor.storage.games.find_by_channel(world.general.id)
    assert game is not None and [s.user_id for s in game.seats] == [
        world.alice.id, None, world.bob.id
    ]
    mark = server.mark()
    # Anyone seated may start a full table.
    await press(world, world.bob, lobby, "Start", lambda m: "has started" in m.text())
    assert not server.get_message(lobby.id).buttons()  # type: ignore[union-attr]
    table = await server.wait_for_message(
        world.general, lambda m: "round 1" in m.text(), since=mark
    )
    assert table.attachments and table.attachments[0].is_png
    assert "Waiting for alice: choose a role." in table.text()
    started = await governor.storage.games.get(game.id)
    assert started.status is GameStatus.ACTIVE and started.seed is not None
    assert started.messages["table"] == table.id
    dm = await server.wait_for_dm(world.alice)
    assert f"game #{game.id}" in dm.content and str(table.id) in dm.content


async def test_only_the_creator_or_a_manager_may_start_early_or_cancel(
    world: World, governor: OfflineGovernor
) -> None:
    """A stranger's Start and Cancel are refused privately and change nothing; a member with
    Manage Server may cancel."""
    lobby = await open_lobby(world, world.alice, "ai_seats:1")
    _, lobby = await press(world, world.bob, lobby, "Join", lambda m: "3 of 5" in m.text())
    for label in ("Start", "Cancel"):
        handle, _ = await press(world, world.bob, lobby, label)
        refusal = await handle.wait_for_followup()
        assert refusal.ephemeral and "Only the creator" in refusal.content
    game = await governor.storage.games.find_by_channel(world.general.id)
    assert game is not None and game.status is GameStatus.LOBBY and len(game.seats) == 3

    _, closed = await press(world, world.manager, lobby, "Cancel", lambda m: "cancel" in m.text())
    assert not closed.buttons()
    assert (await governor.storage.games.get(game.id)).status is GameStatus.ABANDONED


async def test_one_open_game_per_channel_names_the_existing_game(
    world: World, governor: OfflineGovernor
) -> None:
    await open_lobby(world, world.alice)
    game = await governor.storage.games.find_by_channel(world.general.id)
    assert game is not None
    handle = await world.bob.run("/game new", channel=world.general)
    reply = await handle.wait_for_followup()
    assert reply.ephemeral
    assert reply.content == (
        f"This channel already has a game: #{game.id} (waiting for players). "
        "Finish or cancel it first, or open a thread for a new one."
    )


async def test_outdated_button_is_refused_and_the_lobby_redrawn(
    world: World, governor: OfflineGovernor
) -> None:
    """Add AI drawn for version v after the lobby moved on: nothing happens, the clicker is told
    privately, and the message shows the current lobby again."""
    server = world.server
    lobby = await open_lobby(world, world.alice)
    old_add_ai = lobby.component(label="Add AI")["custom_id"]
    await press(world, world.bob, lobby, "Join", lambda m: "2 of 5" in m.text())
    # Put the old button back on the message, as if the edit had never reached this client.
    stale = server.get_message(lobby.id)
    assert stale is not None
    stale.components[0]["components"][2]["custom_id"] = old_add_ai
    mark = server.mark()
    handle = await world.alice.click(stale, custom_id=old_add_ai)
    note = await handle.wait_for_followup()
    assert note.ephemeral and "older state" in note.content
    redrawn = await server.wait_for_message(
        world.general,
        lambda m: m.id == lobby.id and m.component(label="Add AI")["custom_id"] != old_add_ai,
        since=mark,
    )
    assert "AI (" not in seats_of(redrawn)
    game = await governor.storage.games.find_by_channel(world.general.id)
    assert game is not None and len(game.seats) == 2


async def test_join_clicked_before_the_lobby_message_id_is_stored(
    world: World, governor: OfflineGovernor, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Join clicked the moment the lobby appears, while the bot still stores the message's id:
    the click waits for the id and seats the player (it used to be refused as a foreign
    message)."""
    server = world.server
    games = governor.storage.games
    gate = asyncio.Event()
    storing = asyncio.Event()
    set_message = games.set_message

    async def slow_set_message(*args: Any, **kwargs: Any) -> Any:
        storing.set()
        await gate.wait()
        return await set_message(*args, **kwargs)

    monkeypatch.setattr(games, "set_message", slow_set_message)
    mark = server.mark()
    created = await world.alice.run("/game new", channel=world.general)
    lobby = await server.wait_for_message(world.general, is_lobby(), since=mark)
    await asyncio.wait_for(storing.wait(), 10)
    join = await world.bob.click(lobby, label="Join")
    assert (await join.response()).type == 6
    await asyncio.sleep(0.05)  # the click is in the bot now, waiting for the id
    assert not join.followups
    gate.set()
    reply = await created.wait_for_followup()
    assert "is open" in reply.content
    bob = f"<@{world.bob.id}>"
    await server.wait_for_message(
        world.general, lambda m: m.id == lobby.id and bob in seats_of(m), since=mark
    )
    game = await games.find_by_channel(world.general.id)
    assert game is not None and [s.user_id for s in game.seats] == [world.alice.id, world.bob.id]
    assert not join.followups  # no refusal


async def test_double_click_is_applied_once(world: World, governor: OfflineGovernor) -> None:
    """Two clicks on the same Add AI button before the first is answered add one AI."""
    lobby = await open_lobby(world, world.alice)
    first = await world.alice.click(lobby, label="Add AI")
    second = await world.alice.click(lobby, label="Add AI")
    await asyncio.gather(first.response(), second.response())
    game_id = int(lobby.component(label="Add AI")["custom_id"].split(":")[1])
    await world.server.wait_for(
        lambda: any(h.followups for h in (first, second)) or None
    )
    game = await governor.storage.games.get(game_id)
    assert [s.ai_policy for s in game.seats] == [None, "heuristic"]
    notes = [m for h in (first, second) for m in h.followups]
    assert len(notes) == 1 and "older state" in notes[0].content


async def test_spanish_game_posts_in_spanish_and_replies_in_the_user_locale(
    world: World, governor: OfflineGovernor
) -> None:
    """Channel posts use the game's language; ephemeral replies the user's Discord locale."""
    spanish = world.server.add_user("lucia", guild=world.guild, locale="es-ES")
    lobby = await open_lobby(world, spanish, "language:es ai_level:random ai_seats:1")
    assert "Creada por" in lobby.text() and "IA (fácil)" in seats_of(lobby)
    assert [b["label"] for b in lobby.buttons()] == [
        "Unirme", "Salir", "Añadir IA", "Empezar", "Cancelar"
    ]
    assert menu_labels(lobby, "add") == ["IA (fácil)", "IA (normal)", "IA (fuerte)"]
    assert menu_labels(lobby, "remove") == ["2. IA (fácil)"]
    assert "una IA (fácil) toma su asiento" in lobby.text()
    handle, _ = await press(world, world.bob, lobby, "Cancelar")  # bob's locale is en-US
    refusal = await handle.wait_for_followup()
    assert refusal.content.startswith("Only the creator")
    _, lobby = await press(world, spanish, lobby, "Añadir IA", lambda m: "3 de 5" in m.text())
    assert seats_of(lobby).count("IA (fácil)") == 2
    mark = world.server.mark()
    await press(world, spanish, lobby, "Empezar", lambda m: "ha empezado" in m.text())
    table = await world.server.wait_for_message(
        world.general, lambda m: "ronda 1" in m.text(), since=mark
    )
    assert "Esperando a lucia: elegir un personaje." in table.text()
    board_text = table.text() + "".join(  # the board's words: the image's description
        str(item.get("description")) for c in table.iter_components() for item in c.get("items", ())
    )
    assert "Barcos cargueros" in board_text and "Casa de comercio" in board_text
    dm = await world.server.wait_for_dm(spanish)
    assert dm.content.startswith("Es tu turno en la partida")


async def test_abandon_and_show_commands(world: World, governor: OfflineGovernor) -> None:
    """/game show shows the channel's game privately; /game abandon is for the creator or a
    manager and frees the channel."""
    lobby = await open_lobby(world, world.alice, "ai_seats:1")
    await press(world, world.alice, lobby, "Start", lambda m: "has started" in m.text())
    shown = await world.bob.run("/game show", channel=world.general)
    table = await shown.wait_for_followup()
    assert table.ephemeral and "round 1" in table.text() and table.attachments

    refused = await world.bob.run("/game abandon", channel=world.general)
    assert "Only the creator" in (await refused.wait_for_followup()).content
    done = await world.manager.run("/game abandon", channel=world.general)
    assert "cancelled" in (await done.wait_for_followup()).content
    await world.server.wait_for_message(world.general, lambda m: "was abandoned by" in m.text())
    assert await governor.storage.games.find_by_channel(world.general.id) is None
    nothing = await world.bob.run("/game show", channel=world.general)
    assert "no open game" in (await nothing.wait_for_followup()).content


async def test_ai_seats_of_any_level_are_added_shown_and_removed(
    world: World, governor: OfflineGovernor
) -> None:
    """Issue #33: the lobby's menu adds an AI of any level (Add AI: the table's), each AI seat
    shows its level, a full table offers none (Add AI greyed out), and the creator or a member
    with Manage Server removes any AI seat from the other menu (later seats move up); nobody
    else may, and a person's seat is never one to remove.  The table starts with those
    levels; the lobby says which AI takes over the seat of a player who leaves."""
    lobby = await open_lobby(world, world.alice, "max_players:4")
    assert menu_labels(lobby, "add") == ["AI (easy)", "AI (normal)", "AI (strong)"]
    add = seat_menu(lobby, "add")
    assert add is not None and add["placeholder"] == "Add an AI seat of any level…"
    assert [o["description"] for o in add["options"]] == [
        "Easy: plays at random", "Normal: follows a simple strategy",
        "Strong: searches ahead, about a second a move"]
    assert seat_menu(lobby, "remove") is None  # no AI seat yet
    assert "A player who leaves a started game: an AI (normal) takes the seat." in lobby.text()

    _, lobby = await pick(world, world.alice, lobby, "add", "AI (strong)",
                          lambda m: "AI (strong)" in seats_of(m))
    _, lobby = await pick(world, world.alice, lobby, "add", "random",
                          lambda m: "AI (easy)" in seats_of(m))
    _, lobby = await press(world, world.alice, lobby, "Add AI",
                           lambda m: "AI (normal)" in seats_of(m))
    alice = f"<@{world.alice.id}>"
    assert seats_of(lobby).splitlines() == [
        f"1. {alice}", "2. AI (strong)", "3. AI (easy)", "4. AI (normal)"]
    assert seat_menu(lobby, "add") is None  # full: nothing to add
    assert lobby.component(label="Add AI").get("disabled")
    assert menu_labels(lobby, "remove") == ["2. AI (strong)", "3. AI (easy)", "4. AI (normal)"]
    assert seat_menu(lobby, "remove")["placeholder"] == "Remove an AI seat…"  # type: ignore[index]

    game = await governor.storage.games.find_by_channel(world.general.id)
    assert game is not None
    handle, _ = await pick(world, world.bob, lobby, "remove", "2. AI (strong)")
    refusal = await handle.wait_for_followup()
    assert refusal.ephemeral and "Only the creator" in refusal.content
    assert (await governor.storage.games.get(game.id)).seats == game.seats

    _, lobby = await pick(world, world.manager, lobby, "remove", "2. AI (strong)",
                          lambda m: "AI (strong)" not in seats_of(m))
    assert seats_of(lobby).splitlines() == [
        f"1. {alice}", "2. AI (easy)", "3. AI (normal)", "4. (free)"]
    assert menu_labels(lobby, "add") == ["AI (easy)", "AI (normal)", "AI (strong)"]
    assert not lobby.component(label="Add AI").get("disabled")

    # A person's seat is not an AI seat: refused, nothing changes (the service checks it,
    # whatever the menu offered).
    game = await governor.storage.games.get(game.id)
    with pytest.raises(UserError) as refused:
        await governor.service.remove_ai(game.id, Actor(world.alice.id), game.version, 0)
    assert refused.value.key == "err.not_an_ai_seat"
    assert (await governor.storage.games.get(game.id)).seats == game.seats

    await press(world, world.alice, lobby, "Start", lambda m: "has started" in m.text())
    started = await governor.storage.games.get(game.id)
    assert [s.ai_policy for s in started.seats] == [None, "random", "heuristic"]
