-- How the bot players of a guild's new tables play (storage/migrations/V4__guild_bots.sql in
-- PostgreSQL's dialect).
ALTER TABLE guild_settings ADD COLUMN bots TEXT NOT NULL DEFAULT 'strong'
    CHECK (bots IN ('simple', 'strong'));
