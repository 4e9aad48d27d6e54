"""``/game stats`` in the reader's language with real stored games (issue #33): three games
played to their end through the storage (each person's own moves, so their favourites are
counted from the events as always), read back in English, Spanish and Portuguese.

* Decimals are written as the reader's language writes them ("28.7", "28,7").
* A game's length is measured to the minute: a game of 7 minutes says 7 minutes, not "1 hour"
  (the old reply rounded every length to whole hours, at least one); longer ones say hours and
  minutes, or days and hours, in CLDR's words for each unit (Babel).
* The favourite buildings are the game's own names in the reader's language: 1897's engine
  names its buildings in 1897's words (``large_fruit_depot``), which its presenter reads under
  the kernel's keys; the generic stats code names no game."""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

from bot.games import presenter_for
from engine import get_game
from storage import GameRecord, GameStatus, Storage
from tests.e2e.conftest import OfflineGovernor, World
from tests.offline_discord import running_client

START = datetime(2024, 3, 1, 12, 0, tzinfo=UTC)


class Clock:
    """The bot's "now" (storage's start and finish times), moved by the test."""

    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> datetime:
        return self.now


async def _played(storage: Storage, clock: Clock, game: str, people: list[int], guild: int,
                  length: timedelta, seed: int) -> GameRecord:
    """A game of ``people`` started now and played to its end by random legal moves, each made
    by its seat's person; it ends ``length`` after it started."""
    record = await storage.games.create_lobby(game, creator_id=people[0], guild_id=guild,
                                              options={"players": len(people)})
    for user in people[1:]:
        record = await storage.games.join(record.id, user)
    record = await storage.games.start(record.id, seed=seed)
    engine, rng = get_game(game), random.Random(seed)
    clock.now += length
    while True:
        loaded = await storage.games.load(record.id)
        prompt = engine.prompt(loaded.state)
        if prompt is None:
            break
        seat = rng.choice(sorted(prompt.seats))
        code = engine.encode_action(rng.choice(engine.legal_actions(loaded.state, seat)))
        held = loaded.record.seat(seat)
        await storage.games.play(record.id, seat, code, expected_version=loaded.record.version,
                                 user_id=None if held is None else held.user_id)
    record = await storage.games.get(record.id)
    assert record.status is GameStatus.FINISHED
    clock.now += timedelta(days=3)  # the next game starts later
    return record


async def test_stats_speak_the_readers_language(
        world: World, make_governor: Callable[..., OfflineGovernor]) -> None:
    clock = Clock()
    bot = make_governor(clock=clock)
    async with running_client(world.server, bot):
        await world.server.wait_for_command_sync(world.guild)
        storage, guild = bot.storage, world.guild.id
        alice, bob = world.alice.id, world.bob.id
        quick = await _played(storage, clock, "puerto-rico", [alice, bob], guild,
                              timedelta(minutes=7, seconds=10), 1)
        long = await _played(storage, clock, "puerto-rico-1897", [alice, bob], guild,
                             timedelta(days=2, hours=5, minutes=20), 2)
        await _played(storage, clock, "san-juan", [alice, bob], guild,
                      timedelta(hours=3, minutes=12), 3)
        stats = await storage.games.user_stats(alice, guild_id=guild)
        assert stats.average is not None and stats.average_place is not None
        favourites = await storage.games.user_stats(alice, game="puerto-rico-1897",
                                                    guild_id=guild)
        built = [f.name for f in favourites.favourites if f.kind == "building"]
        assert built, "alice built in her 1897 game"

        readers = {"en": world.bob,
                   "es": world.server.add_user("lucia", guild=world.guild, locale="es-ES"),
                   "pt": world.server.add_user("joao", guild=world.guild, locale="pt-BR")}
        spans = {"en": f"#{long.id}, 2 days and 5 hours · fastest: #{quick.id}, 7 minutes",
                 "es": f"n.º {long.id}, 2 días y 5 horas · más rápida: n.º {quick.id}, 7 minutos",
                 "pt": f"nº {long.id}, 2 dias e 5 horas · mais rápida: nº {quick.id}, 7 minutos"}
        point = {"en": ".", "es": ",", "pt": ","}
        edition = presenter_for("puerto-rico-1897")
        for lang, reader in readers.items():
            every = await (await reader.run(f"/game stats player:{alice}",
                                            channel=world.general)).wait_for_followup()
            text = every.text()
            assert spans[lang] in text, text
            average = f"{stats.average:.1f}".replace(".", point[lang])
            place = f"{stats.average_place:.1f}".replace(".", point[lang])
            assert f" {average} " in text and text.split("\n")[2].endswith(place), text

            one = await (await reader.run(f"/game stats player:{alice} game:puerto-rico-1897",
                                          channel=world.general)).wait_for_followup()
            text = one.text()
            for name in built:
                word = edition.choice_name("building", name, lang)
                assert word != name.replace("_", " ") and f"{word} ×" in text, (word, text)
                assert name.replace("_", " ") not in text, text
    await bot.wait_idle()
    world.server.assert_no_failed_interactions()
