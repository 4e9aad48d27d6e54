"""The players' favourites: the roles each person chose and the buildings they built.

Counted once per game, in the transaction that stores its results (:func:`record_choices`),
from the events of the actions the person took (``actions.user_id``; ``engine.story.choices``
reads the events): a seat's moves made by an AI or played automatically count for nobody, and a
player who took over a seat counts only their own moves.  :func:`rebuild_choices` counts every
finished game again (the migration that added the table; ``python -m storage``)."""

from __future__ import annotations

import json
from collections import Counter

from engine.story import choices
from storage.sql import Tx

INSERT_CHOICE = (
    "INSERT INTO choices (game_id, user_id, kind, name, count) VALUES (?, ?, ?, ?, ?)"
    " ON CONFLICT (game_id, user_id, kind, name) DO UPDATE SET count = excluded.count"
)


async def record_choices(tx: Tx, game_id: int) -> int:
    """Count the choices of ``game_id``'s people again; returns how many rows it wrote."""
    await tx.execute("DELETE FROM choices WHERE game_id = ?", (game_id,))
    rows = await tx.fetchall(
        "SELECT seat, user_id, events FROM actions WHERE game_id = ? AND user_id IS NOT NULL"
        " ORDER BY seq",
        (game_id,),
    )
    tally: Counter[tuple[int, str, str]] = Counter()
    for row in rows:
        try:
            events = json.loads(row["events"])
        except ValueError:
            continue  # an unreadable entry: `python -m storage verify` reports it
        if not isinstance(events, list):
            continue
        own = [e for e in events if isinstance(e, dict)]
        for (seat, kind, name), count in choices([own]).items():
            if seat == row["seat"]:
                tally[(int(row["user_id"]), kind, name)] += count
    await tx.executemany(
        INSERT_CHOICE,
        [(game_id, user, kind, name, count) for (user, kind, name), count in tally.items()],
    )
    return len(tally)


async def rebuild_choices(tx: Tx) -> int:
    """Every finished game's choices counted again; returns the games counted."""
    await tx.execute("DELETE FROM choices")
    ids = await tx.fetchall("SELECT id FROM games WHERE status = 'finished' ORDER BY id")
    for row in ids:
        await record_choices(tx, int(row[0]))
    return len(ids)
