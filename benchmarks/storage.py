"""`python -m benchmarks.storage [--url postgresql://…]`: the store's throughput and rebuild time.

It measures durable actions per second and record_action latency with 1, 50, 500 and 5,000
tables writing at once, then the time to rebuild 1,000 and 10,000 active tables; on a temporary
SQLite file, or on PostgreSQL with --url (`--url auto`: a throwaway server started from the
machine's binaries in a temporary folder, durable, with the server's default settings;
`--server-setting name=value` changes one, e.g. `fsync=off` for a figure that is not durable,
printed as such).

Numbers, not assertions (targets: >= 2,000 actions/s and p99 < 20 ms at 500 tables; 1,000
tables loaded in < 3 s). The load part replays real Dutch rounds (games.dutch); without that
engine it says so and measures the writes only. On PostgreSQL every run works in a schema of
its own (`cardtable_bench_…`), dropped afterwards: the database is left as it was.
The bot side is meant to run on one core (`taskset -c 0 python -m benchmarks.storage …`); the
throwaway server is given every core of the machine rather than the bench's.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import asyncpg

from games.contract import Game, Round, RoundRecord
from games.match import Match
from storage.models import SeatRecord
from storage.pg_server import PostgresServer, find_binaries
from storage.store import Store

WRITE_TABLES = "1,50,500,5000"
LOAD_TABLES = "1000,10000"
SEATS = 4
TARGET_RATE, TARGET_P99_MS, TARGET_LOAD_S = 2000, 20.0, 3.0  # at 500 tables; for 1,000 tables


def dutch() -> Game[Any, Any, Any] | None:
    try:
        from games.registry import get_game

        return get_game("dutch")
    except (ImportError, KeyError, AttributeError):
        return None


def play_some(round_: Round[Any, Any, Any], rng: random.Random, moves: int) -> list[str]:
    """Random legal actions (never ending the round early by calling Dutch) up to `moves`."""
    played: list[str] = []
    while len(played) < moves and not round_.finished:
        seat = round_.to_act()[0]
        legal = round_.legal_actions(seat)
        calm = [a for a in legal if str(a) != "dutch"] or legal
        action = rng.choice(calm)
        round_.apply(seat, action)
        played.append(str(action))
    return played


async def open_table(store: Store, game_name: str, index: int) -> int:
    record = await store.create_table(1, 100 + index % 7, game_name, {}, host_id=1000 + index)
    await store.save_seats(
        record.id,
        [
            SeatRecord(seat=s, user_id=1000 + index * SEATS + s, display_name=f"p{s}")
            for s in range(SEATS)
        ],
    )
    await store.update_table(record.id, status="playing")
    return record.id


class Places:
    """Where each run stores its data: a new SQLite file in a temporary folder, or a new schema
    of the PostgreSQL database at `url` (dropped when the run ends)."""

    def __init__(self, url: str | None, workdir: Path) -> None:
        self.url = url
        self.workdir = workdir

    @property
    def title(self) -> str:
        return "PostgreSQL" if self.url else "SQLite WAL"

    @asynccontextmanager
    async def new(self, name: str) -> AsyncIterator[Path | str]:
        if self.url is None:
            yield self.workdir / f"{name}.sqlite3"
            return
        schema = f"cardtable_bench_{os.getpid()}_{name}"
        admin = await asyncpg.connect(self.url)
        try:
            await admin.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE; CREATE SCHEMA {schema}")
            joiner = "&" if "?" in self.url else "?"
            yield f"{self.url}{joiner}search_path={schema}"
        finally:
            await admin.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
            await admin.close()


@dataclass(frozen=True)
class WriteResult:
    n_tables: int
    rate: float  # durable actions per second
    p50_ms: float
    p99_ms: float
    line: str


async def bench_writes(
    n_tables: int, seconds: float, synchronous: str, location: Path | str
) -> WriteResult:
    deck = [f"c{i}" for i in range(52)]  # the write path never replays: any deck text will do

    async def open_round(index: int) -> int:
        table_id = await open_table(setup, "bench", index)
        await setup.start_round(
            table_id,
            RoundRecord(
                game="bench", rules_version=1, options={}, n_seats=SEATS, dealer=0, deck=deck
            ),
        )
        return table_id

    setup = await Store.open(location, synchronous="NORMAL")  # setting up is not measured
    table_ids = list(await asyncio.gather(*(open_round(index) for index in range(n_tables))))
    await setup.close()
    store = await Store.open(location, synchronous=synchronous)  # type: ignore[arg-type]
    # as the bot's process does (bot/runtime/long_lived.py): what lives on is frozen out of
    # the cycle collector's walks, which otherwise pause every writer for 0.1-0.3 s
    gc.collect()
    gc.freeze()
    latencies: list[float] = []
    commits_before = store.commits
    start = time.perf_counter()
    cpu_start = time.process_time()
    end = start + seconds

    async def writer(table_id: int) -> None:
        seq = 0
        while time.perf_counter() < end:
            began = time.perf_counter()
            await store.record_action(table_id, 0, seq, seq % SEATS, "swap 3")
            latencies.append(time.perf_counter() - began)
            seq += 1

    await asyncio.gather(*(writer(t) for t in table_ids))
    elapsed = time.perf_counter() - start
    cpu_per_action = (time.process_time() - cpu_start) / max(len(latencies), 1) * 1e6
    commits = store.commits - commits_before
    await store.close()
    latencies.sort()
    p50 = statistics.median(latencies) * 1000
    p99 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))] * 1000
    rate = len(latencies) / elapsed
    return WriteResult(
        n_tables,
        rate,
        p50,
        p99,
        f"{n_tables:>4} tables: {rate:>8,.0f} durable actions/s   "
        f"p50 {p50:6.2f} ms   p99 {p99:6.2f} ms   "
        f"({len(latencies):,} actions in {commits:,} commits, "
        f"{len(latencies) / max(commits, 1):.1f} per commit, {cpu_per_action:.0f} µs CPU each)",
    )


async def bench_load(
    game: Game[Any, Any, Any], n_tables: int, location: Path | str
) -> tuple[float, str]:
    rng = random.Random(2026)
    store = await Store.open(location, synchronous="NORMAL")  # filling is not measured
    n_actions = 0

    async def fill(index: int) -> None:
        nonlocal n_actions
        table_id = await open_table(store, game.name, index)
        match = Match(game, game.options(), SEATS)
        await store.start_match(table_id, match.state())
        if index % 2:  # half the tables are in their second round
            first = match.new_round(seed=f"{index}:0")
            round_no = await store.start_round(table_id, first.record())
            for seq, (seat, action) in enumerate(_played(first, rng)):
                await store.record_action(table_id, round_no, seq, seat, action)
            match.add_round(first.result())
            await store.finish_round(table_id, round_no, first.result(), list(match.totals))
        round_ = match.new_round(seed=f"{index}:{match.round_no}")
        round_no = await store.start_round(table_id, round_.record())
        moves = play_some(round_, rng, rng.randint(5, 40))
        for seq, (seat, action) in enumerate(round_.record().actions):
            await store.record_action(table_id, round_no, seq, seat, action)
        n_actions += len(moves)

    await asyncio.gather(*(fill(index) for index in range(n_tables)))
    await store.close()

    began = time.perf_counter()
    store = await Store.open(location)
    opened = time.perf_counter()
    loaded = await store.load_active_tables()
    done = time.perf_counter()
    await store.close()
    return done - opened, (
        f"load {len(loaded.tables):,} active {game.title} tables ({n_actions:,} actions replayed, "
        f"{len(loaded.broken)} broken): {done - opened:.2f} s "
        f"(+ {opened - began:.2f} s to open and check the database)"
    )


def _played(round_: Round[Any, Any, Any], rng: random.Random) -> list[tuple[int, str]]:
    """Play a round to its end (Dutch allowed after a while) and return its actions."""
    play_some(round_, rng, 30)
    while not round_.finished:
        seat = round_.to_act()[0]
        round_.apply(seat, rng.choice(round_.legal_actions(seat)))
    return round_.record().actions


def _counts(text: str) -> list[int]:
    return [int(part) for part in text.split(",") if part.strip()]


async def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.storage", description=__doc__)
    parser.add_argument(
        "--url", help="a PostgreSQL database, or 'auto' (default: a temporary SQLite file)"
    )
    parser.add_argument(
        "--server-setting",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="with --url auto: a setting of the throwaway server (repeatable)",
    )
    parser.add_argument("--seconds", type=float, default=3.0, help="per write run (default 3)")
    parser.add_argument(
        "--synchronous", choices=("FULL", "NORMAL"), default="FULL", help="SQLite's (default FULL)"
    )
    parser.add_argument("--tables", default=WRITE_TABLES, help="tables writing at once, per run")
    parser.add_argument("--load", default=LOAD_TABLES, help="active tables to rebuild, per run")
    parser.add_argument(
        "--sqlite-too",
        action="store_true",
        help="with --url: each write run on a temporary SQLite file too, right after "
        "PostgreSQL's, side by side: the same machine at the same moment, which a loaded "
        "machine's figures need to compare at all",
    )
    parser.add_argument("--short", action="store_true", help="a moment's run (the test suite's)")
    args = parser.parse_args(argv)
    if args.short:
        args.seconds, args.tables, args.load = 0.2, "1,5", "20"
    if args.url != "auto":
        return await run(args, args.url)
    binaries = find_binaries()
    if binaries is None:
        print("--url auto needs PostgreSQL's server binaries (Debian: apt-get install postgresql)")
        return 2
    settings = dict(item.split("=", 1) for item in args.server_setting)
    server = PostgresServer(binaries, settings, cpus=set(range(os.cpu_count() or 1)))
    server.start()
    try:
        return await run(args, server.url())
    finally:
        server.stop()


async def server_settings(url: str) -> str:
    conn = await asyncpg.connect(url)
    try:
        version = await conn.fetchval("SHOW server_version")
        shown = [
            f"{name}={await conn.fetchval(f'SHOW {name}')}"
            for name in ("fsync", "full_page_writes", "wal_sync_method", "synchronous_commit")
        ]
    finally:
        await conn.close()
    return f"server {version}: {', '.join(shown)} (the store's sessions: synchronous_commit=on)"


async def run(args: argparse.Namespace, url: str | None) -> int:
    durability = "synchronous_commit=on" if url else f"synchronous={args.synchronous}"
    with tempfile.TemporaryDirectory(prefix="storage-bench-") as tmp:
        places = Places(url, Path(tmp))
        print(f"storage benchmark: {places.title}, {durability}, group commit")
        if url:
            print(await server_settings(url))
        results: dict[int, WriteResult] = {}
        beside = Places(None, Path(tmp)) if url and args.sqlite_too else None
        for n_tables in _counts(args.tables):
            async with places.new(f"writes_{n_tables}") as location:
                result = await bench_writes(n_tables, args.seconds, args.synchronous, location)
            results[n_tables] = result
            if beside is None:
                print(result.line, flush=True)
                continue
            async with beside.new(f"writes_{n_tables}") as location:
                sqlite = await bench_writes(n_tables, args.seconds, args.synchronous, location)
            print(f"PostgreSQL {result.line}", flush=True)
            print(f"SQLite     {sqlite.line} (synchronous={args.synchronous})", flush=True)
        game = dutch()
        loads: dict[int, float] = {}
        if game is None:
            print("load: skipped, games.dutch is not available (no engine to replay rounds with)")
        else:
            for n_tables in _counts(args.load):
                async with places.new(f"load_{n_tables}") as location:
                    loads[n_tables], line = await bench_load(game, n_tables, location)
                print(line, flush=True)
    at_500, load_1000 = results.get(500), loads.get(1000)
    rate_met = None if at_500 is None else at_500.rate >= TARGET_RATE
    p99_met = None if at_500 is None else at_500.p99_ms < TARGET_P99_MS
    load_met = None if load_1000 is None else load_1000 < TARGET_LOAD_S
    print(
        f"targets: >= {TARGET_RATE:,} actions/s at 500 tables: {_verdict(rate_met)}; "
        f"p99 < {TARGET_P99_MS:.0f} ms at 500 tables: {_verdict(p99_met)}; "
        f"1,000 tables loaded in < {TARGET_LOAD_S:.0f} s: {_verdict(load_met)}"
    )
    return 0


def _verdict(met: bool | None) -> str:
    if met is None:
        return "not measured"
    return "met" if met else "MISSED"


if __name__ == "__main__":
    raise SystemExit(asyncio.run(main(sys.argv[1:])))
