-- The players' favourites (issue #14): how many times each person chose each role and built each
-- building in a finished game, counted from the events of the actions they took themselves
-- (actions.user_id: an AI's or an automatic move counts for nobody).  Derived data, written in
-- the transaction that stores a game's results (storage/choices.py); the games finished before
-- are counted by a Python step (storage/migrate.py) in the same transaction.

CREATE TABLE choices (
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id INTEGER NOT NULL,
    kind    TEXT    NOT NULL CHECK (kind IN ('role', 'building')),
    name    TEXT    NOT NULL,                        -- the engine's id of the role or building
    count   INTEGER NOT NULL CHECK (count >= 1),
    PRIMARY KEY (game_id, user_id, kind, name)
) WITHOUT ROWID;
CREATE INDEX choices_user ON choices (user_id, kind);
