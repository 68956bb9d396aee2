"""PostgreSQL's own ways to fail give one clear StoreError: an unreachable server, another
program's database (left untouched), and no password ever shown."""

from __future__ import annotations

import asyncio

import pytest

from storage import Store, StoreError
from storage.partition import Partition
from storage.postgres import redacted
from tests.postgres_server import PostgresServer, free_port
from tests.storage.conftest import raw_sql, resolve_toy, table_names


async def test_an_unreachable_server_is_a_clear_error_without_the_password() -> None:
    url = f"postgresql://bot:hunter2@127.0.0.1:{free_port()}/cards"
    with pytest.raises(StoreError, match="cannot connect to PostgreSQL") as caught:
        await Store.open(url, games_resolver=resolve_toy)
    assert "hunter2" not in str(caught.value) and "bot:***@127.0.0.1" in str(caught.value)


def test_urls_are_shown_without_their_password() -> None:
    assert redacted("postgresql://bot:s3cret@db:5432/x") == "postgresql://bot:***@db:5432/x"
    assert redacted("postgresql://bot@db/x") == "postgresql://bot@db/x"


async def test_a_url_that_cannot_be_read_is_a_clear_error_without_the_password() -> None:
    for broken in ("postgresql://bot:hunter2@[::1", "postgresql://bot:hunter2@db:99999/x"):
        assert "hunter2" not in redacted(broken)
        with pytest.raises(StoreError, match="cannot connect to PostgreSQL") as caught:
            await Store.open(broken, games_resolver=resolve_toy)
        assert "hunter2" not in str(caught.value)


async def test_another_programs_database_is_refused_untouched(
    postgres_server: PostgresServer,
) -> None:
    url = await postgres_server.create_database()
    await raw_sql(url, "CREATE TABLE invoices (id INTEGER PRIMARY KEY, amount REAL)")
    await raw_sql(url, "INSERT INTO invoices VALUES (1, 12.5)")
    with pytest.raises(StoreError, match=r"another program \(tables: invoices\).*DATABASE_URL"):
        await Store.open(url, games_resolver=resolve_toy)
    assert await table_names(url) == {"invoices"}
    assert await raw_sql(url, "SELECT amount FROM invoices") == [(12.5,)]


async def test_processes_starting_at_once_migrate_once(postgres_server: PostgresServer) -> None:
    url = await postgres_server.create_database()
    stores = await asyncio.gather(
        *(
            Store.open(url, games_resolver=resolve_toy, partition=Partition(3, (shard,)))
            for shard in range(3)
        )
    )
    try:
        versions = await raw_sql(url, "SELECT version FROM schema_version ORDER BY version")
        assert [v for (v,) in versions] == list(range(1, stores[0].schema_version + 1))
    finally:
        for store in stores:
            await store.close()
