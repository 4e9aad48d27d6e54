-- Options that came after games were stored (issue #33: San Juan's ``councillor_draw``): each
-- stored game gets the value it was played with, from its engine's ``legacy_options``, so that
-- its log replays as it was played.  No table changes; the Python step (storage/migrate.py,
-- ``backfill_legacy_options``) rewrites the options and the snapshot of the games concerned.
SELECT 1;
