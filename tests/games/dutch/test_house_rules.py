"""Scenario tests for docs/rules/dutch.md (house rules), each from a stacked deck."""

from __future__ import annotations

import pytest

from games.cards import card
from games.contract import RoundResult
from games.dutch import GAME, DutchRound, card_value
from games.dutch.views import Reveal
from games.errors import IllegalAction
from games.match import Match
from tests.games.dutch.stack import deal, play, slot_cards

TWO = ["AS 2S 3S 4S", "5S 6S 7S 8S"]


def legal(round_: DutchRound, seat: int) -> list[str]:
    return [str(a) for a in round_.legal_actions(seat)]


def test_house_deck_has_52_cards_without_jokers() -> None:
    deck = GAME.deck(GAME.options("house"))
    assert len(deck) == 52 and not any(c.is_joker for c in deck)


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("AH", 1),
        ("2C", 2),
        ("10D", 10),
        ("JS", 11),
        ("QH", 12),
        ("KS", 13),
        ("KC", 13),
        ("KH", 0),
        ("KD", 0),
    ],
)
def test_house_card_values(name: str, value: int) -> None:
    assert card_value(card(name), GAME.options("house")) == value


FOUR = ["AS 2S 3S 4S", "5S 6S 7S 8S", "9S 10S JS QS", "AH 2H 3H 4H"]


def test_house_first_round_starts_after_the_dealer() -> None:
    assert deal("house", FOUR, "KS", dealer=1, peek=False).public_view().first_player == 2


@pytest.mark.parametrize(
    ("totals", "first"),
    [((30, 10, 30, 5), 2), ((30, 10, 20, 30), 3), ((5, 40, 5, 5), 1)],
)
def test_house_first_player_after_round_one_is_the_highest_total_ties_first_after_dealer(
    totals: tuple[int, ...], first: int
) -> None:
    round_ = deal("house", FOUR, "KS", dealer=1, round_no=1, totals=totals)
    assert round_.public_view().first_player == first and round_.to_act() == (first,)
    classic = deal("classic", FOUR, "KS", dealer=1, round_no=1, totals=totals)
    assert classic.public_view().first_player == 2


def test_house_first_player_uses_the_match_totals() -> None:
    match = Match(GAME, GAME.options("house"), 3)
    match.add_round(RoundResult(points=(0, 9, 4)))
    setup = match.next_setup()
    assert setup.dealer == 1 and setup.totals == (0, 9, 4)
    round_ = match.new_round(seed=3)
    assert round_.public_view().first_player == 1


def test_matching_discard_before_drawing_removes_the_card_and_its_slot() -> None:
    round_ = deal("house", ["5H 2S 3S 4S", "5S 6S 7S 8S"], "5D")
    assert "match 1" in legal(round_, 0)
    events = round_.apply(0, "match 1")
    assert events[0].data == {"slot": 1, "card": "5H", "ok": True}
    view = round_.public_view()
    assert view.grids[0][0].empty and view.discard_top == "5H"
    assert view.phase == "start" and view.cards_left(0) == 3
    assert "swap 1" not in legal(round_, 0) and "draw" in legal(round_, 0)
    play(round_, "draw", "swap 2")
    assert round_.public_view().grids[0][0].empty  # numbers never shift


def test_wrong_matching_card_returns_known_to_all_and_brings_a_penalty_card() -> None:
    round_ = deal("house", ["6H 2S 3S 4S", "5S 6S 7S 8S"], "5D", "KD 9C")
    events = round_.apply(0, "match 1")
    assert [e.kind for e in events] == ["match", "penalty"]
    assert events[0].data == {"slot": 1, "card": "6H", "ok": False} and events[0].to is None
    assert events[1].data == {"slot": 5} and events[1].to is None  # unseen, even by the owner
    assert slot_cards(round_, 0) == ["6H", "2S", "3S", "4S", "KD"]
    for view in (round_.public_view(), round_.view(0), round_.view(1)):
        assert Reveal(0, 1, "6H", "match") in view.reveals
        assert all(s.card is None for s in view.grids[0])  # face down again
    assert round_.public_view().discard_top == "5D"
    assert [s.slot for s in round_.public_view().grids[0]] == [1, 2, 3, 4, 5]
    play(round_, "draw")  # the turn goes on: the player must still draw
    assert round_.view(0).held == "9C"


