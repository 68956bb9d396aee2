"""The faults of a PostgreSQL store, injected into the bot under test: the server killed while
a click is being stored and started again, its connections cut by a proxy mid-stream, and a
slow server (each query held 500 ms by the proxy). Each fault gets a server of its own."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from urllib.parse import urlsplit, urlunsplit

from storage.pg_server import find_binaries
from tests.bot.e2e.faults.proxy import TcpProxy
from tests.bot.e2e.faults.run import FaultRow, FaultRun
from tests.bot.e2e.harness import BotUnderTest
from tests.postgres_server import PostgresServer

SLOW_QUERY = 0.5  # seconds each query is held by the slow server


class KillablePostgres(PostgresServer):
    """The tests' throwaway server, which can also die as a crash does."""

    def kill(self) -> None:
        """Every server process aborted at once, without a clean shutdown (a crash: the next
        start recovers from the WAL)."""
        self._run("pg_ctl", "stop", "-D", str(self.data), "-m", "immediate", "-w")


def available() -> bool:
    return find_binaries() is not None


@contextlib.asynccontextmanager
async def own_server() -> AsyncIterator[tuple[KillablePostgres, str]]:
    """A PostgreSQL server for this fault alone, and an empty database's URL on it."""
    binaries = find_binaries()
    assert binaries is not None, "no PostgreSQL binaries"
    server = KillablePostgres(binaries)
    await asyncio.to_thread(server.start)
    try:
        yield server, await server.create_database()
    finally:
        await asyncio.to_thread(server.stop)


def through(url: str, port: int) -> str:
    """The same database's URL, reached on `port` of 127.0.0.1 (the proxy)."""
    parts = urlsplit(url)
    netloc = parts.netloc.rsplit("@", 1)
    host = f"127.0.0.1:{port}"
    return urlunsplit(parts._replace(netloc=f"{netloc[0]}@{host}" if len(netloc) == 2 else host))


async def postgres_killed(harness: BotUnderTest, seconds: float) -> FaultRow:
    """The server dies (every process aborted) while a click is being stored, stays down for
    `seconds`, and is started again: the clicks meanwhile are refused in one sentence."""
    row = FaultRow("PostgreSQL: server killed mid-transaction, restarted")
    run = FaultRun(harness, row)
    async with own_server() as (server, url):
        harness.database_url = url
        async with harness.running():
            await run.seat()
            async with run.fault(row.fault):
                in_flight = asyncio.create_task(run.click())
                await asyncio.to_thread(server.kill)
                await in_flight
                await run.click_for(seconds)
                await asyncio.to_thread(server.resume)
            await run.recover()
            await run.handled()
            run.count_leaks()
        await run.count_lost()
    return row


async def postgres_connections_cut(harness: BotUnderTest, seconds: float) -> FaultRow:
    """A proxy between the bot and the server cuts every connection, mid-stream, once a
    second for `seconds` (a flapping network link)."""
    row = FaultRow("PostgreSQL: connections cut by a proxy")
    run = FaultRun(harness, row)
    async with own_server() as (server, url):
        proxy = TcpProxy(server.port)
        await proxy.start()
        harness.database_url = through(url, proxy.port)
        try:
            async with harness.running():
                await run.seat()
                async with run.fault(row.fault):
                    cutter = asyncio.create_task(_cut_every_second(proxy, seconds))
                    await run.click_for(seconds)
                    await cutter
                await run.recover()
                await run.handled()
                run.count_leaks()
            await run.count_lost()
            row.notes.append(f"{proxy.cuts} cuts")
        finally:
            await proxy.close()
    return row


async def _cut_every_second(proxy: TcpProxy, seconds: float) -> None:
    for _ in range(max(1, int(seconds))):
        proxy.cut()
        await asyncio.sleep(1.0)  # the fault's own rhythm


async def postgres_slow(harness: BotUnderTest, seconds: float) -> FaultRow:
    """Every query the bot sends reaches the server 500 ms late, for `seconds`."""
    row = FaultRow("PostgreSQL: every query +500 ms")
    run = FaultRun(harness, row)
    async with own_server() as (server, url):
        proxy = TcpProxy(server.port)
        await proxy.start()
        harness.database_url = through(url, proxy.port)
        try:
            async with harness.running():
                await run.seat()
                async with run.fault(row.fault):
                    proxy.delay = SLOW_QUERY
                    await run.click_for(seconds)
                    proxy.delay = 0.0
                await run.recover()
                await run.handled()
                run.count_leaks()
            await run.count_lost()
        finally:
            await proxy.close()
    return row


POSTGRES_SCENARIOS = {
    "postgres_killed": postgres_killed,
    "postgres_connections_cut": postgres_connections_cut,
    "postgres_slow": postgres_slow,
}
