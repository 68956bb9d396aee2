"""What the pool of bot workers (`bot.runtime.pool`) keeps.

It keeps each decision asked, what it knows each worker keeps for a table, each chore, and each
worker's slot; and the moves it plays in this process (a heuristic's, or the simple policy's
when a decision falls back)."""

from __future__ import annotations

import asyncio
import logging
import random
import weakref
from collections import deque
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any

from bot.clock import TimerHandle
from bot.runtime.policy import SeatPolicy, policy_for
from bot.runtime.pool_terms import Stale
from bot.runtime.worker import KEEP, Answer, Job, Kept, Worker, choose_from
from games.contract import Game, Round

log = logging.getLogger("bot.runtime.pool")

ANSWER_MARGIN = 0.05  # of a decision's time, kept for sending the round and the answer


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
    # a person waits for it (a coach's hint): it is sent among the bot decisions, in a
    # worker's pipeline, before the decisions waiting unless one is near its deadline
    urgent: bool = False
    asked: float = 0.0  # on the pool's clock (an urgent chore waits a deadline at most)


@dataclass(eq=False, slots=True)
class Slot:
    """One worker of the pool, and what it is doing."""

    worker: Worker | None = None
    ready: bool = False
    # in order, the first under way: bot decisions, and urgent chores among them (hints)
    sent: deque[Decision | PendingChore] = field(default_factory=deque)
    began: float = 0.0  # when the first of `sent` began (sent, or its previous one answered)
    stuck: bool = False  # the deadline of the decision under way passed: nothing more is sent
    timer: TimerHandle | None = None  # the start or the stuck watchdog
    chore: PendingChore | None = None  # the chore it is running (never with a decision)
    hints: int = 0  # urgent chores among `sent`
    kept: Kept[Held] = field(default_factory=lambda: Kept(KEEP))  # its rounds, mirrored

    def idle(self) -> bool:
        return self.ready and not self.sent and self.chore is None


class SlotEvents:
    """What one slot's worker reports (`WorkerEvents`), handed to the pool's handlers with
    the slot."""

    __slots__ = ("_answered", "_lost", "_ready", "_slot")

    def __init__(
        self,
        slot: Slot,
        ready: Callable[[Slot], None],
        answered: Callable[[Slot, Answer], None],
        lost: Callable[[Slot, str], None],
    ) -> None:
        self._slot = slot
        self._ready, self._answered, self._lost = ready, answered, lost

    def ready(self) -> None:
        self._ready(self._slot)

    def answered(self, answer: Answer) -> None:
        self._answered(self._slot, answer)

    def lost(self, reason: str) -> None:
        self._lost(self._slot, reason)


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


def decided_here(policy: SeatPolicy, round_: Round[Any, Any, Any], seat: int, seed: int) -> Any:
    """A heuristic's move, as a worker would decide it; the simple policy's if it fails."""
    try:
        return policy.choose(round_, seat, random.Random(seed))
    except Exception:
        log.exception("%s bot failed for seat %s; played simply", round_.game.name, seat)
        return simple_move(round_, seat, seed)


def as_asked(decision: Decision) -> Any:
    """The simple policy's move for the state the decision was asked for: the round as
    pickled then (not kept), or the round itself if it has not moved on; else `Stale`."""
    job = decision.job
    if decision.pickled is not None:
        return choose_from(decision.pickled, job.seat, "simple", job.seed)
    if len(decision.round.history) != decision.length:
        raise Stale(decision.key)  # a rollback makes a new round: the same one only grows
    return simple_move(decision.round, job.seat, job.seed)


def simple_move(round_: Round[Any, Any, Any], seat: int, seed: int) -> Any:
    """The simple policy's move (the pool's fallback)."""
    return policy_for(round_.game, "simple").choose(round_, seat, random.Random(seed))
