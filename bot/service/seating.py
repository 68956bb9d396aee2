"""Seating, the part of the table service that runs the lobby and the table's life.

Around the table's matches it opens, joins, chooses or swaps seats, adds and removes bot
players, leaves, starts, cancels, stops, and runs the rematch that brings a finished table back
to its lobby."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from bot.runtime.policy import BOT_LEVELS, BOTS_OPTION, TABLE_BOT_LEVELS, TURN_OPTION
from bot.service import _table_log
from bot.service._live_table import LiveSeat, LiveTable
from bot.service._locks import Notice, changed, publish, published, store_failed
from bot.service.coach import COACH_OPTION
from bot.service.errors import TableError
from bot.service.watching import DEFAULT_SPECTATORS, SPECTATOR_MODES, SPECTATORS_OPTION
from bot.snapshots import (
    FINISHED,
    LOBBY,
    PLAYING,
    ROUND_OVER,
    LogEntry,
    PlayerRef,
    PublicSnapshot,
    TableSnapshot,
)
from games.contract import Game, Options
from games.match import Match
from storage.models import GuildSettings, TableStatus

if TYPE_CHECKING:
    from bot.clock import Clock
    from bot.service.play import Play
    from bot.service.restore import Restore
    from bot.service.tables import Tables
    from storage import Store

OPEN_COOLDOWN_SECONDS = 10.0  # a user waits this long after opening a table to open another
OPENERS_KEPT = 10_000  # users remembered for the cool-down before the expired ones are dropped
OPEN_STATUSES = frozenset({LOBBY, PLAYING, ROUND_OVER})  # a table that counts against the caps


class Seating:
    """The lobby and the table's life (its state: the tables' seats and the seat claims)."""

    def __init__(
        self, tables: Tables, store: Store, clock: Clock, play: Play, restoring: Restore
    ) -> None:
        self.tables = tables
        self.store = store
        self.clock = clock
        self.play = play
        self.restoring = restoring  # the tables a restart has yet to load count as open
        # (guild, user) -> when they last opened a table: one user cannot open (and cancel)
        # tables in a loop, each a message or a thread
        self.opened_at: dict[tuple[int, int], float] = {}
        self.open_cooldown_seconds = OPEN_COOLDOWN_SECONDS

    def may_open(
        self, guild_id: int, channel_id: int, user_id: int, settings: GuildSettings
    ) -> None:
        """Refuse (TableError) a member's new table while their cool-down runs, or when the
        channel or the server has as many open tables as its settings allow. The glue asks
        this before `open_table` (programs driving the service, benchmarks, do not)."""
        if (guild_id, user_id) in self.tables.seated:
            return  # `open_table` tells them where they sit, which says more
        self._check_open_cooldown(guild_id, user_id)
        self._check_open_tables(guild_id, channel_id, settings)

    def _check_open_cooldown(self, guild_id: int, user_id: int) -> None:
        now = self.clock.now()
        wait = self.opened_at.get((guild_id, user_id), -math.inf) + self.open_cooldown_seconds
        if now < wait:
            raise TableError("opening_too_fast", seconds=math.ceil(wait - now))

    def _note_opened(self, guild_id: int, user_id: int) -> None:
        now = self.clock.now()
        if len(self.opened_at) >= OPENERS_KEPT:  # forget those whose cool-down is over
            over = now - self.open_cooldown_seconds
            self.opened_at = {k: t for k, t in self.opened_at.items() if t > over}
        self.opened_at[(guild_id, user_id)] = now

    def _check_open_tables(self, guild_id: int, channel_id: int, settings: GuildSettings) -> None:
        """The server's caps on tables open at once (a lobby, in play, between rounds), those
        not loaded yet after a restart included."""
        in_channel = in_guild = 0
        for table in self.tables.live.values():
            if table.guild_id == guild_id and table.status in OPEN_STATUSES:
                in_guild += 1
                in_channel += table.channel_id == channel_id
        for entry in self.restoring.unloaded.values():
            if entry.guild_id == guild_id:
                in_guild += 1
                in_channel += entry.channel_id == channel_id
        if in_channel >= settings.max_tables_channel:
            raise TableError("too_many_tables_channel", limit=settings.max_tables_channel)
        if in_guild >= settings.max_tables_server:
            raise TableError("too_many_tables_server", limit=settings.max_tables_server)

    async def open_table(
        self,
        guild_id: int,
        channel_id: int,
        host: PlayerRef,
        game: str,
        preset: str | None = None,
        target: int | None = None,
        bots: str | None = None,
        spectators: str | None = None,
        *,
        coach: bool = False,
        turn_seconds: int | None = None,
    ) -> TableSnapshot:
        """Open a table; `bots` (`simple` or `strong`; None: the guild's default) is how its
        bot players play; `spectators` (`public` or `hands`; None: `public`) what watchers see;
        `coach`: a practice table (bot/service/coach.py); `turn_seconds` its own turn timer
        (None: the guild's)."""
        game_obj = self.tables.game(game)
        options = self.tables.options(game_obj, preset, target)
        if bots is not None and bots not in TABLE_BOT_LEVELS:
            raise TableError("bad_option", message=f"bots must be one of {BOT_LEVELS}")
        spectators = spectators or DEFAULT_SPECTATORS
        if spectators not in SPECTATOR_MODES:
            raise TableError("bad_option", message=f"spectators must be one of {SPECTATOR_MODES}")
        self.tables.reserve(guild_id, host.user_id, -1)
        try:
            settings = await self.store.get_guild_settings(guild_id)
            bots = bots or settings.bots
            stored_options = {
                **options.model_dump(mode="json"),
                BOTS_OPTION: bots,
                SPECTATORS_OPTION: spectators,
            }
            if coach:
                stored_options[COACH_OPTION] = True
            if turn_seconds is not None:
                stored_options[TURN_OPTION] = turn_seconds
            record = await self.store.create_table(
                guild_id, channel_id, game, stored_options, host.user_id
            )
            table = LiveTable(
                id=record.id,
                guild_id=guild_id,
                channel_id=channel_id,
                game=game_obj,
                preset=preset or preset_name(game_obj, options),
                options=options,
                host_id=host.user_id,
                seats=[LiveSeat(host.user_id, host.name, False, self.tables.now(), position=0)],
                turn_seconds=float(turn_seconds or settings.turn_seconds),
                turn_override=float(turn_seconds) if turn_seconds else None,
                bots=bots,
                spectators=spectators,
                coach=coach,
            )
            table.add_log(LogEntry("opened", 0, {"name": host.name}, "table", (host.user_id,)))
            await self.store.save_seats(
                table.id, self.tables.seat_records(table), log=_table_log.table_log(table)
            )
            table.log_unsaved = False
        except TableError:
            self.tables.release(guild_id, host.user_id, -1)
            raise
        except Exception as error:
            self.tables.release(guild_id, host.user_id, -1)
            raise store_failed(error) from error
        self.tables.release(guild_id, host.user_id, -1)
        self.tables.seated[(guild_id, host.user_id)] = table.id
        self._note_opened(guild_id, host.user_id)
        table.version += 1
        publish(table)
        self.tables.live[table.id] = table
        self.tables.long_lived.built()
        return published(table)

    async def join(
        self, table_id: int, player: PlayerRef, position: int | None = None
    ) -> PublicSnapshot:
        """Sit down at the first free seat, or at `position` if it is free (a fixed-size game's
        N/E/S/W; a seated player moves there)."""
        async with self.tables.locked(table_id) as (table, notes):
            self.tables.need_lobby(table)
            mine = table.seat_of(player.user_id)
            if position is not None:
                await self._take_position(table, notes, player, mine, position)
                return published(table)
            if mine is not None:
                raise TableError("already_joined", table_id=table_id)
            await self._sit(table, notes, player, self._free_position(table))
        return published(table)

    async def swap_seats(
        self, table_id: int, user_id: int, first: int, second: int
    ) -> PublicSnapshot:
        """The host swaps whoever sits at two seats of the lobby (one of them may be free)."""
        async with self.tables.locked(table_id) as (table, notes):
            self.tables.need_lobby(table)
            self.tables.need_host(table, user_id)
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
            names = [seat.name for seat in moved]  # worded "Ann ↔ Bob" (bot/render/log.py)
            users = tuple(seat.user_id for seat in moved)
            swapped = LogEntry("seats_swapped", None, {"names": names}, "table", users)
            await self.tables.save_seats(table, undo, swapped)
            changed(table, notes)
        return published(table)

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
        moved = LogEntry("moved", None, {"name": seat.name}, "table", (seat.user_id,))
        await self.tables.save_seats(table, undo, moved)
        changed(table, notes)

    async def _sit(
        self, table: LiveTable, notes: list[Notice], player: PlayerRef, position: int
    ) -> None:
        self.tables.reserve(table.guild_id, player.user_id, table.id)
        seat = LiveSeat(player.user_id, player.name, False, self.tables.now(), position=position)
        table.place(seat)
        table.watchers.pop(player.user_id, None)  # seated: no longer a watcher

        def undo() -> None:
            table.seats.remove(seat)
            self.tables.release(table.guild_id, player.user_id, table.id)

        index = table.seats.index(seat)
        joined = LogEntry("joined", index, player_name(player), "table", (player.user_id,))
        await self.tables.save_seats(table, undo, joined)
        changed(table, notes)

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
        async with self.tables.locked(table_id) as (table, notes):
            self.tables.need_lobby(table)
            self.tables.need_host(table, user_id)
            position = self._free_position(table)
            number = sum(1 for s in table.seats if s.is_bot) + 1
            bot_name = name(number) if name is not None else f"Bot {number}"
            bot = LiveSeat(None, bot_name, True, self.tables.now(), position=position)
            table.place(bot)
            seat = table.seats.index(bot)
            added = LogEntry("bot_added", seat, {"name": bot_name}, "table")
            await self.tables.save_seats(table, lambda: table.seats.remove(bot), added)
            changed(table, notes)
        return published(table)

    async def fill_with_bots(
        self, table_id: int, user_id: int, name: Callable[[int], str] | None = None
    ) -> PublicSnapshot:
        """The host seats a bot player, numbered and named as by `add_bot`, at every free seat
        of the lobby: one click for a solo table of a game of four."""
        async with self.tables.locked(table_id) as (table, notes):
            self.tables.need_lobby(table)
            self.tables.need_host(table, user_id)
            free = table.free_positions()
            if not free:
                raise TableError("table_full", max=table.game.max_seats)
            number = sum(1 for s in table.seats if s.is_bot)
            bots: list[LiveSeat] = []
            for position in free:
                number += 1
                bot_name = name(number) if name is not None else f"Bot {number}"
                bots.append(LiveSeat(None, bot_name, True, self.tables.now(), position=position))
            for bot in bots:
                table.place(bot)

            def undo() -> None:
                for bot in bots:
                    table.seats.remove(bot)

            added = [
                LogEntry("bot_added", table.seats.index(bot), {"name": bot.name}, "table")
                for bot in bots
            ]
            await self.tables.save_seats(table, undo, *added)
            changed(table, notes)
        return published(table)

    async def remove_bot(self, table_id: int, user_id: int, seat: int) -> PublicSnapshot:
        """The host frees a lobby seat a bot player holds."""
        async with self.tables.locked(table_id) as (table, notes):
            self.tables.need_lobby(table)
            self.tables.need_host(table, user_id)
            if not 0 <= seat < len(table.seats) or not table.seats[seat].is_bot:
                raise TableError("not_a_bot", seat=seat)
            undo = self._positions_undo(table)
            removed = table.seats.pop(seat)
            table.settle_positions()

            def put_back() -> None:
                table.seats.insert(seat, removed)
                undo()

            gone = LogEntry("bot_removed", seat, {"name": removed.name}, "table")
            await self.tables.save_seats(table, put_back, gone)
            changed(table, notes)
        return published(table)

    async def leave(self, table_id: int, user_id: int) -> PublicSnapshot:
        """In the lobby the seat is freed (the host passes to the next human; a table with no
        human left closes). During a match the seat is played by the bot policy to the end.
        After the match the player is left out of a rematch."""
        async with self.tables.locked(table_id) as (table, notes):
            seat = self.tables.need_seat(table, user_id)
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

                left = LogEntry("left", seat, {"name": player.name}, "table", (user_id,))
                abandoned = not table.human_ids()  # closed: its kept log goes with it
                await self.tables.save_seats(table, undo, *(() if abandoned else (left,)))
                self.tables.release(table.guild_id, user_id, table.id)
                if abandoned:
                    await self.tables.close(
                        table, notes, "abandoned", LogEntry("left", seat, {}, "table")
                    )
                else:
                    changed(table, notes)
            elif table.status in (PLAYING, ROUND_OVER):
                player.left_at = self.tables.now()
                left = LogEntry("left", seat, {"name": player.name}, "table", (user_id,))
                abandoned = not any(
                    s.user_id is not None and s.left_at is None for s in table.seats
                )
                await self.tables.save_seats(
                    table,
                    lambda: setattr(player, "left_at", None),
                    *(() if abandoned else (left,)),
                )
                self.tables.release(table.guild_id, user_id, table.id)
                if abandoned:
                    await self.tables.close(
                        table, notes, "abandoned", LogEntry("left", seat, {}, "table")
                    )
                else:
                    if table.host_id == user_id:
                        table.host_id = table.human_ids()[0]
                    await self.play.run_table(table, notes)
                    changed(table, notes)
            else:  # FINISHED: out of a rematch
                player.left_at = self.tables.now()
                left = LogEntry("left", seat, {"name": player.name}, "table", (user_id,))
                await self.tables.save_seats(table, lambda: setattr(player, "left_at", None), left)
                changed(table, notes)
        return published(table)

    async def start(self, table_id: int, user_id: int) -> PublicSnapshot:
        """The host starts the match: the first round is dealt and stored."""
        async with self.tables.locked(table_id) as (table, notes):
            self.tables.need_lobby(table)
            self.tables.need_host(table, user_id)
            game = table.game
            if not game.min_seats <= len(table.seats) <= game.max_seats:
                raise seat_count_refused(game)
            match = Match(game, table.options, len(table.seats))
            try:
                await self.store.update_table(table.id, status="playing")
                await self.store.start_match(table.id, match.state())
            except Exception as error:
                raise store_failed(error) from error
            table.match = match
            table.match_stored = False
            table.winners = ()
            table.status = ROUND_OVER  # until the first round is dealt
            table.add_log(LogEntry("started", None, {"players": len(table.seats)}, "table"))
            await self.play.start_round(table, notes)
        return published(table)

    async def cancel(self, table_id: int, user_id: int) -> None:
        """The host closes a table that is not playing (a lobby, or a finished match)."""
        async with self.tables.locked(table_id) as (table, notes):
            self.tables.need_host(table, user_id)
            if table.status not in (LOBBY, FINISHED):
                raise TableError("match_running")
            status: TableStatus | None = "abandoned" if table.status == LOBBY else None
            await self.tables.close(table, notes, status, LogEntry("cancelled", None, {}, "table"))

    async def stop(self, table_id: int, user_id: int, can_manage: bool) -> None:
        """The host, or a member who can manage the server, stops the table at any stage."""
        async with self.tables.locked(table_id) as (table, notes):
            if user_id != table.host_id and not can_manage:
                raise TableError("not_allowed")
            ended: TableStatus | None = None if table.status == FINISHED else "abandoned"
            await self.tables.close(table, notes, ended, LogEntry("stopped", None, {}, "table"))

    async def rematch(self, table_id: int, user_id: int) -> PublicSnapshot:
        """After the match: back to the lobby with every player who is not seated elsewhere
        (bots kept); the caller becomes host if the host is gone."""
        async with self.tables.locked(table_id) as (table, notes):
            seat = self.tables.need_seat(table, user_id)
            if table.status != FINISHED:
                raise TableError("match_not_over")
            kept = [
                s
                for s in table.seats
                if s.is_bot
                or (
                    s.user_id is not None
                    and s.left_at is None
                    and self.tables.seated.get((table.guild_id, s.user_id)) is None
                )
            ]
            if table.seats[seat] not in kept:
                raise TableError(
                    "already_seated", table_id=self.tables.table_of_user(table.guild_id, user_id)
                )
            for s in kept:
                if s.user_id is not None:
                    self.tables.reserve(table.guild_id, s.user_id, table.id)
            old = (table.seats, table.host_id)
            table.seats = [
                LiveSeat(s.user_id, s.name, s.is_bot, s.joined_at, position=s.position)
                for s in kept
            ]
            table.settle_positions()
            if table.host_id not in table.human_ids():
                table.host_id = user_id
            log_before = table.log_state()
            table.add_log(LogEntry("rematch", seat, {}, "table"))
            try:  # the log kept from here on is the lobby's (no round): all of it, as shown
                await self.store.save_seats(
                    table.id,
                    self.tables.seat_records(table),
                    status="lobby",
                    log=_table_log.table_log(table, before_round=True),
                )
            except Exception as error:
                for s in kept:
                    if s.user_id is not None:
                        self.tables.release(table.guild_id, s.user_id, table.id)
                table.seats, table.host_id = old
                table.restore_log(log_before)
                raise store_failed(error) from error
            table.log_unsaved = False
            table.cancel_timer()
            table.status = LOBBY
            table.match = None
            table.round = None
            table.round_no = None
            table.last_round = None
            table.winners = ()
            table.next_round_at = None
            table.pending_reveals.clear()
            changed(table, notes)
        return published(table)


def seat_count_refused(game: Game[Any, Any, Any]) -> TableError:
    """The refusal of a start with too few (or too many) players, naming the game: a game of
    a fixed number of seats says so ("played by exactly 4 players"), another its range."""
    if game.min_seats == game.max_seats:
        return TableError("players_exactly", game=game.name, count=game.min_seats)
    return TableError("players_between", game=game.name, min=game.min_seats, max=game.max_seats)


def player_name(player: PlayerRef) -> dict[str, Any]:
    return {"name": player.name}


def preset_name(game: Game[Any, Any, Any], options: Options) -> str | None:
    """The preset these options come from (ignoring the target), or None if changed."""
    dump = options.model_dump()
    for name, preset in game.presets.items():
        if {**preset.model_dump(), "target": dump["target"]} == dump:
            return name
    return None
