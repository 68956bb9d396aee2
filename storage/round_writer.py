"""Group commit for round starts and ends.

A round starts and ends at every deal, and tables dealt together end together: at a thousand
tables of bots their transactions, one each, queued for the store's lock in waves, and every
click's action waited behind them (docs/performance.md). So the starts and ends that arrive
while one batch commits go together in the next: one transaction, each caller told once it has
committed. On SQLite it is sent at once when the lock is free (`Database.one_trip_now`),
else it takes the lock (`Database.one_trip`). A batch's tables' logs (`TableLog`) are kept by
one more statement in its transaction (storage/table_logs.py).

Each start or end keeps its own checks, run before it writes anything, so a refused one fails
alone and the batch goes on without it. Any other failure rolls the whole batch back; its
starts and ends are then tried again one per transaction (unless the database could not be
reached), so a row that breaks one of them cannot fail the others.
"""

from __future__ import annotations

import asyncio
import contextvars
from collections.abc import Awaitable, Callable
from typing import Any

from games.contract import RoundRecord, RoundResult
from storage import table_logs
from storage.action_log import OpenRounds, RoundKey
from storage.codec import dumps
from storage.compaction import encode_log
from storage.errors import StoreError, StoreUnavailable, as_store_error
from storage.models import TableLog
from storage.sql import Connection, Database

MAX_BATCH = 256  # starts and ends per transaction: a bounded wait for the callers of a wave

# Every statement is a trip through SQLite's thread (and the interpreter's lock, taken back
# from a busy event loop at each): a start reads what it checks in one, an end in one too.
START_CHECKS = (
    "SELECT (SELECT 1 FROM tables WHERE id = ?), "
    "(SELECT MIN(round_no) FROM rounds WHERE table_id = ? AND finished_at IS NULL), "
    "(SELECT MAX(match_no) FROM matches WHERE table_id = ? AND finished_at IS NULL), "
    "(SELECT COALESCE(MAX(round_no) + 1, 0) FROM rounds WHERE table_id = ?)"
)
# the open round and its actions in order (one row with no action for a round with none)
END_READ = (
    "SELECT r.id, r.started_at, a.seq, a.seat, a.notation, a.at FROM rounds AS r "
    "LEFT JOIN actions AS a ON a.round_id = r.id "
    "WHERE r.table_id = ? AND r.round_no = ? AND r.finished_at IS NULL AND r.log IS NULL "
    "ORDER BY a.seq"
)


class RoundStart:
    """A new round's row (returns its round number at the table and its id)."""

    __slots__ = ("log", "record", "table_id")

    def __init__(self, table_id: int, record: RoundRecord, log: TableLog | None) -> None:
        self.table_id = table_id
        self.record = record
        self.log = log  # taken in the new round, before its first action

    def kept_log(self, written: Any) -> tuple[int, TableLog, int | None] | None:
        """The table's log to keep once this start is written (its round now numbered)."""
        return None if self.log is None else (self.table_id, self.log, int(written[0]))

    async def write(self, conn: Connection, db: Database, rounds: OpenRounds) -> Any:
        table_id, record = self.table_id, self.record
        found = await conn.fetchone(START_CHECKS, (table_id,) * 4)
        assert found is not None
        known, open_round, match_no, round_no = found
        if known is None:
            raise StoreError(f"there is no table {table_id}.")
        if open_round is not None:
            raise StoreError(
                f"round {open_round} of table {table_id} is not finished; "
                "finish it before starting another."
            )
        inserted = await conn.fetchone(
            "INSERT INTO rounds (table_id, round_no, match_no, match_round, game, "
            "rules_version, options, n_seats, dealer, totals_before, deck, started_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
            (
                table_id,
                round_no,
                match_no,
                record.round_no,
                record.game,
                record.rules_version,
                dumps(record.options),
                record.n_seats,
                record.dealer,
                dumps(list(record.totals)),
                " ".join(record.deck),
                db.stamp(),
            ),
        )
        assert inserted is not None
        return int(round_no), inserted[0]

    def committed(self, rounds: OpenRounds, written: Any) -> int:
        round_no, round_id = written
        rounds.opened((self.table_id, round_no), round_id, self.record.n_seats)
        return int(round_no)


class RoundEnd:
    """A round's result and the match totals after it; its log is compacted."""

    __slots__ = ("key", "log", "result", "totals_after")

    def __init__(
        self,
        key: RoundKey,
        result: RoundResult,
        totals_after: list[int],
        log: TableLog | None,
    ) -> None:
        self.key = key
        self.result = result
        self.totals_after = totals_after
        self.log = log

    def kept_log(self, written: Any) -> tuple[int, TableLog, int | None] | None:
        return None if self.log is None else (self.key[0], self.log, self.key[1])

    async def write(self, conn: Connection, db: Database, rounds: OpenRounds) -> Any:
        table_id, round_no = self.key
        rows = await conn.fetchall(END_READ, self.key)
        if not rows:
            raise StoreError(f"round {round_no} of table {table_id} is unknown or finished.")
        round_id, started_at = rows[0][0], rows[0][1]
        actions = [tuple(row[2:]) for row in rows if row[2] is not None]
        changed = await conn.execute(
            "UPDATE rounds SET finished_at = ?, points = ?, detail = ?, totals_after = ?, "
            "log = ? WHERE id = ?",
            (
                db.stamp(),
                dumps(list(self.result.points)),
                dumps(dict(self.result.detail)),
                dumps(list(self.totals_after)),
                encode_log(started_at, actions),
                round_id,
            ),
        )
        assert changed == 1
        if actions:  # its log is now the compressed record (`storage.compaction`)
            await conn.execute("DELETE FROM actions WHERE round_id = ?", (round_id,))
        # under the lock: no action slips in after this (and if the batch is rolled back, a
        # round closed here is only forgotten: the file decides again on its next action)
        rounds.close(self.key)
        return None

    def committed(self, rounds: OpenRounds, written: Any) -> None:
        return None


