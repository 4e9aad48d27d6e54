"""Ratings: openskill's Plackett-Luce model, per server and per game, among people.

The policy (docs/commands.md, "Ratings")
    * A rating belongs to a person, a server (``guild_id``; 0 for games outside one) and a game
      of the registry (``puerto-rico``, ``puerto-rico-1897``, ``san-juan``): the expansions and
      options of a game count as the same game.
    * Only finished games are rated; an abandoned game never is.
    * Only people are rated.  AI seats are left out of the ranking: the people keep their order
      of the final scores among themselves (the engine's ranks, ties equal).
    * A person who left the game (their seat handed to an AI by ``/game leave`` or by the
      clock's vote) and did not hold a seat at the end is rated too, tied last below everyone
      who played to the end: leaving never protects a rating.  A seat handed on otherwise (a
      friend taking over) rates nobody for the one who handed it on.
    * A game is rated only when at least two people played it to the end
      (``games.rating``: ``rated``, else ``few_people``; ``abandoned`` games are not looked at).
    * The model is openskill's Plackett-Luce with the library's defaults (a new player: mu 25,
      sigma 25/3; tau 25/300 added to sigma at every game).  The rating shown (``points``) is
      the conservative estimate mu - 3 sigma on an Elo-like scale: ``1500 + 24 (mu - 3 sigma)``,
      1500 for a new player.

Everything is derived from the stored results (``results``) and seat hand-overs
(``seat_handovers``): :func:`rate_game` runs in the transaction that records a game's results,
and :func:`rebuild` computes every rating again from nothing, in the order the games finished
(``python -m storage ratings DB --rebuild``), with the same floating-point steps: a change of
policy never loses history, and a rebuild of an untouched database changes no figure.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from openskill.models import PlackettLuce

from storage.sql import Row, Tx

if TYPE_CHECKING:
    from storage.database import Database

MODEL = PlackettLuce()
"""The library's defaults: mu 25, sigma 25/3, beta 25/6, tau 25/300."""
START_MU = MODEL.mu
START_SIGMA = MODEL.sigma
SHOWN_ALPHA = 24.0  # points per unit of mu - 3 sigma...
SHOWN_START = 1500  # ...and a new player's points
RATED = "rated"
FEW_PEOPLE = "few_people"


@dataclass(frozen=True, slots=True)
class Placement:
    """A rated person of one game: ``place`` 1 is the best among the rated people (ties share
    a place); ``finished`` is False for one who left and is rated last."""

    user_id: int
    place: int
    finished: bool


@dataclass(frozen=True, slots=True)
class Skill:
    mu: float
    sigma: float

    @property
    def points(self) -> int:
        return shown_points(self.mu, self.sigma)


START = Skill(START_MU, START_SIGMA)


@dataclass(frozen=True, slots=True)
class Change:
    """One person's rating before and after a rated game."""

    user_id: int
    place: int
    finished: bool
    before: Skill
    after: Skill

    @property
    def delta(self) -> int:
        return self.after.points - self.before.points


def shown_points(mu: float, sigma: float) -> int:
    """The rating shown: mu - 3 sigma on an Elo-like scale, 1500 for a new player."""
    return round(SHOWN_START + SHOWN_ALPHA * (mu - 3.0 * sigma))


def placements(
    finishers: Iterable[tuple[int, int]], leavers: Iterable[int]
) -> tuple[list[Placement], str]:
    """The rated people of a finished game and whether it is rated.

    ``finishers``: (user id, the engine's rank: 1 best, ties equal) of every person holding a
    seat at the end; ``leavers``: the people who left (their seat handed to an AI) and hold no
    seat at the end.  Returns ``([], FEW_PEOPLE)`` when fewer than two people finished."""
    ranked = sorted(dict(finishers).items(), key=lambda item: (item[1], item[0]))
    if len(ranked) < 2:
        return [], FEW_PEOPLE
    out: list[Placement] = []
    place = 0
    previous: int | None = None
    for index, (user_id, rank) in enumerate(ranked):
        if rank != previous:
            place, previous = index + 1, rank
        out.append(Placement(user_id, place, True))
    seated = {user_id for user_id, _ in ranked}
    gone = sorted(set(leavers) - seated)
    last = len(ranked) + 1
    out.extend(Placement(user_id, last, False) for user_id in gone)
    return out, RATED


