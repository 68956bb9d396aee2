"""Scoring lines of docs/rules/euchre.md, each from a full hand on a stacked deck.

Dealer 0 turns up 9D; everyone passes round 1 and seat 1 names hearts (JD is the left bower).
Where a deal forces the trick count whatever is played, the hand is played out with random
legal moves under several seeds; otherwise the play is scripted trick by trick."""

from __future__ import annotations

import pytest

from games.euchre.scoring import EUCHRED, MADE, MARCH, score_hand
from tests.games.euchre.helpers import ALL_PASS_ROUND_ONE, act, play_randomly, stacked_round

TOP_TRUMPS = "JH JD AH KH QH"
# The lone maker's low cards always lose: seat 0 holds only spades, seat 2 only clubs, so
# each follows (higher) whenever the maker plays his 9, and neither holds a trump.
SPADES_BUT_9 = "10S JS QS KS AS"
CLUBS_BUT_9 = "10C JC QC KC AC"


def _forced(hands: dict[int, str], bid: str) -> list[tuple[tuple[int, ...], str, list[int]]]:
    outcomes = []
    for seed in range(6):
        round_ = stacked_round(hands, "9D")
        act(round_, f"{ALL_PASS_ROUND_ONE}; {bid}")
        play_randomly(round_, seed)
        result = round_.result()
        outcomes.append((result.points, result.detail["outcome"], result.detail["tricks"]))
    return outcomes


@pytest.mark.parametrize(
    ("tricks", "alone", "expected"),
    [
        (3, False, (1, 0, MADE)),
        (4, False, (1, 0, MADE)),
        (5, False, (2, 0, MARCH)),
        (3, True, (1, 0, MADE)),
        (4, True, (1, 0, MADE)),
        (5, True, (4, 0, MARCH)),
        (0, False, (0, 2, EUCHRED)),
        (2, False, (0, 2, EUCHRED)),
        (2, True, (0, 2, EUCHRED)),
    ],
)
def test_scoring_table(tricks: int, alone: bool, expected: tuple[int, int, str]) -> None:
    assert score_hand(tricks, alone) == expected


def test_makers_taking_all_five_score_two() -> None:
    outcomes = _forced({1: TOP_TRUMPS}, "1 call H")
    assert set(map(repr, outcomes)) == {repr(((0, 2), MARCH, [0, 5]))}


def test_lone_maker_taking_all_five_scores_four() -> None:
    outcomes = _forced({1: TOP_TRUMPS}, "1 call H alone")
    assert set(map(repr, outcomes)) == {repr(((0, 4), MARCH, [0, 5]))}


def test_lone_maker_taking_four_scores_one() -> None:
    hands = {1: "JH JD AH KH 9S", 0: SPADES_BUT_9, 2: "9C 10C JC QC KC"}
    outcomes = _forced(hands, "1 call H alone")
    assert set(map(repr, outcomes)) == {repr(((0, 1), MADE, [1, 4]))}


def test_lone_maker_taking_three_scores_one() -> None:
    hands = {1: "JH JD AH 9S 9C", 0: SPADES_BUT_9, 2: CLUBS_BUT_9}
    outcomes = _forced(hands, "1 call H alone")
    assert set(map(repr, outcomes)) == {repr(((0, 1), MADE, [2, 3]))}


def test_euchred_makers_give_the_defenders_two_even_when_they_take_all_five() -> None:
    outcomes = _forced({0: TOP_TRUMPS}, "1 call H")
    assert set(map(repr, outcomes)) == {repr(((2, 0), EUCHRED, [5, 0]))}


def test_euchred_lone_maker_gives_the_defenders_two() -> None:
    outcomes = _forced({0: TOP_TRUMPS}, "1 call H alone")
    assert set(map(repr, outcomes)) == {repr(((2, 0), EUCHRED, [5, 0]))}


# Partner seat 3 holds four diamonds and 10H; the defenders hold no trump.
TEAM_DEAL = {
    1: "JH JD AH 9S 9C",
    3: "10D QD KD AD 10H",
    0: SPADES_BUT_9,
    2: CLUBS_BUT_9,
}


def test_makers_taking_three_score_one() -> None:
    round_ = stacked_round(TEAM_DEAL, "9D")
    act(round_, f"{ALL_PASS_ROUND_ONE}; 1 call H")
    act(round_, "1 play JH; 2 play 10C; 3 play 10H; 0 play 10S")  # makers
    act(round_, "1 play 9S; 2 play JC; 3 play 10D; 0 play AS")  # defenders
    act(round_, "0 play JS; 1 play 9C; 2 play QC; 3 play QD")  # defenders
    act(round_, "0 play QS; 1 play JD; 2 play KC; 3 play KD")  # makers: left bower trumps
    act(round_, "1 play AH; 2 play AC; 3 play AD; 0 play KS")  # makers
    result = round_.result()
    assert (result.points, result.detail["tricks"]) == ((0, 1), [2, 3])


def test_makers_taking_four_score_one() -> None:
    round_ = stacked_round(TEAM_DEAL, "9D")
    act(round_, f"{ALL_PASS_ROUND_ONE}; 1 call H")
    act(round_, "1 play 9S; 2 play JC; 3 play 10H; 0 play AS")  # the partner trumps
    act(round_, "3 play 10D; 0 play 10S; 1 play JH; 2 play 10C")  # JD is no diamond: trump
    act(round_, "1 play JD; 2 play QC; 3 play QD; 0 play JS")
    act(round_, "1 play AH; 2 play KC; 3 play KD; 0 play QS")
    act(round_, "1 play 9C; 2 play AC; 3 play AD; 0 play KS")  # defenders
    result = round_.result()
    assert (result.points, result.detail["tricks"]) == ((0, 1), [1, 4])
    assert round_.public_view().trick_winners == (3, 1, 1, 1, 2)
