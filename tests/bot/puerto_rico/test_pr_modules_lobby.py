"""Puerto Rico's expansions as the lobby's optional rules: the presenter offers exactly the
modules the bot presents (the Buccaneer and the Festival, not the engine's modules still being
built), the creator turns them on and off before the start (stored as the engine's
``modules`` option), anyone else is refused, and a game started with them plays them."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

from bot.changes import TableUpdate
from bot.errors import UserError, message_for
from bot.games import presenter_for
from bot.games.puerto_rico.modules import MODULES, lobby_options, modules_of
from bot.presenters import lobby_embed
from bot.seats import Actor
from bot.service import GameService
from engine import get_game
from engine.core import Event
from storage import GameRecord, Storage

PR = presenter_for("puerto-rico")


class Publisher:
    def __init__(self) -> None:
        self.tables: list[TableUpdate] = []

    async def seat_names(self, record: GameRecord) -> dict[int, str]:
        return {s.seat: f"P{s.seat}" for s in record.seats}

    async def publish_table(self, update: TableUpdate) -> None:
        self.tables.append(update)

    async def notify_turn(self, update: TableUpdate) -> None:
        return None


class Keep(random.Random):
    def shuffle(self, x: Any) -> None:
        return None


def render(
    view: Mapping[str, Any],
    events: Sequence[Event],
    names: Mapping[int, str],
    labels: Mapping[str, str],
) -> bytes:
    return b"\x89PNG fake"


@pytest.fixture
async def storage(tmp_path: Path) -> AsyncIterator[Storage]:
    store = await Storage.open(tmp_path / "g.db", synchronous="OFF")
    yield store
    await store.close()


def test_the_presenter_offers_only_the_presented_modules() -> None:
    """§10–13 are all offered (Exp. 1 with its two rules of its own:
    tests/bot/puerto_rico/test_pr_new_buildings_lobby.py), in the engine's order; an unknown
    name is left out."""
    assert MODULES == ("new_buildings", "nobles", "buccaneer", "festival")
    assert set(MODULES) <= set(PR.variants)
    assert PR.lobby_options(4) == {"players": 4}  # no module: the options of before
    assert PR.lobby_options(3, ["festival", "buccaneer"]) == {
        "players": 3,
        "modules": ["buccaneer", "festival"],
    }  # the engine's order
    assert lobby_options(2, ["nobles"]) == {"players": 2, "modules": ["nobles"]}
    assert lobby_options(2, ["pirates"]) == {"players": 2}
    assert PR.variants_on({"players": 3, "modules": ["buccaneer"]}) == ["buccaneer"]
    assert modules_of({"modules": ["festival", "nobles", "pirates"]}) == ["nobles", "festival"]
    options = get_game("puerto-rico").normalize_options(PR.lobby_options(5, MODULES))
    assert options["modules"] == ["new_buildings", "nobles", "buccaneer", "festival"]


async def test_the_creator_chooses_the_modules_and_the_game_plays_them(storage: Storage) -> None:
    publisher = Publisher()
    svc = GameService(storage, publisher, rng=Keep(1), renderer=render)
    record = await svc.create_lobby(
        creator_id=1,
        guild_id=5,
        channel_id=10,
        language="en",
        max_players=3,
        ai_seats=2,
        variants=["buccaneer"],
    )
    assert record.options == {"players": 3, "modules": ["buccaneer"]}
    record = await svc.set_variants(record.id, Actor(1), record.version, ["buccaneer", "festival"])
    assert record.options == {"players": 3, "modules": ["buccaneer", "festival"]}
    embed = lobby_embed(record, "en", "heuristic", PR.catalog)
    assert "Rules: The Buccaneer (Exp. 3) and The Festival (Exp. 4)" in str(embed.to_dict())

    with pytest.raises(UserError) as stranger:  # not the creator, no Manage Server
        await svc.set_variants(record.id, Actor(7), record.version, [])
    assert stranger.value.key == "err.not_allowed"
    with pytest.raises(UserError) as unknown:
        await svc.set_variants(record.id, Actor(1), record.version, ["pirates"])
    assert unknown.value.key == "err.no_such_variant"
    assert (await storage.games.get(record.id)).options["modules"] == ["buccaneer", "festival"]

    record = await svc.set_variants(record.id, Actor(1), record.version, [])
    assert record.options == {"players": 3}  # all off: exactly the options of before
    record = await svc.set_variants(
        record.id, Actor(99, can_manage=True), record.version, ["festival", "buccaneer"]
    )
    update = await svc.start(record.id, Actor(1), record.version)
    view = update.view
    assert view["options"]["modules"] == ["buccaneer", "festival"]
    assert view["buccaneer"] is not None and view["festival"] is not None
    assert [r["card"] for r in view["roles"]][-1] == "buccaneer"
    header = PR.header_lines(view, update.names, "es")
    assert "Expansiones: El Bucanero y El Festival" in header


async def test_a_typed_variant_or_seat_kind_is_echoed_as_text(storage: Storage) -> None:
    """Issue #33: what a person typed comes back in a refusal as text: markdown and mentions
    escaped (a typed "@everyone" or "**x**" renders as typed and pings nobody)."""
    svc = GameService(storage, Publisher(), rng=Keep(1), renderer=render)
    record = await svc.create_lobby(game="puerto-rico", creator_id=1, guild_id=5,
                                    channel_id=10, language="en", max_players=3, ai_seats=0)
    with pytest.raises(UserError) as unknown:
        await svc.set_variants(record.id, Actor(1), record.version, ["**pirates** @everyone"])
    text = message_for(unknown.value, "en")
    assert "\\*\\*pirates\\*\\* \\@everyone" in text and "**pirates**" not in text
    with pytest.raises(UserError) as level:
        await svc.create_lobby(game="puerto-rico", creator_id=1, guild_id=5, channel_id=11,
                               language="en", max_players=3, ai_seats=1, ai_level="<@&42>")
    assert "\\<\\@&42\\>" in message_for(level.value, "en")
