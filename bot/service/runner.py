"""Where bot decisions are computed: in this process, or off the event loop in a worker process.

A strong bot may search for a tenth of a second or more; run on the event loop, that would
delay every click on every other table. `ProcessPolicyRunner` sends the round (pickled; the
policy reads only the seat's view of it) to a worker process and awaits the answer, so the loop
stays free. `InlinePolicyRunner` decides at once in this process (tests, benchmarks: seeded and
reproducible). Either way `think` reads the round and the generator at once, under the table's
lock, and returns what to await for the move: the service releases the lock while the bot
thinks, so the table may change meanwhile (it drops a move decided for a state gone by).
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import pickle
import random
import threading
from collections.abc import Awaitable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Protocol

from bot.service.policy import policy_for
from games.contract import Game, Round

log = logging.getLogger(__name__)


class PolicyRunner(Protocol):
    def think(
        self, round_: Round[Any, Any, Any], seat: int, level: str, rng: random.Random
    ) -> Awaitable[Any]:
        """Start deciding the bot's action for `seat` at this level: the round and `rng` are
        read now, never after this returns (the round may change while the bot thinks). The
        awaitable gives an action of the round's game."""
        ...

    def close(self) -> None: ...


class InlinePolicyRunner:
    def think(
        self, round_: Round[Any, Any, Any], seat: int, level: str, rng: random.Random
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

    def close(self) -> None:
        pass


PARENT_CHECK_SECONDS = 1.0


def exit_with_parent(parent: int) -> None:
    """In the worker process, at its start: exit once the bot process is gone. A bot killed
    outright (SIGKILL, out of memory) cannot stop its worker, and the worker, holding its own
    end of the work queue, would otherwise wait for work forever."""

    def watch() -> None:
        while os.getppid() == parent:
            threading.Event().wait(PARENT_CHECK_SECONDS)
        os._exit(0)

    threading.Thread(target=watch, name="exit-with-parent", daemon=True).start()


def warm_up() -> None:
    """In the worker process: import every game and its policies, so the first bot move
    after a start does not pay for them."""
    from games.registry import game_names, get_game

    for name in game_names():
        for level in ("simple", "strong"):
            policy_for(get_game(name), level)


def decide(pickled_round: bytes, seat: int, level: str, seed: int) -> str:
    """In the worker process: the action's notation (an action object's identity, which the
    engine relies on, does not survive pickling; its notation does)."""
    round_ = pickle.loads(pickled_round)
    return str(policy_for(round_.game, level).choose(round_, seat, random.Random(seed)))


class ProcessPolicyRunner:
    """One worker process (a second core, when the machine has one) for all tables' bots."""

    def __init__(self, workers: int = 1) -> None:
        self._workers = workers
        self._pool: ProcessPoolExecutor | None = None

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:  # started on first use: a bot-less bot never forks
            context = multiprocessing.get_context("spawn")  # no copy of the loop or sockets
            self._pool = ProcessPoolExecutor(
                self._workers,
                mp_context=context,
                initializer=exit_with_parent,
                initargs=(os.getpid(),),
            )
        return self._pool

    def warm(self) -> None:
        """Start the worker now and have it import the games (a second or more), in the
        background: after a restart, the first click that hands a bot the turn does not wait
        for that."""
        self._executor().submit(warm_up)

    def think(
        self, round_: Round[Any, Any, Any], seat: int, level: str, rng: random.Random
    ) -> Awaitable[Any]:
        # pickled here, not by the pool's feeder thread later: the round may change meanwhile
        pickled = pickle.dumps(round_, pickle.HIGHEST_PROTOCOL)
        seed = rng.getrandbits(64)
        loop = asyncio.get_running_loop()
        try:
            notation = loop.run_in_executor(self._executor(), decide, pickled, seat, level, seed)
        except BrokenProcessPool:  # the pool found its worker dead before this submission
            notation = loop.create_future()
            notation.set_exception(BrokenProcessPool("bot worker process died"))
        return self._answer(notation, round_.game, pickled, seat, level, seed)

    async def _answer(
        self,
        notation: Awaitable[str],
        game: Game[Any, Any, Any],
        pickled: bytes,
        seat: int,
        level: str,
        seed: int,
    ) -> Any:
        try:
            answer = await notation
        except BrokenProcessPool:  # the worker died (killed, out of memory): start a new one
            log.warning("bot worker process died; deciding in this process, new worker next")
            self.close()
            return decide_here(pickled, seat, level, seed)
        return game.parse_action(answer)

    async def choose(
        self, round_: Round[Any, Any, Any], seat: int, level: str, rng: random.Random
    ) -> Any:
        return await self.think(round_, seat, level, rng)

    def close(self) -> None:
        """Stop the worker now. It holds nothing durable, so it is not left to finish a
        decision: a process that exits soon after (a test worker, a restart) without joining
        it would leave it running, orphaned, holding its own end of the work queue."""
        pool, self._pool = self._pool, None
        if pool is None:
            return
        for process in _workers(pool):
            process.terminate()
        pool.shutdown(wait=True, cancel_futures=True)

    def worker_pids(self) -> list[int]:
        """The worker processes running now (none before the first decision)."""
        if self._pool is None:
            return []
        return [p.pid for p in _workers(self._pool) if p.pid is not None]


def decide_here(pickled_round: bytes, seat: int, level: str, seed: int) -> Any:
    """The worker's decision, made in this process (the worker is gone)."""
    round_ = pickle.loads(pickled_round)
    return policy_for(round_.game, level).choose(round_, seat, random.Random(seed))


def _workers(pool: ProcessPoolExecutor) -> list[multiprocessing.process.BaseProcess]:
    """The pool's worker processes (the executor has no public list of them)."""
    return list((pool._processes or {}).values())
