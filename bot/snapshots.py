"""What the service hands out: immutable snapshots holding engine *views*, never engine state.

A leaf module: plug-ins and renderers import these types without loading the service (its
process pool, its store); it imports nothing of the bot. A snapshot that carries a view is
generic over its type (`PrivateSnapshot[EuchreView]`), so a plug-in reads its own game's view
typed; the shared code, which serves every game, leaves it unnamed (`Any`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

# The engine view a snapshot carries (`games.<game>.views`): read-only, so covariant.
ViewT_co = TypeVar("ViewT_co", covariant=True)

# The name a forgotten player's stored entries carry (`storage.privacy` writes the same; a
# test holds them equal): renderers word it "a former player".
FORMER_PLAYER = ""

# Public table statuses (PublicSnapshot.status).
LOBBY = "lobby"  # seating; the host may start
PLAYING = "playing"  # a round is in progress
ROUND_OVER = "round_over"  # all cards face up, scores shown; the next round starts soon
FINISHED = "finished"  # the match is over; winners known; a rematch may follow
CLOSED = "closed"  # cancelled or stopped


@dataclass(frozen=True, slots=True)
class PlayerRef:
    """A Discord member as the service knows it: id and the name to show."""

    user_id: int
    name: str


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One line of the table's public log, structured so the glue renders it per language.
    `source` is `engine` (a public engine event: kind/seat/data as the engine made them) or
    `table` (joined, left, bot_added, started, timeout, away, back, round_started, round_over,
    match_over, stopped, …). `users`: the Discord ids of the members whose names the entry
    carries (its `name`, or each of its `names`, in order; None for a bot), so the kept log
    forgets them when they ask (`/privacy forget`)."""

    kind: str
    seat: int | None = None
    data: Mapping[str, Any] = field(default_factory=dict)
    source: str = "engine"
    users: tuple[int | None, ...] = ()


@dataclass(frozen=True, slots=True)
class Reveal:
    """A private engine event for one seat (initial peek, Queen/7 look, …): the glue shows it
    once and hides it after the guild's reveal delay; it is never handed out again."""

    kind: str
    seat: int | None
    data: Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class SeatInfo:
    seat: int
    user_id: int | None  # None for a bot player
    name: str
    is_bot: bool
    away: bool = False  # timed out twice in a row: played by the bot policy until back
    left: bool = False  # left during the match: played by the bot policy to the end
    total: int = 0  # match total of this seat's side
    position: int = 0  # the place at the table: equals `seat` except in a fixed-size lobby


@dataclass(frozen=True, slots=True)
class RoundEnd(Generic[ViewT_co]):
    """The last finished round: every card face up (the engine's public view of a finished
    round), the points of this round and the totals after it, per seat."""

    round_no: int
    points: tuple[int, ...]
    totals: tuple[int, ...]
    detail: Mapping[str, Any]
    view: ViewT_co


@dataclass(frozen=True, slots=True)
class PublicSnapshot:
    """Everything the public table message shows."""

    table_id: int
    guild_id: int
    channel_id: int
    game: str
    preset: str | None
    options: Mapping[str, Any]
    target: int
    host_id: int
    status: str  # LOBBY, PLAYING, ROUND_OVER, FINISHED, CLOSED
    seats: tuple[SeatInfo, ...]
    min_seats: int
    max_seats: int
    round_no: int | None  # the number the glue puts in custom ids; None in the lobby
    view: Any | None  # the engine's public view of the current (or last) round
    to_act: tuple[int, ...]  # seats that may act now
    totals: tuple[int, ...]  # match totals per seat
    log: tuple[LogEntry, ...]  # the last few public events, oldest first
    last_round: RoundEnd | None  # set from a round's end until the next round starts
    winners: tuple[int, ...]  # winning seats once the match is over
    turn_deadline: float | None  # clock time of the next timeout (None: no timer)
    next_round_at: float | None  # clock time the next round starts by itself
    version: int  # grows with every stored change (the glue may skip older snapshots)
    replay: bool = False  # a finished hand replayed (/history): no button of the table to press
    watchers: int = 0  # members watching the table (its Watch button)
    spectators: str = "public"  # what watchers see: "public" (the table) or "hands" too
    coach: bool = False  # a practice table with a coach: hints, reviews, unrated

    @property
    def turn(self) -> int | None:
        """The seat whose turn it is (the first seat that may act)."""
        return self.to_act[0] if self.to_act else None

    def seat_of(self, user_id: int) -> int | None:
        for info in self.seats:
            if info.user_id == user_id and not info.left:
                return info.seat
        return None


TableSnapshot = PublicSnapshot  # open_table returns the lobby's public snapshot


@dataclass(frozen=True, slots=True)
class PrivateSnapshot(Generic[ViewT_co]):
    """What one seated player may see: the engine's view for the seat, its legal actions in
    notation, and reveals not yet shown to it (from moves made while it was away)."""

    table_id: int
    seat: int
    round_no: int | None
    status: str
    view: ViewT_co | None  # the engine's view(seat); None outside a round
    legal: tuple[str, ...]
    reveals: tuple[Reveal, ...]
    away: bool
    turn_deadline: float | None
    # the table's version it was built at, the one published with it (None: not known): a
    # followed message drawn from it is not looked at again until the table changes
    version: int | None = None
    game: str = ""  # the engine's name ("": not known)
    # the seat's only legal move, played for it at `auto_play_at` (the player's choice)
    auto_play: str | None = None
    auto_play_at: float | None = None

    @property
    def my_turn(self) -> bool:
        return bool(self.legal)

    @property
    def round_view(self) -> ViewT_co:
        """The seat's view, for what is only drawn in a round (the frame shows no hand outside
        one): a snapshot without a view there is a bug, said as such."""
        if self.view is None:
            raise ValueError(f"table {self.table_id}: seat {self.seat} has no view outside a round")
        return self.view


@dataclass(frozen=True, slots=True)
class WatcherSnapshot:
    """What a member watching the table, seated nowhere at it, sees: the public table and,
    where the table shows them, every seat's cards as at the start of the current turn (the
    engine's `SpectatorView`; None outside a round, or while they are not known yet)."""

    public: PublicSnapshot
    hands: Mapping[int, tuple[Any, ...]] | None  # seat -> its cards (games.cards.Card)
    version: int  # the table's version it was built at

    @property
    def table_id(self) -> int:
        return self.public.table_id


@dataclass(frozen=True, slots=True)
class ActResult:
    """The answer to a click: what happened, the private reveals to show once, and the
    player's view after it (ready for `interaction.response.edit_message`)."""

    table_id: int
    seat: int
    round_no: int  # the round the action was applied in
    notation: str
    events: tuple[LogEntry, ...]  # the public events of this action
    reveals: tuple[Reveal, ...]  # private events for the actor: show once, then hide
    private: PrivateSnapshot
    round_over: bool
    match_over: bool