def test_a_slot_laid_wrong_cannot_be_laid_again_in_the_same_turn() -> None:
    round_ = deal("house", ["6H 2S 3S 4S", "5S 6S 7S 8S"], "5D")
    play(round_, "match 1")
    assert "match 1" not in legal(round_, 0)
    with pytest.raises(IllegalAction) as error:
        play(round_, "match 1")
    assert error.value.rule == "laid_wrong"


def test_matching_after_the_turns_discard() -> None:
    round_ = deal("house", ["5H 2S 3S 4S", "5S 6S 7S 8S"], "9D", "5C")
    play(round_, "draw", "discard")
    assert round_.public_view().phase == "end"
    assert legal(round_, 0) == ["match 1", "match 2", "match 3", "match 4", "dutch", "end"]
    play(round_, "match 1")
    assert round_.public_view().grids[0][0].empty
    play(round_, "end")
    assert round_.to_act() == (1,)


def test_matching_after_a_swap_uses_the_replaced_card() -> None:
    round_ = deal("house", ["5H 5C 3S 4S", "5S 6S 7S 8S"], "9D", "2H")
    play(round_, "draw", "swap 1", "match 2")
    assert round_.public_view().discard_top == "5C"
    assert slot_cards(round_, 0) == ["2H", None, "3S", "4S"]


def test_red_and_black_kings_match_each_other() -> None:
    round_ = deal("house", ["KS 2S 3S 4S", "5S 6S 7S 8S"], "KH")
    events = round_.apply(0, "match 1")
    assert events[0].data["ok"] is True


def test_seven_drawn_from_the_stock_is_shown_to_all_and_looks_at_an_own_card() -> None:
    round_ = deal("house", TWO, "9D", "7H")
    play(round_, "draw")
    assert round_.view(0).power == "seven"
    assert round_.public_view().held is None and round_.public_view().power is None
    assert "seven 2" in legal(round_, 0)
    events = round_.apply(0, "seven 2")
    assert events[0].kind == "seven" and events[0].to is None
    assert events[0].data == {"card": "7H", "slot": 2}
    see = events[1]
    assert see.to == frozenset({0}) and see.data["card"] == "2S"
    assert round_.public_view().held == "7H"
    assert round_.view(0).grids[0][1].card == "2S"
    assert round_.view(1).grids[0][1].card is None
    assert not any(a.startswith("seven") for a in legal(round_, 0))
    play(round_, "swap 4")  # then the turn goes on with the 7 as any drawn card
    assert slot_cards(round_, 0)[3] == "7H"


def test_nine_swaps_an_own_card_with_an_opponents_then_is_discarded() -> None:
    round_ = deal("house", TWO, "9D", "9H")
    play(round_, "draw", "nine 1 1:2")
    assert slot_cards(round_, 0)[0] == "6S" and slot_cards(round_, 1)[1] == "AS"
    view = round_.public_view()
    assert view.discard_top == "9H" and view.phase == "end"


def test_nine_given_to_an_opponent_makes_the_received_card_the_held_card() -> None:
    round_ = deal("house", TWO, "9D", "9H")
    play(round_, "draw", "nine drawn 1:3")
    assert slot_cards(round_, 1)[2] == "9H"
    mine = round_.view(0)
    assert mine.held_from == "nine" and mine.held is None  # received unseen
    assert legal(round_, 0) == ["discard", "swap 1", "swap 2", "swap 3", "swap 4"]  # no 7 power
    play(round_, "swap 4")
    assert slot_cards(round_, 0)[3] == "7S" and round_.public_view().discard_top == "4S"


def test_house_powers_are_not_triggered_by_discarding_or_by_a_taken_card() -> None:
    round_ = deal("house", TWO, "7D", "QH JH")
    play(round_, "take")
    assert not any(a.startswith("seven") for a in legal(round_, 0))
    play(round_, "swap 1", "end", "draw", "discard")  # a Queen discarded: no power in house
    assert round_.public_view().phase == "end" and round_.public_view().power is None
    play(round_, "end", "draw", "discard")
    assert round_.public_view().power is None


def test_house_dutch_is_called_at_the_end_of_ones_turn() -> None:
    round_ = deal("house", TWO, "9D", "10H 10D")
    with pytest.raises(IllegalAction) as error:
        play(round_, "dutch")
    assert error.value.rule == "dutch_at_end"
    play(round_, "draw", "discard", "dutch")
    assert round_.public_view().dutch_caller == 0 and round_.to_act() == (1,)
    play(round_, "draw", "discard", "end")
    assert round_.finished


def test_house_caller_with_the_lowest_total_scores_own_total() -> None:
    round_ = deal("house", TWO, "9D", "10H 10D")
    play(round_, "draw", "discard", "dutch", "draw", "discard", "end")
    assert round_.result().points == (10, 26)


