"""``/game new``'s game choice and its ``variant`` option: the autocomplete offers the optional
rules of the game being chosen (San Juan's variant start; Puerto Rico's expansions), the lobby
shows the rule turned on, and a variant the game does not have is refused with its name and
changes nothing."""

from __future__ import annotations

from tests.e2e.conftest import OfflineGovernor, World
from tests.e2e.test_bot_lobby import open_lobby


async def test_the_variant_option_follows_the_game_chosen(world: World, governor: OfflineGovernor
                                                           ) -> None:
    typed = await world.alice.autocomplete("game new", {"game": "san-juan", "variant": ""},
                                           focused="variant", channel=world.general)
    assert [(c["name"], c["value"]) for c in await typed.choices()] == [
        ("San Juan · variant start (draw 5-8 cards, keep 4)", "variant_start")]
    typed = await world.alice.autocomplete("game new", {"game": "puerto-rico", "variant": ""},
                                           focused="variant", channel=world.general)
    assert [c["value"] for c in await typed.choices()] == [
        "new_buildings", "random_buildings", "exclusive_forest_house", "nobles", "buccaneer",
        "festival"]

    refused = await world.alice.run("/game new game:puerto-rico variant:variant_start",
                                    channel=world.general)
    reply = await refused.wait_for_followup()
    # what was typed comes back as text (markdown escaped: Discord shows "variant_start")
    assert reply.ephemeral and "Puerto Rico has no such variant (variant\\_start)" in reply.content
    assert await governor.storage.games.find_by_channel(world.general.id) is None

    lobby = await open_lobby(world, world.alice,
                             "game:san-juan max_players:3 variant:variant_start")
    assert "San Juan" in lobby.embeds[0]["title"]
    assert "Rules: variant start" in lobby.embeds[0]["fields"][1]["value"]
    record = await governor.storage.games.find_by_channel(world.general.id)
    assert record is not None and record.game == "san-juan"
    assert record.options == {"players": 3, "variant_start": True}


async def test_the_creator_turns_optional_rules_on_and_off_in_the_lobby(
        world: World, governor: OfflineGovernor) -> None:
    """The lobby's menu of the game's optional rules: preselected as created; the creator turns
    them off and on (the embed and the stored options follow); anyone else is refused and
    nothing changes."""
    lobby = await open_lobby(world, world.alice, "game:san-juan max_players:3")
    menu = next(s for s in lobby.selects() if str(s["custom_id"]).startswith("lr:"))
    assert [(o["value"], o.get("default", False)) for o in menu["options"]] == [
        ("variant_start", False)]
    assert menu["min_values"] == 0 and menu["max_values"] == 1
    mark = world.server.mark()
    handle = await world.alice.select(lobby, ["variant_start"], custom_id=menu["custom_id"])
    assert (await handle.response()).type == 6
    lobby = await world.server.wait_for_message(
        world.general, lambda m: m.id == lobby.id and "Rules: variant start" in m.text(),
        since=mark)
    record = await governor.storage.games.find_by_channel(world.general.id)
    assert record is not None and record.options == {"players": 3, "variant_start": True}

    menu = next(s for s in lobby.selects() if str(s["custom_id"]).startswith("lr:"))
    refused = await world.bob.select(lobby, [], custom_id=menu["custom_id"])
    assert "creator" in (await refused.wait_for_followup()).content
    assert (await governor.storage.games.get(record.id)).options["variant_start"] is True

    mark = world.server.mark()
    handle = await world.alice.select(lobby, [], custom_id=menu["custom_id"])
    assert (await handle.response()).type == 6
    await world.server.wait_for_message(
        world.general, lambda m: m.id == lobby.id and "Rules:" not in m.text(), since=mark)
    assert (await governor.storage.games.get(record.id)).options == {
        "players": 3, "variant_start": False}


async def test_puerto_ricos_menu_offers_only_the_presented_expansions(
        world: World, governor: OfflineGovernor) -> None:
    """The modules the bot words (the New Buildings with its two rules, the Buccaneer, the
    Festival), not those the engine is still building; none on: the options stay as they were
    before the expansions."""
    lobby = await open_lobby(world, world.alice, "game:puerto-rico max_players:3")
    menu = next(s for s in lobby.selects() if str(s["custom_id"]).startswith("lr:"))
    assert [(o["value"], o.get("default", False)) for o in menu["options"]] == [
        ("new_buildings", False), ("random_buildings", False),
        ("exclusive_forest_house", False), ("nobles", False), ("buccaneer", False),
        ("festival", False)]
    record = await governor.storage.games.find_by_channel(world.general.id)
    assert record is not None and record.options == {"players": 3}
