"""`python -m bot.restart_bench`: how soon a restarted bot answers a click, with a big history.

Builds (once, kept at `--file`) a store holding `--tables` active tables of mixed games (Dutch,
Euchre, Dame de Pique; one player and three bot players each, in the middle of a round) and
about `--history-gb` GB of finished rounds, then starts a fresh process on it that does what
the bot's start does (open the store, list the active tables, load them in the background) and
clicks, as the controller would, on `--clicks` random tables while the rest loads. Prints the
time from the start of the process to each answer, the time to load every table, and the
resident memory. The click is the table service's `act` after `ready` (Discord left out).
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import os
import random
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.service import TableService

STARTED = time.perf_counter()  # the process's start, as near as Python lets us

GAMES = ("dutch", "euchre", "dame")
GUILD = 1


async def build(path: Path, tables: int, history_gb: float) -> None:
    from bot.service import FINISHED, FakeClock, NullNotifier, PlayerRef, TableService
    from storage import Store

    store = await Store.open(path, synchronous="NORMAL", integrity_check_delay=None)
    seeds = itertools.count(1)
    service = TableService(store, FakeClock(), NullNotifier(), lambda: next(seeds))
    rng = random.Random(1)
    started = time.perf_counter()
    # finished matches: the shape of the history
    for n in range(60):
        host = PlayerRef(9_000_000 + n, f"H{n}")
        table_id = (await service.open_table(GUILD, 5, host, "dutch", None, 1)).table_id
        await service.add_bot(table_id, host.user_id)
        await service.start(table_id, host.user_id)
        for _ in range(2_000):
            snapshot = service.public_snapshot(table_id)
            if snapshot.status == FINISHED:
                break
            if snapshot.round_no is None or not snapshot.to_act:
                await service.next_round(table_id, host.user_id)
                continue
            notation = service.bot_choice(table_id, host.user_id, rng)
            assert notation is not None
            await service.act(table_id, host.user_id, snapshot.round_no, notation)
        await service.cancel(table_id, host.user_id)
    for n in range(tables):
        host = PlayerRef(1_000_000 + n, f"P{n}")
        game = GAMES[n % len(GAMES)]
        table_id = (await service.open_table(GUILD, 10 + n % 50, host, game)).table_id
        for _ in range(3):
            await service.add_bot(table_id, host.user_id)
        await service.start(table_id, host.user_id)
        if n % 1000 == 999:
            print(f"  {n + 1} active tables ({time.perf_counter() - started:.0f} s)", flush=True)
    await store.close()
    with sqlite3.connect(path) as raw:  # grow the history by copying finished rounds
        raw.execute("PRAGMA journal_mode = WAL")
        while path.stat().st_size < history_gb * 2**30:
            raw.execute(
                "INSERT INTO rounds (table_id, round_no, match_no, match_round, game, "
                "rules_version, options, n_seats, dealer, totals_before, deck, started_at, "
                "finished_at, points, detail, totals_after, log) "
                "SELECT table_id, round_no + (SELECT MAX(round_no) + 1 FROM rounds), match_no, "
                "match_round, game, rules_version, options, n_seats, dealer, totals_before, deck, "
                "started_at, finished_at, points, detail, totals_after, log FROM rounds "
                "WHERE finished_at IS NOT NULL LIMIT 200000"
            )
            raw.commit()
            raw.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            print(f"  history: {path.stat().st_size / 2**30:.2f} GB", flush=True)


async def measure(path: Path, clicks: int) -> None:
    imported = time.perf_counter()
    from bot.service import NullNotifier, SystemClock, TableService
    from storage import Store

    imports = time.perf_counter() - imported
    opened_at = time.perf_counter()
    store = await Store.open(path)
    opened = time.perf_counter() - opened_at
    service = TableService(store, SystemClock(), NullNotifier(), itertools.count(1).__next__)
    listed_at = time.perf_counter()
    count = await service.start_restore()
    listed = time.perf_counter() - listed_at
    print(
        f"file {path.stat().st_size / 2**30:.2f} GB, {count:,} active tables; imports "
        f"{imports:.2f} s, store open {opened * 1e3:.0f} ms, tables listed {listed * 1e3:.0f} ms"
    )
    try:
        await click_while_loading(service, clicks)
    finally:
        await service.close()
        await store.close()


async def click_while_loading(service: TableService, clicks: int) -> None:
    from bot.service import PLAYING
    from bot.soak import rss_mb

    rng = random.Random(os.getpid())
    targets = rng.sample(service.table_ids(), clicks)
    for table_id in targets:
        clicked = time.perf_counter()
        await service.ready(table_id)
        snapshot = service.public_snapshot(table_id)
        user_id = snapshot.seats[0].user_id
        notation = None
        if snapshot.status == PLAYING and user_id is not None:
            notation = service.bot_choice(table_id, user_id, rng)
        outcome = "played"
        if notation is not None and snapshot.round_no is not None and user_id is not None:
            await service.act(table_id, user_id, snapshot.round_no, notation)
        else:  # an earlier run moved this table on: the click is answered with a refusal
            outcome = "refused (not the player's turn)"
        answered = time.perf_counter()
        print(
            f"  click on table {table_id:>6}: {outcome}, answered "
            f"{(answered - clicked) * 1e3:6.1f} ms after the click, "
            f"{answered - STARTED:5.2f} s after the process started "
            f"({time.process_time():.2f} s of CPU: the figure a busy machine does not inflate)"
        )
    await service.wait_restored()
    print(
        f"every table loaded {time.perf_counter() - STARTED:.1f} s after the start; "
        f"RSS {rss_mb():.0f} MB"
    )


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bot.restart_bench", description=__doc__)
    parser.add_argument("--file", type=Path, default=Path("data/restart-bench.sqlite3"))
    parser.add_argument("--tables", type=int, default=25_000)
    parser.add_argument("--history-gb", type=float, default=1.0)
    parser.add_argument("--clicks", type=int, default=5)
    parser.add_argument("--runs", type=int, default=3, help="fresh processes measured")
    parser.add_argument("--measure", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure:
        asyncio.run(measure(args.file, args.clicks))
        return
    if not args.file.exists():
        args.file.parent.mkdir(parents=True, exist_ok=True)
        print(f"building {args.file} (once): {args.tables:,} tables, {args.history_gb} GB")
        asyncio.run(build(args.file, args.tables, args.history_gb))
    for _ in range(args.runs):
        command = [sys.executable, "-m", "bot.restart_bench", "--measure", "--file"]
        subprocess.run([*command, str(args.file), "--clicks", str(args.clicks)], check=True)


if __name__ == "__main__":
    main()
