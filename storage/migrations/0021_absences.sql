-- Absences (issue #35, docs/time.md): a person away (/game away) in all their games from
-- `since_at` to `until_at` (ended early by coming back): their time banks stop and nobody
-- reminds them.  A server sets how many days of absence a person has in a year (away_days).
CREATE TABLE absences (
    user_id  INTEGER NOT NULL,
    since_at INTEGER NOT NULL,
    until_at INTEGER NOT NULL CHECK (until_at > since_at),
    reason   TEXT,
    set_at   INTEGER NOT NULL,
    PRIMARY KEY (user_id, since_at)
) WITHOUT ROWID;
ALTER TABLE guild_settings ADD COLUMN away_days INTEGER
    CHECK (away_days IS NULL OR away_days BETWEEN 0 AND 365);
