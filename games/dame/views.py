"""What one seat (or the public table) may know of a Dame de Pique round.

Cards appear by code (`QS#1`), so each can be traced; `code.split("#")[0]` is its name.
"""

from __future__ import annotations

from dataclasses import dataclass

DRAW_PHASE, PLAY_PHASE, OVER = "draw", "play", "over"


@dataclass(frozen=True, slots=True)
class PackView:
    """A team's laid pack of one natural rank, cards in the order they were laid."""

    rank: str
    cards: tuple[str, ...]
    points: int


@dataclass(frozen=True, slots=True)
class PlayOptions:
    """The viewer's legal moves, by kind, in a bounded form (a UI builds any meld from it).

    `take`: the codes of the natural cards of the top discard's rank in hand that may justify a
    take (empty: no take with cards); `take_onto_pack`: the take that lays the top card alone
    on the team's pack (option `take_onto_team_pack`). `meld_ranks`: ranks a new pack can be
    laid in; `add_ranks`: the team's packs that cards in hand can join; `wilds`: the wild
    cards in hand; `max_lay`: how many cards may still leave the hand by laying (keeping one to
    discard and one to keep, until going out is allowed); `discard`: one code per card name."""

    draw: bool = False
    take: tuple[str, ...] = ()
    take_onto_pack: bool = False
    meld_ranks: tuple[str, ...] = ()
    add_ranks: tuple[str, ...] = ()
    wilds: tuple[str, ...] = ()
    max_lay: int = 0
    announce: bool = False
    may_go_out: bool = False
    discard: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class DameView:
    """`seat` is the viewer (None: the public table, which shows no hand). `hand` is the
    viewer's own cards; every other hand shows only its size. `discard` is the whole pile,
    bottom first (it is face up). `announced[seat]`: that seat has announced going out for its
    next turn (or for this one, while it is playing it); a knock lapses when that turn ends.
    `points[team]`: the value of the team's laid packs so far. `legal` is None unless the
    viewer is to act. `shown_hands`: every seat's cards, in every view once the hand is over
    (nothing is hidden any more), none before."""

    seat: int | None
    phase: str
    turn: int | None
    dealer: int
    hand: tuple[str, ...]
    hand_sizes: tuple[int, ...]
    packs: tuple[tuple[PackView, ...], ...]
    discard: tuple[str, ...]
    stock_size: int
    reshuffles: int
    announced: tuple[bool, ...]
    points: tuple[int, ...]
    totals: tuple[int, ...]
    winner: int | None  # the seat that went out, once the hand is over
    legal: PlayOptions | None
    # every hand face up, once the hand is over (the cards left count against their team);
    # empty while it is played
    shown_hands: tuple[tuple[str, ...], ...] = ()
