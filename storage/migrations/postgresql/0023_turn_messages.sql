-- Schema 23 (see ../0023_turn_messages.sql): the turn DMs to mark as done once their waits end.
CREATE TABLE turn_messages (
    game_id       BIGINT  NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat          INTEGER NOT NULL,
    waiting_since BIGINT  NOT NULL,
    user_id       BIGINT  NOT NULL,
    channel_id    BIGINT  NOT NULL,
    message_id    BIGINT  NOT NULL,
    PRIMARY KEY (game_id, seat, waiting_since, message_id)
);
CREATE INDEX turn_messages_message ON turn_messages (message_id);
