-- What the bot last showed of each game, so that a crash between a commit and its Discord side
-- (the table edit, the turn DMs) is repaired at start-up; and the game version each seat's wait
-- began at, so that a decision drawn for an older version can be judged (issue #9).

-- The version after the change that started the seat's current wait (NULL while not waiting).
-- Existing waits are dated to the game's current version: stricter than the truth, never looser.
ALTER TABLE seats ADD COLUMN waiting_version INTEGER;
UPDATE seats SET waiting_version = (SELECT g.version FROM games AS g WHERE g.id = seats.game_id)
 WHERE waiting_since IS NOT NULL;

-- One row per game once its table has been shown: the version (and log length) the table
-- message was drawn for, and the turn notices handed to the notifier then (JSON
-- [[seat, waiting_since], ...]; each is claimed in seat_alerts when sent, so one still
-- unclaimed for a current wait is due).  Written after the table edit; a row behind the game's
-- version, or a due notice, means the last publication did not finish.
CREATE TABLE game_publications (
    game_id INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    version INTEGER NOT NULL,
    seq     INTEGER NOT NULL,
    due     TEXT    NOT NULL DEFAULT '[]',
    at      INTEGER NOT NULL
) WITHOUT ROWID;

-- Games already being played were shown by the bot that ran them.
INSERT INTO game_publications (game_id, version, seq, due, at)
SELECT id, version, seq, '[]', updated_at FROM games WHERE status IN ('active', 'finished');
