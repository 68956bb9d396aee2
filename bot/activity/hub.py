"""The open pages of each table, and the notifier that pushes them a fresh frame at a change.

Catch-up is by state: a page gets the viewer's whole frame at each change, never a list of
events, so a page that missed some (it reconnected, it was slow) is current after one frame.
Each page's sends are in order and never overlap; a page that cannot take a frame is dropped
(it reconnects and gets the current one).
"""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import orjson

from bot.activity.tables import PageTables
from bot.runtime.priority import foreground
from bot.service.errors import TableError
from bot.service.notifier import TableNotifier

log = logging.getLogger(__name__)

Send = Callable[[str], Awaitable[None]]  # a frame's JSON text to one page
# seconds a folded frame waits for a table being changed, and how many times, before it
# waits for the table's lock instead
BUSY_WAIT = 0.01
BUSY_TRIES = 5


@dataclass(eq=False)
class Page:
    """One open page: its viewer, its table, how to send it a frame, and its send lock."""

    table_id: int
    user_id: int
    language: str
    send: Send
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    version: int = -1  # the table version of the last frame sent (an older one is skipped)
    closed: bool = False  # closed by the server (its viewer left): sent nothing more


def encoded(built: dict[str, Any]) -> str:
    """A frame as a page receives it: its JSON, by orjson (a frame is plain data, built by
    `frames.py`; the standard library's encoder took a quarter of a page's CPU per move)."""
    return orjson.dumps(built).decode()


class ActivityHub:
    """Every open page of this process, by table."""

    def __init__(self, tables: PageTables) -> None:
        self.tables = tables
        self.pages: dict[int, set[Page]] = {}
        # called with (page, frame as the page read it) after each frame is sent (tests
        # check what pages saw)
        self.listeners: list[Callable[[Page, dict[str, Any]], None]] = []
        self._pushing: dict[int, asyncio.Task[None]] = {}  # table id -> its push running
        self._again: set[int] = set()  # tables changed again while their push ran
        self.frames_sent = 0  # frames sent to pages since the start (the bench reads it)
        # table id -> each open page's frame built when it last changed (None: build it then)
        self._built: dict[int, dict[Page, dict[str, Any] | None]] = {}

    def open(self, page: Page) -> None:
        self.pages.setdefault(page.table_id, set()).add(page)
        self.tables.page_opened(page.table_id, page.user_id)

    def close(self, page: Page) -> None:
        open_pages = self.pages.get(page.table_id)
        if open_pages is not None and page in open_pages:
            open_pages.discard(page)
            if not open_pages:
                del self.pages[page.table_id]
            self.tables.page_closed(page.table_id, page.user_id)

    async def deliver(self, page: Page, built: dict[str, Any], text: str | None = None) -> None:
        """Send one frame to one page (`text`: the frame encoded already), unless it already
        has a newer table."""
        version = int(built["table"]["version"])
        async with page.lock:
            if page.closed or version < page.version:
                return
            page.version = version
            self.frames_sent += 1
            if text is None:
                text = encoded(built)
            await page.send(text)
        if self.listeners:
            read = orjson.loads(text)  # decoded once, whatever the number of listeners
            for listener in self.listeners:
                listener(page, read)

    def changed(self, table_id: int) -> None:
        """The table changed: push its pages a fresh frame in a task of its own, so the
        service's caller never waits on the pages.

        A change with no push under way is pushed at once, each page's frame built now: the
        change was just stored and released, nothing holds the table, so a page is not kept
        waiting for the table's lock by the moves after it. Changes while a push is under way
        fold into one more frame, built once that push is done: a burst of moves costs one
        frame, not one per move of which only the last would be sent (a page that skipped a
        version shows it with the next)."""
        open_pages = self.pages.get(table_id)
        if not open_pages:
            return
        if table_id in self._pushing:
            self._again.add(table_id)
            return
        self._built[table_id] = self._frames_for(table_id, open_pages)
        # foreground work, wherever the change came from (a bot's move is background work):
        # a frame is cheap to build and the page's viewer waits for it, where a table message
        # waits anyway for Discord's edit pace
        loop = asyncio.get_running_loop()
        self._pushing[table_id] = loop.create_task(self._pushes(table_id), context=foreground())

    def _frames_for(
        self, table_id: int, open_pages: set[Page]
    ) -> dict[Page, dict[str, Any] | None]:
        """Each open page's frame now, when it needs no wait (None: built by the push)."""
        try:
            built = self.tables.frames_now(
                table_id, {(page.user_id, page.language) for page in open_pages}
            )
        except TableError:
            built = {}  # the table is gone: the push finds out
        return {page: built.get((page.user_id, page.language)) for page in open_pages}

    async def _pushes(self, table_id: int) -> None:
        try:
            await self.push(table_id, self._built.pop(table_id, {}))
            busy = 0
            while table_id in self._again:
                if busy:
                    await asyncio.sleep(BUSY_WAIT)
                open_pages = self.pages.get(table_id)
                if not open_pages:
                    return
                built = self._frames_for(table_id, open_pages)
                if None in built.values() and busy < BUSY_TRIES:
                    busy += 1  # a move is being stored: its change comes next, wait for it
                    continue
                busy = 0
                self._again.discard(table_id)
                await self.push(table_id, built)
        finally:
            self._again.discard(table_id)
            del self._pushing[table_id]

    async def idle(self) -> None:
        """Wait until no push is running (tests, and closing)."""
        while self._pushing:
            await asyncio.gather(*self._pushing.values(), return_exceptions=True)

    async def close_all(self) -> None:
        for task in list(self._pushing.values()):
            task.cancel()
        await self.idle()

    async def push(
        self, table_id: int, built: dict[Page, dict[str, Any] | None] | None = None
    ) -> None:
        """A fresh frame to every open page of the table, each built for its viewer (`built`:
        those built already)."""
        open_pages = list(self.pages.get(table_id, ()))
        ready = built or {}
        # a frame several pages get (the public one of the watchers') is encoded once
        frames = {id(frame): frame for frame in ready.values() if frame is not None}
        shared = Counter(id(frame) for frame in ready.values() if frame is not None)
        texts = {key: encoded(frame) for key, frame in frames.items() if shared[key] > 1}

        def text_of(page: Page) -> str | None:
            frame = ready.get(page)
            return None if frame is None else texts.get(id(frame))

        if open_pages:
            await asyncio.gather(
                *(self._refresh(page, ready.get(page), text_of(page)) for page in open_pages)
            )

    async def _refresh(self, page: Page, built: dict[str, Any] | None, text: str | None) -> None:
        try:
            if built is None:
                built = await self.tables.current_frame(page.table_id, page.user_id, page.language)
            await self.deliver(page, built, text)
        except TableError:
            self.close(page)  # the table is gone: nothing more to show
        except (ConnectionError, RuntimeError) as error:
            log.info("a page of table %s is gone: %s", page.table_id, error)
            self.close(page)


