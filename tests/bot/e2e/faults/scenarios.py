"""The faults injected into the bot under test (the real bot, its store, the local Discord),
each a function of the harness and the fault's duration returning its row. The tests run
them for a few seconds; `python -m tests.bot.e2e.faults` for a minute each."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable

from tests.bot.e2e.faults.run import FaultRow, FaultRun
from tests.bot.e2e.harness import BotUnderTest

FULL_WAIT = 60.0  # seconds: a bound on filling the file's last pages, never a synchronisation


async def sqlite_full(harness: BotUnderTest, seconds: float) -> FaultRow:
    """The SQLite file cannot grow (`max_page_count`, as a full disk): once its last page is
    used every move is refused in one sentence; given room again, play goes on."""
    row = FaultRow("SQLite: database full")
    run = FaultRun(harness, row)
    async with harness.running() as bot:
        await run.seat()
        connection = bot.store._db.conn
        pages = await (await connection.execute("PRAGMA page_count")).fetchone()
        assert pages is not None
        await connection.execute(f"PRAGMA max_page_count = {int(pages[0])}")
        async with run.fault(row.fault):
            # the file fills its last free pages: the fault holds from the first refusal
            deadline = time.monotonic() + FULL_WAIT
            while row.refused == 0 and time.monotonic() < deadline:
                row.clicks = row.answered = 0
                await run.click()
            row.clicks = row.answered = row.refused = 0
            await run.click_for(seconds)
            await connection.execute("PRAGMA max_page_count = 1073741823")
        await run.recover()
        await harness.settle()
        run.count_leaks()
    await run.count_lost()
    return row


async def sqlite_read_only(harness: BotUnderTest, seconds: float) -> FaultRow:
    """The SQLite file turns read-only (a disk remounted read-only; `query_only` on the
    bot's connection): every move is refused in one sentence; writable again, play goes on."""
    row = FaultRow("SQLite: file read-only")
    run = FaultRun(harness, row)
    async with harness.running() as bot:
        await run.seat()
        connection = bot.store._db.conn
        async with run.fault(row.fault):
            await connection.execute("PRAGMA query_only = 1")
            await run.click_for(seconds)
            await connection.execute("PRAGMA query_only = 0")
        await run.recover()
        await harness.settle()
        run.count_leaks()
    await run.count_lost()
    return row


SCENARIOS: dict[str, Callable[[BotUnderTest, float], Awaitable[FaultRow]]] = {
    "sqlite_full": sqlite_full,
    "sqlite_read_only": sqlite_read_only,
}
