"""SQL for reading games, and turning rows into records."""

from __future__ import annotations

import json
from typing import Any

from storage.bridge import parse_json_object
from storage.errors import CorruptGame
from storage.records import (
    ActionRecord,
    GameRecord,
    GameStatus,
    ResultRecord,
    SeatRecord,
    from_ms,
    from_ms_required,
)
from storage.sql import Row
from storage.timebank import Pace, Stop, quiet_rule

# One statement reads a game with its seats and messages: consistent without a transaction, and
# one round trip to the database.  (PostgreSQL reads SQLite's JSON functions as its own:
# storage.postgres.to_postgresql; over no rows they give NULL there.)
QUIET_OF_G = """
    coalesce(
      (SELECT json_array(qt.quiet_zone, qt.quiet_weekends, qt.quiet_start, qt.quiet_end)
         FROM game_timers AS qt WHERE qt.game_id = g.id AND qt.quiet_zone IS NOT NULL),
      (SELECT json_array(qs.quiet_zone, qs.quiet_weekends, qs.quiet_start, qs.quiet_end)
         FROM guild_settings AS qs
        WHERE qs.guild_id = g.guild_id AND qs.quiet_zone IS NOT NULL))"""
"""The quiet time of the game ``g`` (storage.timebank.quiet_rule): its own, else its server's."""
_MESSAGES = """
    (SELECT json_group_object(m.kind, m.message_id)
       FROM game_messages AS m WHERE m.game_id = g.id) AS messages_json
"""
SEATS_AND_MESSAGES = f"""
    (SELECT json_group_array(
                json_array(s.seat, s.user_id, s.ai_policy, s.joined_at, s.waiting_since,
                           s.waiting_version, s.bank_ms, s.stand_in_for, s.stood_in_at,
                           (SELECT json_group_array(json_array(a.since_at, a.until_at))
                              FROM absences AS a
                             WHERE a.user_id = s.user_id
                               AND a.until_at > coalesce(s.waiting_since, g.updated_at))))
       FROM seats AS s WHERE s.game_id = g.id) AS seats_json,
    (SELECT json_array(t.pace, t.bank_start_ms, t.bank_increment_ms, t.bank_cap_ms)
       FROM game_timers AS t WHERE t.game_id = g.id AND t.pace IS NOT NULL) AS pace_json,
    {QUIET_OF_G} AS quiet_json,
    (SELECT json_group_array(json_array(p.since_at, p.until_at))
       FROM game_pauses AS p WHERE p.game_id = g.id) AS pauses_json,
    {_MESSAGES}
"""
# The seats as every schema has them (``verify`` reads games before a migration too).
_ANY_SEATS_AND_MESSAGES = f"""
    (SELECT json_group_array(
                json_array(s.seat, s.user_id, s.ai_policy, s.joined_at, s.waiting_since))
       FROM seats AS s WHERE s.game_id = g.id) AS seats_json,
    {_MESSAGES}
"""
GAME_COLUMNS = f"""
    g.id, g.game, g.options, g.seed, g.status, g.version, g.seq, g.guild_id, g.channel_id,
    g.creator_id, g.language, g.created_at, g.updated_at, g.started_at, g.last_action_at,
    g.finished_at, g.outcome, g.ai_level, g.hints,
    {SEATS_AND_MESSAGES}
"""

SELECT_GAME = f"SELECT {GAME_COLUMNS} FROM games AS g WHERE g.id = ?"
SELECT_GAME_WITH_SNAPSHOT = f"SELECT {GAME_COLUMNS}, g.snapshot FROM games AS g WHERE g.id = ?"
# Every column the games table has at whatever schema the database is (``verify`` reads games
# before a migration too): the columns a later schema added read as their defaults.
SELECT_ANY_GAME_WITH_SNAPSHOT = (
    f"SELECT g.*, {_ANY_SEATS_AND_MESSAGES} FROM games AS g WHERE g.id = ?")

ACTION_COLUMNS = "game_id, seq, seat, code, user_id, at, events"

# The actions that count: every logged action except those an undo took back (see
# ``migrations/0004_undo.sql``).  For ``... FROM actions WHERE game_id = ? AND {NOT_UNDONE}``.
NOT_UNDONE = (
    "NOT EXISTS (SELECT 1 FROM undone_actions AS u"
    " WHERE u.game_id = actions.game_id AND u.seq = actions.seq)"
)


