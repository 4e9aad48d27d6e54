"""The players' favourites (storage/choices.py): counted from the events of a person's own
moves in the transaction that finishes a game, nothing for an AI's moves, shown by
``user_stats`` most first, and counted again exactly by the rebuild the migration runs."""

from __future__ import annotations

import random
from collections import Counter

from engine.san_juan.data import KIND_INDEX
from engine.story import choices
from storage import Favourite, GameStatus, Storage
from storage.choices import rebuild_choices
from storage.records import FAVOURITES
from storage.sql import Tx
from tests.storage.helpers import USER, active_game, choose


async def _play_to_end(storage: Storage, game_id: int, rng: random.Random) -> None:
    """Random legal moves to the end, each taken by the seat's person (an AI seat's by nobody)."""
    while True:
        loaded = await storage.games.load(game_id)
        move = choose(loaded.record.game, loaded.state, rng)
        if move is None:
            return
        seat, code = move
        held = loaded.record.seat(seat)
        await storage.games.play(
            game_id,
            seat,
            code,
            expected_version=loaded.record.version,
            user_id=None if held is None else held.user_id,
        )


async def _rows(storage: Storage) -> list[tuple[int, int, str, str, int]]:
    rows = await storage.db.fetchall(
        "SELECT game_id, user_id, kind, name, count FROM choices"
        " ORDER BY game_id, user_id, kind, name"
    )
    return [(int(r[0]), int(r[1]), str(r[2]), str(r[3]), int(r[4])) for r in rows]


async def test_a_persons_roles_and_buildings_are_counted_when_the_game_ends(
    storage: Storage,
) -> None:
    record = await active_game(storage, "puerto-rico", players=3, ai_seats=1)
    await _play_to_end(storage, record.id, random.Random(5))
    assert (await storage.games.get(record.id)).status is GameStatus.FINISHED
    log = await storage.games.actions(record.id)
    expected: Counter[tuple[int, str, str]] = Counter()
    for action in log:
        if action.user_id is None:
            continue
        for (seat, kind, name), n in choices([action.events]).items():
            if seat == action.seat:
                expected[(action.user_id, kind, name)] += n
    assert expected, "the people chose roles and built"
    rows = await _rows(storage)
    assert {(u, k, n): c for _, u, k, n, c in rows} == dict(expected)
    ai = record.seats[2]
    assert ai.user_id is None and all(u in (USER, USER + 1) for _, u, _, _, _ in rows)
    roles = [e for a in log for e in a.events if e["type"] == "RoleChosen"]
    mine = sum(c for (u, k, _), c in expected.items() if k == "role")
    # the AI chose roles too, and they count for nobody
    assert len(roles) > mine

    stats = await storage.games.user_stats(USER, game="puerto-rico", guild_id=1)
    for kind in ("role", "building"):
        top = sorted(
            ((c, n) for (u, k, n), c in expected.items() if u == USER and k == kind),
            key=lambda x: (-x[0], x[1]),
        )[:FAVOURITES]
        assert [(f.count, f.name) for f in stats.favourites if f.kind == kind] == top
    assert all(isinstance(f, Favourite) and f.game == "puerto-rico" for f in stats.favourites)
    # another server, another game: nothing
    assert (await storage.games.user_stats(USER, guild_id=2)).favourites == ()
    assert (await storage.games.user_stats(USER, game="san-juan")).favourites == ()


async def test_san_juan_buildings_are_cards_and_the_rebuild_counts_the_same(
    storage: Storage,
) -> None:
    first = await active_game(storage, "san-juan", players=2, user_base=5000)
    await _play_to_end(storage, first.id, random.Random(8))
    second = await active_game(storage, "san-juan", players=2, seed=9, user_base=5000)
    await _play_to_end(storage, second.id, random.Random(9))
    rows = await _rows(storage)
    assert {k for _, _, k, _, _ in rows} == {"role", "building"}
    assert {g for g, _, _, _, _ in rows} == {first.id, second.id}
    built = {n for _, _, k, n, _ in rows if k == "building"}
    assert built and built <= set(KIND_INDEX)  # the cards' engine ids
    stats = await storage.games.user_stats(5000)
    counted = Counter[tuple[str, str]]()
    for _, user, kind, name, count in rows:
        if user == 5000:
            counted[(kind, name)] += count
    for f in stats.favourites:
        assert counted[(f.kind, f.name)] == f.count

    async def again(tx: Tx) -> int:
        await tx.execute("DELETE FROM choices")
        return await rebuild_choices(tx)

    assert await storage.db.write(again) == 2
    assert await _rows(storage) == rows
