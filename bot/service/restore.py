"""Restore, the part of the table service that brings tables back after a restart.

`start` lists the active tables (their players are seated at once) and loads them in the
background, `RESTORE_BATCH` at a time in table order; a table clicked before its turn is loaded
first, alone (`ready`), and the background starts no batch while a clicked table loads. A table
is listed only once rebuilt and resumed, so nobody sees one half restored; a table found broken
frees its players.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import random
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot.runtime.policy import (
    BOTS_OPTION,
    DEFAULT_BOT_LEVEL,
    TABLE_BOT_LEVELS,
    TURN_OPTION,
)
from bot.service import _table_log
from bot.service._live_table import LiveSeat, LiveTable
from bot.service._locks import Notice, logged_error_id, publish
from bot.service.coach import COACH_OPTION, coached
from bot.service.errors import TableError
from bot.service.followup import RETRY_SECONDS
from bot.service.play import log_entry
from bot.service.seating import preset_name
from bot.service.watching import (
    DEFAULT_SPECTATORS,
    SPECTATOR_MODES,
    SPECTATORS_OPTION,
    keep_watched_hands,
)
from bot.snapshots import FINISHED, LOBBY, PLAYING, ROUND_OVER, LogEntry
from storage.errors import StoreUnavailable
from storage.models import ActiveTable, ActiveTableEntry, GuildSettings, LoadedTables

if TYPE_CHECKING:
    from bot.clock import Clock
    from bot.service.followup import FollowUp
    from bot.service.play import Play
    from bot.service.tables import Tables
    from bot.service.timers import Timers
    from storage import Store

log = logging.getLogger(__name__)

RESTORE_BATCH = 25  # tables per background load: a clicked table waits for one at most
OnLoaded = Callable[[list[int], list[tuple[int, str]]], None]  # (restored ids, broken)


@dataclass(frozen=True, slots=True)
class RestoreReport:
    restored: tuple[int, ...]
    broken: tuple[tuple[int, str], ...]


class Restore:
    """The tables still to load after a restart, and their loading."""

    def __init__(
        self,
        tables: Tables,
        store: Store,
        clock: Clock,
        play: Play,
        timers: Timers,
        followup: FollowUp,
    ) -> None:
        self.tables = tables
        self.store = store
        self.clock = clock
        self.play = play
        self.timers = timers
        self.followup = followup
        # active in the store, not loaded yet (see `start`)
        self.unloaded: dict[int, ActiveTableEntry] = {}
        self._loading: dict[int, asyncio.Future[None]] = {}  # table id -> its load under way
        # Clicked tables being loaded alone: the background load starts no batch meanwhile,
        # so a click's queries and replay never queue behind a whole batch's.
        self._click_loads = 0
        self._no_click_load = asyncio.Event()
        self._no_click_load.set()
        self._restore_task: asyncio.Task[None] | None = None
        self._on_loaded: OnLoaded | None = None
        self._restored: list[int] = []
        self._broken: list[tuple[int, str]] = []

    async def restore(self) -> RestoreReport:
        """Rebuild every active table from the store and re-arm its timers; returns once all
        are loaded and their bots have moved (`start` returns at once)."""
        await self.start()
        await self.wait()
        await self.followup.settle()
        return RestoreReport(tuple(self._restored), tuple(self._broken))

    async def start(self, on_loaded: OnLoaded | None = None, *, batch: int = RESTORE_BATCH) -> int:
        """After a restart: list the active tables (their players are seated at once, so
        "already seated" holds), then load them in the background, `batch` at a time, in
        table order; a table clicked before its turn is loaded first (`ready`). A table is
        never visible half loaded: it is listed once rebuilt and resumed. `on_loaded(restored,
        broken)` is called after each load. Returns how many tables are to load."""
        for entry in await self.store.active_table_index():
            if entry.table_id in self.tables.live:
                continue
            self.unloaded[entry.table_id] = entry
            for user_id in entry.human_ids:
                self.tables.seated[(entry.guild_id, user_id)] = entry.table_id
        self._on_loaded = on_loaded
        warm = getattr(self.followup.runner, "warm", None)
        if warm is not None and self.unloaded:  # tables in play: their bots will move soon
            warm()
        self._restore_task = asyncio.get_running_loop().create_task(
            self._load_the_rest(batch), name="service-restore"
        )
        return len(self.unloaded)

    async def ready(self, table_id: int) -> None:
        """Make sure the table is loaded: after a restart, a table that is clicked before the
        background restore reached it is loaded first, alone (a few ms). The service's queries
        answer for loaded tables only: the glue awaits this before using them."""
        while table_id in self.unloaded:
            pending = self._loading.get(table_id)
            if pending is not None:
                await asyncio.shield(pending)
                continue
            self._click_loads += 1
            self._no_click_load.clear()
            try:
                await self._load([table_id])
            finally:
                self._click_loads -= 1
                if not self._click_loads:
                    self._no_click_load.set()
            if table_id in self.unloaded:
                what = f"table {table_id} could not be loaded"
                raise TableError("store_failed", error_id=logged_error_id(what))
        self.followup.reached(table_id)  # restored with bot moves owed: they go first now

    async def stop(self) -> None:
        """Stop loading tables in the background (the service is closing)."""
        if self._restore_task is not None and not self._restore_task.done():
            self._restore_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._restore_task

    async def wait(self) -> None:
        """Wait until the background load `start` began is over."""
        if self._restore_task is not None:
            await asyncio.shield(self._restore_task)

    async def _load_the_rest(self, batch: int) -> None:
        await self._load_until_done(batch)
        self.tables.long_lived.freeze()  # all loaded: keep them out of the collector's way

    async def _load_until_done(self, batch: int) -> None:
        while self.unloaded:
            await self._no_click_load.wait()  # a clicked table goes first
            waiting = (i for i in self.unloaded if i not in self._loading)
            ids = list(itertools.islice(waiting, batch))
            if not ids:  # the rest is being loaded by clicks
                await asyncio.gather(*(asyncio.shield(f) for f in set(self._loading.values())))
                continue
            if not await self._load(ids):
                await self.clock.sleep(RETRY_SECONDS)
            await asyncio.sleep(0)  # clicks between two batches

    async def _load(self, ids: list[int]) -> bool:
        """Load and resume these tables (False: the store is unavailable; they stay to load).
        Each table's waiters go on as soon as that table is listed. Any other failure is the
        batch's own (a damaged row the store did not catch): each table is then loaded alone,
        and one that fails alone is broken, never tried again in a loop."""
        loop = asyncio.get_running_loop()
        for table_id in ids:
            self._loading[table_id] = loop.create_future()
        alone: list[int] = []
        stored_broken: set[int] = set()  # marked broken by the store itself
        try:
            loaded = await self.store.load_active_tables(table_ids=ids)
            stored_broken = {table_id for table_id, _ in loaded.broken}
            restored, broken = await self._bring_back(loaded)
        except StoreUnavailable:
            log.warning("tables %s could not be loaded: the store is away; trying again", ids[:5])
            return False
        except Exception as error:
            if len(ids) > 1:
                log.info("a batch of tables failed to load (%r): loading them one by one", error)
                alone = ids
                restored, broken = [], []
            else:
                log.warning("table %s could not be loaded: %r", ids[0], error, exc_info=error)
                restored, broken = [], [(ids[0], f"could not be loaded: {error!r}"[:200])]
        finally:
            for table_id in ids:
                self._loaded(table_id)
        if alone:
            waiting = [i for i in alone if i in self.unloaded and i not in self._loading]
            for table_id in waiting:
                if table_id in self.unloaded and not await self._load([table_id]):
                    return False  # the store went away meanwhile: the rest waits for it
            return True
        for table_id, reason in broken:
            if table_id not in stored_broken:
                await self._mark_broken(table_id, reason)
        for table_id in ids:
            entry = self.unloaded.pop(table_id, None)
            if entry is not None and table_id not in self.tables.live:  # broken, or not active
                for user_id in entry.human_ids:
                    self.tables.release(entry.guild_id, user_id, table_id)
        self._restored += restored
        self._broken += broken
        self.tables.long_lived.built(len(restored))
        if self._on_loaded is not None:
            self._on_loaded(restored, broken)
        return True

    async def _mark_broken(self, table_id: int, reason: str) -> None:
        """Stored as broken (the store marks those it finds itself): no restart tries again."""
        try:
            await self.store.update_table(table_id, status="broken", broken_reason=reason)
        except Exception as error:  # the table stays active in the store: tried next restart
            log.info("table %s could not be marked broken: %r", table_id, error)

    def _loaded(self, table_id: int) -> None:
        """Wake whoever waits for this table (it is listed, or known broken)."""
        future = self._loading.pop(table_id, None)
        if future is not None and not future.done():
            future.set_result(None)

    async def _bring_back(self, loaded: LoadedTables) -> tuple[list[int], list[tuple[int, str]]]:
        restored: list[int] = []
        broken = list(loaded.broken)
        settings: dict[int, GuildSettings] = {}  # one read per guild for the whole batch
        for active in loaded.tables:
            if active.table.id in self.tables.live:
                continue
            guild_id = active.table.guild_id
            if guild_id not in settings:
                settings[guild_id] = await self._guild_settings(guild_id)
            try:
                table = self._rebuild(active, settings[guild_id])
            except Exception as error:  # one bad table must not stop the others
                log.exception("table %s could not be restored", active.table.id)
                broken.append((active.table.id, str(error)))
                continue
            # Announced only if resuming changes it: the table as stored was shown and its
            # turn mentioned before the restart (the glue refreshes its message, `on_loaded`).
            async with self.tables.held(table) as (held, notes):
                try:
                    await self._resume(held, notes)
                except TableError as error:  # logged; the table stays as the store has it
                    log.error("table %s: not resumed: %s", held.id, error.params)
            self.tables.live[table.id] = table  # listed whole: rebuilt and resumed
            if self.followup.auto_seat(table) is not None:
                self.followup.queue_restored(table)  # its bots move in the background, in turn
            self._loaded(table.id)
            restored.append(table.id)
            await asyncio.sleep(0)  # a click that came meanwhile goes first
        return restored, broken

    async def _guild_settings(self, guild_id: int) -> GuildSettings:
        """The guild's settings; its defaults if they cannot be read (the store validates each
        value as it reads it; this guards the restore of every other guild anyway)."""
        try:
            return await self.store.get_guild_settings(guild_id)
        except StoreUnavailable:
            raise
        except Exception as error:
            log.warning("guild %s: settings unreadable (%r): defaults used", guild_id, error)
            return GuildSettings(guild_id=guild_id)

    async def _resume(self, table: LiveTable, notes: list[Notice]) -> None:
        if table.status == PLAYING:
            if table.round is not None and not table.round.finished:
                # The turns restored were announced before the restart: their players are not
                # reminded of them again (a thousand reminders at once); the timeout comes.
                table.reminded.update(table.round.to_act())
            await self.play.run_table(table, notes)
        elif table.status == ROUND_OVER and table.match is not None and table.match.finished:
            # The last round was stored but the match end was not (a stop in between).
            try:
                await self.play.finish_match(table, table.match)
            except TableError:  # the store refuses a second finish_match: it was stored
                table.match_stored = True
                await self.play.finish_match(table, table.match)
            table.status = FINISHED
            table.winners = table.match.winner_seats()
            for user_id in table.human_ids():
                self.tables.release(table.guild_id, user_id, table.id)
            self.timers.arm(
                table,
                self.timers.finished_keep_seconds,
                self.timers.on_finished_expiry,
            )
        elif table.status == ROUND_OVER:
            self.timers.arm_next_round(table)

    def _round_end(self, table: LiveTable, active: ActiveTable, *, log_kept: bool) -> None:
        """Between two rounds: the round just finished and the log that ended with it, as
        the table showed them (`Play.end_round` made them the same way); the log only if it
        was not kept."""
        round_, match = active.last_round, active.match
        assert round_ is not None and match is not None and active.last_round_no is not None
        shown = table.show_round_end(active.last_round_no, round_, round_.result())
        if log_kept:
            return
        table.add_log(LogEntry("round_started", None, {"round": match.round_no}, "table"))
        for event in active.log:
            table.add_log(log_entry(event))
        table.add_log(
            LogEntry("round_over", None, {"points": shown.points, "totals": shown.totals}, "table")
        )

    @staticmethod
    def _kept_log(table: LiveTable, active: ActiveTable) -> bool:
        """Put back the log the table showed: as the store kept it, then the engine's lines of
        the actions stored after it (bot/service/_table_log.py). False, the log left empty,
        when none was kept (a table stored before V15) or the one kept cannot be used (a
        damaged row, logged): the caller then rebuilds the current round's lines."""
        kept, error = active.kept_log, active.kept_log_error
        if kept is None:
            if error is not None:
                log.warning("table %s: its kept log is damaged (%s): rebuilt", table.id, error)
            return False
        try:
            entries = _table_log.entries(kept)
        except ValueError as damaged:
            log.warning("table %s: its kept log is damaged (%s): rebuilt", table.id, damaged)
            return False
        round_, number = active.round, active.round_no
        if round_ is None:  # between two rounds: the one just finished
            round_, number = active.last_round, active.last_round_no
        later: list[LogEntry] = []
        if active.table.status == LOBBY or (kept.round_no is None and round_ is None):
            pass  # no action since it was kept
        elif round_ is not None and kept.round_no == number and kept.actions <= len(round_.history):
            later = [log_entry(event) for event in active.kept_later]
        else:
            log.warning(
                "table %s: its kept log (round %s, %s actions) is not of its round %s: rebuilt",
                table.id,
                kept.round_no,
                kept.actions,
                number,
            )
            return False
        table.log = deque(entries)
        for entry in later:
            table.add_log(entry)
        return True

    def _rebuild(self, active: ActiveTable, settings: GuildSettings) -> LiveTable:
        record = active.table
        game = self.tables.game(record.game)
        stored = dict(record.options)
        bots = stored.pop(BOTS_OPTION, DEFAULT_BOT_LEVEL)  # tables opened before the option
        spectators = stored.pop(SPECTATORS_OPTION, DEFAULT_SPECTATORS)  # (the same)
        coach = coached(stored)
        stored.pop(COACH_OPTION, None)
        turn_override = stored.pop(TURN_OPTION, None)
        options = game.options_model.model_validate(stored)
        seats = [
            LiveSeat(s.user_id, s.display_name, s.is_bot, s.joined_at, s.left_at, position=s.seat)
            for s in sorted(active.seats, key=lambda s: s.seat)
        ]
        table = LiveTable(
            id=record.id,
            guild_id=record.guild_id,
            channel_id=record.channel_id,
            game=game,
            preset=preset_name(game, options),
            options=options,
            host_id=record.host_id,
            seats=seats,
            turn_seconds=float(turn_override or settings.turn_seconds),
            turn_override=float(turn_override) if turn_override else None,
            bots=bots if bots in TABLE_BOT_LEVELS else DEFAULT_BOT_LEVEL,
            spectators=spectators if spectators in SPECTATOR_MODES else DEFAULT_SPECTATORS,
            coach=coach,
        )
        log_kept = self._kept_log(table, active)
        if record.status == "playing" and active.match is not None:
            table.match = active.match
            table.round_scored = active.round is None
            if active.round is not None:
                table.round = active.round
                keep_watched_hands(table)  # known from the next turn: rebuilt mid-turn
                table.round_no = active.round_no
                table.status = PLAYING
                if not log_kept:  # as it was rebuilt before logs were kept: this round's
                    number = active.match.round_no + 1
                    table.add_log(LogEntry("round_started", None, {"round": number}, "table"))
                    for event in active.log:
                        table.add_log(log_entry(event))
                table.rng = random.Random(f"{record.id}:{active.round_no}:{len(seats)}")
            else:
                table.status = ROUND_OVER
                # the round just finished, as `Play.end_round` leaves it: its buttons' number
                table.round_no = active.last_round_no
                if active.last_round is not None and active.last_round_no is not None:
                    self._round_end(table, active, log_kept=log_kept)
        table.log_unsaved = False  # as kept, or rebuilt from what is stored
        humans = table.human_ids()
        if table.host_id not in humans and humans:
            table.host_id = humans[0]  # the store keeps the first host; a new one is re-derived
        for user_id in humans:
            self.tables.seated[(table.guild_id, user_id)] = table.id
        publish(table)  # as loaded: every part of it is on disk
        return table
