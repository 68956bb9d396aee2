"""One test per rule and decision of docs/rules/dame.md, each from a stacked deck."""

from __future__ import annotations

import pytest

from games.cards import card, cards, shuffled
from games.contract import RoundResult, RoundSetup
from games.dame import GAME, DameRound
from games.dame.rules import card_value
from games.errors import IllegalAction
from games.match import Match
from tests.games.dame.stacking import draw_and_discard, stacked_round

SEVENS = {1: "9C 7C", 2: "7D", 3: "7S 7H 2C JK 7C#1"}


def _refused(round_: DameRound, seat: int, text: str, rule: str) -> None:
    before = (round_.record(), [round_.view(s) for s in range(4)], list(round_.stock))
    with pytest.raises(IllegalAction) as error:
        round_.apply(seat, text)
    assert error.value.rule == rule
    assert (round_.record(), [round_.view(s) for s in range(4)], list(round_.stock)) == before


def _pile_of(round_: DameRound, seat_discards: dict[int, str]) -> None:
    """Each listed seat, in turn order, draws and discards the named card."""
    for seat, name in seat_discards.items():
        assert round_.to_act() == (seat,)
        round_.apply(seat, "draw")
        round_.apply(seat, f"discard {name}")


# -- setup -----------------------------------------------------------------------------------
def test_deal_13_each_the_rest_is_the_stock_and_the_pile_starts_empty() -> None:
    round_ = GAME.new_round(GAME.options(), RoundSetup(n_seats=4), seed=3)
    view = round_.public_view()
    assert view.hand_sizes == (13, 13, 13, 13)
    assert view.stock_size == 108 - 52 and view.discard == () and view.hand == ()


def test_play_starts_left_of_the_dealer_and_goes_clockwise() -> None:
    round_ = stacked_round({}, dealer=2)
    order = []
    for _ in range(5):
        (seat,) = round_.to_act()
        order.append(seat)
        draw_and_discard(round_, seat)
    assert order == [3, 0, 1, 2, 3]


def test_deal_is_one_card_at_a_time_from_the_dealers_left() -> None:
    deck = shuffled(GAME.deck(GAME.options()), 9)
    round_ = GAME.new_round(GAME.options(), RoundSetup(n_seats=4, dealer=1), deck=deck)
    assert set(round_.view(2).hand) == {c.code for c in deck[0:52:4]}
    assert set(round_.view(1).hand) == {c.code for c in deck[3:52:4]}
    events = round_.apply(2, "draw")
    assert events[0].data["card"] == deck[52].code


def test_dealer_rotates_each_hand() -> None:
    match = Match(GAME, GAME.options(), 4, first_dealer=3)
    dealers = []
    for points in ((10, 0), (0, 10), (5, 5)):
        dealers.append(match.next_setup().dealer)
        match.add_round(RoundResult(points=points))
    assert dealers == [3, 0, 1]


def test_draw_takes_the_top_of_the_stock_and_is_seen_only_by_the_drawer() -> None:
    round_ = stacked_round({}, stock="QS#1")
    events = round_.apply(1, "draw")
    private, public = events
    assert private.data == {"card": "QS#1"} and private.to == frozenset({1})
    assert "card" not in public.data and public.to is None
    assert "QS#1" in round_.view(1).hand and round_.view(1).phase == "play"


def test_a_turn_starts_with_a_draw_or_a_take() -> None:
    round_ = stacked_round({1: "7S 7H 7D"})
    _refused(round_, 1, "meld 7S 7H 7D", "draw_first")
    _refused(round_, 1, "discard 7S", "draw_first")
    _refused(round_, 2, "draw", "not_your_turn")
    round_.apply(1, "draw")
    _refused(round_, 1, "draw", "already_drawn")


def test_a_turn_ends_with_a_discard() -> None:
    round_ = stacked_round({1: "KS"})
    round_.apply(1, "draw")
    assert round_.to_act() == (1,)
    round_.apply(1, "discard KS")
    assert round_.to_act() == (2,) and round_.public_view().discard == ("KS",)


