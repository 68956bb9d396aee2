"""Dutch's guided first hand (`/dutch learn`): classic rules, the learner against one bot.

The deck is stacked so each rule comes when it first matters: the peek (the learner sees a 0
and a 9), each card's value and power (a Queen drawn and discarded looks at the bot's joker,
a Jack drawn and discarded gives the 9 for that joker), then calling Dutch with two cards
still unknown, and its risk. The learner (seat 0) deals, so the bot plays first and the
learner watches a turn before playing one.

Deal (docs/rules/dutch.md): seat 0 gets the first four cards (slots 1-4), seat 1 the next
four, the next card starts the discard pile, the rest is the stock in order.
"""

from __future__ import annotations

from random import Random
from types import MappingProxyType

from games.dutch.actions import DutchAction
from games.dutch.options import CLASSIC
from games.dutch.round import DutchRound
from games.lesson import LEARNER, Lesson, Step

BOT = 1

LESSON = Lesson(
    game="dutch",
    preset="classic",
    # one hand: the bot ends it past the target, so the match ends with the lesson
    options=CLASSIC.model_copy(update={"target": 10}),
    seats=2,
    deck=(
        # the learner's grid: slots 1 and 2 stay unknown, 3 and 4 are peeked (0 and 9)
        *("5C", "2D", "KS", "9H"),
        # the bot's grid: its joker (slot 1) is the card the Queen finds
        *("JK", "7S", "6D", "8C"),
        "4S",  # the discard pile's first card
        # the stock, in the order drawn
        *("3H", "QD", "10C", "JC", "4D", "2S"),
        *("5H", "6H", "7H", "8H", "10H"),
    ),
    steps=(
        Step(BOT, "peek 1 2"),
        Step(
            LEARNER,
            "peek 3 4",
            say="peek",
        ),
        Step(BOT, "draw"),  # the 3♥
        Step(BOT, "swap 4"),  # its 8♣ goes to the discard pile
        Step(
            LEARNER,
            "draw",
            say="draw",
            wrong=MappingProxyType({"take": "draw.take", "dutch": "draw.dutch"}),
        ),
        Step(LEARNER, "discard", say="queen", wrong=MappingProxyType({"swap": "queen.swap"})),
        Step(LEARNER, "look 1:1", say="look", wrong=MappingProxyType({"skip": "look.skip"})),
        Step(BOT, "draw"),  # the 10♣
        Step(BOT, "discard"),
        Step(
            LEARNER,
            "draw",
            say="draw_again",
            wrong=MappingProxyType({"take": "draw_again.take", "dutch": "draw.dutch"}),
        ),
        Step(LEARNER, "discard", say="jack", wrong=MappingProxyType({"swap": "jack.swap"})),
        Step(
            LEARNER,
            "jack 4 1:1",
            say="jack_swap",
            wrong=MappingProxyType({"skip": "jack_swap.skip"}),
        ),
        Step(BOT, "draw"),  # the 4♦
        Step(BOT, "swap 1"),  # the 9♥ the learner gave it goes
        Step(LEARNER, "dutch", say="call"),
        Step(BOT, "draw"),  # its last turn: the 2♠
        Step(BOT, "swap 2"),
    ),
)


def choose_action(round_: DutchRound, seat: int, rng: Random) -> DutchAction:
    """The bot players' moves at a lesson table: the script's (the `lesson` bot level)."""
    from games.dutch.actions import parse_action

    return parse_action(LESSON.scripted_move(round_, seat))


def default_action(round_: DutchRound, seat: int) -> DutchAction:
    """A timed-out turn at a lesson table plays the script's move too."""
    from games.dutch.actions import parse_action

    return parse_action(LESSON.scripted_move(round_, seat))
