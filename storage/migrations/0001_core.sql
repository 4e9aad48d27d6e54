-- Games, their seats, the append-only action log and the Discord messages of each table.
-- Times are integer milliseconds since the Unix epoch (UTC); JSON columns are compact, keys sorted.

CREATE TABLE games (
    id             INTEGER PRIMARY KEY,
    game           TEXT    NOT NULL,                 -- engine registry name ("puerto-rico")
    options        TEXT    NOT NULL DEFAULT '{}',    -- JSON; normalized by the engine at start
    seed           INTEGER,                          -- chosen at start; secret
    status         TEXT    NOT NULL DEFAULT 'lobby'
                   CHECK (status IN ('lobby', 'active', 'finished', 'abandoned')),
    version        INTEGER NOT NULL DEFAULT 0 CHECK (version >= 0),  -- bumped by every change
    seq            INTEGER NOT NULL DEFAULT 0 CHECK (seq >= 0),      -- actions in the log
    snapshot       TEXT,                             -- JSON game.dump(state) after action `seq`
    guild_id       INTEGER,
    channel_id     INTEGER,
    creator_id     INTEGER,
    language       TEXT,
    created_at     INTEGER NOT NULL,
    updated_at     INTEGER NOT NULL,
    started_at     INTEGER,
    last_action_at INTEGER,
    finished_at    INTEGER
);

-- One open game per channel: "the game of this channel" is unambiguous.
CREATE UNIQUE INDEX games_open_channel ON games (channel_id)
    WHERE channel_id IS NOT NULL AND status IN ('lobby', 'active');
CREATE INDEX games_status ON games (status, last_action_at);
CREATE INDEX games_guild ON games (guild_id, status) WHERE guild_id IS NOT NULL;

CREATE TABLE seats (
    game_id   INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat      INTEGER NOT NULL CHECK (seat >= 0),
    user_id   INTEGER,                               -- a Discord user ...
    ai_policy TEXT,                                  -- ... or an AI policy, never both
    joined_at INTEGER NOT NULL,
    PRIMARY KEY (game_id, seat),
    CHECK ((user_id IS NULL) <> (ai_policy IS NULL))
) WITHOUT ROWID;

-- A user sits at most once per table; also "the games of this user".
CREATE UNIQUE INDEX seats_user ON seats (user_id, game_id) WHERE user_id IS NOT NULL;

CREATE TABLE actions (
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq     INTEGER NOT NULL CHECK (seq >= 1),       -- 1, 2, 3... without gaps
    seat    INTEGER NOT NULL,
    code    TEXT    NOT NULL,                        -- the engine's canonical action code
    user_id INTEGER,                                 -- who clicked (NULL: AI or automatic)
    at      INTEGER NOT NULL,
    events  TEXT    NOT NULL DEFAULT '[]',           -- JSON list of Event.to_json()
    PRIMARY KEY (game_id, seq)
) WITHOUT ROWID;

-- The log is append-only.
CREATE TRIGGER actions_append_only BEFORE UPDATE ON actions
BEGIN
    SELECT RAISE(ABORT, 'the action log is append-only');
END;

CREATE TABLE game_messages (
    game_id    INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    kind       TEXT    NOT NULL,                     -- "table", "lobby", ...
    channel_id INTEGER,
    message_id INTEGER NOT NULL,
    PRIMARY KEY (game_id, kind)
) WITHOUT ROWID;
