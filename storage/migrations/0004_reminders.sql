-- Notifications and the clock (issue #6): per-game timing, what each wait was already told, and
-- the votes on a seat whose clock ran out.  A "wait" is (game, seat, waiting_since): it begins
-- when the prompt names the seat and ends when the seat acts (seats.waiting_since changes).

CREATE TABLE game_timers (
    game_id        INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    reminder_hours INTEGER CHECK (reminder_hours IS NULL OR reminder_hours > 0),  -- NULL: guild's
    clock_days     INTEGER CHECK (clock_days IS NULL OR clock_days > 0)           -- NULL: no clock
) WITHOUT ROWID;

-- At most one alert of each kind per wait: the turn DM, the reminder, the clock vote.  A row is
-- replaced when the seat's next wait is alerted (its waiting_since differs).
CREATE TABLE seat_alerts (
    game_id       INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat          INTEGER NOT NULL,
    kind          TEXT    NOT NULL CHECK (kind IN ('turn', 'nudge', 'clock')),
    waiting_since INTEGER NOT NULL,                  -- the wait this alert was for
    at            INTEGER NOT NULL,
    PRIMARY KEY (game_id, seat, kind)
) WITHOUT ROWID;

CREATE TABLE clock_votes (
    id            INTEGER PRIMARY KEY,
    game_id       INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat          INTEGER NOT NULL,                  -- the seat whose clock ran out
    user_id       INTEGER NOT NULL,                  -- its player when the vote opened
    waiting_since INTEGER NOT NULL,                  -- the wait that ran out
    channel_id    INTEGER,
    message_id    INTEGER,                           -- the vote message, once posted
    status        TEXT    NOT NULL DEFAULT 'open'
                  CHECK (status IN ('open', 'takeover', 'abandon', 'cancelled')),
    opened_at     INTEGER NOT NULL,
    closed_at     INTEGER
);
CREATE UNIQUE INDEX clock_votes_wait ON clock_votes (game_id, seat, waiting_since);
CREATE INDEX clock_votes_open ON clock_votes (game_id) WHERE status = 'open';

CREATE TABLE clock_ballots (
    vote_id INTEGER NOT NULL REFERENCES clock_votes (id) ON DELETE CASCADE,
    user_id INTEGER NOT NULL,
    choice  TEXT    NOT NULL CHECK (choice IN ('ai', 'abandon')),
    at      INTEGER NOT NULL,
    PRIMARY KEY (vote_id, user_id)
) WITHOUT ROWID;