def update(priors: Mapping[int, Skill], rated: Sequence[Placement]) -> list[Change]:
    """The rated people's new ratings (``priors``: their ratings before, a missing one is a new
    player's), one team of one per person, ranked by place (ties equal)."""
    before = [priors.get(p.user_id, START) for p in rated]
    teams = [[MODEL.rating(mu=skill.mu, sigma=skill.sigma)] for skill in before]
    after = MODEL.rate(teams, ranks=[float(p.place) for p in rated])
    return [
        Change(p.user_id, p.place, p.finished, old, Skill(team[0].mu, team[0].sigma))
        for p, old, team in zip(rated, before, after, strict=True)
    ]


@dataclass(frozen=True, slots=True)
class RebuildReport:
    games: int
    rated: int
    people: int


async def rate_game(tx: Tx, game_id: int) -> str | None:
    """Rate a finished game once, inside the transaction that stores its results.  Returns the
    game's rating status (``rated``, ``few_people``), ``None`` when it is not finished.  A game
    already looked at is left as it is (a repaired snapshot stores its results again)."""
    game = await tx.fetchone(
        "SELECT guild_id, game, status, rating, finished_at FROM games WHERE id = ?", (game_id,)
    )
    if game is None or game["status"] != "finished":
        return None
    if game["rating"] is not None:
        return str(game["rating"])
    rows = await tx.fetchall(
        "SELECT user_id, rank FROM results WHERE game_id = ? AND user_id IS NOT NULL",
        (game_id,),
    )
    leaving = await tx.fetchall(
        "SELECT DISTINCT from_user_id FROM seat_handovers WHERE game_id = ?"
        " AND from_user_id IS NOT NULL AND reason IN ('left', 'clock', 'timeout')",
        (game_id,),
    )
    rated, status = placements(
        ((int(r["user_id"]), int(r["rank"])) for r in rows),
        (int(r[0]) for r in leaving),
    )
    await tx.execute("UPDATE games SET rating = ? WHERE id = ?", (status, game_id))
    if not rated:
        return status
    guild = int(game["guild_id"] or 0)
    name = str(game["game"])
    marks = ",".join("?" * len(rated))
    prior_rows = await tx.fetchall(
        f"SELECT user_id, mu, sigma FROM ratings WHERE guild_id = ? AND game = ?"
        f" AND user_id IN ({marks})",
        (guild, name, *(p.user_id for p in rated)),
    )
    priors = {int(r["user_id"]): Skill(float(r["mu"]), float(r["sigma"])) for r in prior_rows}
    changes = update(priors, rated)
    finished_at = int(game["finished_at"] or 0)
    await tx.executemany(
        "INSERT INTO ratings (guild_id, game, user_id, mu, sigma, points, games, updated_at)"
        " VALUES (?, ?, ?, ?, ?, ?, 1, ?)"
        " ON CONFLICT (guild_id, game, user_id) DO UPDATE SET mu = excluded.mu,"
        " sigma = excluded.sigma, points = excluded.points, games = ratings.games + 1,"
        " updated_at = excluded.updated_at",
        [
            (guild, name, c.user_id, c.after.mu, c.after.sigma, c.after.points, finished_at)
            for c in changes
        ],
    )
    await tx.executemany(
        "INSERT INTO rating_changes (game_id, user_id, place, finished, mu_before,"
        " sigma_before, mu_after, sigma_after, points_before, points_after)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [
            (
                game_id,
                c.user_id,
                c.place,
                int(c.finished),
                c.before.mu,
                c.before.sigma,
                c.after.mu,
                c.after.sigma,
                c.before.points,
                c.after.points,
            )
            for c in changes
        ],
    )
    return status


async def rebuild(tx: Tx) -> RebuildReport:
    """Every rating computed again from the results and hand-overs, in the order the games
    finished (then by id), inside one transaction."""
    await tx.execute("DELETE FROM rating_changes")
    await tx.execute("DELETE FROM ratings")
    await tx.execute("UPDATE games SET rating = NULL WHERE rating IS NOT NULL")
    ids = await tx.fetchall(
        "SELECT id FROM games WHERE status = 'finished' ORDER BY finished_at, id"
    )
    rated = 0
    for row in ids:
        if await rate_game(tx, int(row[0])) == RATED:
            rated += 1
    people = await tx.scalar("SELECT count(*) FROM ratings")
    return RebuildReport(len(ids), rated, int(people or 0))


