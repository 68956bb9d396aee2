"""The live tables of one bot process and who sits where.

This is the part of the table service every other part reads. It looks tables up, claims and
frees each user's one seat per guild, stores seats, and drops a table from memory, however it
leaves."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from bot.clock import Clock
from bot.runtime.long_lived import LongLived
from bot.service import _table_log
from bot.service._live_table import LiveTable
from bot.service._locks import Announcer, Notice, TableLock, store_failed
from bot.service.errors import TableError
from bot.snapshots import LOBBY, LogEntry
from games.contract import Game, Options
from storage.models import SeatRecord

if TYPE_CHECKING:
    from storage import Store
    from storage.models import TableStatus

log = logging.getLogger(__name__)


async def _in_memory(table_id: int) -> None:
    """Every table is in memory (no restart to load them from: until `loader` is set)."""


class Tables:
    """The tables in memory (`live`) and the seat claims (`seated`)."""

    def __init__(
        self,
        store: Store,
        clock: Clock,
        announcer: Announcer,
        games: Callable[[str], Game[Any, Any, Any]],
    ) -> None:
        self.store = store
        self.clock = clock
        self.announcer = announcer  # what a locked section collected, sent on release
        self._games = games
        self.live: dict[int, LiveTable] = {}
        self.seated: dict[tuple[int, int], int] = {}  # (guild, user) -> table id (<0: opening)
        self.long_lived = LongLived()
        # loads a table a restart has yet to load (`Restore.ready`, set by the service once
        # the restore part is built: it reads these tables)
        self.loader: Callable[[int], Awaitable[None]] = _in_memory
        # told the id of every table that leaves memory (the follow-up drops its tasks)
        self.forget_listeners: list[Callable[[int], None]] = []

    # -- looking up ----------------------------------------------------------------------
    def get(self, table_id: int) -> LiveTable:
        table = self.live.get(table_id)
        if table is None or table.closed:
            raise TableError("no_table", table_id=table_id)
        return table

    async def ready(self, table_id: int) -> None:
        """Make sure the table is loaded (a restart loads tables in the background)."""
        await self.loader(table_id)

    def locked(self, table_id: int) -> TableLock:
        return TableLock(self, None, table_id=table_id)

    def reading(self, table_id: int) -> TableLock:
        """The lock of a reader that changes nothing: neither republishes nor notifies."""
        return TableLock(self, None, table_id=table_id, read_only=True)

    def held(self, table: LiveTable) -> TableLock:
        """The lock of a table the caller found itself (timers): no refusal if it closed
        meanwhile, the caller checks `table.closed`."""
        return TableLock(self, table, refuse_closed=False)

    def game(self, name: str) -> Game[Any, Any, Any]:
        try:
            return self._games(name)
        except (KeyError, ImportError) as error:
            raise TableError("unknown_game", game=name) from error

    @staticmethod
    def options(game: Game[Any, Any, Any], preset: str | None, target: int | None) -> Options:
        if preset is not None and preset not in game.presets:
            raise TableError("unknown_preset", preset=preset, presets=", ".join(game.presets))
        try:
            chosen: Options = (
                game.options(preset) if target is None else game.options(preset, target=target)
            )
            return chosen
        except ValidationError as error:
            raise TableError("bad_option", message=error.errors()[0]["msg"]) from error

    def now(self) -> datetime:
        return datetime.fromtimestamp(self.clock.now(), UTC)

    # -- seat claims ---------------------------------------------------------------------
    def reserve(self, guild_id: int, user_id: int, table_id: int) -> None:
        """Claim the user's one seat in this guild (no await between check and claim)."""
        current = self.seated.get((guild_id, user_id))
        if current is not None and current != table_id:
            raise TableError("already_seated", table_id=current if current > 0 else None)
        self.seated[(guild_id, user_id)] = table_id

    def release(self, guild_id: int, user_id: int, table_id: int) -> None:
        if self.seated.get((guild_id, user_id)) == table_id:
            del self.seated[(guild_id, user_id)]

    def table_of_user(self, guild_id: int, user_id: int) -> int | None:
        table_id = self.seated.get((guild_id, user_id))
        return table_id if table_id is not None and table_id > 0 else None

    # -- checks --------------------------------------------------------------------------
    @staticmethod
    def need_lobby(table: LiveTable) -> None:
        if table.status != LOBBY:
            raise TableError("not_in_lobby")

    @staticmethod
    def need_host(table: LiveTable, user_id: int) -> None:
        if user_id != table.host_id:
            raise TableError("not_host")

    @staticmethod
    def need_seat(table: LiveTable, user_id: int) -> int:
        seat = table.seat_of(user_id)
        if seat is None:
            raise TableError("not_seated")
        return seat

    # -- storing seats and closing -------------------------------------------------------
    async def save_seats(
        self,
        table: LiveTable,
        undo: Callable[[], object],
        *entries: LogEntry,
    ) -> None:
        """Store the seats after a change in memory, with the log's `entries` saying so (kept
        in the same transaction while the table restores: a restart shows them); if the store
        fails, undo the change and the entries (so memory equals disk) and refuse the click."""
        before = table.log_state()
        for entry in entries:
            table.add_log(entry)
        active = table.status in _table_log.ACTIVE_STATES  # a finished table's log is not kept
        try:
            await self.store.save_seats(
                table.id,
                self.seat_records(table),
                log=_table_log.table_log(table) if active else None,
            )
        except Exception as error:
            undo()
            table.restore_log(before)
            table.version += 1  # re-rendered when the lock is released
            raise store_failed(error) from error
        table.log_unsaved = table.log_unsaved and not active

    async def save_log(self, table: LiveTable) -> None:
        """Keep the table's log if a line of its own is not kept yet (a timeout, a player
        back: lines no other write carries), before the lock shows it. A failure is logged:
        the line stays shown, and the next write of the table keeps it."""
        if not table.log_unsaved or table.closed or table.status not in _table_log.ACTIVE_STATES:
            return
        try:
            await self.store.save_table_log(table.id, _table_log.table_log(table))
        except Exception as error:  # a log line never undoes a stored move
            log.warning("table %s: log not kept: %r", table.id, error)
            return
        table.log_unsaved = False

    @staticmethod
    def seat_records(table: LiveTable) -> list[SeatRecord]:
        return [
            SeatRecord(
                seat=s.position,
                user_id=s.user_id,
                display_name=s.name,
                is_bot=s.is_bot,
                joined_at=s.joined_at,
                left_at=s.left_at,
            )
            for s in table.seats
        ]

    async def close(
        self,
        table: LiveTable,
        notes: list[Notice],
        status: TableStatus | None,
        entry: LogEntry,
    ) -> None:
        if status is not None:
            try:
                await self.store.update_table(table.id, status=status)
            except Exception as error:
                raise store_failed(error) from error
        table.add_log(entry)
        self.forget(table, notes)
        if status == "abandoned" and table.match is not None:
            notes.append(("match_over", table.id, None))  # stopped unfinished: nobody won it

    def forget(self, table: LiveTable, notes: list[Notice]) -> None:
        """The table leaves memory (closed, stopped, abandoned or expired): nothing of it stays
        here, and `table_closed` tells the glue to free what it keeps for it."""
        table.cancel_timer()
        table.closed = True
        for user_id in table.human_ids():
            self.release(table.guild_id, user_id, table.id)
        self.live.pop(table.id, None)
        for listener in self.forget_listeners:
            listener(table.id)
        table.version += 1
        notes.append(("table_closed", table.id, None))
