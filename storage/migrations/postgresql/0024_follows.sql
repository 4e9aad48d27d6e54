-- Schema 24 (see ../0024_follows.sql): who follows which game.
CREATE TABLE follows (
    game_id BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id BIGINT NOT NULL,
    at      BIGINT NOT NULL,
    PRIMARY KEY (game_id, user_id)
);
CREATE INDEX follows_user ON follows (user_id);
