-- Tournaments (issue #41 section 3; V15 is the table log's, from another branch): an event,
-- its entrants in sign-up order, its rounds and each round's tables. Every transition is
-- stored here before the bot announces it, so a restart resumes an event where it was.
-- Times are the service clock's seconds since the epoch. `units` is the JSON list of the
-- user ids of each unit (a player, or a fixed team), set at the start; `bracket` the
-- elimination bracket's units in order (null: an empty slot). `announced` counts the messages
-- of the event's end posted so far: the standings of rounds 1..n, then the podium (n + 1), so
-- an announcement a stop cut off is posted at the restart.

CREATE TABLE tournaments (
    id               INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id         INTEGER NOT NULL,
    channel_id       INTEGER NOT NULL,
    message_id       INTEGER,
    created_by       INTEGER NOT NULL,
    game             TEXT NOT NULL,
    preset           TEXT,
    target           INTEGER,
    settings         TEXT NOT NULL,
    status           TEXT NOT NULL,
    signup_closes_at REAL NOT NULL,
    starts_at        REAL NOT NULL,
    units            TEXT NOT NULL DEFAULT '[]',
    bracket          TEXT NOT NULL DEFAULT '[]',
    announced        INTEGER NOT NULL DEFAULT 0,
    created_at       TEXT NOT NULL,
    updated_at       TEXT NOT NULL
);
CREATE INDEX tournaments_open ON tournaments (status, guild_id);

CREATE TABLE tournament_entrants (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    position      INTEGER NOT NULL,
    user_id       INTEGER NOT NULL,
    display_name  TEXT NOT NULL,
    checked_in    INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (tournament_id, user_id)
) WITHOUT ROWID;

CREATE TABLE tournament_rounds (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    round_no      INTEGER NOT NULL,
    byes          TEXT NOT NULL,
    PRIMARY KEY (tournament_id, round_no)
) WITHOUT ROWID;

CREATE TABLE tournament_tables (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    round_no      INTEGER NOT NULL,
    table_no      INTEGER NOT NULL,
    sides         TEXT NOT NULL,
    place         INTEGER,  -- the thread (or channel) the table is played in, kept first
    table_id      INTEGER,
    winning_sides TEXT,
    PRIMARY KEY (tournament_id, round_no, table_no)
) WITHOUT ROWID;
CREATE INDEX tournament_tables_by_table ON tournament_tables (table_id);
