"""Clicks before bot moves: on the bot's event loop, background work (the bots' follow-ups and
what they start) runs a slice per loop turn after the foreground's, never ahead of a click by
more than a slice; with nothing else to do it runs at once, in order."""

from __future__ import annotations

import asyncio
import random
import sys
import threading
from collections.abc import Awaitable, Iterator
from typing import Any

import pytest

from bot.runtime.priority import (
    SLICE,
    SWITCH_INTERVAL,
    ForegroundCalls,
    PriorityEventLoop,
    background,
    foreground,
    in_background,
    run,
)
from bot.runtime.runner import InlinePolicyRunner
from bot.service import FakeClock, RecordingNotifier, TableService
from games.contract import Round
from storage import Store
from tests.bot.service.conftest import ANN, CHANNEL, GUILD

STEP = SLICE / 2  # what each background callback of these tests costs on the loop's clock


class SteppedLoop(PriorityEventLoop):
    """A priority loop whose clock moves only when a callback says it worked (`work`): the
    slices are counted in callbacks, whatever the machine's speed."""

    def __init__(self) -> None:
        super().__init__()
        self.now = 0.0

    def time(self) -> float:
        return self.now

    def work(self) -> None:
        self.now += STEP


@pytest.fixture
def loop() -> Iterator[SteppedLoop]:
    made = SteppedLoop()
    yield made
    made.close()


def test_a_click_waits_one_slice_of_bot_work_at_most(loop: SteppedLoop) -> None:
    order: list[Any] = []
    done = loop.create_future()

    def bot_step(n: int) -> None:
        loop.work()
        order.append(n)
        if n == 49:
            done.set_result(None)

    work = background()
    for n in range(50):
        loop.call_soon(bot_step, n, context=work)
    loop.call_soon(order.append, "click")
    loop.run_until_complete(done)
    # a slice is two steps: the click ran right after them, the bots' order kept
    assert order.index("click") == int(SLICE / STEP)
    assert [n for n in order if n != "click"] == list(range(50))


def test_background_work_runs_at_once_when_nothing_else_is_ready() -> None:
    loop = PriorityEventLoop()
    try:
        steps = 0

        async def bot() -> str:
            nonlocal steps
            for _ in range(1_000):  # hundreds of slices: the loop never sleeps between them
                steps += 1
                await asyncio.sleep(0)
            return "played"

        late = loop.call_later(30, loop.stop)  # only if the loop slept in select: a failure
        task = loop.create_task(bot(), context=background())
        assert loop.run_until_complete(task) == "played" and steps == 1_000
        late.cancel()
    finally:
        loop.close()


def test_a_task_started_in_the_background_is_background_work_and_so_are_its_tasks(
    loop: SteppedLoop,
) -> None:
    seen: dict[str, bool] = {}

    async def child() -> None:
        seen["child"] = in_background()

    async def follow_up() -> None:
        seen["follow-up"] = in_background()
        await asyncio.get_running_loop().create_task(child())

    async def click() -> None:
        seen["click"] = in_background()
        await loop.create_task(follow_up(), context=background())

    loop.run_until_complete(click())
    assert seen == {"click": False, "follow-up": True, "child": True}


def test_a_click_goes_through_its_steps_while_the_bots_are_busy(loop: SteppedLoop) -> None:
    """Each of a click's steps waits a slice of bot work at most: on asyncio's own loop it
    waited for every bot that was ready before it, at every step."""
    bot_steps = 0

    async def bot() -> None:
        nonlocal bot_steps
        for _ in range(100):
            loop.work()
            bot_steps += 1
            await asyncio.sleep(0)

    async def click() -> int:
        for _ in range(3):  # its lock, its store write, its answer
            await asyncio.sleep(0)
        return bot_steps

    bots = [loop.create_task(bot(), context=background()) for _ in range(20)]
    waited = loop.run_until_complete(click())
    assert waited <= 4 * int(SLICE / STEP)  # four turns: its start and three steps
    loop.run_until_complete(asyncio.gather(*bots))
    assert bot_steps == 2_000