def _json_list(value: Any) -> list[Any]:
    """A JSON array nested in another: a list (SQLite gives its text)."""
    if value is None:
        return []
    return list(json.loads(value)) if isinstance(value, str) else list(value)


def stops(stored: list[Any]) -> tuple[Stop, ...]:
    """Stored ``[[since, until], ...]`` (ms; ``until`` NULL while under way) in order."""
    return tuple(sorted(((from_ms_required(a), from_ms(b)) for a, b in stored),
                        key=lambda stop: stop[0]))


def game_record(row: Row) -> GameRecord:
    """A :class:`GameRecord` from a row selected with :data:`GAME_COLUMNS`.

    :class:`CorruptGame` when a JSON column cannot be read."""
    game_id = int(row["id"])
    columns = row.keys()  # (a Row's ``in`` looks at its values) the schema's, for verify
    try:
        status = GameStatus(row["status"])
        seats_raw: list[list[Any]] = json.loads(row["seats_json"] or "[]")
        seats = tuple(
            sorted(
                (
                    SeatRecord(
                        seat=int(s[0]),
                        user_id=s[1],
                        ai_policy=s[2],
                        joined_at=from_ms_required(s[3]),
                        waiting_since=from_ms(s[4]),
                        waiting_version=s[5] if len(s) > 5 else None,
                        bank_ms=s[6] if len(s) > 6 else None,
                        stand_in_for=s[7] if len(s) > 7 else None,
                        stood_in_at=from_ms(s[8]) if len(s) > 8 else None,
                        away=stops(_json_list(s[9])) if len(s) > 9 else (),
                    )
                    for s in seats_raw
                ),
                key=lambda s: s.seat,
            )
        )
        messages = {str(k): int(v) for k, v in json.loads(row["messages_json"] or "{}").items()}
        pace_raw = json.loads(row["pace_json"] or "null") if "pace_json" in columns else None
        pace = None if pace_raw is None else Pace(str(pace_raw[0]), *map(int, pace_raw[1:4]))
        quiet = quiet_rule(json.loads(row["quiet_json"] or "null")
                           if "quiet_json" in columns else None)
        pauses = stops(json.loads(row["pauses_json"] or "[]")
                       if "pauses_json" in columns else [])
    except (ValueError, TypeError, IndexError) as exc:
        raise CorruptGame(game_id, f"unreadable row: {exc}") from exc
    outcome_text = row["outcome"]
    return GameRecord(
        id=game_id,
        game=row["game"],
        options=parse_json_object(game_id, row["options"], "options"),
        seed=row["seed"],
        status=status,
        version=int(row["version"]),
        seq=int(row["seq"]),
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        creator_id=row["creator_id"],
        language=row["language"],
        created_at=from_ms_required(row["created_at"]),
        updated_at=from_ms_required(row["updated_at"]),
        started_at=from_ms(row["started_at"]),
        last_action_at=from_ms(row["last_action_at"]),
        finished_at=from_ms(row["finished_at"]),
        seats=seats,
        messages=messages,
        outcome=None
        if outcome_text is None
        else parse_json_object(game_id, outcome_text, "outcome"),
        ai_level=row["ai_level"] if "ai_level" in columns else None,
        hints="hints" in columns and bool(row["hints"]),
        pace=pace,
        quiet=quiet,
        pauses=pauses,
    )


def action_record(row: Row) -> ActionRecord:
    game_id = int(row["game_id"])
    try:
        events = json.loads(row["events"])
    except ValueError as exc:
        raise CorruptGame(game_id, f"events of action {row['seq']} are not JSON") from exc
    return ActionRecord(
        game_id=game_id,
        seq=int(row["seq"]),
        seat=int(row["seat"]),
        code=str(row["code"]),
        user_id=row["user_id"],
        at=from_ms_required(row["at"]),
        events=tuple(events),
    )


def result_record(row: Row) -> ResultRecord:
    return ResultRecord(
        game_id=int(row["game_id"]),
        seat=int(row["seat"]),
        user_id=row["user_id"],
        ai_policy=row["ai_policy"],
        total=int(row["total"]),
        rank=int(row["rank"]),
        winner=bool(row["winner"]),
        tiebreak=int(row["tiebreak"]),
        breakdown=json.loads(row["breakdown"]),
    )
