-- A game's messages found by their id (issue #9): a game tells its story in a thread started
-- from its table message (kind 'thread'), and a command typed in that thread acts on the game,
-- so the thread's id must lead to its game without scanning every game's messages.

CREATE INDEX game_messages_by_message ON game_messages (message_id, kind);
