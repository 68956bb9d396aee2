"""The automatic knock's test (`games.dame.knock`) and where the round offers it: before a
discard that leaves a hand able to go out next turn, legal there, once a turn."""

from __future__ import annotations

import random

import pytest

from games.cards import cards
from games.contract import RoundSetup
from games.dame import GAME, DameRound
from games.dame.actions import DISCARD
from games.dame.knock import could_go_out_next_turn
from games.errors import IllegalAction
from tests.games.dame.stacking import stacked_round


@pytest.mark.parametrize(
    ("kept", "packs", "could"),
    [
        ("7S 7H", "", True),  # a drawn 7 or wild card makes the pack: out by laying
        ("7S", "", False),  # a lone 7 needs two wild cards; one draw brings one card
        ("7S 9H", "", False),  # one discarded, the other alone: no pack
        ("7S 9H", "9", True),  # the 9 goes on the team's pack, the 7 is the discard
        ("7S 7H 7D 9H", "", True),  # the 7s make a pack, the 9 is the discard
        ("7S 7H 9C 9D", "", False),  # one draw fills one pair, not both
        ("7S 8H 9C", "K", False),  # three lone ranks: one card cannot save two
        ("2C JK 7S", "", True),  # a 7 and two wild cards, the draw discarded
        ("2C JK", "", False),  # wild cards alone make no pack, and none lies to add to
        ("2C JK", "5", True),  # they go on the 5 pack
        ("", "", False),  # the discard ended the hand
    ],
)
def test_a_hand_could_go_out_next_turn(kept: str, packs: str, could: bool) -> None:
    assert could_go_out_next_turn(cards(kept), set(packs.split())) is could


def _three_packs_laid() -> DameRound:
    """Seat 1 drew the 6♦ and laid its 3s, 4s and 5s: it holds 6♠ 6♥ 6♦ 9♣ 9♦."""
    round_ = stacked_round({1: "3S 3H 3D 4S 4H 4D 5S 5H 5D 6S 6H 9C 9D"}, stock="6D")
    for move in ("draw", "meld 3S 3H 3D", "meld 4S 4H 4D", "meld 5S 5H 5D"):
        round_.apply(1, move)
    return round_


def test_the_knock_is_made_before_a_discard_that_leaves_a_hand_able_to_go_out() -> None:
    round_ = _three_packs_laid()
    keeps_two_pairs = GAME.parse_action("discard 6D")
    keeps_a_pack = GAME.parse_action("discard 9C")  # 6 6 6 laid and 9 discarded next turn
    assert round_.announcement_before(1, keeps_two_pairs) is None
    knock = round_.announcement_before(1, keeps_a_pack)
    assert knock is not None and str(knock) == "announce"
    round_.check(1, knock)  # legal where it is announced
    round_.apply(1, knock)
    assert round_.announcement_before(1, keeps_a_pack) is None  # once a turn
    round_.apply(1, keeps_a_pack)
    assert round_.public_view().announced[1]


def test_no_knock_before_the_draw_nor_out_of_turn() -> None:
    round_ = stacked_round({1: "7S 7H 7D 9S"})
    assert round_.announcement_before(1, GAME.parse_action("discard 9S")) is None  # no draw
    drawn = _three_packs_laid()
    assert drawn.announcement_before(2, GAME.parse_action("discard 9C")) is None
    assert drawn.announcement_before(1, GAME.parse_action("meld 6S 6H 9C")) is None


def test_every_knock_made_in_random_play_is_legal_where_it_is_made() -> None:
    made = 0
    for seed in range(20):
        rng = random.Random(seed)
        round_ = GAME.new_round(GAME.options(), RoundSetup(n_seats=4, dealer=seed % 4), seed=seed)
        for _ in range(3000):
            if round_.finished:
                break
            seat = round_.to_act()[0]
            legal = round_.legal_actions(seat)
            lays = [a for a in legal if a.kind in ("meld", "add", "take")]
            action = rng.choice(lays or legal)  # lay what it can: hands get small
            knock = round_.announcement_before(seat, action)
            if knock is not None:
                made += 1
                assert action.kind == DISCARD
                round_.apply(seat, knock)  # legal: the engine refuses nothing
                with pytest.raises(IllegalAction):
                    round_.check(seat, knock)
            round_.apply(seat, action)
    assert made > 0
