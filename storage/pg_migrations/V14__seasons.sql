-- Seasons of a server's leaderboards: the setting and its announcement channel, each season
-- played and when it closed, and its board (storage/migrations/V14__seasons.sql in
-- PostgreSQL's dialect).

ALTER TABLE guild_settings ADD COLUMN season TEXT;
ALTER TABLE guild_settings ADD COLUMN season_channel BIGINT;

CREATE TABLE seasons (
    guild_id  BIGINT NOT NULL,
    season    TEXT NOT NULL,
    starts_at TEXT NOT NULL,
    ends_at   TEXT NOT NULL,
    closed_at TEXT,
    PRIMARY KEY (guild_id, season)
);
CREATE INDEX seasons_open ON seasons (closed_at, guild_id);

CREATE TABLE season_stats (
    guild_id     BIGINT NOT NULL,
    season       TEXT NOT NULL,
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
    PRIMARY KEY (guild_id, season, game, user_id)
);
CREATE INDEX season_stats_by_user ON season_stats (user_id);
