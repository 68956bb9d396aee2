"""What one seat (or the public table) may know of a Dutch round: the only thing the bot renders.

A grid slot never shows a face-down card unless a rule has just revealed it to that viewer alone
(its peek, a Queen's look, a 7's look), or the round is over (every card is then shown). A wrong
matching card shown to all appears in `reveals` and in the log only. `log` holds recent public
events as data (kind, seat, data), never sentences, so the bot can word them in any language.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

from games.contract import Event
from games.dutch.actions import DutchAction

PHASES = ("peek", "start", "drawn", "power", "end", "over")
# peek: every seat must `peek` before the first turn; start: the turn's player may call Dutch
# (classic), match, draw or take; drawn: the player holds a card; power: a Queen/Jack power may
# be used; end: after the discard (match, call Dutch (house), end); over: the round is scored.


@dataclass(frozen=True, slots=True)
class SlotView:
    slot: int  # 1-based, never renumbered
    empty: bool  # emptied by a matching discard
    card: str | None  # the card's name if this viewer may know it now, else None


@dataclass(frozen=True, slots=True)
class Reveal:
    """A card a rule showed to the viewer in the most recent action."""

    seat: int  # whose grid
    slot: int
    card: str
    by: str  # "peek", "look" (Queen), "seven", "match" (shown to all)


@dataclass(frozen=True, slots=True)
class SeatScore:
    seat: int
    total: int  # sum of the seat's card values
    points: int  # what the round adds to the seat's match total


@dataclass(frozen=True)  # no slots: `build` fills __dict__ in one step
class DutchView:
    viewer: int | None  # None: the public table
    n_seats: int
    phase: str  # one of PHASES
    turn: int | None  # whose turn (None during the peek phase and once over)
    to_act: tuple[int, ...]
    dealer: int
    first_player: int
    stock: int  # cards left in the stock
    discard_top: str | None
    discard_size: int
    grids: tuple[tuple[SlotView, ...], ...]  # per seat, in slot order
    peeked: tuple[bool, ...]  # per seat: has done its initial peek
    dutch_caller: int | None
    final_turns: tuple[int, ...]  # seats still owed their last turn after a Dutch call
    held_from: str | None  # the turn player's held card came from "stock", "discard", "nine"
    held: str | None  # that card's name, if this viewer may know it
    power: str | None  # "queen"/"jack" pending after a discard; "seven"/"nine" (drawer only)
    legal: tuple[DutchAction, ...]  # the viewer's legal actions now
    reveals: tuple[Reveal, ...]
    log: tuple[Event, ...]  # recent public events, oldest first
    scores: tuple[SeatScore, ...] | None  # once the round is over
    caller_succeeded: bool | None  # once the round is over, if someone called Dutch

    @classmethod
    def build(cls, **values: Any) -> DutchView:
        """The engine's constructor: one dict update instead of 22 frozen-field assignments
        (views are built for every bot decision). Every field must be given."""
        view = object.__new__(cls)
        view.__dict__.update(values)
        return view

    def cards_left(self, seat: int) -> int:
        return sum(1 for s in self.grids[seat] if not s.empty)


class DecisionView(NamedTuple):
    """What a seat needs to choose its move: a projection of its `DutchView`, nothing more.

    The engine builds it directly (`DutchRound.decision_view`) for bot decisions, without the
    grids, log and reveals a full view assembles; `of` projects a full view, and tests pin that
    both agree at every decision."""

    viewer: int
    n_seats: int
    phase: str
    discard_top: str | None
    held: str | None
    power: str | None
    legal: tuple[DutchAction, ...]
    own_slots: tuple[int, ...]  # the viewer's non-empty slots, in slot order

    @classmethod
    def of(cls, view: DutchView) -> DecisionView:
        """The projection of one seat's full view (not of the public view: it has no seat)."""
        if view.viewer is None:
            raise ValueError("the public view has no decisions")
        return cls(
            view.viewer,
            view.n_seats,
            view.phase,
            view.discard_top,
            view.held,
            view.power,
            view.legal,
            tuple(s.slot for s in view.grids[view.viewer] if not s.empty),
        )
