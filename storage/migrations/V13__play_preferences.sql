-- Two more of a player's own choices (per player, the same in every server):
-- auto_play: a move that is the only legal one (Euchre's last card) is played for them after
-- a short, visible moment (on by default); auto_knock: in Dame de Pique, the knock is
-- announced for them before their discard when their hand could go out next turn (off by
-- default). 1 on, 0 off.

ALTER TABLE player_preferences ADD COLUMN auto_play INTEGER NOT NULL DEFAULT 1;
ALTER TABLE player_preferences ADD COLUMN auto_knock INTEGER NOT NULL DEFAULT 0;
