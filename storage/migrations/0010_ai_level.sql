-- The table's AI settings (issue #13), chosen when the lobby is opened (`/game new`):
-- * ai_level: the level of a seat an AI takes over when its player leaves or runs out of time
--   (NULL for the games opened before: they keep the level of their AI seats, else normal);
-- * hints: 1 when the players may ask the strong AI for advice on their decision (`/game hint`).
ALTER TABLE games ADD COLUMN ai_level TEXT;
ALTER TABLE games ADD COLUMN hints INTEGER NOT NULL DEFAULT 0 CHECK (hints IN (0, 1));
