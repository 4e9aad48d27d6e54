-- Schema 22 (see ../0022_notification_settings.sql): each person's notification settings,
-- their muted games, and the heads-up among the alerts' kinds.
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
ALTER TABLE user_settings ADD COLUMN held_at BIGINT;
ALTER TABLE user_settings ADD COLUMN digest_at BIGINT;
CREATE INDEX user_settings_held ON user_settings (held_at) WHERE held_at IS NOT NULL;
CREATE INDEX user_settings_digest ON user_settings (digest_hour) WHERE digest_hour IS NOT NULL;
CREATE TABLE game_mutes (
    user_id BIGINT NOT NULL,
    game_id BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    at      BIGINT NOT NULL,
    PRIMARY KEY (user_id, game_id)
);
CREATE INDEX game_mutes_game ON game_mutes (game_id);
ALTER TABLE seat_alerts DROP CONSTRAINT seat_alerts_kind_check;
ALTER TABLE seat_alerts ADD CONSTRAINT seat_alerts_kind_check
    CHECK (kind IN ('turn', 'nudge', 'clock', 'bank_half', 'bank_tenth', 'heads_up'));
