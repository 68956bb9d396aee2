"""Scenario tests for docs/rules/dutch.md (classic), each from a stacked deck."""

from __future__ import annotations

import pytest

from games.cards import card
from games.contract import RoundSetup
from games.dutch import GAME, card_value
from games.errors import IllegalAction
from games.match import Match
from tests.games.dutch.stack import deal, play, slot_cards

TWO = ["AS 2S 3S 4S", "5S 6S 7S 8S"]


def test_classic_deck_has_54_cards_with_two_jokers() -> None:
    deck = GAME.deck(GAME.options("classic"))
    assert len(deck) == 54
    assert sum(c.is_joker for c in deck) == 2


def test_deal_makes_a_2x2_grid_per_seat_and_turns_up_the_discard() -> None:
    round_ = deal("classic", TWO, "9S", "10S", peek=False)
    public = round_.public_view()
    assert [len(g) for g in public.grids] == [4, 4]
    assert [s.slot for s in public.grids[0]] == [1, 2, 3, 4]
    assert public.discard_top == "9S"
    assert public.stock == 54 - 9
    assert slot_cards(round_, 0) == ["AS", "2S", "3S", "4S"]


def test_initial_peek_classic_the_player_picks_two_slots_shown_only_to_that_seat() -> None:
    round_ = deal("classic", TWO, "9S", peek=False)
    assert GAME.options("classic").peek_choice
    assert [str(a) for a in round_.legal_actions(0)] == [
        "peek 1 2", "peek 1 3", "peek 1 4", "peek 2 3", "peek 2 4", "peek 3 4"
    ]  # fmt: skip
    events = round_.apply(0, "peek 1 4")
    private = [e for e in events if e.to is not None]
    assert {(e.data["slot"], e.data["card"]) for e in private} == {(1, "AS"), (4, "4S")}
    assert all(e.to == frozenset({0}) for e in private)
    assert [s.card for s in round_.view(0).grids[0]] == ["AS", None, None, "4S"]
    assert all(s.card is None for g in round_.view(1).grids for s in g)
    assert all(s.card is None for g in round_.public_view().grids for s in g)


def test_initial_peek_without_choice_is_the_bottom_row() -> None:
    round_ = deal("classic", TWO, "9S", peek=False, peek_choice=False)
    assert round_.legal_actions(0) == [GAME.parse_action("peek 3 4")]
    with pytest.raises(IllegalAction) as error:
        round_.apply(0, "peek 1 2")
    assert error.value.rule == "peek_slots"
    round_.apply(0, "peek 3 4")
    assert [s.card for s in round_.view(0).grids[0]] == [None, None, "3S", "4S"]


def test_every_seat_must_peek_before_the_first_turn() -> None:
    round_ = deal("classic", TWO, "9S", peek=False)
    assert round_.to_act() == (0, 1)
    round_.apply(1, "peek 3 4")
    with pytest.raises(IllegalAction) as error:
        round_.apply(0, "draw")
    assert error.value.rule == "peek_first"
    with pytest.raises(IllegalAction) as error:
        round_.apply(1, "peek 3 4")
    assert error.value.rule == "already_peeked"
    round_.apply(0, "peek 3 4")
    assert round_.to_act() == (0,)
    assert round_.view(0).phase == "start"


def test_own_cards_are_never_shown_again_after_the_peek() -> None:
    round_ = deal("classic", TWO, "9S", "10S")
    play(round_, "draw")
    assert all(s.card is None for s in round_.view(0).grids[0])
    assert all(s.card is None for s in round_.view(1).grids[1])


def test_player_after_the_dealer_starts_and_turns_follow_seat_order() -> None:
    round_ = deal("classic", ["AS 2S 3S 4S", "5S 6S 7S 8S", "9S 10S JS QS"], "KS", dealer=0)
    assert round_.to_act() == (1,)
    play(round_, "draw", "discard")
    assert round_.to_act() == (2,)
    play(round_, "draw", "discard")
    assert round_.to_act() == (0,)


def test_dealer_rotates_one_seat_each_round() -> None:
    match = Match(GAME, GAME.options("classic"), 3)
    firsts = []
    for seed in range(3):
        round_ = match.new_round(seed=seed)
        firsts.append((round_.setup.dealer, round_.public_view().first_player))
        for seat in range(3):
            round_.apply(seat, "peek 3 4")
        round_.apply(round_.to_act()[0], "dutch")
        while not round_.finished:
            round_.apply(round_.to_act()[0], "draw")
            round_.apply(round_.to_act()[0], "discard")
            if round_.public_view().phase == "power":
                round_.apply(round_.to_act()[0], "skip")
        match.add_round(round_.result())
        if match.finished:
            break
    assert firsts[:2] == [(0, 1), (1, 2)]


