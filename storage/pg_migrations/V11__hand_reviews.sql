-- A review of one seat's play in a finished hand, computed once and shown again at once
-- (storage/migrations/V11__hand_reviews.sql in PostgreSQL's dialect).

CREATE TABLE hand_reviews (
    table_id BIGINT NOT NULL REFERENCES tables (id),
    round_no INTEGER NOT NULL,
    seat     INTEGER NOT NULL,
    review   TEXT NOT NULL,
    PRIMARY KEY (table_id, round_no, seat)
);
