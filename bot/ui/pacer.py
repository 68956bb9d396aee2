"""Table-message edits paced per channel, within Discord's rate limit, tables in play first.

Discord allows about 5 message edits per 5 seconds in a channel; a burst past it is answered
429 and every edit of that channel waits. After a restart every restored table wants its
message refreshed, and with many tables in one channel the tables being played would wait
behind minutes of refreshes. So each edit first asks for its `turn` in its channel:

- at most `edits` turns per `per` seconds in a channel (a sliding window on the bot's clock);
- a table *in play* (a round running at the restart, or clicked or changed since) goes
  before a table that only needs a refresh; refreshes leave one turn of each window free,
  and while tables are being played in the channel they take at most half of it, so the
  table just clicked is edited at once, and the next moves within seconds, even while a
  thousand restored tables are being refreshed;
- within a class, the oldest request first; a table waiting for a refresh that comes into
  play moves up to the front class;
- a turn that ends up making no edit (the message already shows that content) gives its
  place back.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
from collections import deque
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field

from bot.service.clock import Clock

EDITS_PER_WINDOW = 5
WINDOW_SECONDS = 5.0
IN_PLAY, REFRESH = 0, 1  # priority classes, first served first
PLAYING_WINDOWS = 3  # a channel counts as being played for this many windows after a turn


@dataclass
class Turn:
    """Set `edited = False` when the turn made no request: its place in the window returns."""

    edited: bool = True


@dataclass
class _Waiter:
    klass: int
    channel: _Channel
    granted: asyncio.Future[float]  # resolves to the time of the turn


@dataclass
class _Channel:
    granted: deque[float] = field(default_factory=deque)  # times of the turns in the window
    classes: deque[int] = field(default_factory=deque)  # and the class each went to
    waiting: list[tuple[int, int, _Waiter]] = field(default_factory=list)  # (class, order, ..)
    server: asyncio.Task[None] | None = None
    played_at: float | None = None  # the last turn of a table in play
    wake_at: float | None = None  # when the server is called back to grant again


class ChannelPacer:
    def __init__(
        self, clock: Clock, *, edits: int = EDITS_PER_WINDOW, per: float = WINDOW_SECONDS
    ) -> None:
        self._clock = clock
        self._edits = edits
        self._per = per
        self._channels: dict[int, _Channel] = {}
        self._in_play: set[int] = set()  # tables changed since the start (until closed)
        self._waiters: dict[int, _Waiter] = {}  # table id -> its latest edit waiting
        self._order = itertools.count()

    def in_play(self, table_id: int) -> None:
        """The table changed (a click, a timer): its edits go before mere refreshes."""
        self._in_play.add(table_id)
        waiter = self._waiters.get(table_id)
        if waiter is not None and waiter.klass == REFRESH and not waiter.granted.done():
            waiter.klass = IN_PLAY
            heapq.heappush(waiter.channel.waiting, (IN_PLAY, next(self._order), waiter))
            self._serve(waiter.channel)

    def forget(self, table_id: int) -> None:
        self._in_play.discard(table_id)

    @asynccontextmanager
    async def turn(self, channel_id: int, table_id: int) -> AsyncIterator[Turn]:
        """Wait for this table's turn to edit a message in this channel."""
        channel = self._channels.setdefault(channel_id, _Channel())
        klass = IN_PLAY if table_id in self._in_play else REFRESH
        waiter = _Waiter(klass, channel, asyncio.get_running_loop().create_future())
        self._waiters[table_id] = waiter
        heapq.heappush(channel.waiting, (klass, next(self._order), waiter))
        self._serve(channel)
        try:
            granted_at = await waiter.granted
        finally:
            if self._waiters.get(table_id) is waiter:
                del self._waiters[table_id]
        turn = Turn()
        try:
            yield turn
        finally:
            if granted_at in channel.granted:
                index = channel.granted.index(granted_at)
                klass = channel.classes[index]
                del channel.granted[index]
                del channel.classes[index]
                if turn.edited:
                    # Counted from when the edit is done: Discord counts it on arrival, which
                    # a slow request makes later than the grant.
                    channel.granted.append(self._clock.now())
                    channel.classes.append(klass)
                else:
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
            room = self._room(channel, best.klass)
            if len(channel.granted) >= room:
                # Come back when a turn leaves the window; a newcomer (a table in play) that
                # fits before that is served at once by the next `_serve`.
                oldest = channel.granted[max(0, len(channel.granted) - room)]
                self._wake_at(channel, oldest + self._per)
                return
            heapq.heappop(channel.waiting)
            channel.granted.append(now)
            channel.classes.append(best.klass)
            if best.klass == IN_PLAY:
                channel.played_at = now
            best.granted.set_result(now)

    def _room(self, channel: _Channel, klass: int) -> int:
        """Turns of the window this class may fill: all for tables in play; for refreshes,
        one fewer (kept for a click), and while tables are being played in the channel (a turn
        in play in the last few windows) only half, so those keep most of the window."""
        if klass == IN_PLAY:
            return self._edits
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
