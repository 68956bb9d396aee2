"""The coach's hints in `python -m benchmarks.bot --hints SHARE`.

The tables of bots are coached and their human asks the hint before that share of their moves,
timed from asking to its answer (the worker's search and its wait for the worker included)."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from bot.runtime.pool_terms import ChoreFailed
from bot.service import TableError

if TYPE_CHECKING:
    from benchmarks.bot.clicks import Bench

HINTS_HELP = (
    "the tables of bots are coached and their human asks the coach's hint before this share "
    "of their moves (1: every move); the hints' p50/p99 are printed, the clicks' show what "
    "hints cost them"
)


async def ask_hint(
    bench: Bench, table_id: int, game: str, user_id: int, round_no: int | None
) -> None:
    """The hint before a click, timed; a refusal (the turn gone by meanwhile) is counted."""
    asked = time.perf_counter()
    try:
        await bench.service.hint(table_id, user_id, round_no or 0)
    except (TableError, ChoreFailed):
        bench.hint_refusals += 1
        return
    if bench.measured(asked):
        bench.hint_times.setdefault(game, []).append(time.perf_counter() - asked)
