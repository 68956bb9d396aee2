"""Versioned migrations, on both backends: applied once each, in order, in a transaction; old
databases are migrated, newer ones refused."""

from __future__ import annotations

from pathlib import Path

import pytest

from storage import Store, StoreError, pg_migrate
from storage import migrate as migrate_module
from storage.migrate import Migration, available_migrations, latest_version, statements
from storage.postgres import is_database_url
from tests.storage.conftest import Location, ToyTable, raw_sql, resolve_toy, table_names


async def applied_versions(location: Location) -> list[tuple[int, str, str]]:
    rows = await raw_sql(location, "SELECT version, name, applied_at FROM schema_version")
    return [(int(v), str(n), str(a)) for v, n, a in rows]


def test_migrations_are_numbered_from_one_each_once() -> None:
    versions = [m.version for m in available_migrations()]
    assert versions[0] == 1 and versions == sorted(set(versions))
    assert latest_version() == versions[-1] >= 2


def test_a_version_that_lands_after_a_higher_one_is_still_applied() -> None:
    """Branches claim numbers ahead (V16 landed before V15): a database at V16 without V15
    gets V15 at its next start, and nothing it has is applied again."""
    shipped = [Migration(v, f"m{v}", "SELECT 1;") for v in (1, 2, 3, 5)]
    assert [m.version for m in migrate_module.pending(shipped, 5, {1, 2, 5}, 5)] == [3]
    assert [m.version for m in migrate_module.pending(shipped, 2, {1, 2}, 5)] == [3, 5]
    assert [m.version for m in migrate_module.pending(shipped, 0, set(), 2)] == [1, 2]


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


async def test_a_file_is_backed_up_only_before_a_migration_that_changes_it(
    db_path: Path,
) -> None:
    """SQLite's V6 is a no-op (PostgreSQL's drops a foreign key): copying a big file for it
    would only delay the start by seconds. V5 adds a column: that upgrade keeps its copy."""
    async with await Store.open(db_path, games_resolver=resolve_toy, target_version=4):
        pass
    async with await Store.open(db_path, games_resolver=resolve_toy, target_version=5):
        pass
    (backup,) = db_path.parent.glob(f"{db_path.name}-v4-*.bak")
    assert [v for v, _, _ in await applied_versions(backup)] == [1, 2, 3, 4]
    async with await Store.open(db_path, games_resolver=resolve_toy, target_version=6) as store:
        assert store.schema_version == 6
    assert list(db_path.parent.glob(f"{db_path.name}-v5-*.bak")) == []
    assert [v for v, _, _ in await applied_versions(db_path)] == [1, 2, 3, 4, 5, 6]


def test_a_migration_of_only_selects_writes_nothing() -> None:
    shipped = {m.version: m.writes for m in available_migrations()}
    assert shipped[6] is False
    assert all(shipped[version] for version in range(1, 6))
    for sql in ("SELECT 1;", "-- why\n/* note; */ select 2;\n-- end", "SELECT ';--'"):
        assert not Migration(99, "reads", sql).writes, sql
    for sql in (
        "SELECT ';'; DELETE FROM tables",  # a semicolon inside a string ends no statement
        "SELECT 1 /* ; */; DROP TABLE tables",
        "-- SELECT\nUPDATE tables SET game = 'x'",
        "WITH t AS (SELECT 1) DELETE FROM tables",
        "PRAGMA user_version = 3",
    ):
        assert Migration(99, "writes", sql).writes, sql
    assert statements("SELECT 1; -- a\n;\n/* b */ SELECT 2") == ["SELECT 1;", "SELECT 2\n;"]


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
    broken = Migration(
        shipped[-1].version + 1, "broken", "CREATE TABLE half (a INTEGER);\nSELEC oops;"
    )
    monkeypatch.setattr(runner, "available_migrations", lambda *_: [*shipped, broken])
    with pytest.raises(StoreError, match=rf"migration V{broken.version} \(broken\) failed"):
        await Store.open(location, games_resolver=resolve_toy)
    assert "half" not in await table_names(location)
    assert max(v for v, _, _ in await applied_versions(location)) == shipped[-1].version
    monkeypatch.undo()
    async with await Store.open(location, games_resolver=resolve_toy) as store:
        assert store.schema_version == shipped[-1].version