def test_discard_pile_card_must_be_swapped_not_rediscarded() -> None:
    round_ = deal("classic", TWO, "9S")
    play(round_, "take")
    assert round_.public_view().held == "9S"
    with pytest.raises(IllegalAction) as error:
        play(round_, "discard")
    assert error.value.rule == "must_swap_taken"
    play(round_, "swap 2")
    assert slot_cards(round_, 0)[1] == "9S"
    assert round_.public_view().discard_top == "2S"


def test_stock_card_is_seen_only_by_the_drawer_and_may_be_swapped_or_discarded() -> None:
    round_ = deal("classic", TWO, "9S", "10S 10H")
    play(round_, "draw")
    assert round_.view(0).held == "10S"
    assert round_.view(1).held is None and round_.public_view().held is None
    assert round_.public_view().held_from == "stock"
    play(round_, "discard")
    assert round_.public_view().discard_top == "10S"
    play(round_, "draw", "swap 1")
    assert slot_cards(round_, 1)[0] == "10H"
    assert round_.public_view().discard_top == "5S"


def test_queen_discarded_from_the_stock_looks_at_one_card_seen_only_by_the_looker() -> None:
    round_ = deal("classic", TWO, "9S", "QH")
    play(round_, "draw", "discard")
    view = round_.view(0)
    assert view.phase == "power" and view.power == "queen"
    events = round_.apply(0, "look 1:2")
    (see,) = [e for e in events if e.kind == "see"]
    assert see.to == frozenset({0}) and see.data == {
        "seat": 1,
        "slot": 2,
        "card": "6S",
        "by": "look",
    }
    assert round_.view(0).grids[1][1].card == "6S"
    assert round_.view(1).grids[1][1].card is None
    assert round_.public_view().grids[1][1].card is None
    assert round_.to_act() == (1,)


def test_queen_may_look_at_an_own_card() -> None:
    round_ = deal("classic", TWO, "9S", "QH")
    play(round_, "draw", "discard", "look 0:1")
    assert round_.view(0).reveals[0].card == "AS"


def test_jack_swaps_blind_with_an_opponent_even_the_dutch_caller() -> None:
    round_ = deal("classic", TWO, "9S", "JH")
    play(round_, "dutch")  # seat 0 calls; seat 1 plays its last turn
    play(round_, "draw", "discard")
    assert round_.public_view().power == "jack"
    with pytest.raises(IllegalAction) as error:
        play(round_, "jack 1 1:2")
    assert error.value.rule == "not_an_opponent"
    events = round_.apply(1, "jack 1 0:1")
    assert [e.kind for e in events if e.to is not None] == []  # neither card is looked at
    assert slot_cards(round_, 0)[0] == "5S" and slot_cards(round_, 1)[0] == "AS"
    assert round_.finished


def test_power_use_is_optional() -> None:
    round_ = deal("classic", TWO, "9S", "QH")
    play(round_, "draw", "discard", "skip")
    assert round_.to_act() == (1,)
    assert round_.public_view().log[-2].kind == "skip"


def test_powers_are_not_triggered_by_swaps_or_discard_pile_takes() -> None:
    round_ = deal("classic", ["QS 2S 3S 4S", "5S 6S 7S 8S"], "JD", "KD")
    play(round_, "draw", "swap 1")  # the Queen leaves the grid through a swap
    assert round_.public_view().discard_top == "QS" and round_.to_act() == (1,)
    play(round_, "take", "swap 1")  # a taken Queen is swapped in; the 5 goes out
    assert round_.to_act() == (0,)
    assert round_.public_view().phase == "start"


def test_sevens_and_nines_have_no_power_in_classic() -> None:
    round_ = deal("classic", TWO, "9S", "7H 9H")
    play(round_, "draw")
    assert round_.legal_actions(0) == [
        GAME.parse_action(a) for a in ("discard", "swap 1", "swap 2", "swap 3", "swap 4")
    ]
    play(round_, "discard", "draw")
    assert all(a.kind in ("discard", "swap") for a in round_.legal_actions(1))


def test_dutch_may_be_called_on_the_first_turn_and_others_play_one_more_turn() -> None:
    three = ["AS 2S 3S 4S", "5S 6S 7S 8S", "9S 10S JS QS"]
    round_ = deal("classic", three, "KH", "5H 5D")
    play(round_, "dutch")
    view = round_.public_view()
    assert view.dutch_caller == 0 and view.final_turns == (1, 2)
    play(round_, "draw", "discard")
    assert round_.public_view().final_turns == (2,)
    play(round_, "draw", "discard")
    assert round_.finished
    assert round_.result().points == (0, 26, 39)


def test_classic_dutch_is_called_only_at_the_start_of_ones_turn() -> None:
    round_ = deal("classic", TWO, "9S", "10S")
    play(round_, "draw")
    with pytest.raises(IllegalAction) as error:
        play(round_, "dutch")
    assert error.value.rule == "dutch_at_start"


