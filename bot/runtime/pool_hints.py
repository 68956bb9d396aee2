"""When a coach's hint goes to the pool of bot workers, to which worker, with what budget.

A person waits for a hint (an urgent chore), while the bots' decisions (`bot.runtime.pool`)
must still end in time: so a hint joins a worker's pipeline among the decisions, yields to
those near their deadline for a while, and never costs the bots more than a few searches.
The rules are on `HintLine`.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Hashable, Mapping

from bot.runtime.pool_slots import (
    ANSWER_MARGIN,
    Decision,
    PendingChore,
    Slot,
    cancel_timer,
    time_share,
)
from bot.runtime.worker import MIN_BUDGET

HINTS_SENT = 8  # hints in the workers at once, at most, all in one worker (HintLine)
HINT_WAIT = 0.5  # seconds a hint yields to late decisions, at most (HintLine)


class HintLine:
    """The hints waiting to be sent, in their order, and where the first may go now.

    - **Among the moves.** A hint is sent into a worker's pipeline like a decision, behind the
      decisions already sent and before those waiting in the pool, so no worker stops to wait for
      it (a worker emptied of its decisions for a hint, then sent nothing until it answered, sat
      idle for two of the event loop's turns per hint, and the bots' moves waited).
    - **Yielding to the late ones.** It waits while a decision waiting in the pool is near its
      deadline (it could not have the pool's `aim` after the hint's whole budget), unless it has
      waited `HINT_WAIT` itself (half a deadline: with its search, the person has their answer
      within a second even when every decision is late, and it costs the bots its search's time
      only).
    - **Bounded.** At most `HINTS_SENT` (half a pipeline) are in the workers at once, all in one
      worker (another only while that one is stuck), so the bots' decisions lose at most that many
      hint searches' time, and the other workers none; fewer would leave the hints waiting for
      each other behind the decisions sent when many people ask at once. A hint searches no longer
      than a bot decision sent in its place would (its budget, at most its share of the `aim`):
      under load a hint's full search took several decisions' time from the bots.
    - **Dropped when nobody waits.** A hint whose person stopped waiting (its future cancelled)
      before it was sent is never sent.
    """

    def __init__(self, most: int = HINTS_SENT, wait: float = HINT_WAIT) -> None:
        if most < 1:
            raise ValueError("a pool must be able to send at least one hint")
        self.most = most
        self.wait = wait
        self.waiting: deque[PendingChore] = deque()

    def place(
        self,
        slots: list[Slot],
        queues: Mapping[Hashable, deque[Decision]],
        waiting: int,
        now: float,
        *,
        aim: float,
        pipeline: int,
    ) -> tuple[Slot, float] | None:
        """The worker the first hint waiting goes to now, and its budget, given the decisions
        waiting in the pool (`waiting` in all); None: it waits (or none is left once those
        nobody waits for are dropped)."""
        while self.waiting and self.waiting[0].future.done():  # nobody waits: never sent
            cancel_timer(self.waiting.popleft().timer)
        if not self.waiting or sum(s.hints for s in slots) >= self.most:
            return None
        slot = _worker_for_hints(slots, pipeline)
        if slot is None:
            return None
        hint = self.waiting[0]
        able = sum(1 for s in slots if not s.stuck)
        share = max(MIN_BUDGET, time_share(aim, len(slot.sent) + waiting / able))
        budget = share if hint.job.budget is None else min(hint.job.budget, share)
        if now - hint.asked < self.wait and _pressed(queues, now, budget + aim):
            return None
        return slot, budget


def _pressed(queues: Mapping[Hashable, deque[Decision]], now: float, need: float) -> bool:
    """Is a decision waiting so near its deadline that it has less than `need` seconds left?
    (Each table's oldest decision is the first of its queue; every one has the same deadline.)"""
    return any(queue[0].due - now - ANSWER_MARGIN < need for queue in queues.values())


def _worker_for_hints(slots: list[Slot], pipeline: int) -> Slot | None:
    """The one with hints sent already, when one has and is not stuck (one worker at a time
    runs hints), else the one with the fewest jobs sent; it must be ready, not stuck, running
    no chore, its pipeline not full. None: wait."""
    holding = [s for s in slots if s.hints and not s.stuck]
    best: Slot | None = None
    for slot in holding or slots:
        if not slot.ready or slot.stuck or slot.chore is not None or len(slot.sent) >= pipeline:
            continue
        if best is None or len(slot.sent) < len(best.sent):
            best = slot
    return best
