-- A player's own choices, kept across restarts and across servers (one row per Discord user
-- who chose something): the deck their private messages draw cards in, 'two' (red ♥ ♦,
-- black ♠ ♣) or 'four' (♦ blue, ♣ green). No row: every default.

CREATE TABLE player_preferences (
    user_id    INTEGER PRIMARY KEY,
    deck       TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
