-- The public log a table shows, kept so that a restart shows the same lines
-- (storage/migrations/V15__table_logs.sql in PostgreSQL's dialect).

CREATE TABLE table_logs (
    table_id BIGINT PRIMARY KEY REFERENCES tables (id),
    round_no INTEGER,
    actions  INTEGER NOT NULL,
    entries  TEXT NOT NULL
);
