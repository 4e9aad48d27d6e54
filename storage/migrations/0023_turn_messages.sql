-- Turn DMs that may go stale (issue #35, docs/notifications.md): each DM that told a person a
-- decision waits on them, by the wait it told of.  Once every wait a DM told of is over (the
-- person acted, the game moved on or ended) the DM is edited to say so, and its rows go.
CREATE TABLE turn_messages (
    game_id       INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat          INTEGER NOT NULL,
    waiting_since INTEGER NOT NULL,
    user_id       INTEGER NOT NULL,
    channel_id    INTEGER NOT NULL,                  -- the DM channel
    message_id    INTEGER NOT NULL,
    PRIMARY KEY (game_id, seat, waiting_since, message_id)
) WITHOUT ROWID;
CREATE INDEX turn_messages_message ON turn_messages (message_id);