# -- the take --------------------------------------------------------------------------------
def test_take_with_two_naturals_lays_the_top_card_with_them_and_takes_the_pile() -> None:
    round_ = stacked_round(SEVENS)
    _pile_of(round_, {1: "9C", 2: "7D"})
    events = round_.apply(3, "take 7S 7H")
    assert events[0].kind == "take" and events[0].data["pile"] == ["9C"]
    view = round_.view(3)
    (pack,) = view.packs[1]
    assert (pack.rank, set(pack.cards)) == ("7", {"7S", "7H", "7D"})
    assert "9C" in view.hand and view.discard == () and view.hand_sizes[3] == 13 - 2 + 1
    assert view.phase == "play"


def test_take_with_a_wild_card_is_refused() -> None:
    round_ = stacked_round(SEVENS)
    _pile_of(round_, {1: "9C", 2: "7D"})
    _refused(round_, 3, "take 7S 2C", "take_with_wild")
    _refused(round_, 3, "take 7S JK", "take_with_wild")
    _refused(round_, 3, "take 7S 7H JK", "take_with_wild")


def test_take_needs_two_naturals_of_the_top_rank() -> None:
    round_ = stacked_round(SEVENS)
    _pile_of(round_, {1: "9C", 2: "7D"})
    _refused(round_, 3, "take 7S", "take_needs_two_naturals")
    _refused(round_, 3, "take", "take_needs_two_naturals")
    _refused(round_, 3, "take 7S 9H", "not_in_hand")
    _refused(round_, 3, "take 7S 7H 3S", "not_in_hand")


def test_take_with_every_natural_of_the_rank_lays_the_whole_pack_in_one_action() -> None:
    """ "At least two natural cards": the take may lay three (or more) naturals from hand with
    the top card, a pack of four in one action, and the engine offers that take."""
    round_ = stacked_round(SEVENS)
    _pile_of(round_, {1: "9C", 2: "7D"})
    assert "take 7S 7H 7C#1" not in round_.legal_notation(3)  # names, not codes, are offered
    assert "take 7S 7H 7C" in round_.legal_notation(3)
    assert "take 7S 7H" in round_.legal_notation(3)
    round_.apply(3, "take 7S 7H 7C")
    (pack,) = round_.view(3).packs[1]
    assert sorted(pack.cards) == ["7C#1", "7D", "7H", "7S"]
    assert round_.view(3).hand_sizes[3] == 13 - 3 + 1


def test_a_wild_card_on_top_blocks_the_take() -> None:
    round_ = stacked_round({1: "7C 2D", 2: "7S 7H 2S 2H 2C"})
    round_.apply(1, "draw")
    round_.apply(1, "discard 7C")
    round_.apply(2, "draw")
    round_.apply(2, "discard 2C")  # not even two 2s can take a 2: they are wild
    draw_and_discard(round_, 3)
    draw_and_discard(round_, 0)
    round_.apply(1, "draw")
    round_.apply(1, "discard 2D")
    assert round_.public_view().discard[-1] == "2D"
    _refused(round_, 2, "take 2H 2S", "wild_on_top")
    _refused(round_, 2, "take 7S 7H", "wild_on_top")
    legal = round_.view(2).legal
    assert legal is not None and legal.take == () and not legal.take_onto_pack


def test_take_of_an_empty_pile_is_refused() -> None:
    round_ = stacked_round({1: "7S 7H"})
    _refused(round_, 1, "take 7S 7H", "empty_pile")


def test_take_joins_the_teams_pack_of_that_rank() -> None:
    round_ = stacked_round({1: "7S 7H 7D KS", 2: "7C", 3: "7C#1 7D#1"})
    round_.apply(1, "draw")
    round_.apply(1, "meld 7S 7H 7D")
    round_.apply(1, "discard KS")
    round_.apply(2, "draw")
    round_.apply(2, "discard 7C")
    round_.apply(3, "take 7C#1 7D#1")
    (pack,) = round_.view(3).packs[1]
    assert set(pack.cards) == {"7S", "7H", "7D", "7C", "7C#1", "7D#1"}
    assert "KS" in round_.view(3).hand


