"""What one seat (or the public table) may see of a Euchre round.

Cards are short names (`JD`). A seat's view holds its own hand; the dealer's view alone holds
his discard; the three buried cards are in no view; the public view holds no hand at all.
"""

from __future__ import annotations

from dataclasses import dataclass

# Phases of a round, in order.
ORDER_UP = "order_up"  # bidding round 1: pass or order up the turned card's suit
NAME_TRUMP = "name_trump"  # bidding round 2: pass or name another suit
DEALER_DISCARD = "dealer_discard"  # the dealer picked up and discards one dealt card
PLAYING = "play"
OVER = "over"


@dataclass(frozen=True, slots=True)
class EuchreView:
    seat: int | None  # None: the public view
    dealer: int
    phase: str
    to_act: int | None  # the seat that acts now (None once over)
    hand: tuple[str, ...]  # the viewer's cards (empty in the public view)
    hand_sizes: tuple[int, ...]  # cards held per seat
    turned: str  # the turned-up card
    picked_up: bool  # the dealer took the turned card into his hand
    bids: tuple[tuple[int, str], ...]  # (seat, notation) of every bid so far
    trump: str | None
    maker: int | None
    alone: bool
    sitting_out: int | None  # the lone maker's partner (or the dealer, see docs/rules/euchre.md)
    trick: tuple[tuple[int, str], ...]  # the trick on the table, led card first
    tricks: tuple[tuple[tuple[int, str], ...], ...]  # completed tricks, in order
    trick_winners: tuple[int, ...]  # winner of each completed trick
    tricks_won: tuple[int, int]  # per team: seats 0+2, seats 1+3
    points: tuple[int, int]  # the round's points per team (zero until it is over)
    totals: tuple[int, ...]  # match totals per team before this round
    discard: str | None  # the dealer's discard, only in the dealer's own view
    legal: tuple[str, ...]  # the viewer's legal actions, in notation
    farmers_redeals: int  # deals thrown in for a farmer's hand before this one
    redeal: bool  # everyone passed twice (stick the dealer off): no points, next dealer
