-- Player statistics and openskill ratings per guild and game, and each player's match history
-- (storage/migrations/V2__player_stats.sql in PostgreSQL's dialect).

CREATE TABLE player_stats (
    guild_id     BIGINT NOT NULL,
    game         TEXT NOT NULL,
    user_id      BIGINT NOT NULL,
    display_name TEXT NOT NULL,
    matches      INTEGER NOT NULL DEFAULT 0,
    wins         INTEGER NOT NULL DEFAULT 0,
    rounds       INTEGER NOT NULL DEFAULT 0,
    points       BIGINT NOT NULL DEFAULT 0,
    mu           DOUBLE PRECISION NOT NULL,
    sigma        DOUBLE PRECISION NOT NULL,
    rating       DOUBLE PRECISION NOT NULL,
    updated_at   TEXT NOT NULL,
    PRIMARY KEY (guild_id, game, user_id)
);
CREATE INDEX player_stats_by_rating ON player_stats (guild_id, game, rating DESC);
CREATE INDEX player_stats_by_wins ON player_stats (guild_id, game, wins DESC);

CREATE TABLE match_players (
    table_id      BIGINT NOT NULL,
    match_no      INTEGER NOT NULL,
    seat          INTEGER NOT NULL,
    guild_id      BIGINT NOT NULL,
    game          TEXT NOT NULL,
    user_id       BIGINT NOT NULL,
    won           INTEGER NOT NULL,
    total         INTEGER NOT NULL,
    rating_before DOUBLE PRECISION,
    rating_after  DOUBLE PRECISION,
    finished_at   TEXT NOT NULL,
    PRIMARY KEY (table_id, match_no, seat),
    FOREIGN KEY (table_id, match_no) REFERENCES matches (table_id, match_no)
);
CREATE INDEX match_players_by_user ON match_players (guild_id, user_id, finished_at DESC);

ALTER TABLE matches ADD COLUMN seat_names TEXT;
