-- Undo: a decision taken back is never deleted from the action log.  A row here marks it as
-- undone; every replay (verify, rebuild_snapshot) and the log reads skip the marked actions.
-- Marks are append-only too, so the history of a game (including what was taken back) stays.

CREATE TABLE undone_actions (
    game_id   INTEGER NOT NULL,
    seq       INTEGER NOT NULL,                      -- the action taken back
    undone_at INTEGER NOT NULL,
    undone_by INTEGER,                               -- the user who took it back
    PRIMARY KEY (game_id, seq),
    FOREIGN KEY (game_id, seq) REFERENCES actions (game_id, seq) ON DELETE CASCADE
) WITHOUT ROWID;

CREATE TRIGGER undone_actions_append_only BEFORE UPDATE ON undone_actions
BEGIN
    SELECT RAISE(ABORT, 'undo marks are append-only');
END;
