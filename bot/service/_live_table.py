"""A table as the service holds it in memory (never handed out: snapshots are)."""

from __future__ import annotations

import asyncio
import random
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from types import MappingProxyType
from typing import Any

from bot.clock import TimerHandle
from bot.snapshots import LOBBY, LogEntry, PublicSnapshot, Reveal, RoundEnd
from games.cards import Card
from games.contract import Game, Options, Round, RoundResult
from games.match import Match

# Public log entries kept per table: room for the table message's last lines when every one
# of them is a turn of several moves (drew, laid, added, knocked, discarded).
LOG_LENGTH = 32


@dataclass(slots=True)
class LiveSeat:
    user_id: int | None  # None: a bot player
    name: str
    is_bot: bool
    joined_at: datetime
    left_at: datetime | None = None
    away: bool = False
    timeouts: int = 0  # timeouts in a row; two make the seat away
    position: int = 0  # the seat at the table (see LiveTable.seats)

    @property
    def auto(self) -> bool:
        """Played by the bot policy (a bot, an away player, or a player who left)."""
        return self.is_bot or self.away or self.left_at is not None

    @property
    def present(self) -> bool:
        """A human who is here (neither away nor gone)."""
        return not self.auto


@dataclass(slots=True)
class LiveTable:
    """`seats` is in seat order. In a lobby of a fixed-size game a seat's `position` (N, E, …)
    may differ from its index while places are empty; once a match starts they are equal."""

    id: int
    guild_id: int
    channel_id: int
    game: Game[Any, Any, Any]
    preset: str | None
    options: Options
    host_id: int
    seats: list[LiveSeat]
    status: str = LOBBY
    turn_seconds: float = 90.0
    turn_override: float | None = None  # the table's own timer (a tournament's), else the guild's
    bots: str = "strong"  # how bot players play: "simple" or "strong" (bot/runtime/policy.py)
    spectators: str = "public"  # what watchers see: "public" or "hands" (service/watching.py)
    # members watching (user ids, in the order they came): none seated here this match
    watchers: dict[int, None] = field(default_factory=dict)
    coach: bool = False  # a practice table: hints, reviews after each hand, unrated
    match: Match | None = None
    round: Round[Any, Any, Any] | None = None
    round_no: int | None = None  # the store's number of the current round
    round_scored: bool = False  # the current round's result is added to the match and stored
    match_stored: bool = False  # the finished match's winners and stats are stored
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    log: deque[LogEntry] = field(default_factory=deque)  # trimmed by whole turns: add_log
    # a table-level line not kept in the store yet (bot/service/_table_log.py): the engine's
    # lines are rebuilt from the stored actions, the table's are not
    log_unsaved: bool = False
    pending_reveals: dict[int, list[Reveal]] = field(default_factory=dict)
    waiting_since: dict[int, float] = field(default_factory=dict)  # seat -> clock time
    reminded: set[int] = field(default_factory=set)
    # seat -> (its only legal move, when it is played for it): the player chose it so
    auto_plays: dict[int, tuple[str, float]] = field(default_factory=dict)
    timer: TimerHandle | None = None
    timer_due: float | None = None
    timer_token: int = 0
    next_round_at: float | None = None
    last_round: RoundEnd[Any] | None = None
    winners: tuple[int, ...] = ()
    stacked_decks: deque[list[Card]] = field(default_factory=deque)
    rng: random.Random = field(default_factory=random.Random)
    version: int = 0
    closed: bool = False
    # What everyone outside the service sees: set only when the lock is released (every
    # change stored), so a pending or failed write is never shown.
    published: PublicSnapshot | None = None
    options_json: Mapping[str, Any] = field(init=False)

    def __post_init__(self) -> None:
        # dumped once: every public snapshot shows the options
        self.options_json = MappingProxyType(self.options.model_dump(mode="json"))

    @property
    def fixed_seats(self) -> bool:
        """A game for exactly n players (four places N/E/S/W): lobby seats are places a player
        picks, and may stay empty between taken ones. Otherwise seats are numbered in order."""
        return self.game.min_seats == self.game.max_seats

    def free_positions(self) -> list[int]:
        taken = {s.position for s in self.seats}
        return [p for p in range(self.game.max_seats) if p not in taken]

    def index_at(self, position: int) -> int | None:
        """The index in `seats` of whoever sits at this position (None: free)."""
        return next((i for i, s in enumerate(self.seats) if s.position == position), None)

    def place(self, seat: LiveSeat) -> None:
        """Seat someone at `seat.position`, keeping `seats` in position order."""
        self.seats.append(seat)
        self.settle_positions()

    def settle_positions(self) -> None:
        """`seats` in position order; without fixed places, positions are the indices. From
        the start of a match every seat is taken, so index and position are the same."""
        self.seats.sort(key=lambda s: s.position)
        if not self.fixed_seats:
            for index, seat in enumerate(self.seats):
                seat.position = index

    def seat_of(self, user_id: int) -> int | None:
        """The seat of this user if they sit here and have not left."""
        for index, seat in enumerate(self.seats):
            if seat.user_id == user_id and seat.left_at is None:
                return index
        return None

    def human_ids(self) -> list[int]:
        return [s.user_id for s in self.seats if s.user_id is not None and s.left_at is None]

    def show_round_end(
        self, round_no: int, round_: Round[Any, Any, Any], result: RoundResult
    ) -> RoundEnd[Any]:
        """Keep a finished round as the table shows it (every card face up, its points and
        the totals after it, per seat): what a round's end and a restore between rounds show."""
        n = len(self.seats)
        self.last_round = RoundEnd(
            round_no=round_no,
            points=tuple(result.points[self.game.side_of(s, n)] for s in range(n)),
            totals=self.seat_totals(),
            detail=dict(result.detail),
            view=round_.public_view(),
        )
        return self.last_round

    def seat_totals(self) -> tuple[int, ...]:
        """Each seat's side's match total (partners share one)."""
        totals = [0] * len(self.seats)
        if self.match is not None:
            for side, seats in enumerate(self.match.sides):
                for seat in seats:
                    totals[seat] = self.match.totals[side]
        return tuple(totals)

    def add_log(self, entry: LogEntry) -> None:
        """Keep `entry` and the last LOG_LENGTH entries or fewer, never the tail of a seat's
        run of moves: the log words such a run as one line ("Alice: drew; laid …; knocked;
        discarded A♥"), and a line missing its first moves misleads."""
        self.log.append(entry)
        if entry.source != "engine":
            self.log_unsaved = True
        if len(self.log) <= LOG_LENGTH:
            return
        dropped = self.log.popleft()
        while self.log and _same_run(dropped, self.log[0]):
            self.log.popleft()

    def log_state(self) -> tuple[list[LogEntry], bool]:
        """The log as it is, to put back (`restore_log`) if the write of a change fails."""
        return list(self.log), self.log_unsaved

    def restore_log(self, state: tuple[list[LogEntry], bool]) -> None:
        entries, unsaved = state
        self.log = deque(entries)
        self.log_unsaved = unsaved

    def cancel_timer(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
        self.timer = None
        self.timer_due = None
        self.timer_token += 1


def _same_run(before: LogEntry, after: LogEntry) -> bool:
    """Two entries in a row that are one seat's moves (the log words them on one line)."""
    return (
        before.source == after.source == "engine"
        and before.seat is not None
        and before.seat == after.seat
    )
