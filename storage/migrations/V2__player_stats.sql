-- Player statistics and openskill ratings per guild and game, and each player's match history.

CREATE TABLE player_stats (
    guild_id     INTEGER NOT NULL,
    game         TEXT NOT NULL,
    user_id      INTEGER NOT NULL,
    display_name TEXT NOT NULL,
    matches      INTEGER NOT NULL DEFAULT 0,
    wins         INTEGER NOT NULL DEFAULT 0,
    rounds       INTEGER NOT NULL DEFAULT 0,
    points       INTEGER NOT NULL DEFAULT 0,
    mu           REAL NOT NULL,
    sigma        REAL NOT NULL,
    rating       REAL NOT NULL,  -- openskill ordinal, mu - 3 sigma: what leaderboards sort by
    updated_at   TEXT NOT NULL,
    PRIMARY KEY (guild_id, game, user_id)
) WITHOUT ROWID;
CREATE INDEX player_stats_by_rating ON player_stats (guild_id, game, rating DESC);
CREATE INDEX player_stats_by_wins ON player_stats (guild_id, game, wins DESC);

-- One row per human seat of a finished match, for "my recent matches".
CREATE TABLE match_players (
    table_id      INTEGER NOT NULL,
    match_no      INTEGER NOT NULL,
    seat          INTEGER NOT NULL,
    guild_id      INTEGER NOT NULL,
    game          TEXT NOT NULL,
    user_id       INTEGER NOT NULL,
    won           INTEGER NOT NULL,
    total         INTEGER NOT NULL,
    rating_before REAL,
    rating_after  REAL,
    finished_at   TEXT NOT NULL,
    PRIMARY KEY (table_id, match_no, seat),
    FOREIGN KEY (table_id, match_no) REFERENCES matches (table_id, match_no)
) WITHOUT ROWID;
CREATE INDEX match_players_by_user ON match_players (guild_id, user_id, finished_at DESC);

-- The display names of every seat at the end of the match (bot players included).
ALTER TABLE matches ADD COLUMN seat_names TEXT;
