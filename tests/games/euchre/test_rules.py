"""One test per rule of docs/rules/euchre.md, each on a stacked deck (dealer 0 unless said)."""

from __future__ import annotations

import pytest

from games.contract import RoundSetup
from games.errors import IllegalAction
from games.euchre import GAME
from games.euchre.deal import stack_deck
from games.match import Match
from tests.games.euchre.helpers import ALL_PASS_ROUND_ONE, act, play_randomly, stacked_round

# Dealer 0: seat 1 bids and leads first. Trump hearts by order-up (turned KH).
BASIC = {
    0: "9S 10C QC KD AD",
    1: "JH 9H AS KS 10D",
    2: "JD 10S QS AC 9C",
    3: "AH QH 10H JS JC",
}


def test_deck_has_24_cards_and_partners_sit_opposite() -> None:
    deck = GAME.deck(GAME.options())
    assert len(deck) == 24 and len(set(deck)) == 24
    assert {c.rank for c in deck} == {"9", "10", "J", "Q", "K", "A"}
    assert {c.suit for c in deck} == {"S", "H", "D", "C"}
    assert GAME.sides(4) == ((0, 2), (1, 3))
    with pytest.raises(IllegalAction) as error:
        GAME.new_round(GAME.options(), RoundSetup(n_seats=3), seed=1)
    assert error.value.rule == "seat_count"


def test_deal_five_each_one_turned_up_three_out_of_play() -> None:
    round_ = stacked_round(BASIC, "KH", buried="9D QD KC")
    for seat, hand in BASIC.items():
        assert sorted(round_.view(seat).hand) == sorted(hand.split())
    assert round_.public_view().turned == "KH"
    assert round_.public_view().hand_sizes == (5, 5, 5, 5)
    every_view = [round_.view(s) for s in range(4)] + [round_.public_view()]
    for buried in ("9D", "QD", "KC"):
        assert not any(buried in repr(view) for view in every_view)


def test_dealer_rotates_clockwise_one_seat_a_round() -> None:
    match = Match(GAME, GAME.options(), 4, first_dealer=2)
    first_bidders = []
    for seed in range(5):
        round_ = match.new_round(seed=seed)
        first_bidders.append(round_.to_act()[0])
        assert round_.public_view().dealer == (2 + seed) % 4
        play_randomly(round_, seed)  # type: ignore[arg-type]
        match.add_round(round_.result())
    assert first_bidders == [3, 0, 1, 2, 3]


def test_round_one_bidding_starts_left_of_the_dealer() -> None:
    round_ = stacked_round(BASIC, "KH", dealer=2)
    assert round_.to_act() == (3,)
    with pytest.raises(IllegalAction) as error:
        round_.apply(0, "pass")
    assert error.value.rule == "not_your_turn"
    act(round_, "3 pass; 0 pass; 1 pass")
    assert round_.to_act() == (2,)


def test_round_one_first_order_up_ends_bidding_with_the_turned_suit() -> None:
    round_ = stacked_round(BASIC, "KH")
    act(round_, "1 pass; 2 order")
    view = round_.public_view()
    assert (view.trump, view.maker, view.alone) == ("H", 2, False)
    assert view.phase == "dealer_discard" and round_.to_act() == (0,)
    with pytest.raises(IllegalAction) as error:
        round_.apply(0, "order")
    assert error.value.rule == "wrong_phase"


def test_dealer_picks_up_the_turned_card_and_discards_one_dealt_card() -> None:
    round_ = stacked_round(BASIC, "KH")
    act(round_, "1 order")
    dealer_view = round_.view(0)
    assert "KH" in dealer_view.hand and len(dealer_view.hand) == 6
    assert sorted(dealer_view.legal) == sorted(f"discard {c}" for c in BASIC[0].split())
    with pytest.raises(IllegalAction) as error:
        round_.apply(0, "discard KH")
    assert error.value.rule == "keep_turned_card"
    events = act(round_, "0 discard 9S")
    assert sorted(round_.view(0).hand) == sorted(["KH", "10C", "QC", "KD", "AD"])
    (private,) = [e for e in events if e.kind == "discard"]
    assert private.to == frozenset({0}) and private.data == {"card": "9S"}
    assert round_.view(0).discard == "9S"
    assert all(round_.view(s).discard is None for s in (1, 2, 3))
    assert round_.public_view().discard is None
    assert round_.to_act() == (1,) and round_.public_view().phase == "play"


