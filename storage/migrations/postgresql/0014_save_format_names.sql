-- Schema 14 (see ../0014_save_format_names.sql): no table changes; the Python step writes every
-- stored snapshot again in its engine's save format of today.
SELECT 1;
