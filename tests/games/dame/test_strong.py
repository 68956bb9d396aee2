"""The strong Dame de Pique bot (games.dame.bots.strong), one behaviour per test, stacked decks."""

from __future__ import annotations

import random

from games.cards import card
from games.contract import RoundSetup
from games.dame import GAME, DameRound
from games.dame.bots.strong import choose_action
from games.dame.rules import IS_WILD
from tests.games.dame.stacking import draw_and_discard, stacked_round

RNG_SEED = 3


def _play_turn(round_: DameRound, seat: int) -> list[str]:
    """The bot's whole turn (from its draw or take to its discard), in notation."""
    rng = random.Random(RNG_SEED)
    played = []
    while round_.to_act() == (seat,) and not round_.finished:
        action = choose_action(round_, seat, rng)
        played.append(str(action))
        round_.apply(seat, action)
    return played


def test_keeps_its_wild_cards_for_a_pair_of_high_cards() -> None:
    round_ = stacked_round({1: "7S 7H AS AH 2C 2D 4S 5H 6D 8C 9D 10S JH"}, stock="3C")
    played = _play_turn(round_, 1)
    assert played[0] == "draw" and "meld AS#0 AH#0 2D#0" in played
    assert not any(a.startswith("meld 7") for a in played)  # a pair of 7s is not worth a 2
    assert sum(IS_WILD[card(c)] for c in round_.view(1).hand) == 1


SIXES = "3S 3H 3D 4S 4H 4D 5S 5H 5D 6S 6H 6D 6C"


def test_knocks_when_the_card_it_keeps_can_be_laid_then_goes_out() -> None:
    round_ = stacked_round({1: SIXES}, stock="9C")
    played = _play_turn(round_, 1)
    assert played[-2:] == ["announce", "discard 9C#0"]
    assert round_.view(1).hand == ("6C",)
    for seat in (2, 3, 0):
        draw_and_discard(round_, seat)
    played = _play_turn(round_, 1)
    assert "add 6 6C#0" in played and round_.finished and round_.winner == 1


def test_knocks_on_every_turn_even_when_what_it_keeps_cannot_be_laid_yet() -> None:
    round_ = stacked_round({1: "3S 4H 5D 6C 7S 8H 9D 10C JS KH AD 3C 4D"}, stock="8S")
    played = _play_turn(round_, 1)
    assert played[0] == "draw" and played[-2] == "announce"
    assert round_.public_view().announced[1]


WILD_HAND = "AS AH AD QS 2C JK 3H 4D 5C 7S 8H 9D 10C"
PACKS_AND_ONE = "3S 3D 3C 4S 4H 4C 5S 5H 5D 6S 6H 6D 6C"  # four packs of three and a 6


def _opponent_knocks(*, down_to_one: bool) -> DameRound:
    """Seat 1 holds `WILD_HAND`; its partner (seat 3) knocks, then its opponent seat 0 knocks,
    after laying all but one card if `down_to_one`, or holding all its cards."""
    round_ = stacked_round({1: WILD_HAND, 0: PACKS_AND_ONE}, dealer=0)
    for seat in (1, 2):
        draw_and_discard(round_, seat)
    drawn = card(round_.apply(3, "draw")[0].data["card"])
    round_.apply(3, "announce")  # an opponent of seat 0 ... and seat 1's partner: no danger
    round_.apply(3, f"discard {drawn.name}#{drawn.copy}")
    drawn = card(round_.apply(0, "draw")[0].data["card"])
    if down_to_one:
        for pack in ("3S 3D 3C", "4S 4H 4C", "5S 5H 5D", "6S 6H 6D"):
            round_.apply(0, f"meld {pack}")
    round_.apply(0, "announce")
    round_.apply(0, f"discard {drawn.name}#{drawn.copy}")
    return round_


