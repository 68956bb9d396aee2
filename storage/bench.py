"""`python -m storage.bench`: durable actions per second and record_action latency with 1, 50
and 500 tables writing at once, then the time to rebuild 1,000 active tables.

Numbers, not assertions (targets: >= 2,000 actions/s and p99 < 20 ms at 500 tables; 1,000
tables loaded in < 3 s). The load part replays real Dutch rounds (games.dutch); without that
engine it says so and measures the writes only.
Options: --seconds S (per write run, default 3), --synchronous FULL|NORMAL (default FULL).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from games.contract import Game, Round, RoundRecord
from games.match import Match
from storage.models import SeatRecord
from storage.store import Store

WRITE_TABLES = (1, 50, 500)
LOAD_TABLES = 1000
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
    played = []
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


@dataclass(frozen=True)
class WriteResult:
    n_tables: int
    rate: float  # durable actions per second
    p50_ms: float
    p99_ms: float
    line: str


async def bench_writes(
    n_tables: int, seconds: float, synchronous: str, workdir: Path
) -> WriteResult:
    path = workdir / f"writes_{n_tables}.sqlite3"
    store = await Store.open(path, synchronous=synchronous)  # type: ignore[arg-type]
    deck = [f"c{i}" for i in range(52)]  # the write path never replays: any deck text will do
    table_ids = []
    for index in range(n_tables):
        table_id = await open_table(store, "bench", index)
        await store.start_round(
            table_id,
            RoundRecord(
                game="bench", rules_version=1, options={}, n_seats=SEATS, dealer=0, deck=deck
            ),
        )
        table_ids.append(table_id)
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


async def bench_load(game: Game[Any, Any, Any], workdir: Path) -> tuple[float, str]:
    path = workdir / "load.sqlite3"
    rng = random.Random(2026)
    store = await Store.open(path)
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

    await asyncio.gather(*(fill(index) for index in range(LOAD_TABLES)))
    await store.close()

    began = time.perf_counter()
    store = await Store.open(path)
    opened = time.perf_counter()
    loaded = await store.load_active_tables()
    done = time.perf_counter()
    await store.close()
    return done - opened, (
        f"load {len(loaded.tables):,} active {game.title} tables ({n_actions:,} actions replayed, "
        f"{len(loaded.broken)} broken): {done - opened:.2f} s "
        f"(+ {opened - began:.2f} s to open and check the file)"
    )


def _played(round_: Round[Any, Any, Any], rng: random.Random) -> list[tuple[int, str]]:
    """Play a round to its end (Dutch allowed after a while) and return its actions."""
    play_some(round_, rng, 30)
    while not round_.finished:
        seat = round_.to_act()[0]
        round_.apply(seat, rng.choice(round_.legal_actions(seat)))
    return round_.record().actions


async def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m storage.bench")
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--synchronous", choices=("FULL", "NORMAL"), default="FULL")
    args = parser.parse_args(argv)
    print(f"storage benchmark: SQLite WAL, synchronous={args.synchronous}, group commit")
    with tempfile.TemporaryDirectory(prefix="storage-bench-") as tmp:
        workdir = Path(tmp)
        for n_tables in WRITE_TABLES:
            result = await bench_writes(n_tables, args.seconds, args.synchronous, workdir)
            print(result.line, flush=True)
        game = dutch()
        if game is None:
            print("load: skipped, games.dutch is not available (no engine to replay rounds with)")
            load_s = None
        else:
            load_s, line = await bench_load(game, workdir)
            print(line, flush=True)
    load_verdict = "not measured" if load_s is None else _verdict(load_s < TARGET_LOAD_S)
    print(
        f"targets: >= {TARGET_RATE:,} actions/s at 500 tables: "
        f"{_verdict(result.rate >= TARGET_RATE)}; p99 < {TARGET_P99_MS:.0f} ms at 500 tables: "
        f"{_verdict(result.p99_ms < TARGET_P99_MS)}; 1,000 tables loaded in < "
        f"{TARGET_LOAD_S:.0f} s: {load_verdict}"
    )
    return 0


def _verdict(met: bool) -> str:
    return "met" if met else "MISSED"


if __name__ == "__main__":
    raise SystemExit(asyncio.run(main(sys.argv[1:])))
