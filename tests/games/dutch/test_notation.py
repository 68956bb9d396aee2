from __future__ import annotations

import pytest

from games.dutch import GAME
from games.dutch import actions as act
from games.errors import IllegalAction, NotationError

EXAMPLES = [
    "peek 3 4",
    "dutch",
    "draw",
    "take",
    "swap 2",
    "discard",
    "look 1:3",
    "jack 2 1:3",
    "seven 2",
    "nine 2 1:3",
    "nine drawn 1:3",
    "skip",
    "match 5",
    "end",
]


@pytest.mark.parametrize("text", EXAMPLES)
def test_notation_round_trips(text: str) -> None:
    action = GAME.parse_action(text)
    assert str(action) == text
    assert GAME.parse_action(str(action)) == action


def test_parsing_ignores_case_spaces_and_peek_order() -> None:
    assert GAME.parse_action("  PEEK 4   3 ") == act.peek(3, 4)
    assert GAME.parse_action("Nine Drawn 0:2") == act.Nine(None, 0, 2)
    assert GAME.parse_action("swap 2") is GAME.parse_action("swap 2")


@pytest.mark.parametrize(
    "text", ["", "fly", "swap", "swap x", "swap -1", "look 3", "jack 2 3", "draw 2", "peek 1"]
)
def test_bad_notation_is_a_notation_error(text: str) -> None:
    with pytest.raises(NotationError) as error:
        GAME.parse_action(text)
    assert isinstance(error.value, IllegalAction)
    assert error.value.rule == "bad_notation"


@pytest.mark.parametrize("text", ["swap ²", "look 1:³", "jack ٣ 1:2", "swap 1234", "swap -1"])
def test_non_ascii_or_oversized_numbers_are_notation_errors(text: str) -> None:
    with pytest.raises(NotationError):
        GAME.parse_action(text)
