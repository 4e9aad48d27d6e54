-- Notification settings (issue #35, docs/notifications.md), per person: their time zone and
-- quiet hours (nothing is sent then; what was held is sent when they end: held_at), a daily
-- digest at an hour of theirs instead of a DM per turn (digest_at: the last one sent), a
-- heads-up when they are next, their own reminder spacing, and games they muted.  The alerts'
-- kinds gain heads_up (SQLite changes a CHECK by building the table anew).
ALTER TABLE user_settings ADD COLUMN zone TEXT;
ALTER TABLE user_settings ADD COLUMN quiet_start INTEGER
    CHECK (quiet_start IS NULL OR quiet_start BETWEEN 0 AND 1439);
ALTER TABLE user_settings ADD COLUMN quiet_end INTEGER
    CHECK (quiet_end IS NULL OR quiet_end BETWEEN 0 AND 1439);
ALTER TABLE user_settings ADD COLUMN digest_hour INTEGER
    CHECK (digest_hour IS NULL OR digest_hour BETWEEN 0 AND 23);
ALTER TABLE user_settings ADD COLUMN heads_up INTEGER NOT NULL DEFAULT 0
    CHECK (heads_up IN (0, 1));
ALTER TABLE user_settings ADD COLUMN reminder_hours INTEGER
    CHECK (reminder_hours IS NULL OR reminder_hours > 0);
ALTER TABLE user_settings ADD COLUMN held_at INTEGER;
ALTER TABLE user_settings ADD COLUMN digest_at INTEGER;
CREATE INDEX user_settings_held ON user_settings (held_at) WHERE held_at IS NOT NULL;
CREATE INDEX user_settings_digest ON user_settings (digest_hour) WHERE digest_hour IS NOT NULL;

CREATE TABLE game_mutes (
    user_id INTEGER NOT NULL,
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    at      INTEGER NOT NULL,
    PRIMARY KEY (user_id, game_id)
) WITHOUT ROWID;
CREATE INDEX game_mutes_game ON game_mutes (game_id);

CREATE TABLE seat_alerts_new (
    game_id       INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat          INTEGER NOT NULL,
    kind          TEXT    NOT NULL
                  CHECK (kind IN ('turn', 'nudge', 'clock', 'bank_half', 'bank_tenth',
                                  'heads_up')),
    waiting_since INTEGER NOT NULL,
    at            INTEGER NOT NULL,
    PRIMARY KEY (game_id, seat, kind)
) WITHOUT ROWID;
INSERT INTO seat_alerts_new (game_id, seat, kind, waiting_since, at)
    SELECT game_id, seat, kind, waiting_since, at FROM seat_alerts;
DROP TABLE seat_alerts;
ALTER TABLE seat_alerts_new RENAME TO seat_alerts;
