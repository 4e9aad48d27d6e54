"""Every custom_id gets a clear private answer: ids of an older format, tails the bot never
draws (too long, other characters, a table action that does not exist), ids out of the
database's 64-bit range and unknown prefixes.  None of them is an internal error ("Something
went wrong", an ERROR in the log) and none is left on "This interaction failed".

The cases are made from the bot's own registered component classes (``GovernorBot.
dynamic_items``), so a family added later is tested too.  Each is clicked where it is the
most likely to get through: on a private panel (every game component acts there), on a lobby
(its own families) and on the public table (the unknown ones)."""

from __future__ import annotations

import logging
import re
from typing import Any

import pytest

from tests.e2e.conftest import OfflineGovernor, World
from tests.e2e.game_play import start, table_at
from tests.e2e.test_forged_components import lobby_in
from tests.offline_discord import ComponentType, ScriptedUser, StoredMessage

HUGE = "9999999999999999999"  # 19 digits, above 2**63 - 1
GENERIC = "Something went wrong"
UNKNOWN = "no longer valid"
SELECTS = {"gs", "lr", "ls", "ma", "bk", "ns"}


def prefixes(governor: OfflineGovernor) -> list[str]:
    """The prefix of every component class the bot registers (``g``, ``t``, ``cv``...)."""
    found = []
    for item in governor.dynamic_items:
        match = re.match(r"([a-z]+):", item.__discord_ui_compiled_template__.pattern)
        assert match, item
        found.append(match[1])
    return found


VALID = {  # a well-formed id of each family, ``{g}`` its game (or vote), ``{v}`` its version
    "l": "l:{g}:{v}:join", "lr": "lr:{g}:{v}", "ls": "ls:{g}:{v}:add", "g": "g:{g}:{v}:r.settler",
    "gs": "gs:{g}:{v}:role", "t": "t:{g}:{v}:panel", "ma": "ma:{g}:{v}:i:", "mb": "mb:{g}:{v}:",
    "bk": "bk:{g}:{v}", "cv": "cv:{g}:ai",
    "nt": "nt:dm", "ns": "ns:hour",  # (a person's own settings: no game in them)
}


def cases(prefix: str, game: int, version: int) -> list[str]:
    """Malformed ids of the family ``prefix``: its well-formed id with a game (or vote) beyond
    the 64-bit integers and a version of 20 digits; with a tail it never draws, a tail with
    other than ASCII, a tail too long; without its version (an older format)."""
    assert prefix in VALID, f"add a well-formed {prefix}: id to VALID"
    valid = VALID[prefix]
    return [
        valid.format(g=HUGE, v=version),
        valid.format(g=game, v=HUGE + "0"),
        valid.format(g=game, v=version) + ":zzz",
        valid.format(g=game, v=version) + "é",
        valid.format(g=game, v=version) + "a" * 90,
        valid.replace(":{v}", "").format(g=game) + ":zzz",
        f"{prefix}:١٢:{version}:x",  # digits, but not ASCII ones
    ]


UNCLAIMED = ["zz:1:2:3", "game:1:2:r.settler", "r.settler", "g", ":::", "é:1:2:3"]


