from __future__ import annotations

import asyncio

from bot.runtime.priority import in_background
from bot.ui.coalescer import EditCoalescer, RetryLater


class FakeSleep:
    """Records the delays asked for; lets the loop run instead of waiting."""

    def __init__(self) -> None:
        self.delays: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.delays.append(seconds)
        await asyncio.sleep(0)


class FakeEditor:
    def __init__(self, refusals: int = 0, retry_after: float | None = None) -> None:
        self.edits: list[int] = []
        self.refusals = refusals
        self.retry_after = retry_after
        self.attempts = 0

    async def __call__(self, table_id: int) -> None:
        self.attempts += 1
        if self.refusals:
            self.refusals -= 1
            raise RetryLater(self.retry_after)
        self.edits.append(table_id)


async def test_a_burst_of_changes_makes_one_edit() -> None:
    editor, sleep = FakeEditor(), FakeSleep()
    coalescer = EditCoalescer(editor, delay=1.0, sleep=sleep)
    for _ in range(25):
        coalescer.mark(5)
    await coalescer.drain()
    assert editor.edits == [5]
    assert sleep.delays == [1.0]


async def test_tables_are_coalesced_separately() -> None:
    editor = FakeEditor()
    coalescer = EditCoalescer(editor, delay=1.0, sleep=FakeSleep())
    for table_id in (1, 2, 1, 2, 1):
        coalescer.mark(table_id)
    await coalescer.drain()
    assert sorted(editor.edits) == [1, 2]


async def test_a_change_during_an_edit_makes_exactly_one_more_edit() -> None:
    sleep = FakeSleep()
    coalescer: EditCoalescer

    class MarkingEditor(FakeEditor):
        async def __call__(self, table_id: int) -> None:
            await super().__call__(table_id)
            if len(self.edits) == 1:
                coalescer.mark(table_id)
                coalescer.mark(table_id)

    editor = MarkingEditor()
    coalescer = EditCoalescer(editor, delay=0.5, sleep=sleep)
    coalescer.mark(9)
    await coalescer.drain()
    assert editor.edits == [9, 9]
    assert not coalescer.is_pending(9)


async def test_a_rate_limited_edit_is_retried_until_the_table_converges() -> None:
    editor, sleep = FakeEditor(refusals=1, retry_after=3.0), FakeSleep()
    coalescer = EditCoalescer(editor, delay=1.0, sleep=sleep)
    coalescer.mark(4)
    await coalescer.drain()
    assert editor.attempts == 2
    assert editor.edits == [4]
    assert sleep.delays == [1.0, 3.0]


async def test_repeated_refusals_back_off_exponentially_up_to_a_cap() -> None:
    editor, sleep = FakeEditor(refusals=5), FakeSleep()
    coalescer = EditCoalescer(editor, delay=1.0, retry_delay=2.0, max_retry_delay=8.0, sleep=sleep)
    coalescer.mark(4)
    await coalescer.drain()
    assert editor.edits == [4]
    assert sleep.delays == [1.0, 2.0, 4.0, 8.0, 8.0, 8.0]


async def test_an_unexpected_error_is_dropped_and_the_next_change_edits_again() -> None:
    calls: list[int] = []

    async def failing_once(table_id: int) -> None:
        calls.append(table_id)
        if len(calls) == 1:
            raise RuntimeError("boom")

    coalescer = EditCoalescer(failing_once, delay=0.1, sleep=FakeSleep())
    coalescer.mark(3)
    await coalescer.drain()
    coalescer.mark(3)
    await coalescer.drain()
    assert calls == [3, 3]


async def test_forget_cancels_a_pending_edit() -> None:
    editor = FakeEditor()

    async def slow_sleep(seconds: float) -> None:
        await asyncio.sleep(10)

    coalescer = EditCoalescer(editor, delay=1.0, sleep=slow_sleep)
    coalescer.mark(8)
    await asyncio.sleep(0)
    coalescer.forget(8)
    await coalescer.drain()
    assert editor.edits == []


async def test_a_table_edit_is_background_work_even_when_a_click_marks_it() -> None:
    """On the bot's event loop the click's own answer goes before the table message's edit."""
    seen: list[bool] = []

    async def edit(table_id: int) -> None:
        seen.append(in_background())

    coalescer = EditCoalescer(edit, delay=1.0, sleep=FakeSleep())
    assert not in_background()  # marked from a click's (foreground) work
    coalescer.mark(3)
    await coalescer.drain()
    assert seen == [True]


async def test_a_table_marked_at_once_is_edited_without_the_coalescing_delay() -> None:
    editor, sleep = FakeEditor(), FakeSleep()
    coalescer = EditCoalescer(editor, delay=1.0, sleep=sleep)
    coalescer.mark(6, at_once=True)
    await coalescer.drain()
    assert editor.edits == [6]
    assert sleep.delays == []


async def test_a_mark_at_once_cuts_a_coalescing_delay_under_way_short() -> None:
    """A table waiting out its delay (a timer changed it) is clicked: its edit goes now."""
    resting, never = asyncio.Event(), asyncio.Event()
    edited = asyncio.Event()

    async def held(seconds: float) -> None:
        resting.set()
        await never.wait()

    class NotingEditor(FakeEditor):
        async def __call__(self, table_id: int) -> None:
            await super().__call__(table_id)
            edited.set()

    editor = NotingEditor()
    coalescer = EditCoalescer(editor, delay=1.0, sleep=held)
    coalescer.mark(7)
    await resting.wait()
    coalescer.mark(7, at_once=True)
    await edited.wait()
    await coalescer.drain()
    assert editor.edits == [7]
    assert not never.is_set()