def test_a_cancelled_background_callback_is_skipped(loop: SteppedLoop) -> None:
    ran: list[str] = []
    work = background()
    handle = loop.call_soon(ran.append, "cancelled", context=work)
    loop.call_soon(ran.append, "kept", context=work)
    handle.cancel()
    loop.run_until_complete(asyncio.sleep(0))
    loop.run_until_complete(asyncio.sleep(0))
    assert ran == ["kept"]


def test_callbacks_from_other_threads_and_foreground_contexts_are_foreground(
    loop: SteppedLoop,
) -> None:
    order: list[str] = []
    done = loop.create_future()
    for _ in range(10):
        loop.call_soon(lambda: (loop.work(), order.append("bot")), context=background())
    # a context made foreground inside background work (a worker's socket, read for all)
    reader = background().run(foreground)
    loop.call_soon(order.append, "socket", context=reader)
    thread = threading.Thread(target=loop.call_soon_threadsafe, args=(done.set_result, None))
    thread.start()
    thread.join()
    loop.run_until_complete(done)
    assert order.index("socket") <= int(SLICE / STEP)


def test_run_runs_a_coroutine_on_a_priority_loop_with_short_switches() -> None:
    async def which() -> tuple[type[asyncio.AbstractEventLoop], float]:
        return type(asyncio.get_running_loop()), sys.getswitchinterval()

    before = sys.getswitchinterval()
    try:
        assert run(which()) == (PriorityEventLoop, SWITCH_INTERVAL)
    finally:
        sys.setswitchinterval(before)


class RecordingRunner(InlinePolicyRunner):
    """Notes whether each decision was asked from background work."""

    def __init__(self) -> None:
        self.asked_in_background: list[bool] = []

    def think(
        self, round_: Round[Any, Any, Any], seat: int, level: str, rng: random.Random, **where: Any
    ) -> Awaitable[Any]:
        self.asked_in_background.append(in_background())
        return super().think(round_, seat, level, rng, **where)


async def test_the_bots_moves_are_background_work_and_the_click_is_not(
    store: Store, clock: FakeClock, notifier: RecordingNotifier
) -> None:
    runner = RecordingRunner()
    service = TableService(store, clock, notifier, lambda: 7, policy_runner=runner)
    try:
        table_id = (
            await service.seating.open_table(GUILD, CHANNEL, ANN, "euchre", bots="simple")
        ).table_id
        for _ in range(3):
            await service.seating.add_bot(table_id, ANN.user_id)
        started = await service.seating.start(table_id, ANN.user_id)
        assert not in_background()  # the start, like a click, is foreground
        await service.followup.settle(table_id)
        assert started.round_no is not None and runner.asked_in_background
        assert all(runner.asked_in_background)
    finally:
        await service.close()


class Target:
    """Says whether each of its calls ran as background work."""

    async def round_end(self) -> bool:
        await asyncio.sleep(0)
        return in_background()

    async def queued_write(self) -> bool:
        return in_background()

    def plain(self) -> str:
        return "plain"


def test_store_calls_made_by_bot_work_run_in_the_foreground(loop: SteppedLoop) -> None:
    calls = ForegroundCalls(Target(), direct=frozenset({"queued_write"}))

    async def bot() -> tuple[bool, bool, bool]:
        return in_background(), await calls.round_end(), await calls.queued_write()

    async def click() -> bool:
        return bool(await calls.round_end())

    assert loop.run_until_complete(loop.create_task(bot(), context=background())) == (
        True,
        False,  # the lock-holding call: a foreground task
        True,  # a direct one, as it is
    )
    assert loop.run_until_complete(click()) is False
    assert calls.plain() == "plain"


async def test_the_service_makes_its_store_calls_in_the_foreground(
    store: Store, clock: FakeClock, notifier: RecordingNotifier
) -> None:
    service = TableService(store, clock, notifier, lambda: 7)
    try:
        assert isinstance(service.store, ForegroundCalls)
        assert service.store.record_action == store.record_action  # only queued: as it is
    finally:
        await service.close()
