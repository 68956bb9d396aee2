"""Where bot decisions are computed: in this process, or off the event loop in worker processes.

A strong bot may search for a tenth of a second or more; run on the event loop, that would
delay every click on every other table. `ProcessPolicyRunner` sends the round (whole once per
table and worker, then the actions played since: `bot.runtime.worker`; the policy reads only
the seat's view of it) to a pool of worker processes and awaits the answer,
so the loop stays free; the pool (`bot.runtime.pool`) shares its workers fairly between
tables, gives every decision a deadline, replaces a worker that dies or hangs, and plays the
simple policy's move when a decision cannot come in time. `InlinePolicyRunner` decides at once
in this process (tests, benchmarks: seeded and reproducible). Either way `think` reads the
round and the generator at once, under the table's lock, and returns what to await for the
move: the service releases the lock while the bot thinks, so the table may change meanwhile
(it drops a move decided for a state gone by).

Either runs other work too (`chore`: a review's pieces), after the bots' moves.
"""

from __future__ import annotations

import asyncio
import os
import pickle
import random
import threading
from collections.abc import Awaitable, Hashable
from typing import Any, Protocol

from bot.clock import Clock, SystemClock
from bot.runtime.policy import policy_for
from bot.runtime.pool import DECISION_SECONDS, HANG_SECONDS, DecisionPool
from bot.runtime.pool_terms import PoolObserver
from bot.runtime.worker import (
    KEEP,
    Decide,
    ProcessWorker,
    WorkerEvents,
    choose_from,
    decide,
    run_chore,
    start_fork_server,
    warm_fork_server,
)
from games.contract import Round


class PolicyRunner(Protocol):
    def think(
        self,
        round_: Round[Any, Any, Any],
        seat: int,
        level: str,
        rng: random.Random,
        *,
        table: Hashable | None = None,
    ) -> Awaitable[Any]:
        """Start deciding the bot's action for `seat` at this level: the round and `rng` are
        read now, never after this returns (the round may change while the bot thinks). The
        awaitable gives an action of the round's game. `table` (its id) is whose decision it
        is: a runner shares its workers fairly between tables."""
        ...

    def chore(self, task: Any, budget: float | None, *, urgent: bool = False) -> Awaitable[str]:
        """Run `task.run(budget)` (a picklable object) where bot decisions run, after the bots'
        moves waiting (`urgent`: a person waits for it, among them, yielding to the late ones):
        its result as JSON text, or `bot.runtime.pool.ChoreFailed`."""
        ...

    def close(self) -> None: ...


class InlinePolicyRunner:
    def think(
        self,
        round_: Round[Any, Any, Any],
        seat: int,
        level: str,
        rng: random.Random,
        *,
        table: Hashable | None = None,
    ) -> Awaitable[Any]:
        decided: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        try:
            decided.set_result(policy_for(round_.game, level).choose(round_, seat, rng))
        except Exception as error:  # raised where it is awaited, like a worker's error
            decided.set_exception(error)
        return decided

    async def choose(
        self, round_: Round[Any, Any, Any], seat: int, level: str, rng: random.Random
    ) -> Any:
        return await self.think(round_, seat, level, rng)

    def chore(self, task: Any, budget: float | None, *, urgent: bool = False) -> Awaitable[str]:
        """Run at once, in this process (tests, benchmarks), as a worker would."""
        done: asyncio.Future[str] = asyncio.get_running_loop().create_future()
        try:
            done.set_result(run_chore(pickle.dumps(task, pickle.HIGHEST_PROTOCOL), budget))
        except Exception as error:
            done.set_exception(error)
        return done

    def prepare(self) -> threading.Thread:
        """Warm the workers' fork server in a thread of its own (see `warm_fork_server`), so
        the first bot's move does not hold up the event loop; returns the thread."""
        start_fork_server()  # deaf to Ctrl-C, so started here, in the main thread
        thread = threading.Thread(target=warm_fork_server, name="bot-workers-warm", daemon=True)
        thread.start()
        return thread

    def close(self) -> None:
        pass


def default_workers() -> int:
    """Worker processes for this machine: its cores (those this process may use) but one,
    which the event loop keeps; at least one."""
    return max(1, len(os.sched_getaffinity(0)) - 1)


class ProcessPolicyRunner(DecisionPool):
    """A pool of worker processes (`BOT_WORKERS`, by default `default_workers()`) for every
    table's bots, with the pool's deadline, fairness and fallbacks (`bot.runtime.pool`)."""

    def __init__(
        self,
        workers: int | None = None,
        *,
        clock: Clock | None = None,
        decider: Decide = decide,
        deadline: float = DECISION_SECONDS,
        hang: float = HANG_SECONDS,
        keep: int = KEEP,
        observer: PoolObserver | None = None,
    ) -> None:
        def start(events: WorkerEvents) -> ProcessWorker:
            return ProcessWorker(events, decider, keep)

        super().__init__(
            workers or default_workers(),
            start,
            clock or SystemClock(),
            deadline=deadline,
            hang=hang,
            keep=keep,
            observer=observer,
        )

    async def choose(
        self, round_: Round[Any, Any, Any], seat: int, level: str, rng: random.Random
    ) -> Any:
        return await self.think(round_, seat, level, rng)

    def prepare(self) -> threading.Thread:
        """Warm the workers' fork server in a thread of its own (see `warm_fork_server`), so
        the first bot's move does not hold up the event loop; returns the thread."""
        start_fork_server()  # deaf to Ctrl-C, so started here, in the main thread
        thread = threading.Thread(target=warm_fork_server, name="bot-workers-warm", daemon=True)
        thread.start()
        return thread


def decide_here(pickled_round: bytes, seat: int, level: str, seed: int) -> Any:
    """The worker's decision, made in this process."""
    return choose_from(pickled_round, seat, level, seed)
