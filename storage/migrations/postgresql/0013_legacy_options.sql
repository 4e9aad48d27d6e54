-- Schema 13 (see ../0013_legacy_options.sql): no table changes; the Python step rewrites the
-- options and the snapshot of the games stored before an option existed.
SELECT 1;
