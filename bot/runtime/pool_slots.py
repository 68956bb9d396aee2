"""What the pool of bot workers (`bot.runtime.pool`) keeps: each decision asked, what it knows
each worker keeps for a table, each chore, and each worker's slot."""

from __future__ import annotations

import asyncio
import weakref
from collections import deque
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any

from bot.clock import TimerHandle
from bot.runtime.worker import KEEP, Job, Kept, Worker
from games.contract import Game, Round


@dataclass(eq=False, slots=True)
class Decision:
    job: Job  # without its round: `round` (kept) or `pickled`
    key: Hashable
    game: Game[Any, Any, Any]
    asked: float  # on the pool's clock
    due: float  # the deadline
    future: asyncio.Future[Any]
    round: Round[Any, Any, Any]  # the round asked about (it may move on meanwhile)
    length: int  # its actions when asked: the state decided for
    pickled: bytes | None = None  # not kept by the workers (no table): the round as asked
    token: int = 0  # the number of the round its worker keeps for it, once sent
    timer: TimerHandle | None = None
    slot: Slot | None = None  # the worker it was sent to (deciding it, or to decide it next)


@dataclass(eq=False, slots=True)
class Held:
    """What the pool knows a worker keeps for a table: which round object, by its number,
    at how many actions."""

    round: weakref.ReferenceType[Round[Any, Any, Any]]
    token: int
    length: int


@dataclass(eq=False, slots=True)
class PendingChore:
    job: Job
    future: asyncio.Future[str]
    timer: TimerHandle | None = None  # not taken in time, then not answered in time
    # a person waits for it (a coach's hint): it goes before the bots' next moves, on the
    # first worker free, the last one too
    urgent: bool = False


@dataclass(eq=False, slots=True)
class Slot:
    """One worker of the pool, and what it is doing."""

    worker: Worker | None = None
    ready: bool = False
    sent: deque[Decision] = field(default_factory=deque)  # in order: the first is under way
    began: float = 0.0  # when the first of `sent` began (sent, or its previous one answered)
    stuck: bool = False  # the deadline of the decision under way passed: nothing more is sent
    timer: TimerHandle | None = None  # the start or the stuck watchdog
    chore: PendingChore | None = None  # the chore it is running (never with a decision)
    kept: Kept[Held] = field(default_factory=lambda: Kept(KEEP))  # its rounds, mirrored

    def idle(self) -> bool:
        return self.ready and not self.sent and self.chore is None


def time_share(left: float, others: float) -> float:
    """A decision's share of `left` seconds with the `others` decisions per worker that must
    fit in them too (those sent to its worker before it, and those waiting behind it)."""
    return left / (1.0 + others)


def cancel_timer(timer: TimerHandle | None) -> None:
    if timer is not None:
        timer.cancel()


def worker_pid(slot: Slot) -> int | str:
    pid = slot.worker.pid if slot.worker is not None else None
    return pid if pid is not None else "?"


def settle_future(future: asyncio.Future[Any], choose: Callable[[], Any]) -> None:
    if future.done():
        return
    try:
        future.set_result(choose())
    except Exception as error:  # raised where it is awaited: the follow-up logs it
        future.set_exception(error)
