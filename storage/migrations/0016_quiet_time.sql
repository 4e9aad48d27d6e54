-- Quiet time (issue #35, docs/time.md): a server, and a game over it, may keep the weekends and
-- a daily window out of every time bank, in a time zone (an IANA name).  A game's own rule
-- (its quiet_zone set) wins over its server's; without either, every hour counts.
ALTER TABLE guild_settings ADD COLUMN quiet_zone TEXT;
ALTER TABLE guild_settings ADD COLUMN quiet_weekends INTEGER NOT NULL DEFAULT 0
    CHECK (quiet_weekends IN (0, 1));
ALTER TABLE guild_settings ADD COLUMN quiet_start INTEGER
    CHECK (quiet_start IS NULL OR quiet_start BETWEEN 0 AND 1439);  -- minutes after midnight
ALTER TABLE guild_settings ADD COLUMN quiet_end INTEGER
    CHECK (quiet_end IS NULL OR quiet_end BETWEEN 0 AND 1439);
ALTER TABLE game_timers ADD COLUMN quiet_zone TEXT;
ALTER TABLE game_timers ADD COLUMN quiet_weekends INTEGER NOT NULL DEFAULT 0
    CHECK (quiet_weekends IN (0, 1));
ALTER TABLE game_timers ADD COLUMN quiet_start INTEGER
    CHECK (quiet_start IS NULL OR quiet_start BETWEEN 0 AND 1439);
ALTER TABLE game_timers ADD COLUMN quiet_end INTEGER
    CHECK (quiet_end IS NULL OR quiet_end BETWEEN 0 AND 1439);
