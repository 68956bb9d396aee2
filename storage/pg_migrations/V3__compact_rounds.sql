-- A round that takes no more actions keeps its log as one compressed record (`log`, see
-- storage/compaction.py): storage/migrations/V3__compact_rounds.sql in PostgreSQL's dialect.
ALTER TABLE rounds ADD COLUMN log BYTEA;
CREATE INDEX rounds_to_compact ON rounds (id) WHERE log IS NULL;
