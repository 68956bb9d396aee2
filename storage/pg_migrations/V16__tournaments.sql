-- Tournaments: events, entrants, rounds and tables (storage/migrations/V16__tournaments.sql
-- in PostgreSQL's dialect).

CREATE TABLE tournaments (
    id               BIGSERIAL PRIMARY KEY,
    guild_id         BIGINT NOT NULL,
    channel_id       BIGINT NOT NULL,
    message_id       BIGINT,
    created_by       BIGINT NOT NULL,
    game             TEXT NOT NULL,
    preset           TEXT,
    target           INTEGER,
    settings         TEXT NOT NULL,
    status           TEXT NOT NULL,
    signup_closes_at DOUBLE PRECISION NOT NULL,
    starts_at        DOUBLE PRECISION NOT NULL,
    units            TEXT NOT NULL DEFAULT '[]',
    bracket          TEXT NOT NULL DEFAULT '[]',
    announced        INTEGER NOT NULL DEFAULT 0,
    created_at       TEXT NOT NULL,
    updated_at       TEXT NOT NULL
);
CREATE INDEX tournaments_open ON tournaments (status, guild_id);

CREATE TABLE tournament_entrants (
    tournament_id BIGINT NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    position      INTEGER NOT NULL,
    user_id       BIGINT NOT NULL,
    display_name  TEXT NOT NULL,
    checked_in    INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (tournament_id, user_id)
);

CREATE TABLE tournament_rounds (
    tournament_id BIGINT NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    round_no      INTEGER NOT NULL,
    byes          TEXT NOT NULL,
    PRIMARY KEY (tournament_id, round_no)
);

CREATE TABLE tournament_tables (
    tournament_id BIGINT NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    round_no      INTEGER NOT NULL,
    table_no      INTEGER NOT NULL,
    sides         TEXT NOT NULL,
    place         BIGINT,
    table_id      BIGINT,
    winning_sides TEXT,
    PRIMARY KEY (tournament_id, round_no, table_no)
);
CREATE INDEX tournament_tables_by_table ON tournament_tables (table_id);
