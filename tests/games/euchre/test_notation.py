from __future__ import annotations

import pytest

from games.cards import card
from games.errors import NotationError
from games.euchre import GAME
from games.euchre.actions import CALL, CALL_ALONE, DISCARD, ORDER, ORDER_ALONE, PASS, PLAY
from games.euchre.ranking import DECK
from games.registry import get_game

EVERY_ACTION = [
    PASS,
    ORDER,
    ORDER_ALONE,
    *CALL.values(),
    *CALL_ALONE.values(),
    *DISCARD.values(),
    *PLAY.values(),
]


@pytest.mark.parametrize("action", EVERY_ACTION, ids=str)
def test_every_action_round_trips_through_its_notation(action: object) -> None:
    assert GAME.parse_action(str(action)) == action


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("pass", PASS),
        ("order", ORDER),
        ("order alone", ORDER_ALONE),
        ("call H", CALL["H"]),
        ("call H alone", CALL_ALONE["H"]),
        ("discard 9C", DISCARD[card("9C")]),
        ("play JD", PLAY[card("JD")]),
        ("  Play  jd ", PLAY[card("JD")]),
        ("call ♠", CALL["S"]),
        ("play 10♥", PLAY[card("10H")]),
    ],
)
def test_notation_examples_of_the_readme(text: str, expected: object) -> None:
    assert GAME.parse_action(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "",
        "fly",
        "pass now",
        "order together",
        "call",
        "call X",
        "call H solo",
        "play 2C",
        "play ZZ",
        "discard",
        "play JD JH",
    ],
)
def test_unparsable_text_is_a_notation_error(text: str) -> None:
    with pytest.raises(NotationError) as error:
        GAME.parse_action(text)
    assert error.value.rule == "bad_notation"


def test_notation_of_the_examples_is_exactly_the_documented_text() -> None:
    assert [str(a) for a in (PASS, ORDER, ORDER_ALONE, CALL["H"], CALL_ALONE["H"])] == [
        "pass",
        "order",
        "order alone",
        "call H",
        "call H alone",
    ]
    assert str(DISCARD[card("9C")]) == "discard 9C" and str(PLAY[card("10D")]) == "play 10D"


def test_game_surface_teams_seats_deck_and_presets() -> None:
    assert GAME.name == "euchre" and get_game("euchre") is GAME
    assert GAME.sides(4) == ((0, 2), (1, 3))
    assert (GAME.min_seats, GAME.max_seats) == (4, 4)
    assert sorted(c.name for c in GAME.deck(GAME.options())) == sorted(c.name for c in DECK)
    assert len(DECK) == 24 and {c.rank for c in DECK} == {"9", "10", "J", "Q", "K", "A"}
    standard = GAME.options("standard")
    assert standard == GAME.options()
    assert (standard.stick_the_dealer, standard.dealer_discard) == (True, "choose")
    assert (standard.farmers_hand, standard.target) == (False, 10)
    assert GAME.options("cards4net").dealer_discard == "auto"
    assert GAME.options("farmers") == standard.model_copy(update={"farmers_hand": True})
    assert GAME.options("no_stick") == standard.model_copy(update={"stick_the_dealer": False})
    with pytest.raises(ValueError):
        GAME.options(dealer_discard="random")
