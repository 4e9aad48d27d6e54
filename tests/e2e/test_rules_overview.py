"""``/game rules`` without a topic where the channel has had no game (issue #33): not classic
Puerto Rico's page, but every game the bot offers, each with its players, its expansions and
the topic that opens its rules, in the reader's language; that topic, typed as shown, opens the
game's page.  In a channel with a game, the page of that game as before."""

from __future__ import annotations

import re

from bot.games import presenters
from tests.e2e.conftest import OfflineGovernor, World

PAGES = {"puerto-rico": "**Puerto Rico in one minute.**",
         "puerto-rico-1897": "**Puerto Rico 1897 in one minute.**",
         "san-juan": "**San Juan in one minute.**"}


async def test_rules_without_a_game_introduce_every_game(world: World,
                                                         governor: OfflineGovernor) -> None:
    quiet = world.server.add_text_channel(world.guild, "quiet")
    reply = await (await world.bob.run("/game rules", channel=quiet)).wait_for_followup()
    text = reply.text()
    assert reply.ephemeral and text.startswith("**The games you can play here**"), text
    assert ("**Puerto Rico** · 2 to 5 players · expansions: The New Buildings (Exp. 1),"
            " The Nobles (Exp. 2), The Buccaneer (Exp. 3), and The Festival (Exp. 4)") in text
    assert "**Puerto Rico 1897** · 2 to 5 players · expansions: The New Buildings" in text
    assert "The Achievements (Exp. VI)" in text
    assert "**San Juan** · 2 to 4 players · the base game" in text
    # each game's rules, by the topic the autocomplete offers for them
    topics = re.findall(r"How to play: </game rules:\d+> topic: (.+)", text)
    assert topics == [f"{p.title('en')} · How to play" for p in presenters()], text
    for presenter, topic in zip(presenters(), topics, strict=True):
        page = await (await world.bob.run(f"/game rules topic:'{topic}'", channel=quiet)
                      ).wait_for_followup()
        assert page.text().startswith(PAGES[presenter.name]), page.text()

    lucia = world.server.add_user("lucia", guild=world.guild, locale="es-ES")
    spanish = (await (await lucia.run("/game rules", channel=quiet)).wait_for_followup()).text()
    assert spanish.startswith("**Los juegos a los que puedes jugar aquí**"), spanish
    assert "**San Juan** · de 2 a 4 jugadores · el juego base" in spanish
    assert "Cómo se juega: </partida reglas:" in spanish and "tema: San Juan · Cómo se juega" \
        in spanish
    joao = world.server.add_user("joao", guild=world.guild, locale="pt-BR")
    portuguese = (await (await joao.run("/game rules", channel=quiet)).wait_for_followup()
                  ).text()
    assert "Os Nobres (Exp. 2), O Bucaneiro (Exp. 3) e O Festival (Exp. 4)" in portuguese
    assert "tema: Puerto Rico 1897 · Como jogar" in portuguese, portuguese

    # a topic that is none: said so, then the games
    unknown = (await (await world.bob.run("/game rules topic:zzzz", channel=quiet)
                      ).wait_for_followup()).text()
    assert unknown.startswith("No topic is called “zzzz”; here are the games"), unknown
    assert "**The games you can play here**" in unknown

    # a channel with a San Juan table: that game's page, as before
    await governor.storage.games.create_lobby(
        "san-juan", creator_id=world.bob.id, guild_id=world.guild.id,
        channel_id=world.general.id, options={"players": 2})
    table = (await (await world.bob.run("/game rules", channel=world.general)
                    ).wait_for_followup()).text()
    assert table.startswith(PAGES["san-juan"]), table
