-- A guild setting: mention the player whose turn starts (on by default).

ALTER TABLE guild_settings ADD COLUMN turn_pings INTEGER NOT NULL DEFAULT 1;