def test_dealer_discard_auto_drops_his_lowest_non_trump_card() -> None:
    # Trump hearts: JD is the left bower (a trump), so QC is the lowest non-trump card.
    round_ = stacked_round({0: "JD AS KS QC KC"}, "9H", dealer_discard="auto")
    events = act(round_, "1 order")
    assert round_.view(0).discard == "QC"
    assert sorted(round_.view(0).hand) == sorted(["JD", "AS", "KS", "KC", "9H"])
    assert [e.kind for e in events if e.to is not None] == ["discard"]
    assert round_.public_view().phase == "play" and round_.to_act() == (1,)


def test_dealer_discard_auto_with_five_dealt_trumps_drops_the_lowest_and_keeps_the_turned() -> None:
    round_ = stacked_round({0: "JH JD AH QH 10H"}, "9H", dealer_discard="auto")
    act(round_, "1 pass; 2 order")
    assert round_.view(0).discard == "10H" and "9H" in round_.view(0).hand


def test_round_two_after_four_passes_starts_left_of_the_dealer() -> None:
    round_ = stacked_round(BASIC, "KH")
    act(round_, ALL_PASS_ROUND_ONE)
    assert round_.public_view().phase == "name_trump" and round_.to_act() == (1,)
    with pytest.raises(IllegalAction) as error:
        round_.apply(1, "order")
    assert error.value.rule == "wrong_phase"


def test_round_two_names_another_suit_and_nobody_picks_up() -> None:
    round_ = stacked_round(BASIC, "KH")
    act(round_, ALL_PASS_ROUND_ONE + "; 1 pass; 2 call S")
    view = round_.public_view()
    assert (view.trump, view.maker, view.picked_up) == ("S", 2, False)
    assert view.hand_sizes == (5, 5, 5, 5) and "KH" not in round_.view(0).hand
    assert view.phase == "play" and round_.to_act() == (1,)


def test_round_two_the_turned_suit_cannot_be_named() -> None:
    round_ = stacked_round(BASIC, "KH")
    act(round_, ALL_PASS_ROUND_ONE)
    assert not any(a.startswith("call H") for a in round_.view(1).legal)
    before = round_.record()
    with pytest.raises(IllegalAction) as error:
        round_.apply(1, "call H")
    assert error.value.rule == "turned_suit_refused"
    assert round_.record() == before
    act(round_, "1 pass; 2 pass; 3 pass")
    assert not any(a.startswith("call H") for a in round_.view(0).legal)


def test_stick_the_dealer_on_the_dealer_must_name_a_suit() -> None:
    round_ = stacked_round(BASIC, "KH")
    act(round_, ALL_PASS_ROUND_ONE + "; 1 pass; 2 pass; 3 pass")
    legal = round_.view(0).legal
    assert "pass" not in legal
    assert sorted(legal) == sorted(f"call {s}{a}" for s in "SDC" for a in ("", " alone"))
    with pytest.raises(IllegalAction) as error:
        round_.apply(0, "pass")
    assert error.value.rule == "stick_the_dealer"
    act(round_, "0 call D")
    assert round_.public_view().trump == "D"


def test_stick_the_dealer_off_four_passes_twice_redeal_by_the_next_dealer() -> None:
    match = Match(GAME, GAME.options(stick_the_dealer=False), 4)
    deck = stack_deck(0, BASIC, "KH")
    round_ = match.new_round(deck=deck)
    act(round_, ALL_PASS_ROUND_ONE + "; 1 pass; 2 pass; 3 pass")  # type: ignore[arg-type]
    assert "pass" in round_.view(0).legal
    events = act(round_, "0 pass")  # type: ignore[arg-type]
    assert round_.finished and [e.kind for e in events][-2:] == ["redeal", "round_over"]
    result = round_.result()
    assert result.points == (0, 0) and result.detail["redeal"] is True
    assert round_.public_view().redeal is True
    match.add_round(result)
    assert match.totals == [0, 0] and match.next_setup().dealer == 1


