-- Undo gives the time back (issue #35's banks): a move of a game with a pace keeps its seat's
-- wait and bank as they were before it, [waiting_since, waiting_version, bank_ms], so that
-- taking the move back restores them instead of keeping the move's increment.
ALTER TABLE actions ADD COLUMN seat_before TEXT;
