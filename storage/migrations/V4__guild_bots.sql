-- How the bot players of a guild's new tables play: the simple policy or the strong one.
ALTER TABLE guild_settings ADD COLUMN bots TEXT NOT NULL DEFAULT 'strong'
    CHECK (bots IN ('simple', 'strong'));