def test_take_onto_team_pack_is_an_option_off_by_default() -> None:
    hands = {1: "7S 7H 7D 9S", 2: "7C", 3: "KS"}
    for enabled in (False, True):
        options = GAME.options(take_onto_team_pack=enabled)
        round_ = stacked_round(hands, options=options)
        round_.apply(1, "draw")
        round_.apply(1, "meld 7S 7H 7D")
        round_.apply(1, "discard 9S")
        round_.apply(2, "draw")
        round_.apply(2, "discard 7C")
        # seat 3 holds no 7 at all, but its team has a 7 pack
        if not enabled:
            _refused(round_, 3, "take", "take_needs_two_naturals")
            continue
        round_.apply(3, "take")
        view = round_.view(3)
        assert set(view.packs[1][0].cards) == {"7S", "7H", "7D", "7C"}
        assert "9S" in view.hand and view.discard == ()


def test_take_onto_team_pack_needs_the_pack() -> None:
    round_ = stacked_round({1: "9S", 2: "7C"}, options=GAME.options(take_onto_team_pack=True))
    _pile_of(round_, {1: "9S", 2: "7C"})
    _refused(round_, 3, "take", "no_such_pack")


# -- packs -----------------------------------------------------------------------------------
def test_pack_with_one_natural_and_two_wilds_is_legal() -> None:
    round_ = stacked_round({1: "7S 2C JK"})
    round_.apply(1, "draw")
    round_.apply(1, "meld 7S 2C JK")
    (pack,) = round_.view(1).packs[1]
    assert pack.rank == "7" and set(pack.cards) == {"7S", "2C", "JK"}
    assert pack.points == 5 + 20 + 50


def test_pack_of_wild_cards_only_is_illegal() -> None:
    round_ = stacked_round({1: "2S 2C JK JK#1"})
    round_.apply(1, "draw")
    _refused(round_, 1, "meld 2S 2C JK", "pack_needs_natural")
    _refused(round_, 1, "meld 2S 2C JK JK#1", "pack_needs_natural")


def test_pack_needs_three_cards_of_one_rank() -> None:
    round_ = stacked_round({1: "7S 7H 8S 2C"})
    round_.apply(1, "draw")
    _refused(round_, 1, "meld 7S 7H", "pack_too_small")
    _refused(round_, 1, "meld 7S 7H 8S", "mixed_ranks")
    _refused(round_, 1, "meld 7S 7H 7D", "not_in_hand")


def test_a_whole_pack_of_any_size_is_one_action_and_all_naturals_of_a_rank_are_offered() -> None:
    """A pack of five 7s (two copies of 7♠) is one `meld`, offered as such; a bigger pack with
    wild cards is legal too, though not listed (`lists_every_move` is False: check judges)."""
    assert DameRound.lists_every_move is False
    round_ = stacked_round({1: "7S 7H 7D 7C 7S#1 2C JK 8S 8H"})
    round_.apply(1, "draw")
    offered = round_.legal_notation(1)
    assert "meld 7S 7S 7H 7D 7C" in offered
    assert "meld 8S 8H 2C" in offered and "meld 8S 8H JK" in offered
    round_.check(1, GAME.parse_action("meld 7S 7S 7H 7D 7C 2C JK"))
    assert "meld 7S 7S 7H 7D 7C 2C JK" not in offered
    round_.apply(1, "meld 7S 7S 7H 7D 7C")
    (pack,) = round_.view(1).packs[1]
    assert sorted(pack.cards) == ["7C", "7D", "7H", "7S", "7S#1"]


def test_every_natural_of_a_packs_rank_is_offered_as_one_add() -> None:
    round_ = stacked_round({1: "7S 7H 7D 7C 7S#1 7H#1 2C"})
    round_.apply(1, "draw")
    round_.apply(1, "meld 7S 7H 7D")
    offered = round_.legal_notation(1)
    assert "add 7 7S 7H 7C" in offered and "add 7 7C" in offered and "add 7 2C" in offered
    round_.apply(1, "add 7 7S 7H 7C")
    assert len(round_.view(1).packs[1][0].cards) == 6


def test_a_whole_pack_that_would_leave_one_card_is_not_offered_before_the_knock() -> None:
    """Keep two cards until going out is allowed: seven 7s in a hand of eight are offered as
    packs of three, not all at once (that would leave one card, and is refused)."""
    sevens = "7S 7H 7D 7C 7S#1 7H#1 7D#1"
    round_ = stacked_round({1: f"{sevens} 8S 8H 8D 9S 9H 9D"}, stock="10S")
    round_.apply(1, "draw")
    round_.apply(1, "meld 8S 8H 8D")
    whole = "meld 7S 7S 7H 7H 7D 7D 7C"
    assert whole in round_.legal_notation(1)  # eleven cards: seven laid leave four
    round_.apply(1, "meld 9S 9H 9D")
    assert len(round_.hands[1]) == 8 and round_.max_lay(1) == 6
    assert whole not in round_.legal_notation(1)
    assert "meld 7S 7S 7H" in round_.legal_notation(1)
    _refused(round_, 1, whole, "announce_first")


