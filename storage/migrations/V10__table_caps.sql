-- Guild settings: how many tables may be open at once in one channel and in the whole server
-- (a lobby, a match in play or between rounds), so one member cannot flood a server.

ALTER TABLE guild_settings ADD COLUMN max_tables_channel INTEGER NOT NULL DEFAULT 5;
ALTER TABLE guild_settings ADD COLUMN max_tables_server INTEGER NOT NULL DEFAULT 50;
