-- Schema 15 (see ../0015_time_banks.sql): a game's pace and each person's time bank; a stored
-- clock of N days becomes the custom pace of N days that every move fills again.
ALTER TABLE game_timers ADD COLUMN pace TEXT
    CHECK (pace IS NULL OR pace IN ('relaxed', 'normal', 'fast', 'custom'));
ALTER TABLE game_timers ADD COLUMN bank_start_ms BIGINT CHECK (bank_start_ms > 0);
ALTER TABLE game_timers ADD COLUMN bank_increment_ms BIGINT CHECK (bank_increment_ms >= 0);
ALTER TABLE game_timers ADD COLUMN bank_cap_ms BIGINT CHECK (bank_cap_ms > 0);
ALTER TABLE seats ADD COLUMN bank_ms BIGINT;
UPDATE game_timers
   SET pace = 'custom', bank_start_ms = clock_days * 86400000::BIGINT,
       bank_increment_ms = clock_days * 86400000::BIGINT, bank_cap_ms = clock_days * 86400000::BIGINT
 WHERE clock_days IS NOT NULL;
UPDATE seats
   SET bank_ms = (SELECT t.bank_start_ms FROM game_timers AS t WHERE t.game_id = seats.game_id)
 WHERE user_id IS NOT NULL AND game_id IN (SELECT id FROM games WHERE status = 'active');
ALTER TABLE game_timers DROP COLUMN clock_days;