def test_when_an_opponent_may_go_out_it_lays_its_wild_cards_and_sheds_its_costliest() -> None:
    round_ = _opponent_knocks(down_to_one=True)  # one card and a knock: it may go out next
    _play_turn(round_, 1)
    hand = [card(c) for c in round_.view(1).hand]
    assert not any(IS_WILD[c] for c in hand)
    assert "QS" not in {c.name for c in hand}  # laid with wild cards rather than kept


def test_keeps_its_wild_cards_when_the_opponent_who_knocked_holds_many_cards() -> None:
    round_ = _opponent_knocks(down_to_one=False)  # a knock with 13 cards rarely ends the hand
    _play_turn(round_, 1)
    hand = [card(c) for c in round_.view(1).hand]
    assert sum(IS_WILD[c] for c in hand) == 2
    assert "QS" in {c.name for c in hand}


def test_discards_a_card_the_next_player_cannot_take_the_pile_with() -> None:
    fours = "4H 4D 4C 4S#1 4H#1 4D#1 4C#1"
    round_ = stacked_round({1: "4S 9S 10H JD KC AS 3H 5D 6C 7S 8H QD 10C", 2: fours})
    draw_and_discard(round_, 1)
    drawn = card(round_.apply(2, "draw")[0].data["card"])
    round_.apply(2, f"meld {fours}")  # every other 4 is now in sight
    round_.apply(2, f"discard {drawn.name}#{drawn.copy}")
    for seat in (3, 0):
        draw_and_discard(round_, seat)
    played = _play_turn(round_, 1)
    assert played[-1] == "discard 4S#0"


def _pile_topped_by_a_seven(under: str, *, knock: bool) -> DameRound:
    """Seats 1, 2, 3 draw and discard the three cards `under`; seat 0 (an opponent of seat 1)
    discards 7♦ on top, after knocking if `knock`. Seat 1 holds 7♠ 7♥ to take it."""
    hand = "7S 7H 3S 3H 4D 4S 5C 5D 6H 8S 9D 10C JH"
    round_ = stacked_round({0: "7D", 1: hand}, stock=f"{under} 9S")
    for seat in (1, 2, 3):
        draw_and_discard(round_, seat)
    round_.apply(0, "draw")
    if knock:
        round_.apply(0, "announce")
    round_.apply(0, "discard 7D")
    return round_


def test_takes_a_pile_that_turns_its_pairs_into_packs() -> None:
    round_ = _pile_topped_by_a_seven("3C 4C 5S", knock=False)
    assert str(choose_action(round_, 1, random.Random(RNG_SEED))) == "take 7S#0 7H#0"


def test_leaves_a_pile_of_junk_when_an_opponent_may_go_out() -> None:
    round_ = _pile_topped_by_a_seven("KD QD AC", knock=True)
    assert str(choose_action(round_, 1, random.Random(RNG_SEED))) == "draw"


def test_the_strength_script_plays_whole_matches() -> None:
    from benchmarks.strength.dame import play_match

    won, hands, cpu = play_match(1, target=150)
    assert isinstance(won, bool) and hands >= 1
    assert cpu and all(t >= 0 for t in cpu)  # one CPU time per decision of the strong bots


def test_the_same_position_and_seed_give_the_same_choice_and_leave_the_round_as_it_was() -> None:
    """The bot's only chance is the generator it is given (a table seeds it from the table
    and the turn): asked twice in the same position with equal seeds, it answers the same, and
    asking changes nothing in the round."""
    for index in range(3):
        round_ = GAME.new_round(
            GAME.options(), RoundSetup(n_seats=4, dealer=index), seed=f"same-choice-{index}"
        )
        assert isinstance(round_, DameRound)
        while not round_.finished:
            (seat,) = round_.to_act()
            before = (round_.view(seat), [list(hand) for hand in round_.hands], list(round_.stock))
            first = choose_action(round_, seat, random.Random(f"{index}/{round_.turn_no}"))
            again = choose_action(round_, seat, random.Random(f"{index}/{round_.turn_no}"))
            assert first == again
            after = (round_.view(seat), [list(hand) for hand in round_.hands], list(round_.stock))
            assert after == before
            round_.apply(seat, first)
