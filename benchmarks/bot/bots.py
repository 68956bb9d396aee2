"""`python -m benchmarks.bot.bots`: how long a human waits for their click at tables of bot players.

Opens `--tables` Euchre tables of one human and three bot players (`--bots` level, strong by
default) on a real store in a temporary directory, the bot players thinking in a worker
process as in the real bot, and plays `--clicks` clicks of the human (the simple policy's
choice), one table after another. For each click it prints p50/p99/max of the answer (the
service's `act`: what the human sees, Discord left out) and of the wait until the bot players'
moves that follow it are played (the next time the human may click).

Run it pinned to one core for figures comparable across machines, e.g.
`taskset -c 0 python -m benchmarks.bot.bots` (the worker process shares that core then).
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import random
import tempfile
import time
from pathlib import Path

from benchmarks.bot.latency import latency_line
from bot.runtime.runner import ProcessPolicyRunner
from bot.service import (
    FINISHED,
    PLAYING,
    ROUND_OVER,
    NullNotifier,
    PlayerRef,
    SystemClock,
    TableService,
)
from storage import Store

GAME = "euchre"
GUILD = 1


async def settled(service: TableService, table_id: int) -> None:
    """The bot players' moves that follow a click are played."""
    await service.followup.settle(table_id)


async def open_tables(service: TableService, count: int, bots: str) -> list[int]:
    ids = []
    for n in range(count):
        host = PlayerRef(1_000 + n, f"P{n}")
        table_id = (await service.seating.open_table(GUILD, 10 + n, host, GAME, bots=bots)).table_id
        for _ in range(3):
            await service.seating.add_bot(table_id, host.user_id)
        await service.seating.start(table_id, host.user_id)
        ids.append(table_id)
    return ids


async def human_turn(service: TableService, table_id: int, user_id: int) -> int:
    """Wait for the bots, start the next round or match if need be: the round number once the
    human may click."""
    for _ in range(100):
        await settled(service, table_id)
        snapshot = service.public_snapshot(table_id)
        if snapshot.status == ROUND_OVER:
            await service.play.next_round(table_id, user_id)
        elif snapshot.status == FINISHED:
            await service.seating.rematch(table_id, user_id)
            await service.seating.start(table_id, user_id)
        elif snapshot.status == PLAYING and snapshot.round_no is not None:
            return snapshot.round_no
    raise RuntimeError(f"table {table_id}: the human never got the turn")


async def run(clicks: int, tables: int, bots: str) -> None:
    with tempfile.TemporaryDirectory() as directory:
        store = await Store.open(Path(directory) / "bots.sqlite3")
        runner = ProcessPolicyRunner()
        seeds = itertools.count(1)
        service = TableService(
            store, SystemClock(), NullNotifier(), lambda: next(seeds), policy_runner=runner
        )
        try:
            ids = await open_tables(service, tables, bots)
            rng = random.Random(1)
            answers: list[float] = []
            follows: list[float] = []
            for table_id in itertools.islice(itertools.cycle(ids), clicks + tables):
                user_id = service.public_snapshot(table_id).seats[0].user_id
                assert user_id is not None
                round_no = await human_turn(service, table_id, user_id)
                notation = service.bot_choice(table_id, user_id, rng)
                if notation is None:
                    continue
                clicked = time.perf_counter()
                await service.play.act(table_id, user_id, round_no, notation)
                answered = time.perf_counter()
                await settled(service, table_id)
                answers.append(answered - clicked)
                follows.append(time.perf_counter() - clicked)
            # the first click of each table waited for the worker's start: left out
            answers, follows = answers[tables:], follows[tables:]
        finally:
            await service.close()
            await store.close()
            runner.close()
    print(f"{len(answers)} clicks at {tables} {GAME} table(s) of one human and three {bots} bots")
    for name, values in (("click answered", answers), ("bots moved", follows)):
        print(latency_line(name, values, 16))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.bot.bots", description=__doc__)
    parser.add_argument("--clicks", type=int, default=200)
    parser.add_argument("--tables", type=int, default=1)
    parser.add_argument("--bots", choices=("simple", "strong"), default="strong")
    parser.add_argument("--short", action="store_true", help="a moment's run (the test suite's)")
    args = parser.parse_args(argv)
    if args.short:
        args.clicks, args.tables = 3, 1
    asyncio.run(run(args.clicks, args.tables, args.bots))


if __name__ == "__main__":
    main()