def test_dutch_is_called_once_per_round() -> None:
    round_ = deal("classic", ["AS 2S 3S 4S", "5S 6S 7S 8S", "9S 10S JS QS"], "KH", "5H")
    play(round_, "dutch")
    assert GAME.parse_action("dutch") not in round_.legal_actions(1)
    with pytest.raises(IllegalAction) as error:
        play(round_, "dutch")
    assert error.value.rule == "dutch_already_called"


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("JK", -3),
        ("AH", -1),
        ("2C", 2),
        ("10D", 10),
        ("JS", 10),
        ("QH", 10),
        ("KS", 0),
        ("KC", 0),
        ("KH", 15),
        ("KD", 15),
    ],
)
def test_classic_card_values(name: str, value: int) -> None:
    assert card_value(card(name), GAME.options("classic")) == value


def test_caller_with_the_lowest_total_scores_zero() -> None:
    round_ = deal("classic", ["AS 2S KS JK", "5S 6S 7S 8S"], "9S", "10H")
    play(round_, "dutch", "draw", "discard")
    assert round_.result().points == (0, 26)
    assert round_.result().detail["caller_succeeded"] is True


def test_a_tie_with_the_caller_counts_as_success() -> None:
    round_ = deal("classic", ["5S 6S 7S 8S", "5H 6H 7H 8H"], "9S", "10H")
    play(round_, "dutch", "draw", "discard")
    assert round_.result().detail["totals"] == [26, 26]
    assert round_.result().points == (0, 26)


def test_a_beaten_caller_scores_double() -> None:
    round_ = deal("classic", ["5S 6S 7S 8S", "AH 2H 3H 4H"], "9S", "10H")
    play(round_, "dutch", "draw", "discard")
    assert round_.result().points == (52, 8)  # the ace counts -1
    assert round_.result().detail["caller_succeeded"] is False


def test_a_failed_call_with_a_negative_total_is_not_lowered() -> None:
    grids = ["JK AS 2S KS", "JK#1 AH AD KC"]  # caller -2, other -5
    round_ = deal("classic", grids, "9S", "10H")
    play(round_, "dutch", "draw", "discard")
    assert round_.result().detail["totals"] == [-2, -5]
    assert round_.result().points == (-2, -5)  # max(2 * -2, -2)


def test_stock_that_runs_out_is_reshuffled_from_the_discard_pile_except_its_top() -> None:
    round_ = deal("classic", TWO, "9S")
    round_.stock = round_.stock[-1:]  # leave one card in the stock
    play(round_, "draw", "discard")  # the stock is now empty
    pile = len(round_.discard)
    top = round_.public_view().discard_top
    play(round_, "draw")
    assert [e.kind for e in round_.events[-3:]] == ["reshuffle", "draw", "drawn"]
    assert round_.public_view().discard_top == top
    assert round_.public_view().discard_size == 1
    assert round_.public_view().stock == pile - 2  # pile minus its top, minus the drawn card


def test_all_cards_are_shown_once_the_round_is_over() -> None:
    round_ = deal("classic", TWO, "9S", "10H")
    play(round_, "dutch", "draw", "discard")
    public = round_.public_view()
    assert public.phase == "over"
    assert [s.card for s in public.grids[1]] == ["5S", "6S", "7S", "8S"]
    assert [(s.total, s.points) for s in public.scores or ()] == [(8, 0), (26, 26)]
    assert round_.events[-1].kind == "round_end" and round_.events[-1].to is None


def test_match_ends_after_the_round_reaching_the_target_lowest_total_wins() -> None:
    assert GAME.lower_is_better
    assert GAME.match_winners([40, 99], 100) is None
    assert GAME.match_winners([40, 100, 40], 100) == (0, 2)
    assert GAME.options().target == 100


def test_round_result_is_refused_before_the_end() -> None:
    round_ = deal("classic", TWO, "9S")
    with pytest.raises(IllegalAction):
        round_.result()


def test_new_round_from_setup_seats_range() -> None:
    with pytest.raises(IllegalAction):
        GAME.new_round(GAME.options(), RoundSetup(n_seats=11), seed=1)
    GAME.new_round(GAME.options(), RoundSetup(n_seats=10), seed=1)


def test_illegal_actions_name_the_rule_and_change_nothing() -> None:
    round_ = deal("classic", TWO, "9S")
    before = round_.record()
    cases = [
        (1, "draw", "not_your_turn"),
        (5, "draw", "no_such_seat"),
        (0, "fly", "bad_notation"),
        (0, "discard", "wrong_phase"),
        (0, "look 1:1", "wrong_phase"),
        (0, "match 1", "no_matching"),
    ]
    for seat, text, rule in cases:
        with pytest.raises(IllegalAction) as error:
            round_.apply(seat, text)
        assert error.value.rule == rule, text
    with pytest.raises(IllegalAction) as error:
        round_.apply(0, object())  # type: ignore[arg-type]
    assert error.value.rule == "bad_notation"
    play(round_, "draw")
    with pytest.raises(IllegalAction) as error:
        play(round_, "swap 9")
    assert error.value.rule == "no_such_slot"
    assert round_.record().actions == [*before.actions, (0, "draw")]
