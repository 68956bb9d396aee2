-- A guild setting: mention the player whose turn starts, on by default
-- (storage/migrations/V5__turn_pings.sql in PostgreSQL's dialect).
ALTER TABLE guild_settings ADD COLUMN turn_pings INTEGER NOT NULL DEFAULT 1;
