""""Since your last turn" (issue #35; bot/recap.py): for every game, at every hand-over of a
seeded game, the recap of each seat is the others' moves since its own last one, told by the
channel's own public log lines (the same writer, the same words), so nothing hidden is in it;
at most six lines and a count of the earlier ones, in each language."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bot.games import presenter_for
from bot.i18n import CATALOG
from bot.recap import RECAP_LINES, recap, since_last_turn
from engine import game_names
from storage import Storage
from tests.storage.helpers import active_game, play_some


@pytest.mark.parametrize("name", game_names())
async def test_a_recap_is_the_public_log_of_what_the_others_did_since(
        name: str, tmp_path: Path) -> None:
    storage = await Storage.open(tmp_path / "g.db", synchronous="OFF")
    try:
        record = await active_game(storage, name, players=3, seed=5)
        rng = random.Random(5)
        checked = 0
        names = {s.seat: f"P{s.seat}" for s in record.seats}
        humans = [s.seat for s in record.seats if s.user_id is not None]
        for _ in range(12):
            record = await play_some(storage, record.id, 7, rng)
            actions = tuple(await storage.games.actions(record.id))
            for lang in ("en", "es", "pt"):
                public = presenter_for(name).log_writer(names, lang, humans).lines(actions)
                for seat in range(3):
                    lines = recap(record, names, actions, seat, lang, CATALOG)
                    since = since_last_turn(actions, seat)
                    assert all(a.seat != seat for a in since)
                    assert since or not lines  # nothing since: no recap
                    told = [line for line in lines if not line.startswith("(")]
                    assert len(told) <= RECAP_LINES
                    assert all(line in public for line in told), (lang, seat, told)
                    checked += len(told)
        assert checked > 50
    finally:
        await storage.close()


def test_the_earlier_lines_are_counted() -> None:
    assert CATALOG.t("en", "recap.earlier", n=4) == "(and 4 earlier)"
    assert CATALOG.t("pt", "recap.title") == "Desde a sua última vez:"
