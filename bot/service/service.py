"""The table service: seating, starting, applying clicks, storing them, timers, and the
snapshots each viewer gets. No discord here; one asyncio lock per table.

Every state change follows one order: validate, apply on the engine, store (durable), then
notify outside the lock. A failed store write is rolled back by replaying the stored round, so
memory always equals disk. Nothing outside the service reads a live table: it reads the
snapshot published when the table's lock is released, once every change is stored or rolled
back, so a state whose write is pending (or failed) is never shown.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from bot.service import build
from bot.service.clock import Clock
from bot.service.errors import TableError
from bot.service.followup import RETRY_SECONDS, FollowUpMixin
from bot.service.memory import LongLived
from bot.service.notifier import TableNotifier
from bot.service.policy import BOT_LEVELS, BOTS_OPTION, DEFAULT_BOT_LEVEL, policy_for
from bot.service.runner import InlinePolicyRunner, PolicyRunner
from bot.service.snapshots import (
    FINISHED,
    LOBBY,
    PLAYING,
    ROUND_OVER,
    ActResult,
    LogEntry,
    PlayerRef,
    PrivateSnapshot,
    PublicSnapshot,
    Reveal,
    RoundEnd,
    TableSnapshot,
)
from bot.service.table import LiveSeat, LiveTable
from bot.service.timers import Notice, TimerMixin
from games.cards import Card
from games.contract import Event, Game, Options
from games.errors import IllegalAction
from games.match import Match
from games.registry import get_game
from storage.errors import StoreUnavailable
from storage.models import (
    ActiveTable,
    ActiveTableEntry,
    GuildSettings,
    LoadedTables,
    SeatRecord,
)

if TYPE_CHECKING:
    from storage import Store

log = logging.getLogger(__name__)

RESTORE_BATCH = 25  # tables per background load: a clicked table waits for one at most
OnLoaded = Callable[[list[int], list[tuple[int, str]]], None]  # (restored ids, broken)


@dataclass(frozen=True, slots=True)
class RestoreReport:
    restored: tuple[int, ...]
    broken: tuple[tuple[int, str], ...]


class TableService(TimerMixin, FollowUpMixin):
    """All live tables of one bot process. See bot/service/README.md for the rules it keeps."""

    def __init__(
        self,
        store: Store,
        clock: Clock,
        notifier: TableNotifier,
        seed_source: Callable[[], int],
        *,
        games: Callable[[str], Game[Any, Any, Any]] = get_game,
        next_round_seconds: float = 20.0,
        finished_keep_seconds: float = 3600.0,
        policy_runner: PolicyRunner | None = None,
    ) -> None:
        self.store = store
        self.clock = clock
        self.notifier = notifier
        self.seed_source = seed_source
        self._games = games
        self.next_round_seconds = next_round_seconds
        self.finished_keep_seconds = finished_keep_seconds
        # where bots think: in this process by default (tests, benchmarks), in a worker process
        # for the real bot (bot/app.py), so a searching bot never holds up the event loop
        self.policy_runner: PolicyRunner = policy_runner or InlinePolicyRunner()
        self._tables: dict[int, LiveTable] = {}
        self._following: dict[int, asyncio.Task[None]] = {}  # table id -> its bots' moves
        self._restored_bots: dict[int, LiveTable] = {}  # restored, bots to move in turn
        self._restored_bots_task: asyncio.Task[None] | None = None
        self._closing = False  # `close()` began: timers are no longer armed
        self._seated: dict[tuple[int, int], int] = {}  # (guild, user) -> table id
        # After a restart: active in the store, not loaded yet (see `start_restore`).
        self._unloaded: dict[int, ActiveTableEntry] = {}
        self._loading: dict[int, asyncio.Future[None]] = {}  # table id -> its load under way
        # Clicked tables being loaded alone: the background load starts no batch meanwhile,
        # so a click's queries and replay never queue behind a whole batch's.
        self._click_loads = 0
        self._no_click_load = asyncio.Event()
        self._no_click_load.set()
        self._restore_task: asyncio.Task[None] | None = None
        self._on_loaded: OnLoaded | None = None
        self._long_lived = LongLived()
        self._restored: list[int] = []
        self._broken: list[tuple[int, str]] = []

    # ------------------------------------------------------------------------------------
    # queries (no lock: they read memory only, and never await)
    # ------------------------------------------------------------------------------------
    def table_of_user(self, guild_id: int, user_id: int) -> int | None:
        table_id = self._seated.get((guild_id, user_id))
        return table_id if table_id is not None and table_id > 0 else None

    def tables_in_channel(self, channel_id: int) -> list[int]:
        found = [t.id for t in self._tables.values() if t.channel_id == channel_id]
        found += [e.table_id for e in self._unloaded.values() if e.channel_id == channel_id]
        return sorted(found)

    def table_ids(self) -> list[int]:
        return sorted([*self._tables, *self._unloaded])

    def has_table(self, table_id: int) -> bool:
        """The table is open here, loaded or still to load after a restart (the glue keeps
        things for open tables only)."""
        table = self._tables.get(table_id)
        return (table is not None and not table.closed) or table_id in self._unloaded

    def loaded(self, table_id: int) -> bool:
        """The table is in memory (False while a restart has yet to load it)."""
        return table_id in self._tables

    async def ready(self, table_id: int) -> None:
        """Make sure the table is loaded: after a restart, a table that is clicked before the
        background restore reached it is loaded first, alone (a few ms). The queries above
        answer for loaded tables only: the glue awaits this before using them."""
        while table_id in self._unloaded:
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
            if table_id in self._unloaded:
                raise TableError("store_failed", message=f"table {table_id} could not be loaded")
        self._bots_now(table_id)  # restored with bot moves owed: they go first now

    def public_snapshot(self, table_id: int) -> PublicSnapshot:
        """The table as last stored: published when its lock was last released."""
        return _published(self._table(table_id))

    def game_of(self, table_id: int) -> Game[Any, Any, Any]:
        """The game played at this table (raises no_table like the other queries)."""
        return self._table(table_id).game

    def bot_choice(
        self,
        table_id: int,
        user_id: int,
        rng: random.Random,
        choose: Callable[[Any, int, random.Random], str | None] | None = None,
    ) -> str | None:
        """What the bot policy would play for this user's seat now, in notation (None if the
        seat may not act). The policy reads only the seat's view and knowledge: the benchmark
        clicks with it, and a "hint" could. `choose(round, seat, rng)`, if given, decides
        instead (a benchmark's scripted player)."""
        table = self._table(table_id)
        seat = table.seat_of(user_id)
        round_ = table.round
        if seat is None or round_ is None or table.status != PLAYING or table.lock.locked():
            return None  # (locked: the round may hold a move whose write is pending)
        if seat not in round_.to_act():
            return None
        if choose is not None:
            return choose(round_, seat, rng)
        # the simple level: this runs on the event loop, and a strong bot may search for a
        # tenth of a second (the table's own bot players think in the policy runner)
        return str(policy_for(table.game, "simple").choose(round_, seat, rng))

    def stack_deck(self, table_id: int, deck: Sequence[Card]) -> None:
        """Use this exact deck order (top first) for the table's next round (tests, replays)."""
        self._table(table_id).stacked_decks.append(list(deck))

    # ------------------------------------------------------------------------------------
    # lobby
    # ------------------------------------------------------------------------------------
    async def open_table(
        self,
        guild_id: int,
        channel_id: int,
        host: PlayerRef,
        game: str,
        preset: str | None = None,
        target: int | None = None,
        bots: str | None = None,
    ) -> TableSnapshot:
        """Open a table; `bots` (`simple` or `strong`; None: the guild's default) is how its
        bot players play."""
        game_obj = self._game(game)
        options = self._options(game_obj, preset, target)
        if bots is not None and bots not in BOT_LEVELS:
            raise TableError("bad_option", message=f"bots must be one of {BOT_LEVELS}")
        self._reserve(guild_id, host.user_id, -1)
        try:
            settings = await self.store.get_guild_settings(guild_id)
            bots = bots or settings.bots
            stored_options = {**options.model_dump(mode="json"), BOTS_OPTION: bots}
            record = await self.store.create_table(
                guild_id, channel_id, game, stored_options, host.user_id
            )
            table = LiveTable(
                id=record.id,
                guild_id=guild_id,
                channel_id=channel_id,
                game=game_obj,
                preset=preset or _preset_name(game_obj, options),
                options=options,
                host_id=host.user_id,
                seats=[LiveSeat(host.user_id, host.name, False, self._now_dt(), position=0)],
                turn_seconds=float(settings.turn_seconds),
                bots=bots,
            )
            await self.store.save_seats(table.id, self._seat_records(table))
        except TableError:
            self._release(guild_id, host.user_id, -1)
            raise
        except Exception as error:
            self._release(guild_id, host.user_id, -1)
            raise _store_failed(error) from error
        self._release(guild_id, host.user_id, -1)
        self._seated[(guild_id, host.user_id)] = table.id
        table.add_log(LogEntry("opened", 0, {"name": host.name}, "table"))
        table.version += 1
        _publish(table)
        self._tables[table.id] = table
        self._long_lived.built()
        return _published(table)

    async def join(
        self, table_id: int, player: PlayerRef, position: int | None = None
    ) -> PublicSnapshot:
        """Sit down at the first free seat, or at `position` if it is free (a fixed-size game's
        N/E/S/W; a seated player moves there)."""
        async with self._locked(table_id) as (table, notes):
            self._need_lobby(table)
            mine = table.seat_of(player.user_id)
            if position is not None:
                await self._take_position(table, notes, player, mine, position)
                return _published(table)
            if mine is not None:
                raise TableError("already_joined", table_id=table_id)
            await self._sit(table, notes, player, self._free_position(table))
        return _published(table)

    async def swap_seats(
        self, table_id: int, user_id: int, first: int, second: int
    ) -> PublicSnapshot:
        """The host swaps whoever sits at two seats of the lobby (one of them may be free)."""
        async with self._locked(table_id) as (table, notes):
            self._need_lobby(table)
            self._need_host(table, user_id)
            for position in (first, second):
                self._need_position(table, position)
            a, b = table.index_at(first), table.index_at(second)
            if first == second or (a is None and b is None):
                raise TableError("bad_seat")
            moved = [table.seats[i] for i in (a, b) if i is not None]
            undo = self._positions_undo(table)
            if a is not None:
                table.seats[a].position = second
            if b is not None:
                table.seats[b].position = first
            table.settle_positions()
            await self._save_seats(table, undo)
            names = " ↔ ".join(seat.name for seat in moved)
            self._changed(table, notes, LogEntry("seats_swapped", None, {"names": names}, "table"))
        return _published(table)

    async def _take_position(
        self,
        table: LiveTable,
        notes: list[Notice],
        player: PlayerRef,
        mine: int | None,
        position: int,
    ) -> None:
        self._need_position(table, position)
        occupant = table.index_at(position)
        if occupant is not None:
            raise TableError("already_joined" if occupant == mine else "seat_taken")
        if mine is None:
            await self._sit(table, notes, player, position)
            return
        undo = self._positions_undo(table)
        seat = table.seats[mine]
        seat.position = position
        table.settle_positions()
        await self._save_seats(table, undo)
        self._changed(table, notes, LogEntry("moved", None, {"name": seat.name}, "table"))

    async def _sit(
        self, table: LiveTable, notes: list[Notice], player: PlayerRef, position: int
    ) -> None:
        self._reserve(table.guild_id, player.user_id, table.id)
        seat = LiveSeat(player.user_id, player.name, False, self._now_dt(), position=position)
        table.place(seat)

        def undo() -> None:
            table.seats.remove(seat)
            self._release(table.guild_id, player.user_id, table.id)

        await self._save_seats(table, undo)
        index = table.seats.index(seat)
        self._changed(table, notes, LogEntry("joined", index, _name(player), "table"))

    @staticmethod
    def _free_position(table: LiveTable) -> int:
        free = table.free_positions()
        if not free:
            raise TableError("table_full", max=table.game.max_seats)
        return free[0]

    @staticmethod
    def _need_position(table: LiveTable, position: int) -> None:
        if not table.fixed_seats or not 0 <= position < table.game.max_seats:
            raise TableError("bad_seat")

    @staticmethod
    def _positions_undo(table: LiveTable) -> Callable[[], None]:
        """Puts every seat back at its present position (if the store refuses a move)."""
        before = [(seat, seat.position) for seat in table.seats]

        def undo() -> None:
            for seat, position in before:
                seat.position = position
            table.settle_positions()

        return undo

    async def add_bot(
        self, table_id: int, user_id: int, name: Callable[[int], str] | None = None
    ) -> PublicSnapshot:
        """The host fills a lobby seat with a bot player, numbered here (under the table's lock)
        and named by `name(number)` (the glue's words for it), else "Bot <number>"."""
        async with self._locked(table_id) as (table, notes):
            self._need_lobby(table)
            self._need_host(table, user_id)
            position = self._free_position(table)
            number = sum(1 for s in table.seats if s.is_bot) + 1
            bot_name = name(number) if name is not None else f"Bot {number}"
            bot = LiveSeat(None, bot_name, True, self._now_dt(), position=position)
            table.place(bot)
            await self._save_seats(table, lambda: table.seats.remove(bot))
            seat = table.seats.index(bot)
            self._changed(table, notes, LogEntry("bot_added", seat, {"name": bot_name}, "table"))
        return _published(table)

    async def remove_bot(self, table_id: int, user_id: int, seat: int) -> PublicSnapshot:
        async with self._locked(table_id) as (table, notes):
            self._need_lobby(table)
            self._need_host(table, user_id)
            if not 0 <= seat < len(table.seats) or not table.seats[seat].is_bot:
                raise TableError("not_a_bot", seat=seat)
            undo = self._positions_undo(table)
            removed = table.seats.pop(seat)
            table.settle_positions()

            def put_back() -> None:
                table.seats.insert(seat, removed)
                undo()

            await self._save_seats(table, put_back)
            self._changed(
                table, notes, LogEntry("bot_removed", seat, {"name": removed.name}, "table")
            )
        return _published(table)

    async def leave(self, table_id: int, user_id: int) -> PublicSnapshot:
        """In the lobby the seat is freed (the host passes to the next human; a table with no
        human left closes). During a match the seat is played by the bot policy to the end.
        After the match the player is left out of a rematch."""
        async with self._locked(table_id) as (table, notes):
            seat = self._need_seat(table, user_id)
            player = table.seats[seat]
            if table.status == LOBBY:
                positions_back = self._positions_undo(table)
                table.seats.pop(seat)
                table.settle_positions()
                old_host = table.host_id
                if user_id == table.host_id and table.human_ids():
                    table.host_id = table.human_ids()[0]

                def undo() -> None:
                    table.seats.insert(seat, player)
                    positions_back()
                    table.host_id = old_host

                await self._save_seats(table, undo)
                self._release(table.guild_id, user_id, table.id)
                if not table.human_ids():
                    await self._close(
                        table, notes, "abandoned", LogEntry("left", seat, {}, "table")
                    )
                else:
                    self._changed(
                        table, notes, LogEntry("left", seat, {"name": player.name}, "table")
                    )
            elif table.status in (PLAYING, ROUND_OVER):
                player.left_at = self._now_dt()
                await self._save_seats(table, lambda: setattr(player, "left_at", None))
                self._release(table.guild_id, user_id, table.id)
                if not any(s.user_id is not None and s.left_at is None for s in table.seats):
                    await self._close(
                        table, notes, "abandoned", LogEntry("left", seat, {}, "table")
                    )
                else:
                    if table.host_id == user_id:
                        table.host_id = table.human_ids()[0]
                    table.add_log(LogEntry("left", seat, {"name": player.name}, "table"))
                    await self._run_table(table, notes)
                    self._changed(table, notes)
            else:  # FINISHED: out of a rematch
                player.left_at = self._now_dt()
                await self._save_seats(table, lambda: setattr(player, "left_at", None))
                self._changed(table, notes, LogEntry("left", seat, {"name": player.name}, "table"))
        return _published(table)

    async def start(self, table_id: int, user_id: int) -> PublicSnapshot:
        async with self._locked(table_id) as (table, notes):
            self._need_lobby(table)
            self._need_host(table, user_id)
            game = table.game
            if not game.min_seats <= len(table.seats) <= game.max_seats:
                raise TableError("not_enough_players", min=game.min_seats, max=game.max_seats)
            match = Match(game, table.options, len(table.seats))
            try:
                await self.store.update_table(table.id, status="playing")
                await self.store.start_match(table.id, match.state())
            except Exception as error:
                raise _store_failed(error) from error
            table.match = match
            table.match_stored = False
            table.winners = ()
            table.status = ROUND_OVER  # until the first round is dealt
            table.add_log(LogEntry("started", None, {"players": len(table.seats)}, "table"))
            await self._start_round(table, notes)
        return _published(table)

    async def cancel(self, table_id: int, user_id: int) -> None:
        """The host closes a table that is not playing (a lobby, or a finished match)."""
        async with self._locked(table_id) as (table, notes):
            self._need_host(table, user_id)
            if table.status not in (LOBBY, FINISHED):
                raise TableError("match_running")
            status = "abandoned" if table.status == LOBBY else None
            await self._close(table, notes, status, LogEntry("cancelled", None, {}, "table"))

    async def stop(self, table_id: int, user_id: int, can_manage: bool) -> None:
        """The host, or a member who can manage the server, stops the table at any stage."""
        async with self._locked(table_id) as (table, notes):
            if user_id != table.host_id and not can_manage:
                raise TableError("not_allowed")
            status = None if table.status == FINISHED else "abandoned"
            await self._close(table, notes, status, LogEntry("stopped", None, {}, "table"))

    # ------------------------------------------------------------------------------------
    # playing
    # ------------------------------------------------------------------------------------
    async def act(self, table_id: int, user_id: int, round_no: int, notation: str) -> ActResult:
        """One click. Stored before this returns and before anyone is notified."""
        async with self._locked(table_id) as (table, notes):
            seat = self._need_seat(table, user_id)
            if table.status == LOBBY:
                raise TableError("not_started")
            if round_no != table.round_no:
                raise TableError("stale_button")
            round_ = table.round
            if table.status != PLAYING or round_ is None or round_.finished:
                raise TableError("round_over")
            if seat not in round_.to_act():
                raise TableError("not_your_turn")
            events = await self._play(table, seat, notation, clicked=True)
            self._long_lived.clicked()
            stored_notation = str(round_.history[-1][1])
            public = tuple(_log_entry(e) for e in events if e.to is None)
            reveals = tuple(_reveal(e) for e in events if e.to is not None and seat in e.to)
            self._player_here(table, seat)
            await self._run_table(table, notes)
            self._changed(table, notes)
            result = ActResult(
                table_id=table.id,
                seat=seat,
                round_no=round_no,  # checked equal to the table's round above
                notation=stored_notation,
                events=public,
                reveals=reveals,
                private=build.private_snapshot(table, seat, deliver=False),
                round_over=table.round is round_ and round_.finished,
                match_over=table.status == FINISHED,
            )
        return result

    async def private_view(self, table_id: int, user_id: int) -> PrivateSnapshot:
        """The "My cards" button: the seat's view and legal actions, and the reveals it has
        not seen yet (once). Brings an away seat back."""
        async with self._locked(table_id) as (table, notes):
            seat = self._need_seat(table, user_id)
            if table.seats[seat].away:
                self._player_here(table, seat)
                if table.status == PLAYING:
                    self._arm_turn_timer(table)
                elif table.status == ROUND_OVER and table.next_round_at is None:
                    self._arm_next_round(table)
                self._changed(table, notes)
            return build.private_snapshot(table, seat, deliver=True)

    async def follow_view(self, table_id: int, user_id: int) -> PrivateSnapshot | None:
        """What a player's open "My cards" message shows when it follows the game by itself:
        the seat's view and legal actions, without any card a rule showed it (those are
        handed out once, by a click) and without bringing an away seat back. None when the
        user no longer sits at the table."""
        async with TableLock(self, None, table_id=table_id, read_only=True) as (table, _notes):
            seat = table.seat_of(user_id)
            if seat is None:
                return None
            return build.private_snapshot(table, seat, deliver=False, hide_reveals=True)

    async def next_round(self, table_id: int, user_id: int) -> PublicSnapshot:
        async with self._locked(table_id) as (table, notes):
            self._need_seat(table, user_id)
            self._need_host(table, user_id)
            if table.status != ROUND_OVER:
                raise TableError("round_not_over")
            await self._start_round(table, notes)
        return _published(table)

    async def rematch(self, table_id: int, user_id: int) -> PublicSnapshot:
        """After the match: back to the lobby with every player who is not seated elsewhere
        (bots kept); the caller becomes host if the host is gone."""
        async with self._locked(table_id) as (table, notes):
            seat = self._need_seat(table, user_id)
            if table.status != FINISHED:
                raise TableError("match_not_over")
            kept = [
                s
                for s in table.seats
                if s.is_bot
                or (
                    s.user_id is not None
                    and s.left_at is None
                    and self._seated.get((table.guild_id, s.user_id)) is None
                )
            ]
            if table.seats[seat] not in kept:
                raise TableError(
                    "already_seated", table_id=self.table_of_user(table.guild_id, user_id)
                )
            for s in kept:
                if s.user_id is not None:
                    self._reserve(table.guild_id, s.user_id, table.id)
            old = (table.seats, table.host_id)
            table.seats = [
                LiveSeat(s.user_id, s.name, s.is_bot, s.joined_at, position=s.position)
                for s in kept
            ]
            table.settle_positions()
            if table.host_id not in table.human_ids():
                table.host_id = user_id
            try:
                await self.store.save_seats(table.id, self._seat_records(table), status="lobby")
            except Exception as error:
                for s in kept:
                    if s.user_id is not None:
                        self._release(table.guild_id, s.user_id, table.id)
                table.seats, table.host_id = old
                raise _store_failed(error) from error
            table.cancel_timer()
            table.status = LOBBY
            table.match = None
            table.round = None
            table.round_no = None
            table.last_round = None
            table.winners = ()
            table.next_round_at = None
            table.pending_reveals.clear()
            self._changed(table, notes, LogEntry("rematch", seat, {}, "table"))
        return _published(table)

    # ------------------------------------------------------------------------------------
    # restart
    # ------------------------------------------------------------------------------------
    async def restore(self) -> RestoreReport:
        """Rebuild every active table from the store and re-arm its timers; returns once all
        are loaded and their bots have moved (`start_restore` returns at once)."""
        await self.start_restore()
        await self.wait_restored()
        await self.settle()
        return RestoreReport(tuple(self._restored), tuple(self._broken))

    async def start_restore(
        self, on_loaded: OnLoaded | None = None, *, batch: int = RESTORE_BATCH
    ) -> int:
        """After a restart: list the active tables (their players are seated at once, so
        "already seated" holds), then load them in the background, `batch` at a time, in
        table order; a table clicked before its turn is loaded first (`ready`). A table is
        never visible half loaded: it is listed once rebuilt and resumed. `on_loaded(restored,
        broken)` is called after each load. Returns how many tables are to load."""
        for entry in await self.store.active_table_index():
            if entry.table_id in self._tables:
                continue
            self._unloaded[entry.table_id] = entry
            for user_id in entry.human_ids:
                self._seated[(entry.guild_id, user_id)] = entry.table_id
        self._on_loaded = on_loaded
        warm = getattr(self.policy_runner, "warm", None)
        if warm is not None and self._unloaded:  # tables in play: their bots will move soon
            warm()
        self._restore_task = asyncio.get_running_loop().create_task(
            self._load_the_rest(batch), name="service-restore"
        )
        return len(self._unloaded)

    async def close(self) -> None:
        """Stop loading tables, playing bot moves and running timers in the background, and
        let what holds a table's lock finish (all before the store closes: a timer that fired
        while the store closed would fail to store its move and log an error)."""
        self._closing = True
        if self._restore_task is not None and not self._restore_task.done():
            self._restore_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._restore_task
        self._restored_bots.clear()
        following = list(self._following.values())
        if self._restored_bots_task is not None:
            following.append(self._restored_bots_task)
        for task in following:
            task.cancel()
        await asyncio.gather(*following, return_exceptions=True)
        self._following.clear()
        for table in list(self._tables.values()):
            table.cancel_timer()  # a timer task already under way finds its token stale
        for table in list(self._tables.values()):
            async with table.lock:  # a click or timer holding it finishes first
                pass

    async def wait_restored(self) -> None:
        if self._restore_task is not None:
            await asyncio.shield(self._restore_task)

    async def _load_the_rest(self, batch: int) -> None:
        await self._load_until_done(batch)
        self._long_lived.freeze()  # every table is loaded: keep them out of the collector's way

    async def _load_until_done(self, batch: int) -> None:
        while self._unloaded:
            await self._no_click_load.wait()  # a clicked table goes first
            waiting = (i for i in self._unloaded if i not in self._loading)
            ids = list(itertools.islice(waiting, batch))
            if not ids:  # the rest is being loaded by clicks
                await asyncio.gather(*(asyncio.shield(f) for f in set(self._loading.values())))
                continue
            if not await self._load(ids):
                await self.clock.sleep(RETRY_SECONDS)
            await asyncio.sleep(0)  # clicks between two batches

    async def _load(self, ids: list[int]) -> bool:
        """Load and resume these tables (False: the store failed; they stay to load). Each
        table's waiters go on as soon as that table is listed."""
        loop = asyncio.get_running_loop()
        for table_id in ids:
            self._loading[table_id] = loop.create_future()
        try:
            loaded = await self.store.load_active_tables(table_ids=ids)
            restored, broken = await self._bring_back(loaded)
        except Exception:
            log.exception("tables %s could not be loaded; trying again", ids[:5])
            return False
        finally:
            for table_id in ids:
                self._loaded(table_id)
        for table_id in ids:
            entry = self._unloaded.pop(table_id, None)
            if entry is not None and table_id not in self._tables:  # broken, or not active
                for user_id in entry.human_ids:
                    self._release(entry.guild_id, user_id, table_id)
        self._restored += restored
        self._broken += broken
        self._long_lived.built(len(restored))
        if self._on_loaded is not None:
            self._on_loaded(restored, broken)
        return True

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
            if active.table.id in self._tables:
                continue
            guild_id = active.table.guild_id
            if guild_id not in settings:
                settings[guild_id] = await self.store.get_guild_settings(guild_id)
            try:
                table = self._rebuild(active, settings[guild_id])
            except Exception as error:  # one bad table must not stop the others
                log.exception("table %s could not be restored", active.table.id)
                broken.append((active.table.id, str(error)))
                continue
            async with self._held(table) as (held, notes):
                try:
                    await self._resume(held, notes)
                except TableError as error:  # logged; the table stays as the store has it
                    log.error("table %s: not resumed: %s", held.id, error.params)
                self._changed(held, notes)
            self._tables[table.id] = table  # listed whole: rebuilt and resumed
            if self._auto_seat(table) is not None:
                self._queue_restored_bots(table)  # its bots move in the background, in turn
            self._loaded(table.id)
            restored.append(table.id)
            await asyncio.sleep(0)  # a click that came meanwhile goes first
        return restored, broken

    async def _resume(self, table: LiveTable, notes: list[Notice]) -> None:
        if table.status == PLAYING:
            await self._run_table(table, notes)
        elif table.status == ROUND_OVER and table.match is not None and table.match.finished:
            # The last round was stored but the match end was not (a stop in between).
            try:
                await self._finish_match(table, table.match)
            except TableError:  # the store refuses a second finish_match: it was stored
                table.match_stored = True
                await self._finish_match(table, table.match)
            table.status = FINISHED
            table.winners = table.match.winner_seats()
            for user_id in table.human_ids():
                self._release(table.guild_id, user_id, table.id)
            self._arm(table, self.finished_keep_seconds, self._on_finished_expiry)
        elif table.status == ROUND_OVER:
            self._arm_next_round(table)

    def _rebuild(self, active: ActiveTable, settings: GuildSettings) -> LiveTable:
        record = active.table
        game = self._game(record.game)
        stored = dict(record.options)
        bots = stored.pop(BOTS_OPTION, DEFAULT_BOT_LEVEL)  # tables opened before the option
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
            preset=_preset_name(game, options),
            options=options,
            host_id=record.host_id,
            seats=seats,
            turn_seconds=float(settings.turn_seconds),
            bots=bots if bots in BOT_LEVELS else DEFAULT_BOT_LEVEL,
        )
        if record.status == "playing" and active.match is not None:
            table.match = active.match
            table.round_scored = active.round is None
            if active.round is not None:
                table.round = active.round
                table.round_no = active.round_no
                table.status = PLAYING
                table.rng = random.Random(f"{record.id}:{active.round_no}:{len(seats)}")
            else:
                table.status = ROUND_OVER
        humans = table.human_ids()
        if table.host_id not in humans and humans:
            table.host_id = humans[0]  # the store keeps the first host; a new one is re-derived
        for user_id in humans:
            self._seated[(table.guild_id, user_id)] = table.id
        _publish(table)  # as loaded: every part of it is on disk
        return table

    # ------------------------------------------------------------------------------------
    # the engine loop: rounds, bot moves, timers
    # ------------------------------------------------------------------------------------
    async def _play(
        self, table: LiveTable, seat: int, action: Any, *, clicked: bool = False
    ) -> list[Event]:
        """Apply one action and store it; on a store failure, roll back by replay. Private
        events for seats that did not click this are kept to show them once later."""
        round_ = table.round
        assert round_ is not None and table.round_no is not None
        try:
            events = round_.apply(seat, action)
        except IllegalAction as error:
            raise TableError(f"illegal:{error.rule}", message=error.message) from error
        seq = len(round_.history) - 1
        notation = str(round_.history[-1][1])
        try:
            await self.store.record_action(table.id, table.round_no, seq, seat, notation)
        except Exception as error:
            record = round_.record()
            table.round = table.game.replay(
                record.model_copy(update={"actions": record.actions[:-1]})
            )
            table.version += 1  # re-rendered when the lock is released
            log.warning("table %s: action not stored, rolled back: %s", table.id, error)
            raise _store_failed(error) from error
        for event in events:
            if event.to is None:
                table.add_log(_log_entry(event))
                continue
            for viewer in event.to:
                if not (clicked and viewer == seat):  # the clicker gets it in its ActResult
                    table.pending_reveals.setdefault(viewer, []).append(_reveal(event))
        return events

    async def _run_table(self, table: LiveTable, notes: list[Notice]) -> None:
        """After any change: score a finished round, arm the timers for the humans who must
        act, and hand the seats nobody clicks for to the table's follow-up (bot/service/
        followup.py): their moves come after the change is answered, each stored and shown."""
        if table.status != PLAYING or table.round is None:
            return
        if table.round.finished:
            try:
                await self._end_round(table, notes)
            except TableError:  # stored actions stand; scoring is retried by a timer
                self._arm(table, RETRY_SECONDS, self._on_turn_timer)
            return
        self._arm_turn_timer(table)
        if self._auto_seat(table) is not None:
            self._follow_up(table)

    def _policy_move(self, table: LiveTable, seat: int, *, default: bool) -> Any:
        """The policy's move (`default`: the safe timeout move); a failing policy must not
        stop the table, so its error is logged and the first legal action is played. The
        engine's own check decides legality: `legal_actions` may list only a canonical form
        of the moves (a game may list its smallest lays; bigger ones are legal too)."""
        round_ = table.round
        assert round_ is not None
        policy = policy_for(table.game)
        try:
            if default:
                move = policy.default(round_, seat, table.rng)
            else:
                move = policy.choose(round_, seat, table.rng)
        except Exception:
            log.exception("table %s: %s policy failed for seat %s", table.id, table.game.name, seat)
            return round_.legal_actions(seat)[0]
        return self._checked(table, seat, move)

    @staticmethod
    def _checked(table: LiveTable, seat: int, move: Any) -> Any:
        """The move if the engine's own check accepts it, else (logged) the first legal one."""
        round_ = table.round
        assert round_ is not None
        try:
            round_.check(seat, move)
        except IllegalAction as error:
            log.error(
                "table %s: %s policy chose illegal %s (%s)",
                table.id,
                table.game.name,
                move,
                error.rule,
            )
            return round_.legal_actions(seat)[0]
        return move

    async def _start_round(self, table: LiveTable, notes: list[Notice]) -> None:
        match = table.match
        assert match is not None
        seed = self.seed_source()
        deck = table.stacked_decks.popleft() if table.stacked_decks else None
        try:
            round_ = match.new_round(deck=deck, seed=None if deck is not None else seed)
        except (IllegalAction, ValueError) as error:
            raise TableError("bad_deck", message=str(error)) from error
        try:
            settings = await self.store.get_guild_settings(table.guild_id)
            round_no = await self.store.start_round(table.id, round_.record())
        except Exception as error:
            raise _store_failed(error) from error
        table.turn_seconds = float(settings.turn_seconds)
        table.cancel_timer()
        table.round = round_
        table.round_no = round_no
        table.round_scored = False
        table.status = PLAYING
        table.last_round = None
        table.next_round_at = None
        table.pending_reveals.clear()
        table.waiting_since.clear()
        table.reminded.clear()
        table.rng = random.Random(seed)
        table.add_log(LogEntry("round_started", None, {"round": match.round_no + 1}, "table"))
        notes.append(("round_started", table.id, None))
        await self._run_table(table, notes)
        self._changed(table, notes)

    async def _end_round(self, table: LiveTable, notes: list[Notice]) -> None:
        """Store the finished round's result, then (match over) the winners and stats. Each
        step is stored once: after a failure the retry resumes at the step that failed."""
        match, round_ = table.match, table.round
        assert match is not None and round_ is not None and table.round_no is not None
        table.cancel_timer()
        table.waiting_since.clear()
        table.reminded.clear()
        result = round_.result()
        if not table.round_scored:
            before = match.state()
            match.add_round(result)
            try:
                await self.store.finish_round(table.id, table.round_no, result, list(match.totals))
            except Exception as error:
                table.match = Match.restore(table.game, before)
                log.error("table %s: round end not stored: %s", table.id, error)
                raise _store_failed(error) from error
            table.round_scored = True
            n = len(table.seats)
            points = tuple(result.points[table.game.side_of(s, n)] for s in range(n))
            totals = table.seat_totals()
            table.last_round = RoundEnd(
                round_no=table.round_no,
                points=points,
                totals=totals,
                detail=dict(result.detail),
                view=round_.public_view(),
            )
            table.add_log(
                LogEntry("round_over", None, {"points": points, "totals": totals}, "table")
            )
        if match.finished:
            await self._finish_match(table, match)
            table.status = FINISHED
            table.winners = match.winner_seats()
            table.add_log(LogEntry("match_over", None, {"winners": table.winners}, "table"))
            for user_id in table.human_ids():
                self._release(table.guild_id, user_id, table.id)
            self._arm(table, self.finished_keep_seconds, self._on_finished_expiry)
        else:
            table.status = ROUND_OVER
            self._arm_next_round(table)

    async def _finish_match(self, table: LiveTable, match: Match) -> None:
        try:
            if not table.match_stored:
                await self.store.finish_match(
                    table.id, list(match.winner_seats()), list(match.totals)
                )
                table.match_stored = True
            await self.store.update_table(table.id, status="finished")
        except Exception as error:
            log.error("table %s: match end not stored: %s", table.id, error)
            raise _store_failed(error) from error

    # ------------------------------------------------------------------------------------
    # helpers
    # ------------------------------------------------------------------------------------
    def _locked(self, table_id: int) -> TableLock:
        return TableLock(self, None, table_id=table_id)

    def _held(self, table: LiveTable) -> TableLock:
        """The lock of a table the caller found itself (timers): no refusal if it closed
        meanwhile, the caller checks `table.closed`."""
        return TableLock(self, table, refuse_closed=False)

    def _table(self, table_id: int) -> LiveTable:
        table = self._tables.get(table_id)
        if table is None or table.closed:
            raise TableError("no_table", table_id=table_id)
        return table

    def _game(self, name: str) -> Game[Any, Any, Any]:
        try:
            return self._games(name)
        except (KeyError, ImportError) as error:
            raise TableError("unknown_game", game=name) from error

    @staticmethod
    def _options(game: Game[Any, Any, Any], preset: str | None, target: int | None) -> Options:
        if preset is not None and preset not in game.presets:
            raise TableError("unknown_preset", preset=preset, presets=", ".join(game.presets))
        try:
            if target is None:
                return game.options(preset)
            return game.options(preset, target=target)
        except ValidationError as error:
            raise TableError("bad_option", message=error.errors()[0]["msg"]) from error

    def _reserve(self, guild_id: int, user_id: int, table_id: int) -> None:
        """Claim the user's one seat in this guild (no await between check and claim)."""
        current = self._seated.get((guild_id, user_id))
        if current is not None and current != table_id:
            raise TableError("already_seated", table_id=current if current > 0 else None)
        self._seated[(guild_id, user_id)] = table_id

    def _release(self, guild_id: int, user_id: int, table_id: int) -> None:
        if self._seated.get((guild_id, user_id)) == table_id:
            del self._seated[(guild_id, user_id)]

    @staticmethod
    def _need_lobby(table: LiveTable) -> None:
        if table.status != LOBBY:
            raise TableError("not_in_lobby")

    @staticmethod
    def _need_host(table: LiveTable, user_id: int) -> None:
        if user_id != table.host_id:
            raise TableError("not_host")

    @staticmethod
    def _need_seat(table: LiveTable, user_id: int) -> int:
        seat = table.seat_of(user_id)
        if seat is None:
            raise TableError("not_seated")
        return seat

    @staticmethod
    def _player_here(table: LiveTable, seat: int) -> None:
        """The seat's player acted or asked for their cards: no longer waited on, reminded,
        timed out or away (and the table log says so if they were away)."""
        player = table.seats[seat]
        if player.away:
            table.add_log(LogEntry("back", seat, {"name": player.name}, "table"))
        player.away = False
        player.timeouts = 0
        table.waiting_since.pop(seat, None)
        table.reminded.discard(seat)

    async def _save_seats(self, table: LiveTable, undo: Callable[[], object]) -> None:
        """Store the seats after a change in memory; if the store fails, undo the change (so
        memory equals disk) and refuse the click."""
        try:
            await self.store.save_seats(table.id, self._seat_records(table))
        except Exception as error:
            undo()
            table.version += 1  # re-rendered when the lock is released
            raise _store_failed(error) from error

    def _seat_records(self, table: LiveTable) -> list[SeatRecord]:
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

    async def _close(
        self, table: LiveTable, notes: list[Notice], status: str | None, entry: LogEntry
    ) -> None:
        if status is not None:
            try:
                await self.store.update_table(table.id, status=status)
            except Exception as error:
                raise _store_failed(error) from error
        table.add_log(entry)
        self._forget(table, notes)

    def _forget(self, table: LiveTable, notes: list[Notice]) -> None:
        """The table leaves memory (closed, stopped, abandoned or expired): nothing of it stays
        here, and `table_closed` tells the glue to free what it keeps for it."""
        table.cancel_timer()
        table.closed = True
        for user_id in table.human_ids():
            self._release(table.guild_id, user_id, table.id)
        self._tables.pop(table.id, None)
        # a follow-up thinking for it ends when its bot has thought (it finds the table closed)
        self._following.pop(table.id, None)
        self._restored_bots.pop(table.id, None)
        table.version += 1
        notes.append(("table_closed", table.id, None))

    @staticmethod
    def _changed(table: LiveTable, notes: list[Notice], entry: LogEntry | None = None) -> None:
        if entry is not None:
            table.add_log(entry)
        table.version += 1
        if ("table_changed", table.id, None) not in notes:
            notes.append(("table_changed", table.id, None))

    def _now_dt(self) -> datetime:
        return datetime.fromtimestamp(self.clock.now(), UTC)

    async def _notify(self, notes: list[Notice]) -> None:
        for kind, table_id, seat in notes:
            try:
                if kind == "turn_reminder":
                    assert seat is not None
                    await self.notifier.turn_reminder(table_id, seat)
                else:
                    await getattr(self.notifier, kind)(table_id)
            except Exception:  # the glue's trouble must never undo or block a stored change
                log.exception("notifier %s failed for table %s", kind, table_id)


