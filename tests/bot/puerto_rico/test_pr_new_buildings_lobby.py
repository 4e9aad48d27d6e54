"""Puerto Rico's Exp. 1 (the New Buildings) as the lobby's optional rules: the module itself
(drafted, §10.1), its buildings drawn at random instead (``building_selection: random``) and
the 2004 rule keeping the Hacienda and the Forest house apart (ruling A22,
``exclusive_forest_house``), either of which turns the module on; stored exactly as the engine
normalizes them; the menu shows what stored options turn on; a game started with the draft
begins with it, and the table says which modules it plays."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

from bot.changes import TableUpdate
from bot.errors import UserError
from bot.games import presenter_for
from bot.games.puerto_rico.modules import VARIANTS, lobby_options, variants_of
from bot.lobby import LobbyFlow
from bot.presenters import lobby_embed
from bot.seats import Actor
from bot.service import GameService
from engine import get_game
from engine.core import Event
from storage import GameRecord, Storage

PR = presenter_for("puerto-rico")
GAME = get_game("puerto-rico")


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


def render(view: Mapping[str, Any], events: Sequence[Event], names: Mapping[int, str],
           labels: Mapping[str, str]) -> bytes:
    return b"\x89PNG fake"


@pytest.fixture
async def storage(tmp_path: Path) -> AsyncIterator[Storage]:
    store = await Storage.open(tmp_path / "g.db", synchronous="OFF")
    yield store
    await store.close()


def normalized(options: dict[str, Any]) -> dict[str, Any]:
    """``options`` as the engine normalizes them, restricted to the keys the lobby stores."""
    full = GAME.normalize_options(options)
    return {k: v for k, v in full.items() if k in options}


def test_the_rules_offered_and_how_they_are_stored() -> None:
    assert PR.variants == VARIANTS == ("new_buildings", "random_buildings",
                                       "exclusive_forest_house", "nobles", "buccaneer",
                                       "festival")
    draft = PR.lobby_options(4, ["new_buildings"])
    assert draft == {"players": 4, "modules": ["new_buildings"], "building_selection": "draft"}
    assert normalized(draft) == draft  # exactly as the engine normalizes them
    random_ = PR.lobby_options(3, ["random_buildings"])  # turns the module on by itself
    assert random_ == {"players": 3, "modules": ["new_buildings"],
                       "building_selection": "random"}
    both = PR.lobby_options(5, ["festival", "exclusive_forest_house", "buccaneer"])
    assert both == {"players": 5, "modules": ["new_buildings", "buccaneer", "festival"],
                    "building_selection": "draft", "exclusive_forest_house": True}
    assert normalized(both) == both
    assert lobby_options(2, []) == {"players": 2}  # nothing chosen: the options of before
    assert PR.lobby_options(2, ["buccaneer"]) == {"players": 2, "modules": ["buccaneer"]}
    for chosen in (["new_buildings"], ["random_buildings", "festival"],
                   ["new_buildings", "exclusive_forest_house"], ["buccaneer"], []):
        options = PR.lobby_options(4, chosen)
        on = variants_of(options)
        assert PR.variants_on(options) == on
        assert PR.lobby_options(4, on) == options  # the menu redrawn says the same
    assert variants_of(both) == ["new_buildings", "exclusive_forest_house", "buccaneer",
                                 "festival"]


async def test_the_creator_turns_them_on_and_the_game_starts_with_the_draft(
        storage: Storage) -> None:
    publisher = Publisher()
    svc = GameService(storage, publisher, rng=Keep(1), renderer=render)
    record = await svc.create_lobby(creator_id=1, guild_id=5, channel_id=10, language="en",
                                    max_players=3, ai_seats=2, variants=["new_buildings"])
    assert record.options == {"players": 3, "modules": ["new_buildings"],
                              "building_selection": "draft"}
    embed = str(lobby_embed(record, "en", "heuristic", PR.catalog).to_dict())
    assert "Rules: The New Buildings (Exp. 1)" in embed
    drawn = await LobbyFlow(svc, storage).lobby_message(record, "heuristic")
    menu = drawn["view"].children[-1].item
    assert [(o.value, o.default) for o in menu.options] == [
        ("new_buildings", True), ("random_buildings", False), ("exclusive_forest_house", False),
        ("nobles", False), ("buccaneer", False), ("festival", False)]
    assert [o.label for o in menu.options][:3] == [
        "The New Buildings (Exp. 1)",
        "The New Buildings: buildings drawn at random, no draft",
        "The New Buildings: never the Hacienda with the Forest house (2004 rule)"]

    record = await svc.set_variants(record.id, Actor(1), record.version,
                                    ["new_buildings", "exclusive_forest_house", "festival"])
    assert record.options == {"players": 3, "modules": ["new_buildings", "festival"],
                              "building_selection": "draft", "exclusive_forest_house": True}
    es = str(lobby_embed(record, "es", "heuristic", PR.catalog).to_dict())
    assert "Los Nuevos Edificios (Exp. 1)" in es and "regla de 2004" in es
    with pytest.raises(UserError) as stranger:
        await svc.set_variants(record.id, Actor(7), record.version, [])
    assert stranger.value.key == "err.not_allowed"

    update = await svc.start(record.id, Actor(1), record.version)
    view = update.view
    assert view["phase"] == "draft" and view["draft"]["selection"] == "draft"
    assert view["options"]["exclusive_forest_house"] is True
    assert view["festival"]["construction"]["building"] is None  # drawn after the draft
    assert "Expansions: New Buildings and Festival" in PR.header_lines(view, update.names, "en")


async def test_random_buildings_need_no_draft(storage: Storage) -> None:
    publisher = Publisher()
    svc = GameService(storage, publisher, rng=Keep(2), renderer=render)
    record = await svc.create_lobby(creator_id=1, guild_id=5, channel_id=11, language="es",
                                    max_players=2, ai_seats=1, variants=["random_buildings"])
    assert record.options["building_selection"] == "random"
    update = await svc.start(record.id, Actor(1), record.version)
    view = update.view
    assert view["phase"] != "draft" and view["draft"]["selection"] == "random"
    assert len(view["draft"]["drafted"]) == 17 and not view["draft"]["spaces_left"]
    fields = dict(PR.summary(view, update.names, "es"))
    assert fields["Elección de edificios"].startswith("edificios al azar · en el tablero: ")
