-- VP amounts are public (issue #9; the ruling beside gain_vp in engine/puerto_rico/ops.py): VP
-- chips lie face down, so a seat's running total stays hidden, but each amount is taken in front
-- of everyone from the public supply.  The engine now gives every VpEarned event a public form
-- {"amount", "reason"}; the events stored before it have "public_data": null, and
-- `python -m storage verify` compares the stored events with a replay.  The Python back-fill
-- (storage/migrate.py, _backfill_vp_public) rewrites those events to the new form and then puts
-- the log's append-only trigger back exactly as 0001 created it: it is lifted here for this
-- one rewrite, inside the migration's transaction.

DROP TRIGGER actions_append_only;
