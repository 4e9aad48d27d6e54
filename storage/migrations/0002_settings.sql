-- Per-user and per-guild settings.

CREATE TABLE user_settings (
    user_id          INTEGER PRIMARY KEY,
    language         TEXT,                           -- NULL: the guild's or the bot's default
    dm_notifications INTEGER NOT NULL DEFAULT 1 CHECK (dm_notifications IN (0, 1)),
    dm_blocked       INTEGER NOT NULL DEFAULT 0 CHECK (dm_blocked IN (0, 1)),
    last_nudge_at    INTEGER,
    updated_at       INTEGER NOT NULL
);

CREATE TABLE guild_settings (
    guild_id       INTEGER PRIMARY KEY,
    language       TEXT,
    reminder_hours INTEGER CHECK (reminder_hours IS NULL OR reminder_hours > 0),
    defaults       TEXT    NOT NULL DEFAULT '{}',   -- JSON: other defaults for new games
    updated_at     INTEGER NOT NULL
);
