"""Check that every stored game is what its action log says it is.

The log is the source of truth: for each game we replay ``setup(options, seed)`` and every logged
action through the engine and compare with what the tables hold: the snapshot, the events of each
action, the seats to act, the status and the outcome.  ``python -m storage verify DB`` runs this.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.core import EngineError, Event, Game, ReplayError
from storage.bridge import engine_game, events_json, parse_json_object, snapshot_of
from storage.database import Database
from storage.errors import CorruptGame
from storage.records import JSON, GameRecord, GameStatus, dumps
from storage.rows import SELECT_ANY_GAME_WITH_SNAPSHOT, game_record
from storage.sql import Row, Tx


@dataclass(frozen=True, slots=True)
class Problem:
    """One mismatch.  ``kind`` is stable (``snapshot_mismatch``, ``replay_failed``...)."""

    game_id: int
    game: str
    kind: str
    detail: str

    def __str__(self) -> str:
        return f"game {self.game_id} ({self.game}): {self.kind}: {self.detail}"


@dataclass(frozen=True, slots=True)
class VerifyReport:
    games: int = 0
    actions: int = 0
    problems: tuple[Problem, ...] = ()
    integrity: tuple[str, ...] = field(default_factory=tuple)
    """Messages of ``PRAGMA integrity_check`` (empty when the file is sound)."""

    @property
    def ok(self) -> bool:
        return not self.problems and not self.integrity

    def to_json(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "games": self.games,
            "actions": self.actions,
            "integrity": list(self.integrity),
            "problems": [
                {"game_id": p.game_id, "game": p.game, "kind": p.kind, "detail": p.detail}
                for p in self.problems
            ],
        }


def replay_log(
    game_id: int,
    game: Game[Any],
    options: Mapping[str, Any],
    seed: int,
    actions: Iterable[tuple[int, str]],
) -> tuple[Any, list[list[Event]]]:
    """Rebuild a game from its log; returns the state and the events of each action.
    :class:`CorruptGame` (naming the failing action) when the log does not replay."""
    try:
        state = game.setup(options, seed)
    except EngineError as exc:
        raise CorruptGame(game_id, f"setup failed: {exc}") from exc
    per_action: list[list[Event]] = []
    for index, (seat, code) in enumerate(actions):
        try:
            state, events = game.apply(state, seat, game.decode_action(code))
        except EngineError as exc:
            error = ReplayError(index, seat, code, exc)
            detail = f"action seq {index + 1} ({seat}, {code!r}): {exc}"
            raise CorruptGame(game_id, detail) from error
        per_action.append(events)
    return state, per_action


def _normalized(value: Any) -> Any:
    """A JSON value as it reads back from the database (tuples become lists...)."""
    return json.loads(dumps(value))


async def _read_game(db: Database, game_id: int) -> tuple[Row | None, list[Row]]:
    async def body(tx: Tx) -> tuple[Row | None, list[Row]]:
        row = await tx.fetchone(SELECT_ANY_GAME_WITH_SNAPSHOT, (game_id,))
        actions = await tx.fetchall(
            "SELECT seq, seat, code, events,"
            " EXISTS (SELECT 1 FROM undone_actions AS u"
            "         WHERE u.game_id = actions.game_id AND u.seq = actions.seq) AS undone"
            " FROM actions WHERE game_id = ? ORDER BY seq",
            (game_id,),
        )
        return row, actions

    return await db.snapshot_read(body)


def check_game(row: Row, actions: Sequence[Row], *, check_events: bool = True) -> list[Problem]:
    """Every problem of one game, given its row and its log (read in one transaction)."""
    game_id = int(row["id"])
    name = str(row["game"])

    def problem(kind: str, detail: str) -> Problem:
        return Problem(game_id, name, kind, detail)

    try:
        record = game_record(row)
    except CorruptGame as exc:
        return [problem("unreadable_row", str(exc.cause))]
    seqs = [int(a["seq"]) for a in actions]
    if seqs != list(range(1, len(seqs) + 1)):
        return [problem("log_gap", f"seqs are not 1..n: {_short(seqs)}")]
    if record.seq != len(seqs):
        return [problem("seq_mismatch", f"games.seq={record.seq} but the log has {len(seqs)}")]
    seat_numbers = [s.seat for s in record.seats]
    if seat_numbers != list(range(len(seat_numbers))):
        return [problem("seats", f"seats are not 0..n-1: {seat_numbers}")]
    if record.status is GameStatus.LOBBY:
        if seqs:
            return [problem("lobby_with_actions", f"{len(seqs)} actions")]
        return []
    if record.seed is None:
        return [problem("no_seed", "a started game without a seed")]
    # Actions taken back by an undo stay in the log but do not count (migrations/0004_undo.sql).
    actions = [a for a in actions if not _undone(a)]
    try:
        game = engine_game(game_id, record.game)
        state, events = replay_log(
            game_id, game, record.options, record.seed,
            [(int(a["seat"]), str(a["code"])) for a in actions],
        )
    except CorruptGame as exc:
        return [problem("replay_failed", str(exc.cause))]
    problems: list[Problem] = []
    problems.extend(_check_snapshot(record, row["snapshot"], game, state, problem))
    if check_events:
        for action, replayed in zip(actions, events, strict=True):
            try:
                stored = json.loads(action["events"])
            except ValueError:
                stored = None
            if stored != _normalized(events_json(replayed)):
                problems.append(problem("events_mismatch", f"action seq {action['seq']}"))
                break
    return problems


def _check_snapshot(
    record: GameRecord,
    snapshot_text: str | None,
    game: Game[Any],
    state: Any,
    problem: Callable[[str, str], Problem],
) -> list[Problem]:
    problems: list[Problem] = []
    replayed = snapshot_of(game, state)
    try:
        stored = parse_json_object(record.id, snapshot_text, "snapshot")
    except CorruptGame as exc:
        problems.append(problem("snapshot_unreadable", str(exc.cause)))
    else:
        if stored != json.loads(replayed.text):
            problems.append(
                problem("snapshot_mismatch", f"the snapshot differs from the replay of the log "
                        f"({record.seq} actions)")
            )
        else:  # the engine's invariants, which loading a game to play it leaves out
            problems.extend(_invariants(game, stored, problem))
    players = game.players(state)
    if players != len(record.seats):
        problems.append(problem("seats", f"{len(record.seats)} seats for {players} players"))
    if record.status is GameStatus.ACTIVE:
        if not replayed.to_act:
            problems.append(problem("status", "active but the replayed game is over"))
        elif record.to_act != replayed.to_act:
            problems.append(
                problem("to_act", f"seats to act {record.to_act} != prompt {replayed.to_act}")
            )
    elif record.status is GameStatus.FINISHED:
        if replayed.to_act:
            problems.append(problem("status", "finished but the replayed game still prompts"))
        elif record.outcome != _normalized(replayed.outcome):
            problems.append(problem("outcome", "stored outcome differs from the replay"))
    return problems


def _invariants(game: Game[Any], snapshot: JSON, problem: Callable[[str, str], Problem]
                ) -> list[Problem]:
    """The engine's own checks of a stored state (each component conserved, counts in range:
    ``Game.load(check=True)``)."""
    try:
        game.load(snapshot, check=True)
    except EngineError as exc:
        return [problem("inconsistent_state", str(exc))]
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
        return [problem("inconsistent_state", repr(exc))]
    return []


def _undone(action: Row) -> bool:
    # sqlite3.Row: "in" looks at the values, keys() at the column names
    return "undone" in action.keys() and bool(action["undone"])  # noqa: SIM118


def _short(values: Sequence[int]) -> str:
    return str(values) if len(values) <= 8 else f"[{values[0]}, ..., {values[-1]}] ({len(values)})"


async def verify_game(db: Database, game_id: int, *, check_events: bool = True) -> list[Problem]:
    row, actions = await _read_game(db, game_id)
    if row is None:
        return [Problem(game_id, "?", "not_found", "no such game")]
    return check_game(row, actions, check_events=check_events)


async def verify_database(
    db: Database,
    *,
    game_ids: Iterable[int] | None = None,
    check_events: bool = True,
    integrity: bool = True,
) -> VerifyReport:
    """Verify every game (or ``game_ids``) and the file's integrity."""
    integrity_messages = tuple(await db.integrity_check()) if integrity else ()
    if game_ids is None:
        ids = [int(r[0]) for r in await db.fetchall("SELECT id FROM games ORDER BY id")]
    else:
        ids = list(game_ids)
    problems: list[Problem] = []
    actions = 0
    for game_id in ids:
        row, log = await _read_game(db, game_id)
        actions += len(log)
        if row is None:
            problems.append(Problem(game_id, "?", "not_found", "no such game"))
            continue
        problems.extend(check_game(row, log, check_events=check_events))
    return VerifyReport(len(ids), actions, tuple(problems), integrity_messages)
