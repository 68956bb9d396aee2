-- Two more of a player's own choices: forced moves played for them, the Dame knock announced
-- for them (storage/migrations/V13__play_preferences.sql in PostgreSQL's dialect).

ALTER TABLE player_preferences ADD COLUMN auto_play INTEGER NOT NULL DEFAULT 1;
ALTER TABLE player_preferences ADD COLUMN auto_knock INTEGER NOT NULL DEFAULT 0;
