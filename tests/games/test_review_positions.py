"""Known positions: hand-built hands where one move is clearly best; the review must find it and
mark the move played instead as costly."""

from __future__ import annotations

import random
from typing import Any

from games.dame.simple import choose_action as simple_dame
from games.dutch.policy import choose_action as simple_dutch
from games.review import positions_of, review_decision, review_hand
from tests.games.dame.stacking import draw_and_discard
from tests.games.dame.stacking import stacked_round as dame_round
from tests.games.dutch.stack import deal, play
from tests.games.euchre.helpers import act, stacked_round

# Hearts trump, ordered up by seat 2 (dealer 0's partner); seat 2 took trick 1, the opponents
# tricks 2 and 3. In trick 4 seat 2's ace of spades is winning, seat 0 plays last, void in
# spades, with the right bower and the 9 of diamonds: it must keep the trump, sure to win the
# last trick (three tricks: the side makes its point). Trumping its partner's ace instead leads
# the 9 of diamonds to the last trick, which nearly any card beats: the side is euchred.
EUCHRE_HANDS = {
    0: "QD 10D JH 9D KD",
    1: "AC AH QS 10S AD",
    2: "9C 10H KS AS KC",
    3: "10C JC JS 9S QC",
}
EUCHRE_BEFORE = (
    "1 pass; 2 order; 0 discard KD; 1 play QS; 2 play KS; 3 play JS; 0 play 10D; "
    "2 play 9C; 3 play 10C; 0 play QD; 1 play AC; 1 play AH; 2 play 10H; 3 play JC; "
    "0 play 9H; 1 play 10S; 2 play AS; 3 play 9S"
)


def test_euchre_keeping_the_trump_that_wins_the_last_trick_is_found() -> None:
    round_ = stacked_round(EUCHRE_HANDS, "9H", dealer=0, buried="QH KH JD")
    act(round_, EUCHRE_BEFORE)
    decision_at = len(round_.history)
    act(round_, "0 play JH; 0 play 9D; 1 play AD; 2 play KC; 3 play QC")
    assert round_.finished
    review = review_hand(round_.record(), 0, seed=1, samples=12, budget=None)
    (decision,) = [d for d in review.decisions if d.index == decision_at]
    assert decision.played == "play JH" and decision.best == "play 9D"
    assert decision.grade in ("mistake", "blunder")
    assert review.accuracy < 100.0


def _finish(round_: Any, simple: Any, seed: int = 0) -> None:
    """Every seat plays the simple policy to the hand's end."""
    rng = random.Random(seed)
    while not round_.finished:
        seat = round_.to_act()[0]
        round_.apply(seat, simple(round_, seat, rng))


def test_dutch_calling_dutch_with_zero_points_is_found() -> None:
    # Seat 0 peeked at AS 2S, then looked at JK and KS with two Queens: it knows its grid is
    # worth 0 (-3 + 0 + 1 + 2). The bot calls Dutch. Drawing instead is not costly by the
    # estimate: the simple players of the playing out call Dutch on the next turn as well, and
    # a grid worth 0 scores 0 whoever calls, so both moves are worth 0.
    round_ = deal("classic", ["JK KS AS 2S", "10S 10H 8S 8H"], "9S", "QH 9C QD 9D QC")
    play(round_, "draw", "discard", "look 0:1", "draw", "discard")
    play(round_, "draw", "discard", "look 0:2", "draw", "discard")
    decision_at = len(round_.history)
    round_.apply(0, "draw")
    _finish(round_, simple_dutch)
    record = round_.record()
    (position,) = [p for p in positions_of(record, 0) if p.index == decision_at]
    decision = review_decision(record, 0, position, seed=1, samples=16, budget=None)
    assert decision.played == "draw" and decision.best == "dutch"
    assert decision.samples == 16


def test_dame_taking_a_pile_that_completes_packs_is_found() -> None:
    # Seat 1 holds pairs of 7s, 3s, 4s and 5s; the pile is 3C 4C 5S under seat 0's 7D: taking
    # it lays a pack of 7s and turns three pairs into packs. Drawing instead is costly.
    hand = "7S 7H 3S 3H 4D 4S 5C 5D 6H 8S 9D 10C JH"
    round_ = dame_round({0: "7D", 1: hand}, stock="3C 4C 5S 9S")
    for seat in (1, 2, 3):
        draw_and_discard(round_, seat)
    round_.apply(0, "draw")
    round_.apply(0, "discard 7D")
    decision_at = len(round_.history)
    round_.apply(1, "draw")
    _finish(round_, simple_dame)
    record = round_.record()
    (position,) = [p for p in positions_of(record, 1) if p.index == decision_at]
    decision = review_decision(record, 1, position, seed=1, samples=12, budget=None)
    assert decision.played == "draw" and decision.best.startswith("take 7S 7H")
    assert decision.grade != "" and decision.cost > 0  # at least an inaccuracy
