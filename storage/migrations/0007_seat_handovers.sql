-- Seat hand-overs (issue #9): who held a seat of a running game before it changed hands (a
-- player who left, the clock vote's AI takeover), so that the history names whoever acted at
-- the time.  The former occupant held the seat for the actions up to `after_seq` (the log's
-- length then), the new one from the next action on.  Games already started are back-filled
-- from the seats handed over after the start (a Python step, storage/handovers.py).

CREATE TABLE seat_handovers (
    id             INTEGER PRIMARY KEY,
    game_id        INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat           INTEGER NOT NULL CHECK (seat >= 0),
    after_seq      INTEGER NOT NULL CHECK (after_seq >= 0),
    from_user_id   INTEGER,                          -- the former occupant: a Discord user ...
    from_ai_policy TEXT,                             -- ... or an AI policy
    to_user_id     INTEGER,                          -- the new occupant, likewise
    to_ai_policy   TEXT,
    reason         TEXT    NOT NULL CHECK (reason IN ('left', 'clock', 'replaced')),
    at             INTEGER NOT NULL,
    CHECK ((from_user_id IS NULL) <> (from_ai_policy IS NULL)),
    CHECK ((to_user_id IS NULL) <> (to_ai_policy IS NULL))
);
CREATE INDEX seat_handovers_game ON seat_handovers (game_id, after_seq);

-- History is append-only.
CREATE TRIGGER seat_handovers_append_only BEFORE UPDATE ON seat_handovers
BEGIN
    SELECT RAISE(ABORT, 'seat hand-overs are append-only');
END;