def test_going_alone_partner_sits_out_and_tricks_have_three_cards() -> None:
    round_ = stacked_round(BASIC, "KH", dealer_discard="auto")
    act(round_, "1 order alone")
    view = round_.public_view()
    assert (view.alone, view.sitting_out) == (True, 3)
    assert round_.view(3).legal == ()
    play_randomly(round_, seed=4)
    tricks = round_.public_view().tricks
    assert len(tricks) == 5
    assert all(len(t) == 3 and 3 not in {s for s, _ in t} for t in tricks)
    assert round_.view(3).hand_sizes[3] == 5  # the partner's cards are never played


def test_dealers_partner_alone_in_round_one_dealer_sits_out_and_does_not_pick_up() -> None:
    round_ = stacked_round(BASIC, "KH")
    act(round_, "1 pass; 2 order alone")
    view = round_.public_view()
    assert (view.sitting_out, view.picked_up, view.phase) == (0, False, "play")
    assert "KH" not in round_.view(0).hand and len(round_.view(0).hand) == 5
    assert round_.view(0).legal == () and round_.view(0).discard is None
    assert round_.to_act() == (1,)
    play_randomly(round_, seed=1)
    assert all(len(t) == 3 and 0 not in {s for s, _ in t} for t in round_.public_view().tricks)


def test_opponent_of_the_dealer_going_alone_still_has_the_dealer_pick_up() -> None:
    round_ = stacked_round(BASIC, "KH")
    act(round_, "1 pass; 2 pass; 3 order alone")
    assert round_.public_view().sitting_out == 1
    assert round_.public_view().picked_up and round_.to_act() == (0,)
    act(round_, "0 discard 9S")
    assert round_.to_act() == (2,)  # first active seat left of the dealer leads


def test_first_active_player_left_of_the_dealer_leads() -> None:
    round_ = stacked_round(BASIC, "KH", dealer=3)
    act(round_, "0 pass; 1 pass; 2 order")
    act(round_, "3 discard AH")
    assert round_.to_act() == (0,) and round_.public_view().phase == "play"


def test_follow_the_led_suit_when_able() -> None:
    round_ = stacked_round(BASIC, "KH")
    act(round_, ALL_PASS_ROUND_ONE + "; 1 call S")
    act(round_, "1 play 10D")
    assert round_.view(2).legal == ("play JD",)  # spades trump: JD is a plain diamond
    act(round_, "2 play JD")
    assert len(round_.view(3).legal) == 5  # no diamond: trump or discard
    act(round_, "3 play AH")
    assert sorted(round_.view(0).legal) == ["play AD", "play KD"]
    before = round_.record()
    with pytest.raises(IllegalAction) as error:
        round_.apply(0, "play 9S")
    assert error.value.rule == "must_follow_suit"
    assert round_.record() == before


def test_left_bower_is_a_trump_for_following_suit_not_a_diamond() -> None:
    # Trump hearts. Seat 2's only "diamond" is JD, the left bower: it has no diamond at all.
    round_ = stacked_round(BASIC, "KH", dealer_discard="auto")
    act(round_, "1 order")  # dealer 0 drops 9S
    act(round_, "1 play 10D")
    assert sorted(round_.view(2).legal) == sorted(f"play {c}" for c in BASIC[2].split())
    act(round_, "2 play 9C; 3 play JS")
    assert sorted(round_.view(0).legal) == ["play AD", "play KD"]


def test_left_bower_with_a_real_diamond_must_follow_with_the_diamond() -> None:
    hands = {1: "10D AS KS QS 9C", 2: "JD 9D 10S AC JC"}
    round_ = stacked_round(hands, "KH", dealer_discard="auto")
    act(round_, "1 order; 1 play 10D")
    assert round_.view(2).legal == ("play 9D",)
    with pytest.raises(IllegalAction) as error:
        round_.apply(2, "play JD")
    assert error.value.rule == "must_follow_suit"


