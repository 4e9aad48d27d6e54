-- Schema 19 (see ../0019_stand_ins.sql): an AI standing in for a person out of time, the
-- hand-overs' new reasons, and the days after which a game of stand-ins only is abandoned.
ALTER TABLE seats ADD COLUMN stand_in_for BIGINT;
ALTER TABLE seats ADD COLUMN stood_in_at BIGINT;
CREATE INDEX seats_stand_in ON seats (stand_in_for) WHERE stand_in_for IS NOT NULL;
ALTER TABLE guild_settings ADD COLUMN abandon_days INTEGER
    CHECK (abandon_days IS NULL OR abandon_days BETWEEN 1 AND 365);
ALTER TABLE seat_handovers DROP CONSTRAINT seat_handovers_reason_check;
ALTER TABLE seat_handovers ADD CONSTRAINT seat_handovers_reason_check
    CHECK (reason IN ('left', 'clock', 'replaced', 'timeout', 'returned'));
ALTER TABLE clock_votes ADD COLUMN opened_by BIGINT;
-- A person's time-outs (/game stats) are read by this index.
CREATE INDEX seat_handovers_timeout ON seat_handovers (from_user_id) WHERE reason = 'timeout';