@dataclass(frozen=True, slots=True)
class RatingRecord:
    """A person's rating in one server and game."""

    user_id: int
    points: int
    mu: float
    sigma: float
    games: int
    position: int
    """1 for the best rating of the server and game (equal points share a position)."""


@dataclass(frozen=True, slots=True)
class RatingChangeRecord:
    game_id: int
    user_id: int
    place: int
    finished: bool
    points_before: int
    points_after: int

    @property
    def delta(self) -> int:
        return self.points_after - self.points_before


_SELECT_RATING = (
    "SELECT user_id, points, mu, sigma, games, 1 + (SELECT count(*) FROM ratings AS o"
    " WHERE o.guild_id = r.guild_id AND o.game = r.game AND o.points > r.points)"
    " FROM ratings AS r"
)
"""A person's rating with their position (equal points share one), for :func:`_rating`."""


class RatingRepository:
    """What the bot reads of the ratings (every query an index search)."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def leaderboard(
        self, guild_id: int | None, game: str, *, offset: int = 0, limit: int = 10
    ) -> tuple[list[RatingRecord], int]:
        """One page of a server's ratings in a game, the best first, and how many people the
        whole board has."""
        guild = int(guild_id or 0)
        rows = await self.db.fetchall(
            _SELECT_RATING + " WHERE guild_id = ? AND game = ?"
            " ORDER BY points DESC, user_id LIMIT ? OFFSET ?",
            (guild, game, limit, offset),
        )
        total = await self.db.fetchone(
            "SELECT count(*) FROM ratings WHERE guild_id = ? AND game = ?", (guild, game)
        )
        return [_rating(r) for r in rows], int(total[0]) if total else 0

    async def rating(self, guild_id: int | None, game: str, user_id: int) -> RatingRecord | None:
        guild = int(guild_id or 0)
        row = await self.db.fetchone(
            _SELECT_RATING + " WHERE guild_id = ? AND game = ? AND user_id = ?",
            (guild, game, user_id),
        )
        return None if row is None else _rating(row)

    async def changes(self, game_id: int) -> list[RatingChangeRecord]:
        """The rating changes of one game (none when it was not rated), by place."""
        rows = await self.db.fetchall(
            "SELECT game_id, user_id, place, finished, points_before, points_after"
            " FROM rating_changes WHERE game_id = ? ORDER BY place, user_id",
            (game_id,),
        )
        return [_change(r) for r in rows]

    async def status(self, game_id: int) -> str | None:
        """``rated``, ``few_people``, or ``None`` (not finished)."""
        value = await self.db.fetchone("SELECT rating FROM games WHERE id = ?", (game_id,))
        return None if value is None or value[0] is None else str(value[0])

    async def history(
        self, guild_id: int | None, game: str, user_id: int, *, limit: int = 20
    ) -> list[RatingChangeRecord]:
        """A person's last rated games in a server and game, the latest first (their trend)."""
        rows = await self.db.fetchall(
            "SELECT c.game_id, c.user_id, c.place, c.finished, c.points_before, c.points_after"
            " FROM rating_changes AS c JOIN games AS g ON g.id = c.game_id"
            " WHERE c.user_id = ? AND g.game = ? AND coalesce(g.guild_id, 0) = ?"
            " ORDER BY g.finished_at DESC, g.id DESC LIMIT ?",
            (user_id, game, int(guild_id or 0), limit),
        )
        return [_change(r) for r in rows]

    async def rebuild(self) -> RebuildReport:
        return await self.db.write(rebuild)


def _rating(row: Row) -> RatingRecord:
    return RatingRecord(
        int(row[0]), int(row[1]), float(row[2]), float(row[3]), int(row[4]), int(row[5])
    )


def _change(row: Row) -> RatingChangeRecord:
    return RatingChangeRecord(
        int(row[0]), int(row[1]), int(row[2]), bool(row[3]), int(row[4]), int(row[5])
    )
