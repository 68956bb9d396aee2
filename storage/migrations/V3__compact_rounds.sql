-- A round that takes no more actions (finished, or left unfinished by a stopped or abandoned
-- table) keeps its log as one compressed record (`log`, see storage/compaction.py) instead of
-- one `actions` row per action: `actions` then holds the open rounds' actions only. Rounds
-- stored before this version are compacted in the background (`rounds_to_compact`).
ALTER TABLE rounds ADD COLUMN log BLOB;
CREATE INDEX rounds_to_compact ON rounds (id) WHERE log IS NULL;
