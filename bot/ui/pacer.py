"""Requests to a channel paced within Discord's rate limit, the tables being clicked first.

Discord allows about 5 message edits per 5 seconds in a channel (and as many posts); a burst
past it is answered 429 and every request of that kind in the channel waits. After a restart
every restored table wants its message refreshed, and with many tables in one channel the
tables being played would wait behind minutes of refreshes. So each request first asks for
its `turn` in its channel (the notifier keeps one pacer for edits, one for posts and deletes),
and `ChannelPacer` grants turns clicked tables first.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
from collections import deque
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field

from bot.clock import Clock

EDITS_PER_WINDOW = 5
WINDOW_SECONDS = 5.0
CLICKED, CHANGED, REFRESH = 0, 1, 2  # priority classes, first served first
PLAYING_WINDOWS = 3  # a channel counts as being played for this many windows after a turn


PACED_AFTER = 0.05  # seconds: a turn granted later than this waited for the window


@dataclass
class Turn:
    """Set `edited = False` when the turn made no request: its place in the window returns.
    `waited`: the channel's window was full, so the request was held back (paced)."""

    edited: bool = True
    waited: bool = False


@dataclass
class _Waiter:
    klass: int
    channel: _Channel
    granted: asyncio.Future[float]  # resolves to the time of the turn


@dataclass
class _Channel:
    granted: deque[float] = field(default_factory=deque)  # times of the turns in the window
    classes: deque[int] = field(default_factory=deque)  # and the class each went to
    # classes of the turns granted and not done: each holds a place in the window until it is
    # done (its request may reach Discord any time before: a picture drawn first, say)
    flying: list[int] = field(default_factory=list)
    waiting: list[tuple[int, int, _Waiter]] = field(default_factory=list)  # (class, order, ..)
    server: asyncio.Task[None] | None = None
    played_at: float | None = None  # the last turn of a clicked table
    other_at: float | None = None  # the last turn of any other table
    wake_at: float | None = None  # when the server is called back to grant again


