"""Dutch options: every decision of docs/rules/dutch.md (classic and house) is a field here.

The two rule sets are the presets `classic` (the default) and `house`; a table may change single
options, e.g. `GAME.options("house", target=50)`.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from games.cards import JOKER, Card
from games.contract import Options

FACE_VALUE_RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10")


class DutchOptions(Options):
    """One option set for both rule sets (field defaults are the classic rules)."""

    target: int = Field(default=100, gt=0)  # the match ends after a round reaching it
    jokers: bool = True  # classic: 54 cards with 2 jokers; house: 52 cards
    # card values (2 to 10 always count their face value)
    joker_value: int = -3
    ace_value: int = -1
    jack_value: int = 10
    queen_value: int = 10
    black_king_value: int = 0
    red_king_value: int = 15
    # classic powers: a stock-drawn Queen/Jack discarded directly lets its drawer look / swap
    queen_jack_powers: bool = True
    # house powers: drawing a 7 (show it, look at an own card) or a 9 (swap with an opponent)
    seven_nine_powers: bool = False
    # house: lay own cards matching the discard top (before drawing, and after discarding)
    matching_discards: bool = False
    # classic: Dutch is called instead of drawing; house: at the end of one's turn
    dutch_call: Literal["start_of_turn", "end_of_turn"] = "start_of_turn"
    # a caller with the lowest total (ties count as success): 0 points, or their own total
    caller_success: Literal["zero", "own_total"] = "zero"
    # a caller beaten by someone: max(2 * total, total), or total + 20
    failed_call: Literal["double", "plus_20"] = "double"
    # who starts: the player after the dealer, or (after round 1) the highest match total
    first_player: Literal["after_dealer", "highest_total"] = "after_dealer"
    # initial peek: any two slots the player picks (classic: "2 de ses 4 cartes"), or the
    # bottom row, slots 3 and 4 (house: "les deux plus proches")
    peek_choice: bool = True


FAILED_CALL_PENALTY = 20  # points added to a beaten caller with failed_call="plus_20"

CLASSIC = DutchOptions()
HOUSE = DutchOptions(
    jokers=False,
    ace_value=1,
    jack_value=11,
    queen_value=12,
    black_king_value=13,
    red_king_value=0,
    queen_jack_powers=False,
    seven_nine_powers=True,
    matching_discards=True,
    dutch_call="end_of_turn",
    caller_success="own_total",
    failed_call="plus_20",
    first_player="highest_total",
    peek_choice=False,
)
PRESETS: dict[str, DutchOptions] = {"classic": CLASSIC, "house": HOUSE}


def card_value(card: Card, options: DutchOptions) -> int:
    """The points a card counts at the end of a round under these options."""
    rank = card.rank
    if rank in FACE_VALUE_RANKS:
        return int(rank)
    if rank == JOKER:
        return options.joker_value
    if rank == "A":
        return options.ace_value
    if rank == "J":
        return options.jack_value
    if rank == "Q":
        return options.queen_value
    return options.red_king_value if card.is_red else options.black_king_value
