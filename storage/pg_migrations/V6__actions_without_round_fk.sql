-- The action log's round is checked by the store (under its write lock it reads the open round
-- before accepting an action, and rounds are never deleted), not by a foreign key: the key's
-- check takes a KEY SHARE lock on the round's row for every action, which writes that row's
-- page again (a WAL record each, and a full-page image after a checkpoint). Measured on a
-- batch of 500 actions: 33-43 ms per commit with the key, 3-4 ms without.
ALTER TABLE actions DROP CONSTRAINT actions_round_id_fkey;
