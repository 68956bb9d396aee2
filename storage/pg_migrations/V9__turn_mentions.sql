-- The mention of the player whose turn it is, kept until that turn is played
-- (storage/migrations/V9__turn_mentions.sql in PostgreSQL's dialect).

CREATE TABLE turn_mentions (
    table_id   BIGINT PRIMARY KEY REFERENCES tables (id),
    channel_id BIGINT NOT NULL,
    message_id BIGINT NOT NULL,
    seat       INTEGER NOT NULL,
    round_no   INTEGER NOT NULL
);
