"""Child process of the kill test: many toy tables record actions as fast as they can, each
acknowledged action printed as `table round seq` once record_action has returned. It runs until
it is killed. Usage: python -m tests.storage.kill_writer DB_PATH_OR_URL N_TABLES"""

from __future__ import annotations

import asyncio
import sys

from storage import Store
from tests.storage.conftest import ToyTable, resolve_toy


async def keep_playing(toy: ToyTable) -> None:
    seed = toy.id * 1000
    while True:
        await toy.new_round(seed=seed)
        while not toy.round.finished:
            await toy.play("pass" if len(toy.round.history) % 5 == 4 else "draw")
            sys.stdout.write(f"{toy.id} {toy.round_no} {len(toy.round.history) - 1}\n")
            sys.stdout.flush()
        await toy.finish_round()
        seed += 1


async def main(location: str, n_tables: int) -> None:
    store = await Store.open(location, games_resolver=resolve_toy)
    tables = [await ToyTable.open(store, target=10**9, draws_per_seat=20) for _ in range(n_tables)]
    await asyncio.gather(*(keep_playing(toy) for toy in tables))


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2])))