async def click(user: ScriptedUser, message: StoredMessage, custom_id: str) -> str:
    """Attach a component with ``custom_id`` to ``message`` (a select for the menu families),
    use it and return the private answer (a reply, or a followup of a deferred one)."""
    stored = user.server.get_message(message.id)
    assert stored is not None
    select = custom_id.split(":", 1)[0] in SELECTS
    item: dict[str, Any] = (
        {"type": ComponentType.STRING_SELECT, "custom_id": custom_id, "min_values": 1,
         "max_values": 1, "options": [{"label": "x", "value": "x"}]} if select
        else {"type": ComponentType.BUTTON, "style": 2, "label": "forged", "custom_id": custom_id})
    row = {"type": ComponentType.ACTION_ROW, "components": [item]}
    stored.components.append(row)
    version = stored.version
    try:
        handle = (await user.select(stored, ["x"], custom_id=custom_id) if select
                  else await user.click(stored, custom_id=custom_id))
        response = await handle.response()
        if not (response.deferred or response.type in (6, 7)):
            assert response.ephemeral, custom_id
            return response.content or ""

        def answered() -> StoredMessage | None:
            if handle.followups:
                return handle.followups[0]
            now = user.server.get_message(message.id)  # a private panel redrawn in place
            return now if now is not None and now.version > version and now.ephemeral else None

        answer = await user.server.wait_for(answered, what=f"the answer to {custom_id}")
        assert answer.ephemeral, custom_id
        return answer.text()
    finally:
        if row in stored.components:  # (a panel redrawn in place has its own rows now)
            stored.components.remove(row)


async def test_every_custom_id_gets_a_clear_private_answer(
    world: World, governor: OfflineGovernor, caplog: pytest.LogCaptureFixture
) -> None:
    server = world.server
    carol = server.add_user("carol", guild=world.guild)
    record = await start(world, governor, world.alice, [carol], "max_players:2")
    table = await table_at(world, governor, record.id)
    panel = await (await world.alice.click(table, label="My turn")).original_message()
    lobby = await lobby_in(world, world.alice, server.add_text_channel(world.guild, "other"))
    families = prefixes(governor)
    assert {"g", "gs", "t", "l", "lr", "cv", "ma", "mb", "bk"} <= set(families)
    g, v = record.id, record.version
    other = await governor.storage.games.find_by_channel(lobby.channel_id)
    assert other is not None
    lg, lv = other.id, other.version
    answers: dict[str, str] = {}
    with caplog.at_level(logging.INFO):
        for prefix in families:
            at_lobby = prefix in ("l", "lr", "ls")
            for custom_id in cases(prefix, lg if at_lobby else g, lv if at_lobby else v):
                where = lobby if at_lobby else panel
                answers[custom_id] = await click(world.alice, where, custom_id)
        for custom_id in UNCLAIMED:
            answers[custom_id] = await click(world.alice, table, custom_id)
        # the two of the issue, on the table: a table action that does not exist, and a
        # vote beyond SQLite's integers
        answers["table t:zzz"] = await click(world.alice, table, f"t:{g}:{v}:zzz")
        answers["table cv"] = await click(world.alice, table, f"cv:{HUGE}:ai")
        answers["table g huge"] = await click(world.alice, table, f"g:{HUGE}:{v}:r.settler")
    for custom_id, answer in answers.items():
        assert answer and GENERIC not in answer, (custom_id, answer)
    assert UNKNOWN in answers["table t:zzz"]
    assert answers["table cv"] == "This vote is over; nothing was changed."
    for prefix in ("g", "gs", "t", "mb", "l"):  # the families whose handler reads the game
        assert answers[VALID[prefix].format(g=HUGE, v=v if prefix != "l" else lv)] == (
            f"Game #{HUGE} does not exist."), prefix
    for custom_id in UNCLAIMED:
        assert UNKNOWN in answers[custom_id], custom_id
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert errors == [], [r.getMessage() for r in errors]
    now = await governor.storage.games.get(record.id)
    assert now.version == record.version
    server.assert_no_failed_interactions()


async def test_unclaimed_ids_are_answered_in_the_users_language(
    world: World, governor: OfflineGovernor
) -> None:
    """The catch-all answers in the clicker's Discord language (Spanish, Portuguese)."""
    server = world.server
    lucia = server.add_user("lucia", guild=world.guild, locale="es-ES")
    joao = server.add_user("joao", guild=world.guild, locale="pt-BR")
    lobby = await lobby_in(world, world.alice, world.general)
    assert "ya no es válido" in await click(lucia, lobby, "t:1:2:zzz")
    assert "não é mais válido" in await click(joao, lobby, "old:1")
    server.assert_no_failed_interactions()
