"""`python -m bot.bench`: the table service under load, Discord left out.

Many Dutch tables play at once on a real store (a temporary SQLite file, synchronous=FULL) with
a no-op notifier and the real clock. Every seat is a "human" whose clicks are the bot policy's
choices; each click is timed from the call to `act()` until it returns (lock wait, engine,
durable store write, timers). Two loads per table count:
- paced: each table clicks after a random pause (mean `--think` s), like quick humans;
- saturated: every table clicks again as soon as its click returns (throughput).
Prints clicks per second, p50/p99/max latency per click, the p99 of the durable write alone
(`store99`: fsync jitter shows there), and CPU time per click (the process: service, engine,
policy choosing the clicks, SQLite thread).
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import random
import statistics
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from bot.service import (
    FINISHED,
    PLAYING,
    ROUND_OVER,
    NullNotifier,
    PlayerRef,
    SystemClock,
    TableError,
    TableService,
)
from storage import Store

PLAYERS_PER_TABLE = 4


@dataclass
class Sample:
    latencies: list[float] = field(default_factory=list)
    store_waits: list[float] = field(default_factory=list)  # record_action alone
    rounds: int = 0
    errors: int = 0


def time_record_action(store: Store, sample: Sample) -> None:
    """Measure the durable write inside each click, to tell the store's share of the tail."""
    record = store.record_action

    async def timed(table_id: int, round_no: int, seq: int, seat: int, notation: str) -> None:
        started = time.perf_counter()
        await record(table_id, round_no, seq, seat, notation)
        sample.store_waits.append(time.perf_counter() - started)

    store.record_action = timed  # type: ignore[method-assign]


async def open_tables(service: TableService, count: int, players: int) -> list[int]:
    tables = []
    for t in range(count):
        people = [PlayerRef(1_000 * (t + 1) + p, f"T{t}P{p}") for p in range(players)]
        snapshot = await service.open_table(1, 10 + t % 20, people[0], "dutch")
        for person in people[1:]:
            await service.join(snapshot.table_id, person)
        await service.start(snapshot.table_id, people[0].user_id)
        tables.append(snapshot.table_id)
    return tables


async def drive(
    service: TableService, table_id: int, until: float, think: float, seed: int, sample: Sample
) -> None:
    rng = random.Random(seed)
    while time.perf_counter() < until:
        if think > 0:
            await asyncio.sleep(rng.uniform(0, 2 * think))
        else:
            await asyncio.sleep(0)  # let the other tables in, as a network would
        snapshot = service.public_snapshot(table_id)
        if snapshot.status == ROUND_OVER:
            await service.next_round(table_id, snapshot.host_id)
            sample.rounds += 1
            continue
        if snapshot.status == FINISHED:
            await service.rematch(table_id, snapshot.host_id)
            await service.start(table_id, snapshot.host_id)
            continue
        if snapshot.status != PLAYING or not snapshot.to_act or snapshot.round_no is None:
            continue
        user_id = snapshot.seats[snapshot.to_act[0]].user_id
        assert user_id is not None
        notation = service.bot_choice(table_id, user_id, rng)
        if notation is None:
            continue
        started = time.perf_counter()
        try:
            await service.act(table_id, user_id, snapshot.round_no, notation)
        except TableError:
            sample.errors += 1
            continue
        sample.latencies.append(time.perf_counter() - started)


async def run_level(count: int, seconds: float, think: float, players: int) -> str:
    with tempfile.TemporaryDirectory() as tmp:
        store = await Store.open(Path(tmp) / "bench.sqlite3")
        seeds = itertools.count(1)
        service = TableService(store, SystemClock(), NullNotifier(), lambda: next(seeds))
        try:
            tables = await open_tables(service, count, players)
            sample = Sample()
            time_record_action(store, sample)
            cpu0, wall0 = time.process_time(), time.perf_counter()
            until = wall0 + seconds
            await asyncio.gather(*(drive(service, t, until, think, t, sample) for t in tables))
            wall, cpu = time.perf_counter() - wall0, time.process_time() - cpu0
        finally:
            for table_id in service.table_ids():
                await service.stop(table_id, 0, can_manage=True)
            await store.close()
    lat = sorted(sample.latencies)
    n = len(lat)
    if n == 0:
        return f"{count:>6} tables: no clicks"
    p50 = statistics.median(lat) * 1e3
    p99 = percentile(lat, 0.99) * 1e3
    store_p99 = percentile(sorted(sample.store_waits), 0.99) * 1e3
    return (
        f"{count:>6} {'paced' if think > 0 else 'saturated':>9} {n:>8} {n / wall:>9.0f} "
        f"{p50:>8.2f} {p99:>8.2f} {lat[-1] * 1e3:>8.2f} {store_p99:>8.2f} {cpu / n * 1e3:>8.3f} "
        f"{sample.rounds:>6} {sample.errors:>5}"
    )


def percentile(ordered: list[float], q: float) -> float:
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))] if ordered else 0.0


async def main_async(levels: list[int], seconds: float, think: float, players: int) -> None:
    print(
        f"Dutch tables of {players} players, real store (temp file, synchronous=FULL), "
        f"{seconds:.0f} s per run, paced think time mean {think} s per table"
    )
    print(
        f"{'tables':>6} {'load':>9} {'clicks':>8} {'clicks/s':>9} {'p50 ms':>8} {'p99 ms':>8} "
        f"{'max ms':>8} {'store99':>8} {'cpu ms':>8} {'rounds':>6} {'errs':>5}"
    )
    for count in levels:
        for pause in (think, 0.0):
            print(await run_level(count, seconds, pause, players), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bot.bench", description=__doc__)
    parser.add_argument("--tables", default="1,50,500", help="comma-separated table counts")
    parser.add_argument("--seconds", type=float, default=8.0, help="duration of each run")
    parser.add_argument("--think", type=float, default=1.0, help="mean pause between clicks")
    parser.add_argument("--players", type=int, default=PLAYERS_PER_TABLE)
    args = parser.parse_args()
    levels = [int(x) for x in args.tables.split(",") if x]
    asyncio.run(main_async(levels, args.seconds, args.think, args.players))


if __name__ == "__main__":
    main()
