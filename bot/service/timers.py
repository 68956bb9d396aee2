"""Timers of the table service: the turn timer, the next-round pause, and forgetting a table.

The turn timer sends a reminder at half time, plays a safe default move at the end, and marks a
player away after two timeouts in a row; then there is the pause before the next round, and
forgetting a finished table. One timer per table; a token makes a stale timer a no-op."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from bot.clock import Clock
from bot.service._live_table import LiveTable
from bot.service._locks import changed
from bot.service.choices import PlayerChoices
from bot.service.errors import TableError
from bot.service.followup import RETRY_SECONDS, FollowUp
from bot.service.play import Play, PlayListener
from bot.snapshots import FINISHED, PLAYING, ROUND_OVER, LogEntry

if TYPE_CHECKING:
    from bot.service.tables import Tables

log = logging.getLogger(__name__)

AWAY_AFTER_TIMEOUTS = 2
# A move that is a seat's only legal one is played for its player after this long: long
# enough to see on "My cards" which card goes, short enough not to wait for it.
AUTO_PLAY_SECONDS = 2.0
MAX_TIMEOUT_ACTIONS = 50  # default moves to finish one timed-out turn
TURN_EVENT = "turn"  # the public event engines emit when a seat's turn begins


class Timers(PlayListener):
    """The timer part of the table service (each table holds its one timer). It listens to
    play: a turn begun arms the turn timer, a round's end the pause or the expiry."""

    def __init__(
        self,
        tables: Tables,
        clock: Clock,
        choices: PlayerChoices,
        play: Play,
        followup: FollowUp,
        *,
        next_round_seconds: float,
        finished_keep_seconds: float,
    ) -> None:
        self.tables = tables
        self.clock = clock
        self.choices = choices
        self.play = play
        self.followup = followup
        self.next_round_seconds = next_round_seconds
        self.finished_keep_seconds = finished_keep_seconds
        self.closing = False  # the service is closing: no timer is armed any more

    # -- what play announces (PlayListener) ---------------------------------------------
    def turn_begun(self, table: LiveTable) -> None:
        self.arm_turn_timer(table)

    def round_ended(self, table: LiveTable) -> None:
        if table.status == FINISHED:
            self.arm(table, self.finished_keep_seconds, self.on_finished_expiry)
        else:
            self.arm_next_round(table)

    def player_back(self, table: LiveTable) -> None:
        if table.status == PLAYING:
            self.arm_turn_timer(table)
        elif table.status == ROUND_OVER and table.next_round_at is None:
            self.arm_next_round(table)

    def stalled(self, table: LiveTable) -> None:
        self.arm(table, RETRY_SECONDS, self.on_turn_timer)

    def arm_next_round(self, table: LiveTable) -> None:
        """The next round starts by itself after a pause, if a human is there to play it."""
        if table.status != ROUND_OVER or not any(s.present for s in table.seats):
            return
        table.next_round_at = self.clock.now() + self.next_round_seconds
        self.arm(table, self.next_round_seconds, self.on_next_round_timer)

    def arm_turn_timer(self, table: LiveTable) -> None:
        """One timer per table, due at the earliest reminder or timeout of the seats that
        must act and are played by a human."""
        table.cancel_timer()
        table.auto_plays = {}
        round_ = table.round
        if table.status != PLAYING or round_ is None or round_.finished:
            return
        now = self.clock.now()
        waiting = [s for s in round_.to_act() if table.seats[s].present]
        for seat in list(table.waiting_since):
            if seat not in waiting:
                del table.waiting_since[seat]
                table.reminded.discard(seat)
        if not waiting:
            return
        half = table.turn_seconds / 2
        due: list[float] = []
        for seat in waiting:
            since = table.waiting_since.setdefault(seat, now)
            due.append(since + table.turn_seconds)
            if seat not in table.reminded:
                due.append(since + half)
            forced = self.forced_move(table, seat)
            if forced is not None:
                table.auto_plays[seat] = (forced, since + AUTO_PLAY_SECONDS)
                due.append(since + AUTO_PLAY_SECONDS)
        self.arm(table, max(0.0, min(due) - now), self.on_turn_timer)
        table.timer_due = min(since + table.turn_seconds for since in table.waiting_since.values())

    def forced_move(self, table: LiveTable, seat: int) -> str | None:
        """The seat's only legal move, if its player chose to have such moves played for them
        (`/deck auto_play`) and the game allows it (`Round.plays_forced_moves`)."""
        round_ = table.round
        if round_ is None or not self.choices.auto_play(table.seats[seat].user_id):
            return None
        return round_.forced_move(seat)

    def arm(
        self,
        table: LiveTable,
        delay: float,
        handler: Callable[[int, int], Awaitable[None]],
    ) -> None:
        table.cancel_timer()
        if self.closing:  # shutting down: no timer may fire once the store is closed
            return
        token = table.timer_token
        table_id = table.id

        async def fire() -> None:
            await handler(table_id, token)

        table.timer = self.clock.call_later(delay, fire)
        table.timer_due = self.clock.now() + delay

    async def on_turn_timer(self, table_id: int, token: int) -> None:
        table = self.tables.live.get(table_id)
        if table is None:
            return
        following = self.followup.pending(table_id)
        async with self.tables.held(table) as (table, notes):
            if table.closed or token != table.timer_token or table.round is None:
                return
            table.timer = None
            now = self.clock.now()
            round_ = table.round
            waiting = [s for s in round_.to_act() if table.seats[s].present]
            for seat in waiting:
                since = table.waiting_since.get(seat, now)
                if seat not in table.reminded and now >= since + table.turn_seconds / 2:
                    table.reminded.add(seat)
                    notes.append(("turn_reminder", table.id, seat))
            expired = [
                s for s in waiting if now >= table.waiting_since.get(s, now) + table.turn_seconds
            ]
            forced = [
                (seat, move)
                for seat, (move, at) in table.auto_plays.items()
                if seat in waiting and seat not in expired and now >= at
            ]
            try:
                for seat, move in forced:
                    await self._play_forced(table, seat, move)
                for seat in expired:
                    await self._time_out(table, seat)
                await self.play.run_table(table, notes)
            except TableError as error:
                log.error("table %s: timed move failed: %s", table.id, error.key)
                self.arm(table, table.turn_seconds / 2, self.on_turn_timer)
            if expired or forced:
                changed(table, notes)
        if expired or forced or not following:
            # a timer runs in its own task: it waits for the bot moves it handed out, so
            # whoever awaits a timer (the fake clock) finds them played
            await self.followup.settle(table_id)

    async def _play_forced(self, table: LiveTable, seat: int, move: str) -> None:
        """Play the seat's only legal move for its player, stored as any move; neither a
        timeout nor a click of theirs (an absent player still times out on their choices)."""
        table.auto_plays.pop(seat, None)
        if self.forced_move(table, seat) != move:
            return  # the state moved on since the timer was armed
        await self.play.apply(table, seat, move)
        table.waiting_since.pop(seat, None)
        table.reminded.discard(seat)

    async def _time_out(self, table: LiveTable, seat: int) -> None:
        """Play safe default moves until this seat's turn is over; two in a row: away."""
        player = table.seats[seat]
        for _ in range(MAX_TIMEOUT_ACTIONS):
            round_ = table.round
            if round_ is None or round_.finished or seat not in round_.to_act():
                break
            events = await self.play.apply(
                table, seat, self.play.policy_move(table, seat, default=True)
            )
            if any(e.kind == TURN_EVENT and e.seat == seat for e in events):
                break  # its next turn began (after a peek): that one gets its own timer
        table.waiting_since.pop(seat, None)
        table.reminded.discard(seat)
        player.timeouts += 1
        named = (player.user_id,)
        table.add_log(LogEntry("timeout", seat, {"name": player.name}, "table", named))
        if player.timeouts >= AWAY_AFTER_TIMEOUTS and not player.away:
            player.away = True
            table.add_log(LogEntry("away", seat, {"name": player.name}, "table", named))

    async def on_next_round_timer(self, table_id: int, token: int) -> None:
        table = self.tables.live.get(table_id)
        if table is None:
            return
        async with self.tables.held(table) as (table, notes):
            if table.closed or token != table.timer_token or table.status != ROUND_OVER:
                return
            try:
                await self.play.start_round(table, notes)
            except TableError as error:
                log.error("table %s: next round not started: %s", table.id, error.key)
                self.arm(table, self.next_round_seconds, self.on_next_round_timer)
        await self.followup.settle(table_id)

    async def on_finished_expiry(self, table_id: int, token: int) -> None:
        table = self.tables.live.get(table_id)
        if table is None:
            return
        async with self.tables.held(table) as (table, notes):
            if table.closed or token != table.timer_token or table.status != FINISHED:
                return
            # Like any closing: the glue shows the table closed and frees what it kept for it.
            self.tables.forget(table, notes)

    def stop(self) -> None:
        """The service is closing: every table's timer is cancelled and none is armed again (a
        timer task already under way finds its token stale)."""
        self.closing = True
        for table in list(self.tables.live.values()):
            table.cancel_timer()