class TableLock:
    """`async with service._locked(id) as (table, notes)`: hold the table's lock; on release
    publish the table's snapshot (every change made under the lock is stored or rolled back by
    then), then send the collected notices. A change nobody announced (a rollback) is
    announced too, so the table message is re-rendered from what is stored."""

    def __init__(
        self,
        service: TableService,
        table: LiveTable | None,
        *,
        table_id: int = 0,
        refuse_closed: bool = True,
        read_only: bool = False,
    ) -> None:
        self.service = service
        # a reader that changes nothing (a followed "My cards" message, for every player at
        # each change) neither republishes nor notifies: the published snapshot still holds
        self.read_only = read_only
        self._table = table  # None: the table of `table_id`, loaded first if need be
        self._table_id = table_id
        self.notes: list[Notice] = []
        self.refuse_closed = refuse_closed

    @property
    def table(self) -> LiveTable:
        assert self._table is not None
        return self._table

    async def __aenter__(self) -> tuple[LiveTable, list[Notice]]:
        if self._table is None:
            await self.service.ready(self._table_id)
            self._table = self.service._table(self._table_id)
        await self.table.lock.acquire()
        if self.table.closed and self.refuse_closed:
            self.table.lock.release()
            raise TableError("no_table", table_id=self.table.id)
        return self.table, self.notes

    async def __aexit__(self, *exc: object) -> None:
        table = self.table
        if self.read_only:
            table.lock.release()
            return
        before = table.published
        _publish(table)
        changed = ("table_changed", table.id, None)
        moved = before is not None and before.version != table.version
        if moved and not table.closed and changed not in self.notes:
            self.notes.append(changed)
        table.lock.release()
        await self.service._notify(self.notes)


def _publish(table: LiveTable) -> None:
    """Only here, with every change stored, is the live table turned into what others see."""
    table.published = build.public_snapshot(table)


def _published(table: LiveTable) -> PublicSnapshot:
    assert table.published is not None, "a table is published before it is listed"
    return table.published


def _store_failed(error: Exception) -> TableError:
    if isinstance(error, StoreUnavailable):  # the database server is away, for now
        return TableError("store_unavailable")
    return TableError("store_failed", message=str(error))


def _name(player: PlayerRef) -> dict[str, Any]:
    return {"name": player.name}


def _log_entry(event: Event) -> LogEntry:
    return LogEntry(event.kind, event.seat, dict(event.data), "engine")


def _reveal(event: Event) -> Reveal:
    return Reveal(event.kind, event.seat, dict(event.data))


def _preset_name(game: Game[Any, Any, Any], options: Options) -> str | None:
    """The preset these options come from (ignoring the target), or None if changed."""
    dump = options.model_dump()
    for name, preset in game.presets.items():
        if {**preset.model_dump(), "target": dump["target"]} == dump:
            return name
    return None
