-- Time banks (issue #35, docs/time.md): a game's pace and each person's bank.  A game stored with
-- a clock (clock_days N: a vote once one decision had waited N days) keeps its meaning as the
-- custom pace of N days that every move fills again (storage/timebank.py, ``per_move``): each
-- person seated in a running game gets N days, which its present wait spends from its start.
ALTER TABLE game_timers ADD COLUMN pace TEXT
    CHECK (pace IS NULL OR pace IN ('relaxed', 'normal', 'fast', 'custom'));
ALTER TABLE game_timers ADD COLUMN bank_start_ms INTEGER CHECK (bank_start_ms > 0);
ALTER TABLE game_timers ADD COLUMN bank_increment_ms INTEGER CHECK (bank_increment_ms >= 0);
ALTER TABLE game_timers ADD COLUMN bank_cap_ms INTEGER CHECK (bank_cap_ms > 0);
ALTER TABLE seats ADD COLUMN bank_ms INTEGER;               -- NULL: an AI seat, or no pace
UPDATE game_timers
   SET pace = 'custom', bank_start_ms = clock_days * 86400000,
       bank_increment_ms = clock_days * 86400000, bank_cap_ms = clock_days * 86400000
 WHERE clock_days IS NOT NULL;
UPDATE seats
   SET bank_ms = (SELECT t.bank_start_ms FROM game_timers AS t WHERE t.game_id = seats.game_id)
 WHERE user_id IS NOT NULL AND game_id IN (SELECT id FROM games WHERE status = 'active');
ALTER TABLE game_timers DROP COLUMN clock_days;
