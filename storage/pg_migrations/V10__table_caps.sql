-- Guild settings: the most tables open at once in one channel and in the whole server
-- (storage/migrations/V10__table_caps.sql in PostgreSQL's dialect).
ALTER TABLE guild_settings ADD COLUMN max_tables_channel INTEGER NOT NULL DEFAULT 5;
ALTER TABLE guild_settings ADD COLUMN max_tables_server INTEGER NOT NULL DEFAULT 50;
