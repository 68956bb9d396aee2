-- Tables, seats, matches, rounds and the append-only action log: all a table needs to survive
-- a restart. Times are ISO-8601 UTC text; JSON columns hold compact JSON.

CREATE TABLE guild_settings (
    guild_id        INTEGER PRIMARY KEY,
    language        TEXT CHECK (language IN ('en', 'fr')),
    default_presets TEXT NOT NULL DEFAULT '{}',
    turn_seconds    INTEGER NOT NULL,
    reveal_seconds  INTEGER NOT NULL,
    use_threads     INTEGER NOT NULL,
    updated_at      TEXT NOT NULL
);

CREATE TABLE tables (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id      INTEGER NOT NULL,
    channel_id    INTEGER NOT NULL,
    thread_id     INTEGER,
    message_id    INTEGER,
    game          TEXT NOT NULL,
    options       TEXT NOT NULL DEFAULT '{}',
    host_id       INTEGER NOT NULL,
    status        TEXT NOT NULL
                  CHECK (status IN ('lobby', 'playing', 'finished', 'abandoned', 'broken')),
    broken_reason TEXT,
    created_at    TEXT NOT NULL,
    updated_at    TEXT NOT NULL
);
CREATE INDEX tables_by_status ON tables (status);

-- The seat list of a table as the service last saved it, in its order (`position`).
CREATE TABLE seats (
    table_id     INTEGER NOT NULL REFERENCES tables (id),
    position     INTEGER NOT NULL,
    seat         INTEGER NOT NULL,
    user_id      INTEGER,
    display_name TEXT NOT NULL,
    is_bot       INTEGER NOT NULL,
    joined_at    TEXT NOT NULL,
    left_at      TEXT,
    PRIMARY KEY (table_id, position)
) WITHOUT ROWID;

-- A table plays one match, or several (rematches); match_no counts them per table from 0.
CREATE TABLE matches (
    table_id     INTEGER NOT NULL REFERENCES tables (id),
    match_no     INTEGER NOT NULL,
    game         TEXT NOT NULL,
    options      TEXT NOT NULL,
    n_seats      INTEGER NOT NULL,
    first_dealer INTEGER NOT NULL,
    started_at   TEXT NOT NULL,
    finished_at  TEXT,
    winners      TEXT,  -- JSON list of winning seats
    final_totals TEXT,  -- JSON list, per side
    PRIMARY KEY (table_id, match_no)
) WITHOUT ROWID;

-- round_no counts a table's rounds from 0 across its matches (it is what buttons carry);
-- match_round is the round's index inside its match (RoundRecord.round_no). `id` is global and
-- grows with time, so the action log's index appends near its end (few pages per commit).
CREATE TABLE rounds (
    id            INTEGER PRIMARY KEY,
    table_id      INTEGER NOT NULL REFERENCES tables (id),
    round_no      INTEGER NOT NULL,
    match_no      INTEGER,
    match_round   INTEGER NOT NULL,
    game          TEXT NOT NULL,
    rules_version INTEGER NOT NULL,
    options       TEXT NOT NULL,
    n_seats       INTEGER NOT NULL,
    dealer        INTEGER NOT NULL,
    totals_before TEXT NOT NULL,  -- JSON list
    deck          TEXT NOT NULL,  -- card codes, top first, space separated
    started_at    TEXT NOT NULL,
    finished_at   TEXT,
    points        TEXT,  -- JSON list, per side
    detail        TEXT,  -- JSON object
    totals_after  TEXT,  -- JSON list, per side
    UNIQUE (table_id, round_no)
);
CREATE INDEX rounds_open ON rounds (table_id) WHERE finished_at IS NULL;

-- Rows in arrival order (rowid), found by (round_id, seq): a commit of many tables' actions
-- writes a few pages at the end of each b-tree instead of one page per table.
CREATE TABLE actions (
    round_id INTEGER NOT NULL REFERENCES rounds (id),
    seq      INTEGER NOT NULL,
    seat     INTEGER NOT NULL,
    notation TEXT NOT NULL,
    at       TEXT NOT NULL
);
CREATE UNIQUE INDEX actions_by_round ON actions (round_id, seq);

-- The log is append-only: the store checks in memory that an action goes to an open round,
-- after its last action, from a seat of the table (a trigger doing it cost a third of the
-- insert time); rows, once written, never change.
CREATE TRIGGER actions_no_update BEFORE UPDATE ON actions
BEGIN
    SELECT RAISE(ABORT, 'actions_are_append_only');
END;
