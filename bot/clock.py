"""Time for the service: a protocol, the real clock, and a fake one tests move by hand."""

from __future__ import annotations

import asyncio
import heapq
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Protocol

log = logging.getLogger(__name__)

TimerCallback = Callable[[], Awaitable[None]]
STEP_LOGGED = 60.0  # seconds: a wall clock this far from the bot's own is said in the log


class TimerHandle(Protocol):
    def cancel(self) -> None: ...


class Clock(Protocol):
    def now(self) -> float:
        """Seconds since the epoch (deadlines in snapshots use this scale)."""
        ...

    async def sleep(self, seconds: float) -> None: ...

    def call_later(self, delay: float, callback: TimerCallback) -> TimerHandle:
        """Run `await callback()` after `delay` seconds unless the handle is cancelled first."""
        ...


async def sleep_by_timer(clock: Clock, seconds: float) -> None:
    """Sleep on `clock`'s own timers (a clock whose time is not the loop's)."""
    done: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    async def wake() -> None:
        if not done.done():
            done.set_result(None)

    clock.call_later(seconds, wake)
    await done


class SystemClock:
    """Wall time as it was at the start, advancing with the monotonic clock; timers on the
    running asyncio loop.

    Every deadline the bot keeps (turn timers and their reminders, hiding a card shown for a
    few seconds, Discord's per-channel windows) is compared with `now()`, while the timers
    themselves run on the loop's monotonic clock. Were `now()` the wall clock, a step of it
    (an NTP correction, a virtual machine resumed) would make them disagree: an hour forward
    and every turn timed out at its reminder; an hour back and nothing fired for an hour. So
    `now()` moves only as time passes; a step of the wall clock is logged, and the times the
    bot shows and stores keep its start's wall time until it restarts."""

    def __init__(
        self,
        wall: Callable[[], float] = time.time,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        self._wall = wall
        self._monotonic = monotonic
        self._offset = wall() - monotonic()  # the wall time at monotonic time 0, at the start
        self._stepped = 0.0  # the wall clock's step last logged
        self._tasks: set[asyncio.Task[None]] = set()

    def now(self) -> float:
        now = self._offset + self._monotonic()
        step = self._wall() - now
        if abs(step - self._stepped) > STEP_LOGGED:
            self._stepped = step
            log.warning(
                "the wall clock stepped: it is %+.0f s from the bot's clock, which keeps its "
                "pace (the timers neither fire at once nor late; shown times follow the wall "
                "clock again after a restart)",
                step,
            )
        return now

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds)

    def call_later(self, delay: float, callback: TimerCallback) -> TimerHandle:
        return asyncio.get_running_loop().call_later(max(0.0, delay), self._spawn, callback)

    def _spawn(self, callback: TimerCallback) -> None:
        task = asyncio.get_running_loop().create_task(self._run(callback))
        self._tasks.add(task)  # keep a reference until done, or the task may vanish
        task.add_done_callback(self._tasks.discard)

    @staticmethod
    async def _run(callback: TimerCallback) -> None:
        try:
            await callback()
        except Exception:  # a timer must never kill the loop; the service logs its own errors
            log.exception("timer callback failed")


@dataclass(order=True)
class _FakeTimer:
    due: float
    order: int
    callback: TimerCallback = field(compare=False)
    cancelled: bool = field(default=False, compare=False)

    def cancel(self) -> None:
        self.cancelled = True


class FakeClock:
    """A clock that moves only when a test calls `advance`: timers due by then run in due
    order, each awaited to the end before the next, so tests are deterministic."""

    def __init__(self, start: float = 1_700_000_000.0) -> None:
        self._now = start
        self._timers: list[_FakeTimer] = []
        self._order = 0

    def now(self) -> float:
        return self._now

    def call_later(self, delay: float, callback: TimerCallback) -> TimerHandle:
        self._order += 1
        timer = _FakeTimer(self._now + max(0.0, delay), self._order, callback)
        heapq.heappush(self._timers, timer)
        return timer

    async def sleep(self, seconds: float) -> None:
        await sleep_by_timer(self, seconds)

    def pending(self) -> int:
        """How many timers are armed and not cancelled."""
        return sum(1 for t in self._timers if not t.cancelled)

    def next_due(self) -> float | None:
        live = [t.due for t in self._timers if not t.cancelled]
        return min(live) if live else None

    async def advance(self, seconds: float) -> None:
        """Move time forward, running every timer that falls due on the way."""
        target = self._now + seconds
        while self._timers and self._timers[0].due <= target:
            timer = heapq.heappop(self._timers)
            if timer.cancelled:
                continue
            self._now = max(self._now, timer.due)
            await timer.callback()
            await asyncio.sleep(0)  # let tasks woken by the callback run
        self._now = target
