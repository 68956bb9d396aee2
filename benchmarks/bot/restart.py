"""`python -m benchmarks.bot.restart`: how soon a restarted bot answers a click, with a big history.

Builds (once, kept at `--file`) a store holding `--tables` active tables of mixed games (every
registered game played by four; one player and three bot players each, in the middle of a round)
and about `--history-gb` GB of finished rounds, then starts a fresh process on it that does what
the bot's start does (open the store, list the active tables, load them in the background, bot
players thinking in a worker process) and clicks as the controller would: once at once (the
first click: the time from the start of the process to its answer), then `--click-rate` clicks
per second (a steady rate, open loop) on random tables, loaded or not yet, during the whole
background load. Prints p50/p99/max of those clicks: the wait for the table to be loaded, the
whole answer (the service's `ready` then `act`, Discord left out; the table's bot players move
after the answer, in the background) and the wait until those bot moves are played (the worker
process is shared by every table; a table restored with bot moves owed refuses the click, not
the human's turn, and plays them first), then the time to load every table and the resident
memory.
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
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from benchmarks.bot.latency import latency_line
from games.registry import game_names, get_game

if TYPE_CHECKING:
    from bot.service import TableService

STARTED = time.perf_counter()  # the process's start, as near as Python lets us

# every registered game four can play (one player, three bots)
GAMES = tuple(n for n in game_names() if get_game(n).min_seats <= 4 <= get_game(n).max_seats)
GUILD = 1


async def build(path: Path, tables: int, history_gb: float, finished: int = 60) -> None:
    from bot.service import FINISHED, FakeClock, NullNotifier, PlayerRef, TableService
    from storage import Store

    store = await Store.open(path, synchronous="NORMAL", integrity_check_delay=None)
    seeds = itertools.count(1)
    service = TableService(store, FakeClock(), NullNotifier(), lambda: next(seeds))
    rng = random.Random(1)
    started = time.perf_counter()
    # finished matches: the shape of the history
    for n in range(finished):
        host = PlayerRef(9_000_000 + n, f"H{n}")
        table_id = (await service.seating.open_table(GUILD, 5, host, "dutch", None, 1)).table_id
        await service.seating.add_bot(table_id, host.user_id)
        await service.seating.start(table_id, host.user_id)
        for _ in range(2_000):
            snapshot = service.public_snapshot(table_id)
            if snapshot.status == FINISHED:
                break
            if snapshot.round_no is None or not snapshot.to_act:
                await service.play.next_round(table_id, host.user_id)
                continue
            notation = service.bot_choice(table_id, host.user_id, rng)
            if notation is None:  # the bots move after a click, in the background
                await service.followup.settle(table_id)
                continue
            await service.play.act(table_id, host.user_id, snapshot.round_no, notation)
        await service.seating.cancel(table_id, host.user_id)
    for n in range(tables):
        host = PlayerRef(1_000_000 + n, f"P{n}")
        game = GAMES[n % len(GAMES)]
        table_id = (await service.seating.open_table(GUILD, 10 + n % 50, host, game)).table_id
        for _ in range(3):
            await service.seating.add_bot(table_id, host.user_id)
        await service.seating.start(table_id, host.user_id)
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


async def measure(path: Path, rate: float) -> None:
    imported = time.perf_counter()
    from bot.runtime.runner import ProcessPolicyRunner
    from bot.service import NullNotifier, SystemClock, TableService
    from storage import Store

    imports = time.perf_counter() - imported
    opened_at = time.perf_counter()
    store = await Store.open(path)
    opened = time.perf_counter() - opened_at
    runner = ProcessPolicyRunner()  # as the bot: bot players think in a worker process
    service = TableService(
        store, SystemClock(), NullNotifier(), itertools.count(1).__next__, policy_runner=runner
    )
    listed_at = time.perf_counter()
    count = await service.restoring.start()
    listed = time.perf_counter() - listed_at
    print(
        f"file {path.stat().st_size / 2**30:.2f} GB, {count:,} active tables; imports "
        f"{imports:.2f} s, store open {opened * 1e3:.0f} ms, tables listed {listed * 1e3:.0f} ms"
    )
    try:
        await click_while_loading(service, rate)
    finally:
        await service.close()
        await store.close()
        runner.close()


@dataclass
class Clicks:
    loads: list[float] = field(default_factory=list)  # waiting for the table to be loaded
    answers: list[float] = field(default_factory=list)  # from the click to its answer
    follows: list[float] = field(default_factory=list)  # from the click to the bots' moves
    not_loaded: int = 0  # clicks on a table the background load had not reached yet
    refused: int = 0


async def click(service: TableService, table_id: int, rng: random.Random, clicks: Clicks) -> float:
    """One click as the controller makes it: `ready`, then `act` (or a refusal)."""
    from bot.service import PLAYING, TableError

    clicked = time.perf_counter()
    if not service.loaded(table_id):
        clicks.not_loaded += 1
    try:
        await service.restoring.ready(table_id)
        clicks.loads.append(time.perf_counter() - clicked)
        snapshot = service.public_snapshot(table_id)
    except TableError:  # found broken at its load: the click is answered with a refusal
        clicks.refused += 1
        clicks.answers.append(time.perf_counter() - clicked)
        return time.perf_counter()
    user_id = snapshot.seats[0].user_id
    notation = None
    if snapshot.status == PLAYING and user_id is not None:
        notation = service.bot_choice(table_id, user_id, rng)
    if notation is not None and snapshot.round_no is not None and user_id is not None:
        try:
            await service.play.act(table_id, user_id, snapshot.round_no, notation)
        except TableError:
            clicks.refused += 1
            notation = None
    else:  # an earlier run moved this table on: the click is answered with a refusal
        clicks.refused += 1
    answered = time.perf_counter()
    clicks.answers.append(answered - clicked)
    if notation is not None or service.followup.pending(table_id):
        # the bot players' moves that follow the click, or that a table restored with moves
        # owed plays first (refusing the click meanwhile, as it is not the human's turn)
        await service.followup.settle(table_id)
        clicks.follows.append(time.perf_counter() - clicked)
    return answered


async def click_while_loading(service: TableService, rate: float) -> None:
    """A click at once, then `rate` clicks per second on random tables (open loop: a slow
    answer does not hold the next click back) until the background load is done."""
    from benchmarks.bot.soak import rss_mb

    rng = random.Random(os.getpid())
    targets = service.table_ids()
    rng.shuffle(targets)
    first = Clicks()
    answered = await click(service, targets.pop(), rng, first)
    print(
        f"first click answered {answered - STARTED:.2f} s after the process started "
        f"({first.answers[0] * 1e3:.0f} ms after the click; {time.process_time():.2f} s of "
        f"CPU so far: the figure a busy machine does not inflate)"
    )
    restored = asyncio.ensure_future(service.restoring.wait())
    clicks = Clicks()
    pending: set[asyncio.Task[float]] = set()
    started = time.perf_counter()
    issued = 0
    while not restored.done() and targets:
        due = started + issued / rate
        await asyncio.wait([restored], timeout=max(0.0, due - time.perf_counter()))
        if restored.done():
            break
        issued += 1
        task = asyncio.ensure_future(click(service, targets.pop(), rng, clicks))
        pending.add(task)
        task.add_done_callback(pending.discard)
    await restored
    await asyncio.gather(*pending)
    print(
        f"every table loaded {time.perf_counter() - STARTED:.1f} s after the start; "
        f"RSS {rss_mb():.0f} MB"
    )
    print(
        f"{len(clicks.answers)} clicks during the background load ({rate:g}/s, "
        f"{clicks.not_loaded} on tables not loaded yet, {clicks.refused} refused):"
    )
    for name, values in (
        ("waiting for the table", clicks.loads),
        ("answer", clicks.answers),
        ("bots moved", clicks.follows),
    ):
        if values:
            print(latency_line(name, values, 22))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.bot.restart", description=__doc__)
    parser.add_argument("--file", type=Path, default=Path("data/restart-bench.sqlite3"))
    parser.add_argument("--tables", type=int, default=25_000)
    parser.add_argument("--history-gb", type=float, default=1.0)
    parser.add_argument(
        "--click-rate",
        type=float,
        default=2.0,
        help="clicks/s during the background load (each hands three strong bots the turn: "
        "their moves, in one worker process, follow every click's answer)",
    )
    parser.add_argument("--runs", type=int, default=3, help="fresh processes measured")
    parser.add_argument("--measure", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument(
        "--short",
        action="store_true",
        help="a few tables and no history, built in a temporary file, measured once (the suite)",
    )
    args = parser.parse_args(argv)
    if args.measure:
        asyncio.run(measure(args.file, args.click_rate))
        return
    if args.short:
        with tempfile.TemporaryDirectory() as directory:
            path = Path(directory) / "restart-bench.sqlite3"
            asyncio.run(build(path, 8, 0.0, finished=2))
            _measure_in_fresh_processes(path, args.click_rate, 1)
        return
    if not args.file.exists():
        args.file.parent.mkdir(parents=True, exist_ok=True)
        print(f"building {args.file} (once): {args.tables:,} tables, {args.history_gb} GB")
        asyncio.run(build(args.file, args.tables, args.history_gb))
    _measure_in_fresh_processes(args.file, args.click_rate, args.runs)


def _measure_in_fresh_processes(path: Path, click_rate: float, runs: int) -> None:
    for _ in range(runs):
        command = [sys.executable, "-m", "benchmarks.bot.restart", "--measure", "--file"]
        subprocess.run([*command, str(path), "--click-rate", str(click_rate)], check=True)


if __name__ == "__main__":
    main()
