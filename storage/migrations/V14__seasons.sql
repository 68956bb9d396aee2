-- Seasons: a server may run its leaderboards in seasons ('monthly' or 'quarterly'; NULL or
-- 'off': none), its final boards announced in a channel it picks (NULL: not announced).
-- A season is named by its period in UTC ('2026-12', '2026-Q4'); `seasons` holds each one a
-- guild played in, closed once (closed_at set by the one call that closes it, which alone
-- announces it); `season_stats` holds its board: ratings started fresh for the season,
-- never written once the season is closed, so a past season's final board is what is kept.

ALTER TABLE guild_settings ADD COLUMN season TEXT;
ALTER TABLE guild_settings ADD COLUMN season_channel INTEGER;

CREATE TABLE seasons (
    guild_id  INTEGER NOT NULL,
    season    TEXT NOT NULL,
    starts_at TEXT NOT NULL,
    ends_at   TEXT NOT NULL,
    closed_at TEXT,
    PRIMARY KEY (guild_id, season)
) WITHOUT ROWID;
CREATE INDEX seasons_open ON seasons (closed_at, guild_id);

CREATE TABLE season_stats (
    guild_id     INTEGER NOT NULL,
    season       TEXT NOT NULL,
    game         TEXT NOT NULL,
    user_id      INTEGER NOT NULL,
    display_name TEXT NOT NULL,
    matches      INTEGER NOT NULL DEFAULT 0,
    wins         INTEGER NOT NULL DEFAULT 0,
    rounds       INTEGER NOT NULL DEFAULT 0,
    points       INTEGER NOT NULL DEFAULT 0,
    mu           REAL NOT NULL,
    sigma        REAL NOT NULL,
    rating       REAL NOT NULL,
    updated_at   TEXT NOT NULL,
    PRIMARY KEY (guild_id, season, game, user_id)
) WITHOUT ROWID;
CREATE INDEX season_stats_by_user ON season_stats (user_id);
