"""Bot moves after the click, played by one background follow-up per table.

The seats nobody clicks for (bot players, away players, players who left) are played there, so a
human's click is answered as soon as their own move is stored and published.

Each move takes the table's lock twice: once to read the round for the policy runner (which
reads it at once) and, once the bot has thought, again to play the move, if the state it was
decided for still holds. Thinking holds no lock: a click, a leave, a stop, a timer or a rematch
may change the table meanwhile, and then the move is dropped and decided again for the table
as it is. Every move is stored before it is published and notified, like a click's.

After a restart, loaded tables whose bots owe moves wait in a queue and are followed up one
table at a time, so the workers never hold more than one of their decisions ahead of a click's;
a table a human reaches (`ready`) leaves the queue and is followed up at once.
"""

from __future__ import annotations

import asyncio
import inspect
import logging
from collections.abc import Awaitable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bot.runtime.priority import background
from bot.service._live_table import LiveTable
from bot.service._locks import Notice, changed
from bot.service.errors import TableError
from bot.service.play import Play, PlayListener
from bot.snapshots import PLAYING

if TYPE_CHECKING:
    from bot.runtime.runner import PolicyRunner
    from bot.service.tables import Tables
    from games.contract import Round

log = logging.getLogger(__name__)

MAX_AUTO_ACTIONS = 2_000  # a guard: one follow-up never plays more (a round is shorter)
RETRY_SECONDS = 5.0  # a failed store write is retried after this


@dataclass(slots=True)
class _Thinking:
    """A decision under way, and the state it is made for."""

    seat: int
    round: Round[Any, Any, Any]
    seq: int  # actions in the round when the bot started thinking
    move: Awaitable[Any]
    decided: Any = None  # the move, once thought (or _Failed)


