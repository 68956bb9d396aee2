-- A review of one seat's play in a finished hand (games/review.py), computed once when a player
-- asks and shown again at once: the review as JSON, per table, round and seat.

CREATE TABLE hand_reviews (
    table_id INTEGER NOT NULL REFERENCES tables (id),
    round_no INTEGER NOT NULL,
    seat     INTEGER NOT NULL,
    review   TEXT NOT NULL,
    PRIMARY KEY (table_id, round_no, seat)
);
