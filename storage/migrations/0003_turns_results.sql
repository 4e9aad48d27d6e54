-- Whose turn it is (for "games waiting on me" and reminders) and finished-game results
-- (for statistics).  Existing rows are back-filled from the snapshots by a Python step
-- (storage/migrate.py) in the same transaction.

ALTER TABLE seats ADD COLUMN waiting_since INTEGER;  -- set while the prompt names the seat
CREATE INDEX seats_waiting_user ON seats (user_id) WHERE waiting_since IS NOT NULL;
CREATE INDEX seats_waiting_since ON seats (waiting_since) WHERE waiting_since IS NOT NULL;

ALTER TABLE games ADD COLUMN outcome TEXT;           -- JSON Outcome.to_json() once finished
CREATE INDEX games_finished ON games (game, finished_at) WHERE status = 'finished';

CREATE TABLE results (
    game_id   INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat      INTEGER NOT NULL,
    user_id   INTEGER,
    ai_policy TEXT,
    total     INTEGER NOT NULL,
    rank      INTEGER NOT NULL,
    winner    INTEGER NOT NULL CHECK (winner IN (0, 1)),
    tiebreak  INTEGER NOT NULL,
    breakdown TEXT    NOT NULL,                      -- JSON {part: points}
    PRIMARY KEY (game_id, seat)
) WITHOUT ROWID;
CREATE INDEX results_user ON results (user_id) WHERE user_id IS NOT NULL;
