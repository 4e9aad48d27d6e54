-- Time to move (issue #35, docs/time.md): how long each person's move had waited for them, from
-- the moment the prompt named their seat to the move (NULL for an AI's move and the moves
-- logged before this schema); and the banks that ran out by person.  For /game stats and the
-- lobby: a person's median time to move and their time-outs.
ALTER TABLE actions ADD COLUMN waited_ms INTEGER CHECK (waited_ms IS NULL OR waited_ms >= 0);
CREATE INDEX actions_user_waited ON actions (user_id, waited_ms) WHERE waited_ms IS NOT NULL;
CREATE INDEX clock_votes_user ON clock_votes (user_id);
