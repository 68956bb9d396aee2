"""Stacked Euchre rounds and short action scripts for the rule tests."""

from __future__ import annotations

import random
from collections.abc import Mapping

from games.contract import Event, RoundSetup
from games.euchre import GAME, EuchreRound
from games.euchre.deal import stack_deck


def stacked_round(
    hands: Mapping[int, str],
    turned: str,
    *,
    dealer: int = 0,
    buried: str = "",
    **changes: object,
) -> EuchreRound:
    """A round dealt from a stacked deck; `changes` are option changes from `standard`."""
    deck = stack_deck(dealer, hands, turned, buried)
    options = GAME.options("standard", **changes)
    round_ = GAME.new_round(options, RoundSetup(n_seats=4, dealer=dealer), deck=deck)
    assert isinstance(round_, EuchreRound)
    return round_


def act(round_: EuchreRound, script: str) -> list[Event]:
    """Apply `"1 pass; 2 order; 0 discard 9C"`: seat, then notation, separated by `;`."""
    events: list[Event] = []
    for step in script.split(";"):
        seat, notation = step.strip().split(" ", 1)
        events += round_.apply(int(seat), notation)
    return events


def play_randomly(round_: EuchreRound, seed: int) -> None:
    """Finish the round with uniformly random legal actions."""
    rng = random.Random(seed)
    while not round_.finished:
        (seat,) = round_.to_act()
        round_.apply(seat, rng.choice(round_.legal_actions(seat)))


ALL_PASS_ROUND_ONE = "1 pass; 2 pass; 3 pass; 0 pass"  # dealer 0


# Hearts trump, ordered up by seat 2 (dealer 0's partner); seat 2 took trick 1, the opponents
# tricks 2 and 3. In trick 4 seat 2's ace of spades is winning, seat 0 plays last, void in
# spades, with the right bower and the 9 of diamonds: it must keep the trump, sure to win the
# last trick (three tricks: the side makes its point). Trumping its partner's ace instead leads
# the 9 of diamonds to the last trick, which seat 1's ace of diamonds beats: the side is
# euchred. Seat 1 passed holding that ace, a pass the simple policy would not have made.
BOWER_HANDS = {
    0: "QD 10D JH 9D KD",
    1: "AC AH QS 10S AD",
    2: "9C 10H KS AS KC",
    3: "10C JC JS 9S QC",
}
BOWER_PLAY = (
    "1 pass; 2 order; 0 discard KD; 1 play QS; 2 play KS; 3 play JS; 0 play 10D; "
    "2 play 9C; 3 play 10C; 0 play QD; 1 play AC; 1 play AH; 2 play 10H; 3 play JC; "
    "0 play 9H; 1 play 10S; 2 play AS; 3 play 9S"
)


def bower_for_the_last_trick() -> EuchreRound:
    """The round above, seat 0 to play in trick 4 (`play 9D` right, `play JH` a blunder)."""
    round_ = stacked_round(BOWER_HANDS, "9H", dealer=0, buried="QH KH JD")
    act(round_, BOWER_PLAY)
    return round_
