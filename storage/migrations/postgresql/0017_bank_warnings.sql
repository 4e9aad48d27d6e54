-- Schema 17 (see ../0017_bank_warnings.sql): the bank warnings among the alerts' kinds.
ALTER TABLE seat_alerts DROP CONSTRAINT seat_alerts_kind_check;
ALTER TABLE seat_alerts ADD CONSTRAINT seat_alerts_kind_check
    CHECK (kind IN ('turn', 'nudge', 'clock', 'bank_half', 'bank_tenth'));
