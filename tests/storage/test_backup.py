"""Online backups of the SQLite file (storage/backup.py) and `python -m storage.restore`."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from storage import Store
from storage.backup import BackupSchedule, backups_in, check_backup, take_backup
from storage.errors import StoreError
from storage.restore import main as restore_main
from storage.restore import restore
from tests.storage.conftest import resolve_toy

T0 = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


async def a_store_with_guilds(path: Path, *guilds: int) -> Store:
    store = await Store.open(path, games_resolver=resolve_toy, synchronous="NORMAL")
    for guild_id in guilds:
        settings = await store.get_guild_settings(guild_id)
        await store.save_guild_settings(settings.model_copy(update={"turn_seconds": 42}))
    return store


def guild_ids(path: Path) -> set[int]:
    with sqlite3.connect(path) as conn:
        rows = conn.execute("SELECT guild_id FROM guild_settings").fetchall()
    conn.close()
    return {row[0] for row in rows}


async def test_a_backup_holds_what_was_committed_while_the_store_stays_open(
    tmp_path: Path,
) -> None:
    db = tmp_path / "data" / "cardtable.sqlite3"
    store = await a_store_with_guilds(db, 1, 2)
    try:
        backup = take_backup(db, tmp_path / "backups", keep=3, now=lambda: T0)
        await store.save_guild_settings(await store.get_guild_settings(3))  # after the backup
    finally:
        await store.close()
    assert backup.path.name == "cardtable-20261201T120000.000000Z.sqlite3"
    assert check_backup(backup.path) == []
    assert guild_ids(backup.path) == {1, 2}  # the WAL's commits are in, the later one is not
    assert not list(backup.path.parent.glob(".*"))  # no partial file left behind


def test_a_file_that_is_no_store_is_not_backed_up(tmp_path: Path) -> None:
    db = tmp_path / "cardtable.sqlite3"
    sqlite3.connect(db).close()
    folder = tmp_path / "backups"
    with pytest.raises(StoreError, match="is not a card table store"):
        take_backup(db, folder, keep=2, now=lambda: T0)  # an empty file is no store
    assert backups_in(folder) == []


async def test_the_oldest_backups_beyond_keep_are_removed(tmp_path: Path) -> None:
    db = tmp_path / "cardtable.sqlite3"
    await (await a_store_with_guilds(db, 1)).close()
    folder = tmp_path / "backups"
    (folder).mkdir()
    (folder / "notes.txt").write_text("not a backup: left alone")
    taken = [
        take_backup(db, folder, keep=2, now=lambda i=i: T0 + timedelta(hours=i)).path
        for i in range(4)
    ]
    assert [path for _, path in backups_in(folder)] == taken[2:]
    assert (folder / "notes.txt").exists()


async def test_restore_puts_a_backup_back_and_keeps_the_replaced_file(tmp_path: Path) -> None:
    db = tmp_path / "cardtable.sqlite3"
    store = await a_store_with_guilds(db, 1)
    backup = take_backup(db, tmp_path / "backups", keep=3, now=lambda: T0).path
    await store.save_guild_settings(await store.get_guild_settings(2))
    await store.close()

    kept = restore(backup, db, now=T0)
    assert kept is not None and guild_ids(kept) == {1, 2}
    assert guild_ids(db) == {1}
    reopened = await Store.open(db, games_resolver=resolve_toy)
    try:
        assert (await reopened.get_guild_settings(1)).turn_seconds == 42
    finally:
        await reopened.close()


async def test_restore_refuses_while_a_bot_holds_the_database(tmp_path: Path) -> None:
    db = tmp_path / "cardtable.sqlite3"
    store = await a_store_with_guilds(db, 1)
    try:
        backup = take_backup(db, tmp_path / "backups", keep=3).path
        with pytest.raises(StoreError, match="already in use"):
            restore(backup, db)
    finally:
        await store.close()


async def test_a_damaged_backup_is_refused_with_the_reason_and_nothing_changes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "cardtable.sqlite3"
    await (await a_store_with_guilds(db, 1)).close()
    backup = take_backup(db, tmp_path / "backups", keep=3).path
    await (await a_store_with_guilds(db, 5)).close()
    data = bytearray(backup.read_bytes())
    page = 4096
    data[page * 2 : page * 2 + 64] = b"\xff" * 64  # a damaged page
    backup.write_bytes(bytes(data))
    before = db.read_bytes()

    assert restore_main([str(backup), "--database", str(db)]) == 1
    err = capsys.readouterr().err
    assert "damaged" in err and "nothing was restored" in err
    assert len(err.strip().splitlines()) == 1
    assert db.read_bytes() == before
    text = tmp_path / "notes.sqlite3"
    text.write_text("hello")
    assert restore_main([str(text), "--database", str(db)]) == 1
    assert "not an SQLite database" in capsys.readouterr().err


async def test_the_schedule_waits_for_the_interval_counted_from_the_newest_backup(
    tmp_path: Path,
) -> None:
    db = tmp_path / "cardtable.sqlite3"
    await (await a_store_with_guilds(db, 1)).close()
    folder = tmp_path / "backups"
    now = [T0.timestamp()]
    schedule = BackupSchedule(db, folder, every=3600, keep=2, first_after=300, wall=lambda: now[0])
    assert schedule.due_in() == 300  # never in the first minutes after a start
    now[0] += 300
    assert schedule.due_in() == 0  # no backup yet: one is due
    take_backup(db, folder, keep=2, now=lambda: T0 + timedelta(seconds=300))
    assert schedule.due_in() == 3600
    now[0] += 4000
    assert schedule.due_in() == 0
    taken = await schedule.run_once()
    assert taken is not None and schedule.last == taken and schedule.last_error is None
    assert len(backups_in(folder)) == 2


async def test_a_failed_backup_is_logged_and_remembered(tmp_path: Path) -> None:
    schedule = BackupSchedule(tmp_path / "missing.sqlite3", tmp_path / "b", every=60, keep=1)
    assert await schedule.run_once() is None
    assert schedule.last is None and schedule.last_error is not None


@pytest.mark.parametrize("step", [3600.0, -3600.0])
async def test_a_wall_clock_step_moves_the_next_backup_by_the_step_once(
    tmp_path: Path, step: float
) -> None:
    """Backups keep to the wall clock (their names are its time): a step of an hour shifts
    the next one by that hour, neither all due at once nor never."""
    db = tmp_path / "cardtable.sqlite3"
    await (await a_store_with_guilds(db, 1)).close()
    folder = tmp_path / "backups"
    every = 86_400.0
    now = [T0.timestamp() + 600]
    schedule = BackupSchedule(db, folder, every=every, keep=7, first_after=0, wall=lambda: now[0])
    take_backup(db, folder, keep=7, now=lambda: datetime.fromtimestamp(now[0], UTC))
    now[0] += step
    assert schedule.due_in() == every - step
    now[0] += every - step
    assert schedule.due_in() == 0