class ChannelPacer:
    """Turns in each channel, granted by these rules:

    - at most `edits` turns per `per` seconds in a channel (a sliding window on the bot's
      clock), a turn counted from when its request is done (Discord counts it on arrival); a
      turn under way holds its place in the window however long it takes (its picture drawn
      first, say), so slow requests never reach Discord together past the limit;
    - three classes, first served first: a table *clicked* since the start (`clicked`), then a
      table *changed* since the start by anything else (a timer, its bot players' moves owed
      at the restart: `changed`), then a table that only needs a *refresh* (restored as it
      was);
    - the other classes leave one turn of each window free for clicked tables, and while
      clicked tables are being played in the channel they take at most half of it; their turns
      are spread evenly over the window (not taken in a burst), so the table just clicked is
      edited at once, and the next moves within a second or two, even while a thousand
      restored tables are being refreshed;
    - within a class, the oldest request first; a table waiting in a lower class that is
      clicked or changed moves up;
    - a turn that ends up making no request (the message already shows that content) gives
      its place back.
    """

    def __init__(
        self, clock: Clock, *, edits: int = EDITS_PER_WINDOW, per: float = WINDOW_SECONDS
    ) -> None:
        self._clock = clock
        self._edits = edits
        self._per = per
        self._channels: dict[int, _Channel] = {}
        # table id -> its class when better than a refresh (until the table closes)
        self._classes: dict[int, int] = {}
        self._waiters: dict[int, list[_Waiter]] = {}  # table id -> its requests waiting
        self._order = itertools.count()

    def clicked(self, table_id: int) -> None:
        """Someone clicked at the table: its requests go first from now on."""
        self._move_up(table_id, CLICKED)

    def changed(self, table_id: int) -> None:
        """The table changed otherwise (a timer, bot players): before mere refreshes."""
        self._move_up(table_id, CHANGED)

    def class_of(self, table_id: int) -> int:
        return self._classes.get(table_id, REFRESH)

    def forget(self, table_id: int) -> None:
        self._classes.pop(table_id, None)

    def _move_up(self, table_id: int, klass: int) -> None:
        if self.class_of(table_id) <= klass:
            return
        self._classes[table_id] = klass
        for waiter in self._waiters.get(table_id, ()):
            if waiter.klass > klass and not waiter.granted.done():
                waiter.klass = klass
                heapq.heappush(waiter.channel.waiting, (klass, next(self._order), waiter))
                self._serve(waiter.channel)

    @asynccontextmanager
    async def turn(self, channel_id: int, table_id: int) -> AsyncIterator[Turn]:
        """Wait for this table's turn to send a request in this channel."""
        channel = self._channels.setdefault(channel_id, _Channel())
        klass = self.class_of(table_id)
        waiter = _Waiter(klass, channel, asyncio.get_running_loop().create_future())
        self._waiters.setdefault(table_id, []).append(waiter)
        heapq.heappush(channel.waiting, (klass, next(self._order), waiter))
        asked_at = self._clock.now()
        self._serve(channel)
        try:
            granted_at = await waiter.granted
        except BaseException:
            if waiter.granted.done() and not waiter.granted.cancelled():
                channel.flying.remove(waiter.klass)  # granted, then cancelled: never sent
                self._serve(channel)
            raise
        finally:
            waiting = self._waiters.get(table_id, [])
            if waiter in waiting:
                waiting.remove(waiter)
            if not waiting:
                self._waiters.pop(table_id, None)
        klass = waiter.klass  # the class it was granted in
        turn = Turn(waited=granted_at - asked_at > PACED_AFTER)
        try:
            yield turn
        finally:
            channel.flying.remove(klass)
            if turn.edited:
                # Counted from when the edit is done: Discord counts it on arrival, which a
                # slow request (a picture drawn first) makes later than the grant.
                channel.granted.append(self._clock.now())
                channel.classes.append(klass)
            elif klass != CLICKED and channel.other_at == granted_at:
                channel.other_at = None  # its place comes back at once
            self._serve(channel)

    def _serve(self, channel: _Channel) -> None:
        if channel.server is None or channel.server.done():
            channel.server = asyncio.get_running_loop().create_task(self._grant(channel))

    def _wake_at(self, channel: _Channel, when: float) -> None:
        if channel.wake_at is not None and channel.wake_at <= when:
            return  # an earlier wake-up is armed; it re-arms if still needed

        async def wake() -> None:
            if channel.wake_at == when:
                channel.wake_at = None
            self._serve(channel)

        channel.wake_at = when
        self._clock.call_later(max(0.0, when - self._clock.now()), wake)

    async def _grant(self, channel: _Channel) -> None:
        """Hand out turns while some wait: the best first, as the window allows."""
        while True:
            best = self._best(channel)
            if best is None:
                return
            now = self._clock.now()
            while channel.granted and channel.granted[0] <= now - self._per:
                channel.granted.popleft()
                channel.classes.popleft()
            taken = len(channel.granted) + len(channel.flying)
            if taken >= self._edits:
                # Come back when a turn leaves the window (or, all of them under way, when
                # one is done: `turn` serves again); a newcomer (a clicked table) that fits
                # before that is served at once by the next `_serve`.
                self._wake_when_one_leaves(channel)
                return
            if best.klass != CLICKED:
                room = self._room(channel)
                clicked = channel.classes.count(CLICKED) + channel.flying.count(CLICKED)
                if taken - clicked >= room or taken >= max(1, self._edits - 1):
                    self._wake_when_one_leaves(channel)
                    return
                # The others' turns are spread over the window, not taken in a burst: a
                # table clicked next finds a turn leaving the window soon.
                due = (channel.other_at or now) + self._per / room
                if channel.other_at is not None and now < due:
                    self._wake_at(channel, due)
                    return
            heapq.heappop(channel.waiting)
            channel.flying.append(best.klass)
            if best.klass == CLICKED:
                channel.played_at = now
            else:
                channel.other_at = now
            best.granted.set_result(now)

    def _wake_when_one_leaves(self, channel: _Channel) -> None:
        if channel.granted:
            self._wake_at(channel, channel.granted[0] + self._per)

    def _room(self, channel: _Channel) -> int:
        """Turns of the window the tables not clicked may fill: one fewer than all (one is
        kept for a click), and while tables are being played in the channel (a clicked
        table's turn in the last few windows) only half, so those keep most of it."""
        played = channel.played_at
        if played is not None and self._clock.now() - played < PLAYING_WINDOWS * self._per:
            return max(1, (self._edits - 1) // 2)
        return max(1, self._edits - 1)

    def _best(self, channel: _Channel) -> _Waiter | None:
        """The waiter to serve next (entries of a table since moved up, or no longer
        waiting, are dropped on the way)."""
        while channel.waiting:
            klass, _, waiter = channel.waiting[0]
            if waiter.klass != klass or waiter.granted.done():
                heapq.heappop(channel.waiting)
                continue
            return waiter
        return None