RoundWrite = RoundStart | RoundEnd
Queued = tuple[RoundWrite, "asyncio.Future[Any]"]
Outcomes = list[tuple[bool, Any]]  # per write: (written, its value) or (False, its refusal)


class RoundWriter:
    """Group commit of round starts and ends (see the module's doc)."""

    def __init__(self, db: Database, rounds: OpenRounds) -> None:
        self._db = db
        self._rounds = rounds
        self._pending: list[Queued] = []
        self._closing = False
        self._task: asyncio.Task[None] | None = None  # writing batches, one at a time
        # the store's own context (foreground work), for the task that takes the lock (see
        # `ActionWriter`): a bot's round end may start it, and every click waits for the lock
        self._context = contextvars.copy_context()
        self.batches = 0  # transactions committed (for tests and benchmarks)

    def start(self) -> None:
        self._context = contextvars.copy_context()

    async def start_round(
        self, table_id: int, record: RoundRecord, log: TableLog | None = None
    ) -> int:
        if record.actions:
            raise StoreError(
                "start_round takes a round with no action yet; record them one by one."
            )
        return int(await self._submit(RoundStart(table_id, record, log)))

    async def finish_round(
        self,
        table_id: int,
        round_no: int,
        result: RoundResult,
        totals_after: list[int],
        log: TableLog | None = None,
    ) -> None:
        await self._submit(RoundEnd((table_id, round_no), result, totals_after, log))

    def _submit(self, write: RoundWrite) -> asyncio.Future[Any]:
        if self._closing:
            raise StoreError("the store is closed; the round was not stored.")
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Any] = loop.create_future()
        self._pending.append((write, future))
        if self._task is None:
            self._task = loop.create_task(self._run(), context=self._context.copy())
        return future

    async def close(self) -> None:
        """Write what is queued, then stop."""
        self._closing = True
        if self._task is not None:
            await asyncio.shield(self._task)

    async def _run(self) -> None:
        try:
            while self._pending:
                # a caller cancelled before its batch was taken wrote nothing: drop it
                pending = [queued for queued in self._pending if not queued[1].done()]
                batch, self._pending = pending[:MAX_BATCH], pending[MAX_BATCH:]
                if batch:
                    await self._write(batch)
        finally:
            self._task = None

    async def _one_trip(self, body: Callable[[Connection], Awaitable[Outcomes]]) -> Outcomes:
        """The batch's transaction: sent at once when the lock is free (`one_trip_now`: on
        SQLite it holds no lock while it waits for its trip), else under the lock."""
        db = self._db
        sent: asyncio.Future[Outcomes] = asyncio.get_running_loop().create_future()

        def done(outcomes: Outcomes | None, error: BaseException | None) -> None:
            if sent.done():  # the writer was cancelled (the loop closing): nobody waits
                return
            if error is not None:
                sent.set_exception(error)
            else:
                assert outcomes is not None
                sent.set_result(outcomes)

        if db.one_trip_now(body, done):
            return await sent
        return await db.one_trip(body)

    async def _write(self, batch: list[Queued]) -> None:
        db, rounds = self._db, self._rounds

        async def body(conn: Connection) -> Outcomes:
            outcomes: Outcomes = []
            logs = []
            for write, _ in batch:
                try:
                    written = await write.write(conn, db, rounds)
                except StoreError as refused:  # checked before it wrote anything
                    outcomes.append((False, refused))
                    continue
                outcomes.append((True, written))
                kept = write.kept_log(written)
                if kept is not None:
                    logs.append(kept)
            if logs:  # one statement for the batch's logs
                await conn.executemany(table_logs.UPSERT, table_logs.rows_for(logs))
            return outcomes

        try:
            outcomes = await self._one_trip(body)
        except Exception as error:
            if len(batch) == 1 or isinstance(error, StoreUnavailable):
                failure = as_store_error(error)
                for _, future in batch:
                    if not future.done():
                        future.set_exception(failure)
                return
            for queued in batch:  # one per transaction: a bad one fails alone
                await self._write([queued])
            return
        self.batches += 1
        for (write, future), (written, value) in zip(batch, outcomes, strict=True):
            if not written:
                if not future.done():
                    future.set_exception(value)
                continue
            result = write.committed(rounds, value)  # even if its caller has gone
            if not future.done():
                future.set_result(result)