def test_a_team_has_one_pack_per_rank_and_adds_to_it() -> None:
    round_ = stacked_round({1: "7S 7H 7D 7S#1 7H#1 7D#1"})
    round_.apply(1, "draw")
    round_.apply(1, "meld 7S 7H 7D")
    _refused(round_, 1, "meld 7S#1 7H#1 7D#1", "pack_exists")
    round_.apply(1, "add 7 7S#1 7H#1")
    assert len(round_.view(1).packs[1][0].cards) == 5


def test_adding_to_the_partners_pack_is_allowed() -> None:
    round_ = stacked_round({1: "7S 7H 7D KS", 2: "7C", 3: "7C#1 2H"})
    round_.apply(1, "draw")
    round_.apply(1, "meld 7S 7H 7D")
    round_.apply(1, "discard KS")
    round_.apply(2, "draw")
    _refused(round_, 2, "add 7 7C", "no_such_pack")  # the opponents' pack is not theirs
    round_.apply(2, "discard 7C")
    round_.apply(3, "draw")
    round_.apply(3, "add 7 7C#1 2H")
    assert set(round_.view(1).packs[1][0].cards) == {"7S", "7H", "7D", "7C#1", "2H"}
    _refused(round_, 3, "add 7 KH", "not_in_hand")


def test_adding_a_card_of_another_rank_is_refused() -> None:
    round_ = stacked_round({1: "7S 7H 7D 8S JK"})
    round_.apply(1, "draw")
    round_.apply(1, "meld 7S 7H 7D")
    _refused(round_, 1, "add 7 8S", "wrong_rank")
    round_.apply(1, "add 7 JK")


def test_queen_of_spades_lays_like_any_queen_and_scores_100() -> None:
    round_ = stacked_round({1: "QS QH QD"})
    round_.apply(1, "draw")
    round_.apply(1, "meld Q Q Q")  # ranks pick suits S H D first
    (pack,) = round_.view(1).packs[1]
    assert set(pack.cards) == {"QS", "QH", "QD"} and pack.points == 100 + 10 + 10


def test_card_values() -> None:
    values = {n: card_value(card(n)) for n in ("QS", "JK", "2H", "AD", "KC", "QH", "JS", "10D")}
    assert values == {
        "QS": 100, "JK": 50, "2H": 20, "AD": 15, "KC": 10, "QH": 10, "JS": 10, "10D": 10,
    }  # fmt: skip
    assert {card_value(c) for c in cards("3S 4H 5D 6C 7S 8H 9D")} == {5}


# -- announcing and going out ----------------------------------------------------------------
GOER = "3H 3D 3C 4H 4D 4C 5H 5D 5C 6H 6D 6C JK"
LOSER_0 = "QS AS KS JS 10S 9S 8S 7S 2S JK#1 QH AH KH"
LOSER_2 = "7D 7H 8D 8H 9D 9H 10D 10H JD JH QD KD AD"


def _to_second_turn(announce: bool) -> DameRound:
    """Seat 1 announces (or not) on its first turn; seat 0 melds QS QH 2S; seat 1 then draws
    3S#1 on its second turn."""
    round_ = stacked_round(
        {0: LOSER_0, 1: GOER, 2: LOSER_2, 3: "QS#1"}, stock="8C#1 8D#1 9C#1 10C#1 3S#1"
    )
    round_.apply(1, "draw")
    if announce:
        round_.apply(1, "announce")
    round_.apply(1, "discard 8C#1")
    draw_and_discard(round_, 2)
    draw_and_discard(round_, 3)
    round_.apply(0, "draw")
    round_.apply(0, "meld QS QH 2S")
    round_.apply(0, "discard 10C#1")
    round_.apply(1, "draw")
    for rank in "456":
        round_.apply(1, f"meld {rank} {rank} {rank}")
    return round_