class ChangesNotifier:
    """The service's notifier for the Activity: every stored change is passed on to `changed`
    (the hub's, or the bot's side of the Activity's own process)."""

    def __init__(self, changed: Callable[[int], None]) -> None:
        self.changed = changed

    async def table_changed(self, table_id: int) -> None:
        self.changed(table_id)

    async def round_started(self, table_id: int) -> None:
        self.changed(table_id)

    async def turn_reminder(self, table_id: int, seat: int) -> None:
        return None  # the page shows whose turn it is at every frame

    async def table_closed(self, table_id: int) -> None:
        self.changed(table_id)


class ActivityNotifier(ChangesNotifier):
    """The notifier of the open pages of this process: every stored change reaches them."""

    def __init__(self, hub: ActivityHub) -> None:
        super().__init__(hub.changed)
        self.hub = hub


class CompositeNotifier:
    """Tells each notifier in turn (the Discord messages first, then the open pages); one
    that fails is logged and the others are still told."""

    def __init__(self, notifiers: Sequence[TableNotifier]) -> None:
        self.notifiers = list(notifiers)  # the Activity's joins once its hub is built

    async def _each(self, call: Callable[[TableNotifier], Awaitable[None]]) -> None:
        for notifier in self.notifiers:
            try:
                await call(notifier)
            except Exception:
                log.exception("a table notifier failed")

    async def table_changed(self, table_id: int) -> None:
        await self._each(lambda n: n.table_changed(table_id))

    async def round_started(self, table_id: int) -> None:
        await self._each(lambda n: n.round_started(table_id))

    async def turn_reminder(self, table_id: int, seat: int) -> None:
        await self._each(lambda n: n.turn_reminder(table_id, seat))

    async def table_closed(self, table_id: int) -> None:
        await self._each(lambda n: n.table_closed(table_id))
