-- Per guild: how long its data is kept after the bot leaves it (NULL: the default, 30 days),
-- and since when the bot has been out of it (NULL: the bot is in the guild)
-- (storage/migrations/V7__guild_privacy.sql in PostgreSQL's dialect).

CREATE TABLE guild_privacy (
    guild_id       BIGINT PRIMARY KEY,
    retention_days INTEGER,
    left_at        TEXT
);
