"""Versioned migrations: applied once each, in order, in a transaction; old files are migrated,
newer files refused."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from storage import Store, StoreError
from storage import migrate as migrate_module
from storage.migrate import Migration, available_migrations, latest_version
from tests.storage.conftest import ToyTable, resolve_toy


def applied_versions(path: Path) -> list[tuple[int, str, str]]:
    with sqlite3.connect(path) as raw:
        return raw.execute("SELECT version, name, applied_at FROM schema_version").fetchall()


def test_migrations_are_numbered_from_one_without_gaps() -> None:
    versions = [m.version for m in available_migrations()]
    assert versions == list(range(1, len(versions) + 1))
    assert latest_version() == versions[-1] >= 2


async def test_an_empty_file_gets_every_migration_once(db_path: Path) -> None:
    async with await Store.open(db_path, games_resolver=resolve_toy) as store:
        assert store.schema_version == latest_version()
    assert list(db_path.parent.glob("*.bak")) == []  # nothing to back up in a new file
    first = applied_versions(db_path)
    assert [v for v, _, _ in first] == [m.version for m in available_migrations()]
    async with await Store.open(db_path, games_resolver=resolve_toy):
        pass
    assert applied_versions(db_path) == first  # nothing applied twice


async def test_a_version_1_file_is_migrated_and_keeps_its_tables(db_path: Path) -> None:
    async with await Store.open(db_path, games_resolver=resolve_toy, target_version=1) as old:
        assert old.schema_version == 1
        toy = await ToyTable.open(old, target=1)  # a table (the code plays rounds on V3 only)
    with sqlite3.connect(db_path) as raw:
        tables = {row[0] for row in raw.execute("SELECT name FROM sqlite_master")}
    assert "player_stats" not in tables

    async with await Store.open(db_path, games_resolver=resolve_toy) as store:
        assert store.schema_version == latest_version()
        toy.store = store
        await toy.play_round(seed=4)
        assert await store.load_round(toy.id, 0) == toy.round.record()
        (backup,) = db_path.parent.glob(f"{db_path.name}-v1-*.bak")  # the file before upgrading
        assert [v for v, _, _ in applied_versions(backup)] == [1]
        # V2's statistics work on the old file's match
        await store.finish_match(toy.id, list(toy.match.winner_seats()), toy.match.totals)
        board = await store.leaderboard(1, "toy")
        assert {row.user_id for row in board} == {101, 102}
        recent = await store.recent_matches(1, 101)
        assert recent[0].players == ["player 101", "player 102"]  # V2's seat_names column


async def test_a_newer_file_is_refused_untouched(db_path: Path) -> None:
    async with await Store.open(db_path, games_resolver=resolve_toy):
        pass
    with sqlite3.connect(db_path) as raw:
        raw.execute("INSERT INTO schema_version VALUES (99, 'future', '2099-01-01')")
    before = applied_versions(db_path)
    with pytest.raises(StoreError, match=r"schema version 99.*knows only up to"):
        await Store.open(db_path, games_resolver=resolve_toy)
    assert applied_versions(db_path) == before


async def test_a_failing_migration_is_rolled_back_whole(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with await Store.open(db_path, games_resolver=resolve_toy):
        pass
    shipped = available_migrations()
    broken = Migration(len(shipped) + 1, "broken", "CREATE TABLE half (a INTEGER);\nSELEC oops;")
    monkeypatch.setattr(migrate_module, "available_migrations", lambda: [*shipped, broken])
    with pytest.raises(StoreError, match=rf"migration V{broken.version} \(broken\) failed"):
        await Store.open(db_path, games_resolver=resolve_toy)
    with sqlite3.connect(db_path) as raw:
        names = {row[0] for row in raw.execute("SELECT name FROM sqlite_master")}
    assert "half" not in names
    assert max(v for v, _, _ in applied_versions(db_path)) == len(shipped)
    monkeypatch.undo()
    async with await Store.open(db_path, games_resolver=resolve_toy) as store:
        assert store.schema_version == len(shipped)
