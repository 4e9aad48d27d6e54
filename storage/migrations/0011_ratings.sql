-- Ratings (issue #14): openskill's Plackett-Luce model, per server and per game, among the
-- people of a finished game (storage/ratings.py says the policy).  Everything here is derived
-- from the results and the seat hand-overs: `python -m storage ratings DB --rebuild` computes it
-- again from them, in the order the games finished.  Existing results are rated by a Python
-- step (storage/migrate.py) in the same transaction.

ALTER TABLE games ADD COLUMN rating TEXT;  -- NULL: not looked at; 'rated'; else why not rated

CREATE TABLE ratings (
    guild_id   INTEGER NOT NULL,                     -- 0: games outside a server
    game       TEXT    NOT NULL,                     -- engine registry name
    user_id    INTEGER NOT NULL,
    mu         REAL    NOT NULL,
    sigma      REAL    NOT NULL,
    points     INTEGER NOT NULL,                     -- the rating shown: 1500 at the start
    games      INTEGER NOT NULL CHECK (games >= 1),  -- rated games
    updated_at INTEGER NOT NULL,                     -- when the last of them finished
    PRIMARY KEY (guild_id, game, user_id)
) WITHOUT ROWID;
CREATE INDEX ratings_board ON ratings (guild_id, game, points DESC, user_id);

CREATE TABLE rating_changes (
    game_id       INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id       INTEGER NOT NULL,
    place         INTEGER NOT NULL CHECK (place >= 1),  -- among the rated people; ties equal
    finished      INTEGER NOT NULL CHECK (finished IN (0, 1)),  -- 0: left, rated last
    mu_before     REAL    NOT NULL,
    sigma_before  REAL    NOT NULL,
    mu_after      REAL    NOT NULL,
    sigma_after   REAL    NOT NULL,
    points_before INTEGER NOT NULL,
    points_after  INTEGER NOT NULL,
    PRIMARY KEY (game_id, user_id)
) WITHOUT ROWID;
CREATE INDEX rating_changes_user ON rating_changes (user_id, game_id);
