"""The store's health probe: one real write, refused when the store cannot write."""

from __future__ import annotations

import pytest

from storage import Store, StoreError
from tests.storage.conftest import Location, raw_sql


async def test_a_writable_store_takes_the_health_write(store: Store, location: Location) -> None:
    await store.check_writable()
    await store.check_writable()
    assert len(await raw_sql(location, "SELECT checked_at FROM health")) == 1


async def test_a_read_only_store_fails_the_health_write(store: Store, location: Location) -> None:
    await store.check_writable()
    if isinstance(location, str):  # PostgreSQL: the writer's session is made read-only
        await store._db.session.conn.execute(  # type: ignore[attr-defined]
            "SET default_transaction_read_only = on"
        )
    else:
        await store._db.conn.execute("PRAGMA query_only = ON")  # type: ignore[attr-defined]
    try:
        with pytest.raises(StoreError):
            await store.check_writable()
    finally:
        await store.close()
