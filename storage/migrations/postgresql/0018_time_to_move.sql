-- Schema 18 (see ../0018_time_to_move.sql): each person's move's waiting time; the time-outs.
ALTER TABLE actions ADD COLUMN waited_ms BIGINT CHECK (waited_ms IS NULL OR waited_ms >= 0);
CREATE INDEX actions_user_waited ON actions (user_id, waited_ms) WHERE waited_ms IS NOT NULL;
CREATE INDEX clock_votes_user ON clock_votes (user_id);