def test_announcement_is_public() -> None:
    round_ = _to_second_turn(announce=True)
    assert round_.public_view().announced == (False, True, False, False)
    assert round_.view(2).announced[1]


def test_announcing_twice_in_one_turn_is_refused() -> None:
    round_ = stacked_round({})
    round_.apply(1, "draw")
    round_.apply(1, "announce")
    _refused(round_, 1, "announce", "already_announced")


def _others_play(round_: DameRound) -> None:
    for seat in (2, 3, 0):
        draw_and_discard(round_, seat)


def test_a_knock_lapses_after_the_next_turn() -> None:
    round_ = _to_second_turn(announce=True)  # announced on turn 0; this is its next turn
    assert round_.view(1).legal.may_go_out  # type: ignore[union-attr]
    round_.apply(1, "discard 3S#1")  # does not go out: 3H 3D 3C JK left
    assert round_.public_view().announced == (False, False, False, False)
    _others_play(round_)
    drawn = card(round_.apply(1, "draw")[0].data["card"])
    assert not round_.view(1).legal.may_go_out  # type: ignore[union-attr]
    _refused(round_, 1, "meld 3H 3D 3C JK", "announce_first")  # would leave one card
    round_.apply(1, "announce")  # knocking again is allowed, for the turn after this one
    _refused(round_, 1, "meld 3H 3D 3C JK", "announce_first")
    round_.apply(1, f"discard {drawn.name}#{drawn.copy}")
    assert not round_.finished


def test_a_second_knock_is_allowed_and_needed_to_go_out_later() -> None:
    round_ = _to_second_turn(announce=True)
    round_.apply(1, "announce")  # again, on the turn the first knock was for
    assert round_.view(1).legal.may_go_out  # type: ignore[union-attr]  # the first still holds
    round_.apply(1, "discard 3S#1")
    assert round_.public_view().announced == (False, True, False, False)
    _others_play(round_)
    drawn = card(round_.apply(1, "draw")[0].data["card"])
    round_.apply(1, "meld 3H 3D 3C JK")
    events = round_.apply(1, f"discard {drawn.name}#{drawn.copy}")
    assert events[-1].kind == "out" and round_.result().detail["winner"] == 1


def _first_turn_ranks(seat: int) -> tuple[str, ...]:
    return ("3", "4", "5", "6") if seat < 2 else ("7", "8", "9", "10")


def _first_turn_hands() -> dict[int, str]:
    """Four packs of three and a joker per seat, no rank shared by partners."""
    hands = {}
    for seat in range(4):
        ranks = _first_turn_ranks(seat)
        copy = "" if seat % 2 == 0 else "#1"
        packs = [f"{rank}{suit}{copy}" for rank in ranks for suit in "SHD"]
        hands[seat] = " ".join([*packs, f"JK#{seat}" if seat else "JK"])
    return hands


@pytest.mark.parametrize("dealer", range(4))
def test_nobody_may_go_out_on_their_first_turn_whichever_seat_plays_fourth(dealer: int) -> None:
    hands = _first_turn_hands()
    round_ = stacked_round(hands, stock="KS KH KD KC", dealer=dealer)
    for turn in range(4):
        (seat,) = round_.to_act()
        assert seat == (dealer + 1 + turn) % 4
        drawn = card(round_.apply(seat, "draw")[0].data["card"])
        legal = round_.view(seat).legal
        assert legal is not None and not legal.may_go_out, f"seat {seat}, turn {turn}"
        ranks = _first_turn_ranks(seat)
        for rank in ranks:
            round_.apply(seat, f"meld {rank} {rank} {rank}")
        joker = hands[seat].split()[-1]
        _refused(round_, seat, f"add {ranks[0]} {joker}", "announce_first")
        round_.apply(seat, f"discard {drawn.name}#{drawn.copy}")
        assert not round_.finished


def test_going_out_with_the_announcement_by_laying_the_last_cards() -> None:
    round_ = _to_second_turn(announce=True)
    round_.apply(1, "meld 3H 3D 3C")
    events = round_.apply(1, "add 3 3S#1 JK")
    assert events[-1].kind == "out" and events[-1].data == {"by": "lay"}
    assert round_.finished and round_.to_act() == () and round_.public_view().winner == 1
    _refused(round_, 1, "discard JK", "round_over")


