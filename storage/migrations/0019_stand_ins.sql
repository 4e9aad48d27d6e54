-- Stand-ins (issue #35, docs/time.md): when a person's time bank runs out, an AI plays their seat
-- until they come back.  The seat is an AI seat meanwhile; `stand_in_for` names the person it
-- keeps the seat for (NULL for a seat an AI holds for good) and `stood_in_at` when it began.
-- The hand-overs gain their reasons: 'timeout' (the bank ran out) and 'returned' (the person took
-- the seat back); SQLite changes a CHECK by building the table anew, with its index and trigger.
-- A server may set after how many days a game in which every person timed out is abandoned.
ALTER TABLE seats ADD COLUMN stand_in_for INTEGER;
ALTER TABLE seats ADD COLUMN stood_in_at INTEGER;
CREATE INDEX seats_stand_in ON seats (stand_in_for) WHERE stand_in_for IS NOT NULL;
ALTER TABLE guild_settings ADD COLUMN abandon_days INTEGER
    CHECK (abandon_days IS NULL OR abandon_days BETWEEN 1 AND 365);

CREATE TABLE seat_handovers_new (
    id             INTEGER PRIMARY KEY,
    game_id        INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat           INTEGER NOT NULL CHECK (seat >= 0),
    after_seq      INTEGER NOT NULL CHECK (after_seq >= 0),
    from_user_id   INTEGER,
    from_ai_policy TEXT,
    to_user_id     INTEGER,
    to_ai_policy   TEXT,
    reason         TEXT    NOT NULL
                   CHECK (reason IN ('left', 'clock', 'replaced', 'timeout', 'returned')),
    at             INTEGER NOT NULL,
    CHECK ((from_user_id IS NULL) <> (from_ai_policy IS NULL)),
    CHECK ((to_user_id IS NULL) <> (to_ai_policy IS NULL))
);
INSERT INTO seat_handovers_new (id, game_id, seat, after_seq, from_user_id, from_ai_policy,
                                to_user_id, to_ai_policy, reason, at)
    SELECT id, game_id, seat, after_seq, from_user_id, from_ai_policy, to_user_id, to_ai_policy,
           reason, at FROM seat_handovers;
DROP TABLE seat_handovers;
ALTER TABLE seat_handovers_new RENAME TO seat_handovers;
CREATE INDEX seat_handovers_game ON seat_handovers (game_id, after_seq);
CREATE TRIGGER seat_handovers_append_only BEFORE UPDATE ON seat_handovers
BEGIN
    SELECT RAISE(ABORT, 'seat hand-overs are append-only');
END;

-- A vote on a seat is now opened by a person (/game kick), no longer by the bank running out.
ALTER TABLE clock_votes ADD COLUMN opened_by INTEGER;
-- A person's time-outs (/game stats) are read by this index.
CREATE INDEX seat_handovers_timeout ON seat_handovers (from_user_id) WHERE reason = 'timeout';
