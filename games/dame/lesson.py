"""Québec Dame de Pique's guided first hand (`/dame learn`): the learner and three bots.

The learner (seat 0, partner at seat 2) deals, so the three bots play first, each drawing and
discarding: the last discard is an 8, and the learner holds two 8s. Their first turn takes the
pile with them (the pile gives back a 9 and a K the bots threw), lays a pack of 9s, a pack of
Ks completed by a 2 (a wild card), a pack of Qs with the Q♠ (100 points, safe once laid), then
knocks before the discard, which leaves the joker alone in hand. After the bots' second turns
the learner draws, adds the joker to the Qs and discards the last card: out, and the hand (and
the match, its target being low) is won.

Deal (docs/rules/dame.md): one card at a time from the dealer's left (seat 1) round to the
dealer; the next card tops the stock.
"""

from __future__ import annotations

from random import Random
from types import MappingProxyType

from games.dame.actions import DameAction, parse_action
from games.dame.game import GAME
from games.dame.round import DameRound
from games.lesson import LEARNER, Lesson, Step

HANDS = (
    ("9S", "9H", "9D", "KC", "KD", "2C", "QS", "QH", "QD", "8S", "8H", "5C", "JK"),  # the learner
    ("3S", "3H", "3D", "3C", "4S", "4H", "4D", "4C", "6S", "6H", "6D", "6C", "7S"),
    ("3S", "3H", "3D", "3C", "4S", "4H", "4D", "4C", "6S", "6H", "6D", "6C", "7H"),
    ("5S", "5H", "5D", "7D", "7C", "10S", "10H", "10D", "10C", "JS", "JH", "JD", "JC"),
)
# drawn in this order: each bot discards what it drew
STOCK = ("9C", "KH", "8D", "AS", "AH", "AD", "10S")


def _dealt() -> tuple[str, ...]:
    """The hands in the deck's order: card i goes to seat (1 + i) % 4, the dealer last."""
    return tuple(HANDS[(1 + i) % 4][i // 4] for i in range(52))


# a discard or a knock before the packs are laid
TOO_SOON = MappingProxyType({"discard": "early_discard", "announce": "early_knock"})


def _bot_turn(seat: int, card: str) -> tuple[Step, Step]:
    return Step(seat, "draw"), Step(seat, f"discard {card}")


LESSON = Lesson(
    game="dame",
    preset="standard",
    # one hand: the learner's team goes out past the target
    options=GAME.options("standard", target=100),
    seats=4,
    deck=(*_dealt(), *STOCK),
    steps=(
        *_bot_turn(1, "9C"),
        *_bot_turn(2, "KH"),
        *_bot_turn(3, "8D"),
        Step(
            LEARNER,
            "take 8S 8H",
            say="take",
            wrong=MappingProxyType({"draw": "take.draw"}),
        ),
        Step(LEARNER, "meld 9S 9H 9D 9C", say="pack", wrong=TOO_SOON),
        Step(LEARNER, "meld KH KD KC 2C", say="wild", wrong=TOO_SOON),
        Step(
            LEARNER,
            "meld QS QH QD",
            say="queen",
            wrong=MappingProxyType({**TOO_SOON, "discard QS": "queen.discard_qs"}),
        ),
        Step(
            LEARNER,
            "announce",
            say="knock",
            wrong=MappingProxyType({"discard": "knock.discard"}),
        ),
        Step(LEARNER, "discard 5C", say="discard"),
        *_bot_turn(1, "AS"),
        *_bot_turn(2, "AH"),
        *_bot_turn(3, "AD"),
        Step(LEARNER, "draw", say="draw"),
        Step(
            LEARNER,
            "add Q JK",
            say="add",
            wrong=MappingProxyType({"discard": "add.discard", "announce": "add.knock"}),
        ),
        Step(LEARNER, "discard 10S", say="out", wrong=MappingProxyType({"announce": "out.knock"})),
    ),
)


def choose_action(round_: DameRound, seat: int, rng: Random) -> DameAction:
    """The bot players' moves at a lesson table: the script's (the `lesson` bot level)."""
    return parse_action(LESSON.scripted_move(round_, seat))


def default_action(round_: DameRound, seat: int) -> DameAction:
    """A timed-out turn at a lesson table plays the script's move too."""
    return parse_action(LESSON.scripted_move(round_, seat))
