-- The public log a table shows ("Last actions"), kept so that a restart shows the same lines:
-- one row per lobby or running table, rewritten by the transactions that already store a
-- table-level change (seats, a round's start or end) and on its own for the rare lines that
-- come with no other write (a timeout, a player back). `entries` is the log as it stood then
-- (a JSON list, at most the table's 32 entries, oldest first); the engine's lines that came
-- after are rebuilt from the actions of round `round_no` from index `actions` on. The row goes
-- when the table stops being active (finished, abandoned, broken).

CREATE TABLE table_logs (
    table_id INTEGER PRIMARY KEY REFERENCES tables (id),
    round_no INTEGER,
    actions  INTEGER NOT NULL,
    entries  TEXT NOT NULL
);
