-- A player's own choices, kept across restarts and across servers
-- (storage/migrations/V12__player_preferences.sql in PostgreSQL's dialect).

CREATE TABLE player_preferences (
    user_id    BIGINT PRIMARY KEY,
    deck       TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
