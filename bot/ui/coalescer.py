"""Coalesced edits of table messages: a burst of changes to one table makes one edit.

`mark(table_id)` sets the table's dirty flag and, unless one is pending, starts a task that
waits `delay` seconds and then edits the message once. A change during the edit sets the flag
again, so the message always converges to the latest state. `mark(table_id, at_once=True)`
(a table being played: its players' own messages follow at once) skips the wait, cutting one
under way short: the changes made while an edit is out still make one edit after it. An
edit that Discord refuses for now (`RetryLater`: rate limited, server error) is retried after
a back-off; any other error is logged and dropped (the next change tries again).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from bot.runtime.priority import background

log = logging.getLogger(__name__)

Sleep = Callable[[float], Awaitable[None]]
Edit = Callable[[int], Awaitable[None]]


class RetryLater(Exception):
    """The edit could not be made now; try again after `after` seconds (None: back off)."""

    def __init__(self, after: float | None = None) -> None:
        super().__init__(f"retry after {after}s")
        self.after = after


class EditCoalescer:
    def __init__(
        self,
        edit: Edit,
        *,
        delay: float = 1.0,
        retry_delay: float = 2.0,
        max_retry_delay: float = 60.0,
        sleep: Sleep = asyncio.sleep,
    ) -> None:
        self._edit = edit
        self._delay = delay
        self._retry_delay = retry_delay
        self._max_retry_delay = max_retry_delay
        self._sleep = sleep
        self._dirty: set[int] = set()
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self._at_once: set[int] = set()  # tables whose next edit waits no coalescing delay
        self._resting: set[int] = set()  # tables whose task waits its coalescing delay now

    def mark(self, table_id: int, *, at_once: bool = False) -> None:
        """This table changed: edit its message soon (once, however many marks come), or, with
        `at_once`, as soon as the edit under way (if any) is done."""
        self._dirty.add(table_id)
        if at_once:
            self._at_once.add(table_id)
        task = self._tasks.get(table_id)
        if task is not None and at_once and table_id in self._resting:
            task.cancel()  # only waiting out its delay: nothing sent yet, nothing lost
            task = None
        if task is None:
            # background work: a click's own answer goes first (bot/runtime/priority.py)
            task = asyncio.get_running_loop().create_task(self._run(table_id), context=background())
            self._tasks[table_id] = task

    def is_pending(self, table_id: int) -> bool:
        return table_id in self._tasks

    @property
    def pending(self) -> bool:
        return bool(self._tasks)

    def tracked(self) -> int:
        """Tables with an edit pending or marked (both maps empty out once edits are done)."""
        return len(self._tasks.keys() | self._dirty)

    def forget(self, table_id: int) -> None:
        """Drop the pending edit of this table (its message was re-posted or closed)."""
        self._dirty.discard(table_id)
        self._at_once.discard(table_id)
        task = self._tasks.pop(table_id, None)
        if task is not None and task is not asyncio.current_task():
            task.cancel()

    async def drain(self) -> None:
        """Wait until no edit is pending (tests, shutdown)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks.values()), return_exceptions=True)

    async def close(self) -> None:
        for table_id in list(self._tasks):
            self.forget(table_id)

    async def _run(self, table_id: int) -> None:
        backoff = self._retry_delay
        try:
            await self._rest(table_id)
            while table_id in self._dirty:
                self._dirty.discard(table_id)
                try:
                    await self._edit(table_id)
                except RetryLater as refused:
                    self._dirty.add(table_id)
                    wait = refused.after if refused.after is not None else backoff
                    backoff = min(backoff * 2, self._max_retry_delay)
                    await self._sleep(max(wait, self._delay))
                    continue
                except Exception:
                    log.exception("editing the message of table %s failed", table_id)
                    continue
                backoff = self._retry_delay
                if table_id in self._dirty:
                    await self._rest(table_id)
        finally:
            if self._tasks.get(table_id) is asyncio.current_task():
                del self._tasks[table_id]
                self._at_once.discard(table_id)

    async def _rest(self, table_id: int) -> None:
        """The coalescing delay before an edit, unless the table's changes are wanted at once
        (a mark `at_once` meanwhile cancels the task here and starts one that does not rest)."""
        if table_id in self._at_once:
            self._at_once.discard(table_id)
            return
        self._resting.add(table_id)
        try:
            await self._sleep(self._delay)
        finally:
            self._resting.discard(table_id)
