-- Schema 16 (see ../0016_quiet_time.sql): the quiet time of a server and of a game.
ALTER TABLE guild_settings ADD COLUMN quiet_zone TEXT;
ALTER TABLE guild_settings ADD COLUMN quiet_weekends INTEGER NOT NULL DEFAULT 0
    CHECK (quiet_weekends IN (0, 1));
ALTER TABLE guild_settings ADD COLUMN quiet_start INTEGER
    CHECK (quiet_start IS NULL OR quiet_start BETWEEN 0 AND 1439);
ALTER TABLE guild_settings ADD COLUMN quiet_end INTEGER
    CHECK (quiet_end IS NULL OR quiet_end BETWEEN 0 AND 1439);
ALTER TABLE game_timers ADD COLUMN quiet_zone TEXT;
ALTER TABLE game_timers ADD COLUMN quiet_weekends INTEGER NOT NULL DEFAULT 0
    CHECK (quiet_weekends IN (0, 1));
ALTER TABLE game_timers ADD COLUMN quiet_start INTEGER
    CHECK (quiet_start IS NULL OR quiet_start BETWEEN 0 AND 1439);
ALTER TABLE game_timers ADD COLUMN quiet_end INTEGER
    CHECK (quiet_end IS NULL OR quiet_end BETWEEN 0 AND 1439);
