-- Pauses (issue #35, docs/time.md): a table may agree to pause its game (more than half of the
-- people seated ask for it); no time bank runs until one of them unpauses it.  A pause is a
-- stretch of the game's time (`until_at` NULL while under way); the asks wait in pause_asks.
CREATE TABLE game_pauses (
    game_id  INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    since_at INTEGER NOT NULL,
    until_at INTEGER CHECK (until_at IS NULL OR until_at >= since_at),
    PRIMARY KEY (game_id, since_at)
) WITHOUT ROWID;
CREATE TABLE pause_asks (
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id INTEGER NOT NULL,
    at      INTEGER NOT NULL,
    PRIMARY KEY (game_id, user_id)
) WITHOUT ROWID;
