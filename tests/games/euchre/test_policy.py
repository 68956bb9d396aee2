"""The bot policy reads only its seat's view."""

from __future__ import annotations

import random

from games.cards import cards
from games.euchre.bots.policy import choose_action, strength
from tests.games.euchre.helpers import act, stacked_round


def test_policy_choice_depends_only_on_the_seat_s_view() -> None:
    # Seat 1 holds the same cards; the other hands differ completely between the two deals.
    mine = "JH JD AH 9S 9C"
    one = stacked_round({1: mine, 0: "10S JS QS KS AS", 2: "10C JC QC KC AC"}, "9D")
    other = stacked_round({1: mine, 0: "10C JC QC KC AC", 2: "10S JS QS KS AS"}, "9D")
    for round_ in (one, other):
        act(round_, "1 pass; 2 pass; 3 pass; 0 pass")
    assert one.view(1) == other.view(1)
    for seed in range(20):
        assert choose_action(one, 1, random.Random(seed)) == choose_action(
            other, 1, random.Random(seed)
        )


def test_policy_names_its_strong_suit_and_the_dealer_picks_a_legal_discard() -> None:
    round_ = stacked_round({1: "JH JD AH KH 9S"}, "9D")
    act(round_, "1 pass; 2 pass; 3 pass; 0 pass")
    action = choose_action(round_, 1, random.Random(0))
    assert (action.kind, action.suit) == ("call", "H")
    dealer_round = stacked_round({0: "JS JC AS KS 9H"}, "QS")
    act(dealer_round, "1 pass; 2 pass; 3 pass")
    assert choose_action(dealer_round, 0, random.Random(0)).kind == "order"
    act(dealer_round, "0 order")
    discard = choose_action(dealer_round, 0, random.Random(0))
    assert str(discard) == "discard 9H"


def test_strength_counts_bowers_trumps_and_off_aces() -> None:
    assert strength(cards("JH JD AH KH AS"), "H") == 4 + 3.5 + 3 + 2 + 1
    assert strength(cards("JH JD AH KH AS"), "S") == 3 + 1  # ace of trump, AH off-suit


def test_policy_follows_low_and_never_trumps_its_partner_s_winning_trick() -> None:
    # Seat 2 makes hearts; seat 1 leads the ace of spades and seat 3, its partner, can follow.
    round_ = stacked_round(
        {1: "AS QC 10C 9D 10D", 2: "9S JH AH KH QH", 3: "KS 10S JD AD KD", 0: "9C JC QS JS KC"},
        "9H",
    )
    act(round_, "1 pass; 2 order; 0 discard 9C; 1 play AS; 2 play 9S")
    for seed in range(20):
        assert str(choose_action(round_, 3, random.Random(seed))) == "play 10S"


def test_policy_throws_off_rather_than_trumping_its_partner_s_winning_trick() -> None:
    round_ = stacked_round(
        {1: "AS 9C 10C 9D 10D", 2: "9S JH AH KH QH", 3: "JD 10H QC AD KD", 0: "KC JC QS JS KS"},
        "9H",
    )
    act(round_, "1 pass; 2 order; 0 discard KC; 1 play AS; 2 play 9S")
    for seed in range(20):
        assert str(choose_action(round_, 3, random.Random(seed))) == "play QC"


def test_policy_leads_trump_when_its_side_made_trump() -> None:
    round_ = stacked_round({1: "JD KH AS AC 10C", 0: "9S 10S QS KS 9D", 3: "JH AH 9C AD KD"}, "QH")
    act(round_, "1 order; 0 discard 9S")
    for seed in range(20):
        assert str(choose_action(round_, 1, random.Random(seed))) == "play JD"  # its best trump
    # The maker's partner wins the trick with the right bower, then leads trump as well.
    act(round_, "1 play JD")
    act(round_, f"2 {round_.legal_actions(2)[0]}; 3 play JH")
    act(round_, f"0 {round_.legal_actions(0)[0]}")
    assert round_.to_act() == (3,)
    for seed in range(20):
        assert str(choose_action(round_, 3, random.Random(seed))) == "play AH"
