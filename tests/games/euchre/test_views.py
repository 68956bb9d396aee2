"""What each viewer sees, the events' audiences and the errors' rule keys."""

from __future__ import annotations

import dataclasses

import pytest

from games.errors import IllegalAction
from games.euchre.actions import PLAY
from games.euchre.ranking import DECK
from tests.games.euchre.helpers import act, play_randomly, stacked_round

HANDS = {
    0: "9S 10C QC KD AD",
    1: "JH 9H AS KS 10D",
    2: "JD 10S QS AC 9C",
    3: "AH QH 10H JS JC",
}


def test_public_view_holds_no_hand_no_discard_and_no_actions() -> None:
    round_ = stacked_round(HANDS, "KH")
    act(round_, "1 order; 0 discard 9S")
    public = round_.public_view()
    assert public.seat is None and public.hand == () and public.discard is None
    assert public.legal == () and public.hand_sizes == (5, 5, 5, 5)
    assert public.turned == "KH" and public.picked_up


def test_a_seat_sees_its_hand_bids_trick_and_its_legal_actions_only() -> None:
    round_ = stacked_round(HANDS, "KH", dealer_discard="auto")
    act(round_, "1 pass; 2 order; 1 play AS")
    view = round_.view(2)
    assert sorted(view.hand) == sorted(HANDS[2].split())
    assert view.bids == ((1, "pass"), (2, "order"))
    assert view.trick == ((1, "AS"),) and view.to_act == 2
    assert view.legal == tuple(str(a) for a in round_.legal_actions(2))
    assert all(round_.view(s).legal == () for s in (0, 1, 3))
    assert view.tricks_won == (0, 0) and view.points == (0, 0)


def test_views_are_frozen() -> None:
    view = stacked_round(HANDS, "KH").view(0)
    with pytest.raises(dataclasses.FrozenInstanceError):
        view.hand = ()  # type: ignore[misc]


def test_the_round_s_points_appear_in_every_view_once_over() -> None:
    round_ = stacked_round(HANDS, "KH", dealer_discard="auto")
    with pytest.raises(IllegalAction) as error:
        round_.result()
    assert error.value.rule == "round_not_over"
    play_randomly(round_, seed=3)
    points = round_.result().points
    assert all(round_.view(s).points == points for s in range(4))
    assert round_.public_view().points == points and sum(points) > 0
    assert sum(round_.public_view().tricks_won) == 5


def test_error_rule_keys() -> None:
    round_ = stacked_round(HANDS, "KH", dealer_discard="auto")
    cases = [
        (2, "pass", "not_your_turn"),
        (1, "play JH", "wrong_phase"),
        (1, "discard 9H", "wrong_phase"),
        (1, "call S", "wrong_phase"),
        (1, "order please", "bad_notation"),
    ]
    for seat, text, rule in cases:
        with pytest.raises(IllegalAction) as error:
            round_.apply(seat, text)
        assert error.value.rule == rule, text
    with pytest.raises(IllegalAction) as error:
        round_.apply(1, object())  # type: ignore[arg-type]
    assert error.value.rule == "bad_action"
    act(round_, "1 order")
    with pytest.raises(IllegalAction) as error:
        round_.apply(1, "play AD")
    assert error.value.rule == "not_in_hand"
    play_randomly(round_, seed=0)
    with pytest.raises(IllegalAction) as error:
        round_.apply(1, PLAY[DECK[0]])
    assert error.value.rule == "round_over"


def test_a_seat_out_of_range_has_no_view() -> None:
    with pytest.raises(ValueError):
        stacked_round(HANDS, "KH").view(4)