def test_going_out_by_discarding_the_last_card() -> None:
    round_ = _to_second_turn(announce=True)
    round_.apply(1, "meld 3H 3D 3C")
    round_.apply(1, "add 3 3S#1")
    round_.apply(1, "discard JK")
    assert round_.finished and round_.result().detail["went_out_by"] == "discard"


def test_going_out_without_the_announcement_is_refused() -> None:
    round_ = _to_second_turn(announce=False)
    round_.apply(1, "meld 3H 3D 3C")  # two cards left: one to discard, one to keep
    _refused(round_, 1, "add 3 3S#1 JK", "announce_first")
    _refused(round_, 1, "add 3 3S#1", "announce_first")
    round_.apply(1, "discard JK")
    assert not round_.finished and round_.view(1).hand == ("3S#1",)


def test_announcing_on_the_same_turn_does_not_allow_going_out() -> None:
    round_ = _to_second_turn(announce=False)
    round_.apply(1, "meld 3H 3D 3C")
    round_.apply(1, "announce")
    _refused(round_, 1, "add 3 3S#1 JK", "announce_first")


def test_last_card_may_not_be_discarded_without_the_announcement() -> None:
    round_ = _to_second_turn(announce=False)
    round_.apply(1, "meld 3H 3D 3C")
    round_.apply(1, "discard JK")
    draw_and_discard(round_, 2)
    draw_and_discard(round_, 3)
    draw_and_discard(round_, 0)
    drawn = round_.apply(1, "draw")[0].data["card"]
    _refused(round_, 1, "add 3 3S#1", "announce_first")  # would leave the drawn card alone
    round_.apply(1, "announce")
    round_.apply(1, f"discard {drawn.split('#')[0]}#{card(drawn).copy}")
    assert round_.view(1).hand == ("3S#1",)


def _take_down_to_one_card(
    announce: bool, hand: str = "3S 3H 3D 3C 4S 4H 4D 5S 5H 5D 7S 7H AC"
) -> DameRound:
    """Seat 2 melds down to 7S 7H and what else is left of `hand` beyond its packs of 3s, 4s
    and 5s; seat 1 takes the pile and discards 7D, so seat 2 could take a pile of that one 7."""
    round_ = stacked_round({1: "KH KD 7D", 2: hand, 0: "KS"})
    draw_and_discard(round_, 1)
    drawn = round_.apply(2, "draw")[0].data["card"]
    for rank in "345":
        round_.apply(2, f"meld {' '.join(c for c in hand.split() if c[0] == rank)}")
    if announce:
        round_.apply(2, "announce")
    round_.apply(2, f"discard {drawn.split('#')[0]}#{card(drawn).copy}")
    draw_and_discard(round_, 3)
    round_.apply(0, "draw")
    round_.apply(0, "discard KS")
    round_.apply(1, "take KH KD")
    round_.apply(1, "discard 7D")
    assert round_.public_view().discard == ("7D",)
    return round_


def test_take_that_would_leave_one_card_needs_the_announcement() -> None:
    round_ = _take_down_to_one_card(announce=False)
    assert round_.view(2).hand == ("7S", "7H", "AC")
    _refused(round_, 2, "take 7S 7H", "announce_first")
    legal = round_.view(2).legal
    assert legal is not None and legal.take == ()


def test_take_after_the_announcement_then_going_out_by_discard() -> None:
    round_ = _take_down_to_one_card(announce=True)
    round_.apply(2, "take 7S 7H")
    assert round_.view(2).hand == ("AC",)
    round_.apply(2, "discard AC")
    assert round_.finished and round_.result().detail["winner"] == 2


def test_going_out_by_a_take_that_lays_the_last_cards() -> None:
    hand = "3S 3H 3D 3C 4S 4H 4D 4C 5S 5H 5D 7S 7H"
    round_ = _take_down_to_one_card(announce=True, hand=hand)
    assert round_.view(2).hand == ("7S", "7H")
    events = round_.apply(2, "take 7S 7H")
    assert events[-1].kind == "out" and round_.finished
    assert round_.result().detail == {
        "winner": 2,
        "team": 0,
        "went_out_by": "lay",
        "packs": [5 * 4 + 5 * 4 + 5 * 3 + 5 * 3, 10 * 3],  # 3s, 4s, 5s, 7s; KH KD KS
        "hands": round_.result().detail["hands"],
    }


