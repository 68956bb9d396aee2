"""A corrupt, foreign or unusable file gives a clear StoreError and is left as it was."""

from __future__ import annotations

import contextlib
import sqlite3
from pathlib import Path

import pytest

from storage import Store, StoreError
from tests.storage.conftest import ToyTable, resolve_toy


async def test_parent_directories_are_created(tmp_path: Path) -> None:
    path = tmp_path / "a" / "b" / "c" / "store.sqlite3"
    async with await Store.open(path, games_resolver=resolve_toy) as store:
        assert store.location == str(path)
    assert path.is_file()


async def test_a_text_file_is_refused_untouched(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("my shopping list\n" * 100)
    with pytest.raises(StoreError, match="is not an SQLite database"):
        await Store.open(path, games_resolver=resolve_toy)
    assert path.read_text() == "my shopping list\n" * 100


async def test_a_header_with_garbage_is_reported_corrupt(tmp_path: Path) -> None:
    path = tmp_path / "bad.sqlite3"
    path.write_bytes(b"SQLite format 3\x00" + bytes(range(256)) * 40)
    with pytest.raises(StoreError, match="corrupt or not an SQLite database"):
        await Store.open(path, games_resolver=resolve_toy)


async def test_a_damaged_store_is_reported_corrupt(db_path: Path) -> None:
    async with await Store.open(db_path, games_resolver=resolve_toy) as store:
        for _ in range(30):
            toy = await ToyTable.open(store)
            await toy.play_round(seed=toy.id)
    with sqlite3.connect(db_path) as raw:  # fold the WAL into the main file first
        raw.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    data = bytearray(db_path.read_bytes())
    page = 4096
    for offset in range(2 * page, len(data), page):  # scribble over every page after the first
        data[offset : offset + 64] = b"\xff" * 64
    db_path.write_bytes(bytes(data))
    with pytest.raises(StoreError, match=r"(corrupt|cannot be used)"):
        async with await Store.open(db_path, games_resolver=resolve_toy) as store:
            await store.load_active_tables()


async def test_another_programs_database_is_refused_untouched(tmp_path: Path) -> None:
    path = tmp_path / "other.sqlite3"
    with sqlite3.connect(path) as raw:
        raw.execute("CREATE TABLE invoices (id INTEGER PRIMARY KEY, amount REAL)")
        raw.execute("INSERT INTO invoices (amount) VALUES (12.5)")
    raw.close()
    with pytest.raises(StoreError, match=r"another program \(tables: invoices\)"):
        await Store.open(path, games_resolver=resolve_toy)
    with sqlite3.connect(path) as raw:
        names = [row[0] for row in raw.execute("SELECT name FROM sqlite_master")]
    raw.close()
    assert names == ["invoices"]


async def test_an_empty_file_becomes_a_store(tmp_path: Path) -> None:
    path = tmp_path / "empty.sqlite3"
    path.touch()
    async with await Store.open(path, games_resolver=resolve_toy) as store:
        assert store.schema_version >= 1


async def test_a_directory_is_refused(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="is a directory"):
        await Store.open(tmp_path, games_resolver=resolve_toy)


async def test_a_path_under_a_file_is_refused(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(StoreError, match="cannot use"):
        await Store.open(blocker / "store.sqlite3", games_resolver=resolve_toy)


async def test_another_programs_schema_version_table_is_not_mistaken_for_ours(
    tmp_path: Path,
) -> None:
    path = tmp_path / "flyway.sqlite3"
    with sqlite3.connect(path) as raw:
        raw.execute("CREATE TABLE schema_version (installed_rank INTEGER, script TEXT)")
    raw.close()
    with pytest.raises(StoreError, match="not this bot's schema"):
        await Store.open(path, games_resolver=resolve_toy)


async def test_a_file_in_use_by_another_store_is_refused(db_path: Path) -> None:
    async with await Store.open(db_path, games_resolver=resolve_toy):
        with pytest.raises(StoreError, match="already in use by another running bot"):
            await Store.open(db_path, games_resolver=resolve_toy)
    async with await Store.open(db_path, games_resolver=resolve_toy) as again:  # released
        assert again.schema_version >= 1


async def test_a_refused_file_does_not_stay_locked(tmp_path: Path) -> None:
    path = tmp_path / "other.sqlite3"
    with sqlite3.connect(path) as raw:
        raw.execute("CREATE TABLE invoices (id INTEGER PRIMARY KEY)")
    raw.close()
    for _ in range(2):  # the second attempt gives the same answer, not "in use"
        with pytest.raises(StoreError, match="another program"):
            await Store.open(path, games_resolver=resolve_toy)


async def test_a_transaction_cancelled_while_it_begins_leaves_no_transaction_open(
    tmp_path: Path,
) -> None:
    """The connection's thread runs a BEGIN even when its caller is cancelled meanwhile (a
    notifier closing): the next transaction must not find one open."""
    import asyncio

    from storage.database import open_database
    from storage.models import utc_now

    db = await open_database(tmp_path / "cancel.sqlite3", now=utc_now, integrity_check_delay=None)
    try:
        for _ in range(5):

            async def begin_and_wait() -> None:
                async with db.transaction():
                    await asyncio.Event().wait()

            task = asyncio.create_task(begin_and_wait())
            await asyncio.sleep(0)  # it holds the lock and waits for its BEGIN
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
            async with db.transaction() as conn:  # "cannot start a transaction within a …"
                await conn.execute("SELECT 1")
    finally:
        await db.close()
