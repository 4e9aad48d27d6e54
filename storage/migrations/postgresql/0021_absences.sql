-- Schema 21 (see ../0021_absences.sql): a person's absences and a server's allowance of them.
CREATE TABLE absences (
    user_id  BIGINT NOT NULL,
    since_at BIGINT NOT NULL,
    until_at BIGINT NOT NULL CHECK (until_at > since_at),
    reason   TEXT,
    set_at   BIGINT NOT NULL,
    PRIMARY KEY (user_id, since_at)
);
ALTER TABLE guild_settings ADD COLUMN away_days INTEGER
    CHECK (away_days IS NULL OR away_days BETWEEN 0 AND 365);
