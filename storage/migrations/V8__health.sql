-- One row the bot's health check writes every few seconds: a store that cannot take this write
-- (a read-only file or database, a full disk) cannot store a move either.

CREATE TABLE health (
    id         INTEGER PRIMARY KEY,
    checked_at TEXT NOT NULL
);
