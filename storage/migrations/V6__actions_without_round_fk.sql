-- Nothing changes on SQLite: its foreign key check on actions.round_id is a lookup that takes
-- no lock and writes nothing. (PostgreSQL's V6 drops that key: there its check locked and
-- rewrote the round's row for every action.)
SELECT 1;
