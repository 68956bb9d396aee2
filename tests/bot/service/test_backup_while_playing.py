"""A backup taken while 100 tables play restores to a store that loads every table."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from pathlib import Path

from bot.service import PLAYING, ROUND_OVER, FakeClock, PlayerRef, RecordingNotifier, TableService
from storage import Store
from storage.backup import take_backup
from storage.restore import restore
from tests.bot.service.conftest import click_any, open_dutch, peek_all

TABLES = 100


async def test_a_backup_taken_while_100_tables_play_restores_every_table(
    service: TableService, store: Store, db_path: Path, seeds: Callable[[], int], tmp_path: Path
) -> None:
    tables = []
    for i in range(TABLES):
        players = [PlayerRef(1000 + 2 * i, f"P{2 * i}"), PlayerRef(1001 + 2 * i, f"P{2 * i + 1}")]
        table_id = await open_dutch(service, players)
        await peek_all(service, table_id)
        tables.append(table_id)
    halfway = asyncio.Event()
    clicks = 0

    async def play(table_id: int) -> None:
        nonlocal clicks
        rng = random.Random(table_id)
        for _ in range(12):
            if service.public_snapshot(table_id).status != PLAYING:
                return
            await click_any(service, table_id, rng)
            clicks += 1
            if clicks >= TABLES * 4:
                halfway.set()

    async def back_up() -> Path:
        await halfway.wait()  # tables are mid-round and go on playing during the copy
        backup = await asyncio.to_thread(take_backup, db_path, tmp_path / "backups", keep=2)
        return backup.path

    *_, backup = await asyncio.gather(*(play(t) for t in tables), back_up())
    restored_file = tmp_path / "restored" / "cardtable.sqlite3"
    restore(backup, restored_file)

    again_store = await Store.open(restored_file, synchronous="NORMAL")
    again = TableService(again_store, FakeClock(start=2_000_000_000.0), RecordingNotifier(), seeds)
    try:
        report = await again.restoring.restore()
        assert report.broken == ()
        assert sorted(report.restored) == sorted(tables)
        for table_id in tables:
            # every restored table is one of the states the table went through
            saved = await again_store.load_round(table_id, 0)
            played = await store.load_round(table_id, 0)
            assert played.actions[: len(saved.actions)] == saved.actions
            assert again.public_snapshot(table_id).status in (PLAYING, ROUND_OVER)
    finally:
        await again.close()
        await again_store.close()
