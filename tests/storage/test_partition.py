"""Several bot processes on one PostgreSQL database: each owns the tables of the guilds on its
shards (`(guild_id >> 22) % count`), restores only those, reads the shared statistics, and a
shard (or a different shard count) claimed twice is refused. An SQLite file serves one process."""

from __future__ import annotations

from pathlib import Path

import pytest

from storage import Store, StoreError, pg_claim
from storage.partition import Partition
from tests.postgres_server import PostgresServer
from tests.storage.conftest import ToyTable, resolve_toy


def guild_on(shard: int, count: int = 2, n: int = 0) -> int:
    """A guild id Discord puts on this shard (its timestamp bits pick the shard)."""
    return ((count * n + shard) << 22) | 12345


def test_the_shard_of_a_guild_is_discords() -> None:
    assert Partition(2, (0,)).shard_of(guild_on(1)) == 1
    assert Partition(2, (1,)).owns(guild_on(1, n=5)) and not Partition(2, (1,)).owns(guild_on(0))
    assert Partition.all_of(3).whole and Partition().owns(guild_on(1))
    # a real snowflake: (id >> 22) % 4
    assert (
        Partition(4, (0,)).shard_of(1_200_000_000_000_000_000)
        == (1_200_000_000_000_000_000 >> 22) % 4
    )


@pytest.mark.parametrize(
    ("count", "ids", "message"),
    [(0, (0,), "at least 1"), (2, (), "once each"), (2, (1, 1), "once each"), (2, (2,), "below")],
)
def test_bad_shard_settings_are_refused(count: int, ids: tuple[int, ...], message: str) -> None:
    with pytest.raises(StoreError, match=message):
        Partition(count, ids)


async def test_each_process_restores_only_its_guilds_and_reads_shared_stats(
    postgres_server: PostgresServer,
) -> None:
    url = await postgres_server.create_database()
    first = await Store.open(url, games_resolver=resolve_toy, partition=Partition(2, (0,)))
    second = await Store.open(url, games_resolver=resolve_toy, partition=Partition(2, (1,)))
    try:
        mine = [await ToyTable.open(first, guild_id=guild_on(0, n=n)) for n in range(3)]
        theirs = [await ToyTable.open(second, guild_id=guild_on(1, n=n)) for n in range(2)]
        for toy in [*mine, *theirs]:
            await toy.new_round(seed=toy.id)
            await toy.play("draw")
        done = await ToyTable.open(second, guild_id=guild_on(1), users=(7, 8), target=1)
        await done.play_round(seed=1)
        await second.finish_match(done.id, list(done.match.winner_seats()), done.match.totals)

        assert [a.table.id for a in (await first.load_active_tables()).tables] == [
            t.id for t in mine
        ]
        restored = await second.load_active_tables()
        assert [a.table.id for a in restored.tables] == [*(t.id for t in theirs), done.id]
        # statistics are shared: either process shows the other's finished match
        board = await first.leaderboard(guild_on(1), "toy")
        assert {row.user_id for row in board} == {7, 8}
    finally:
        await first.close()
        await second.close()


async def test_a_shard_served_twice_or_a_different_count_is_refused(
    postgres_server: PostgresServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(pg_claim, "CLAIM_WAIT_S", 0.1)  # the holder is alive: no use waiting
    url = await postgres_server.create_database()
    async with await Store.open(url, games_resolver=resolve_toy, partition=Partition(2, (0,))):
        with pytest.raises(StoreError, match="shard 0 of 2 is already served"):
            await Store.open(url, games_resolver=resolve_toy, partition=Partition(2, (1, 0)))
        with pytest.raises(StoreError, match="SHARD_COUNT=2, this one with 3"):
            await Store.open(url, games_resolver=resolve_toy, partition=Partition(3, (2,)))
        with pytest.raises(StoreError, match="with 1: every process"):  # no SHARD_COUNT: 1
            await Store.open(url, games_resolver=resolve_toy)
        async with await Store.open(
            url, games_resolver=resolve_toy, partition=Partition(2, (1,))
        ) as other:
            assert other.partition == Partition(2, (1,))
    # released when the process closes its store (or dies): the shard can be served again
    async with await Store.open(url, games_resolver=resolve_toy, partition=Partition(2, (0,))):
        pass


async def test_an_sqlite_file_serves_one_process_only(db_path: Path) -> None:
    with pytest.raises(StoreError, match="set DATABASE_URL to a PostgreSQL database"):
        await Store.open(db_path, games_resolver=resolve_toy, partition=Partition(2, (1,)))
    async with await Store.open(
        db_path, games_resolver=resolve_toy, partition=Partition.all_of(2)
    ) as store:
        toy = await ToyTable.open(store, guild_id=guild_on(1))
        assert [a.table.id for a in (await store.load_active_tables()).tables] == [toy.id]
