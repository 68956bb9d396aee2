"""Bot moves after the click: the seats nobody clicks for (bot players, away players, players
who left) are played by one background follow-up per table, so a human's click is answered as
soon as their own move is stored and published.

Each move takes the table's lock twice: once to read the round for the policy runner (which
reads it at once) and, once the bot has thought, again to play the move, if the state it was
decided for still holds. Thinking holds no lock: a click, a leave, a stop, a timer or a rematch
may change the table meanwhile, and then the move is dropped and decided again for the table
as it is. Every move is stored before it is published and notified, like a click's.

After a restart, loaded tables whose bots owe moves wait in a queue and are followed up one
table at a time, so the one worker process never holds more than one of their decisions ahead
of a click's; a table a human reaches (`ready`) leaves the queue and is followed up at once.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bot.service.errors import TableError
from bot.service.snapshots import PLAYING
from bot.service.table import LiveTable
from bot.service.timers import Notice

if TYPE_CHECKING:
    from bot.service.runner import PolicyRunner
    from bot.service.service import TableLock
    from games.contract import Event, Round

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


class FollowUpMixin:
    """The bot-move half of TableService (which provides the attributes declared here)."""

    policy_runner: PolicyRunner
    _tables: dict[int, LiveTable]
    # table id -> its follow-up task, while its bots have moves to make
    _following: dict[int, asyncio.Task[None]]
    # restored tables whose bots owe moves, in load order, waiting for their turn
    _restored_bots: dict[int, LiveTable]
    _restored_bots_task: asyncio.Task[None] | None

    if TYPE_CHECKING:

        async def _play(
            self, table: LiveTable, seat: int, action: Any, *, clicked: bool = False
        ) -> list[Event]: ...
        async def _run_table(self, table: LiveTable, notes: list[Notice]) -> None: ...
        def _held(self, table: LiveTable) -> TableLock: ...
        def _arm(self, table: LiveTable, delay: float, handler: Any) -> None: ...
        async def _on_turn_timer(self, table_id: int, token: int) -> None: ...
        @staticmethod
        def _checked(table: LiveTable, seat: int, move: Any) -> Any: ...
        @staticmethod
        def _changed(table: LiveTable, notes: list[Notice], entry: Any = None) -> None: ...

    async def settle(self, table_id: int | None = None) -> None:
        """Wait until the bot moves owed at this table (every table: None) are played, or
        their follow-up stopped (a store failure's retry timer takes over)."""
        while True:
            if table_id is None:
                tasks = set(self._following.values())
                queue = self._restored_bots_task
                if queue is not None and not queue.done():
                    tasks.add(queue)
            else:
                self._bots_now(table_id)
                task = self._following.get(table_id)
                tasks = {task} if task is not None else set()
            if not tasks:
                return
            await asyncio.wait(tasks)

    def bots_pending(self, table_id: int) -> bool:
        """Bot moves of this table are still to come (its public snapshot will move on)."""
        return table_id in self._following or table_id in self._restored_bots

    def _queue_restored_bots(self, table: LiveTable) -> None:
        """A restored table's bots owe moves: they come in their turn (see the module's doc)."""
        self._restored_bots[table.id] = table
        if self._restored_bots_task is None or self._restored_bots_task.done():
            self._restored_bots_task = asyncio.get_running_loop().create_task(
                self._follow_restored(), name="restored-bots"
            )

    def _bots_now(self, table_id: int) -> None:
        """A human reached this table: its bots, if still queued since the restart, move now."""
        table = self._restored_bots.pop(table_id, None)
        if table is not None:
            self._follow_up(table)

    async def _follow_restored(self) -> None:
        while self._restored_bots:
            table_id = next(iter(self._restored_bots))
            self._bots_now(table_id)
            await self.settle(table_id)

    @staticmethod
    def _auto_seat(table: LiveTable) -> int | None:
        """The first seat nobody clicks for that must act now (None: none)."""
        round_ = table.round
        if table.closed or table.status != PLAYING or round_ is None or round_.finished:
            return None
        return next((s for s in round_.to_act() if table.seats[s].auto), None)

    def _follow_up(self, table: LiveTable) -> None:
        """Have the table's bots play in the background (under the lock: one follow-up per
        table; a table not listed yet, being restored, is followed up once listed)."""
        if table.id in self._following or self._tables.get(table.id) is not table:
            return
        self._following[table.id] = asyncio.get_running_loop().create_task(
            self._follow(table), name=f"table-{table.id}-bots"
        )

    def _stop_following(self, table: LiveTable) -> None:
        """The running follow-up's entry goes: this table owes no more bot moves (a follow-up
        needed later is a new one). Called under the lock when it ends normally, so a change
        made after it starts a new one; called again, harmlessly, when the task ends."""
        if self._following.get(table.id) is asyncio.current_task():
            del self._following[table.id]

    async def _follow(self, table: LiveTable) -> None:
        thinking: _Thinking | None = None
        try:
            for _ in range(MAX_AUTO_ACTIONS):
                async with self._held(table) as (held, notes):
                    if thinking is not None and not await self._play_decided(held, notes, thinking):
                        self._stop_following(held)
                        return
                    seat = self._auto_seat(held)
                    if seat is None:
                        self._stop_following(held)
                        return
                    thinking = self._think(held, seat)
                # the lock is free while the bot thinks
                thinking.decided = await _settled(thinking.move)
            log.error("table %s: bots still to move after %s moves", table.id, MAX_AUTO_ACTIONS)
            async with self._held(table) as (held, _notes):
                self._stop_following(held)
                if not held.closed:
                    self._arm(held, RETRY_SECONDS, self._on_turn_timer)
        except Exception:  # a bug must not stall the table: a timer tries again
            log.exception("table %s: bot follow-up failed", table.id)
            if not table.closed:
                self._arm(table, RETRY_SECONDS, self._on_turn_timer)
        finally:
            self._stop_following(table)  # whatever ended it (a cancel, a bug) ends its entry

    def _think(self, table: LiveTable, seat: int) -> _Thinking:
        round_ = table.round
        assert round_ is not None
        try:
            move = self.policy_runner.think(round_, seat, table.bots, table.rng)
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
            self._auto_seat(table) is None
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
            move = self._checked(table, seat, decided)
        try:
            await self._play(table, seat, move)
        except TableError as error:  # the store failed: nobody may wait on this seat
            log.error("table %s: bot move for seat %s failed: %s", table.id, seat, error.key)
            self._arm(table, RETRY_SECONDS, self._on_turn_timer)
            return False
        await self._run_table(table, notes)  # scores a round a bot ended, arms the timers
        self._changed(table, notes)
        return True


@dataclass(slots=True)
class _Failed:
    error: BaseException


async def _settled(move: Awaitable[Any]) -> Any:
    """The decided move, or the policy's error wrapped (logged and replaced under the lock)."""
    try:
        return await move
    except Exception as error:
        return _Failed(error)
