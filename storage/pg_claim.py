"""Which bot process serves which shards, on PostgreSQL.

The claims are advisory locks held by the writer's session (the server frees them when the
process dies, even killed)."""

from __future__ import annotations

import zlib

import asyncpg

from storage.errors import StoreError
from storage.partition import Partition

CLAIM_WAIT_S = 5.0  # how long a shard's previous holder may take to be gone


def _lock_class(schema: str, what: str) -> int:
    """An advisory lock's first key, per schema (several stores may share one database)."""
    return zlib.crc32(f"cardtable/{schema}/{what}".encode()) - (1 << 31)  # a signed int4


async def claim(conn: asyncpg.Connection, partition: Partition, name: str) -> None:
    """Hold, for as long as the connection lives, one advisory lock per shard this process
    owns (a second process given the same shard is refused), and a shared lock on the shard
    count (processes cutting the guilds differently would own the same tables twice). The
    server frees them when the process dies, even killed."""
    schema = await conn.fetchval("SELECT current_schema()")
    counts, shards = _lock_class(schema, "shard-count"), _lock_class(schema, "shard")
    await conn.execute("SELECT pg_advisory_lock_shared($1, $2)", counts, partition.count)
    others = await conn.fetch(
        "SELECT DISTINCT objid::bigint FROM pg_locks WHERE locktype = 'advisory' AND granted "
        "AND database = (SELECT oid FROM pg_database WHERE datname = current_database()) "
        "AND objsubid = 2 AND classid = $1::bigint::oid AND objid <> $2::bigint::oid",
        counts % (1 << 32),
        partition.count,
    )
    if others:
        raise StoreError(
            f"other bot processes on {name} run with SHARD_COUNT={others[0][0]}, this one with "
            f"{partition.count}: every process must use the same SHARD_COUNT."
        )
    # A process restarted right after being killed may find its old session not yet gone:
    # wait for the lock a little before calling the shard taken.
    await conn.execute(f"SET lock_timeout = {int(CLAIM_WAIT_S * 1000)}")
    try:
        for shard in partition.ids:
            try:
                await conn.execute("SELECT pg_advisory_lock($1, $2)", shards, shard)
            except asyncpg.LockNotAvailableError:
                raise StoreError(
                    f"shard {shard} of {partition.count} is already served by another running "
                    f"bot process on {name}: give each process its own SHARD_IDS."
                ) from None
    finally:
        await conn.execute("RESET lock_timeout")