class FollowUp(PlayListener):
    """The bot-move part of the table service: one follow-up task per table whose bots owe
    moves, and the queue of restored tables whose bots move in turn. It listens to play: a
    turn begun with a seat nobody clicks for starts the table's follow-up."""

    def __init__(self, tables: Tables, play: Play, runner: PolicyRunner) -> None:
        self.tables = tables
        self.play = play
        # where bots think: in this process (tests, benchmarks) or in worker processes
        self.runner = runner
        # table id -> its follow-up task, while its bots have moves to make
        self.following: dict[int, asyncio.Task[None]] = {}
        # table id -> the decision of its next bot move, asked while the move before it was
        # being stored (`think_ahead`); taken by the table's follow-up if the state still holds
        self.ahead: dict[int, _Thinking] = {}
        # restored tables whose bots owe moves, in load order, waiting for their turn
        self.restored: dict[int, LiveTable] = {}
        self._restored_task: asyncio.Task[None] | None = None

    # -- what play announces (PlayListener) ---------------------------------------------
    def move_storing(self, table: LiveTable) -> None:
        self.think_ahead(table)

    def move_lost(self, table: LiveTable) -> None:
        self.drop_ahead(table.id)

    def turn_begun(self, table: LiveTable) -> None:
        if self.auto_seat(table) is not None:
            self.follow_up(table)

    async def settle(self, table_id: int | None = None) -> None:
        """Wait until the bot moves owed at this table (every table: None) are played, or
        their follow-up stopped (a store failure's retry timer takes over)."""
        while True:
            if table_id is None:
                tasks = set(self.following.values())
                queue = self._restored_task
                if queue is not None and not queue.done():
                    tasks.add(queue)
            else:
                self.reached(table_id)
                task = self.following.get(table_id)
                tasks = {task} if task is not None else set()
            if not tasks:
                return
            await asyncio.wait(tasks)

    def pending(self, table_id: int) -> bool:
        """Bot moves of this table are still to come (its public snapshot will move on)."""
        return table_id in self.following or table_id in self.restored

    def queue_restored(self, table: LiveTable) -> None:
        """A restored table's bots owe moves: they come in their turn (see the module's doc)."""
        self.restored[table.id] = table
        if self._restored_task is None or self._restored_task.done():
            self._restored_task = asyncio.get_running_loop().create_task(
                self._follow_restored(), name="restored-bots", context=background()
            )

    def reached(self, table_id: int) -> None:
        """A human reached this table: its bots, if still queued since the restart, move now."""
        table = self.restored.pop(table_id, None)
        if table is not None:
            self.follow_up(table)

    def forget(self, table_id: int) -> None:
        """The table left memory: its entries go (a follow-up thinking for it ends when its
        bot has thought: it finds the table closed)."""
        self.following.pop(table_id, None)
        self.restored.pop(table_id, None)
        self.drop_ahead(table_id)

    def drop_ahead(self, table_id: int) -> None:
        """The move a decision was thought ahead of is rolled back: nobody will play it."""
        _drop(self.ahead.pop(table_id, None))

    def think_ahead(self, table: LiveTable) -> None:
        """A move was applied and is being stored (under the table's lock): the bot that must
        move next starts thinking now, so its decision and that write take the same time, not
        one after the other. The follow-up takes it if the state it is for still holds (a
        failed write rolls the move back: a new round, and the decision is dropped)."""
        if table.id in self.restored:
            return  # a restored table's bots move in their turn (the module's doc)
        seat = self.auto_seat(table)
        if seat is None:
            return
        _drop(self.ahead.get(table.id))
        self.ahead[table.id] = self._think(table, seat)

    async def stop(self) -> None:
        """The service is closing: every follow-up and the restored tables' queue end."""
        self.restored.clear()
        for thinking in self.ahead.values():
            _drop(thinking)
        self.ahead.clear()
        following = list(self.following.values())
        if self._restored_task is not None:
            following.append(self._restored_task)
        for task in following:
            task.cancel()
        await asyncio.gather(*following, return_exceptions=True)
        self.following.clear()

    async def _follow_restored(self) -> None:
        while self.restored:
            table_id = next(iter(self.restored))
            self.reached(table_id)
            await self.settle(table_id)

    @staticmethod
    def auto_seat(table: LiveTable) -> int | None:
        """The first seat nobody clicks for that must act now (None: none)."""
        round_ = table.round
        if table.closed or table.status != PLAYING or round_ is None or round_.finished:
            return None
        return next((s for s in round_.to_act() if table.seats[s].auto), None)

    def follow_up(self, table: LiveTable) -> None:
        """Have the table's bots play in the background (under the lock: one follow-up per
        table; a table not listed yet, being restored, is followed up once listed)."""
        if table.id in self.following or self.tables.live.get(table.id) is not table:
            return
        # background work: a click anywhere goes first (bot/runtime/priority.py)
        self.following[table.id] = asyncio.get_running_loop().create_task(
            self._follow(table), name=f"table-{table.id}-bots", context=background()
        )

    def _stop_following(self, table: LiveTable) -> None:
        """The running follow-up's entry goes: this table owes no more bot moves (a follow-up
        needed later is a new one). Called under the lock when it ends normally, so a change
        made after it starts a new one; called again, harmlessly, when the task ends."""
        if self.following.get(table.id) is asyncio.current_task():
            del self.following[table.id]

    async def _follow(self, table: LiveTable) -> None:
        thinking: _Thinking | None = None
        try:
            for _ in range(MAX_AUTO_ACTIONS):
                async with self.tables.held(table) as (held, notes):
                    if thinking is not None and not await self._play_decided(held, notes, thinking):
                        self._stop_following(held)
                        return
                    seat = self.auto_seat(held)
                    if seat is None:
                        self._stop_following(held)
                        return
                    thinking = self._thought_ahead(held, seat) or self._think(held, seat)
                # the lock is free while the bot thinks
                thinking.decided = await _settled(thinking.move)
            log.error("table %s: bots still to move after %s moves", table.id, MAX_AUTO_ACTIONS)
            async with self.tables.held(table) as (held, _notes):
                self._stop_following(held)
                if not held.closed:
                    self.play.stalled(held)
        except Exception:  # a bug must not stall the table: a timer tries again
            log.exception("table %s: bot follow-up failed", table.id)
            if not table.closed:
                self.play.stalled(table)
        finally:
            self._stop_following(table)  # whatever ended it (a cancel, a bug) ends its entry

    def _thought_ahead(self, table: LiveTable, seat: int) -> _Thinking | None:
        """The decision `think_ahead` asked for this seat, if it is for the table as it is."""
        ahead = self.ahead.pop(table.id, None)
        if ahead is None:
            return None
        if (
            ahead.seat == seat
            and ahead.round is table.round
            and ahead.seq == len(ahead.round.history)
        ):
            return ahead
        _drop(ahead)
        return None

    def _think(self, table: LiveTable, seat: int) -> _Thinking:
        round_ = table.round
        assert round_ is not None
        try:
            move = self.runner.think(round_, seat, table.bots, table.rng, table=table.id)
        except Exception as error:
            move = asyncio.get_running_loop().create_future()
            move.set_exception(error)
        return _Thinking(seat, round_, len(round_.history), move)

    async def _play_decided(
        self, table: LiveTable, notes: list[Notice], thinking: _Thinking
    ) -> bool:
        """Play the decided move if the state it was decided for still holds (else it is
        dropped: the caller decides again). False: stop (the store failed; a timer retries)."""
        seat, round_ = thinking.seat, table.round
        if (
            self.auto_seat(table) is None
            or round_ is not thinking.round
            or len(round_.history) != thinking.seq
            or seat not in round_.to_act()
            or not table.seats[seat].auto
        ):
            return True
        decided = thinking.decided
        if isinstance(decided, _Failed):
            log.error(
                "table %s: %s bot failed for seat %s",
                table.id,
                table.game.name,
                seat,
                exc_info=decided.error,
            )
            move = round_.legal_actions(seat)[0]
        else:
            move = self.play.checked(table, seat, decided)
        try:
            await self.play.apply(table, seat, move)
        except TableError as error:  # the store failed: nobody may wait on this seat
            log.error("table %s: bot move for seat %s failed: %s", table.id, seat, error.key)
            self.play.stalled(table)
            return False
        await self.play.run_table(table, notes)  # scores a round a bot ended, arms the timers
        changed(table, notes)
        return True


def _drop(thinking: _Thinking | None) -> None:
    """A decision nobody will play: its worker skips it if it has not begun it."""
    if thinking is None:
        return
    move = thinking.move
    if isinstance(move, asyncio.Future):
        move.cancel()
    elif inspect.iscoroutine(move):  # a runner's coroutine (tests): never to be awaited
        move.close()


@dataclass(slots=True)
class _Failed:
    error: BaseException


async def _settled(move: Awaitable[Any]) -> Any:
    """The decided move, or the policy's error wrapped (logged and replaced under the lock)."""
    try:
        return await move
    except Exception as error:
        return _Failed(error)
