-- Following a game (issue #35, /game follow): a person not seated hears of each phase's end by
-- DM (else a mention in the story thread), until they unfollow.
CREATE TABLE follows (
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id INTEGER NOT NULL,
    at      INTEGER NOT NULL,
    PRIMARY KEY (game_id, user_id)
) WITHOUT ROWID;
CREATE INDEX follows_user ON follows (user_id);
