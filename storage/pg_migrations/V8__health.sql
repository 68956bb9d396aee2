-- One row the bot's health check writes every few seconds: a store that cannot take this write
-- (a read-only database, a full disk) cannot store a move either
-- (storage/migrations/V8__health.sql in PostgreSQL's dialect).

CREATE TABLE health (
    id         INTEGER PRIMARY KEY,
    checked_at TEXT NOT NULL
);
