"""Reading games: one game, one channel's game, a user's games, whose turn it is, the log,
results and statistics.  Every listing is an index search (tests/storage/test_scale.py checks the
query plans); a row that cannot be read is logged and skipped, never breaking a whole list."""

from __future__ import annotations

import logging
from collections.abc import Iterable
from datetime import datetime
from typing import Any

from storage.bridge import engine_game, load_state
from storage.database import Database
from storage.errors import CorruptGame, GameNotFound
from storage.handovers import SELECT_HANDOVERS, SeatHandover, handover_record
from storage.records import (
    FAVOURITES,
    ActionRecord,
    Favourite,
    GameRecord,
    GameStatus,
    LoadedGame,
    MovePace,
    ResultRecord,
    SeatRecord,
    UserStats,
    storable_id,
    to_ms,
)
from storage.rows import (
    ACTION_COLUMNS,
    GAME_COLUMNS,
    NOT_UNDONE,
    SELECT_GAME,
    SELECT_GAME_WITH_SNAPSHOT,
    action_record,
    game_record,
    result_record,
)
from storage.sql import Row

log = logging.getLogger(__name__)

OPEN = (GameStatus.LOBBY, GameStatus.ACTIVE)
STORY_THREAD_KIND = "thread"
"""The kind of a game's message that is the thread its story is told in (its id is the
thread's channel id)."""
CHANNEL_GONE_KIND = "gone"
"""The kind of the mark a game gets when its channel was deleted (its id is that channel's):
the game waits, as stored, to be moved to another channel or ended
(:meth:`storage.games.GameRepository.channel_gone`)."""