def test_left_bower_must_follow_a_trump_lead_and_leads_trump() -> None:
    round_ = stacked_round(BASIC, "KH", dealer_discard="auto")
    act(round_, "1 order; 1 play 9H")
    assert round_.view(2).legal == ("play JD",)  # the only trump of seat 2
    act(round_, "2 play JD; 3 play 10H; 0 play KH")
    assert round_.public_view().trick_winners == (2,)
    act(round_, "2 play 9C; 3 play JC; 0 play 10C; 1 play AS")  # JC is a plain club here
    assert round_.public_view().trick_winners == (2, 3)


def test_trick_winner_highest_trump_else_highest_of_the_led_suit_and_leads_next() -> None:
    round_ = stacked_round(BASIC, "KH", dealer_discard="auto")
    act(round_, "1 order")  # dealer 0 holds 10C QC KD AD KH
    act(round_, "1 play AS; 2 play QS; 3 play JS; 0 play KH")  # trumped
    assert round_.public_view().trick_winners == (0,) and round_.to_act() == (0,)
    act(round_, "0 play AD; 1 play 10D; 2 play 10S; 3 play JC")  # no trump: AD wins
    assert round_.public_view().trick_winners == (0, 0)
    act(round_, "0 play 10C; 1 play KS; 2 play AC; 3 play AH")  # AH is a trump
    assert round_.public_view().trick_winners == (0, 0, 3) and round_.to_act() == (3,)
    assert round_.public_view().tricks_won == (2, 1)


def test_trump_may_be_led_at_the_first_trick() -> None:
    round_ = stacked_round(BASIC, "KH", dealer_discard="auto")
    act(round_, "1 order")
    assert "play JH" in round_.view(1).legal and "play 9H" in round_.view(1).legal
    act(round_, "1 play JH")
    assert round_.public_view().trick == ((1, "JH"),)


def test_farmers_hand_on_redeals_by_the_same_dealer() -> None:
    farmer = {1: "9S 9H 10D 10C AS"}
    round_ = stacked_round(farmer, "KH", dealer=0, farmers_hand=True)
    view = round_.view(1)
    assert view.farmers_redeals >= 1 and view.dealer == 0
    assert sorted(view.hand) != sorted(farmer[1].split())
    for seat in range(4):
        nines_and_tens = [c for c in round_.view(seat).hand if c[:-1] in ("9", "10")]
        assert len(nines_and_tens) < 4
    again = stacked_round(farmer, "KH", dealer=0, farmers_hand=True)
    assert [again.view(s) for s in range(4)] == [round_.view(s) for s in range(4)]
    assert GAME.replay(round_.record()).view(1) == view


def test_farmers_hand_off_deals_the_hand_as_stacked() -> None:
    farmer = {1: "9S 9H 10D 10C AS"}
    round_ = stacked_round(farmer, "KH", dealer=0)
    assert round_.view(1).farmers_redeals == 0
    assert sorted(round_.view(1).hand) == sorted(farmer[1].split())


def test_farmers_hand_counts_only_nines_and_tens() -> None:
    three = {1: "9S 9H 10D JC AS"}
    round_ = stacked_round(three, "KH", farmers_hand=True)
    assert round_.view(1).farmers_redeals == 0


def test_match_is_won_at_the_target_by_one_team() -> None:
    match = Match(GAME, GAME.options(target=10), 4)
    seed = 0
    while not match.finished:
        round_ = match.new_round(seed=seed)
        play_randomly(round_, seed)  # type: ignore[arg-type]
        match.add_round(round_.result())
        seed += 1
    assert match.winners is not None and len(match.winners) == 1
    (winner,) = match.winners
    assert match.totals[winner] >= 10 and match.totals[winner] > match.totals[1 - winner]
    assert sorted(match.winner_seats()) == list(GAME.sides(4)[winner])
