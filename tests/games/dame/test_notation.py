from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.dame import GAME, DameAction, DameOptions
from games.dame.actions import KINDS, TOKENS, add, announce, discard, draw, meld, take
from games.errors import NotationError


@pytest.mark.parametrize(
    "text",
    [
        "draw",
        "take 7S 7H",
        "take",
        "meld 7S 7H 2C",
        "add 7 7D",
        "add 7 7D JK",
        "announce",
        "discard QS",
        "discard QS#1",
        "discard QS#0",
        "meld Q Q JK",
        "add 10 10H#1 2S",
    ],
)
def test_notation_round_trips(text: str) -> None:
    action = GAME.parse_action(text)
    assert str(action) == text
    assert GAME.parse_action(str(action)) == action


def test_notation_is_canonical_whatever_the_token_order_case_or_symbols() -> None:
    expected = meld("7S", "7H", "2C")
    assert GAME.parse_action("meld 2C 7H 7S") == expected
    assert GAME.parse_action("MELD 7♥ 7♠ 2♣") == expected
    assert str(GAME.parse_action("meld 2c 7h 7s")) == "meld 7S 7H 2C"
    assert str(add("7", "jk", "7d")) == "add 7 7D JK"


def test_notation_tells_names_codes_and_ranks_apart() -> None:
    names = {GAME.parse_action(t) for t in ("discard QS", "discard QS#0", "discard QS#1")}
    assert len(names) == 3
    assert GAME.parse_action("take 7 7").cards == ("7", "7")


def test_notation_helpers_build_the_documented_actions() -> None:
    assert [str(a) for a in (draw(), take("7H", "7S"), announce(), discard("QS"))] == [
        "draw",
        "take 7S 7H",
        "announce",
        "discard QS",
    ]


@pytest.mark.parametrize(
    "text",
    [
        "",
        "fly",
        "meld",
        "draw QS",
        "announce 7H",
        "discard",
        "discard QS QH",
        "add 2 2C",
        "add X 7D",
        "add 7",
        "meld 1Z 7H",
        "discard QS#2",
        "take 7H 7S#9",
        "add",
    ],
)
def test_bad_notation_is_a_notation_error(text: str) -> None:
    with pytest.raises(NotationError):
        GAME.parse_action(text)


def test_action_built_in_code_is_checked_like_notation() -> None:
    with pytest.raises(NotationError):
        DameAction("fly")
    with pytest.raises(NotationError):
        DameAction("meld", ("XX",))


def test_options_model_defaults_and_changes() -> None:
    assert GAME.options() == DameOptions(target=1000, take_onto_team_pack=False)
    assert GAME.options(target=300, take_onto_team_pack=True).take_onto_team_pack
    with pytest.raises(ValueError):
        GAME.options(target=0)


def test_deck_is_two_54_card_decks_of_distinct_cards() -> None:
    deck = GAME.deck(GAME.options())
    assert len(deck) == 108 and len({c.code for c in deck}) == 108
    assert sum(c.is_joker for c in deck) == 4
    assert sum(c.name == "QS" for c in deck) == 2


def test_sides_are_partners_facing_each_other() -> None:
    assert GAME.sides(4) == ((0, 2), (1, 3))
    assert GAME.side_of(2, 4) == 0 and GAME.side_of(3, 4) == 1


token_texts = st.sampled_from(sorted(TOKENS))


@settings(max_examples=200, deadline=None, derandomize=True, database=None)
@given(
    kind=st.sampled_from(KINDS),
    cards=st.lists(token_texts, min_size=1, max_size=6),
    rank=st.sampled_from(["3", "7", "10", "Q", "A"]),
)
def test_any_action_round_trips_through_its_notation(
    kind: str, cards: list[str], rank: str
) -> None:
    if kind in ("draw", "announce"):
        action = DameAction(kind)
    elif kind == "discard":
        action = DameAction(kind, (cards[0],))
    else:
        action = DameAction(kind, tuple(cards), rank if kind == "add" else "")
    assert GAME.parse_action(str(action)) == action
    assert GAME.parse_action(str(action).lower()) == action