def test_house_caller_not_lowest_adds_twenty() -> None:
    round_ = deal("house", ["5S 6S 7S 8S", "AS 2S 3S 4S"], "9D", "10H 10D")
    play(round_, "draw", "discard", "dutch", "draw", "discard", "end")
    assert round_.result().points == (46, 10)
    assert round_.result().detail["caller_succeeded"] is False


def test_house_caller_tied_for_lowest_scores_like_the_others() -> None:
    round_ = deal("house", ["5S 6S 7S 8S", "5H 6H 7H 8H"], "9D", "10H 10D")
    play(round_, "draw", "discard", "dutch", "draw", "discard", "end")
    assert round_.result().points == (26, 26)
    assert round_.result().detail["caller_succeeded"] is True


def test_a_nine_in_the_last_round_may_target_the_caller() -> None:
    round_ = deal("house", ["AS 2S 3S KH", "5S 6S 7S 8S"], "9D", "10H 9H")
    play(round_, "draw", "discard", "dutch")  # caller total 6
    play(round_, "draw", "nine drawn 0:1")  # the 9 goes to the caller, the ace comes back
    play(round_, "swap 4", "end")
    assert slot_cards(round_, 0) == ["9H", "2S", "3S", "KH"]
    assert round_.result().detail["totals"] == [14, 19]
    assert round_.result().detail["caller_succeeded"] is True  # 14 < 19: still the lowest


def test_a_nine_given_to_the_caller_makes_the_call_fail() -> None:
    round_ = deal("house", ["AS 2S 3S KH", "5S 6S AH AD"], "9D", "10H 9H")
    play(round_, "draw", "discard", "dutch")  # caller 6, other 13
    play(round_, "draw", "nine drawn 0:1", "swap 1", "end")  # takes the ace
    assert round_.result().detail["totals"] == [14, 9]
    assert round_.result().points == (34, 9)


def test_player_with_no_cards_left_still_draws_and_discards() -> None:
    round_ = deal("house", ["5H 5D 6H 6D", "2S 3S 4S 7C"], "5S", "6S 10C 10D")
    play(round_, "match 1", "match 2", "draw", "discard", "match 3", "match 4")
    view = round_.public_view()
    assert view.cards_left(0) == 0 and view.phase == "end"
    assert legal(round_, 0) == ["dutch", "end"]
    play(round_, "end", "draw", "discard", "end")
    assert legal(round_, 0) == ["draw"]  # nothing to swap a taken card with
    play(round_, "draw")
    assert legal(round_, 0) == ["discard"]
    play(round_, "discard", "dutch", "draw", "discard", "end")
    assert round_.result().detail["totals"][0] == 0


def test_penalty_card_comes_from_a_reshuffle_when_the_stock_is_empty() -> None:
    round_ = deal("house", ["6H 2S 3S 4S", "5S 6S 7S 8S"], "5D")
    round_.stock.clear()
    round_.discard[:0] = [card("10H"), card("10D")]  # two cards under the top
    events = round_.apply(0, "match 1")
    assert [e.kind for e in events] == ["match", "reshuffle", "penalty"]
    assert round_.public_view().discard_top == "5D"
    assert len(round_.grids[0]) == 5


def test_no_penalty_card_when_neither_stock_nor_reshuffle_has_one() -> None:
    round_ = deal("house", ["6H 2S 3S 4S", "5S 6S 7S 8S"], "5D")
    round_.stock.clear()
    events = round_.apply(0, "match 1")
    assert [e.kind for e in events] == ["match", "no_penalty"]
    assert len(round_.grids[0]) == 4
    assert legal(round_, 0) == ["take", "match 2", "match 3", "match 4"]  # nothing to draw


def test_single_options_can_change_on_a_preset() -> None:
    options = GAME.options("house", target=50)
    assert options.target == 50 and options.matching_discards
    assert GAME.options().queen_jack_powers and not GAME.options().matching_discards
    assert list(GAME.presets) == ["classic", "house"]


def test_initial_peek_house_is_the_two_nearest_cards_slots_3_and_4() -> None:
    round_ = deal("house", FOUR, "KS", peek=False)
    assert not GAME.options("house").peek_choice
    assert [str(a) for a in round_.legal_actions(0)] == ["peek 3 4"]
    with pytest.raises(IllegalAction) as error:
        round_.apply(0, "peek 1 4")
    assert error.value.rule == "peek_slots"
