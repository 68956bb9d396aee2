"""`python -m tests.bot.e2e.faults [--seconds 60] [--only NAME ...]`: every fault injected
into the bot under test for `--seconds` each (a minute by default), then the fault table, in
Markdown: how long it held, the clicks made meanwhile, how many were answered within 3 s and
refused in one sentence, acknowledged moves lost, hidden cards shown, seconds to recover."""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
import tempfile
from pathlib import Path

from bot.local.server import running_local_discord
from tests.bot.e2e.faults.postgres import available as postgres_available
from tests.bot.e2e.faults.run import FaultRow
from tests.bot.e2e.faults.scenarios import SCENARIOS
from tests.bot.e2e.faults.shards import shard_stopped
from tests.bot.e2e.harness import BotUnderTest

HEADER = (
    "| fault | held (s) | clicks during | answered ≤ 3 s | refused in one sentence "
    "| acknowledged moves lost | hidden cards shown | recovered in (s) | notes |"
)


def table(rows: list[FaultRow]) -> str:
    lines = [HEADER, "|" + "---|" * 9]
    for row in rows:
        delivered = row.clicks - row.undelivered
        answered = f"{row.answered} of {delivered}"
        if row.deferred:
            answered += f" ({row.deferred} by “thinking…” first)"
        if row.undelivered:
            answered += f" ({row.undelivered} never delivered)"
        recovery = "never" if row.recovery is None else f"{row.recovery:.1f}"
        missed = row.targets_missed()
        notes = "; ".join([*missed, *row.notes]) if missed else "; ".join(row.notes)
        cells = (
            row.fault,
            f"{row.seconds:.0f}",
            str(row.clicks),
            answered,
            str(row.refused),
            str(row.lost),
            str(row.leaks),
            recovery,
            notes,
        )
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


async def run_all(names: list[str], seconds: float) -> list[FaultRow]:
    rows: list[FaultRow] = []
    for name in names:
        if name.startswith("postgres") and not postgres_available():
            print(f"{name}: skipped, no PostgreSQL binaries", file=sys.stderr)
            continue
        with tempfile.TemporaryDirectory(prefix="cardtable-fault-") as folder:
            async with running_local_discord() as fake:
                harness = BotUnderTest(fake, Path(folder) / "cardtable.sqlite3")
                row = await SCENARIOS[name](harness, seconds)
        print(f"{name}: {row}", file=sys.stderr, flush=True)
        rows.append(row)
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.bot.e2e.faults")
    parser.add_argument("--seconds", type=float, default=60.0, help="each fault's duration")
    parser.add_argument("--only", nargs="*", choices=sorted(SCENARIOS), default=None)
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.ERROR, format="%(levelname)s %(name)s: %(message)s")
    rows = asyncio.run(run_all(args.only or list(SCENARIOS), args.seconds))
    if args.only is None and postgres_available():
        rows.append(asyncio.run(shard_stopped(args.seconds)))
    print(table(rows))
    return 0 if all(not r.targets_missed() for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
