"""Child process of the kill tests: many toy tables record actions as fast as they can, each
acknowledged action printed as `table round seq` once record_action has returned. It runs until
it is killed.

Usage: python -m tests.storage.kill_writer DB_PATH_OR_URL N_TABLES [SHARD SHARD_COUNT [restore]]
With a shard, the process serves that shard of SHARD_COUNT (its tables' guilds are on it); with
`restore`, it first prints `restored N`, then plays on the N tables it restored instead of
opening new ones."""

from __future__ import annotations

import asyncio
import sys

from storage import Store
from storage.partition import Partition
from tests.storage.conftest import ToyTable, resolve_toy


async def keep_playing(toy: ToyTable) -> None:
    seed = toy.id * 1000 + toy.match.round_no
    if toy.round is not None and toy.round.finished:  # killed between its last action and
        await toy.finish_round()  # storing its result: finish it now
        toy.round = None
    while True:
        if toy.round is None:
            await toy.new_round(seed=seed)
        while not toy.round.finished:
            await toy.play("pass" if len(toy.round.history) % 5 == 4 else "draw")
            sys.stdout.write(f"{toy.id} {toy.round_no} {len(toy.round.history) - 1}\n")
            sys.stdout.flush()
        await toy.finish_round()
        toy.round = None
        seed += 1


async def restored_tables(store: Store) -> list[ToyTable]:
    loaded = await store.load_active_tables()
    tables = []
    for active in loaded.tables:
        assert active.match is not None
        toy = ToyTable(store, active.table, active.match)
        toy.round, toy.round_no = active.round, active.round_no
        tables.append(toy)
    sys.stdout.write(f"restored {len(tables)}\n")
    sys.stdout.flush()
    return tables


async def main(location: str, n_tables: int, shard: int, count: int, restore: bool) -> None:
    partition = Partition(count, (shard,))
    store = await Store.open(location, games_resolver=resolve_toy, partition=partition)
    if restore:
        tables = await restored_tables(store)
    else:
        guild_id = (shard << 22) | 1  # a guild on this shard
        tables = [
            await ToyTable.open(store, guild_id=guild_id, target=10**9, draws_per_seat=20)
            for _ in range(n_tables)
        ]
    await asyncio.gather(*(keep_playing(toy) for toy in tables))


if __name__ == "__main__":
    args = sys.argv[1:]
    shard, count = (int(args[2]), int(args[3])) if len(args) >= 4 else (0, 1)
    asyncio.run(main(args[0], int(args[1]), shard, count, args[4:5] == ["restore"]))
