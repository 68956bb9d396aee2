"""What a seat infers about the hidden hands, one test per rule (games.euchre.bots.inference): every
deal the search draws obeys the certain rules, and the bids' likely bounds when a deal fits."""

from __future__ import annotations

import random

from games.euchre import EuchreRound
from games.euchre.bots.fast import BIT, CARD_ID, DISCARD_KEY, SUIT_ID, SUIT_MASK
from games.euchre.bots.inference import ALONE, BID, NOISE, Knowledge, strength
from games.euchre.ranking import DECK
from tests.games.euchre.helpers import act, stacked_round

DEALS = 40


def _bits(text: str) -> int:
    return sum(BIT[CARD_ID[c]] for c in DECK if c.code in text.split())


def _knowledge(round_: EuchreRound, seat: int, **kwargs: object) -> Knowledge:
    auto = round_.options.dealer_discard == "auto"
    return Knowledge.of(round_.view(seat), auto_discard=auto, **kwargs)  # type: ignore[arg-type]


def _deals(knowledge: Knowledge) -> list[list[int]]:
    rng = random.Random(1)
    return [knowledge.sample(rng) for _ in range(DEALS)]


def test_cards_seen_are_out_of_the_hidden_hands() -> None:
    round_ = stacked_round({0: "AD KD QD 10D 9D", 1: "AS JH AH KH 9C"}, "9H")
    act(round_, "1 order; 0 discard 9D; 1 play AS")
    knowledge = _knowledge(round_, 0)  # the dealer: he saw his discard
    seen = _bits("AD KD QD 10D 9D 9H AS")  # his hand and discard, the turned card, the ace
    assert not knowledge.unseen & seen
    for hands in _deals(knowledge):
        assert not (hands[1] | hands[2] | hands[3]) & seen


def test_the_dealer_holds_the_turned_card_he_picked_up() -> None:
    hands = {0: "QS 10D 9D KD 10H", 1: "AS JH AH KH 9C", 2: "KS 10C JC QC KC", 3: "9S 10S JS AC AD"}
    round_ = stacked_round(hands, "9H")
    act(round_, "1 order; 0 discard QS")
    turned = _bits("9H")
    assert all(hands[0] & turned for hands in _deals(_knowledge(round_, 1)))
    act(round_, "1 play 9C; 2 play 10C; 3 play AC; 0 play 9H")  # until he plays it
    assert not any(h[0] & turned for h in _deals(_knowledge(round_, 1)))


def test_a_seat_that_did_not_follow_suit_is_void_in_it() -> None:
    round_ = stacked_round(
        {0: "AD KD QD 10D 9D", 1: "AS JH AH KH 9C", 2: "10C JC QC KC AC"},
        "9H",
        dealer_discard="auto",
    )
    act(round_, "1 order; 1 play AS; 2 play 10C")  # seat 2 has no spade
    knowledge = _knowledge(round_, 1)
    spades = SUIT_MASK[SUIT_ID["H"]][SUIT_ID["S"]]
    assert not knowledge.allowed[2] & spades
    assert knowledge.allowed[3] & spades
    assert not any(hands[2] & spades for hands in _deals(knowledge))


def test_the_auto_discard_is_the_dealers_lowest_card() -> None:
    # Hearts ordered up to dealer 0 (auto discard); seat 1's view: the dealer threw away the
    # lowest of his dealt cards, so every card he holds besides the 9H ranks above the card out
    round_ = stacked_round({1: "AS JH AH KH 9C"}, "9H", dealer_discard="auto")
    act(round_, "1 order")
    knowledge = _knowledge(round_, 1)
    key = DISCARD_KEY[SUIT_ID["H"]]
    for hands in _deals(knowledge):
        kept = hands[0] & ~_bits("9H")
        out = knowledge.unseen & ~(hands[0] | hands[2] | hands[3])
        lowest_kept = min(key[c] for c in range(24) if kept >> c & 1)
        assert any(key[c] < lowest_kept for c in range(24) if out >> c & 1)


def test_a_seat_that_passed_would_not_surely_have_bid() -> None:
    # dealer 0, spades turned; seat 1 (an opponent of the dealer: -1 point) passed
    round_ = stacked_round({2: "9H 10H QH KH AH"}, "QS")
    act(round_, "1 pass")
    knowledge = _knowledge(round_, 2)
    spades = SUIT_ID["S"]
    values = [strength(hands[1], spades) - 10 for hands in _deals(knowledge)]
    assert max(values) < BID + NOISE
    unbound = _knowledge(round_, 2, bids=False)
    assert max(strength(h[1], spades) - 10 for h in _deals(unbound)) >= BID + NOISE


def test_a_seat_that_passed_twice_would_not_surely_have_named_a_suit() -> None:
    round_ = stacked_round({2: "9S 10S QS KS AS"}, "QH")
    act(round_, "1 pass; 2 pass; 3 pass; 0 pass; 1 pass")
    knowledge = _knowledge(round_, 2)
    for hands in _deals(knowledge):
        for suit in ("S", "D", "C"):
            assert strength(hands[1], SUIT_ID[suit]) < BID + NOISE


def test_a_bidder_holds_a_hand_worth_its_bid() -> None:
    round_ = stacked_round({2: "9H 10H QH KH AH"}, "QS")
    act(round_, "1 order")
    knowledge = _knowledge(round_, 2)
    spades = SUIT_ID["S"]
    values = [strength(hands[1], spades) - 10 for hands in _deals(knowledge)]
    assert min(values) >= BID - NOISE
    assert max(values) < ALONE + NOISE  # not alone: not surely strong enough to go alone


def test_bids_that_no_deal_fits_are_dropped_not_the_deal() -> None:
    # seat 1 ordered clubs alone, yet seat 2 holds every high club: no deal gives seat 1 the
    # strength of a lone hand, so the deals drop the bound and keep the certain rules
    round_ = stacked_round({2: "JC JS AC KC QC"}, "9C")
    act(round_, "1 order alone")
    knowledge = _knowledge(round_, 2)
    assert any(b.seat == 1 and b.low == ALONE - NOISE for b in knowledge.bounds)
    for hands in _deals(knowledge):
        assert knowledge.holds(hands)
        assert strength(hands[1], SUIT_ID["C"]) < ALONE - NOISE


def test_the_seat_knew_its_later_cards_before_it_played_them() -> None:
    round_ = stacked_round({1: "AS JH AH KH 9C"}, "9H", dealer_discard="auto")
    act(round_, "1 order; 1 play AS; 2 play KS")
    before = _knowledge(round_, 1, plays=0)
    assert before.mine == _bits("AS JH AH KH 9C")
    assert before.need[2] == 5 and before.allowed[2] & _bits("KS")
    now = _knowledge(round_, 1)
    assert now.need[2] == 4 and not now.unseen & _bits("KS AS")
