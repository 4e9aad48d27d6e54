-- Schema 20 (see ../0020_pauses.sql): a game's pauses and the asks for one.
CREATE TABLE game_pauses (
    game_id  BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    since_at BIGINT NOT NULL,
    until_at BIGINT CHECK (until_at IS NULL OR until_at >= since_at),
    PRIMARY KEY (game_id, since_at)
);
CREATE TABLE pause_asks (
    game_id BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id BIGINT NOT NULL,
    at      BIGINT NOT NULL,
    PRIMARY KEY (game_id, user_id)
);
