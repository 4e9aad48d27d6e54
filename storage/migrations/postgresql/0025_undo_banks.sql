-- Schema 25 (see ../0025_undo_banks.sql): a move's seat as it was before it.
ALTER TABLE actions ADD COLUMN seat_before TEXT;
