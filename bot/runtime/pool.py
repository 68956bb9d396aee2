"""A pool of bot workers: every table's bot decisions, scheduled fairly, each with a deadline.

Bot players must never hold up the clicks, nor one busy table another table's bots. So a
search runs in a worker process (`bot.runtime.worker`), the tables take turns, and every
decision ends in time: answered by a worker, or played by the simple policy once its deadline
passes or its worker fails. Under load the searches shrink rather than the queue growing. How
is told on `DecisionPool`; the package's rules are in bot/runtime/README.md.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import pickle
import random
import weakref
from collections import deque
from collections.abc import Callable, Hashable
from typing import Any

from bot.clock import Clock, TimerHandle
from bot.runtime.policy import policy_for
from bot.runtime.pool_hints import HINT_WAIT, HINTS_SENT, HintLine
from bot.runtime.pool_slots import (
    ANSWER_MARGIN,
    Decision,
    Held,
    PendingChore,
    Slot,
    SlotEvents,
    as_asked,
    cancel_timer,
    decided_here,
    settle_future,
    simple_move,
    time_share,
    worker_pid,
)
from bot.runtime.pool_terms import (
    DEADLINE,
    ERROR,
    FORCED,
    GARBAGE,
    HERE,
    HUNG,
    MISFIT,
    OVERLOAD,
    SEARCHED,
    TIMED_OUT,
    ChoreFailed,
    PoolObserver,
    PoolStats,
    Stale,
)
from bot.runtime.worker import (
    CHORE,
    KEEP,
    MIN_BUDGET,
    Answer,
    Job,
    Kept,
    Worker,
    WorkerEvents,
)
from games.contract import Round

log = logging.getLogger(__name__)

WorkerFactory = Callable[[WorkerEvents], Worker]

DECISION_SECONDS = 1.0  # asked -> answered, at most; then the simple policy plays
HANG_SECONDS = 5.0  # a worker still on one decision this long after taking it is replaced
START_SECONDS = 60.0  # a worker not ready this long after its start is replaced
PIPELINE = 16  # decisions sent to a worker at most before it answers (DecisionPool)
AIM_SECONDS = 0.25  # asked -> answered, aimed at: the budgets share this (DecisionPool)
RETIRED = 32  # killed workers kept to be reaped at close (older ones are long gone)
RESTART_BACKOFF = (0.0, 1.0, 2.0, 5.0, 10.0, 30.0)  # before restarting a worker that failed
CHORE_WAIT = 300.0  # a chore no worker took this long after it was asked fails


class DecisionPool:
    """`workers` workers made by `factory`, started on first use (or `warm()`).

    - **Several decisions in flight per worker.** A worker is sent up to `PIPELINE` decisions
      before it answers: they wait in its socket, in order, so it begins the next at once instead
      of waiting for this process's event loop to read its answer (a shallower pipeline left the
      workers idle on a loaded machine: docs/performance.md). Decisions go to the worker with the
      fewest sent (of those, one that keeps the table's round), never to one running a chore or
      taken for stuck.
    - **Fair by table.** Decisions wait in one queue per table, and the queues take turns: a
      table with many decisions waiting (a restart, a bug) never delays another table's bots by
      more than the decisions already sent (`PIPELINE` per worker) and one more.
    - **A deadline per decision** (`DECISION_SECONDS`, well under the shortest turn): a decision
      not answered by then, wherever it is, is played by the simple policy here, from the round
      as it was when asked (if the round moved on, it ends `Stale`, which the follow-up drops
      quietly). A worker that dies (even mid-answer) or answers garbage is replaced at once and
      its decisions played the same way. A worker past a decision's deadline is sent nothing more
      until it answers; still on it `HANG_SECONDS` after it began, it is killed and replaced.
    - **Nothing to decide, nothing to send.** A seat with one legal move (in a game whose list of
      moves is complete) plays it at once. A policy that does not search (a heuristic: every
      simple bot, and the strong bots that are one) decides here, at once (cheaper than a
      worker's round trip: docs/performance.md), not behind searches in a worker's queue.
    - **Only what changed is sent.** The pool mirrors the rounds each worker keeps (`Slot.kept`:
      the round object, by weak reference, its number and its actions): a decision goes with the
      actions played since the worker's copy, or with the whole round when the worker keeps no
      copy of that very object (`bot.runtime.worker`). Its round is read when it is sent, up to
      its actions when asked (they only grow); one that must go whole but has moved on ends
      `Stale`. No round is pickled when asked.
    - **Under overload the budget shrinks with the queue, the queue does not grow.** A decision
      aims to be answered `AIM_SECONDS` after it was asked, so that a click followed by three
      bots' moves is played out within a second. Its search budget is its share of the time left
      before that aim with the decisions sent to its worker before it and those waiting behind it
      in the pool; `MIN_BUDGET` at least, never more than the policy's own budget (a cap: a
      sequential search stops sooner when its choice is clear). The job also carries its time
      left before its deadline (`Job.left`), which the worker heeds (`Job.budget_at`). The simple
      policy plays at once when even a minimal search could not fit (more than `DECISION_SECONDS
      / MIN_BUDGET` decisions per worker), or every worker is stuck.
    - **Chores come after moves.** Other work (a review's pieces: `chore`) waits in a queue of
      its own, taken only when no decision waits, by a worker with no decision sent, never by the
      last such worker of a pool of more than one, with a short time budget (a decision asked
      meanwhile waits that long at most). A chore no worker took within `CHORE_WAIT`, still
      running `hang` seconds past its budget (its worker is replaced), or whose worker died, fails
      with `ChoreFailed`.
    - **Hints go among the moves** (`bot.runtime.pool_hints`): an urgent chore (a coach's hint)
      joins a worker's pipeline before the decisions waiting, unless one is near its deadline.

    Every fallback is counted by reason (`PoolStats.fallbacks`, `pool_terms`). Workers come from
    a factory (`bot.runtime.worker.ProcessWorker` for the bot; tests give their own): the pool is
    plain asyncio on the service's clock. Each bot process (shard) has its own pool.
    """

    def __init__(
        self,
        workers: int,
        factory: WorkerFactory,
        clock: Clock,
        *,
        deadline: float = DECISION_SECONDS,
        hang: float = HANG_SECONDS,
        pipeline: int = PIPELINE,
        aim: float = AIM_SECONDS,
        keep: int = KEEP,
        hints: int = HINTS_SENT,
        hint_wait: float = HINT_WAIT,
        observer: PoolObserver | None = None,
    ) -> None:
        if workers < 1 or pipeline < 1:
            raise ValueError("a pool needs at least one worker, sent one decision at a time")
        self.size = workers
        self.deadline = deadline
        self.hang = hang
        self.pipeline = pipeline
        self.aim = aim
        self.keep = keep  # rounds a worker keeps, by table (the workers' own bound)
        self.stats = PoolStats()
        self._factory = factory
        self._clock = clock
        self._slots: list[Slot] = []
        self._retired: deque[Worker] = deque(maxlen=RETIRED)  # killed, reaped at close
        self._restarts: list[TimerHandle] = []
        self._failures = 0  # workers in a row that were lost before they were ready
        self._queues: dict[Hashable, deque[Decision]] = {}  # in turn order
        self._waiting = 0  # decisions in the queues
        self._ids = 0
        self._observer = observer
        self._able: list[asyncio.Future[None]] = []  # `ping`s waiting for an able worker
        self._chores: deque[PendingChore] = deque()  # waiting for a worker no decision needs
        self._hint_line = HintLine(hints, hint_wait)  # urgent chores, waiting to be sent
        self._hints = self._hint_line.waiting
        self._tokens = 0  # the last number given to a round sent whole

    # -- asking -----------------------------------------------------------------------
    def warm(self) -> None:
        """Start the workers now (they import the games: a second or more)."""
        while len(self._slots) + len(self._restarts) < self.size:
            self._start()

    def think(
        self,
        round_: Round[Any, Any, Any],
        seat: int,
        level: str,
        rng: random.Random,
        *,
        table: Hashable | None = None,
    ) -> asyncio.Future[Any]:
        """The bot's action for `seat`, decided by a worker (the round and `rng` are read now);
        the future always ends with an action, or the simple policy's error."""
        self.warm()
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._ids += 1
        seed = rng.getrandbits(64)
        key = table if table is not None else ("call", self._ids)
        if round_.lists_every_move:  # else a move not listed may be legal too
            legal = round_.legal_actions(seat)
            if len(legal) == 1:  # nothing to decide: no round to send, no queue to wait in
                self.stats.forced[round_.game.name] += 1
                if self._observer is not None:
                    self._observer.decision(round_.game.name, 0.0, FORCED)
                future.set_result(legal[0])
                return future
        policy = policy_for(round_.game, level)
        if not policy.searches:  # cheaper here than a worker's round trip (DecisionPool)
            self.stats.here[round_.game.name] += 1
            if self._observer is not None:
                self._observer.decision(round_.game.name, 0.0, HERE)
            settle_future(future, lambda: decided_here(policy, round_, seat, seed))
            return future
        if self._overloaded():
            self.stats.fallbacks[OVERLOAD] += 1
            if self._observer is not None:
                self._observer.decision(round_.game.name, 0.0, OVERLOAD)
            settle_future(future, lambda: simple_move(round_, seat, seed))
            return future
        job = Job(self._ids, b"", seat, level, seed)
        now = self._clock.now()
        length = len(round_.history)
        decision = Decision(job, key, round_.game, now, now + self.deadline, future, round_, length)
        if table is None:  # not kept by the workers: the whole round, as it is now
            decision.pickled = pickle.dumps(round_, pickle.HIGHEST_PROTOCOL)
        decision.timer = self._clock.call_later(self.deadline, lambda: self._on_deadline(decision))
        queue = self._queues.get(key)
        if queue is None:
            queue = self._queues[key] = deque()
        queue.append(decision)
        self._waiting += 1
        self._dispatch()
        return future

    def _overloaded(self) -> bool:
        """A decision asked now could not have even a minimal search: its share of the time
        (`_share`) with every decision waiting or sent would be under `MIN_BUDGET`, or every
        worker is stuck."""
        able = [s for s in self._slots if not s.stuck]
        if not able:
            return True  # every worker is stuck (or failing to start)
        others = self._waiting + sum(len(s.sent) + (s.chore is not None) for s in able)
        return time_share(self.deadline - ANSWER_MARGIN, others / len(able)) < MIN_BUDGET

    def waiting(self) -> int:
        """Decisions queued, not yet sent to a worker."""
        return self._waiting

    # -- scheduling -------------------------------------------------------------------
    def _dispatch(self) -> None:
        while True:
            if self._hints and self._send_hint():
                continue
            if not self._queues:
                break
            slot = self._open_slot(next(iter(self._queues)))
            if slot is None or slot.worker is None:
                break
            decision = self._next()
            if decision.future.done():  # its follow-up was cancelled
                cancel_timer(decision.timer)
                continue
            now = self._clock.now()
            left = decision.due - now - ANSWER_MARGIN
            if left < MIN_BUDGET:
                self._fall_back(decision, OVERLOAD)
                continue
            able = sum(1 for s in self._slots if not s.stuck)
            aim = decision.asked + self.aim - now
            budget = max(MIN_BUDGET, time_share(aim, len(slot.sent) + self._waiting / able))
            job = self._job_for(slot, decision, budget, left)
            if job is None:  # its round moved on, and its worker does not keep it
                self._drop_stale(decision)
                continue
            if not slot.sent:
                slot.began = now
            slot.sent.append(decision)
            decision.slot = slot
            self.stats.sent += 1
            self.stats.sent_bytes += slot.worker.send(job)
        self._dispatch_chores()

    def _job_for(self, slot: Slot, decision: Decision, budget: float, left: float) -> Job | None:
        """The job for `decision` on this slot's worker, with its round as the worker needs
        it: the actions played since the round it keeps for the table, when it keeps this
        very round object at no more actions, else the whole round, which it then keeps (the
        slot's mirror follows every job sent, as the worker does: `worker.round_for`). None:
        the whole round is needed but it moved on since it was asked (the decision is stale;
        nothing is sent)."""
        job = decision.job
        if decision.pickled is not None:
            return job._replace(pickled=decision.pickled, budget=budget, left=left)
        round_, length, key = decision.round, decision.length, decision.key
        held = slot.kept.get(key)
        if held is not None and held.round() is round_ and held.length <= length:
            history = round_.history[held.length : length]
            delta = tuple([(seat, str(action)) for seat, action in history])
            base, held.length = held.length, length
            slot.kept.touch(key)
            decision.token = held.token
            return Job(
                job.id, b"", job.seat, job.level, job.seed, budget, job.kind, left, None,
                key, held.token, base, delta,
            )  # fmt: skip
        if len(round_.history) != length:
            return None
        self._tokens += 1
        decision.token = self._tokens
        slot.kept.put(key, Held(weakref.ref(round_), self._tokens, length))
        self.stats.whole += 1
        pickled = pickle.dumps(round_, pickle.HIGHEST_PROTOCOL)
        return Job(
            job.id, pickled, job.seat, job.level, job.seed, budget, job.kind, left, None,
            key, self._tokens,
        )  # fmt: skip

    def _drop_stale(self, decision: Decision) -> None:
        """A decision whose round moved on before a worker could be sent it: it ends with
        `Stale` (the follow-up drops a move decided for a state gone by, quietly)."""
        cancel_timer(decision.timer)
        self.stats.stale += 1
        if not decision.future.done():
            decision.future.set_exception(Stale(decision.key))

    def _open_slot(self, key: Hashable) -> Slot | None:
        """The worker to send table `key`'s next decision to: ready, not stuck, running no
        chore, with the fewest decisions sent (fewer than `pipeline`); of those, one that
        keeps the table's round (sent the actions since, not the whole round)."""
        best: Slot | None = None
        for slot in self._slots:
            if not slot.ready or slot.stuck or slot.chore is not None:
                continue
            if len(slot.sent) >= self.pipeline:
                continue
            if (
                best is None
                or len(slot.sent) < len(best.sent)
                or (  # as few: the one keeping the table's round
                    len(slot.sent) == len(best.sent)
                    and best.kept.get(key) is None
                    and slot.kept.get(key) is not None
                )
            ):
                best = slot
        return best

    def _next(self) -> Decision:
        """The oldest decision of the table whose turn it is; that table's turn moves to the
        end of the line."""
        key = next(iter(self._queues))
        queue = self._queues.pop(key)
        decision = queue.popleft()
        if queue:
            self._queues[key] = queue
        self._waiting -= 1
        return decision

    def _unqueue(self, decision: Decision) -> None:
        queue = self._queues.get(decision.key)
        if queue is None or decision not in queue:
            return
        queue.remove(decision)
        self._waiting -= 1
        if not queue:
            del self._queues[decision.key]

    # -- what happens to a decision ---------------------------------------------------
    async def _on_deadline(self, decision: Decision) -> None:
        if decision.future.done():
            return
        slot = decision.slot
        if slot is None:
            self._unqueue(decision)
        elif slot.sent and slot.sent[0] is decision:
            self._watch(slot)
        # else it waits in its worker behind others: its worker skips it (too late), and is
        # watched once it begins it (`_on_answer`)
        self._fall_back(decision, DEADLINE)

    def _watch(self, slot: Slot) -> None:
        """The decision under way is past its deadline: the worker is stuck (it is sent
        nothing more) until it answers, and is replaced if it is still on that decision
        `hang` seconds after it began it."""
        if slot.stuck:
            return
        slot.stuck = True
        decision = slot.sent[0]
        delay = max(0.0, slot.began + self.hang - self._clock.now())
        slot.timer = self._clock.call_later(delay, lambda: self._on_stuck(slot, decision))

    def _fall_back(self, decision: Decision, reason: str) -> None:
        """Play the simple policy's move for the round as it was asked."""
        cancel_timer(decision.timer)
        self._unqueue(decision)
        if decision.future.done():
            return
        self.stats.fallbacks[reason] += 1
        if self._observer is not None:
            spent = self._clock.now() - decision.asked
            self._observer.decision(decision.game.name, spent, reason)
        settle_future(decision.future, lambda: as_asked(decision))

    def _on_answer(self, slot: Slot, answer: Answer) -> None:
        if slot not in self._slots:  # replaced: what it was sent is played already
            return
        if slot.chore is not None and answer.job == slot.chore.job.id:
            chore, slot.chore = slot.chore, None
            self._chore_answered(slot, chore, answer)
            return
        if not slot.sent or answer.job != slot.sent[0].job.id:
            log.warning("bot worker %s answered a decision it was not asked for", worker_pid(slot))
            self._replace(slot, GARBAGE)
            return
        decision = slot.sent.popleft()
        cancel_timer(slot.timer)
        slot.timer = None
        slot.stuck = False
        now = self._clock.now()
        slot.began = now  # the next one sent, if any, begins now
        following = slot.sent[0] if slot.sent else None
        if isinstance(following, Decision) and following.future.done():
            self._watch(slot)  # its deadline passed while it waited in the worker
        if isinstance(decision, PendingChore):  # a hint, sent among the decisions
            slot.hints -= 1
            self._chore_answered(slot, decision, answer)
            return
        decision.slot = None
        if answer.skipped or answer.misfit:
            if answer.misfit:  # a bug: the worker dropped the round it kept for the table
                log.error("bot worker %s: %s", worker_pid(slot), answer.error)
                held = slot.kept.get(decision.key)
                if held is not None and held.token == decision.token:
                    slot.kept.drop(decision.key)  # as the worker did (a later one stays)
            # else its time ran out before the worker began it
            self._fall_back(decision, MISFIT if answer.misfit else OVERLOAD)
            self._wake()
            self._dispatch()
            return
        name = decision.game.name
        self.stats.decided[name] += 1
        self.stats.cpu[name] += answer.cpu
        self.stats.busy += answer.wall
        if decision.future.done():
            if not decision.future.cancelled():
                self.stats.late += 1
        elif answer.error is not None:
            log.error("table %s: %s bot failed: %s", decision.key, name, answer.error)
            self._fall_back(decision, ERROR)
        else:
            try:
                action = decision.game.parse_action(answer.notation or "")
            except Exception:
                log.warning(
                    "bot worker %s answered %r: not a move", worker_pid(slot), answer.notation
                )
                self._fall_back(decision, GARBAGE)
            else:
                cancel_timer(decision.timer)
                decision.future.set_result(action)
                if self._observer is not None:
                    spent = self._clock.now() - decision.asked
                    self._observer.decision(name, spent, SEARCHED)
        self._wake()
        self._dispatch()

    # -- chores -----------------------------------------------------------------------
    def chore(
        self, task: Any, budget: float | None, *, urgent: bool = False
    ) -> asyncio.Future[str]:
        """Run `task.run(budget)` (picklable) in a worker after the bot decisions waiting
        (`urgent`: before them); the future gives its result as JSON text, or `ChoreFailed`."""
        self.warm()
        future: asyncio.Future[str] = asyncio.get_running_loop().create_future()
        self._ids += 1
        job = Job(self._ids, pickle.dumps(task, pickle.HIGHEST_PROTOCOL), -1, "", 0, budget, CHORE)
        chore = PendingChore(job, future, urgent=urgent, asked=self._clock.now())
        chore.timer = self._clock.call_later(CHORE_WAIT, lambda: self._on_chore_late(chore))
        (self._hints if urgent else self._chores).append(chore)
        self._dispatch()
        return future

    def _send_hint(self) -> bool:
        """Send the first urgent chore waiting into a worker's pipeline if it may go now
        (`bot.runtime.pool_hints`); True if one was sent."""
        now = self._clock.now()
        where = self._hint_line.place(
            self._slots, self._queues, self._waiting, now, aim=self.aim, pipeline=self.pipeline
        )
        worker = None if where is None else where[0].worker
        if where is None or worker is None:
            return False
        (slot, budget), hint = where, self._hints.popleft()
        if not slot.sent:
            slot.began = now
        slot.sent.append(hint)
        slot.hints += 1
        cancel_timer(hint.timer)  # it begins within a deadline (the decisions before it end)
        limit = self.deadline + budget + self.hang
        hint.timer = self._clock.call_later(limit, lambda: self._on_chore_late(hint))
        worker.send(hint.job._replace(budget=budget))
        return True

    def _dispatch_chores(self) -> None:
        """Hand chores to idle workers while no decision and no hint waits, one worker kept
        free."""
        while self._chores and not self._queues and not self._hints:
            idle = [s for s in self._slots if s.idle()]
            if not idle or (self.size > 1 and len(idle) == 1):
                return
            slot, chore = idle[0], self._chores.popleft()
            if chore.future.done():  # its review was given up
                cancel_timer(chore.timer)
                continue
            if slot.worker is None:
                return
            slot.chore = chore
            cancel_timer(chore.timer)
            limit = (chore.job.budget or 0.0) + self.hang
            chore.timer = self._clock.call_later(
                limit, functools.partial(self._on_chore_late, chore)
            )
            slot.worker.send(chore.job)

    async def _on_chore_late(self, chore: PendingChore) -> None:
        slot = next((s for s in self._slots if s.chore is chore or chore in s.sent), None)
        if slot is not None:
            log.warning("bot worker %s stuck on a chore: replaced", worker_pid(slot))
            self._replace(slot, TIMED_OUT)
        else:
            self._chore_failed(chore, TIMED_OUT)

    def _chore_failed(self, chore: PendingChore, reason: str) -> None:
        cancel_timer(chore.timer)
        for line in (self._chores, self._hints):
            if chore in line:
                line.remove(chore)
        if not chore.future.done():
            chore.future.set_exception(ChoreFailed(reason))

    def _chore_answered(self, slot: Slot, chore: PendingChore, answer: Answer) -> None:
        cancel_timer(chore.timer)
        if answer.error is not None:
            log.error("a chore failed in bot worker %s: %s", worker_pid(slot), answer.error)
            self._chore_failed(chore, ERROR)
        elif not chore.future.done():
            chore.future.set_result(answer.notation or "null")
        self._wake()
        self._dispatch()

    # -- workers ----------------------------------------------------------------------
    def _start(self) -> None:
        slot = Slot(kept=Kept(self.keep))  # a new worker keeps nothing yet
        self._slots.append(slot)
        slot.timer = self._clock.call_later(START_SECONDS, lambda: self._on_no_start(slot))
        try:
            events = SlotEvents(slot, self._on_ready, self._on_answer, self._on_lost)
            slot.worker = self._factory(events)
        except Exception:
            log.exception("bot worker could not start")
            self._slots.remove(slot)
            cancel_timer(slot.timer)
            self._failures += 1
            self._restart_later()

    def _on_ready(self, slot: Slot) -> None:
        if slot not in self._slots:
            return
        slot.ready = True
        self._failures = 0
        cancel_timer(slot.timer)
        slot.timer = None
        self._wake()
        self._dispatch()

    async def _on_no_start(self, slot: Slot) -> None:
        if slot in self._slots and not slot.ready:
            log.warning(
                "bot worker %s not ready after %ss: replaced", worker_pid(slot), START_SECONDS
            )
            self._replace(slot, HUNG)

    async def _on_stuck(self, slot: Slot, decision: Decision | PendingChore) -> None:
        if slot in self._slots and slot.sent and slot.sent[0] is decision:
            log.warning("bot worker %s stuck on a decision: replaced", worker_pid(slot))
            self._replace(slot, HUNG)

    def _on_lost(self, slot: Slot, reason: str) -> None:
        """The worker is gone by itself (already killed by its handle)."""
        if slot not in self._slots:
            return
        log.warning("bot worker %s %s: replaced", worker_pid(slot), reason)
        self._replace(slot, reason, killed=True)

    def _replace(self, slot: Slot, reason: str, *, killed: bool = False) -> None:
        self._slots.remove(slot)
        cancel_timer(slot.timer)
        if slot.worker is not None:
            if not killed:
                slot.worker.kill()
            self._retired.append(slot.worker)
        self.stats.replaced += 1
        if self._observer is not None:
            self._observer.worker_restarted()
        while slot.sent:  # every decision sent to it, under way or waiting in it
            decision = slot.sent.popleft()
            if isinstance(decision, PendingChore):  # a hint
                self._chore_failed(decision, reason)
                continue
            decision.slot = None
            if not decision.future.done():
                self._fall_back(decision, reason)
        slot.hints = 0
        if slot.chore is not None:
            self._chore_failed(slot.chore, reason)
        if not slot.ready:
            self._failures += 1
        self._restart_later()
        self._dispatch()

    def _restart_later(self) -> None:
        delay = RESTART_BACKOFF[min(self._failures, len(RESTART_BACKOFF) - 1)]
        if delay <= 0:
            self._start()
            return
        handle: TimerHandle | None = None

        async def restart() -> None:
            if handle in self._restarts:
                self._restarts.remove(handle)
                self._start()

        handle = self._clock.call_later(delay, restart)
        self._restarts.append(handle)

    async def ping(self) -> None:
        """Return once a worker is ready and not stuck (the health check waits for this)."""
        self.warm()
        while not any(s.ready and not s.stuck for s in self._slots):
            waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            self._able.append(waiter)
            try:
                await waiter
            finally:
                if waiter in self._able:
                    self._able.remove(waiter)

    def _wake(self) -> None:
        waiters, self._able = self._able, []
        for waiter in waiters:
            if not waiter.done():
                waiter.set_result(None)

    def worker_pids(self) -> list[int]:
        """The workers' processes (none before the first decision)."""
        return [pid for s in self._slots if s.worker is not None and (pid := s.worker.pid)]

    def kept_tables(self) -> list[list[Hashable]]:
        """Per worker, the tables whose round it keeps, least recently used first (tests)."""
        return [slot.kept.order() for slot in self._slots]

    def workers_ready(self) -> int:
        return sum(1 for s in self._slots if s.ready)

    def close(self) -> None:
        """Stop every worker now, and drop the decisions under way (they hold nothing
        durable; the follow-ups awaiting them are stopped first)."""
        for handle in self._restarts:
            handle.cancel()
        self._restarts.clear()
        slots, self._slots = self._slots, []
        for slot in slots:
            cancel_timer(slot.timer)
            if slot.worker is not None:
                slot.worker.kill()
        for slot in slots:
            if slot.worker is not None:
                slot.worker.reap()
        while self._retired:
            self._retired.popleft().reap()
        for slot in slots:
            for decision in slot.sent:
                cancel_timer(decision.timer)
                decision.future.cancel()
            slot.sent.clear()
        for queue in self._queues.values():
            for decision in queue:
                cancel_timer(decision.timer)
                decision.future.cancel()
        self._queues.clear()
        running = [s.chore for s in slots if s.chore is not None]
        for chore in [*self._chores, *self._hints, *running]:
            cancel_timer(chore.timer)
            chore.future.cancel()
        self._chores.clear()
        self._hints.clear()
        self._waiting = 0
        self._failures = 0
