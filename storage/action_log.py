"""Group commit for the action log.

Every `record_action` call puts its row in a queue and waits. One writer task takes every row
that arrived meanwhile and stores them in one transaction, then resolves each caller's future
after COMMIT: an action is durable before its caller goes on, and a burst of clicks from many
tables costs one fsync, not one per click.

The log's rules (an open round, a seat of the table, seq growing within the round) are checked
here, in memory, against `OpenRounds`: the store is the file's only writer, so its view of the
open rounds is exact, and a refused row fails alone without costing the batch anything.
"""

from __future__ import annotations

import asyncio
import sqlite3
from typing import NamedTuple

import aiosqlite

from storage.database import Database
from storage.errors import StoreError

INSERT_ACTIONS = "INSERT INTO actions (round_id, seq, seat, notation, at) VALUES"
MAX_NOTATION = 100  # characters; the longest real notation ("nine drawn 1:3") has 14
MAX_BATCH = 5000  # rows per INSERT: 5 parameters a row, under SQLite's 32,766 a statement
OPEN_ROUND = (
    "SELECT id, n_seats, (SELECT MAX(seq) FROM actions WHERE round_id = rounds.id) "
    "FROM rounds WHERE table_id = ? AND round_no = ? AND finished_at IS NULL"
)

RoundKey = tuple[int, int]  # (table id, round number)
StoredAction = tuple[int, int, int, str, str]  # (round id, seq, seat, notation, at)


class ActionRow(NamedTuple):
    table_id: int
    round_no: int
    seq: int
    seat: int
    notation: str
    at: str


class OpenRound(NamedTuple):
    round_id: int  # rounds.id
    n_seats: int
    last_seq: int  # -1 before the first action


class OpenRounds:
    """The open rounds the writer has seen, read from the file on first use. `close` must be
    called (under the store's lock) when a round is finished; only open rounds are kept."""

    def __init__(self) -> None:
        self._rounds: dict[RoundKey, OpenRound] = {}

    def get(self, key: RoundKey) -> OpenRound | None:
        return self._rounds.get(key)

    async def lookup(self, conn: aiosqlite.Connection, key: RoundKey) -> OpenRound | None:
        """The open round, from memory or else from the file (None: unknown or finished)."""
        if key not in self._rounds:
            async with conn.execute(OPEN_ROUND, key) as cursor:
                row = await cursor.fetchone()
            if row is None:
                return None
            self._rounds[key] = OpenRound(row[0], row[1], _or(row[2], -1))
        return self._rounds[key]

    def opened(self, key: RoundKey, round_id: int, n_seats: int) -> None:
        self._rounds[key] = OpenRound(round_id, n_seats, -1)

    def close(self, key: RoundKey) -> None:
        self._rounds.pop(key, None)

    def forget(self, keys: set[RoundKey]) -> None:
        for key in keys:
            self._rounds.pop(key, None)

    def advance(self, key: RoundKey, last_seq: int) -> None:
        current = self._rounds[key]
        assert current is not None
        self._rounds[key] = current._replace(last_seq=last_seq)


def _or(value: int | None, default: int) -> int:
    return default if value is None else value


def refusal(row: ActionRow, reason: str) -> StoreError:
    where = f"action {row.seq} of table {row.table_id}, round {row.round_no}"
    return StoreError(f"{where} was not stored: {reason}.")


class ActionWriter:
    def __init__(self, db: Database, rounds: OpenRounds) -> None:
        self._db = db
        self._rounds = rounds
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
            batch = self._pending[:MAX_BATCH]
            del self._pending[:MAX_BATCH]
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
        last_seqs: dict[RoundKey, int] = {}
        async with db.lock:
            try:
                outcomes, accepted, last_seqs = await self._check(rows)
                if accepted:
                    await self._insert(accepted)
            except sqlite3.Error as error:
                self._rounds.forget(set(last_seqs))  # re-read them: trust only the file
                raise db.error(error) from error
            for key, last_seq in last_seqs.items():
                self._rounds.advance(key, last_seq)
            return outcomes

    async def _insert(self, rows: list[StoredAction]) -> None:
        """One multi-row INSERT outside any transaction: SQLite commits it as one atomic,
        durable transaction before it returns, in a single trip to the connection's thread."""
        assert not self._db.conn.in_transaction
        values = ", ".join(["(?, ?, ?, ?, ?)"] * len(rows))
        await self._db.conn.execute(
            f"{INSERT_ACTIONS} {values}", [field for row in rows for field in row]
        )
        self.batches += 1

    async def _check(
        self, rows: list[ActionRow]
    ) -> tuple[list[StoreError | None], list[StoredAction], dict[RoundKey, int]]:
        """Split the batch into refusals and rows to insert; the new last seq of each round."""
        outcomes: list[StoreError | None] = []
        accepted: list[StoredAction] = []
        last_seqs: dict[RoundKey, int] = {}
        for row in rows:
            key = (row.table_id, row.round_no)
            open_round = self._rounds.get(key)  # the usual case: no await per row
            if open_round is None:
                open_round = await self._rounds.lookup(self._db.conn, key)
            if open_round is None:
                outcomes.append(refusal(row, "that round is unknown or already finished"))
            elif not 0 <= row.seat < open_round.n_seats:
                outcomes.append(refusal(row, f"seat {row.seat} is not at that table"))
            elif row.seq <= last_seqs.get(key, open_round.last_seq):
                outcomes.append(refusal(row, "the round already has an action at or after it"))
            elif not 0 < len(row.notation) <= MAX_NOTATION:
                outcomes.append(refusal(row, f"a notation has 1 to {MAX_NOTATION} characters"))
            else:
                outcomes.append(None)
                accepted.append((open_round.round_id, row.seq, row.seat, row.notation, row.at))
                last_seqs[key] = row.seq
        return outcomes, accepted, last_seqs
