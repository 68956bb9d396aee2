"""Turn mentions: the message that mentioned the player whose turn it is.

There is one per table at most, kept while that turn lasts so that a restarted bot deletes it
when the turn is played and does not mention the same turn again.

Every turn that passes from one human to another forgets a mention and keeps a new one: at 1,000
clicks a second that is 2,000 writes a second. Each in a transaction of its own, they queued for
the store's lock by the thousand, and a click's own action waited behind them
(docs/performance.md). So they are group-committed (`MentionWriter`): the writes queued
meanwhile go in one transaction, as three statements at most that leave each table's mention as
the writes in their order would, and each caller returns once it has committed. On SQLite that
transaction is one trip to the connection's thread (`Database.write_batch`).
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
from collections.abc import Sequence
from typing import Any

from storage.errors import StoreError, as_store_error
from storage.models import TurnMention
from storage.partition import Partition
from storage.recovery import ACTIVE
from storage.sql import Database, Statement

SAVE = (
    "INSERT INTO turn_mentions (table_id, channel_id, message_id, seat, round_no) "
    "VALUES (?, ?, ?, ?, ?) ON CONFLICT (table_id) DO UPDATE SET "
    "channel_id = excluded.channel_id, message_id = excluded.message_id, "
    "seat = excluded.seat, round_no = excluded.round_no"
)
DELETE = "DELETE FROM turn_mentions WHERE table_id = ? AND message_id = ?"
FORGET = "DELETE FROM turn_mentions WHERE table_id = ?"

Write = tuple[str, Sequence[Any], "asyncio.Future[None]"]  # statement, parameters, caller


class MentionWriter:
    """Group commit of the turn mentions' writes (see the module's doc)."""

    def __init__(self, db: Database) -> None:
        self._db = db
        self._pending: list[Write] = []
        self._closing = False
        self._started = False
        self._sending = False  # a batch is on its way (one at a time)
        self._idle: asyncio.Future[None] | None = None  # `close` waits for the last batch
        # the task writing a batch under the lock, held here (the loop keeps only a weak one)
        self._locked: asyncio.Task[None] | None = None
        self._context = contextvars.copy_context()  # the store's (see `ActionWriter`)

    def start(self) -> None:
        self._started = True
        self._context = contextvars.copy_context()

    async def save(self, mention: TurnMention) -> None:
        """Keep this table's mention (it replaces the table's previous one)."""
        params = (
            mention.table_id,
            mention.channel_id,
            mention.message_id,
            mention.seat,
            mention.round_no,
        )
        await self._submit(SAVE, params)

    async def delete(self, table_id: int, message_id: int) -> None:
        """Forget the table's mention if it is still this message (a newer one stays)."""
        await self._submit(DELETE, (table_id, message_id))

    def _submit(self, sql: str, params: Sequence[Any]) -> asyncio.Future[None]:
        if self._closing or not self._started:
            raise StoreError("the store is closed; the turn mention was not written.")
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._pending.append((sql, params, future))
        if not self._sending:
            self._send_next()
        return future

    async def close(self) -> None:
        """Write what is queued, then stop."""
        self._closing = True
        if self._sending:
            self._idle = asyncio.get_running_loop().create_future()
            await self._idle

    def _send_next(self) -> None:
        """Send the writes pending now as one transaction: at once when no transaction holds
        the store's lock (`write_now`: on SQLite one trip to the connection's thread, queued
        without suspending, behind the action log's batches and not after their loop turns),
        else by a task that takes the lock. The next batch goes once this one has committed."""
        batch, self._pending = self._pending, []
        if not batch:
            self._sending = False
            if self._idle is not None and not self._idle.done():
                self._idle.set_result(None)
            return
        self._sending = True
        statements = _statements(batch)
        if not self._db.write_now(statements, functools.partial(self._sent, batch)):
            write = self._write_locked(batch, statements)
            self._locked = asyncio.get_running_loop().create_task(
                write, context=self._context.copy()
            )

    async def _write_locked(self, batch: list[Write], statements: list[Statement]) -> None:
        failure: BaseException | None = None
        try:
            await self._db.write_batch(statements)
        except Exception as error:
            failure = error
        self._locked = None
        self._sent(batch, failure)

    def _sent(self, batch: list[Write], error: BaseException | None) -> None:
        """Every caller of the batch hears how it went; then the next batch goes."""
        if error is None:
            for _, _, future in batch:
                if not future.done():  # a cancelled caller's write is kept all the same
                    future.set_result(None)
        else:
            failure = as_store_error(error)
            for _, _, future in batch:
                if not future.done():
                    future.set_exception(failure)
        self._send_next()


def _statements(batch: list[Write]) -> list[Statement]:
    """The batch as three statements at most, each run once over its rows: a table holds one
    mention at most, so what the batch leaves at each table follows from its writes in order
    (a save replaces the row: the table's last save is kept, unless a later delete of that very
    message forgets the table's mention; a table with no save keeps its deletes, each of its
    own message). Each round trip to the database costs a turn of the event loop, under load
    more than the statement itself."""
    saved: dict[int, Sequence[Any]] = {}  # table -> its last save (while not deleted after)
    gone: set[int] = set()  # tables whose mention the batch forgets whatever it was
    deletes: dict[int, list[Sequence[Any]]] = {}  # tables with no save: their deletes
    for sql, params, _ in batch:
        table_id = params[0]
        if sql == SAVE:
            saved[table_id] = params
            gone.discard(table_id)
            deletes.pop(table_id, None)
        elif table_id in saved:
            if saved[table_id][2] == params[1]:  # the message just saved: forgotten at once
                del saved[table_id]
                gone.add(table_id)
        elif table_id not in gone:
            deletes.setdefault(table_id, []).append(params)
    statements: list[Statement] = []
    conditional = [params for rows in deletes.values() for params in rows]
    if conditional:
        statements.append((DELETE, conditional))
    if gone:
        statements.append((FORGET, [(table_id,) for table_id in sorted(gone)]))
    if saved:
        statements.append((SAVE, list(saved.values())))
    return statements


async def turn_mentions(db: Database, partition: Partition | None = None) -> list[TurnMention]:
    """The mentions kept for the lobby and running tables of the partition's guilds."""
    rows = await db.fetchall(
        "SELECT m.table_id, m.channel_id, m.message_id, m.seat, m.round_no "
        "FROM turn_mentions AS m JOIN tables AS t ON t.id = m.table_id "
        f"WHERE t.{ACTIVE} AND {(partition or Partition()).condition('t.guild_id')} "
        "ORDER BY m.table_id"
    )
    return [
        TurnMention(table_id=r[0], channel_id=r[1], message_id=r[2], seat=r[3], round_no=r[4])
        for r in rows
    ]
