"""Versioned migrations, on both backends: applied once each, in order, in a transaction; old
databases are migrated, newer ones refused."""

from __future__ import annotations

from pathlib import Path

import pytest

from storage import Store, StoreError, pg_migrate
from storage import migrate as migrate_module
from storage.migrate import Migration, available_migrations, latest_version
from storage.postgres import is_database_url
from tests.storage.conftest import Location, ToyTable, raw_sql, resolve_toy, table_names


async def applied_versions(location: Location) -> list[tuple[int, str, str]]:
    rows = await raw_sql(location, "SELECT version, name, applied_at FROM schema_version")
    return [(int(v), str(n), str(a)) for v, n, a in rows]


def test_migrations_are_numbered_from_one_without_gaps() -> None:
    versions = [m.version for m in available_migrations()]
    assert versions == list(range(1, len(versions) + 1))
    assert latest_version() == versions[-1] >= 2


def test_both_backends_ship_the_same_migrations() -> None:
    sqlite = [(m.version, m.name) for m in available_migrations()]
    assert [(m.version, m.name) for m in pg_migrate.available_migrations()] == sqlite


async def test_an_empty_database_gets_every_migration_once(location: Location) -> None:
    async with await Store.open(location, games_resolver=resolve_toy) as store:
        assert store.schema_version == latest_version()
    if not is_database_url(location):
        assert list(Path(location).parent.glob("*.bak")) == []  # nothing to back up yet
    first = await applied_versions(location)
    assert [v for v, _, _ in first] == [m.version for m in available_migrations()]
    async with await Store.open(location, games_resolver=resolve_toy):
        pass
    assert await applied_versions(location) == first  # nothing applied twice


async def test_a_version_1_database_is_migrated_and_keeps_its_tables(location: Location) -> None:
    async with await Store.open(location, games_resolver=resolve_toy, target_version=1) as old:
        assert old.schema_version == 1
        toy = await ToyTable.open(old, target=1)  # a table (the code plays rounds on V3 only)
    assert "player_stats" not in await table_names(location)

    async with await Store.open(location, games_resolver=resolve_toy) as store:
        assert store.schema_version == latest_version()
        toy.store = store
        await toy.play_round(seed=4)
        assert await store.load_round(toy.id, 0) == toy.round.record()
        if not is_database_url(location):  # the file before upgrading
            path = Path(location)
            (backup,) = path.parent.glob(f"{path.name}-v1-*.bak")
            assert [v for v, _, _ in await applied_versions(backup)] == [1]
        # V2's statistics work on the old database's match
        await store.finish_match(toy.id, list(toy.match.winner_seats()), toy.match.totals)
        board = await store.leaderboard(1, "toy")
        assert {row.user_id for row in board} == {101, 102}
        recent = await store.recent_matches(1, 101)
        assert recent[0].players == ["player 101", "player 102"]  # V2's seat_names column


async def test_a_newer_database_is_refused_untouched(location: Location) -> None:
    async with await Store.open(location, games_resolver=resolve_toy):
        pass
    await raw_sql(location, "INSERT INTO schema_version VALUES (99, 'future', '2099-01-01')")
    before = await applied_versions(location)
    with pytest.raises(StoreError, match=r"schema version 99.*knows only up to"):
        await Store.open(location, games_resolver=resolve_toy)
    assert await applied_versions(location) == before


async def test_a_failing_migration_is_rolled_back_whole(
    location: Location, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with await Store.open(location, games_resolver=resolve_toy):
        pass
    runner = pg_migrate if is_database_url(location) else migrate_module
    shipped = runner.available_migrations()
    broken = Migration(len(shipped) + 1, "broken", "CREATE TABLE half (a INTEGER);\nSELEC oops;")
    monkeypatch.setattr(runner, "available_migrations", lambda *_: [*shipped, broken])
    with pytest.raises(StoreError, match=rf"migration V{broken.version} \(broken\) failed"):
        await Store.open(location, games_resolver=resolve_toy)
    assert "half" not in await table_names(location)
    assert max(v for v, _, _ in await applied_versions(location)) == len(shipped)
    monkeypatch.undo()
    async with await Store.open(location, games_resolver=resolve_toy) as store:
        assert store.schema_version == len(shipped)
