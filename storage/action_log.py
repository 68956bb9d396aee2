"""Group commit for the action log.

Every `record_action` call puts its row in a queue and waits. One writer task takes every row
that arrived meanwhile and stores them in one transaction, then resolves each caller's future
after COMMIT: an action is durable before its caller goes on, and a burst of clicks from many
tables costs one fsync, not one per click. A row the log refuses (finished round, repeated
seq) fails alone: the batch is then retried row by row, each under its own savepoint.
"""

from __future__ import annotations

import asyncio
import sqlite3
from typing import NamedTuple

from storage.database import Database
from storage.errors import StoreError

INSERT_ACTION = (
    "INSERT INTO actions (table_id, round_no, seq, seat, notation, at) VALUES (?, ?, ?, ?, ?, ?)"
)


class ActionRow(NamedTuple):
    table_id: int
    round_no: int
    seq: int
    seat: int
    notation: str
    at: str


def refusal(row: ActionRow, error: sqlite3.Error) -> StoreError:
    """The clear sentence for a row the log refused (the trigger names the rule)."""
    where = f"action {row.seq} of table {row.table_id}, round {row.round_no}"
    reason = str(error)
    if "round_not_open" in reason:
        return StoreError(f"{where} was not stored: that round is unknown or already finished.")
    if "seq_not_increasing" in reason:
        return StoreError(
            f"{where} was not stored: the round already has an action at or after it."
        )
    if "bad_seat" in reason:
        return StoreError(f"{where} was not stored: seat {row.seat} is not at that table.")
    return StoreError(f"{where} was not stored: {reason}.")


class ActionWriter:
    def __init__(self, db: Database) -> None:
        self._db = db
        self._pending: list[tuple[ActionRow, asyncio.Future[None]]] = []
        self._wake = asyncio.Event()
        self._closing = False
        self._task: asyncio.Task[None] | None = None
        self.batches = 0  # transactions committed (for the benchmark)

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="storage-action-writer")

    async def write(self, row: ActionRow) -> None:
        """Store one row; returns after the transaction holding it has committed."""
        if self._closing or self._task is None:
            raise StoreError("the store is closed; the action was not stored.")
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._pending.append((row, future))
        self._wake.set()
        await future

    async def close(self) -> None:
        """Store what is queued, then stop the writer task."""
        self._closing = True
        self._wake.set()
        if self._task is not None:
            await self._task
            self._task = None

    async def _run(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            if not self._pending:
                if self._closing:
                    return
                continue
            batch, self._pending = self._pending, []
            self._wake.set()  # come back for rows queued during this flush, or to exit
            try:
                outcomes = await self._flush([row for row, _ in batch])
            except Exception as error:  # an I/O failure: every caller of the batch hears it
                failure = error if isinstance(error, StoreError) else StoreError(str(error))
                outcomes = [failure] * len(batch)
            for (_, future), outcome in zip(batch, outcomes, strict=True):
                if future.done():  # the caller was cancelled; its row is stored all the same
                    continue
                if outcome is None:
                    future.set_result(None)
                else:
                    future.set_exception(outcome)

    async def _flush(self, rows: list[ActionRow]) -> list[StoreError | None]:
        db = self._db
        conn = db.conn
        async with db.lock:
            try:
                await conn.execute("BEGIN IMMEDIATE")
                await conn.executemany(INSERT_ACTION, rows)
                await conn.execute("COMMIT")
                self.batches += 1
                return [None] * len(rows)
            except sqlite3.IntegrityError:
                await conn.rollback()
            except sqlite3.Error as error:
                if conn.in_transaction:
                    await conn.rollback()
                raise db.error(error) from error
            return await self._flush_one_by_one(rows)

    async def _flush_one_by_one(self, rows: list[ActionRow]) -> list[StoreError | None]:
        """Called with the lock held, after the batch was refused: keep the good rows."""
        conn = self._db.conn
        outcomes: list[StoreError | None] = []
        try:
            await conn.execute("BEGIN IMMEDIATE")
            for row in rows:
                await conn.execute("SAVEPOINT one_action")
                try:
                    await conn.execute(INSERT_ACTION, row)
                    outcomes.append(None)
                except sqlite3.IntegrityError as error:
                    await conn.execute("ROLLBACK TO one_action")
                    outcomes.append(refusal(row, error))
                await conn.execute("RELEASE one_action")
            await conn.execute("COMMIT")
            self.batches += 1
        except sqlite3.Error as error:
            if conn.in_transaction:
                await conn.rollback()
            raise self._db.error(error) from error
        return outcomes
