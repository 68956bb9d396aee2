"""The clocks: the fake one runs due timers in order when advanced; the real one runs them on
the loop and a cancelled timer never fires."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable

import pytest

from bot.service import FakeClock, SystemClock


async def test_the_fake_clock_runs_due_timers_in_due_order() -> None:
    clock = FakeClock(start=100.0)
    fired: list[tuple[str, float]] = []

    def note(name: str) -> Callable[[], Awaitable[None]]:
        async def callback() -> None:
            fired.append((name, clock.now()))

        return callback

    clock.call_later(5, note("late"))
    clock.call_later(2, note("early"))
    cancelled = clock.call_later(3, note("cancelled"))
    cancelled.cancel()
    assert clock.pending() == 2 and clock.next_due() == 102.0
    await clock.advance(4)
    assert fired == [("early", 102.0)] and clock.now() == 104.0
    await clock.advance(1)
    assert fired == [("early", 102.0), ("late", 105.0)] and clock.pending() == 0


async def test_the_fake_clock_wakes_sleepers() -> None:
    clock = FakeClock()
    sleeper = asyncio.create_task(clock.sleep(10))
    await asyncio.sleep(0)
    await clock.advance(9)
    assert not sleeper.done()
    await clock.advance(1)
    await asyncio.wait_for(sleeper, timeout=1)


async def test_the_system_clock_fires_and_cancels_on_the_loop() -> None:
    clock = SystemClock()
    fired = asyncio.Event()
    never: list[int] = []

    async def fire() -> None:
        fired.set()

    async def fail() -> None:
        never.append(1)

    clock.call_later(0.01, fire)
    clock.call_later(0.01, fail).cancel()
    await asyncio.wait_for(fired.wait(), timeout=2)
    await asyncio.sleep(0.02)
    assert never == []
    assert abs(clock.now() - time.time()) < 1


def test_a_step_of_the_wall_clock_does_not_move_the_system_clock(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Deadlines are compared with `now()` while timers run on the monotonic clock: a step of
    the wall clock must not reach `now()`, or every timer fires at once, or an hour late."""
    wall, monotonic = [1_700_000_000.0], [50.0]
    clock = SystemClock(wall=lambda: wall[0], monotonic=lambda: monotonic[0])
    start = clock.now()
    for step in (3600.0, -7200.0):  # an hour forward, then back past where it was
        wall[0] += step
        monotonic[0] += 2.0  # two seconds pass meanwhile
        wall[0] += 2.0
        assert clock.now() == start + (monotonic[0] - 50.0)
    stepped = [r.getMessage() for r in caplog.records if "wall clock stepped" in r.getMessage()]
    assert len(stepped) == 2 and "+3600 s" in stepped[0] and "-3600 s" in stepped[1]