class GameQueries:
    """The read side of :class:`storage.games.GameRepository`."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def get(self, game_id: int) -> GameRecord:
        """The game without its snapshot.  :class:`GameNotFound`; :class:`CorruptGame` when its
        row cannot be read."""
        if not storable_id(game_id):
            raise GameNotFound(game_id)
        row = await self.db.fetchone(SELECT_GAME, (game_id,))
        if row is None:
            raise GameNotFound(game_id)
        return game_record(row)

    async def load(self, game_id: int) -> LoadedGame:
        """The game with its engine state (``None`` in the lobby).  :class:`GameNotFound`;
        :class:`CorruptGame` (naming the game) when the game name is unknown or the snapshot does
        not load.  Only this game is affected; :meth:`rebuild_snapshot` repairs it from the log.
        The engine's invariants are not checked (every click loads its game: they are
        ``python -m storage verify``'s and the tests')."""
        if not storable_id(game_id):
            raise GameNotFound(game_id)
        row = await self.db.fetchone(SELECT_GAME_WITH_SNAPSHOT, (game_id,))
        if row is None:
            raise GameNotFound(game_id)
        record = game_record(row)
        if record.status is GameStatus.LOBBY:
            return LoadedGame(record, None, {})
        game = engine_game(game_id, record.game)
        state, snapshot = load_state(game_id, game, row["snapshot"], check=False)
        return LoadedGame(record, state, snapshot)

    async def find_by_channel(self, channel_id: int) -> GameRecord | None:
        """The open (lobby or active) game of a channel, if any; in a game's story thread (the
        message kind ``thread``), that game."""
        return await self._in_channel(channel_id, " AND g.status IN ('lobby', 'active')")

    async def latest_in_channel(self, channel_id: int) -> GameRecord | None:
        """The channel's open game (or its story thread's game, as :meth:`find_by_channel`),
        else the game that ended there last: the game a question about a channel's history
        means."""
        return await self.find_by_channel(channel_id) or await self._in_channel(
            channel_id, " ORDER BY coalesce(g.finished_at, g.updated_at) DESC, g.id DESC LIMIT 1"
        )

    async def _in_channel(self, channel_id: int, tail: str) -> GameRecord | None:
        """The first game of the channel's games (or of the story thread ``channel_id``) that
        ``tail`` (a condition, an order) selects."""
        rows = await self.db.fetchall(
            f"SELECT {GAME_COLUMNS} FROM games AS g WHERE g.channel_id = ?{tail}", (channel_id,)
        )
        if not rows:
            rows = await self.db.fetchall(
                f"SELECT {GAME_COLUMNS} FROM game_messages AS t JOIN games AS g ON g.id = t.game_id"
                f" WHERE t.message_id = ? AND t.kind = '{STORY_THREAD_KIND}'{tail}",
                (channel_id,),
            )
        records = _records(rows)
        return records[0] if records else None

    async def list_for_user(
        self, user_id: int, *, statuses: Iterable[GameStatus] = OPEN, limit: int = 100
    ) -> list[GameRecord]:
        """The user's games in ``statuses`` (default: lobby and active), latest activity first."""
        wanted = [GameStatus(s).value for s in statuses]
        marks = ",".join("?" * len(wanted))
        rows = await self.db.fetchall(
            f"SELECT {GAME_COLUMNS} FROM seats AS me JOIN games AS g ON g.id = me.game_id"
            f" WHERE me.user_id = ? AND g.status IN ({marks})"
            " ORDER BY g.updated_at DESC, g.id DESC LIMIT ?",
            (user_id, *wanted, limit),
        )
        return _records(rows)

    async def list_stood_in(self, user_id: int, *, limit: int = 100) -> list[GameRecord]:
        """Running games where an AI keeps a seat for ``user_id`` (their bank ran out), latest
        activity first."""
        rows = await self.db.fetchall(
            f"SELECT {GAME_COLUMNS} FROM seats AS me JOIN games AS g ON g.id = me.game_id"
            " WHERE me.stand_in_for = ? AND g.status = 'active'"
            " ORDER BY g.updated_at DESC, g.id DESC LIMIT ?",
            (user_id, limit),
        )
        return _records(rows)

    async def list_waiting_on(self, user_id: int, *, limit: int = 100) -> list[GameRecord]:
        """Active games whose current prompt names a seat of ``user_id``, longest wait first."""
        rows = await self.db.fetchall(
            f"SELECT {GAME_COLUMNS} FROM seats AS me JOIN games AS g ON g.id = me.game_id"
            " WHERE me.user_id = ? AND me.waiting_since IS NOT NULL AND g.status = 'active'"
            " ORDER BY me.waiting_since, g.id LIMIT ?",
            (user_id, limit),
        )
        return _records(rows)

    async def list_waiting_since(
        self, before: datetime, *, humans_only: bool = True, limit: int = 500
    ) -> list[tuple[GameRecord, SeatRecord]]:
        """Seats that have had to decide since before ``before`` (for reminders)."""
        rows = await self.db.fetchall(
            f"SELECT {GAME_COLUMNS}, w.seat AS waiting_seat"
            " FROM seats AS w JOIN games AS g ON g.id = w.game_id"
            " WHERE w.waiting_since IS NOT NULL AND w.waiting_since <= ?"
            " AND g.status = 'active'"
            + (" AND w.user_id IS NOT NULL" if humans_only else "")
            + " ORDER BY w.waiting_since LIMIT ?",
            (to_ms(before), limit),
        )
        out: list[tuple[GameRecord, SeatRecord]] = []
        for row in rows:
            try:
                record = game_record(row)
            except CorruptGame as exc:
                log.warning("skipping unreadable game: %s", exc)
                continue
            seat = record.seat(int(row["waiting_seat"]))
            if seat is not None:
                out.append((record, seat))
        return out

    async def list_by_status(
        self,
        *statuses: GameStatus,
        guild_id: int | None = None,
        limit: int = 1000,
        after_id: int = 0,
    ) -> list[GameRecord]:
        """Games in the given statuses by id (pages with ``after_id``); e.g. every active game at
        start-up to resume AI turns."""
        wanted = [GameStatus(s).value for s in statuses] or [s.value for s in GameStatus]
        marks = ",".join("?" * len(wanted))
        guild_sql = "" if guild_id is None else " AND g.guild_id = ?"
        params: list[Any] = [*wanted, after_id]
        if guild_id is not None:
            params.append(guild_id)
        rows = await self.db.fetchall(
            f"SELECT {GAME_COLUMNS} FROM games AS g WHERE g.status IN ({marks}) AND g.id > ?"
            f"{guild_sql} ORDER BY g.id LIMIT ?",
            (*params, limit),
        )
        return _records(rows)

    async def actions(
        self,
        game_id: int,
        *,
        after_seq: int = 0,
        limit: int | None = None,
        include_undone: bool = False,
    ) -> list[ActionRecord]:
        """The log (with events) after ``after_seq``, oldest first; without the actions an undo
        took back unless ``include_undone``."""
        effective = "" if include_undone else f" AND {NOT_UNDONE}"
        bound = "" if limit is None else f" LIMIT {int(limit)}"
        rows = await self.db.fetchall(
            f"SELECT {ACTION_COLUMNS} FROM actions WHERE game_id = ? AND seq > ?{effective}"
            f" ORDER BY seq{bound}",
            (game_id, after_seq),
        )
        return [action_record(r) for r in rows]

    async def handovers(self, game_id: int) -> list[SeatHandover]:
        """The seats of the game that changed hands while it ran, oldest first (who held each
        seat for which actions: :mod:`storage.handovers`)."""
        rows = await self.db.fetchall(SELECT_HANDOVERS, (game_id,))
        return [handover_record(r) for r in rows]

    async def results(self, game_id: int) -> list[ResultRecord]:
        rows = await self.db.fetchall(
            "SELECT * FROM results WHERE game_id = ? ORDER BY seat", (game_id,)
        )
        return [result_record(r) for r in rows]

    async def user_stats(
        self, user_id: int, *, game: str | None = None, guild_id: int | None = None
    ) -> UserStats:
        """Finished games, wins, best and average score, average place, the longest and the
        fastest game of a user who held a seat at the end (optionally in one game, and in one
        server: ``guild_id``, else every server)."""
        where = (
            " FROM results AS r JOIN games AS g ON g.id = r.game_id"
            " WHERE r.user_id = ? AND g.status = 'finished'"
            " AND (CAST(? AS TEXT) IS NULL OR g.game = ?)"
            " AND (CAST(? AS BIGINT) IS NULL OR g.guild_id = ?)"
        )
        params = (user_id, game, game, guild_id, guild_id)
        row = await self.db.fetchone(
            "SELECT count(*), coalesce(sum(r.winner), 0), max(r.total),"
            " CAST(avg(r.total) AS DOUBLE PRECISION), CAST(avg(r.rank) AS DOUBLE PRECISION)"
            + where,
            params,
        )
        assert row is not None
        spans = []
        for order in ("DESC", "ASC"):
            span = await self.db.fetchone(
                "SELECT g.id, g.finished_at - g.started_at" + where
                + f" AND g.started_at IS NOT NULL ORDER BY 2 {order}, g.id LIMIT 1",
                params,
            )
            spans.append(None if span is None else (int(span[0]), int(span[1])))
        favourites: list[Favourite] = []
        for kind in ("role", "building"):
            rows = await self.db.fetchall(
                "SELECT g.game, c.name, sum(c.count) FROM choices AS c"
                " JOIN games AS g ON g.id = c.game_id"
                " WHERE c.user_id = ? AND c.kind = ? AND g.status = 'finished'"
                " AND (CAST(? AS TEXT) IS NULL OR g.game = ?)"
                " AND (CAST(? AS BIGINT) IS NULL OR g.guild_id = ?)"
                " GROUP BY g.game, c.name ORDER BY 3 DESC, g.game, c.name LIMIT ?",
                (user_id, kind, game, game, guild_id, guild_id, FAVOURITES),
            )
            favourites += [Favourite(str(r[0]), kind, str(r[1]), int(r[2])) for r in rows]
        return UserStats(user_id, int(row[0]), int(row[1]), row[2], row[3], row[4],
                         spans[0], spans[1], tuple(favourites),
                         await self.move_pace(user_id, game=game, guild_id=guild_id))

    async def move_pace(self, user_id: int, *, game: str | None = None,
                        guild_id: int | None = None) -> MovePace | None:
        """The median time ``user_id``'s moves waited for them and their time-outs, in every
        game (or ``game``), every server (or ``guild_id``), finished or not; ``None`` with
        neither a timed move nor a time-out.  The median is read by position (an index on the
        user's waits), never by loading every move."""
        where = (
            " FROM actions AS a JOIN games AS g ON g.id = a.game_id"
            " WHERE a.user_id = ? AND a.waited_ms IS NOT NULL"
            " AND (CAST(? AS TEXT) IS NULL OR g.game = ?)"
            " AND (CAST(? AS BIGINT) IS NULL OR g.guild_id = ?)"
        )
        params = (user_id, game, game, guild_id, guild_id)
        moves = int(await self.db.scalar("SELECT count(*)" + where, params) or 0)
        # a time-out: a bank that ran out (an AI stood in, schema 19), or before schema 19 a
        # clock vote opened by the clock itself (a kick's vote has who opened it)
        of_game = (" AND (CAST(? AS TEXT) IS NULL OR g.game = ?)"
                   " AND (CAST(? AS BIGINT) IS NULL OR g.guild_id = ?)")
        timeouts = int(await self.db.scalar(
            "SELECT count(*) FROM seat_handovers AS h JOIN games AS g ON g.id = h.game_id"
            " WHERE h.from_user_id = ? AND h.reason = 'timeout'" + of_game, params) or 0)
        timeouts += int(await self.db.scalar(
            "SELECT count(*) FROM clock_votes AS v JOIN games AS g ON g.id = v.game_id"
            " WHERE v.user_id = ? AND v.opened_by IS NULL" + of_game, params) or 0)
        if not moves and not timeouts:
            return None
        median = None
        if moves:
            middle = await self.db.fetchall(
                "SELECT a.waited_ms" + where + " ORDER BY a.waited_ms LIMIT ? OFFSET ?",
                (*params, 2 - moves % 2, (moves - 1) // 2))
            median = sum(int(r[0]) for r in middle) // len(middle)
        return MovePace(moves, median, timeouts)


def _records(rows: Iterable[Row]) -> list[GameRecord]:
    """Records of a listing; an unreadable row is logged and skipped, never breaking the list."""
    out: list[GameRecord] = []
    for row in rows:
        try:
            out.append(game_record(row))
        except CorruptGame as exc:
            log.warning("skipping unreadable game: %s", exc)
    return out
