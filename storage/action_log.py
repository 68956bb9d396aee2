"""Group commit for the action log.

Every `record_action` call puts its row in a queue and waits. One writer task takes every row
that arrived meanwhile and stores them in one transaction, then resolves each caller's future
after COMMIT: an action is durable before its caller goes on, and a burst of clicks from many
tables costs one fsync, not one per click. On PostgreSQL the batches are pipelined
(`PipelinedDatabase`): the next batch is checked and sent on another connection while one
commits; each caller still hears only once its own batch has committed, and a round's rows
commit in order.

The log's rules (an open round, a seat of the table, seq growing within the round) are checked
here, in memory, against `OpenRounds`: the store is the file's only writer, so its view of the
open rounds is exact, and a refused row fails alone without costing the batch anything.
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
from collections.abc import Iterable
from typing import cast

from storage.errors import StoreError, as_store_error
from storage.sql import ActionRow, Database, PipelinedDatabase

MAX_NOTATION = 100  # characters; the longest real notation ("nine drawn 1:3") has 14
MAX_BATCH = 5000  # rows per transaction: a bounded wait for the callers of a huge burst
NOW_IN_FLIGHT = 2  # SQLite: batches sent at once that may wait in the thread's queue together
# Pipelined: a batch of at least twice this many rows is shared among the free lanes (their
# INSERTs run side by side on the server; the first to commit frees its callers first).
SPLIT_ROWS = 64
# The open rounds of some tables (a table has one at most), read in one query per chunk of
# LOOKUP_CHUNK tables: the first batch after a start meets hundreds of rounds not yet in memory.
OPEN_ROUNDS = (
    "SELECT table_id, round_no, id, n_seats, "
    "(SELECT MAX(seq) FROM actions WHERE round_id = rounds.id) FROM rounds "
    "WHERE table_id IN ({marks}) AND finished_at IS NULL AND log IS NULL"
)
LOOKUP_CHUNK = 512

RoundKey = tuple[int, int]  # (table id, round number)
# (table id, round number, seq, seat, notation, the caller's future): a plain tuple, built once
# per call with no Python-level constructor, unpacked once by the writer.
Pending = tuple[int, int, int, int, str, "asyncio.Future[None]"]


class OpenRound:
    """An open round as the writer sees it; `last_seq` moves forward in place as rows are
    accepted (and the round is forgotten, to be re-read from the file, if their commit fails)."""

    __slots__ = ("last_seq", "n_seats", "round_id", "round_no")

    def __init__(self, round_id: int, n_seats: int, last_seq: int, round_no: int) -> None:
        self.round_id = round_id  # rounds.id
        self.n_seats = n_seats
        self.last_seq = last_seq  # -1 before the first action
        self.round_no = round_no  # the table's round number


class OpenRounds:
    """The open rounds the writer has seen, read from the file on first use, one per table (a
    table has at most one open round). Bounded by the tables in play: `close` must be called
    (under the store's lock) when a round is finished, and `drop_table` when a table stops
    playing (stopped, abandoned, broken) with its round unfinished."""

    def __init__(self) -> None:
        self._rounds: dict[int, OpenRound] = {}  # table id -> its open round

    def __len__(self) -> int:
        return len(self._rounds)

    def get(self, key: RoundKey) -> OpenRound | None:
        found = self._rounds.get(key[0])
        return found if found is not None and found.round_no == key[1] else None

    async def load(self, db: Database, keys: set[RoundKey]) -> None:
        """Read from the database those of these rounds that are open and not in memory yet;
        with the store's lock held. (A key still missing after this is unknown or finished.)"""
        wanted: dict[int, set[int]] = {}  # table id -> round numbers asked for
        for table_id, round_no in keys:
            if self.get((table_id, round_no)) is None:
                wanted.setdefault(table_id, set()).add(round_no)
        tables = list(wanted)
        for start in range(0, len(tables), LOOKUP_CHUNK):
            chunk = tables[start : start + LOOKUP_CHUNK]
            # padded to a power of two with repeats: a few statement texts, each prepared once
            width = 1 << (len(chunk) - 1).bit_length()
            chunk += chunk[-1:] * (width - len(chunk))
            sql = OPEN_ROUNDS.format(marks=", ".join("?" * width))
            found = await db.fetch_for_writer(sql, chunk)
            for table_id, round_no, round_id, n_seats, last in found:
                if round_no in wanted[table_id]:
                    self._rounds[table_id] = OpenRound(round_id, n_seats, _or(last, -1), round_no)

    def opened(self, key: RoundKey, round_id: int, n_seats: int) -> None:
        self._rounds[key[0]] = OpenRound(round_id, n_seats, -1, key[1])

    def close(self, key: RoundKey) -> None:
        if self.get(key) is not None:
            del self._rounds[key[0]]

    def forget(self, keys: set[RoundKey]) -> None:
        for key in keys:
            self.close(key)

    def drop_table(self, table_id: int) -> None:
        self._rounds.pop(table_id, None)


def _split(batch: list[Pending], parts: int) -> list[list[Pending]]:
    """The batch in `parts` parts of about equal size, each round's rows in one part (in
    order)."""
    if parts == 1:
        return [batch]
    part_of: dict[RoundKey, int] = {}
    out: list[list[Pending]] = [[] for _ in range(parts)]
    for row in batch:
        key = (row[0], row[1])
        index = part_of.get(key)
        if index is None:
            index = part_of[key] = len(part_of) % parts
        out[index].append(row)
    return out


def _next_batch(
    pending: list[Pending], flying: Iterable[set[RoundKey]]
) -> tuple[list[Pending], list[Pending]]:
    """The rows to send next (MAX_BATCH at most), and those that wait: a row whose round has
    a batch on its way (in `flying`) waits for it, and so do the round's later rows, in order."""
    held: set[RoundKey] = set().union(*flying)
    batch: list[Pending] = []
    waiting: list[Pending] = []
    for row in pending:
        key = (row[0], row[1])
        if key in held or len(batch) >= MAX_BATCH:
            waiting.append(row)
            held.add(key)  # the round's later rows wait too, in order
        else:
            batch.append(row)
    return batch, waiting


def _or(value: int | None, default: int) -> int:
    return default if value is None else value


def refusal(table_id: int, round_no: int, seq: int, reason: str) -> StoreError:
    where = f"action {seq} of table {table_id}, round {round_no}"
    return StoreError(f"{where} was not stored: {reason}.")


def _fail(future: asyncio.Future[None], error: BaseException) -> None:
    if not future.done():  # a cancelled caller has gone; its outcome interests no one
        future.set_exception(error)


class ActionWriter:
    def __init__(self, db: Database, rounds: OpenRounds) -> None:
        self._db = db
        self._rounds = rounds
        self._pending: list[Pending] = []
        self._wake = asyncio.Event()  # the pipelined writer's
        self._closing = False
        self._task: asyncio.Task[None] | None = None  # the pipelined writer
        self._loop: asyncio.AbstractEventLoop | None = None
        # batches sent at once and not committed yet (SQLite): a token each -> its rounds
        self._now: dict[int, set[RoundKey]] = {}
        self._tokens = 0
        # the task sending a batch under the lock, held here (the loop keeps only a weak one)
        self._locked: asyncio.Task[None] | None = None
        self._idle: asyncio.Future[None] | None = None  # `close` waits for the last batch
        # the store's own context (foreground work), for the task that takes the lock: a bot
        # move's row may start it, and its work is every caller's, clicks' included
        self._context = contextvars.copy_context()
        self.batches = 0  # transactions committed (for the benchmark)

    def start(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._context = contextvars.copy_context()
        lanes = getattr(self._db, "pipeline", 0)
        if lanes:
            pipelined = self._run_pipelined(cast(PipelinedDatabase, self._db), lanes)
            self._task = self._loop.create_task(pipelined, name="storage-action-writer")

    def submit(
        self, table_id: int, round_no: int, seq: int, seat: int, notation: str
    ) -> asyncio.Future[None]:
        """Queue one row; the future resolves after the transaction holding it has committed
        (or fails with the row's refusal). Plain, not a coroutine: no extra frame per call."""
        if self._closing or self._loop is None:
            raise StoreError("the store is closed; the action was not stored.")
        future: asyncio.Future[None] = self._loop.create_future()
        self._pending.append((table_id, round_no, seq, seat, notation, future))
        if self._task is not None:
            self._wake.set()
        elif self._locked is None and len(self._now) < NOW_IN_FLIGHT:
            self._send_next()
        return future

    async def close(self) -> None:
        """Store what is queued, then stop the writer."""
        self._closing = True
        if self._task is not None:
            self._wake.set()
            await self._task
            self._task = None
            return
        if self._now or self._locked is not None or self._pending:
            assert self._loop is not None
            self._idle = self._loop.create_future()
            await self._idle

    # -- batches sent at once (SQLite) -----------------------------------------------------
    def _send_next(self) -> None:
        """Send the rows pending now as one batch: at once, checked here and queued on the
        database's thread without suspending (`append_now`), when every round is known and
        no transaction holds the lock; else by a task that takes the lock. Up to
        NOW_IN_FLIGHT batches sent at once may be in the thread's queue together (it runs them
        in order): a row that comes while one is on its way goes behind it at once instead of
        waiting for its commit and a turn of the event loop. A row whose round has a batch on
        its way waits for it (with the round's later rows): a round's rows commit in order,
        and none after an earlier one that failed."""
        while self._pending and self._locked is None and len(self._now) < NOW_IN_FLIGHT:
            batch, self._pending = _next_batch(self._pending, self._now.values())
            if not batch:
                break  # every row waits for its round's batch on its way
            get = self._rounds.get
            if self._db.lock.locked() or any(get((row[0], row[1])) is None for row in batch):
                self._send_under_lock(batch)
                return
            accepted, rows = self._accept(batch)
            if not accepted:
                continue  # every row refused (each caller heard why): nothing to store
            token = self._tokens = self._tokens + 1
            self._now[token] = {(row[0], row[1]) for row in batch}
            done = functools.partial(self._sent, token, batch, accepted)
            if not self._db.append_now(rows, self._db.stamp(), done):
                # refused (the store closed): the rows go the awaited way, checked again
                del self._now[token]
                self._rounds.forget({(row[0], row[1]) for row in batch})
                self._send_under_lock(batch)
                return
        idle = not self._now and self._locked is None and not self._pending
        if idle and self._idle is not None and not self._idle.done():
            self._idle.set_result(None)

    def _sent(
        self,
        token: int,
        batch: list[Pending],
        accepted: list[asyncio.Future[None]],
        error: BaseException | None,
    ) -> None:
        """A batch sent at once has committed (None) or failed: its callers hear it, and the
        next batch goes."""
        del self._now[token]
        if error is None:
            self.batches += 1
            for future in accepted:  # one loop, no task per caller
                if not future.done():  # the caller was cancelled; its row is stored all the same
                    future.set_result(None)
        else:
            # Some rounds' last seq moved for rows that are not stored: re-read them from the
            # database, the only truth, on next use.
            self._rounds.forget({(row[0], row[1]) for row in batch})
            failure = as_store_error(error)
            for future in accepted:
                _fail(future, failure)
        self._send_next()

    def _send_under_lock(self, batch: list[Pending]) -> None:
        assert self._loop is not None
        self._locked = self._loop.create_task(
            self._send_locked(batch), context=self._context.copy()
        )

    async def _send_locked(self, batch: list[Pending]) -> None:
        try:
            accepted = await self._flush(batch)
        except Exception as error:  # an I/O failure: every accepted caller hears it
            failure = as_store_error(error)
            for row in batch:
                _fail(row[5], failure)
        else:
            for future in accepted:
                if not future.done():
                    future.set_result(None)
        finally:
            self._locked = None
        self._send_next()

    async def _run_pipelined(self, db: PipelinedDatabase, lanes: int) -> None:
        free = list(range(lanes - 1, -1, -1))
        busy: dict[int, set[RoundKey]] = {}  # lane -> rounds of its batch in flight
        while True:
            await self._wake.wait()
            self._wake.clear()
            if not self._pending:
                if self._closing and not busy:
                    return
                continue
            if not free:
                continue  # a lane's end wakes this loop
            batch, self._pending = _next_batch(self._pending, busy.values())
            if not batch:
                continue
            for part in _split(batch, min(len(free), len(batch) // SPLIT_ROWS) or 1):
                lane = free.pop()
                busy[lane] = {(row[0], row[1]) for row in part}

                def done(_: object, lane: int = lane) -> None:
                    del busy[lane]
                    free.append(lane)
                    self._wake.set()

                task = asyncio.get_running_loop().create_task(self._send(db, lane, part))
                task.add_done_callback(done)
            if self._pending and free:
                self._wake.set()

    async def _send(self, db: PipelinedDatabase, lane: int, batch: list[Pending]) -> None:
        """Check the batch under the lock and commit it on `lane`; then answer its callers."""
        try:
            async with db.lock:
                try:
                    await db.settle()
                    accepted, rows = await self._check(batch)
                except BaseException:
                    self._rounds.forget({(row[0], row[1]) for row in batch})
                    raise
                sent = db.send_actions(rows, db.stamp(), lane) if accepted else None
            if sent is not None:
                try:
                    await sent
                except BaseException:
                    async with db.lock:  # rows checked after a lost one must be re-read
                        self._rounds.forget({(row[0], row[1]) for row in batch})
                    raise
                self.batches += 1
        except Exception as error:  # an I/O failure: every accepted caller hears it
            translated = db.error(error)
            failure = as_store_error(translated)
            for row in batch:
                _fail(row[5], failure)
            return
        for future in accepted:
            if not future.done():  # the caller was cancelled; its row is stored all the same
                future.set_result(None)

    async def _flush(self, batch: list[Pending]) -> list[asyncio.Future[None]]:
        """Check the batch (refused rows fail now, alone), then store the others in one
        transaction. Returns the futures of the stored rows."""
        db = self._db
        async with db.lock:
            try:
                accepted, rows = await self._check(batch)
                if accepted:
                    # one time stamp for the batch: its rows are committed together
                    await db.append_actions(rows, db.stamp())
                    self.batches += 1
            except BaseException as error:
                # Some rounds' last seq moved for rows that are not stored: re-read them from
                # the database, the only truth, on next use.
                self._rounds.forget({(row[0], row[1]) for row in batch})
                translated = db.error(error)
                if translated is error:
                    raise
                raise translated from error
            return accepted

    async def _check(
        self, batch: list[Pending]
    ) -> tuple[list[asyncio.Future[None]], list[ActionRow]]:
        """Refuse the rows that break the log's rules (their futures fail now) and advance each
        round's last seq past the others; returns their futures and rows to insert."""
        get = self._rounds.get
        unknown = {(row[0], row[1]) for row in batch if get((row[0], row[1])) is None}
        if unknown:  # the usual case has none: no await per row
            await self._rounds.load(self._db, unknown)
        return self._accept(batch)

    def _accept(self, batch: list[Pending]) -> tuple[list[asyncio.Future[None]], list[ActionRow]]:
        """`_check` for rounds all known: refused rows fail now, the others' rounds move on."""
        accepted: list[asyncio.Future[None]] = []
        rows: list[ActionRow] = []
        append = rows.append
        get = self._rounds.get
        for table_id, round_no, seq, seat, notation, future in batch:
            open_round = get((table_id, round_no))
            if open_round is None:
                reason = "that round is unknown or already finished"
            elif not 0 <= seat < open_round.n_seats:
                reason = f"seat {seat} is not at that table"
            elif seq <= open_round.last_seq:
                reason = "the round already has an action at or after it"
            elif not 0 < len(notation) <= MAX_NOTATION:
                reason = f"a notation has 1 to {MAX_NOTATION} characters"
            else:
                open_round.last_seq = seq
                append((open_round.round_id, seq, seat, notation))
                accepted.append(future)
                continue
            _fail(future, refusal(table_id, round_no, seq, reason))
        return accepted, rows
