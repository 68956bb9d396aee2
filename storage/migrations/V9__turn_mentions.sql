-- The mention of the player whose turn it is, posted by the bot in the table's channel, kept
-- until that turn is played so that a restarted bot still deletes it (and does not post it
-- again). At most one per table.

CREATE TABLE turn_mentions (
    table_id   INTEGER PRIMARY KEY REFERENCES tables (id),
    channel_id INTEGER NOT NULL,
    message_id INTEGER NOT NULL,
    seat       INTEGER NOT NULL,
    round_no   INTEGER NOT NULL
);
