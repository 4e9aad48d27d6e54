-- Saves by name (issue #34): an engine's dump names buildings and cards instead of indexing its
-- tables (format 2), so that a table that grows changes no stored game.  No table changes; the
-- Python step (storage/migrate.py, ``backfill_save_format``) loads each stored snapshot with its
-- engine (which still reads the older format) and stores the engine's dump of today.
SELECT 1;
