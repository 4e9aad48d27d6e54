-- Bank warnings (issue #35, docs/time.md): a wait may also be told that half of the seat's time
-- bank is spent (bank_half) and that a tenth is left (bank_tenth), once each; the alerts' kinds
-- widen (SQLite changes a CHECK by building the table anew).
CREATE TABLE seat_alerts_new (
    game_id       INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat          INTEGER NOT NULL,
    kind          TEXT    NOT NULL
                  CHECK (kind IN ('turn', 'nudge', 'clock', 'bank_half', 'bank_tenth')),
    waiting_since INTEGER NOT NULL,                  -- the wait this alert was for
    at            INTEGER NOT NULL,
    PRIMARY KEY (game_id, seat, kind)
) WITHOUT ROWID;
INSERT INTO seat_alerts_new (game_id, seat, kind, waiting_since, at)
    SELECT game_id, seat, kind, waiting_since, at FROM seat_alerts;
DROP TABLE seat_alerts;
ALTER TABLE seat_alerts_new RENAME TO seat_alerts;
