"""Clicks before bot moves on one event loop.

The bot's process answers every click and plays every bot move on one event loop. asyncio runs
what is ready in arrival order, so at a thousand tables of bots a click's every step (its
table's lock, its store write, its answer) waited behind the bot moves that became ready
before it: the loop turn it landed in ran dozens of them, and a click takes several turns.
Work started in `background()` (the bots' follow-ups, and what they start: their table edits,
timers, pictures) is background work, which `PriorityEventLoop` runs in short slices between
the foreground callbacks. On any other event loop (tests, a loop of the caller's choice) the
mark is inert and every callback runs in arrival order, as asyncio always does.
"""

from __future__ import annotations

import asyncio
import contextvars
import inspect
import sys
from collections import deque
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, TypeVar

T = TypeVar("T")

SLICE = 0.0005  # seconds of background callbacks per loop turn, at most (one at least; README)
SWITCH_INTERVAL = 0.0005  # seconds a thread waits for the interpreter lock at most (`run`)

_BACKGROUND: contextvars.ContextVar[bool] = contextvars.ContextVar("background", default=False)


def background() -> contextvars.Context:
    """A context for a task whose callbacks are background work (the current one, marked):
    `loop.create_task(coro, context=background())`."""
    return _marked(True)


def foreground() -> contextvars.Context:
    """A context for callbacks that must not be background work whoever registers them (a
    worker's socket, read for every table): `foreground().run(loop.add_reader, fd, read)`."""
    return _marked(False)


def _marked(background: bool) -> contextvars.Context:
    context = contextvars.copy_context()
    context.run(_BACKGROUND.set, background)
    return context


def in_background() -> bool:
    """Is the code running now background work?"""
    return _BACKGROUND.get()


class ForegroundCalls:
    """`target`'s coroutine methods, called from background work, run as foreground tasks
    (the caller awaits them; cancelling it cancels them). For the store: a bot's round end
    holds the store's lock across several trips to the database, and a background task waits
    for its turn at each of them while every click's write waits for that lock. `direct`:
    the methods that hold nothing while they wait (a queued write), called as they are."""

    def __init__(self, target: Any, *, direct: frozenset[str] = frozenset()) -> None:
        self._target = target
        self._direct = direct

    def __getattr__(self, name: str) -> Any:
        found = getattr(self._target, name)
        if name in self._direct or not inspect.iscoroutinefunction(found):
            return found

        def call(*args: Any, **kwargs: Any) -> Awaitable[Any]:
            if not _BACKGROUND.get():
                called: Awaitable[Any] = found(*args, **kwargs)
                return called
            loop = asyncio.get_running_loop()
            return loop.create_task(found(*args, **kwargs), context=foreground())

        return call


def _nothing() -> None:
    """Keeps the loop from sleeping in select while background callbacks wait."""


class PriorityEventLoop(asyncio.SelectorEventLoop):
    """An event loop that runs background callbacks in slices.

    At each turn it runs the ready foreground callbacks (clicks, commands, the store's writers,
    the workers' answers, every I/O callback) all, and background callbacks only for a slice of
    `SLICE` seconds (at least one per turn), the rest waiting in their order for the next
    turns. A click's steps then wait at most a slice of bot work each; the bots get the rest of
    the CPU, all of it when no click is waiting, so under a load the process can carry they
    lose nothing but the order.
    """

    def __init__(self, selector: Any = None) -> None:
        super().__init__(selector)
        self._background: deque[asyncio.Handle] = deque()

    def _call_soon(
        self, callback: Callable[..., object], args: Any, context: contextvars.Context | None
    ) -> asyncio.Handle:
        marked = _BACKGROUND.get() if context is None else context.get(_BACKGROUND, False)
        if not marked:
            return super()._call_soon(callback, args, context)  # type: ignore[misc,no-any-return]
        handle = asyncio.Handle(callback, args, self, context)
        self._background.append(handle)
        return handle

    def _run_once(self) -> None:
        waiting = self._background
        if waiting:
            ready = self._ready  # type: ignore[attr-defined]
            end = self.time() + SLICE
            while waiting:
                handle = waiting.popleft()
                if not handle.cancelled():
                    handle._run()
                if self.time() >= end:
                    break
            if waiting and not ready:  # don't sleep in select: come back for the rest at once
                ready.append(asyncio.Handle(_nothing, (), self, None))
        super()._run_once()  # type: ignore[misc]


def run(main: Coroutine[Any, Any, T]) -> T:
    """`asyncio.run(main)` on a `PriorityEventLoop`, with the interpreter lock handed to a
    waiting thread every `SWITCH_INTERVAL` instead of CPython's 5 ms: the store's thread
    takes the lock several times per write, each time waiting for the busy event loop's
    thread to let go (at 1,000 tables of bots a write's trip took 17-19 ms at p50 with 5 ms,
    8-16 ms with 0.5 ms, and 55-100 ms against 20-42 ms at p90)."""
    sys.setswitchinterval(SWITCH_INTERVAL)
    with asyncio.Runner(loop_factory=PriorityEventLoop) as runner:
        return runner.run(main)