# -- scoring ---------------------------------------------------------------------------------
def test_winning_team_scores_its_packs_and_the_partners_hand_costs_nothing() -> None:
    round_ = _to_second_turn(announce=True)
    round_.apply(1, "meld 3H 3D 3C")
    round_.apply(1, "add 3 3S#1 JK")
    winners = (5 * 4 + 50) + 3 * 15  # 3 3 3 3 JK; 4s, 5s, 6s
    assert round_.result().points[1] == winners
    assert "QS#1" in round_.view(3).hand  # the partner's 100 points in hand are not deducted


def test_losing_team_scores_its_packs_minus_its_hands_and_may_be_negative() -> None:
    round_ = _to_second_turn(announce=True)
    round_.apply(1, "meld 3H 3D 3C")
    round_.apply(1, "add 3 3S#1 JK")
    packs = 100 + 10 + 20  # QS QH 2S
    hand_0 = 15 + 10 + 10 + 10 + 5 + 5 + 5 + 50 + 15 + 10  # AS KS JS 10S 9S 8S 7S JK AH KH
    hand_2 = 5 * 6 + 10 * 2 + 10 * 2 + 10 + 10 + 15  # 7-9 ×2, 10 ×2, J ×2, Q, K, A
    result = round_.result()
    assert result.points == (packs - hand_0 - hand_2, result.points[1])
    assert result.points[0] < 0
    assert result.detail["hands"][0] == hand_0 and result.detail["hands"][2] == hand_2


def test_result_before_the_end_is_refused() -> None:
    round_ = stacked_round({})
    with pytest.raises(IllegalAction):
        round_.result()


# -- the stock running out -------------------------------------------------------------------
def test_stock_running_out_reshuffles_the_discard_pile_deterministically() -> None:
    round_ = stacked_round({})
    while round_.public_view().stock_size:
        draw_and_discard(round_, round_.to_act()[0])
    pile = list(round_.pile)
    assert len(pile) == 56
    (seat,) = round_.to_act()
    events = round_.apply(seat, "draw")
    seed = " ".join(c.code for c in round_.deck_order) + "/reshuffle/1"
    expected = shuffled(pile, seed)
    assert events[0].kind == "reshuffle" and events[0].data == {"count": 1, "stock": 56}
    assert events[1].data["card"] == expected[0].code
    view = round_.public_view()
    assert (view.stock_size, view.discard, view.reshuffles) == (55, (), 1)
    again = GAME.replay(round_.record())
    assert again.public_view() == view and list(again.stock) == list(round_.stock)


def test_stock_empty_the_pile_may_still_be_taken_without_a_reshuffle() -> None:
    round_ = stacked_round({1: "7D", 2: "7S 7H"}, dealer=1)  # seat 2 plays first
    while round_.public_view().stock_size > 1:
        draw_and_discard(round_, round_.to_act()[0])
    round_.apply(1, "draw")  # the last card of the stock
    round_.apply(1, "discard 7D")
    events = round_.apply(2, "take 7S 7H")
    view = round_.public_view()
    assert [e.kind for e in events] == ["take"] and view.reshuffles == 0
    assert view.stock_size == 0 and view.discard == () and view.hand_sizes[2] == 13 - 2 + 55


# -- the match -------------------------------------------------------------------------------
def test_first_team_to_reach_the_target_wins() -> None:
    assert GAME.match_winners([999, 400], 1000) is None
    assert GAME.match_winners([1000, 400], 1000) == (0,)
    assert GAME.match_winners([400, 1200], 1000) == (1,)


def test_both_teams_past_target_the_higher_total_wins() -> None:
    match = Match(GAME, GAME.options(), 4)
    match.add_round(RoundResult(points=(900, 950)))
    match.add_round(RoundResult(points=(200, 100)))
    assert match.totals == [1100, 1050] and match.winners == (0,)
    assert match.winner_seats() == (0, 2)


def test_both_teams_past_target_with_equal_totals_play_another_hand() -> None:
    match = Match(GAME, GAME.options(target=1000), 4)
    match.add_round(RoundResult(points=(900, 950)))
    match.add_round(RoundResult(points=(150, 100)))
    assert match.totals == [1050, 1050] and not match.finished
    match.add_round(RoundResult(points=(-20, 10)))
    assert match.winners == (1,)
