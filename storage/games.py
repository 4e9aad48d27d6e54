"""Games: lobbies, seats, starting, the action log, ending; and the queries the bot needs.

Every change of a game is one ``BEGIN IMMEDIATE`` transaction that re-reads the game, checks the
caller's ``expected_version`` (when given) and bumps ``version``; a caller that acted on an older
version gets :class:`StaleVersion` with the current one, and nothing changes.  Committing an action
appends to the log, stores the events and the new snapshot and bumps the version in one
transaction, so a crash keeps either all of it or none of it.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import secrets
import sqlite3
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from datetime import datetime
from functools import lru_cache
from typing import Any, TypeVar

from engine.core import EngineError, Event, Game, InvalidSetup, get_game
from storage.bridge import (
    INSERT_RESULT,
    engine_game,
    events_json,
    load_state,
    result_rows,
    snapshot_of,
)
from storage.database import Database
from storage.errors import (
    ChannelBusy,
    CorruptGame,
    GameNotFound,
    GameNotOver,
    InvalidOptions,
    LobbyFull,
    NotActive,
    NotInLobby,
    NotSeated,
    SeatTaken,
    StaleVersion,
    WrongStatus,
)
from storage.records import (
    JSON,
    ActionRecord,
    CommitResult,
    GameRecord,
    GameStatus,
    LoadedGame,
    PlayResult,
    ResultRecord,
    SeatRecord,
    UserStats,
    dumps,
    from_ms,
    from_ms_required,
    to_ms,
)
from storage.rows import (
    ACTION_COLUMNS,
    GAME_COLUMNS,
    SELECT_GAME,
    SELECT_GAME_WITH_SNAPSHOT,
    action_record,
    game_record,
    result_record,
)
from storage.sql import Row, Tx
from storage.verify import replay_log

log = logging.getLogger(__name__)

T = TypeVar("T")

OPEN = (GameStatus.LOBBY, GameStatus.ACTIVE)
MAX_PROBED_PLAYERS = 12
"""The lobby asks the engine which player counts it accepts up to this many seats."""


class GameRepository:
    """Games, seats and the action log.  Speaks records and JSON; engine states only pass through
    (``commit_action`` serializes one, ``load`` rebuilds one)."""

    def __init__(self, db: Database) -> None:
        self.db = db

    # --- lobby --------------------------------------------------------------------------------

    async def create_lobby(
        self,
        game: str,
        *,
        creator_id: int | None = None,
        guild_id: int | None = None,
        channel_id: int | None = None,
        options: Mapping[str, Any] | None = None,
        language: str | None = None,
        seat_creator: bool = True,
    ) -> GameRecord:
        """A new game in the lobby; the creator takes seat 0 unless ``seat_creator`` is false.

        The engine must know ``game`` (engine ``UnknownGame`` otherwise).  When ``options`` names
        ``"players"`` (the table size) they are validated now (engine ``InvalidSetup``); otherwise
        at :meth:`start`.  :class:`ChannelBusy` when the channel already has an open game."""
        engine = get_game(game)
        opts = dict(options or {})
        if "players" in opts:
            engine.normalize_options(opts)
        options_text = dumps(opts)

        async def body(tx: Tx) -> int:
            if channel_id is not None:
                await _check_channel_free(tx, channel_id)
            now = self.db.now_ms()
            game_id = await tx.insert(
                "INSERT INTO games (game, options, status, version, seq, guild_id, channel_id,"
                " creator_id, language, created_at, updated_at)"
                " VALUES (?, ?, 'lobby', 0, 0, ?, ?, ?, ?, ?, ?)",
                (game, options_text, guild_id, channel_id, creator_id, language, now, now),
            )
            if seat_creator and creator_id is not None:
                await tx.execute(
                    "INSERT INTO seats (game_id, seat, user_id, joined_at) VALUES (?, 0, ?, ?)",
                    (game_id, creator_id, now),
                )
            return game_id

        game_id = await self._write_mapping_integrity(body, channel_id)
        return await self.get(game_id)

    async def join(
        self, game_id: int, user_id: int, *, expected_version: int | None = None
    ) -> GameRecord:
        """Seat ``user_id`` at the next free seat.  :class:`NotInLobby`, :class:`SeatTaken`,
        :class:`LobbyFull`."""
        return await self._add_seat(game_id, user_id, None, expected_version)

    async def add_ai(
        self, game_id: int, policy: str, *, expected_version: int | None = None
    ) -> GameRecord:
        """Seat an AI playing ``policy`` at the next free seat."""
        if not policy:
            raise ValueError("empty AI policy")
        return await self._add_seat(game_id, None, policy, expected_version)

    async def _add_seat(
        self,
        game_id: int,
        user_id: int | None,
        policy: str | None,
        expected_version: int | None,
    ) -> GameRecord:
        async def body(tx: Tx) -> GameRecord:
            record = await _fetch(tx, game_id, expected_version)
            if record.status is not GameStatus.LOBBY:
                raise NotInLobby(game_id, record.status)
            if user_id is not None:
                mine = record.seat_of(user_id)
                if mine is not None:
                    raise SeatTaken(game_id, user_id, mine.seat)
            count = len(record.seats)
            engine_game(game_id, record.game)
            if count + 1 > lobby_capacity(record.game, dumps(record.options)):
                raise LobbyFull(game_id, count)
            now = self.db.now_ms()
            await tx.execute(
                "INSERT INTO seats (game_id, seat, user_id, ai_policy, joined_at)"
                " VALUES (?, ?, ?, ?, ?)",
                (game_id, count, user_id, policy, now),
            )
            await _bump(tx, record, now)
            seat = SeatRecord(count, user_id, policy, from_ms_required(now))
            return _changed(record, now, seats=(*record.seats, seat))

        return await self.db.write(body)

    async def leave(
        self,
        game_id: int,
        *,
        user_id: int | None = None,
        seat: int | None = None,
        expected_version: int | None = None,
    ) -> GameRecord:
        """Free a lobby seat (by user or by seat number); later seats move down by one so seats
        stay 0..n-1.  :class:`NotSeated` when there is no such seat.  A game already started
        keeps its seats: see :meth:`replace_seat` and :meth:`abandon`."""
        if (user_id is None) == (seat is None):
            raise ValueError("give exactly one of user_id and seat")

        async def body(tx: Tx) -> GameRecord:
            record = await _fetch(tx, game_id, expected_version)
            if record.status is not GameStatus.LOBBY:
                raise NotInLobby(game_id, record.status)
            target = record.seat_of(user_id) if user_id is not None else record.seat(seat or 0)
            if target is None:
                raise NotSeated(game_id, user_id=user_id, seat=seat)
            now = self.db.now_ms()
            await tx.execute(
                "DELETE FROM seats WHERE game_id = ? AND seat = ?", (game_id, target.seat)
            )
            moved = [s for s in record.seats if s.seat > target.seat]
            await tx.executemany(
                "UPDATE seats SET seat = ? WHERE game_id = ? AND seat = ?",
                [(s.seat - 1, game_id, s.seat) for s in moved],
            )
            await _bump(tx, record, now)
            seats = tuple(
                s if s.seat < target.seat else dataclasses.replace(s, seat=s.seat - 1)
                for s in record.seats
                if s.seat != target.seat
            )
            return _changed(record, now, seats=seats)

        return await self.db.write(body)

    async def set_options(
        self, game_id: int, options: Mapping[str, Any], *, expected_version: int | None = None
    ) -> GameRecord:
        """Replace the options of a game still in the lobby."""
        opts = dict(options)

        async def body(tx: Tx) -> GameRecord:
            record = await _fetch(tx, game_id, expected_version)
            if record.status is not GameStatus.LOBBY:
                raise NotInLobby(game_id, record.status)
            if "players" in opts:
                try:
                    engine_game(game_id, record.game).normalize_options(opts)
                except InvalidSetup as exc:
                    raise InvalidOptions(game_id, exc) from exc
                if len(record.seats) > int(opts["players"]):
                    raise LobbyFull(game_id, len(record.seats))
            now = self.db.now_ms()
            await tx.execute("UPDATE games SET options = ? WHERE id = ?", (dumps(opts), game_id))
            await _bump(tx, record, now)
            return _changed(record, now, options=opts)

        return await self.db.write(body)

    async def start(
        self, game_id: int, *, seed: int | None = None, expected_version: int | None = None
    ) -> GameRecord:
        """Set the game up with one player per seat (``options["players"] = len(seats)``) and a
        secret seed (random unless given); the lobby becomes active.  :class:`InvalidOptions`
        when the engine refuses the options or the player count."""
        chosen_seed = secrets.randbelow(2**32) if seed is None else seed

        async def body(tx: Tx) -> GameRecord:
            record = await _fetch(tx, game_id, expected_version)
            if record.status is not GameStatus.LOBBY:
                raise NotInLobby(game_id, record.status)
            game = engine_game(game_id, record.game)
            try:
                options = game.normalize_options({**record.options, "players": len(record.seats)})
                state = game.setup(options, chosen_seed)
            except InvalidSetup as exc:
                raise InvalidOptions(game_id, exc) from exc
            snap = snapshot_of(game, state)
            now = self.db.now_ms()
            await tx.execute(
                "UPDATE games SET status = 'active', options = ?, seed = ?, snapshot = ?,"
                " started_at = ? WHERE id = ?",
                (dumps(options), chosen_seed, snap.text, now, game_id),
            )
            await _bump(tx, record, now)
            seats = await _set_waiting(tx, record, snap.to_act, None, now)
            return _changed(
                record,
                now,
                status=GameStatus.ACTIVE,
                options=options,
                seed=chosen_seed,
                started_at=from_ms(now),
                seats=seats,
            )

        return await self.db.write(body)

    async def replace_seat(
        self,
        game_id: int,
        seat: int,
        *,
        user_id: int | None = None,
        ai_policy: str | None = None,
        expected_version: int | None = None,
    ) -> GameRecord:
        """Hand a seat of an open game to another user or to an AI (a player who leaves a
        running game, a friend who takes over an AI seat)."""
        if (user_id is None) == (ai_policy is None):
            raise ValueError("give exactly one of user_id and ai_policy")

        async def body(tx: Tx) -> GameRecord:
            record = await _fetch(tx, game_id, expected_version)
            if not record.status.is_open:
                raise WrongStatus(game_id, record.status)
            current = record.seat(seat)
            if current is None:
                raise NotSeated(game_id, seat=seat)
            if user_id is not None:
                mine = record.seat_of(user_id)
                if mine is not None:
                    raise SeatTaken(game_id, user_id, mine.seat)
            now = self.db.now_ms()
            await tx.execute(
                "UPDATE seats SET user_id = ?, ai_policy = ?, joined_at = ?"
                " WHERE game_id = ? AND seat = ?",
                (user_id, ai_policy, now, game_id, seat),
            )
            await _bump(tx, record, now)
            new = dataclasses.replace(
                current, user_id=user_id, ai_policy=ai_policy, joined_at=from_ms_required(now)
            )
            return _changed(
                record, now, seats=tuple(new if s.seat == seat else s for s in record.seats)
            )

        return await self.db.write(body)

    # --- playing ------------------------------------------------------------------------------

    async def commit_action(
        self,
        game_id: int,
        *,
        expected_version: int,
        seat: int,
        code: str,
        state: Any,
        events: Sequence[Event | Mapping[str, Any]],
        user_id: int | None = None,
    ) -> CommitResult:
        """Append ``(seat, code)`` to the log with its ``events``, store ``state`` (the engine
        state after the action) as the snapshot and bump the version, all in one transaction.

        Refused with :class:`StaleVersion` (carrying the current version) unless the game is still
        at ``expected_version``: of two commits based on the same version exactly one succeeds.
        When ``state`` prompts nobody the game becomes finished, with its outcome and results, in
        the same transaction."""
        events_text = dumps(events_json(events))

        async def body(tx: Tx) -> CommitResult:
            record = await _fetch(tx, game_id, expected_version)
            if record.status is not GameStatus.ACTIVE:
                raise NotActive(game_id, record.status)
            if record.seat(seat) is None:
                raise NotSeated(game_id, seat=seat)
            snap = snapshot_of(engine_game(game_id, record.game), state)
            now = self.db.now_ms()
            seq = record.seq + 1
            await tx.execute(
                "INSERT INTO actions (game_id, seq, seat, code, user_id, at, events)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                (game_id, seq, seat, code, user_id, now, events_text),
            )
            finished = not snap.to_act
            status = GameStatus.FINISHED if finished else GameStatus.ACTIVE
            changed = await tx.execute(
                "UPDATE games SET version = version + 1, seq = ?, snapshot = ?, status = ?,"
                " updated_at = ?, last_action_at = ?, finished_at = ?, outcome = ?"
                " WHERE id = ? AND version = ?",
                (
                    seq,
                    snap.text,
                    status.value,
                    now,
                    now,
                    now if finished else None,
                    None if snap.outcome is None else dumps(snap.outcome),
                    game_id,
                    expected_version,
                ),
            )
            if changed != 1:  # pragma: no cover - impossible inside BEGIN IMMEDIATE
                raise StaleVersion(game_id, expected_version, record.version)
            seats = await _set_waiting(tx, record, snap.to_act, seat, now)
            if finished and snap.outcome is not None:
                await _store_results(tx, game_id, snap.outcome, record.seats)
            action = ActionRecord(
                game_id, seq, seat, code, user_id, from_ms_required(now), tuple(
                    e.to_json() if isinstance(e, Event) else dict(e) for e in events)
            )
            new = dataclasses.replace(
                record,
                version=record.version + 1,
                seq=seq,
                status=status,
                updated_at=from_ms_required(now),
                last_action_at=from_ms_required(now),
                finished_at=from_ms(now) if finished else None,
                outcome=snap.outcome,
                seats=seats,
            )
            return CommitResult(new, action)

        return await self.db.write(body)

    async def play(
        self,
        game_id: int,
        seat: int,
        code: str,
        *,
        expected_version: int | None = None,
        user_id: int | None = None,
    ) -> PlayResult:
        """Load, decode ``code``, apply it for ``seat`` through the engine and commit: the whole
        road of one action.  Engine errors (``InvalidAction``, ``IllegalAction``, ``NotYourTurn``,
        ``GameOver``) propagate unchanged and nothing is stored."""
        loaded = await self.load(game_id)
        record = loaded.record
        if expected_version is not None and record.version != expected_version:
            raise StaleVersion(game_id, expected_version, record.version)
        if record.status is not GameStatus.ACTIVE:
            raise NotActive(game_id, record.status)
        game = engine_game(game_id, record.game)
        action = game.decode_action(code)
        state, events = game.apply(loaded.state, seat, action)
        result = await self.commit_action(
            game_id,
            expected_version=record.version,
            seat=seat,
            code=game.encode_action(action),
            state=state,
            events=events,
            user_id=user_id,
        )
        return PlayResult(result.record, result.action, state, tuple(events))

    async def finish(self, game_id: int, *, expected_version: int | None = None) -> GameRecord:
        """Mark an active game finished when its state prompts nobody (normally
        :meth:`commit_action` does this by itself).  :class:`GameNotOver` otherwise."""

        async def body(tx: Tx) -> GameRecord:
            row = await _fetch_row(tx, game_id, snapshot=True)
            record = game_record(row)
            _check_version(record, expected_version)
            if record.status is not GameStatus.ACTIVE:
                raise NotActive(game_id, record.status)
            game = engine_game(game_id, record.game)
            state, _ = load_state(game_id, game, row["snapshot"])
            snap = snapshot_of(game, state)
            if snap.to_act:
                raise GameNotOver(game_id)
            now = self.db.now_ms()
            outcome_text = None if snap.outcome is None else dumps(snap.outcome)
            await tx.execute(
                "UPDATE games SET status = 'finished', finished_at = ?, outcome = ? WHERE id = ?",
                (now, outcome_text, game_id),
            )
            await _bump(tx, record, now)
            seats = await _set_waiting(tx, record, (), None, now)
            if snap.outcome is not None:
                await _store_results(tx, game_id, snap.outcome, record.seats)
            return _changed(
                record,
                now,
                status=GameStatus.FINISHED,
                finished_at=from_ms(now),
                outcome=snap.outcome,
                seats=seats,
            )

        return await self.db.write(body)

    async def abandon(self, game_id: int, *, expected_version: int | None = None) -> GameRecord:
        """End a lobby or active game without a result.  :class:`WrongStatus` when it is over."""

        async def body(tx: Tx) -> GameRecord:
            record = await _fetch(tx, game_id, expected_version)
            if not record.status.is_open:
                raise WrongStatus(game_id, record.status)
            now = self.db.now_ms()
            await tx.execute(
                "UPDATE games SET status = 'abandoned', finished_at = ? WHERE id = ?",
                (now, game_id),
            )
            await _bump(tx, record, now)
            seats = await _set_waiting(tx, record, (), None, now)
            return _changed(
                record, now, status=GameStatus.ABANDONED, finished_at=from_ms(now), seats=seats
            )

        return await self.db.write(body)

    async def rebuild_snapshot(self, game_id: int) -> GameRecord:
        """Replay the log (the source of truth) and store the resulting snapshot, whose seats to
        act and status follow from it.  The repair for a snapshot that :meth:`load` refuses.
        :class:`CorruptGame` when the log itself does not replay."""
        async def body(tx: Tx) -> GameRecord:
            row = await _fetch_row(tx, game_id, snapshot=False)
            record = game_record(row)
            if record.status is GameStatus.LOBBY or record.seed is None:
                raise WrongStatus(game_id, record.status)
            actions = await tx.fetchall(
                "SELECT seat, code FROM actions WHERE game_id = ? ORDER BY seq", (game_id,)
            )
            game = engine_game(game_id, record.game)
            state, _ = replay_log(
                game_id, game, record.options, record.seed,
                [(int(a["seat"]), str(a["code"])) for a in actions],
            )
            snap = snapshot_of(game, state)
            now = self.db.now_ms()
            status = record.status
            if status is GameStatus.ACTIVE and not snap.to_act:
                status = GameStatus.FINISHED
            await tx.execute(
                "UPDATE games SET snapshot = ?, seq = ?, status = ?, outcome = ? WHERE id = ?",
                (
                    snap.text,
                    len(actions),
                    status.value,
                    None if snap.outcome is None else dumps(snap.outcome),
                    game_id,
                ),
            )
            await _bump(tx, record, now)
            to_act = snap.to_act if status is GameStatus.ACTIVE else ()
            seats = await _set_waiting(tx, record, to_act, None, now)
            if status is GameStatus.FINISHED and snap.outcome is not None:
                await _store_results(tx, game_id, snap.outcome, record.seats)
            return _changed(
                record, now, status=status, seq=len(actions), outcome=snap.outcome, seats=seats
            )

        return await self.db.write(body)

    # --- Discord placement --------------------------------------------------------------------

    async def set_message(
        self, game_id: int, kind: str, message_id: int, *, channel_id: int | None = None
    ) -> None:
        """Remember a Discord message of this game (``"table"``, ``"lobby"``...)."""

        async def body(tx: Tx) -> None:
            await _fetch(tx, game_id, None)
            await tx.execute(
                "INSERT INTO game_messages (game_id, kind, channel_id, message_id)"
                " VALUES (?, ?, ?, ?) ON CONFLICT (game_id, kind) DO UPDATE"
                " SET channel_id = excluded.channel_id, message_id = excluded.message_id",
                (game_id, kind, channel_id, message_id),
            )

        await self.db.write(body)

    async def clear_message(self, game_id: int, kind: str) -> None:
        async def body(tx: Tx) -> None:
            await tx.execute(
                "DELETE FROM game_messages WHERE game_id = ? AND kind = ?", (game_id, kind)
            )

        await self.db.write(body)

    async def set_channel(
        self, game_id: int, channel_id: int | None, *, guild_id: int | None = None
    ) -> GameRecord:
        """Move a game to another channel (a thread made for it).  :class:`ChannelBusy`."""

        async def body(tx: Tx) -> GameRecord:
            record = await _fetch(tx, game_id, None)
            if channel_id is not None and record.status.is_open:
                await _check_channel_free(tx, channel_id, except_game=game_id)
            now = self.db.now_ms()
            guild = record.guild_id if guild_id is None else guild_id
            await tx.execute(
                "UPDATE games SET channel_id = ?, guild_id = ?, updated_at = ? WHERE id = ?",
                (channel_id, guild, now, game_id),
            )
            return dataclasses.replace(
                record, channel_id=channel_id, guild_id=guild, updated_at=from_ms_required(now)
            )

        return await self._write_mapping_integrity(body, channel_id)

    async def set_language(self, game_id: int, language: str | None) -> GameRecord:
        async def body(tx: Tx) -> GameRecord:
            record = await _fetch(tx, game_id, None)
            now = self.db.now_ms()
            await tx.execute(
                "UPDATE games SET language = ?, updated_at = ? WHERE id = ?",
                (language, now, game_id),
            )
            return dataclasses.replace(
                record, language=language, updated_at=from_ms_required(now)
            )

        return await self.db.write(body)

    # --- queries ------------------------------------------------------------------------------

    async def get(self, game_id: int) -> GameRecord:
        """The game without its snapshot.  :class:`GameNotFound`; :class:`CorruptGame` when its
        row cannot be read."""
        row = await self.db.fetchone(SELECT_GAME, (game_id,))
        if row is None:
            raise GameNotFound(game_id)
        return game_record(row)

    async def load(self, game_id: int) -> LoadedGame:
        """The game with its engine state (``None`` in the lobby).  :class:`GameNotFound`;
        :class:`CorruptGame` (naming the game) when the game name is unknown or the snapshot does
        not load.  Only this game is affected; :meth:`rebuild_snapshot` repairs it from the log."""
        row = await self.db.fetchone(SELECT_GAME_WITH_SNAPSHOT, (game_id,))
        if row is None:
            raise GameNotFound(game_id)
        record = game_record(row)
        if record.status is GameStatus.LOBBY:
            return LoadedGame(record, None, {})
        game = engine_game(game_id, record.game)
        state, snapshot = load_state(game_id, game, row["snapshot"])
        return LoadedGame(record, state, snapshot)

    async def find_by_channel(self, channel_id: int) -> GameRecord | None:
        """The open (lobby or active) game of a channel, if any."""
        rows = await self.db.fetchall(
            f"SELECT {GAME_COLUMNS} FROM games AS g WHERE g.channel_id = ?"
            " AND g.status IN ('lobby', 'active')",
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
        self, game_id: int, *, after_seq: int = 0, limit: int | None = None
    ) -> list[ActionRecord]:
        """The log (with events) after ``after_seq``, oldest first."""
        rows = await self.db.fetchall(
            f"SELECT {ACTION_COLUMNS} FROM actions WHERE game_id = ? AND seq > ?"
            " ORDER BY seq LIMIT ?",
            (game_id, after_seq, -1 if limit is None else limit),
        )
        return [action_record(r) for r in rows]

    async def results(self, game_id: int) -> list[ResultRecord]:
        rows = await self.db.fetchall(
            "SELECT * FROM results WHERE game_id = ? ORDER BY seat", (game_id,)
        )
        return [result_record(r) for r in rows]

    async def user_stats(self, user_id: int, *, game: str | None = None) -> UserStats:
        """Finished games, wins, best and average score of a user (optionally for one game)."""
        row = await self.db.fetchone(
            "SELECT count(*), coalesce(sum(r.winner), 0), max(r.total), avg(r.total)"
            " FROM results AS r JOIN games AS g ON g.id = r.game_id"
            " WHERE r.user_id = ? AND g.status = 'finished' AND (? IS NULL OR g.game = ?)",
            (user_id, game, game),
        )
        assert row is not None
        return UserStats(user_id, int(row[0]), int(row[1]), row[2], row[3])

    # --- helpers ------------------------------------------------------------------------------

    async def _write_mapping_integrity(
        self, body: Callable[[Tx], Awaitable[T]], channel_id: int | None
    ) -> T:
        """Run ``body``; a race on the one-open-game-per-channel index becomes ChannelBusy."""
        try:
            return await self.db.write(body)
        except sqlite3.IntegrityError as exc:
            if channel_id is not None and "games.channel_id" in str(exc):
                other = await self.find_by_channel(channel_id)
                raise ChannelBusy(channel_id, other.id if other else 0) from exc
            raise


# --- module helpers ------------------------------------------------------------------------------


@lru_cache(maxsize=256)
def lobby_capacity(game_name: str, options_text: str) -> int:
    """How many seats a lobby can hold: ``options["players"]`` when the creator chose the table
    size, else the largest player count the engine accepts with these options."""
    options = json.loads(options_text)
    if isinstance(options.get("players"), int):
        return int(options["players"])
    game: Game[Any] = get_game(game_name)
    for players in range(MAX_PROBED_PLAYERS, 0, -1):
        try:
            game.normalize_options({**options, "players": players})
        except EngineError:
            continue
        return players
    return MAX_PROBED_PLAYERS


async def _fetch_row(tx: Tx, game_id: int, *, snapshot: bool) -> Row:
    row = await tx.fetchone(SELECT_GAME_WITH_SNAPSHOT if snapshot else SELECT_GAME, (game_id,))
    if row is None:
        raise GameNotFound(game_id)
    return row


def _check_version(record: GameRecord, expected_version: int | None) -> None:
    if expected_version is not None and record.version != expected_version:
        raise StaleVersion(record.id, expected_version, record.version)


async def _fetch(tx: Tx, game_id: int, expected_version: int | None) -> GameRecord:
    record = game_record(await _fetch_row(tx, game_id, snapshot=False))
    _check_version(record, expected_version)
    return record


async def _bump(tx: Tx, record: GameRecord, now: int) -> None:
    changed = await tx.execute(
        "UPDATE games SET version = version + 1, updated_at = ? WHERE id = ? AND version = ?",
        (now, record.id, record.version),
    )
    if changed != 1:  # pragma: no cover - impossible inside BEGIN IMMEDIATE
        raise StaleVersion(record.id, record.version, -1)


def _changed(record: GameRecord, now: int, **fields: Any) -> GameRecord:
    return dataclasses.replace(
        record, version=record.version + 1, updated_at=from_ms_required(now), **fields
    )


async def _set_waiting(
    tx: Tx, record: GameRecord, to_act: Sequence[int], actor: int | None, now: int
) -> tuple[SeatRecord, ...]:
    """Set ``waiting_since`` for the seats the prompt names (kept for seats that were already
    waiting, unless the seat just acted) and clear it for the others."""
    wanted = set(to_act)
    new_seats: list[SeatRecord] = []
    updates: list[tuple[int | None, int, int]] = []
    moment = from_ms_required(now)
    for seat in record.seats:
        if seat.seat in wanted:
            keep = seat.waiting_since is not None and seat.seat != actor
            since = seat.waiting_since if keep else moment
        else:
            since = None
        if since == seat.waiting_since:
            new_seats.append(seat)
        else:
            updates.append((None if since is None else to_ms(since), record.id, seat.seat))
            new_seats.append(dataclasses.replace(seat, waiting_since=since))
    if updates:
        await tx.executemany(
            "UPDATE seats SET waiting_since = ? WHERE game_id = ? AND seat = ?", updates
        )
    return tuple(new_seats)


async def _store_results(
    tx: Tx, game_id: int, outcome: JSON, seats: Sequence[SeatRecord]
) -> None:
    players = {s.seat: (s.user_id, s.ai_policy) for s in seats}
    await tx.executemany(INSERT_RESULT, result_rows(game_id, outcome, players))


async def _check_channel_free(tx: Tx, channel_id: int, except_game: int | None = None) -> None:
    other = await tx.scalar(
        "SELECT id FROM games WHERE channel_id = ? AND status IN ('lobby', 'active')"
        " AND id IS NOT ?",
        (channel_id, except_game),
    )
    if other is not None:
        raise ChannelBusy(channel_id, int(other))


def _records(rows: Iterable[Row]) -> list[GameRecord]:
    """Records of a listing; an unreadable row is logged and skipped, never breaking the list."""
    out: list[GameRecord] = []
    for row in rows:
        try:
            out.append(game_record(row))
        except CorruptGame as exc:
            log.warning("skipping unreadable game: %s", exc)
    return out
