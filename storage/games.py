"""Changing games: lobbies, seats, starting, the action log, ending (reading: storage.queries).

Every change of a game is one ``BEGIN IMMEDIATE`` transaction that re-reads the game, checks the
caller's ``expected_version`` (when given) and bumps ``version``; a caller that acted on an older
version gets :class:`StaleVersion` with the current one, and nothing changes.  Committing an action
appends to the log, stores the events and the new snapshot and bumps the version in one
transaction, so a crash keeps either all of it or none of it.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import secrets
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any, TypeVar

from engine.core import Event, InvalidSetup, get_game
from storage.absences import absences_after
from storage.bridge import engine_game, events_json, load_state, snapshot_of
from storage.changes import (
    bump,
    changed,
    check_channel_free,
    check_version,
    fetch,
    fetch_row,
    handed_bank,
    lobby_capacity,
    open_banks,
    set_waiting,
    store_results,
)
from storage.errors import (
    ChannelBusy,
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
from storage.handovers import REASONS, Reason, insert_handover
from storage.queries import CHANNEL_GONE_KIND, STORY_THREAD_KIND, GameQueries
from storage.records import (
    ActionRecord,
    CommitResult,
    GameRecord,
    GameStatus,
    PlayResult,
    SeatRecord,
    dumps,
    from_ms,
    from_ms_required,
    to_ms,
)
from storage.rows import NOT_UNDONE, game_record
from storage.seating import reseat
from storage.sql import Tx
from storage.timebank import Pace, Quiet, quiet_columns
from storage.undo import UndoResult, seat_before, undo_last
from storage.verify import replay_log

T = TypeVar("T")


class GameRepository(GameQueries):
    """Games, seats and the action log.  Speaks records and JSON; engine states only pass through
    (``commit_action`` serializes one, ``load`` rebuilds one)."""

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
        ai_level: str | None = None,
        hints: bool = False,
        pace: Pace | None = None,
        quiet: Quiet | None = None,
    ) -> GameRecord:
        """A new game in the lobby; the creator takes seat 0 unless ``seat_creator`` is false.
        ``pace``: its time control (:mod:`storage.timebank`; ``None``: unlimited); ``quiet``:
        its own quiet time (``None``: its server's).

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
                await check_channel_free(tx, channel_id)
            now = self.db.now_ms()
            game_id = await tx.insert(
                "INSERT INTO games (game, options, status, version, seq, guild_id, channel_id,"
                " creator_id, language, ai_level, hints, created_at, updated_at)"
                " VALUES (?, ?, 'lobby', 0, 0, ?, ?, ?, ?, ?, ?, ?, ?)",
                (game, options_text, guild_id, channel_id, creator_id, language, ai_level,
                 int(hints), now, now),
            )
            if seat_creator and creator_id is not None:
                await tx.execute(
                    "INSERT INTO seats (game_id, seat, user_id, joined_at) VALUES (?, 0, ?, ?)",
                    (game_id, creator_id, now),
                )
            if pace is not None or quiet is not None:
                timers = {"game_id": game_id, **quiet_columns(quiet)}
                if pace is not None:
                    timers.update(pace=pace.name, bank_start_ms=pace.start_ms,
                                  bank_increment_ms=pace.increment_ms, bank_cap_ms=pace.cap_ms)
                await tx.execute(
                    f"INSERT INTO game_timers ({', '.join(timers)})"
                    f" VALUES ({', '.join('?' for _ in timers)})", tuple(timers.values()))
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
            record = await fetch(tx, game_id, expected_version)
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
            await bump(tx, record, now)
            seat = SeatRecord(count, user_id, policy, from_ms_required(now))
            return changed(record, now, seats=(*record.seats, seat))

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
            record = await fetch(tx, game_id, expected_version)
            if record.status is not GameStatus.LOBBY:
                raise NotInLobby(game_id, record.status)
            if user_id is not None:
                target = record.seat_of(user_id)
            else:
                assert seat is not None
                target = record.seat(seat)
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
            await bump(tx, record, now)
            seats = tuple(
                s if s.seat < target.seat else dataclasses.replace(s, seat=s.seat - 1)
                for s in record.seats
                if s.seat != target.seat
            )
            return changed(record, now, seats=seats)

        return await self.db.write(body)

    async def set_options(
        self, game_id: int, options: Mapping[str, Any], *, expected_version: int | None = None
    ) -> GameRecord:
        """Replace the options of a game still in the lobby."""
        opts = dict(options)

        async def body(tx: Tx) -> GameRecord:
            record = await fetch(tx, game_id, expected_version)
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
            await bump(tx, record, now)
            return changed(record, now, options=opts)

        return await self.db.write(body)

    async def start(
        self,
        game_id: int,
        *,
        seed: int | None = None,
        expected_version: int | None = None,
        options: Mapping[str, Any] | None = None,
        order: Sequence[int] | None = None,
    ) -> GameRecord:
        """Set the game up with one player per seat (``options["players"] = len(seats)``) and a
        secret seed (random unless given); the lobby becomes active.  :class:`InvalidOptions`
        when the engine refuses the options or the player count.

        In the same transaction, ``options`` (when given) replace the lobby's and the seats are
        renumbered by ``order`` (:func:`storage.seating.reseat`: seat ``order[i]`` becomes seat
        ``i``): a refused or interrupted start leaves the lobby exactly as it was."""
        chosen_seed = secrets.randbelow(2**32) if seed is None else seed

        async def body(tx: Tx) -> GameRecord:
            record = await fetch(tx, game_id, expected_version)
            if record.status is not GameStatus.LOBBY:
                raise NotInLobby(game_id, record.status)
            game = engine_game(game_id, record.game)
            chosen = record.options if options is None else options
            try:
                options_now = game.normalize_options({**chosen, "players": len(record.seats)})
                state = game.setup(options_now, chosen_seed)
            except InvalidSetup as exc:
                raise InvalidOptions(game_id, exc) from exc
            snap = snapshot_of(game, state)
            if order is not None and list(order) != [seat.seat for seat in record.seats]:
                record = dataclasses.replace(record, seats=await reseat(tx, record, order))
            now = self.db.now_ms()
            await tx.execute(
                "UPDATE games SET status = 'active', options = ?, seed = ?, snapshot = ?,"
                " started_at = ? WHERE id = ?",
                (dumps(options_now), chosen_seed, snap.text, now, game_id),
            )
            await bump(tx, record, now)
            record = await open_banks(tx, record)
            seats = await set_waiting(tx, record, snap.to_act, None, now)
            return changed(
                record,
                now,
                status=GameStatus.ACTIVE,
                options=options_now,
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
        reason: Reason = "replaced",
        stand_in_for: int | None = None,
        bank_ms: int | None = None,
    ) -> GameRecord:
        """Hand a seat of an open game to another user or to an AI (a player who leaves a
        running game, a friend who takes over an AI seat).  In a running game the hand-over is
        recorded with ``reason`` (:mod:`storage.handovers`): the history keeps naming whoever
        held the seat for each action.

        ``stand_in_for``: the AI keeps the seat for that person (their bank ran out) until they
        come back; any hand-over ends a stand-in.  ``bank_ms``: the bank a person gets (a
        person coming back gets what one move gives), else the pace's first bank for a person
        new to the seat."""
        if (user_id is None) == (ai_policy is None):
            raise ValueError("give exactly one of user_id and ai_policy")
        if stand_in_for is not None and ai_policy is None:
            raise ValueError("only an AI stands in for a person")
        if reason not in REASONS:
            raise ValueError(f"unknown hand-over reason {reason!r}")

        async def body(tx: Tx) -> GameRecord:
            record = await fetch(tx, game_id, expected_version)
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
            away = current.away  # the absences of the seat's person, read as a load does
            if current.user_id != user_id:
                away = () if user_id is None else await absences_after(
                    tx, user_id, to_ms(current.waiting_since) if current.waiting_since
                    is not None else now)
            bank = current.bank_ms if current.user_id == user_id else handed_bank(
                record, dataclasses.replace(current, away=away), user_id, now, bank_ms)
            stood = None if stand_in_for is None else now
            await tx.execute(
                "UPDATE seats SET user_id = ?, ai_policy = ?, joined_at = ?, bank_ms = ?,"
                " stand_in_for = ?, stood_in_at = ? WHERE game_id = ? AND seat = ?",
                (user_id, ai_policy, now, bank, stand_in_for, stood, game_id, seat),
            )
            if record.status is GameStatus.ACTIVE and (current.user_id, current.ai_policy) != (
                user_id, ai_policy
            ):
                await insert_handover(tx, game_id, current, after_seq=record.seq,
                                      user_id=user_id, ai_policy=ai_policy, reason=reason,
                                      now=now)
            await bump(tx, record, now)
            new = dataclasses.replace(
                current, user_id=user_id, ai_policy=ai_policy, joined_at=from_ms_required(now),
                bank_ms=bank, stand_in_for=stand_in_for, stood_in_at=from_ms(stood), away=away)
            return changed(
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
        stored_events = tuple(json.loads(events_text))  # exactly what reads back later

        async def body(tx: Tx) -> CommitResult:
            record = await fetch(tx, game_id, expected_version)
            if record.status is not GameStatus.ACTIVE:
                raise NotActive(game_id, record.status)
            acting = record.seat(seat)
            if acting is None:
                raise NotSeated(game_id, seat=seat)
            snap = snapshot_of(engine_game(game_id, record.game), state)
            now = self.db.now_ms()
            seq = record.seq + 1
            # how long the move waited for its person (schema 18: /game stats, the lobby)
            waited = None if user_id is None or acting.waiting_since is None else max(
                0, now - to_ms(acting.waiting_since))
            await tx.execute(
                "INSERT INTO actions (game_id, seq, seat, code, user_id, at, events, waited_ms,"
                " seat_before) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (game_id, seq, seat, code, user_id, now, events_text, waited,
                 seat_before(record, acting, user_id)),
            )
            finished = not snap.to_act
            status = GameStatus.FINISHED if finished else GameStatus.ACTIVE
            updated = await tx.execute(
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
            if updated != 1:  # pragma: no cover - impossible inside BEGIN IMMEDIATE
                raise StaleVersion(game_id, expected_version, record.version)
            seats = await set_waiting(tx, record, snap.to_act, seat, now)
            if finished and snap.outcome is not None:
                await store_results(tx, game_id, snap.outcome, record.seats)
            action = ActionRecord(
                game_id, seq, seat, code, user_id, from_ms_required(now), stored_events
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

        # the hot path of every move: the whole transaction in the database's thread
        return await self.db.write(body, in_thread=True)

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

    async def undo_last(
        self,
        game_id: int,
        count: int = 1,
        *,
        expected_version: int | None = None,
        user_id: int | None = None,
    ) -> UndoResult:
        """Take back the last ``count`` actions of an active game (see :mod:`storage.undo`):
        marked undone, never deleted; the snapshot is rebuilt from the rest of the log."""
        return await undo_last(
            self.db, game_id, count, expected_version=expected_version, user_id=user_id
        )

    async def finish(self, game_id: int, *, expected_version: int | None = None) -> GameRecord:
        """Mark an active game finished when its state prompts nobody (normally
        :meth:`commit_action` does this by itself).  :class:`GameNotOver` otherwise."""

        async def body(tx: Tx) -> GameRecord:
            row = await fetch_row(tx, game_id, snapshot=True)
            record = game_record(row)
            check_version(record, expected_version)
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
            await bump(tx, record, now)
            seats = await set_waiting(tx, record, (), None, now)
            if snap.outcome is not None:
                await store_results(tx, game_id, snap.outcome, record.seats)
            return changed(
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
            record = await fetch(tx, game_id, expected_version)
            if not record.status.is_open:
                raise WrongStatus(game_id, record.status)
            now = self.db.now_ms()
            await tx.execute(
                "UPDATE games SET status = 'abandoned', finished_at = ? WHERE id = ?",
                (now, game_id),
            )
            await bump(tx, record, now)
            seats = await set_waiting(tx, record, (), None, now)
            return changed(
                record, now, status=GameStatus.ABANDONED, finished_at=from_ms(now), seats=seats
            )

        return await self.db.write(body)

    async def rebuild_snapshot(self, game_id: int) -> GameRecord:
        """Replay the log (the source of truth) and store the resulting snapshot, whose seats to
        act and status follow from it.  The repair for a snapshot that :meth:`load` refuses.
        :class:`CorruptGame` when the log itself does not replay."""
        async def body(tx: Tx) -> GameRecord:
            row = await fetch_row(tx, game_id, snapshot=False)
            record = game_record(row)
            if record.status is GameStatus.LOBBY or record.seed is None:
                raise WrongStatus(game_id, record.status)
            actions = await tx.fetchall(
                f"SELECT seat, code FROM actions WHERE game_id = ? AND {NOT_UNDONE} ORDER BY seq",
                (game_id,),
            )
            game = engine_game(game_id, record.game)
            state, _ = replay_log(
                game_id, game, record.options, record.seed,
                [(int(a["seat"]), str(a["code"])) for a in actions],
            )
            snap = snapshot_of(game, state)
            now = self.db.now_ms()
            logged = await tx.scalar("SELECT count(*) FROM actions WHERE game_id = ?", (game_id,))
            status = record.status
            if status is GameStatus.ACTIVE and not snap.to_act:
                status = GameStatus.FINISHED
            await tx.execute(
                "UPDATE games SET snapshot = ?, seq = ?, status = ?, outcome = ? WHERE id = ?",
                (
                    snap.text,
                    int(logged),
                    status.value,
                    None if snap.outcome is None else dumps(snap.outcome),
                    game_id,
                ),
            )
            await bump(tx, record, now)
            to_act = snap.to_act if status is GameStatus.ACTIVE else ()
            seats = await set_waiting(tx, record, to_act, None, now)
            if status is GameStatus.FINISHED and snap.outcome is not None:
                await store_results(tx, game_id, snap.outcome, record.seats)
            return changed(
                record, now, status=status, seq=int(logged), outcome=snap.outcome, seats=seats
            )

        return await self.db.write(body)

    # --- Discord placement --------------------------------------------------------------------

    async def set_message(
        self, game_id: int, kind: str, message_id: int, *, channel_id: int | None = None
    ) -> None:
        """Remember a Discord message of this game (``"table"``, ``"lobby"``...)."""

        async def body(tx: Tx) -> None:
            await fetch(tx, game_id, None)
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
            record = await fetch(tx, game_id, None)
            if channel_id is not None and record.status.is_open:
                await check_channel_free(tx, channel_id, except_game=game_id)
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

    async def channel_gone(self, channel_id: int) -> list[GameRecord]:
        """The Discord channel (or thread) ``channel_id`` was deleted.  Each active game there
        is marked (a ``gone`` message naming the channel: it waits, as stored, to be moved to
        another channel or ended) and returned when it was not marked before, so that its
        players are told once; each lobby there is abandoned (nothing was played); a game's
        story thread of that id is forgotten (the next story starts another)."""

        async def body(tx: Tx) -> tuple[list[int], list[int]]:
            rows = await tx.fetchall(
                "SELECT id, status FROM games WHERE channel_id = ?"
                " AND status IN ('lobby', 'active')", (channel_id,))
            marked, lobbies = [], []
            for row in rows:
                game_id = int(row["id"])
                if row["status"] == GameStatus.LOBBY.value:
                    lobbies.append(game_id)
                    continue
                added = await tx.execute(
                    "INSERT INTO game_messages (game_id, kind, channel_id, message_id)"
                    " VALUES (?, ?, ?, ?) ON CONFLICT (game_id, kind) DO NOTHING",
                    (game_id, CHANNEL_GONE_KIND, channel_id, channel_id))
                if added:
                    marked.append(game_id)
            await tx.execute("DELETE FROM game_messages WHERE message_id = ? AND kind = ?",
                             (channel_id, STORY_THREAD_KIND))
            return marked, lobbies

        marked, lobbies = await self.db.write(body)
        for game_id in lobbies:
            with contextlib.suppress(WrongStatus):  # started or ended meanwhile
                await self.abandon(game_id)
        return [await self.get(game_id) for game_id in marked]

    async def move_channel(self, game_id: int, channel_id: int, *, guild_id: int | None
                           ) -> GameRecord:
        """Continue in ``channel_id`` (of ``guild_id``) an active game whose channel was
        deleted: the game's marks of the old channel (``gone``, its table and story thread)
        are forgotten, so that its next publication posts a new table there.  The posts that
        told its story keep their marks (a phase is told once).  :class:`ChannelBusy` when
        that channel has an open game; :class:`WrongStatus` unless the game is active."""

        async def body(tx: Tx) -> GameRecord:
            record = await fetch(tx, game_id, None)
            if record.status is not GameStatus.ACTIVE:
                raise WrongStatus(game_id, record.status)
            await check_channel_free(tx, channel_id, except_game=game_id)
            now = self.db.now_ms()
            await tx.execute(
                "UPDATE games SET channel_id = ?, guild_id = ?, updated_at = ? WHERE id = ?",
                (channel_id, guild_id, now, game_id))
            await tx.execute(
                "DELETE FROM game_messages WHERE game_id = ? AND kind IN (?, ?, ?)",
                (game_id, CHANNEL_GONE_KIND, "table", STORY_THREAD_KIND))
            return record

        await self._write_mapping_integrity(body, channel_id)
        return await self.get(game_id)

    async def set_language(self, game_id: int, language: str | None) -> GameRecord:
        async def body(tx: Tx) -> GameRecord:
            record = await fetch(tx, game_id, None)
            now = self.db.now_ms()
            await tx.execute(
                "UPDATE games SET language = ?, updated_at = ? WHERE id = ?",
                (language, now, game_id),
            )
            return dataclasses.replace(
                record, language=language, updated_at=from_ms_required(now)
            )

        return await self.db.write(body)

    # --- helpers ------------------------------------------------------------------------------

    async def _write_mapping_integrity(
        self, body: Callable[[Tx], Awaitable[T]], channel_id: int | None
    ) -> T:
        """Run ``body``; a race on the one-open-game-per-channel index becomes ChannelBusy."""
        try:
            return await self.db.write(body)
        except self.db.integrity_errors as exc:
            # SQLite names the index's column, PostgreSQL the index
            if channel_id is not None and ("games.channel_id" in str(exc) or getattr(
                    exc, "constraint_name", None) == "games_open_channel"):
                other = await self.find_by_channel(channel_id)
                raise ChannelBusy(channel_id, other.id if other else 0) from exc
            raise
