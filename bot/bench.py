"""`python -m bot.bench`: the table service under load, Discord left out.

Many tables of mixed games (`--games`, in turn: Dutch, Euchre, Dame de Pique) play at once on
a real store (a temporary SQLite file, synchronous=FULL) with a no-op notifier and the real
clock. Every seat is a "human" whose clicks are the bot policy's choices; each click is timed
from the call to `act()` until it returns (lock wait, engine, durable store write, timers,
and any garbage collection that falls in it). Two loads per table count:
- paced: each table clicks after a random pause (mean `--think` s, longer if needed to keep
  the total at `--rate` clicks per second: 10,000 tables click every 10 s at 1,000 clicks/s);
- saturated: every table clicks again as soon as its click returns (throughput; only up to
  `--saturate-max` tables).
Prints clicks per second, p50/p99/max latency per click, the p99 of the durable write alone
(`store99`: fsync jitter shows there), CPU time per click (the process: service, engine,
policy choosing the clicks, SQLite thread), and the full (generation 2) collections during the
run with the longest one. The target at 10,000 tables and 1,000 clicks/s: p99 < 25 ms and
max < 100 ms, on one core (`taskset -c 0 python -m bot.bench`).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
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


async def open_tables(
    service: TableService, count: int, players: int, games: list[str]
) -> list[int]:
    tables = []
    for t in range(count):
        people = [PlayerRef(1_000 * (t + 1) + p, f"T{t}P{p}") for p in range(players)]
        snapshot = await service.open_table(1, 10 + t % 20, people[0], games[t % len(games)])
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
        try:
            if snapshot.status == ROUND_OVER:
                await service.next_round(table_id, snapshot.host_id)
                sample.rounds += 1
                continue
            if snapshot.status == FINISHED:
                await service.rematch(table_id, snapshot.host_id)
                await service.start(table_id, snapshot.host_id)
                continue
        except TableError:  # its timer was first (the next round starts by itself)
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


class FullCollections:
    """Times every generation-2 collection while active (gc.callbacks)."""

    def __init__(self) -> None:
        self.pauses: list[float] = []
        self._started = 0.0

    def __enter__(self) -> FullCollections:
        gc.callbacks.append(self._callback)
        return self

    def __exit__(self, *exc: object) -> None:
        gc.callbacks.remove(self._callback)

    def _callback(self, phase: str, info: dict[str, int]) -> None:
        if info["generation"] != 2:
            return
        if phase == "start":
            self._started = time.perf_counter()
        else:
            self.pauses.append(time.perf_counter() - self._started)


async def run_level(
    count: int, seconds: float, think: float, players: int, games: list[str]
) -> str:
    with tempfile.TemporaryDirectory() as tmp:
        store = await Store.open(Path(tmp) / "bench.sqlite3")
        seeds = itertools.count(1)
        service = TableService(store, SystemClock(), NullNotifier(), lambda: next(seeds))
        try:
            tables = await open_tables(service, count, players, games)
            sample = Sample()
            time_record_action(store, sample)
            cpu0, wall0 = time.process_time(), time.perf_counter()
            until = wall0 + seconds
            with FullCollections() as collections:
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
        f"{sample.rounds:>6} {sample.errors:>5} {len(collections.pauses):>4} "
        f"{max(collections.pauses, default=0.0) * 1e3:>7.1f}"
    )


def percentile(ordered: list[float], q: float) -> float:
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))] if ordered else 0.0


async def main_async(args: argparse.Namespace) -> None:
    levels = [int(x) for x in args.tables.split(",") if x]
    games = [g for g in args.games.split(",") if g]
    print(
        f"tables of {args.players} players ({', '.join(games)} in turn), real store (temp file, "
        f"synchronous=FULL), {args.seconds:.0f} s per run, paced: think time mean "
        f"{args.think} s per table, at most {args.rate:,.0f} clicks/s in total"
    )
    print(
        f"{'tables':>6} {'load':>9} {'clicks':>8} {'clicks/s':>9} {'p50 ms':>8} {'p99 ms':>8} "
        f"{'max ms':>8} {'store99':>8} {'cpu ms':>8} {'rounds':>6} {'errs':>5} {'gc2':>4} "
        f"{'gc2 max':>7}"
    )
    for count in levels:
        paced = max(args.think, count / args.rate)
        for pause in (paced, 0.0) if count <= args.saturate_max else (paced,):
            line = await run_level(count, args.seconds, pause, args.players, games)
            print(line, flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bot.bench", description=__doc__)
    parser.add_argument("--tables", default="1,50,500,10000", help="comma-separated table counts")
    parser.add_argument("--seconds", type=float, default=20.0, help="duration of each run")
    parser.add_argument("--think", type=float, default=1.0, help="mean pause between clicks")
    parser.add_argument("--rate", type=float, default=1000.0, help="paced: total clicks/s cap")
    parser.add_argument("--saturate-max", type=int, default=500, help="saturated runs up to")
    parser.add_argument("--games", default="dutch,euchre,dame", help="played in turn")
    parser.add_argument("--players", type=int, default=PLAYERS_PER_TABLE)
    asyncio.run(main_async(parser.parse_args()))


if __name__ == "__main__":
    main()
